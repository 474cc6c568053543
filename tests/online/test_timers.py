"""In-process clocks (the embedded default): a timer armed by one test or request is cancelled at teardown and
never ticks afterwards (a leaked 20 s absence timer once wrote into a later test's database mid-request)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from online import scheduling


@dataclass
class Ticks:
    seen: list[tuple[int, int]] = field(default_factory=list)
    fired: threading.Event = field(default_factory=threading.Event)

    def __call__(self, room_id: int, version: int) -> None:
        self.seen.append((room_id, version))
        self.fired.set()


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch, settings) -> Ticks:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # in-process timers, not Celery countdowns
    recorder = Ticks()
    monkeypatch.setattr(scheduling, "_ticker", recorder)
    monkeypatch.setattr(scheduling, "_loop", None)
    return recorder


def _join_timers() -> None:
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.join(5)


def test_a_cancelled_timer_never_ticks(ticks: Ticks) -> None:
    scheduling.schedule(7, 3, 200)
    assert scheduling.cancel_timers() == 1
    assert scheduling.cancel_timers() == 0  # nothing left armed
    _join_timers()  # a cancelled timer's thread ends without calling its function
    assert ticks.seen == []


def test_a_timer_that_fires_ticks_once_and_is_no_longer_armed(ticks: Ticks) -> None:
    scheduling.schedule(8, 5, 1)
    assert ticks.fired.wait(5)
    _join_timers()
    assert ticks.seen == [(8, 5)]
    assert scheduling.cancel_timers() == 0
