"""Spectators one trick behind (``Room.spectator_delay``): over whole hands through the protocol, a delayed
spectator never sees a play of the trick being played, its ``last_trick``, points and cards left are one
trick behind, the seats are not delayed, and the hand is shown whole once it ends."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from gameplay.cards import CODE_NAMES
from gameplay.hand import Hand
from gameplay.notation import replay
from online.models import Room
from online.tables import hand_from_log
from online.views import card_list

from .helpers import Client, check_privacy, oracle_move, room_now, run_async
from .test_protocol import seated, sync_all

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def set_delay(code: str, on: bool) -> None:
    Room.objects.filter(code=code).update(spectator_delay=on)


def played(plays: list[dict[str, Any]]) -> list[tuple[int, tuple[str, ...]]]:
    return [(p["seat"], tuple(sorted(p["cards"]))) for p in plays]


def trick_plays(hand: Hand, k: int) -> list[tuple[int, tuple[str, ...]]]:
    """The plays of the hand's finished trick ``k`` as the views show them."""
    _leader, plays, _winner, _points = hand.tricks[k]
    return [(p.seat, tuple(sorted(card_list(p.on_table, hand.ctx)))) for p in plays]


def live_plays(hand: Hand) -> list[tuple[int, tuple[str, ...]]]:
    obs = hand.observation(0)
    return [(s, tuple(sorted(CODE_NAMES[c] for c in cs))) for s, cs in obs.trick]


def points_before(hand: Hand, k: int) -> tuple[int, ...]:
    """The points of a fresh replay of ``hand`` stopped just before the first play of trick ``k``."""
    log = hand.to_json()
    events = log["events"]
    plays = [i for i, e in enumerate(events) if e["kind"] == "play"]
    if len(plays) <= k * hand.n:  # that trick not begun yet: as it stands
        return hand.observation(0).points
    partial = hand_from_log({"config": log["config"], "events": events[:plays[k * hand.n]]})
    return partial.observation(0).points


async def play_watched(variant: str, delay: bool, seed: int) -> tuple[list[Client], Client, Hand, int]:
    """A whole hand played by the oracle; after each move the spectator's state is checked against the
    server's hand at that version. Returns the clients, the watcher, the finished hand and the checks made."""
    code, _, clients, watcher = await seated(variant)
    await set_delay(code, delay)
    rng = random.Random(seed)
    for c in clients:
        await sync_all(code, clients)
        assert (await c.move("ready"))["type"] == "state"
    checks = lagging = 0
    for _ in range(3000):
        room, rh, hand = await room_now(code)
        await sync_all(code, [*clients, watcher])
        assert hand is not None and rh is not None
        if hand.finished:
            assert not delay or lagging > checks // 2  # mostly behind (not at a trick's first play)
            return clients, watcher, hand, checks
        seen = watcher.state
        assert seen is not None and seen["version"] == room.version
        h = seen["hand"]
        live = live_plays(hand) if hand.phase == "play" else []
        if delay and hand.phase == "play":
            checks += 1
            done = len(hand.tricks)
            # the trick shown has no plays yet; the last trick is the one before the last finished
            assert not h["trick"]["plays"]
            assert (played(h["last_trick"]["plays"]) if h["last_trick"] else None) == (
                trick_plays(hand, done - 2) if done >= 2 else None)
            # the cards left and the points as the last finished trick began
            held = list(hand.observation(0).cards_left)
            for s, cards in live + (trick_plays(hand, done - 1) if done >= 1 else []):
                held[s] += len(cards)
            assert h["counts"] == held
            lagging += held != list(hand.observation(0).cards_left)
            assert h["points"] == list(points_before(hand, done - 1 if done >= 1 else 0))
            assert seen["clock"] is None and h["delayed"] is (done > 0 or bool(live))
        elif not delay and hand.phase == "play":
            assert played(h["trick"]["plays"]) == live  # undelayed: live
        seat, kind, fields = oracle_move(hand, rng)
        frame = await clients[seat].move(kind, **fields)
        assert frame["type"] == "state", frame
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant", ["tractor", "chaodi", "red-five", "yongzhou-300"])
@run_async
async def test_a_delayed_spectator_is_one_trick_behind_over_a_whole_hand(variant: str) -> None:
    clients, watcher, hand, checks = await play_watched(variant, True, 11)
    assert checks > 20
    # every frame the spectator got: no play of a trick in progress ever (the trick shown has no plays)
    plays = [f for f in watcher.frames if f.get("type") == "state" and f["hand"] and f["hand"]["phase"] == "play"]
    assert plays and all(not f["hand"]["trick"]["plays"] for f in plays)
    assert check_privacy(watcher.frames, None, {}) > 20
    # the seats are not delayed: they saw the tricks being played, and the last trick as it ended
    for c in clients:
        frames = [f for f in c.frames if f.get("type") == "state" and f["hand"] and f["hand"]["phase"] == "play"]
        assert any(f["hand"]["trick"]["plays"] for f in frames)
        assert not any(f["hand"].get("delayed") for f in frames)
    # the hand over: shown whole (its result, every hand, the last trick), no longer delayed
    end = watcher.state
    assert end is not None and end["hand"]["phase"] == "scored" and end["hand"]["delayed"] is False
    assert end["hand"]["result"]["outcome"] == hand.outcome
    assert played(end["hand"]["last_trick"]["plays"]) == trick_plays(hand, len(hand.tricks) - 1)
    assert end["room"]["spectator_delay"] is True
    finished = replay(hand.to_json())
    assert finished.outcome == hand.outcome
    for c in [*clients, watcher]:
        await c.comm.disconnect()


