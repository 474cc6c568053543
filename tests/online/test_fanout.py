"""A new state leaves as one message to the room's group (online/fanout.py's ``views``); each socket passes on
only its own part of it (online/consumers.py): a seat's socket the text under its own channel, a spectator's
the public one, an older or removed socket of a seat nothing."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from online import fanout, scheduling, services
from online.models import Room, Seat

from .helpers import Client, run_async

pytestmark = pytest.mark.django_db(transaction=True)


def _text(tag: str) -> str:
    return json.dumps({"type": "state", "tag": tag, "you": {"host": False}})


async def _quiet(*clients: Client) -> None:
    """Read what the room sent on its own (others joining change the state) until nothing more comes."""
    for c in clients:
        while not await c.comm.receive_nothing(timeout=0.3):
            await c.recv()


@run_async
async def test_each_socket_passes_on_only_its_own_part_of_the_rooms_message() -> None:
    created = await database_sync_to_async(services.room_create)(variant="tractor", seating="choice")
    code = created.room.code
    tokens = [await database_sync_to_async(services.room_join)(code=code, name=f"P{s}", seat=s) for s in (0, 1)]
    seats = [Client(code, 0), Client(code, 1)]
    for c, joined in zip(seats, tokens, strict=True):
        await c.open(joined.token)
    watcher = Client(code, None)
    await watcher.open("")
    channel = {s.seat: s.channel for s in await database_sync_to_async(list)(Seat.objects.filter(room__code=code))}
    assert channel[0] and channel[1] and channel[0] != channel[1]
    await _quiet(*seats, watcher)

    layer = get_channel_layer()
    await layer.group_send(scheduling.room_group(code), {
        "type": "room.state", "seats": {channel[0]: _text("zero"), "someone.else!x": _text("other")},
        "watch": _text("public")})
    assert (await seats[0].recv())["tag"] == "zero"
    assert (await watcher.recv())["tag"] == "public"
    assert await seats[1].comm.receive_nothing(timeout=0.3)  # seat 1's channel is not in it: nothing at all

    await layer.group_send(scheduling.room_group(code), {"type": "room.state", "seats": {channel[1]: _text("one")}})
    assert (await seats[1].recv())["tag"] == "one"
    assert await seats[0].comm.receive_nothing(timeout=0.3)
    assert await watcher.comm.receive_nothing(timeout=0.3)  # no public part: spectators are sent nothing
    for c in (*seats, watcher):
        await c.comm.disconnect()


def test_views_is_one_room_message_with_each_connected_seats_view_and_the_public_one() -> None:
    room = services.room_create(variant="tractor", seating="choice").room
    tokens = [services.room_join(code=room.code, name=f"P{s}", seat=s).token for s in range(4)]
    for s in (0, 2):
        services.room_connect(code=room.code, token=tokens[s], channel=f"test.chan!{s}")
    services.room_connect(code=room.code, token="", channel="test.chan!w")  # a spectator
    Seat.objects.filter(room=room, seat=3).update(connected=1, channel="")  # connected, its channel not known
    room = Room.objects.get(pk=room.pk)
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    rh, hand = fanout.current_hand(room)

    messages = fanout.views(room, seats, rh, hand)

    assert [target for target, _ in messages] == [scheduling.seat_group(room.code, 3), scheduling.room_group(room.code)]
    assert json.loads(messages[0][1]["text"])["you"]["seat"] == 3
    together = messages[1][1]
    assert together["type"] == "room.state" and set(together["seats"]) == {"test.chan!0", "test.chan!2"}
    for s in (0, 2):
        view = json.loads(together["seats"][f"test.chan!{s}"])
        assert view == fanout.state_for(room, s, current=(rh, hand), seats=seats)
    assert json.loads(together["watch"]) == fanout.state_for(room, None, current=(rh, hand), seats=seats)
    assert json.loads(together["watch"])["you"]["seat"] is None
