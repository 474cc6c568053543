"""The clock in the ``state`` message (docs/online.md, "clock"): ``remaining_ms`` is the time left when the
message was made, so a client counts down from the moment it receives it and never compares ``deadline``
with its own clock (a phone's date may be minutes off)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from online import scheduling, services
from online.models import Room

from .helpers import Client, run_async

pytestmark = pytest.mark.django_db(transaction=True)


def _clocked_turn(monkeypatch: pytest.MonkeyPatch, settings: Any) -> tuple[Room, list[str], int]:
    """A red five room with a 5 s clock, dealt, at a player's clocked turn (ticks fired by hand)."""
    settings.ONLINE_DEAL_INTERVAL_MS = 1
    armed: list[tuple[int, int]] = []
    monkeypatch.setattr(scheduling, "schedule", lambda room_id, version, delay: armed.append((room_id, version)))
    made = services.room_create(variant="red-five", seating="choice", clock=5)
    code = made.room.code
    tokens = [services.room_join(code=code, name=f"P{s}", seat=s).token for s in range(4)]
    for s, t in enumerate(tokens):
        services.room_connect(code=code, token=t, channel=f"test.{code}.{s}")
    for t in tokens:
        room = Room.objects.get(code=code)
        services.seat_ready(code=code, token=t, action_id=f"ready-{t[:6]}", version=room.version)
    room = Room.objects.get(code=code)
    while room.deadline_kind == "deal":
        services.room_tick(room_id=armed[-1][0], version=armed[-1][1])
        room.refresh_from_db()
    assert room.deadline_kind == "clock" and room.deadline_seat is not None
    return room, tokens, room.deadline_seat


def test_the_clock_says_the_time_left_when_sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    room, _tokens, seat = _clocked_turn(monkeypatch, settings)
    clock = services.room_state(code=room.code, seat=seat)["clock"]
    assert set(clock) == {"seat", "deadline", "seconds", "remaining_ms", "server_time"}
    assert clock["seat"] == seat and clock["seconds"] == 5
    assert 4000 < clock["remaining_ms"] <= 5000
    assert clock["deadline"] - clock["server_time"] == clock["remaining_ms"]
    assert abs(clock["server_time"] - time.time() * 1000) < 1000
    # made later, the same deadline has less time left: computed at send time, not when the clock was set
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() + timedelta(milliseconds=1500))
    later = services.room_state(code=room.code, seat=None)["clock"]  # a spectator sees the clock too
    assert later["seat"] == seat and 1000 < later["remaining_ms"] <= 1500
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=3))
    assert services.room_state(code=room.code, seat=seat)["clock"]["remaining_ms"] == 0  # never negative


@run_async
async def test_the_socket_state_carries_remaining_ms(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    room, tokens, seat = await sync_to_async(_clocked_turn)(monkeypatch, settings)
    c = Client(room.code, seat)
    state = await c.open(tokens[seat])
    clock = state["clock"]
    assert clock["seat"] == seat and 0 < clock["remaining_ms"] <= 5000
    assert clock["deadline"] - clock["server_time"] == clock["remaining_ms"]
    await c.comm.disconnect()
