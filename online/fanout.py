"""The ``state`` messages a write sends (docs/online.md): each connected seat its own view, the spectators
the public one — built from the room, seats and hand the write already holds (one query: the finished
hands' numbers), and only re-read from the database when a caller holds nothing (:func:`notify`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay.hand import Hand
from online import scheduling, tables
from online.models import Room, RoomHand, Seat
from online.views import seat_view, spectator_view

__all__ = ["Messages", "current_hand", "finished_numbers", "notify", "room_state", "send", "state_for", "views"]

Messages = list[tuple[str, dict[str, Any]]]
"""(group, channel-layer message) pairs."""


def current_hand(room: Room) -> tuple[RoomHand | None, Hand | None]:
    """The room's latest hand row and its engine hand at the room's version (cached, or rebuilt; not taken)."""
    rh = RoomHand.objects.filter(room=room).order_by("-number").first()
    if rh is None:
        return None, None
    hand = tables.cached(room.pk, room.version)
    return rh, hand if hand is not None else tables.hand_from_log(rh.log)


def finished_numbers(room: Room) -> list[int]:
    return list(RoomHand.objects.filter(room=room, finished=True).order_by("number").values_list("number", flat=True))


def state_for(room: Room, seat: int | None, host: bool = False, *,
              current: tuple[RoomHand | None, Hand | None] | None = None, seats: Sequence[Seat] | None = None,
              finished: Sequence[int] | None = None) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (None: a spectator); what is not given is read."""
    seats = seats if seats is not None else list(Seat.objects.filter(room=room).order_by("seat"))
    rh, hand = current if current is not None else current_hand(room)
    finished = finished if finished is not None else finished_numbers(room)
    if seat is None:
        msg = spectator_view(room, hand, seats=seats, hand_row=rh, finished=finished)
    else:
        msg = seat_view(room, hand, seat, seats=seats, hand_row=rh, finished=finished)
    msg["you"]["host"] = host
    return msg


def views(room: Room, seats: Sequence[Seat], rh: RoomHand | None, hand: Hand | None) -> Messages:
    """The messages of the room's new state for its connected seats and its spectators (none if nobody)."""
    here = [s.seat for s in seats if s.connected > 0]
    if not here and not room.watchers:
        return []
    finished = finished_numbers(room)
    current = (rh, hand)
    messages: Messages = [
        (scheduling.seat_group(room.code, s),
         {"type": "room.state", "state": state_for(room, s, current=current, seats=seats, finished=finished)})
        for s in here]
    if room.watchers:
        messages.append((scheduling.watch_group(room.code),
                         {"type": "room.state",
                          "state": state_for(room, None, current=current, seats=seats, finished=finished)}))
    return messages


def send(messages: Messages) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


def notify(code: str) -> None:
    """Send the room's state as stored (a caller that holds no seats and hand)."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    if not any(s.connected > 0 for s in seats) and not room.watchers:
        return
    rh, hand = current_hand(room)
    send(views(room, seats, rh, hand))


def room_state(*, code: str, seat: int | None, host: bool = False) -> dict[str, Any]:
    """The ``state`` message for a seat (or a spectator: None) now."""
    room = Room.objects.get(code=code)
    return state_for(room, seat, host)
