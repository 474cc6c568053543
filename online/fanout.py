"""The ``state`` messages a write sends (docs/online.md): each connected seat its own view, the spectators
the public one — built from the room, seats and hand the write already holds (no query), and only re-read
from the database when a caller holds nothing (:func:`notify`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay.hand import Hand
from online import scheduling, tables
from online.models import Room, RoomHand, Seat
from online.views import seat_view, spectator_view, state_texts

log = logging.getLogger(__name__)

__all__ = ["Messages", "current_hand", "finished_numbers", "notify", "room_state", "send", "state_for", "views"]

Messages = list[tuple[str, dict[str, Any]]]
"""(group, channel-layer message) pairs: the room's group (:func:`scheduling.room_group`) or a seat's
(:func:`scheduling.seat_group`)."""


def current_hand(room: Room) -> tuple[RoomHand | None, Hand | None]:
    """The room's latest hand row and its engine hand at the room's version (cached, or rebuilt and cached;
    a caller only reads them)."""
    rh, hand = _borrow(room)
    _give_back(room, rh, hand)
    return rh, hand


def _borrow(room: Room) -> tuple[RoomHand | None, Hand | None]:
    """Like :func:`current_hand`, taken out of the cache (a write does not change them while views are
    built from them): :func:`_give_back` after."""
    hit = tables.take_both(room.pk, room.version)
    if hit is not None:
        return hit
    rh = RoomHand.objects.filter(room=room).order_by("-number").first()
    return (None, None) if rh is None else (rh, tables.hand_for(room.pk, room.version, rh))


def _give_back(room: Room, rh: RoomHand | None, hand: Hand | None) -> None:
    if rh is not None and hand is not None:
        tables.give_back(room.pk, room.version, hand, rh)


def finished_numbers(rh: RoomHand | None) -> list[int]:
    """The numbers of the room's finished hands, from its latest hand row: hands are numbered 1, 2, … and
    the next is dealt only when the latest has finished, so every earlier one has."""
    if rh is None:
        return []
    return list(range(1, rh.number + (1 if rh.finished else 0)))


def state_for(room: Room, seat: int | None, host: bool = False, *,
              current: tuple[RoomHand | None, Hand | None] | None = None, seats: Sequence[Seat] | None = None,
              finished: Sequence[int] | None = None) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (None: a spectator); what is not given is read."""
    seats = seats if seats is not None else list(Seat.objects.filter(room=room).order_by("seat"))
    rh, hand = current if current is not None else _borrow(room)
    finished = finished if finished is not None else finished_numbers(rh)
    try:
        if seat is None:
            msg = spectator_view(room, hand, seats=seats, hand_row=rh, finished=finished)
        else:
            msg = seat_view(room, hand, seat, seats=seats, hand_row=rh, finished=finished)
    finally:
        if current is None:
            _give_back(room, rh, hand)
    msg["you"]["host"] = host
    return msg


def views(room: Room, seats: Sequence[Seat], rh: RoomHand | None, hand: Hand | None) -> Messages:
    """The messages of the room's new state for its connected seats and its spectators (none if nobody):
    one message to the room's group (:func:`scheduling.room_group`) holding each connected seat's view under
    its socket's channel and the public one for the spectators, of which each socket passes on only its own
    part (online/consumers.py) — one publish an action, not one a seat. A connected seat whose channel is not
    known gets its view through its seat's group."""
    here = [s for s in seats if s.connected > 0]
    if not here and not room.watchers:
        return []
    texts, watch = state_texts(room, hand, seats=seats, hand_row=rh, finished=finished_numbers(rh),
                               for_seats=[s.seat for s in here], watch=bool(room.watchers))
    messages: Messages = [(scheduling.seat_group(room.code, s.seat), {"type": "room.state", "text": texts[s.seat]})
                          for s in here if not s.channel]
    together: dict[str, Any] = {"type": "room.state", "seats": {s.channel: texts[s.seat] for s in here if s.channel}}
    if watch is not None:
        together["watch"] = watch
    if together["seats"] or room.watchers:
        messages.append((scheduling.room_group(room.code), together))
    return messages


_SENT: dict[str, int] = {}
"""Per room code: the version of the last state this process sent."""
_SEND_LOCKS = [threading.Lock() for _ in range(64)]


def send(messages: Messages, *, room: str | None = None, version: int | None = None) -> None:
    """Send the messages. With the room and the version they show, states leave this process in version
    order: two writes of one room commit in turn, but their sends (each on its own thread) could pass each
    other; a state older than one already sent is dropped (the newer one says everything it said)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    if room is None or version is None:
        async_to_sync(send_all)()
        return
    loop = scheduling.server_loop()
    with _SEND_LOCKS[hash(room) % len(_SEND_LOCKS)]:
        if _SENT.get(room, -1) > version:
            return
        if len(_SENT) > 50_000:  # bounded: rooms long finished are forgotten
            _SENT.clear()
        _SENT[room] = version
        if loop is None:
            async_to_sync(send_all)()
        else:  # handed over in version order (under the room's lock), sent in that order, not waited for
            loop.call_soon_threadsafe(_chain, loop, room, send_all)


_TAILS: dict[str, asyncio.Task[None]] = {}
"""Per room code, on the server's loop: its last send not yet done (the next one waits for it)."""


def _chain(loop: asyncio.AbstractEventLoop, room: str, send_all: Callable[[], Awaitable[None]]) -> None:
    """On the server's loop: start this send after the room's previous one (the table thread goes back to
    its next frame at once instead of waiting for the layer)."""
    before = _TAILS.get(room)

    async def in_turn() -> None:
        if before is not None and not before.done():
            await asyncio.wait([before])
        await send_all()

    task = loop.create_task(in_turn())
    _TAILS[room] = task

    def done(t: asyncio.Task[None]) -> None:
        if _TAILS.get(room) is t:
            del _TAILS[room]
        if not t.cancelled() and t.exception() is not None:
            log.error("sending room %s's state failed", room, exc_info=t.exception())

    task.add_done_callback(done)


def notify(code: str) -> None:
    """Send the room's state as stored (a caller that holds no seats and hand)."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    if not any(s.connected > 0 for s in seats) and not room.watchers:
        return
    rh, hand = _borrow(room)
    try:
        messages = views(room, seats, rh, hand)
    finally:
        _give_back(room, rh, hand)
    send(messages, room=room.code, version=room.version)


def room_state(*, code: str, seat: int | None, host: bool = False) -> dict[str, Any]:
    """The ``state`` message for a seat (or a spectator: None) now."""
    room = Room.objects.get(code=code)
    return state_for(room, seat, host)
