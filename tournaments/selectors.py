"""Reads: standings, the bracket as a tree, tables in play, match histories — with a bounded number
of queries whatever the tournament's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.i18n import core_lang
from tournaments.formats.brackets import round_name
from tournaments.models import Entry, HandRecord, Match, Stage, Tournament
from tournaments.permissions import can_view

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def level_index(level: str | None) -> int:
    return LEVELS.index(level) if level in LEVELS else 0


def tournaments_visible(user: Any) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("owner")
    if getattr(user, "is_superuser", False):
        return qs
    if getattr(user, "is_authenticated", False):
        from django.db.models import Q

        return qs.filter(Q(is_public=True) | Q(owner=user) | Q(organizers=user) | Q(scorers=user)).distinct()
    return qs.filter(is_public=True)


def tournament_get_for_viewer(*, pk: int, user: Any) -> Tournament | None:
    tournament = Tournament.objects.select_related("owner").filter(pk=pk).first()
    if tournament is None or not can_view(user, tournament):
        return None
    return tournament


def matches_of(tournament: Tournament) -> QuerySet[Match]:
    return (Match.objects.filter(stage__tournament=tournament)
            .select_related("round", "stage", "entry0__team", "entry0__player", "entry1__team", "entry1__player")
            .order_by("stage__number", "round__number", "position"))


def round_label(name: str) -> str:
    """A stored round name ``code:number`` (``final:0``, ``round-of:16``) in the active language;
    other names (Swiss "Round 3") are shown as they are."""
    code, _sep, number = name.partition(":")
    if code == "round" and number.isdigit():
        return _("Round %(n)s") % {"n": number}
    try:
        return round_name(code, int(number or 0), core_lang())
    except (KeyError, ValueError):
        return name


def is_final(match: Match) -> bool:
    """A result counts (brackets, pairings, standings) once it is finished and confirmed."""
    return match.status == Match.Status.FINISHED and match.confirmed_at is not None


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
    current_level: str | None = None
    opponent_level: str | None = None
    matches: list[Match] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.entry.name


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


def _standing_key(row: StandingRow) -> tuple[Any, ...]:
    place = int(row.place) if row.place else 99
    return (place, -row.reached, -row.wins, -row.level_difference)


def bracket_tree(stage: Stage) -> list[dict[str, Any]]:
    """The bracket's rounds as columns of matches (byes are shown as entries already in round 2)."""
    matches = list(stage.matches.select_related("round", "entry0__team", "entry0__player", "entry1__team",
                                                "entry1__player").order_by("round__number", "position"))
    columns: dict[int, dict[str, Any]] = {}
    third: list[Match] = []
    for m in matches:
        if m.key == "3P":
            third.append(m)
            continue
        col = columns.setdefault(m.round.number, {"number": m.round.number, "name": round_label(m.round.name),
                                                  "matches": []})
        col["matches"].append(m)
    out = [columns[k] for k in sorted(columns)]
    if third:
        out.append({"number": 0, "name": round_label("third-place"), "matches": third})
    return out


def current_tables(tournament: Tournament) -> list[Match]:
    return list(matches_of(tournament).filter(status__in=[Match.Status.READY, Match.Status.PLAYING])
                .order_by("table", "position"))


def match_detail(match_id: int) -> Match | None:
    return (Match.objects.select_related("stage__tournament", "round", "entry0__team__player1", "entry0__team__player2",
                                         "entry1__team__player1", "entry1__team__player2")
            .prefetch_related(Prefetch("hands", queryset=HandRecord.objects.order_by("number")
                                       .select_related("entered_by")))
            .filter(pk=match_id).first())


def seat_names(match: Match) -> list[str]:
    """The four seats in play order: side 0 sits in seats 0 and 2, side 1 in seats 1 and 3."""
    names = ["—"] * 4
    for side in (0, 1):
        entry = match.entry(side)
        if entry is not None and entry.team_id:
            names[side] = entry.team.player1.name  # type: ignore[union-attr]
            names[side + 2] = entry.team.player2.name  # type: ignore[union-attr]
    return names


def next_dealer_preview(match: Match) -> dict[str, Any] | None:
    """What the table page shows before a hand: dealer, whose level is played."""
    state = match.state or {}
    if not state:
        return None
    dealer = int(state["dealer"])
    side = dealer % 2
    return {"dealer": dealer, "dealer_side": side, "level": state["levels"][side],
            "label": _("Seat %(seat)s deals; side %(side)s plays its level %(level)s.")
            % {"seat": dealer, "side": side, "level": state["levels"][side]}}


@dataclass
class TableRow:
    """One row of a stage's standings: rank (shared on a tie), the entry, and every column's value."""

    rank: int
    entry: Entry
    values: dict[str, Any]
    shared: bool = False

    @property
    def name(self) -> str:
        return self.entry.name

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


COLUMN_LABELS = {
    "match_wins": gettext_lazy("Match points"), "wins": gettext_lazy("Wins"), "level_difference": gettext_lazy("Level diff."),
    "head_to_head": gettext_lazy("Head-to-head"), "buchholz": gettext_lazy("Buchholz"), "sonneborn_berger": gettext_lazy("Sonneborn–Berger"),
    "game_points": gettext_lazy("Game points"), "net": gettext_lazy("Net"), "average": gettext_lazy("Average"), "hands_won": gettext_lazy("Hands won"),
    "tables": gettext_lazy("Tables"), "played": gettext_lazy("Played"), "losses": gettext_lazy("Lost"), "draws": gettext_lazy("Drawn"), "byes": gettext_lazy("Byes"),
}


def stage_standings(stage: Stage) -> StandingsTable:
    """The standings of one stage in its format's metric with its ordered tiebreaks."""
    from tournaments.formats import tiebreaks
    from tournaments.services.formats import match_results, table_results

    tournament = stage.tournament
    if stage.format in (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION):
        columns = [(k, str(COLUMN_LABELS.get(k, k))) for k in ("played", "wins", "losses", "level_difference")]
        return StandingsTable(stage, columns, list(elimination_standings(tournament, stage)), "elimination")
    entries = {e.pk: e for e in tournament.entries.select_related("team", "player")}
    active = [pk for pk, e in entries.items() if e.status == Entry.Status.ACTIVE]
    active.sort(key=lambda pk: (entries[pk].seed or 10**6, pk))
    if stage.format == Stage.Format.TABLE_ROUNDS:
        metric = "net" if tournament.variant == "yongzhou-300" else "game_points"
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
    for r in raw:
        values: dict[str, Any] = dict(r.values)
        for key in extra:
            values[key] = r.record.get(key, values.get(key))
        rows.append(TableRow(rank=r.rank, entry=entries[r.entry], values=values, shared=r.shared))
    keys = [k for k in extra if k not in order] + order
    columns = [(k, str(COLUMN_LABELS.get(k, k))) for k in keys]
    return StandingsTable(stage, columns, rows, kind)


def tournament_standings(tournament: Tournament) -> list[StandingsTable]:
    """Every started stage's standings, the latest stage first."""
    stages = tournament.stages.exclude(status=Stage.Status.PENDING).order_by("-number")
    return [stage_standings(stage) for stage in stages]
