"""The table protocol end to end: four sockets play whole hands of every variant, judged by the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from gameplay.notation import replay
from online import services
from online.models import Room, RoomAction, RoomHand

from .helpers import Client, check_privacy, oracle_move, room_now, run_async

pytestmark = pytest.mark.django_db(transaction=True)

VARIANTS = ["tractor", "chaodi", "red-five", "yongzhou-300"]


@database_sync_to_async
def make_room(variant: str, **kw: Any) -> tuple[str, str, list[str]]:
    created = services.room_create(variant=variant, seating="choice", **kw)
    code = created.room.code
    tokens = [services.room_join(code=code, name=f"P{s}", seat=s).token for s in range(created.room.players)]
    return code, created.host_token, tokens


async def seated(variant: str, **kw: Any) -> tuple[str, str, list[Client], Client]:
    code, host, tokens = await make_room(variant, **kw)
    clients = [Client(code, s) for s in range(len(tokens))]
    for c, t in zip(clients, tokens, strict=True):
        await c.open(t)
    watcher = Client(code, None)
    await watcher.open("")
    return code, host, clients, watcher


async def sync_all(code: str, clients: list[Client]) -> int:
    room, _, _ = await room_now(code)
    for c in clients:
        await c.until_state(room.version) if c.state is None or c.state["version"] < room.version else None
    return room.version


async def play_hand(code: str, clients: list[Client], watcher: Client, rng: random.Random) -> RoomHand:
    """Ready everyone (a hand is dealt), then send the oracle's moves until the hand is scored."""
    for c in clients:
        await sync_all(code, clients)
        assert (await c.move("ready"))["type"] == "state"
    for _ in range(2000):
        _room, rh, hand = await room_now(code)
        await sync_all(code, [*clients, watcher])
        assert hand is not None and rh is not None, [f for c in clients for f in c.frames if f["type"] != "state"]
        if hand.finished:
            return rh
        seat, kind, fields = oracle_move(hand, rng)
        frame = await clients[seat].move(kind, **fields)
        assert frame["type"] == "state", frame
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant", VARIANTS)
@run_async
async def test_a_whole_hand_through_the_protocol(variant: str) -> None:
    code, _, clients, watcher = await seated(variant)
    rh = await play_hand(code, clients, watcher, random.Random(7))
    finished = replay(rh.log)
    assert finished.outcome == rh.outcome
    last = clients[0].state
    assert last is not None and last["hand"]["phase"] == "scored"
    assert last["hand"]["result"]["outcome"] == finished.outcome
    assert watcher.state is not None and watcher.state["hand"]["result"]["outcome"] == finished.outcome
    assert all(len(h) > 0 for h in watcher.state["hand"]["result"]["hands"])
    hands = {rh.number: finished}
    checked = sum(check_privacy(c.frames, c.seat, hands) for c in clients) + check_privacy(watcher.frames, None, hands)
    assert checked > 50
    for c in [*clients, watcher]:
        await c.comm.disconnect()


@run_async
async def test_refused_play_resent_id_and_stale_version() -> None:
    code, _, clients, watcher = await seated("tractor")
    for c in clients:
        await sync_all(code, clients)
        assert (await c.move("ready"))["type"] == "state"
    _room, _rh, hand = await room_now(code)
    assert hand is not None
    rng = random.Random(1)
    while hand is not None and hand.to_act()[0] != "play":
        seat, kind, fields = oracle_move(hand, rng)
        # read until this move is answered, so that no answer of it is left to be read below
        frame = await clients[seat].move(kind, **fields)
        # the deal goes on meanwhile: a declaration chosen while cards arrive may meet the round after the deal
        assert frame["type"] == "state" or frame.get("code") in ("stale", "refused"), frame
        _room, _rh, hand = await room_now(code)
        await sync_all(code, clients)
    assert hand is not None
    seat = hand.to_act()[1]
    assert seat is not None
    other = (seat + 1) % 4
    before = await database_sync_to_async(lambda: (Room.objects.get(code=code).version, RoomAction.objects.count()))()
    # out of turn: the engine's bilingual refusal, nothing stored
    mine = sorted(hand.seat_cards(other))[:1]
    from gameplay.cards import format_cards

    err = await clients[other].until_error(await clients[other].act("play", cards=format_cards(mine)))
    assert err["code"] == "refused" and err["message"]["en"] and err["message"]["zh-hans"] != err["message"]["en"]
    after = await database_sync_to_async(lambda: (Room.objects.get(code=code).version, RoomAction.objects.count()))()
    assert after == before
    # a card not held
    err = await clients[seat].until_error(await clients[seat].act("play", cards="XX"))
    assert err["code"] == "bad_message" and err["field"] == "cards"
    # a stale version: refused, then a fresh state
    legal = hand.legal_plays(seat)
    cards = format_cards(legal.sample(random.Random(3)))
    v = before[0]
    await clients[seat].send({"type": "play", "id": "x1", "version": v - 1, "cards": cards})
    err = await clients[seat].until_error("x1")
    assert err["code"] == "stale"
    assert (await clients[seat].until("state"))["version"] == v
    # accepted once; the same id again is answered, stored once
    await clients[seat].send({"type": "play", "id": "x2", "version": v, "cards": cards})
    assert (await clients[seat].until_state(v + 1))["version"] >= v + 1
    await clients[seat].send({"type": "play", "id": "x2", "version": v, "cards": cards})
    again = await clients[seat].until("state")
    assert again["type"] == "state"
    n = await database_sync_to_async(lambda: RoomAction.objects.filter(action_id="x2").count())()
    assert n == 1
    _, _rh2, hand2 = await room_now(code)
    assert hand2 is not None and sum(1 for e in hand2.log if e.kind == "play") == 1
    for c in [*clients, watcher]:
        await c.comm.disconnect()


