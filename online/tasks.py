"""Celery tasks of online play (thin: the work is :mod:`online.services` through :mod:`online.scheduling`)."""

from __future__ import annotations

from celery import shared_task

from online import presence, scheduling, services  # services registers the ticker scheduling runs

__all__ = ["presence", "services", "sweep", "tick"]


@shared_task(name="online.tick", ignore_result=True)
def tick(room_id: int, version: int) -> None:
    """A room's clock, bot seat or deal step set for ``version`` (nothing if the room moved on)."""
    scheduling.run_tick(room_id, version)


@shared_task(name="online.sweep", ignore_result=True)
def sweep() -> int:
    """Tick the rooms whose stored deadline passed (deadlines missed across a restart)."""
    presence.forget_gone()  # seats whose sockets died with a process: an absent seat's turn is not waited for
    return scheduling.sweep()
