"""Celery tasks of the engine: thin fan-out of simulations (JSON arguments, JSON results).

``simulate_chunk`` plays hands (or matches) ``start`` … ``start + count - 1`` of a seeded run and
returns their records; the ``simulate`` command splits a run into chunks and gathers them. Without a
broker the tasks run in-process (eager), so the command works alone.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

SIMULATE_SOFT_TIME_LIMIT = 20 * 60
SIMULATE_TIME_LIMIT = 25 * 60


@shared_task(name="gameplay.simulate_chunk", acks_late=True, soft_time_limit=SIMULATE_SOFT_TIME_LIMIT,
             time_limit=SIMULATE_TIME_LIMIT)
def simulate_chunk(variant: str, seed: int, count: int, bots: list[str], start: int = 0,
                   decks: int | None = None, players: int | None = None, match: bool = False,
                   keep_log: bool = False) -> dict[str, Any]:
    """Simulate ``count`` hands (or whole matches with ``match``) of a run; JSON in, JSON out."""
    from gameplay.simulate import simulate_hands, simulate_matches

    t0 = time.perf_counter()
    if match:
        records = simulate_matches(variant, seed, start, count, bots)
    else:
        records = simulate_hands(variant, seed, start, count, bots, decks=decks, players=players,
                                 keep_log=keep_log)
    return {"records": records, "seconds": time.perf_counter() - t0, "start": start, "count": count}
