"""Reads the pages need beyond the shared match and standings reads (kept apart so the pages own them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

import variants
from online.models import Room
from tournaments import selectors
from tournaments.models import Entry, HandRecord, Match, Stage, Tournament

SUIT_SYMBOLS = {**variants.SUIT_SYMBOLS, "": "NT"}


def entries_of(tournament: Tournament) -> QuerySet[Entry]:
    """Every entry (active first, by seed), with its team's players."""
    return (tournament.entries.select_related("team__player1", "team__player2", "player")
            .order_by("status", "seed", "id"))


def stages_of(tournament: Tournament) -> list[Stage]:
    return list(tournament.stages.order_by("number"))


@dataclass
class BracketSlot:
    entry: Entry | None
    side: int
    level: str | None = None
    won: bool = False
    lost: bool = False
    waiting_for: str = ""  # the key of the match whose winner (or loser) fills this slot


@dataclass
class BracketMatch:
    match: Match
    slots: list[BracketSlot]
    row: int = 1  # grid row and span: a match of round r spans 2^(r-1) rows of the first round
    span: int = 1
    joins: str = ""
    """Connector to the next column, as on a printed bracket: ``"down"`` (the upper match of a pair:
    the line runs down to the pair's middle), ``"up"`` (the lower one), ``""`` (none)."""
    fed: bool = False
    """Whether a connector comes in from the previous column."""

    @property
    def live(self) -> bool:
        return self.match.status == Match.Status.PLAYING


def _slot_number(match: Match) -> int:
    """The match's 1-based place in its round of the full power-of-two bracket (``R2-M3`` → 3)."""
    found = re.fullmatch(r"R\d+-M(\d+)", match.key)
    return int(found.group(1)) if found else match.position + 1


def bracket_columns(stage: Stage) -> list[dict[str, Any]]:
    """:func:`selectors.bracket_tree` with what a drawing needs per slot: seed, live level, winner,
    and for an empty slot the match it waits for."""
    columns = selectors.bracket_tree(stage)
    feeders: dict[tuple[int, int], str] = {}
    for column in columns:
        for m in column["matches"]:
            if m.next_match_id is not None and m.next_slot is not None:
                feeders[(m.next_match_id, m.next_slot)] = m.key
            if m.loser_next_match_id is not None and m.loser_next_slot is not None:
                feeders[(m.loser_next_match_id, m.loser_next_slot)] = m.key
    main_rounds = [c["number"] for c in columns if c["number"]]
    rows = 2 ** (max(main_rounds, default=1) - 1)
    out = []
    for column in columns:
        span = 2 ** (column["number"] - 1) if column["number"] else rows
        drawn = []
        for m in column["matches"]:
            levels = (m.state or {}).get("levels") or [None, None]
            slots = []
            for side in (0, 1):
                entry = m.entry(side)
                slots.append(BracketSlot(
                    entry=entry, side=side, level=levels[side] if m.hands_played else None,
                    won=m.winner_side == side, lost=m.winner_side is not None and m.winner_side != side,
                    waiting_for="" if entry else feeders.get((m.pk, side), ""),
                ))
            row = (_slot_number(m) - 1) * span + 1 if column["number"] else 1
            drawn.append(BracketMatch(match=m, slots=slots, row=min(row, rows), span=span))
        out.append({**column, "matches": drawn, "rows": rows})
    _connect(out)
    return out


def _connect(columns: list[dict[str, Any]]) -> None:
    """Mark the connectors between a match and the match its winner goes to, when that match is
    drawn in the next column (the third-place match and losers' moves have none)."""
    column_of = {bm.match.pk: (i, bm) for i, column in enumerate(columns) for bm in column["matches"]}
    for i, column in enumerate(columns):
        for bm in column["matches"]:
            target = column_of.get(bm.match.next_match_id or 0)
            if target is None or target[0] != i + 1 or not columns[i + 1]["number"] or bm.match.next_slot is None:
                continue
            bm.joins = "down" if bm.match.next_slot == 0 else "up"
            target[1].fed = True


