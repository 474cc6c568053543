"""Celery tasks of online play (thin: the work is :mod:`online.services` through :mod:`online.scheduling`)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="online.tick", ignore_result=True)
def tick(room_id: int, version: int) -> None:
    """A room's clock, bot seat or deal step set for ``version`` (nothing if the room moved on)."""
    from online.scheduling import _tick

    _tick(room_id, version)


@shared_task(name="online.sweep", ignore_result=True)
def sweep() -> int:
    """Tick the rooms whose stored deadline passed (deadlines missed across a restart)."""
    from online.scheduling import sweep as run

    return run()
