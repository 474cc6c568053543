"""Standings: of an elimination (places by the round reached), of a stage in its format's metric with its
ordered tiebreaks, and the final results the pure tiebreaks and pairings are fed with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy

from tournaments.formats import tiebreaks
from tournaments.models import Adjustment, Entry, Match, Stage, Tournament
from tournaments.selectors.matches import is_final, level_index


@dataclass
class StandingRow:
    entry: Entry
    rank: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    level_difference: int = 0
    reached: int = 0  # the furthest round reached
    alive: bool = True
    place: str = ""
    standing_place: str = ""
    """``place`` when decided, else the place shared by the entries out in the same round, else the
    range of places an entry still playing can reach (``1–4``): what the printed standings show."""
    place_open: bool = False
    """The entry still plays for its place (in the bracket, or in a third-place match to come):
    ``standing_place`` is the range it can reach."""
    current_level: str | None = None
    opponent_level: str | None = None
    matches: list[Match] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def entry_place(self) -> str | None:
        """The place of an entry no longer playing — decided, or shared by the entries out in the same
        round — as the printed standings show it (``standing_place``); None while it still plays."""
        if self.place:
            return self.place
        return None if self.place_open else self.standing_place or None

    @property
    def place_range(self) -> str | None:
        """The places an entry still playing can reach (``1–2``, ``3–4``, or one place), as printed;
        else None."""
        return self.standing_place or None if self.place_open and not self.place else None


def elimination_standings(tournament: Tournament, stage: Stage | None = None) -> list[StandingRow]:
    """Standings of an elimination: furthest round reached, then match wins, then level difference
    (级差: the sum over finished matches of own level minus the opponent's at the match's end).
    Rows equal on all three share a rank ("1224"). Two queries whatever the size."""
    entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("team", "player"))
    matches_qs = Match.objects.filter(stage=stage) if stage is not None else Match.objects.filter(
        stage__tournament=tournament, stage__format__in=["single_elimination", "double_elimination"])
    matches = list(matches_qs.select_related("round").order_by("round__number", "position"))
    if stage is not None and stage.source_stage_id:
        playing = {m.entry0_id for m in matches} | {m.entry1_id for m in matches}
        entries = [e for e in entries if e.pk in playing]
    rows = {e.pk: StandingRow(entry=e) for e in entries}
    for m in matches:
        for side, entry_id in ((0, m.entry0_id), (1, m.entry1_id)):
            row = rows.get(entry_id) if entry_id else None
            if row is None:
                continue
            row.reached = max(row.reached, m.round.number)
            row.matches.append(m)
            levels = (m.state or {}).get("levels")
            if is_final(m):
                row.played += 1
                won = m.winner_side == side
                row.wins += int(won)
                row.losses += int(not won)
                if levels:
                    row.level_difference += level_index(levels[side]) - level_index(levels[1 - side])
            elif levels:
                row.current_level, row.opponent_level = levels[side], levels[1 - side]
    lives = 2 if any(m.section == "winners" for m in matches) else 1
    for row in rows.values():
        eliminating = [m for m in row.matches if is_final(m) and m.section != "third_place"
                       and m.winner_side is not None and m.entry_id(1 - m.winner_side) == row.entry.pk]
        row.alive = len(eliminating) < lives and not any(m.status == Match.Status.FINISHED and m.next_match_id is None
                                                         and m.section in ("main", "grand_final") for m in row.matches)
    for entry_id, place in _places(matches).items():
        if entry_id in rows:
            rows[entry_id].place = place
    _shared_places(list(rows.values()), lives)
    ordered = sorted(rows.values(), key=_standing_key)
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(ordered, start=1):
        key = _standing_key(row)
        row.rank = ordered[index - 2].rank if previous == key else index
        previous = key
    return ordered


def _places(matches: list[Match]) -> dict[int, str]:
    """Places decided by the deciding matches: the final (and third-place match) of a single
    elimination; the grand final (its reset when played) of a double elimination; without a grand
    final, the winners' final gives 1st and the losers' final 2nd and 3rd."""
    finished = [m for m in matches if is_final(m) and m.winner_side is not None]
    by_section: dict[str, list[Match]] = {}
    for m in finished:
        by_section.setdefault(m.section, []).append(m)
    places: dict[int, str] = {}

    def decide(m: Match, first: str, second: str) -> None:
        side = m.winner_side or 0
        places[m.entry_id(side) or 0] = first
        places[m.entry_id(1 - side) or 0] = second

    for m in by_section.get("main", []):
        if m.next_match_id is None:
            decide(m, "1", "2")
    for m in by_section.get("third_place", []):
        decide(m, "3", "4")
    grand = sorted(by_section.get("grand_final", []), key=lambda m: m.key)
    if grand:
        decide(grand[-1], "1", "2")
    elif any(m.section == "winners" for m in matches):
        for m in by_section.get("winners", []):
            if m.next_match_id is None:
                places[m.entry_id(m.winner_side)] = "1"  # type: ignore[index,arg-type]
        for m in by_section.get("losers", []):
            if m.next_match_id is None:
                decide(m, "2", "3")
    return places


def _shared_places(rows: list[StandingRow], lives: int) -> None:
    """Every entry without a decided place gets one, from the places no final has decided, best first:
    the entries still playing take the first ones and get the range they can still reach (``1–4``);
    then the entries knocked out, the later round first, each round's entries sharing the best place of
    their block (the four quarter-final losers of an eight-team bracket are all 5th). Two semi-final
    losers whose third-place match is still to be decided play for ``3–4``."""
    for row in rows:
        row.standing_place = row.place
        row.place_open = False
    taken = {int(row.place) for row in rows if row.place.isdigit()}
    free = [p for p in range(1, len(rows) + 1) if p not in taken]
    alive = [row for row in rows if not row.place and row.alive]
    out_round: dict[int, int] = {}
    for row in rows:
        if row.place or row.alive:
            continue
        knocked = [m.round.number for m in row.matches if is_final(m) and m.section != "third_place"
                   and m.winner_side is not None and m.entry_id(1 - m.winner_side) == row.entry.pk]
        out_round[row.entry.pk] = max(knocked, default=0)
        row.place_open = any(m.section == "third_place" and not is_final(m) for m in row.matches)
    for row in alive:
        row.place_open = True
    groups = [alive] if alive else []
    for number in sorted(set(out_round.values()), reverse=True):
        groups.append([row for row in rows if out_round.get(row.entry.pk) == number])
    index = 0
    for group in groups:
        block = free[index:index + len(group)] or [len(rows)]
        index += len(group)
        for row in group:
            if row.place_open and len(block) > 1:
                row.standing_place = f"{block[0]}–{block[-1]}"
            else:
                row.standing_place = str(block[0])


def _standing_key(row: StandingRow) -> tuple[Any, ...]:
    place = int(row.place) if row.place else 99
    return (place, -row.reached, -row.wins, -row.level_difference)


@dataclass
class TableRow:
    """One row of a stage's standings: rank (shared on a tie), the entry, and every column's value."""

    rank: int
    entry: Entry
    values: dict[str, Any]
    shared: bool = False
    now: str = ""
    """The levels of the entry's match in play ("5 : 9", own level first), empty if none."""

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def entry_place(self) -> str:
        """The place of a Swiss, round-robin or table-rounds row: its rank as printed, shared on a tie
        (provisional while the stage is running)."""
        return str(self.rank)

    @property
    def place_range(self) -> None:
        return None

    def __getitem__(self, key: str) -> Any:
        if key in ("rank", "name"):
            return getattr(self, key)
        return self.values.get(key)


