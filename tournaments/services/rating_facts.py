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


def db_time(value: Any) -> Any:
    """A datetime read by a hand-written statement as the ORM would give it (SQLite answers text or a
    naive datetime; its backend's converter makes the aware datetime; PostgreSQL's is already one)."""
    if connection.vendor != "sqlite" or value is None:
        return value
    return connection.ops.convert_datetimefield_value(value, None, connection)  # type: ignore[attr-defined]


def db_json(value: Any) -> Any:
    """A JSON value read by a hand-written statement (SQLite answers text; PostgreSQL the value)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


STORED_FIELDS = ("club_id", "family", "played_at", "sides", "ranks", "level_gap")


def _match_rows(ids: Sequence[int]) -> list[dict[str, Any]]:
    """Every match among ``ids``: :data:`MATCH_FIELDS`, ``final`` (finished and confirmed), ``award``
    (the latest award's kind), ``seats`` (an individual table's players in seat order) and ``stored``
    (its :class:`RatedMatch` row as a :class:`Fact`, or None). The incremental update's hot path: one
    hand-written statement (building the ORM's queries cost more than running them)."""
    if not ids:
        return []
    concat = "string_agg" if connection.vendor == "postgresql" else "group_concat"
    entry, team = table_name(Entry), table_name(Team)

    def side(n: int) -> str:  # scalar subqueries by primary key: a join of four more tables took PostgreSQL
        # longer to plan than to run (planned anew each time: the parameters are bound client-side)
        players = [f"(SELECT a.{c} FROM {entry} e JOIN {team} a ON a.id = e.team_id WHERE e.id = m.entry{n}_id)"
                   for c in ("player1_id", "player2_id")]
        return ", ".join([*players, f"(SELECT e.player_id FROM {entry} e WHERE e.id = m.entry{n}_id)"])
    sql = f"""
        SELECT m.id, m.finished_at, m.confirmed_at, m.winner_side, m.is_draw, m.state, t.variant, t.club_id,
               t.rate_awarded, {side(0)}, {side(1)},
               (SELECT j.kind FROM {table_name(Adjustment)} j WHERE j.match_id = m.id AND j.kind IN (%s, %s)
                ORDER BY j.created_at DESC, j.id DESC LIMIT 1),
               CASE WHEN m.status = %s AND m.confirmed_at IS NOT NULL THEN 1 ELSE 0 END,
               (SELECT {concat}(CAST(z.seat AS TEXT) || ':' || COALESCE(
                    (SELECT CAST(e.player_id AS TEXT) FROM {entry} e WHERE e.id = z.entry_id), ''), ',')
                FROM {table_name(TableSeat)} z WHERE z.match_id = m.id),
               r.match_id, r.club_id, r.family, r.played_at, r.sides, r.ranks, r.level_gap
        FROM {table_name(Match)} m
        JOIN {table_name(Stage)} s ON s.id = m.stage_id
        JOIN {table_name(Tournament)} t ON t.id = s.tournament_id
        LEFT JOIN {table_name(RatedMatch)} r ON r.match_id = m.id
        WHERE m.id IN ({", ".join(["%s"] * len(ids))})"""
    params: list[str | int] = [str(Adjustment.Kind.AWARDED), str(Adjustment.Kind.FORFEIT), str(Match.Status.FINISHED),
                               *ids]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    rows = []
    width = len(MATCH_FIELDS) + 3
    for values in found:
        row = dict(zip((*MATCH_FIELDS, "award", "final", "seats"), values[:width], strict=True))
        row["state"] = db_json(row["state"])
        row["finished_at"], row["confirmed_at"] = db_time(row["finished_at"]), db_time(row["confirmed_at"])
        row["is_draw"], row["stage__tournament__rate_awarded"] = bool(row["is_draw"]), bool(
            row["stage__tournament__rate_awarded"])
        seats = sorted((int(seat), int(player) if player else None) for seat, _colon, player in
                       (item.partition(":") for item in (row["seats"] or "").split(",") if item))
        row["seats"] = [player for _seat, player in seats]
        stored = values[width:]
        row["stored"] = None if stored[0] is None else Fact.of_row(
            {"match_id": stored[0], **dict(zip(STORED_FIELDS, stored[1:], strict=True)),
             "played_at": db_time(stored[3]), "sides": db_json(stored[4]), "ranks": db_json(stored[5])})
        rows.append(row)
    return rows


def facts_now_and_stored(match_ids: Sequence[int]) -> tuple[dict[int, Fact], dict[int, Fact]]:
    """The facts of ``match_ids`` derived from their stored results now, and their stored
    :class:`RatedMatch` facts: one statement."""
    rows = _match_rows(sorted(set(match_ids)))
    derived = {}
    for row in rows:
        fact = _fact_of(row, row["award"], row["seats"]) if row["final"] else None
        if fact is not None:
            derived[fact.match_id] = fact
    return derived, {row["pk"]: row["stored"] for row in rows if row["stored"] is not None}


def derive_facts(match_ids: Iterable[int] | None = None) -> dict[int, Fact]:
    """The facts of the rated matches among ``match_ids`` (None: every match), from the stored results
    in a handful of queries (matches, awards, and the seats of individual tables)."""
    if match_ids is not None:
        return facts_now_and_stored(sorted(set(match_ids)))[0]
    matches = Match.objects.filter(status=Match.Status.FINISHED, confirmed_at__isnull=False)
    awards: dict[int, str] = {}
    rows: Iterable[dict[str, Any]] = matches.values(*MATCH_FIELDS).iterator(chunk_size=BATCH)
    awards_qs = Adjustment.objects.filter(kind__in=[Adjustment.Kind.AWARDED, Adjustment.Kind.FORFEIT],
                                          match__isnull=False)
    for match_id, kind in awards_qs.order_by("created_at", "id").values_list("match_id", "kind"):
        awards[match_id] = kind  # the latest decision stands (as the match's result takes it)
    seats: dict[int, list[tuple[int, int | None]]] = {}
    for match_id, seat, player_id in TableSeat.objects.values_list("match_id", "seat", "entry__player_id"):
        seats.setdefault(match_id, []).append((seat, player_id))
    facts = {}
    for row in rows:
        table = [player for _seat, player in sorted(seats.get(row["pk"], []))]
        fact = _fact_of(row, awards.get(row["pk"]), table)
        if fact is not None:
            facts[fact.match_id] = fact
    return facts
