"""Bulk writes of the ratings (docs/ratings.md): the history rows and the players' ratings, written out
in SQL because building a model instance per row cost most of a recompute's time."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.db import connection, models

from tournaments.formats.ratings import Change
from tournaments.models import PlayerRating, RatingPool
from tournaments.services.rating_facts import table_name

BATCH = 2000
SMALL = 40  # rows written as one multi-row INSERT (the incremental update's few history rows)


def insert_rows(model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]],
                json_columns: Sequence[int] = ()) -> int:
    """Insert ``rows`` (plain values; ``json_columns``: the indexes of JSON values) in bulk: PostgreSQL's
    COPY, else batches of one prepared statement. The history of a whole site is a million rows or
    more, and building a model instance per row (``bulk_create``) cost most of a recompute's time."""
    table = connection.ops.quote_name(model._meta.db_table)
    fields = [model._meta.get_field(c) for c in columns]
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields if isinstance(f, models.Field) and f.column)
    dumped = set(json_columns)

    def adapted(row: Sequence[Any], time: Any) -> list[Any]:
        return [json.dumps(v) if i in dumped else time(v) if isinstance(v, dt.datetime) else v
                for i, v in enumerate(row)]
    count = 0
    with connection.cursor() as cursor:
        if isinstance(rows, list) and len(rows) <= SMALL:  # an incremental update: one statement
            if rows:
                one = f"({', '.join(['%s'] * len(columns))})"
                cursor.execute(f"INSERT INTO {table} ({names}) VALUES {', '.join([one] * len(rows))}",
                               [v for row in rows for v in adapted(row, connection.ops.adapt_datetimefield_value)])
            return len(rows)
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(adapted(row, lambda v: v))
                    count += 1
            return count
        sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"
        batch: list[list[Any]] = []
        for row in rows:
            batch.append(adapted(row, connection.ops.adapt_datetimefield_value))
            if len(batch) >= BATCH:
                cursor.executemany(sql, batch)
                count, batch = count + len(batch), []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


CHANGE_COLUMNS = ("pool", "player", "match", "played_at", "side", "rank", "mu_before", "sigma_before", "mu_after",
                  "sigma_after", "display_before", "display_after", "matches_after")


def change_values(pool: RatingPool, changes: Iterable[Change]) -> Iterable[tuple[Any, ...]]:
    """The history rows of ``changes`` (one per player per game), as :data:`CHANGE_COLUMNS`."""
    for c in changes:
        played_at, match_id = cast(tuple[dt.datetime, int], c.key)  # a Fact's game: (time, match id)
        yield (pool.pk, c.player, match_id, played_at, c.side, c.rank, c.before.mu, c.before.sigma, c.after.mu,
               c.after.sigma, c.before.display, c.after.display, c.after.matches)


RATING_FIELDS = ["mu", "sigma", "display", "matches", "trend", "recent", "last_at", "last_match"]


class Statements:
    """Writes gathered to run together: on PostgreSQL as one statement (the first ones as data-modifying
    ``WITH`` clauses of the last: one round trip, and the writes of one update go or fail together),
    elsewhere one after the other. Each must write a table of its own (one statement sees no other's
    changes)."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, list[Any]]] = []

    def add(self, sql: str, params: Sequence[Any]) -> None:
        self.parts.append((sql, list(params)))

    def run(self) -> None:
        if not self.parts:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                *first, (last, _params) = self.parts
                cursor.execute("WITH " + ", ".join(f"w{i} AS ({sql})" for i, (sql, _p) in enumerate(first)) + " "
                               + last if first else last, [v for _sql, params in self.parts for v in params])
            else:
                for sql, params in self.parts:
                    cursor.execute(sql, params)
        self.parts = []


def insert_small(model: type[models.Model], columns: Sequence[str], rows: Sequence[Sequence[Any]],
                 json_columns: Sequence[int] = ()) -> tuple[str, list[Any]]:
    """One multi-row ``INSERT`` of a few ``rows`` (plain values, as :func:`insert_rows`), to run or add to
    :class:`Statements`."""
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(str(cast(models.Field, model._meta.get_field(c)).column))
                      for c in columns)
    dumped, time = set(json_columns), connection.ops.adapt_datetimefield_value
    one = f"({', '.join(['%s'] * len(columns))})"
    return (f"INSERT INTO {table} ({names}) VALUES {', '.join([one] * len(rows))}",
            [json.dumps(v) if i in dumped else time(v) if isinstance(v, dt.datetime) else v
             for row in rows for i, v in enumerate(row)])


def upsert_statement(rows: Sequence[PlayerRating]) -> tuple[str, list[Any]]:
    """``INSERT … ON CONFLICT DO UPDATE`` of the pools' ratings of ``rows`` (unique per pool and player;
    PostgreSQL, SQLite ≥ 3.24), written out because the ORM's own (``bulk_create(update_conflicts=True)``)
    cost a third of an incremental update to build."""
    columns = ["pool_id", "player_id", *RATING_FIELDS]  # the columns are named as the fields
    quote = connection.ops.quote_name
    one = f"({', '.join(['%s'] * len(columns))})"
    updates = ", ".join(f"{quote(c)} = excluded.{quote(c)}" for c in columns[2:])
    time = connection.ops.adapt_datetimefield_value
    return (f"INSERT INTO {table_name(PlayerRating)} ({', '.join(quote(c) for c in columns)}) "
            f"VALUES {', '.join([one] * len(rows))} "
            f"ON CONFLICT ({quote('pool_id')}, {quote('player_id')}) DO UPDATE SET {updates}",
            [v for r in rows for v in (r.pool_id, r.player_id, r.mu, r.sigma, r.display, r.matches, r.trend,
                                       json.dumps(r.recent), time(r.last_at), r.last_match)])


def upsert_ratings(rows: Sequence[PlayerRating]) -> None:
    """Insert or update the pools' ratings of ``rows`` (:func:`upsert_statement`), 200 a statement."""
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 200):
            cursor.execute(*upsert_statement(rows[start:start + 200]))


def pools_marked_statement(marks: Sequence[tuple[RatingPool, dt.datetime, int]], now: dt.datetime,
                           ) -> tuple[str, list[Any]]:
    """One ``UPDATE`` of the pools' latest rated match (``marks``: pool, time, match id) and ``computed_at``."""
    time = connection.ops.adapt_datetimefield_value
    cases = " ".join(["WHEN %s THEN %s"] * len(marks))
    return (f"UPDATE {table_name(RatingPool)} SET last_at = CASE id {cases} END, last_match = CASE id {cases} END, "
            f"computed_at = %s WHERE id IN ({', '.join(['%s'] * len(marks))})",
            [*(v for pool, at, _m in marks for v in (pool.pk, time(at))),
             *(v for pool, _at, match in marks for v in (pool.pk, match)), time(now), *(pool.pk for pool, *_x in marks)])
