"""A new process takes back every socket a dead one still counted (``presence.process_started``): all of a
room's seats leave at once, so the seat to act is not given a bot because the others — gone as well — were
still counted when its own count was taken back (docs/online.md, "Who is at the table")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from online import presence, scheduling, services
from online.models import Room, Seat

from .helpers import oracle_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("turn", [0, 3])
def test_a_restart_takes_every_seat_back_at_once(turn: int, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.ONLINE_DEAL_INTERVAL_MS = 1
    settings.ONLINE_BOT_DELAY_MS = 1
    armed: list[tuple[int, int]] = []
    monkeypatch.setattr(scheduling, "schedule", lambda room_id, version, delay: armed.append((room_id, version)))
    made = services.room_create(variant="tractor", seating="choice")
    code = made.room.code
    tokens = [services.room_join(code=code, name=f"P{s}", seat=s).token for s in range(4)]
    for s, t in enumerate(tokens):
        services.room_connect(code=code, token=t, channel=f"test.{code}.{s}")
    for t in tokens:
        services.seat_ready(code=code, token=t, action_id=f"r-{t[:8]}", version=Room.objects.get(code=code).version)
    rng = random.Random(4)
    while True:  # play until seat ``turn`` is to play a card
        room = Room.objects.get(code=code)
        hand = services.current_hand(room)[1]
        assert hand is not None and not hand.finished
        if room.deadline_kind == "deal":
            services.room_tick(room_id=armed[-1][0], version=armed[-1][1])
            continue
        if hand.phase == "play" and hand.to_act() == ("play", turn):
            break
        seat, kind, fields = oracle_move(hand, rng)
        services.room_act(code=code, token=tokens[seat], action=kind, action_id=f"a{len(hand.log)}",
                          version=room.version, **fields)
    version, before = room.version, len(armed)
    monkeypatch.setattr(presence, "_started", False)  # a new process, the four sockets counted by the old one
    assert presence.process_started() == 4
    room.refresh_from_db()
    assert not Seat.objects.filter(room=room, connected__gt=0).exists()
    assert room.version == version and room.deadline_kind == ""  # nobody is back: the table waits, no bot plays
    assert len(armed) == before  # and no bot was armed on the way (one seat taken back at a time armed one for
    # the seat to act while the others, as gone, were still counted: a race with its timer on a restart)
