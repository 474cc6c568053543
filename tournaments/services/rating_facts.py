"""The facts a final match result gives the ratings (docs/ratings.md), derived from the stored results:
who sat on each side, their ranks, the level gap, when — or nothing, for a result that is not rated
(a bye, a forfeit, an award the tournament does not rate, an unfinished or unconfirmed match)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models

from tournaments.formats.ratings import Game, family_of, ranks_from_points
from tournaments.models import (
    Adjustment,
    Entry,
    Match,
    RatedMatch,
    RatingFamily,
    Stage,
    TableSeat,
    Team,
    Tournament,
)
from tournaments.selectors.matches import level_index

BATCH = 2000


@dataclass(frozen=True)
class Fact:
    """What one final result gives the ratings (the content of a :class:`RatedMatch` row)."""

    match_id: int
    club_id: int | None
    family: str
    played_at: dt.datetime
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    level_gap: int = 0

    @property
    def key(self) -> tuple[dt.datetime, int]:
        return (self.played_at, self.match_id)

    def game(self) -> Game:
        return Game(self.key, self.sides, self.ranks, self.level_gap)

    @classmethod
    def of_row(cls, row: RatedMatch | Mapping[str, Any]) -> Fact:
        data: Mapping[str, Any] = row if isinstance(row, Mapping) else vars(row)
        return cls(int(data["match_id"]), data["club_id"], str(data["family"]), data["played_at"],
                   tuple(tuple(int(p) for p in side) for side in data["sides"]),
                   tuple(int(r) for r in data["ranks"]), int(data["level_gap"]))

    def row(self) -> RatedMatch:
        return RatedMatch(match_id=self.match_id, club_id=self.club_id, family=self.family, played_at=self.played_at,
                          sides=[list(s) for s in self.sides], ranks=list(self.ranks), level_gap=self.level_gap)


MATCH_FIELDS = ("pk", "finished_at", "confirmed_at", "winner_side", "is_draw", "state",
                "stage__tournament__variant", "stage__tournament__club_id", "stage__tournament__rate_awarded",
                "entry0__team__player1_id", "entry0__team__player2_id", "entry0__player_id",
                "entry1__team__player1_id", "entry1__team__player2_id", "entry1__player_id")


def _partnership_sides(row: Mapping[str, Any]) -> tuple[tuple[int, ...], ...] | None:
    sides = []
    for side in ("entry0", "entry1"):
        ids = (row[f"{side}__team__player1_id"], row[f"{side}__team__player2_id"])
        if None in ids:
            ids = (row[f"{side}__player_id"], None)
            if ids[0] is None:
                return None
        sides.append(tuple(int(p) for p in ids if p is not None))
    return tuple(sides)


def _fact_of(row: Mapping[str, Any], award: str | None, seats: Sequence[int | None]) -> Fact | None:
    """The fact of one finished, confirmed match (``row``: :data:`MATCH_FIELDS`), or None when it is
    not rated (a forfeit, an award the tournament does not rate, missing players)."""
    if award == Adjustment.Kind.FORFEIT or (award == Adjustment.Kind.AWARDED
                                            and not row["stage__tournament__rate_awarded"]):
        return None
    family = family_of(row["stage__tournament__variant"])
    state = row["state"] or {}
    gap = 0
    if family == RatingFamily.PARTNERSHIP:
        sides = _partnership_sides(row)
        if sides is None or (row["winner_side"] is None and not row["is_draw"]):
            return None
        if row["is_draw"]:
            ranks: tuple[int, ...] = (1, 1)
        else:
            winner = int(row["winner_side"])
            ranks = (1, 2) if winner == 0 else (2, 1)
            levels = state.get("levels") or ["", ""]
            gap = level_index(levels[winner]) - level_index(levels[1 - winner])
    else:
        totals = state.get("totals") or []
        if len(seats) < 2 or None in seats or len(totals) != len(seats):
            return None
        sides = tuple((int(p),) for p in seats if p is not None)
        ranks = ranks_from_points([float(t) for t in totals])
    players = [p for side in sides for p in side]
    if len(set(players)) != len(players):
        return None  # one person on both sides (two teams sharing a player): nothing to learn
    played_at = row["finished_at"] or row["confirmed_at"]
    return Fact(int(row["pk"]), row["stage__tournament__club_id"], family, played_at, sides, ranks, max(gap, 0))


def table_name(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _match_rows(ids: Sequence[int]) -> list[dict[str, Any]]:
    """:data:`MATCH_FIELDS` and ``award`` (the latest award's kind) of the finished, confirmed matches
    among ``ids``: the incremental update's hot path, one hand-written statement (building the ORM's
    seven-table query cost more than running it)."""
    if not ids:
        return []
    sql = f"""
        SELECT m.id, m.finished_at, m.confirmed_at, m.winner_side, m.is_draw, m.state, t.variant, t.club_id,
               t.rate_awarded, a0.player1_id, a0.player2_id, e0.player_id, a1.player1_id, a1.player2_id,
               e1.player_id,
               (SELECT j.kind FROM {table_name(Adjustment)} j WHERE j.match_id = m.id AND j.kind IN (%s, %s)
                ORDER BY j.created_at DESC, j.id DESC LIMIT 1)
        FROM {table_name(Match)} m
        JOIN {table_name(Stage)} s ON s.id = m.stage_id
        JOIN {table_name(Tournament)} t ON t.id = s.tournament_id
        LEFT JOIN {table_name(Entry)} e0 ON e0.id = m.entry0_id LEFT JOIN {table_name(Team)} a0 ON a0.id = e0.team_id
        LEFT JOIN {table_name(Entry)} e1 ON e1.id = m.entry1_id LEFT JOIN {table_name(Team)} a1 ON a1.id = e1.team_id
        WHERE m.status = %s AND m.confirmed_at IS NOT NULL AND m.id IN ({", ".join(["%s"] * len(ids))})"""
    params: list[str | int] = [str(Adjustment.Kind.AWARDED), str(Adjustment.Kind.FORFEIT), str(Match.Status.FINISHED),
                               *ids]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    # SQLite answers text; its backend's converter makes the aware datetime the ORM would (PostgreSQL: as is)
    times = getattr(connection.ops, "convert_datetimefield_value", None) if connection.vendor == "sqlite" else None
    rows = []
    for values in found:
        row = dict(zip((*MATCH_FIELDS, "award"), values, strict=True))
        row["state"] = json.loads(row["state"]) if isinstance(row["state"], str | bytes) else row["state"]
        if times is not None:
            for name in ("finished_at", "confirmed_at"):
                row[name] = times(row[name], None, connection)
        row["is_draw"], row["stage__tournament__rate_awarded"] = bool(row["is_draw"]), bool(
            row["stage__tournament__rate_awarded"])
        rows.append(row)
    return rows


def derive_facts(match_ids: Iterable[int] | None = None) -> dict[int, Fact]:
    """The facts of the rated matches among ``match_ids`` (None: every match), from the stored results
    in a handful of queries (matches, awards, and the seats of individual tables)."""
    matches = Match.objects.filter(status=Match.Status.FINISHED, confirmed_at__isnull=False)
    awards_qs = Adjustment.objects.filter(kind__in=[Adjustment.Kind.AWARDED, Adjustment.Kind.FORFEIT],
                                          match__isnull=False)
    seats_qs = TableSeat.objects.all()
    awards: dict[int, str] = {}
    if match_ids is None:
        rows: Iterable[dict[str, Any]] = matches.values(*MATCH_FIELDS).iterator(chunk_size=BATCH)
        for match_id, kind in awards_qs.order_by("created_at", "id").values_list("match_id", "kind"):
            awards[match_id] = kind  # the latest decision stands (as the match's result takes it)
    else:
        rows = _match_rows(sorted(set(match_ids)))
        if not rows:
            return {}
        awards = {r["pk"]: r["award"] for r in rows if r["award"]}
        tables = [r["pk"] for r in rows if family_of(r["stage__tournament__variant"]) != RatingFamily.PARTNERSHIP]
        seats_qs = seats_qs.filter(match_id__in=tables) if tables else TableSeat.objects.none()
    seats: dict[int, list[tuple[int, int | None]]] = {}
    for match_id, seat, player_id in seats_qs.values_list("match_id", "seat", "entry__player_id"):
        seats.setdefault(match_id, []).append((seat, player_id))
    facts = {}
    for row in rows:
        table = [player for _seat, player in sorted(seats.get(row["pk"], []))]
        fact = _fact_of(row, awards.get(row["pk"]), table)
        if fact is not None:
            facts[fact.match_id] = fact
    return facts
