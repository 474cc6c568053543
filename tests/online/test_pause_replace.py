"""The host's hand on an owned room mid-match (online/services.py): ``room_pause`` (no action accepted, no
deadline runs, the state says ``room.paused``; resuming plans the clock afresh) and ``seat_replace`` (a seat
to a bot, which plays its next turn; or to a new person's token; the earlier token refused either way)."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from gameplay.config import HandConfig
from gameplay.hand import Hand
from online import owners, scheduling, services
from online.models import Room, RoomHand, Seat, digest

from .helpers import Client, oracle_move, run_async

pytestmark = pytest.mark.django_db(transaction=True)
HOST = "host-secret"
_ids = itertools.count()


class Owner:
    def __init__(self) -> None:
        self.recorded: list[int] = []

    def next_config(self, owner_id: int, room: Room) -> HandConfig | None:
        return None

    def hand_finished(self, owner_id: int, room: Room, row: RoomHand, hand: Hand) -> bool | None:
        self.recorded.append(row.number)
        return True  # one hand is the whole match here


@pytest.fixture
def owner() -> Owner:
    fake = Owner()
    owners.register("pausetest", fake)
    return fake


def _table(*, clock: int | None = 30) -> tuple[Room, list[str]]:
    room = services.room_create(variant="tractor", clock=clock).room
    owners.room_own(room=room, kind="pausetest", owner_id=3, host_token=HOST, names=["A", "B", "C", "D"])
    tokens = [owners.seat_claim(code=room.code, kind="pausetest", owner_id=3, seat=s) for s in range(4)]
    for s, t in enumerate(tokens):
        services.room_connect(code=room.code, token=t, channel=f"test.{room.code}.{s}")
    for t in tokens:
        room.refresh_from_db()
        services.seat_ready(code=room.code, token=t, action_id=f"r{next(_ids)}", version=room.version)
    room.refresh_from_db()
    return room, tokens


def _move(room: Room, rng: random.Random) -> tuple[int, str, dict[str, Any]]:
    room.refresh_from_db()
    _rh, hand = services.current_hand(room)
    assert hand is not None and not hand.finished
    return oracle_move(hand, rng)


def _act(room: Room, token: str, kind: str, fields: dict[str, Any]) -> services.Answer:
    room.refresh_from_db()
    return services.room_act(code=room.code, token=token, action=kind, action_id=f"a{next(_ids)}",
                             version=room.version, **fields)


def _play_on(room: Room, tokens: list[str], rng: random.Random, *, until_seat: int | None = None,
             steps: int = 4000) -> None:
    """Oracle moves by the seats' tokens until the hand ends (or ``until_seat`` is to act, after a play)."""
    for _ in range(steps):
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None
        if hand.finished:
            return
        seat, kind, fields = oracle_move(hand, rng)
        if until_seat is not None and seat == until_seat and hand.phase == "play" and hand.tricks:
            return
        _act(room, tokens[seat], kind, fields)
    raise AssertionError("the hand did not end")


def test_a_paused_table_accepts_no_action_and_runs_no_clock_then_resumes(owner: Owner) -> None:
    room, tokens = _table()
    rng = random.Random(5)
    seat, kind, fields = _move(room, rng)
    assert room.deadline_kind == "clock" and room.deadline_seat == seat
    with pytest.raises(services.OnlineError) as err:
        services.room_pause(code=room.code, host_token="not-the-host", paused=True)
    assert err.value.code == "not_host"

    answer = services.room_pause(code=room.code, host_token=HOST, paused=True)
    room.refresh_from_db()
    assert room.paused and answer.version == room.version
    assert room.deadline is None and room.deadline_kind == "" and room.deadline_version is None
    state = services.room_state(code=room.code, seat=seat)
    assert state["room"]["paused"] is True and state["clock"] is None
    before = RoomHand.objects.get(room=room).log["events"]
    with pytest.raises(services.OnlineError) as err:
        _act(room, tokens[seat], kind, fields)
    assert err.value.code == "refused"
    assert err.value.message == {"en": "The table is paused by the director.", "zh-hans": "牌桌已被裁判暂停。"}
    assert not services.room_tick(room_id=room.pk, version=room.version)  # no deadline runs
    assert RoomHand.objects.get(room=room).log["events"] == before
    assert services.room_pause(code=room.code, host_token=HOST, paused=True).repeated  # already paused

    services.room_pause(code=room.code, host_token=HOST, paused=False)
    room.refresh_from_db()
    assert not room.paused and room.deadline_kind == "clock" and room.deadline_seat == seat
    assert room.deadline is not None and room.deadline > timezone.now() + timedelta(seconds=25)  # a whole clock
    assert services.room_state(code=room.code, seat=seat)["room"]["paused"] is False
    _act(room, tokens[seat], kind, fields)  # accepted again
    assert len(RoomHand.objects.get(room=room).log["events"]) > len(before)


