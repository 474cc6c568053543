"""Clocks, bot seats and the deal's pace, off the request path (docs/online.md, "Clocks, 托管 and bot seats").

:func:`schedule` arms one tick ``(room id, version)`` after ``delay_ms``; the tick calls
:func:`online.services.room_tick`, which does nothing if the room has moved on (a clock fires once).

* A delay of 0 (tests) runs the tick right here, after the commit that asked for it; ticks asked for
  while one runs are queued and run in turn (no recursion), so a table of bots plays to its end inline.
* With a broker (``CELERY_TASK_ALWAYS_EAGER`` off): the Celery task ``online.tick`` with a countdown; the
  periodic ``online.sweep`` ticks every room whose stored deadline has passed (a restart loses nothing).
* On the embedded default (no broker): an in-process daemon timer; when the ASGI server's event loop is
  known (the first WebSocket connection records it) the tick runs on that loop's thread for sync code, so
  the in-memory channel layer is used from its own loop. :func:`rearm` arms the stored deadlines again
  when a process starts serving (the first connection).

"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import connections
from django.utils import timezone

from online.threads import on_table_thread

__all__ = ["cancel_timers", "forget_loop", "rearm", "remember_loop", "room_group", "run_tick", "schedule",
           "seat_group", "server_loop", "set_ticker", "sweep"]

log = logging.getLogger(__name__)

_local = threading.local()
_loop: asyncio.AbstractEventLoop | None = None
_rearmed = False
_rearm_lock = threading.Lock()
_timers: set[threading.Timer] = set()  # armed in-process timers (the embedded default), until they fire
_timers_lock = threading.Lock()


def seat_group(code: str, seat: int) -> str:
    return f"room-{code}-seat-{seat}"


def room_group(code: str) -> str:
    """Every socket of the room, seated or watching: each new state goes to it as one message
    (online/fanout.py), from which a socket takes only its own part."""
    return f"room-{code}-all"


def remember_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The ASGI server's event loop (timers hand their ticks to it); the first call re-arms stored deadlines."""
    global _loop
    _loop = loop


def forget_loop() -> None:
    """Forget the server's loop (the end of a test: the next one may run its ticks inline)."""
    global _loop
    _loop = None


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's running event loop, or None (a test, a Celery worker, a management command)."""
    loop = _loop
    return loop if loop is not None and loop.is_running() else None


_ticker: Callable[[int, int], object] | None = None


def set_ticker(fn: Callable[[int, int], object]) -> None:
    """What a tick runs (``online.services`` registers ``room_tick``: this module imports no service)."""
    global _ticker
    _ticker = fn


def run_tick(room_id: int, version: int) -> None:
    """Tick the room (the timers, the inline queue and the Celery task all land here)."""
    if _ticker is None:
        log.error("online tick for room %s with no ticker registered (import online.services)", room_id)
        return
    try:
        _ticker(room_id, version)
    except Exception:  # a tick must never take its caller down (the table stays as stored)
        log.exception("online tick failed: room %s version %s", room_id, version)


def _run_inline(room_id: int, version: int) -> None:
    queue: deque[tuple[int, int]] | None = getattr(_local, "queue", None)
    if queue is not None:
        queue.append((room_id, version))
        return
    _local.queue = queue = deque([(room_id, version)])
    try:
        while queue:
            run_tick(*queue.popleft())
    finally:
        _local.queue = None


def _fire(room_id: int, version: int) -> None:
    """A timer ran out (its own thread): tick on the server's loop if there is one, else here."""
    me = threading.current_thread()
    if isinstance(me, threading.Timer):
        with _timers_lock:
            _timers.discard(me)
    loop = _loop
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(on_table_thread(run_tick)(room_id, version), loop)
        return
    try:
        run_tick(room_id, version)
    finally:
        connections.close_all()  # this thread ends here: its database connection must not outlive it


def cancel_timers() -> int:
    """Cancel every armed in-process timer (the end of a test: a clock armed by one test must not tick into
    the next one's database); returns how many. The deadlines stay stored: :func:`rearm` or the sweep
    finds them again."""
    with _timers_lock:
        timers = list(_timers)
        _timers.clear()
    for timer in timers:
        timer.cancel()
    return len(timers)


def schedule(room_id: int, version: int, delay_ms: int) -> None:
    """Tick room ``room_id`` at ``version`` after ``delay_ms`` milliseconds."""
    if delay_ms <= 0:
        _run_inline(room_id, version)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task("online.tick", (room_id, version), countdown=delay_ms / 1000)
    else:
        timer = threading.Timer(delay_ms / 1000, _fire, (room_id, version))
        timer.daemon = True
        with _timers_lock:
            _timers.add(timer)
        timer.start()


def rearm() -> int:
    """Arm every stored deadline again (once per process, on the embedded default); returns how many."""
    global _rearmed
    from online.models import Room

    with _rearm_lock:
        if _rearmed or not settings.CELERY_TASK_ALWAYS_EAGER:
            return 0
        _rearmed = True
    now = timezone.now()
    rows = list(Room.objects.filter(deadline__isnull=False).values_list("pk", "deadline_version", "deadline"))
    for pk, version, deadline in rows:
        if version is None or deadline is None:
            continue
        delay = max(1, int((deadline - now) / timedelta(milliseconds=1)))
        schedule(pk, version, delay)
    return len(rows)


def sweep() -> int:
    """Tick every room whose stored deadline has passed (the periodic ``online.sweep``); returns how many."""
    from online.models import Room

    rows = list(Room.objects.filter(deadline__lte=timezone.now()).values_list("pk", "deadline_version"))
    for pk, version in rows:
        if version is not None:
            run_tick(pk, version)
    return len(rows)