def tables_with_seats(tournament: Tournament) -> list[dict[str, Any]]:
    """The current tables, each with its seat names and who deals next."""
    matches = list(Match.objects.filter(stage__tournament=tournament,
                                        status__in=[Match.Status.READY, Match.Status.PLAYING])
                   .exclude(section="table")
                   .select_related("round", "stage__tournament", "entry0__team__player1", "entry0__team__player2",
                                   "entry0__player", "entry1__team__player1", "entry1__team__player2",
                                   "entry1__player")
                   .order_by("table", "position"))
    rooms = online_rooms_of([m for m in matches if m.is_online])  # watched live at their online tables
    rows = []
    for m in matches:
        seats = selectors.seat_names(m)
        preview = selectors.next_dealer_preview(m)
        levels = (m.state or {}).get("levels") or ["", ""]
        sides = [{"entry": m.entry(side), "seats": (seats[side], seats[side + 2]), "level": levels[side]}
                 for side in (0, 1)]
        rows.append({"match": m, "seats": seats, "preview": preview, "sides": sides,
                     "round": selectors.round_label(m.round.name),
                     "dealer_name": seats[preview["dealer"]] if preview else "", "room": rooms.get(m.pk)})
    return rows


def online_rooms_of(matches: list[Match]) -> dict[int, Room]:
    """The newest online room of each match (one query; none for physical matches)."""
    if not matches:
        return {}
    rooms: dict[int, Room] = {}
    for room in Room.objects.filter(owner_kind="match", owner_id__in=[m.pk for m in matches]).order_by("id"):
        rooms[int(room.owner_id or 0)] = room
    return rooms


def open_matches(tournament: Tournament) -> list[Match]:
    """Matches an organizer may award: two entries, not finished."""
    return list(selectors.matches_of(tournament).filter(status__in=[Match.Status.READY, Match.Status.PLAYING])
                .exclude(section="table"))


def hand_rows(match: Match) -> list[dict[str, Any]]:
    """The hand-by-hand history of a match, ready for a table (uses the prefetched hands)."""
    seats = selectors.seat_names(match)
    rows = []
    hands: list[HandRecord] = list(match.hands.all())
    for hand in hands:
        outcome = hand.outcome or {}
        result = hand.result or {}
        last = outcome.get("last_trick") or {}
        gain = result.get("level_gain")
        side = result.get("gaining_side")
        rows.append({
            "hand": hand,
            "dealer_name": seats[hand.dealer] if 0 <= hand.dealer < 4 else "",
            "dealer_side": hand.dealer % 2,
            "trump": SUIT_SYMBOLS.get(hand.trump, hand.trump),
            "attackers_points": outcome.get("attackers_points"),
            "kitty_points": outcome.get("kitty_points"),
            "last_winner": last.get("winner"),
            "last_largest": last.get("largest"),
            "a_first_trick": outcome.get("a_first_trick"),
            "a_last_trick": outcome.get("a_last_trick"),
            "throw_penalties": outcome.get("throw_penalties"),
            "attackers_total": result.get("attackers_total"),
            "level_gain": gain,
            "gaining_side": side,
            "deal_changes": result.get("deal_changes"),
            "levels": (result.get("state") or {}).get("levels") or ["", ""],
            "match_winner": result.get("match_winner"),
            "entered_by": hand.entered_by.get_username() if hand.entered_by else "",
            "entered_via": hand.entered_via,
        })
    return rows


def match_for_token(token: str) -> Match | None:
    if not token:
        return None
    match = Match.objects.filter(scorer_token=token).only("pk").first()
    return selectors.match_detail(match.pk) if match else None


# --------------------------------------------------------------------------- other formats (issue 6)

ELIMINATION = (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION)


def _entry_related() -> tuple[str, ...]:
    return ("round", "stage", "entry0__team__player1", "entry0__team__player2", "entry0__player",
            "entry1__team__player1", "entry1__team__player2", "entry1__player")