@run_async
async def test_bad_frames() -> None:
    _code, _, clients, watcher = await seated("tractor")
    c = clients[0]
    await c.comm.send_to(text_data="not json")
    assert (await c.until("error"))["code"] == "bad_message"
    await c.send({"type": "nope"})
    assert (await c.until("error"))["field"] == "type"
    await c.send({"type": "ready", "version": 1})
    assert (await c.until("error"))["field"] == "id"
    await c.comm.send_to(text_data='{"type":"ping","pad":"' + "x" * 17000 + '"}')
    assert (await c.until("error"))["code"] == "too_big"
    await c.send({"type": "ping"})
    assert (await c.until("pong"))["type"] == "pong"
    await watcher.act("ready")
    assert (await watcher.until("error"))["code"] == "not_seated"
    await watcher.send({"type": "bot", "id": "b", "version": 0, "seat": 1, "bot": "random"})
    assert (await watcher.until("error"))["code"] == "not_host"
    for _ in range(25):
        await c.comm.send_json_to({"type": "ping"})
    out = await c.comm.receive_output(timeout=5)
    while out["type"] != "websocket.close":
        out = await c.comm.receive_output(timeout=5)
    assert out["code"] == 4008
    for x in [*clients[1:], watcher]:
        await x.comm.disconnect()


@run_async
async def test_newer_socket_of_a_seat_wins() -> None:
    code, _, tokens = await make_room("tractor")
    first = Client(code, 0)
    await first.open(tokens[0])
    second = Client(code, 0)
    await second.open(tokens[0])
    assert (await first.until("replaced"))["type"] == "replaced"
    out = await first.comm.receive_output(timeout=5)
    assert out["type"] == "websocket.close" and out["code"] == 4001
    await second.send({"type": "ping"})
    assert (await second.until("pong"))["type"] == "pong"
    seat = await database_sync_to_async(lambda: Room.objects.get(code=code).seats.get(seat=0))()
    assert seat.connected == 1 and seat.channel
    await second.comm.disconnect()


@run_async
async def test_join_host_bots_and_random_seating() -> None:
    created = await database_sync_to_async(lambda: services.room_create(variant="yongzhou-300"))()
    assert created.room.seating == "random"
    code = created.room.code
    host = Client(code, None)
    st = await host.open("", created.host_token)
    assert st["you"]["host"] is True and st["you"]["seat"] is None
    await host.send({"type": "join", "name": "Ann", "seat": 3})
    joined = await host.until("joined")
    assert isinstance(joined["token"], str) and 0 <= joined["seat"] < 4
    st = await host.until("state")
    assert st["you"]["seat"] == joined["seat"] and st["you"]["host"] is True
    # bots on the other seats; the host is ready: the whole hand plays (bots for everyone but the host's seat)
    for s in range(4):
        if s != joined["seat"]:
            await host.act("bot", seat=s, bot="heuristic")
            await host.until_state(st["version"] + 1)
            st = host.state or st
    assert [x["bot"] is not None for x in st["room"]["seats"]].count(True) == 3
    bad = Client(code, None)
    await bad.open("")
    await bad.send({"type": "join", "name": "Bob", "seat": None})
    assert (await bad.until("error"))["code"] == "room_full"
    await host.comm.disconnect()
    await bad.comm.disconnect()


@run_async
async def test_seat_taken_and_bad_name() -> None:
    code, _, _tokens = await make_room("tractor")
    with pytest.raises(services.OnlineError) as e:
        await database_sync_to_async(services.room_join)(code=code, name="X", seat=0)
    assert e.value.code in ("room_full", "seat_taken")
    created = await database_sync_to_async(lambda: services.room_create(variant="tractor"))()
    with pytest.raises(services.OnlineError) as e:
        await database_sync_to_async(services.room_join)(code=created.room.code, name="\u202eevil", seat=0)
    assert e.value.code == "bad_name"
    j = await database_sync_to_async(services.room_join)(code=created.room.code, name="A", seat=2)
    with pytest.raises(services.OnlineError) as e:
        await database_sync_to_async(services.room_join)(code=created.room.code, name="B", seat=2)
    assert e.value.code == "seat_taken" and j.seat.seat == 2


@run_async
async def test_a_failing_service_answers_server_error_and_the_socket_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure that is no refusal (a bug, the database gone a moment) answers ``server_error`` with the frame's
    id; nothing is stored, the socket stays open, and the same frame sent again is accepted."""
    from online import consumers

    code, _, clients, _watcher = await seated("tractor")
    await sync_all(code, clients)
    real = consumers.services.seat_ready
    calls = {"n": 0}

    def flaky(**kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("database went away")
        return real(**kw)

    monkeypatch.setattr(consumers.services, "seat_ready", flaky)
    c = clients[0]
    assert c.state is not None
    frame = {"type": "ready", "id": "r-flaky", "version": c.state["version"]}
    await c.send(frame)
    err = await c.until("error")
    assert err["code"] == "server_error" and err["id"] == "r-flaky" and err["message"]["zh-hans"]
    assert await database_sync_to_async(lambda: RoomAction.objects.filter(action_id="r-flaky").count())() == 0
    await c.send(frame)
    state = await c.until_state(frame["version"] + 1)
    assert state["room"]["seats"][0]["ready"]
    for x in [*clients, _watcher]:
        await x.comm.disconnect()
