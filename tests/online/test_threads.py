"""Table threads (PostgreSQL): a connection a call used cleanly moments ago is not health-checked again,
one that met a database error is; SQLite keeps Channels' one sync thread."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import DatabaseError, connection, connections

from online import threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_sqlite_keeps_the_shared_sync_thread() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    assert threads.table_pool() is None


def test_a_busy_connection_is_not_checked_before_every_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("table threads run on PostgreSQL only")
    pool = ThreadPoolExecutor(max_workers=1)  # one thread: every call below shares its connection
    monkeypatch.setattr(threads, "table_pool", lambda: pool)
    # as in production: connections kept between calls and checked (the test settings close them each time)
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    monkeypatch.setitem(connections.settings["default"], "CONN_HEALTH_CHECKS", True)
    checks: list[int] = []
    wrapper = type(connections["default"])
    original = wrapper.is_usable

    def counted(self: Any) -> bool:
        checks.append(1)
        return bool(original(self))

    monkeypatch.setattr(wrapper, "is_usable", counted)

    def query() -> int:
        with connections["default"].cursor() as c:
            c.execute("SELECT 41 + 1")
            return int(c.fetchone()[0])

    def broken() -> None:
        with connections["default"].cursor() as c:
            c.execute("SELECT * FROM no_such_table_here")

    async def run() -> None:
        call = threads.on_table_thread(query)
        assert await call() == 42  # a new connection
        pids = set()
        for _ in range(5):
            assert await call() == 42
            pids.add(await threads.on_table_thread(lambda: connections["default"].connection.info.backend_pid)())
        assert len(pids) == 1  # one connection kept throughout
        assert checks == []  # used cleanly moments ago: no SELECT 1 before each call
        with pytest.raises(DatabaseError):
            await threads.on_table_thread(broken)()
        checks.clear()
        assert await call() == 42
        assert checks, "after a database error the connection is checked again"

    try:
        asyncio.run(run())
    finally:
        pool.submit(connections.close_all).result()
        pool.shutdown()