def stage_rounds(stage: Stage, *, current_only: bool = False) -> list[dict[str, Any]]:
    """The rounds of a Swiss or round-robin stage: pairings by board, then the bye.

    ``current_only``: only the rounds that still have an open match (or else the last round)."""
    matches = list(stage.matches.select_related(*_entry_related()).order_by("round__number", "position"))
    rounds: dict[int, dict[str, Any]] = {}
    for m in matches:
        rnd = rounds.setdefault(m.round.number, {"number": m.round.number, "name": selectors.round_label(m.round.name),
                                                 "pairings": [], "byes": [], "open": False})
        if m.status == Match.Status.BYE:
            rnd["byes"].append(m.entry0)
            continue
        levels = (m.state or {}).get("levels") or ["", ""]
        rnd["pairings"].append({"match": m, "board": m.table or m.position, "levels": levels,
                                "final": selectors.is_final(m),
                                "awaiting": m.status == Match.Status.FINISHED and m.confirmed_at is None})
        if not selectors.is_final(m):
            rnd["open"] = True
    out = [rounds[k] for k in sorted(rounds)]
    if current_only and out:
        open_rounds = [r for r in out if r["open"]]
        out = open_rounds or out[-1:]
    return out


def table_seats(match: Match) -> list[dict[str, Any]]:
    """The players at an individual table in seat order, with running totals and who is first."""
    state = match.state or {}
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    totals = state.get("totals") or [0] * len(seats)
    first = state.get("first")
    dealer = state.get("dealer")
    return [{"seat": s.seat, "entry": s.entry, "name": s.entry.name, "total": totals[s.seat] if s.seat < len(totals) else 0,
             "first": s.seat == first, "dealer": s.seat == dealer} for s in seats]


def individual_tables(stage: Stage, *, current_only: bool = True) -> list[dict[str, Any]]:
    """The tables of a stage of table rounds (the latest round, or every round), with seats and totals."""
    matches = list(stage.matches.select_related("round").prefetch_related("seats__entry__player")
                   .order_by("-round__number" if current_only else "round__number", "position"))
    if current_only and matches:
        latest = matches[0].round.number
        matches = sorted((m for m in matches if m.round.number == latest), key=lambda m: m.position)
    sit_outs = (stage.settings or {}).get("sit_outs") or {}
    names = {e.pk: e.name for e in stage.tournament.entries.select_related("team", "player")}
    rounds: dict[int, dict[str, Any]] = {}
    for m in matches:
        rnd = rounds.setdefault(m.round.number, {
            "number": m.round.number, "name": selectors.round_label(m.round.name), "tables": [],
            "sit_outs": [names.get(pk, "?") for pk in sit_outs.get(str(m.round.number), [])]})
        rnd["tables"].append({"match": m, "seats": table_seats(m), "hands_planned": stage.hands_per_table,
                              "awaiting": m.status == Match.Status.FINISHED and m.confirmed_at is None})
    return [rounds[k] for k in sorted(rounds)]


def format_sections(tournament: Tournament, *, current_only: bool) -> list[dict[str, Any]]:
    """Every started stage that is not an elimination, with its rounds (Swiss, round robin) or its
    individual tables — what the tables page and the home page show besides the bracket."""
    out = []
    for stage in tournament.stages.exclude(status=Stage.Status.PENDING).order_by("-number"):
        if stage.format in ELIMINATION:
            continue
        if stage.format == Stage.Format.TABLE_ROUNDS:
            out.append({"stage": stage, "kind": "tables", "rounds": individual_tables(stage, current_only=current_only)})
        else:
            out.append({"stage": stage, "kind": "pairings", "rounds": stage_rounds(stage, current_only=current_only)})
    return out


def individual_hand_rows(match: Match) -> list[dict[str, Any]]:
    """The hands of an individual table: the figures and each seat's game points (or net)."""
    rows = []
    for hand in match.hands.all():
        outcome = hand.outcome or {}
        result = hand.result or {}
        values = result.get("game_points") if "game_points" in result else result.get("net") or []
        rows.append({"hand": hand, "outcome": outcome, "values": values,
                     "trump": SUIT_SYMBOLS.get(str(outcome.get("trump") or ""), outcome.get("trump")),
                     "entered_by": hand.entered_by.get_username() if hand.entered_by else ""})
    return rows


def awaiting_confirmation(tournament: Tournament) -> list[Match]:
    """Finished matches whose result still waits for the losing side's (or an organizer's) confirmation."""
    return list(Match.objects.filter(stage__tournament=tournament, status=Match.Status.FINISHED,
                                     confirmed_at__isnull=True).select_related(*_entry_related())
                .order_by("stage__number", "round__number", "position"))
