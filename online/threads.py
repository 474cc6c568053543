"""Where the table's sync code runs inside an ASGI process.

Channels runs every sync consumer's handlers on one shared thread (``thread_sensitive``), so one room's
transaction — mostly waiting for the database — held up every other room of the process. On PostgreSQL
the table sockets and the ticks run instead on a bounded pool of ``ONLINE_TABLE_THREADS`` threads (each
with its own database connection, closed or kept by Django's ``CONN_MAX_AGE`` as in a request): rooms
wait for the database side by side, and one room's writes stay in order because its row is locked
(``select_for_update``) and each socket's frames are handled one after the other. SQLite (the embedded
default) has one writer at a time: there the shared thread is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

__all__ = ["on_table_thread", "shutdown", "table_pool"]

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_started: list[int] = []
"""One entry per thread the pool has started."""
_lock = threading.Lock()


def table_pool() -> ThreadPoolExecutor | None:
    """The process's pool for table code, or None where the shared sync thread is used (SQLite, or
    ``ONLINE_TABLE_THREADS`` ≤ 1)."""
    global _pool
    threads = int(getattr(settings, "ONLINE_TABLE_THREADS", 0))
    if threads <= 1 or connections["default"].vendor == "sqlite":
        return None
    with _lock:
        if _pool is None:
            _started.clear()
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="online-table",
                                       initializer=_started.append, initargs=(1,))
        return _pool


TRUSTED_SECONDS = 5.0
"""A table thread's connection that finished a call without a database error this recently is not checked
again (``CONN_HEALTH_CHECKS`` would otherwise cost a ``SELECT 1`` round trip before every frame)."""

_local = threading.local()


class _TableCall(DatabaseSyncToAsync):
    """Channels' database call (old connections closed before and after) with the health check of a busy
    connection skipped: a connection a call used cleanly seconds ago is known to work, and one that broke
    since fails its next statement, which marks it (``errors_occurred``) to be checked and closed then."""

    def thread_handler(self, loop: object, *args: object, **kwargs: object) -> object:
        close_old_connections()
        conn = connections["default"]
        last_ok = getattr(_local, "last_ok", None)
        if (conn.connection is not None and not conn.errors_occurred and last_ok is not None
                and time.monotonic() - last_ok < TRUSTED_SECONDS):
            setattr(conn, "health_check_done", True)  # noqa: B010 (not in the type stubs)
        try:
            return SyncToAsync.thread_handler(self, loop, *args, **kwargs)
        finally:
            clean = conn.connection is not None and not conn.errors_occurred
            close_old_connections()
            _local.last_ok = time.monotonic() if clean and conn.connection is not None else None


def on_table_thread(fn: Callable[..., T]) -> Callable[..., Coroutine[object, object, T]]:
    """``fn`` made awaitable on a table thread (old database connections closed before and after, as
    Channels does for its consumers; a connection used cleanly moments ago is not health-checked again)."""
    pool = table_pool()
    if pool is None:
        return database_sync_to_async(fn)
    call: Callable[..., Coroutine[object, object, T]] = _TableCall(fn, thread_sensitive=False, executor=pool)
    return call


def shutdown() -> None:
    """Close every table thread's database connection and stop the pool (the end of a test; the next
    table call starts a new one)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    workers = len(_started)
    if workers:  # each started thread closes its own connections
        barrier = threading.Barrier(workers)

        def close_here() -> None:
            barrier.wait(timeout=10)
            connections.close_all()

        for _ in range(workers):
            pool.submit(close_here)
    pool.shutdown(wait=True)

