"""Reads the pages need beyond :mod:`tournaments.selectors` (kept apart so the pages own them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from tournaments import selectors
from tournaments.models import Entry, HandRecord, Match, Stage, Tournament

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦", "": "NT"}


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
    return out


def tables_with_seats(tournament: Tournament) -> list[dict[str, Any]]:
    """The current tables, each with its seat names and who deals next."""
    matches = list(Match.objects.filter(stage__tournament=tournament,
                                        status__in=[Match.Status.READY, Match.Status.PLAYING])
                   .select_related("round", "stage", "entry0__team__player1", "entry0__team__player2",
                                   "entry0__player", "entry1__team__player1", "entry1__team__player2",
                                   "entry1__player")
                   .order_by("table", "position"))
    rows = []
    for m in matches:
        seats = selectors.seat_names(m)
        preview = selectors.next_dealer_preview(m)
        levels = (m.state or {}).get("levels") or ["", ""]
        sides = [{"entry": m.entry(side), "seats": (seats[side], seats[side + 2]), "level": levels[side]}
                 for side in (0, 1)]
        rows.append({"match": m, "seats": seats, "preview": preview, "sides": sides,
                     "round": selectors.round_label(m.round.name),
                     "dealer_name": seats[preview["dealer"]] if preview else ""})
    return rows


def open_matches(tournament: Tournament) -> list[Match]:
    """Matches an organizer may award: two entries, not finished."""
    return list(selectors.matches_of(tournament).filter(status__in=[Match.Status.READY, Match.Status.PLAYING]))


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