@run_async
async def test_without_the_delay_a_spectator_sees_the_trick_live() -> None:
    clients, watcher, _hand, _ = await play_watched("tractor", False, 5)
    frames = [f for f in watcher.frames if f.get("type") == "state" and f["hand"] and f["hand"]["phase"] == "play"]
    assert any(f["hand"]["trick"]["plays"] for f in frames)
    assert not any(f["hand"]["delayed"] for f in frames)
    for c in [*clients, watcher]:
        await c.comm.disconnect()


def test_live_views_and_a_hand_mid_trick() -> None:
    """The view itself on a hand stopped in the middle of a trick: delayed for spectators, live for
    ``live=True`` (a director's full view) and for a room without the delay."""
    from gameplay.bots import make_bot
    from gameplay.config import HandConfig
    from gameplay.simulate import bot_turn
    from online.views import one_trick_behind, spectator_view

    hand = Hand(HandConfig("tractor", {}), seed=3)
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    while not (hand.phase == "play" and len(hand.tricks) == 5 and len(hand.observation(0).trick) == 2):
        kind, seat = hand.to_act()
        if kind == "deal":
            hand.deal()
        else:
            bot_turn(hand, bots[seat], kind, seat)
    behind = one_trick_behind(hand)
    assert behind is not None and len(behind.tricks) == 4 and not behind.observation(0).trick
    room = Room(code="MID", variant="tractor", decks=2, players=4, spectator_delay=True)
    delayed = spectator_view(room, hand, seats=[])["hand"]
    assert delayed["delayed"] and delayed["trick"]["plays"] == [] and delayed["trick"]["leader"] == hand.tricks[4][0]
    assert played(delayed["last_trick"]["plays"]) == trick_plays(hand, 3)
    for view in (spectator_view(room, hand, seats=[], live=True)["hand"],
                 spectator_view(Room(code="LIVE", variant="tractor", decks=2, players=4), hand, seats=[])["hand"]):
        assert not view["delayed"] and played(view["trick"]["plays"]) == live_plays(hand)
        assert played(view["last_trick"]["plays"]) == trick_plays(hand, 4)
