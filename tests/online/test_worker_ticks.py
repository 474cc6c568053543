"""Clocks and bot seats through a real Celery worker on the broker (CI's Redis): the production path.

A tick is the task ``online.tick`` sent with a countdown; the periodic ``online.sweep`` ticks a room whose
stored deadline passed while nothing was scheduled (a restart lost the timers). Marked ``worker``: skipped
without a broker (tests/conftest.py)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from gameplay.notation import replay
from online import services
from online.models import Room, RoomHand

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _wait(pred: Any, seconds: float = 90.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting for the worker")


def test_bot_seats_play_a_hand_through_the_worker(celery_worker: Any, settings: Any) -> None:
    """Four bot seats, a bot delay and a deal pace: every step is an ``online.tick`` run by the worker."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ONLINE_BOT_DELAY_MS = 20
    settings.ONLINE_DEAL_INTERVAL_MS = 5
    created = services.room_create(variant="red-five", hands=1)
    code = created.room.code
    for seat in range(created.room.players):
        room = Room.objects.get(code=code)
        services.seat_bot(code=code, host_token=created.host_token, seat=seat, bot="heuristic",
                          action_id=f"b{seat}", version=room.version)
    _wait(lambda: Room.objects.get(code=code).status == Room.Status.FINISHED)
    hand = RoomHand.objects.get(room__code=code, number=1)
    assert hand.finished and replay(hand.log).outcome == hand.outcome  # the stored log replays to its result


def test_the_sweep_ticks_a_deadline_that_nothing_scheduled(celery_worker: Any, settings: Any) -> None:
    """A room whose deadline passed with no tick pending (the timers died with a process) moves on
    when ``online.sweep`` runs on the worker, and only once."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ONLINE_BOT_DELAY_MS = 60_000  # nothing fires on its own within the test
    settings.ONLINE_DEAL_INTERVAL_MS = 60_000
    created = services.room_create(variant="tractor")
    code = created.room.code
    for seat in range(4):
        room = Room.objects.get(code=code)
        services.seat_bot(code=code, host_token=created.host_token, seat=seat, bot="random",
                          action_id=f"b{seat}", version=room.version)
    room = Room.objects.get(code=code)
    assert room.deadline is not None and room.deadline_version == room.version
    version = room.version
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # overdue
    from config.celery_app import app

    app.send_task("online.sweep")  # ignore_result: the room's version tells that it ran
    _wait(lambda: Room.objects.get(code=code).version > version, 30)
    moved = Room.objects.get(code=code).version
    app.send_task("online.sweep")  # the new deadline is a minute away: nothing more happens
    time.sleep(2)
    assert Room.objects.get(code=code).version == moved