@dataclass
class StandingsTable:
    stage: Stage
    columns: list[tuple[str, str]]
    rows: list[Any]
    kind: str  # "elimination", "matches" (Swiss, round robin) or "tables" (red five, Yongzhou)
    key_column: str = ""
    """The column a phone keeps beside rank and name (the ranking's first criterion)."""


COLUMN_LABELS = {
    "match_wins": gettext_lazy("Match points"), "wins": gettext_lazy("Wins"), "level_difference": gettext_lazy("Level diff."),
    "head_to_head": gettext_lazy("Head-to-head"), "buchholz": gettext_lazy("Buchholz"), "sonneborn_berger": gettext_lazy("Sonneborn–Berger"),
    "game_points": gettext_lazy("Game points"), "net": gettext_lazy("Net"), "average": gettext_lazy("Average"), "hands_won": gettext_lazy("Hands won"),
    "tables": gettext_lazy("Tables"), "played": gettext_lazy("Played"), "losses": gettext_lazy("Lost"), "draws": gettext_lazy("Drawn"), "byes": gettext_lazy("Byes"),
}


def stage_standings(stage: Stage) -> StandingsTable:
    """The standings of one stage in its format's metric with its ordered tiebreaks."""

    tournament = stage.tournament
    if stage.format in (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION):
        columns = [(k, str(COLUMN_LABELS.get(k, k))) for k in ("played", "wins", "losses", "level_difference")]
        return StandingsTable(stage, columns, list(elimination_standings(tournament, stage)), "elimination", "reached")
    entries = {e.pk: e for e in tournament.entries.select_related("team", "player")}
    active = [pk for pk, e in entries.items() if e.status == Entry.Status.ACTIVE]
    active.sort(key=lambda pk: (entries[pk].seed or 10**6, pk))
    if stage.format == Stage.Format.TABLE_ROUNDS:
        metric = tournament.spec.settlement.table_metric
        order = list(stage.tiebreaks or [metric, "average", "hands_won"])
        if "game_points" in order and metric == "net":
            order[order.index("game_points")] = "net"
        tables, sit_outs = table_results(stage)
        raw = tiebreaks.individual_standings(active, tables, sit_outs=sit_outs, tiebreaks=order)
        extra = ["tables"]
        kind = "tables"
    else:
        order = list(stage.tiebreaks or tiebreaks.DEFAULT_PARTNERSHIP)
        results, byes = match_results(stage)
        raw = tiebreaks.standings(active, results, byes=byes, tiebreaks=order)
        extra = ["played", "wins", "draws", "losses"]
        kind = "matches"
    rows: list[Any] = []  # TableRow
    now = live_levels(stage) if kind == "matches" else {}
    for r in raw:
        values: dict[str, Any] = dict(r.values)
        for key in extra:
            values[key] = r.record.get(key, values.get(key))
        rows.append(TableRow(rank=r.rank, entry=entries[r.entry], values=values, shared=r.shared,
                             now=now.get(r.entry, "")))
    keys = [k for k in extra if k not in order] + order
    columns = [(k, str(COLUMN_LABELS.get(k, k))) for k in keys]
    return StandingsTable(stage, columns, rows, kind, order[0] if order else "")


