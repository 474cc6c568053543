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

:func:`notify` sends each connected seat its view and the spectators the public one.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

__all__ = ["notify", "rearm", "remember_loop", "schedule", "seat_group", "sweep", "watch_group"]

log = logging.getLogger(__name__)

_local = threading.local()
_loop: asyncio.AbstractEventLoop | None = None
_rearmed = False
_rearm_lock = threading.Lock()


def seat_group(code: str, seat: int) -> str:
    return f"room-{code}-seat-{seat}"


def watch_group(code: str) -> str:
    return f"room-{code}-watch"


def remember_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The ASGI server's event loop (timers hand their ticks to it); the first call re-arms stored deadlines."""
    global _loop
    _loop = loop


def _tick(room_id: int, version: int) -> None:
    from online.services import room_tick

    try:
        room_tick(room_id=room_id, version=version)
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
            _tick(*queue.popleft())
    finally:
        _local.queue = None


def _fire(room_id: int, version: int) -> None:
    """A timer ran out (its own thread): tick on the server's loop if there is one, else here."""
    loop = _loop
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(sync_to_async(_tick)(room_id, version), loop)
    else:
        _tick(room_id, version)


def schedule(room_id: int, version: int, delay_ms: int) -> None:
    """Tick room ``room_id`` at ``version`` after ``delay_ms`` milliseconds."""
    if delay_ms <= 0:
        _run_inline(room_id, version)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        from online.tasks import tick

        tick.apply_async((room_id, version), countdown=delay_ms / 1000)
    else:
        timer = threading.Timer(delay_ms / 1000, _fire, (room_id, version))
        timer.daemon = True
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
            _tick(pk, version)
    return len(rows)


def notify(code: str) -> None:
    """Send the room's new state: each connected seat its own view, the spectators the public one."""
    from online.models import Room
    from online.services import current_hand, state_for

    room = Room.objects.filter(code=code).first()
    if room is None:
        return
    seats = list(room.seats.filter(connected__gt=0).values_list("seat", flat=True))
    if not seats and not room.watchers:
        return
    current = current_hand(room)
    messages: list[tuple[str, dict[str, Any]]] = [
        (seat_group(code, s), {"type": "room.state", "state": state_for(room, s, current=current)}) for s in seats]
    if room.watchers:
        messages.append((watch_group(code), {"type": "room.state", "state": state_for(room, None, current=current)}))
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()
