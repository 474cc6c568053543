"""The table's hot statements, built once per model and field set instead of once per action.

Every accepted action locks the room, reads its seats, appends to the hand's log, stores the action id and
saves the room: five statements whose SQL the ORM compiled again each time — more than half of the CPU the
write path spent at 200 rooms (bench/online.py). Here each statement's SQL is built from the model's
``_meta`` once per database connection, and its values go through the fields' own conversions
(``pre_save`` for ``auto_now``, ``get_db_prep_save`` on the way in; the backend's and the field's
``from_db`` converters on the way out), so a row reads and writes exactly as with ``QuerySet`` and
``Model.save(update_fields=...)`` (tests/online/test_rows.py compares them). The statements run through
Django's cursor wrapper: database errors are Django's (``IntegrityError`` for a repeated action id), inside
the caller's transaction. The models have no signals.

On PostgreSQL two more savings:

* the statements bind their values on the server (Django's ``ServerBindingCursor``, not the default
  client-side quoting in Python), so psycopg prepares each of them after a few uses on a connection and the
  server parses and plans it once (a connection pooler in transaction mode would need
  ``prepare_threshold=None``);
* :func:`append` adds a hand's new log events to the stored ``jsonb`` array in place
  (``jsonb_set(log, '{events}', log -> 'events' || new)``) instead of sending the whole log again: the
  log of a tractor hand grows to about 200 events, rewritten in full at every action it was the largest
  cost of a play's write.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

__all__ = ["Query", "append", "execute", "insert", "pipelined", "select", "select_together", "update"]

M = TypeVar("M", bound=Model)

_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


def _column(f: Any) -> str:
    return str(f.column)


def _cache(conn: BaseDatabaseWrapper) -> dict[tuple[Any, ...], Any]:
    found: dict[tuple[Any, ...], Any] | None = getattr(conn, "_online_rows", None)
    if found is None:
        found = {}
        setattr(conn, "_online_rows", found)  # noqa: B010 (one cache per connection: its converters are its own)
    return found


def _cursor(conn: BaseDatabaseWrapper) -> Any:
    """A cursor of the thread's connection; on PostgreSQL one that binds its values on the server."""
    if conn.vendor != "postgresql":
        return conn.cursor()
    from django.db.backends.postgresql import base as pg
    from django.db.backends.postgresql.psycopg_any import register_tzloader  # type: ignore[attr-defined]
    from psycopg.pq import Format

    conn.ensure_connection()
    conn.validate_thread_sharing()
    cursor_class: Any = pg.ServerBindingCursor
    with conn.wrap_database_errors:
        raw = cursor_class(conn.connection)
        if conn.timezone != conn.connection.adapters.get_loader(pg.TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(conn.timezone, raw)  # as Django's create_cursor does
    # Django's wrapper, as conn.cursor() gives: its error translation, execute wrappers and query log
    return conn.make_debug_cursor(raw) if conn.queries_logged else conn.make_cursor(raw)


def _reader(conn: BaseDatabaseWrapper, model: type[Model], where: str, order: str, for_update: bool,
            instead: Sequence[tuple[str, str]] = (), limit: int = 0,
            ) -> tuple[str, list[str], list[tuple[int, list[_Converter], Any]]]:
    key = ("select", model, where, order, for_update, tuple(instead), limit)
    cache = _cache(conn)
    if key not in cache:
        meta, qn = model._meta, conn.ops.quote_name
        fields: list[Field[Any, Any]] = list(meta.concrete_fields)
        expressions = dict(instead)
        columns = ", ".join(expressions.get(f.attname) or qn(_column(f)) for f in fields)
        sql = f"SELECT {columns} FROM {qn(meta.db_table)} WHERE {where}"
        if order:
            sql += f" ORDER BY {order}"
        if limit:
            sql += f" LIMIT {int(limit)}"
        if for_update and conn.features.has_select_for_update:
            sql += " FOR UPDATE"
        converters = []
        for i, f in enumerate(fields):
            col = f.get_col(meta.db_table)
            found = conn.ops.get_db_converters(col) + f.get_db_converters(conn)
            if found:
                converters.append((i, found, col))
        cache[key] = (sql, [f.attname for f in fields], converters)
    result: tuple[str, list[str], list[tuple[int, list[_Converter], Any]]] = cache[key]
    return result


@contextlib.contextmanager
def pipelined(*, commit: bool = False) -> Iterator[None]:
    """On PostgreSQL the statements run inside are sent together and answered together when the block ends
    (psycopg's pipeline mode): one round trip to the server instead of one each — and, in a transaction
    psycopg has not begun yet, its ``BEGIN`` goes with them. A statement's error (``IntegrityError``) is
    raised at the end of the block, and the statements after it in the block are not run. Inside, only this
    module's statements: a row count (which the ORM's ``save`` reads) is known only after the block, and a
    fetch ends the batch early. Elsewhere (SQLite) the statements run one by one as usual.

    With ``commit``, when the block is the last thing in the caller's outermost ``transaction.atomic()``,
    that transaction's ``COMMIT`` goes in the same batch (one round trip fewer): the block's writes are
    durable when it ends, and the ``atomic`` that closes after it finds nothing left to commit (psycopg sends
    no second ``COMMIT``) and runs its ``on_commit`` callbacks as usual. After an error the server skips the
    ``COMMIT`` with the rest of the batch and the ``atomic`` rolls the transaction back. Inside a savepoint
    or a transaction of the caller's caller (a test's) nothing is committed early."""
    conn = connections["default"]
    if conn.vendor != "postgresql":
        yield
        return
    conn.ensure_connection()
    ends = commit and _outermost(conn)
    with conn.wrap_database_errors, conn.connection.pipeline():
        yield
        if ends:
            conn.connection.execute("COMMIT")


def _outermost(conn: BaseDatabaseWrapper) -> bool:
    """Whether the innermost open ``atomic`` is the only one: its transaction is the caller's to commit."""
    return bool(conn.in_atomic_block and conn.commit_on_exit and len(conn.atomic_blocks) == 1
                and not conn.savepoint_ids and not conn.needs_rollback)


class Query(NamedTuple):
    """One :func:`select` for :func:`select_together`."""

    model: type[Model]
    where: str
    params: Sequence[Any]
    order: str = ""
    for_update: bool = False
    instead: tuple[tuple[str, str, tuple[Any, ...]], ...] = ()
    """Fields read as an SQL expression of the caller's instead of their column: (name, SQL, its values),
    converted as the field's column would be (e.g. only part of a JSON column)."""
    limit: int = 0

    def sql_and_params(self, conn: BaseDatabaseWrapper) -> tuple[str, list[Any], list[str],
                                                               list[tuple[int, list[_Converter], Any]]]:
        sql, names, converters = _reader(conn, self.model, self.where, self.order, self.for_update,
                                         [(name, expr) for name, expr, _values in self.instead], self.limit)
        values = [v for name in names for n, _expr, vs in self.instead if n == name for v in vs]
        return sql, [*values, *self.params], names, converters


def select_together(*queries: Query) -> list[list[Any]]:
    """Several :func:`select` s sent in one round trip (:func:`pipelined`), run by the server in the order given
    (a later one sees the rows an earlier ``FOR UPDATE`` locked); each one's rows, in that order."""
    conn = connections["default"]
    readers = [q.sql_and_params(conn) for q in queries]
    cursors = []
    try:
        with pipelined():
            for sql, params, _names, _converters in readers:
                cursor = _cursor(conn)
                cursors.append(cursor)
                cursor.execute(sql, params)
        return [_instances(q.model, cursor.fetchall(), names, converters, conn)
                for cursor, (_sql, _params, names, converters), q in zip(cursors, readers, queries, strict=True)]
    finally:
        for cursor in cursors:
            cursor.close()


def select(model: type[M], where: str, params: Sequence[Any], *, order: str = "",
           for_update: bool = False) -> list[M]:
    """``model``'s rows matching ``where`` (SQL over its quoted columns, ``%s`` placeholders), as instances."""
    conn = connections["default"]
    sql, names, converters = _reader(conn, model, where, order, for_update)
    with _cursor(conn) as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    return _instances(model, rows, names, converters, conn)


def _instances(model: type[M], rows: Sequence[Sequence[Any]], names: list[str],
               converters: list[tuple[int, list[_Converter], Any]], conn: BaseDatabaseWrapper) -> list[M]:
    out = []
    for row in rows:
        values = list(row)
        for i, funcs, col in converters:
            for convert in funcs:
                values[i] = convert(values[i], col, conn)
        out.append(model.from_db("default", names, values))
    return out


def update(obj: Model, names: Sequence[str]) -> None:
    """``obj.save(update_fields=names)`` without the ORM's compiling (``auto_now`` fields are set as there)."""
    conn = connections["default"]
    meta = obj._meta
    key = ("update", type(obj), tuple(names))
    cache = _cache(conn)
    fields: list[Field[Any, Any]] = [meta.get_field(n) for n in names]  # type: ignore[misc]
    if key not in cache:
        qn = conn.ops.quote_name
        sets = ", ".join(f"{qn(_column(f))} = %s" for f in fields)
        cache[key] = f"UPDATE {qn(meta.db_table)} SET {sets} WHERE {qn(_column(meta.pk))} = %s"
    params = [f.get_db_prep_save(f.pre_save(obj, False), conn) for f in fields]
    with _cursor(conn) as cursor:
        cursor.execute(cache[key], [*params, obj.pk])


def insert(obj: Model, *, with_pk: bool = True) -> None:
    """``obj.save()`` of a new row (``auto_now_add`` and defaults as there); sets its primary key unless
    ``with_pk`` is false (then nothing is read back: it can go in a :func:`pipelined` batch)."""
    conn = connections["default"]
    meta = obj._meta
    pk = meta.pk
    fields: list[Field[Any, Any]] = [f for f in meta.concrete_fields if f is not pk]
    returning = with_pk and conn.features.can_return_columns_from_insert
    key = ("insert", type(obj), returning)
    cache = _cache(conn)
    if key not in cache:
        qn = conn.ops.quote_name
        columns = ", ".join(qn(_column(f)) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES ({marks})"
        cache[key] = sql + (f" RETURNING {qn(_column(pk))}" if returning else "")
    params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields]
    with _cursor(conn) as cursor:
        cursor.execute(cache[key], params)
        if with_pk:
            obj.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    obj._state.adding = False
    obj._state.db = "default"


def append(obj: Model, name: str, key: str, items: Sequence[Any]) -> None:
    """Add ``items`` (already appended to ``getattr(obj, name)[key]`` in memory) to the stored JSON list at
    ``name -> key``, and save ``auto_now`` fields; where the database cannot do that in place (SQLite), the
    whole field is written as by :func:`update`."""
    conn = connections["default"]
    meta = obj._meta
    auto = [f for f in meta.concrete_fields if getattr(f, "auto_now", False)]
    if conn.vendor != "postgresql":
        update(obj, (name, *(f.name for f in auto)))
        return
    field: Field[Any, Any] = meta.get_field(name)  # type: ignore[assignment]
    cache_key = ("append", type(obj), name, key)
    cache = _cache(conn)
    qn = conn.ops.quote_name
    if cache_key not in cache:
        column = qn(_column(field))
        sets = [f"{column} = jsonb_set({column}, %s::text[], ({column} -> %s::text) || %s)"]
        sets += [f"{qn(_column(f))} = %s" for f in auto]
        cache[cache_key] = f"UPDATE {qn(meta.db_table)} SET {', '.join(sets)} WHERE {qn(_column(meta.pk))} = %s"
    params = [[key], key, field.get_db_prep_save(list(items), conn)]
    params += [f.get_db_prep_save(f.pre_save(obj, False), conn) for f in auto]
    with _cursor(conn) as cursor:
        cursor.execute(cache[cache_key], [*params, obj.pk])


def execute(sql: str, params: Sequence[Any]) -> int:
    """A statement of the caller's (``%s`` placeholders, values already prepared for the database) on the
    thread's connection, bound on the server where it can be; answers the rows it changed."""
    with _cursor(connections["default"]) as cursor:
        cursor.execute(sql, list(params))
        return int(cursor.rowcount)