def live_levels(stage: Stage) -> dict[int, str]:
    """Entry id → the levels of its match in play in ``stage`` ("5 : 9", its own first)."""
    out: dict[int, str] = {}
    for m in Match.objects.filter(stage=stage, status=Match.Status.PLAYING).only("entry0", "entry1", "state"):
        levels = (m.state or {}).get("levels")
        if not levels:
            continue
        for side, entry_id in ((0, m.entry0_id), (1, m.entry1_id)):
            if entry_id is not None:
                out[entry_id] = f"{levels[side]} : {levels[1 - side]}"
    return out


def tournament_standings(tournament: Tournament) -> list[StandingsTable]:
    """Every started stage's standings, the latest stage first."""
    stages = tournament.stages.exclude(status=Stage.Status.PENDING).order_by("-number")
    return [stage_standings(stage) for stage in stages]


def match_results(stage: Stage) -> tuple[list[tiebreaks.MatchResult[int]], list[int]]:
    """Final results of a stage's matches (in round order) and its byes, for pairing and standings."""

    forfeits = set(Adjustment.objects.filter(match__stage=stage, kind="forfeit").values_list("match_id", flat=True))
    results: list[tiebreaks.MatchResult[int]] = []
    byes: list[int] = []
    for m in stage.matches.select_related("round").order_by("round__number", "position"):
        if m.status == Match.Status.BYE and m.entry0_id:
            byes.append(m.entry0_id)
            continue
        if m.status != Match.Status.FINISHED or m.confirmed_at is None or not (m.entry0_id and m.entry1_id):
            continue
        levels = (m.state or {}).get("levels") or ["2", "2"]
        results.append(tiebreaks.MatchResult(
            sides=(m.entry0_id, m.entry1_id), winner=None if m.is_draw else m.winner_side,
            level_gap=level_index(levels[0]) - level_index(levels[1]), forfeit=m.pk in forfeits))
    return results, byes


def outstanding(stage: Stage) -> list[Match]:
    """Matches of the current round still without a final (confirmed) result."""
    return list(stage.matches.select_related("round").exclude(status__in=[Match.Status.BYE, Match.Status.VOID])
                .filter(confirmed_at__isnull=True).order_by("round__number", "position"))


def table_results(stage: Stage) -> tuple[list[tiebreaks.TableResult[int]], list[int]]:
    """Finished (final) tables and sit-outs of a stage of table rounds, for the standings."""
    out: list[tiebreaks.TableResult[int]] = []
    for m in stage.matches.prefetch_related("seats", "hands").filter(status=Match.Status.FINISHED,
                                                                       confirmed_at__isnull=False):
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        totals = (m.state or {}).get("totals") or [0] * len(seats)
        won = [0] * len(seats)
        for h in m.hands.all():
            values = h.result.get("game_points") or h.result.get("net") or []
            for i, v in enumerate(values):
                won[i] += int(v > 0)
        out.append(tiebreaks.TableResult(tuple(s.entry_id for s in seats), tuple(int(t) for t in totals), tuple(won)))
    sit_outs = [e for ids in (stage.settings.get("sit_outs") or {}).values() for e in ids]
    return out, sit_outs
