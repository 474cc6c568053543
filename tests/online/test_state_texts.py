"""``views.state_texts`` builds the room, the clock and the hand's public part once for every reader of a new
state; each text it gives must be the very text of that reader's own message (``seat_view``,
``spectator_view``), at every step of whole hands in every variant: nothing of one seat's in another's."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest

from gameplay.bots import make_bot
from gameplay.config import HandConfig
from gameplay.hand import Hand
from gameplay.simulate import bot_turn
from online import views
from online.models import Room, RoomHand, Seat

VARIANTS = ("tractor", "chaodi", "red-five", "yongzhou-300")


def _table(variant: str, n: int, *, delay: bool = False, paused: bool = False) -> tuple[Room, list[Seat], RoomHand]:
    room = Room(code="TEXTS1", variant=variant, decks=2, players=n, version=41, spectator_delay=delay, paused=paused,
                clock=20, deadline_kind="clock", deadline_seat=1, deadline=datetime(2026, 12, 7, 20, 0, tzinfo=UTC),
                match={"number": 1, "hands": 2, "totals": [3, -1] + [0] * (n - 2)} if n != 4 or variant == "red-five"
                else {"number": 1, "hands": 0})
    seats = [Seat(room=room, seat=s, name=f"玩家{s}", connected=s % 2, bot="strong" if s == 3 else None)
             for s in range(n)]
    return room, seats, RoomHand(room=room, number=3, log={"events": []},
                                 result={"response": {"levels": 1}, "explanation": {"en": "x", "zh-hans": "某"}})


def _expected(room: Room, hand: Hand, seats: list[Seat], rh: RoomHand, seat: int | None) -> str:
    if seat is None:
        return json.dumps(views.spectator_view(room, hand, seats=seats, hand_row=rh, finished=[1, 2]))
    return json.dumps(views.seat_view(room, hand, seat, seats=seats, hand_row=rh, finished=[1, 2]))


def _check(room: Room, hand: Hand, seats: list[Seat], rh: RoomHand) -> None:
    texts, watch = views.state_texts(room, hand, seats=seats, hand_row=rh, finished=[1, 2],
                                     for_seats=range(len(seats)), watch=True)
    assert sorted(texts) == list(range(len(seats)))
    for seat in range(len(seats)):
        assert texts[seat] == _expected(room, hand, seats, rh, seat)
    assert watch == _expected(room, hand, seats, rh, None)


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views.time, "time", lambda: 1_796_000_000.0)  # both builds see one "now"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_readers_text_is_its_own_message_at_every_step_of_a_hand(variant: str) -> None:
    for seed in (1, 2):
        hand = Hand(HandConfig(variant, {}), seed=seed)
        room, seats, rh = _table(variant, hand.n, paused=seed == 2)
        bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(hand.n)]
        steps = 0
        while True:
            if steps % 3 == 0 or hand.phase != "play":
                _check(room, hand, seats, rh)
            kind, seat = hand.to_act()
            if kind == "scored":
                break
            if kind == "deal":
                hand.deal()
            else:
                assert seat is not None
                bot_turn(hand, bots[seat], kind, seat)
            steps += 1
        assert hand.finished
        _check(room, hand, seats, rh)  # the result and every hand as dealt


def test_a_room_with_the_spectator_delay_and_a_room_with_no_hand() -> None:
    hand = Hand(HandConfig("tractor", {}), seed=5)
    room, seats, rh = _table("tractor", 4, delay=True)
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    while not (hand.phase == "play" and len(hand.tricks) == 3 and len(hand.observation(0).trick) == 1):
        kind, seat = hand.to_act()
        if kind == "deal":
            hand.deal()
        else:
            assert seat is not None
            bot_turn(hand, bots[seat], kind, seat)
    texts, watch = views.state_texts(room, hand, seats=seats, hand_row=rh, finished=[1, 2], for_seats=[2], watch=True)
    assert list(texts) == [2] and texts[2] == _expected(room, hand, seats, rh, 2)
    assert watch == _expected(room, hand, seats, rh, None) and json.loads(watch)["hand"]["delayed"] is True

    empty, _, _ = _table("tractor", 4)
    texts, watch = views.state_texts(empty, None, seats=seats, hand_row=None, finished=[], for_seats=[0], watch=False)
    assert watch is None
    assert texts[0] == json.dumps(views.seat_view(empty, None, 0, seats=seats, finished=[]))
