"""Bot levels at online tables (issue 32): seats take the easy, normal or strong bot by name, a stored
``heuristic`` seat still plays (as the normal bot), and a table of four strong bots plays a whole match,
each of its turns well within the table's clock."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils import timezone

from gameplay.bots import EasyBot, HeuristicBot, StrongBot
from gameplay.cards import parse_cards
from online import services, tables
from online.models import BOT_KINDS, Room, RoomHand

pytestmark = pytest.mark.django_db(transaction=True)


def _room(variant: str, bots: list[str], **kw: Any) -> Room:
    created = services.room_create(variant=variant, **kw)
    room = created.room
    for s in range(room.players):
        room.refresh_from_db()
        services.seat_bot(code=room.code, host_token=created.host_token, seat=s, bot=bots[s % len(bots)],
                          action_id=f"b{s}", version=room.version)
    room.refresh_from_db()
    return room


def test_bot_kinds_by_name() -> None:
    """The levels and the former name are all valid seat bots; each makes its bot, the strong one with
    the online budget."""
    assert {"easy", "normal", "strong", "heuristic", "random"} == set(BOT_KINDS)
    room = Room(pk=1, version=0)
    assert type(tables.table_bot(room, 0, "easy")) is EasyBot
    assert type(tables.table_bot(room, 0, "heuristic")) is HeuristicBot
    assert type(tables.table_bot(room, 0, None)) is HeuristicBot  # 托管
    strong = tables.table_bot(room, 0, "strong")
    assert isinstance(strong, StrongBot) and strong.search.budget == tables.STRONG_BUDGET_MS / 1000


def test_unknown_bot_is_refused() -> None:
    created = services.room_create(variant="tractor")
    with pytest.raises(services.OnlineError) as err:
        services.seat_bot(code=created.room.code, host_token=created.host_token, seat=0, bot="expert",
                          action_id="x", version=created.room.version)
    assert "strong" in str(err.value)


def test_four_strong_bots_play_a_whole_match_within_the_clock(settings: Any, monkeypatch: pytest.MonkeyPatch,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """Four strong bots (a small online budget to keep the test short) play a tractor match to its end;
    every bot turn takes far less than the 15 s clock (and not much over the budget)."""
    settings.ONLINE_STRONG_BUDGET_MS = 10
    turns: list[float] = []
    act = tables.bot_act

    def timed(*args: Any, **kw: Any) -> None:
        t = time.perf_counter()
        act(*args, **kw)
        turns.append(time.perf_counter() - t)

    monkeypatch.setattr(tables, "bot_act", timed)
    room = _room("tractor", ["strong"], options={"hand_limit": 1}, clock=15)
    failed = [r.getMessage() + "\n" + caplog.text[-3000:] for r in caplog.records if r.levelname == "ERROR"]
    assert not failed, failed  # a tick that raised (logged, the table left as stored): the deal is in the log
    assert room.status == Room.Status.FINISHED, (  # the table's state, should this ever fail again
        room.status, room.version, room.deadline_kind, room.deadline_seat, room.deadline, timezone.now(),
        [(h.number, h.finished, len(h.log["events"])) for h in RoomHand.objects.filter(room=room)])
    hands = list(RoomHand.objects.filter(room=room))
    assert hands and all(h.finished for h in hands)
    plays = [e for h in hands for e in h.log["events"] if e.get("kind") == "play"]
    # every card held after the kitty was played (a play of a pair or a tractor is one event for several cards)
    assert sum(len(parse_cards(e["cards"])) for e in plays) == 108 - 8
    assert len(turns) >= len(plays)  # every play of the hand was a bot's turn
    assert max(turns) < 15  # each within the clock (a liveness bound: no speed is asserted here)


def test_mixed_levels_play_an_individual_match(settings: Any) -> None:
    """Easy, normal (stored as heuristic), strong and random seats at one red five table finish their hands."""
    settings.ONLINE_STRONG_BUDGET_MS = 10
    room = _room("red-five", ["easy", "heuristic", "strong", "random"], hands=1)
    assert room.status == Room.Status.FINISHED


def test_a_casual_bot_seat_has_no_name_and_taken_back_is_free() -> None:
    """At a casual table a bot seat is shown as its seat and level (no made-up name); taken back it is free."""
    created = services.room_create(variant="tractor")
    code, host = created.room.code, created.host_token
    services.seat_bot(code=code, host_token=host, seat=1, bot="easy", action_id="b1", version=created.room.version)
    seats = services.room_state(code=code, seat=None)["room"]["seats"]
    assert (seats[1]["name"], seats[1]["bot"], seats[1]["taken"]) == ("", "easy", True)
    version = Room.objects.get(code=code).version
    services.seat_bot(code=code, host_token=host, seat=1, bot=None, action_id="b2", version=version)
    seats = services.room_state(code=code, seat=None)["room"]["seats"]
    assert (seats[1]["name"], seats[1]["bot"], seats[1]["taken"]) == ("", None, False)
