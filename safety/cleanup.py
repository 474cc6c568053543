"""Periodic clean-up: a registry of steps, each answering how many rows or files it removed or changed.

``safety`` knows only its own step (expired idempotency keys); every other app registers its steps
from its ``AppConfig.ready()`` with :func:`register` (the tournaments app: stale and old print jobs,
old stored PDF renders), so this floor package imports nothing above it. Run by Celery beat
(``safety.cleanup``, see ``CELERY_BEAT_SCHEDULE``) and by ``manage.py cleanup`` for sites that use
cron instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from safety.idempotency import key_ttl
from safety.models import IdempotencyKey

Step = Callable[[], int]


def delete_expired_idempotency_keys() -> int:
    """Delete keys older than ``IDEMPOTENCY_KEY_TTL_HOURS``; answers how many went."""
    deleted, _per_model = IdempotencyKey.objects.filter(created_at__lt=timezone.now() - key_ttl()).delete()
    return deleted


# name → function answering how many rows it removed or changed, run in the order registered
STEPS: dict[str, Step] = {"idempotency_keys": delete_expired_idempotency_keys}


def register(name: str, step: Step) -> None:
    """Add a clean-up step under ``name`` (call it from an ``AppConfig.ready()``). Registering the same
    function again is harmless; another function under a name already taken is refused."""
    if STEPS.get(name, step) is not step:
        raise ValueError(f"a clean-up step named {name!r} is already registered")
    STEPS[name] = step


def run_cleanup() -> dict[str, int]:
    """Run every registered step; answers how many rows or files each removed or changed."""
    return {name: step() for name, step in list(STEPS.items())}