def test_a_seat_given_to_a_bot_mid_hand_plays_its_next_turn_and_the_hand_is_recorded(owner: Owner) -> None:
    room, tokens = _table(clock=None)
    rng = random.Random(11)
    _play_on(room, tokens, rng, until_seat=2)  # seat 2 to play, in the play phase
    events = len(RoomHand.objects.get(room=room).log["events"])
    assert services.seat_replace(code=room.code, host_token=HOST, seat=2, bot="random") is None
    row = Seat.objects.get(room=room, seat=2)
    assert row.bot == "random" and row.token_digest == "" and row.connected == 0
    log = RoomHand.objects.get(room=room).log["events"]
    assert any(e["kind"] == "play" and e["seat"] == 2 for e in log[events:])  # the bot played the seat's turn
    with pytest.raises(services.OnlineError) as err:  # the player's token no longer plays
        _act(room, tokens[2], "play", {"cards": "S2"})
    assert err.value.code == "not_seated"
    _play_on(room, tokens, rng)  # the three others finish the hand; the bot plays seat 2 throughout
    room.refresh_from_db()
    assert owner.recorded == [1] and room.status == Room.Status.FINISHED


def test_a_seat_given_to_a_substitute_mid_hand_plays_by_the_new_token(owner: Owner) -> None:
    room, tokens = _table(clock=None)
    rng = random.Random(3)
    _play_on(room, tokens, rng, until_seat=1)
    services.room_pause(code=room.code, host_token=HOST, paused=True)  # the director pauses, then replaces
    new = services.seat_replace(code=room.code, host_token=HOST, seat=1, bot=None, name="Sub")
    assert new is not None and new != tokens[1]
    row = Seat.objects.get(room=room, seat=1)
    assert row.token_digest == digest(new) and row.name == "Sub" and row.bot is None and row.connected == 0
    services.room_connect(code=room.code, token=new, channel=f"test.{room.code}.sub")
    services.room_pause(code=room.code, host_token=HOST, paused=False)
    seat, kind, fields = _move(room, rng)
    assert seat == 1  # nobody played the seat meanwhile
    with pytest.raises(services.OnlineError) as err:
        _act(room, tokens[1], kind, fields)
    assert err.value.code == "not_seated"
    events = len(RoomHand.objects.get(room=room).log["events"])
    _act(room, new, kind, fields)
    assert any(e.get("seat") == 1 and e["kind"] == kind for e in RoomHand.objects.get(room=room).log["events"][events:])
    tokens[1] = new
    _play_on(room, tokens, rng)
    assert owner.recorded == [1]


def test_refusals_a_finished_match_a_casual_room_a_wrong_host(owner: Owner) -> None:
    room, tokens = _table(clock=None)
    _play_on(room, tokens, random.Random(8))
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    version = room.version
    for call in (lambda: services.room_pause(code=room.code, host_token=HOST, paused=True),
                 lambda: services.seat_replace(code=room.code, host_token=HOST, seat=0, bot="random")):
        with pytest.raises(services.OnlineError) as err:
            call()
        assert err.value.code == "refused" and err.value.message["en"] == "The match is over: nothing to change."
        assert err.value.message["zh-hans"] == "比赛已结束，不能再更改。"
    room.refresh_from_db()
    assert room.version == version and not room.paused and Seat.objects.get(room=room, seat=0).bot is None

    casual = services.room_create(variant="tractor", name="P")
    with pytest.raises(services.OnlineError) as err:
        services.seat_replace(code=casual.room.code, host_token=casual.host_token, seat=0, bot="random")
    assert err.value.code == "refused"
    fresh, _tokens = _table(clock=None)
    with pytest.raises(services.OnlineError) as err:
        services.seat_replace(code=fresh.code, host_token="nope", seat=0, bot="random")
    assert err.value.code == "not_host"
    with pytest.raises(services.OnlineError) as err:
        services.seat_replace(code=fresh.code, host_token=HOST, seat=0, bot="wizard")
    assert err.value.field == "bot"


@run_async
async def test_the_replaced_seats_socket_is_told_and_closed(owner: Owner) -> None:
    room = await database_sync_to_async(services.room_create)(variant="tractor")
    code = room.room.code
    await database_sync_to_async(owners.room_own)(room=room.room, kind="pausetest", owner_id=3, host_token=HOST)
    token = await database_sync_to_async(owners.seat_claim)(code=code, kind="pausetest", owner_id=3, seat=0)
    old = Client(code, 0)
    state = await old.open(token)
    assert state["you"]["seat"] == 0 and state["room"]["paused"] is False
    gone = (await database_sync_to_async(Seat.objects.get)(room__code=code, seat=0)).channel
    await database_sync_to_async(services.seat_replace)(code=code, host_token=HOST, seat=0, bot="normal")
    assert (await old.until("replaced")) == {"type": "replaced"}
    # out of the room's group too: a state naming its old channel reaches it no more
    await get_channel_layer().group_send(scheduling.room_group(code), {"type": "room.state", "seats": {gone: "{}"}})
    assert (await old.comm.receive_output(timeout=5))["type"] == "websocket.close"
    assert await old.comm.receive_nothing(timeout=0.3)
    again = Client(code, 0)
    ok, _ = await again.comm.connect()
    assert ok
    await again.comm.send_json_to({"type": "hello", "token": token})
    refused = await again.until("error")
    assert refused["code"] == "not_seated"
    await again.comm.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(room__code=code, seat=0)
    assert seat.bot == "normal" and seat.connected == 0
