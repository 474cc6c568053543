"""Periodic clean-up: expired idempotency keys now; other apps add their own steps to ``STEPS``.

Run by Celery beat (``safety.cleanup``, see ``CELERY_BEAT_SCHEDULE``) and by ``manage.py cleanup``
for sites that use cron instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from safety.idempotency import key_ttl
from safety.models import IdempotencyKey


def delete_expired_idempotency_keys() -> int:
    """Delete keys older than ``IDEMPOTENCY_KEY_TTL_HOURS``; answers how many went."""
    deleted, _per_model = IdempotencyKey.objects.filter(created_at__lt=timezone.now() - key_ttl()).delete()
    return deleted


def cleanup_print_jobs() -> int:
    """Hook for the tournaments app: delete finished print jobs and their files past their age, and
    mark jobs stuck in "running" as failed. Answers how many it changed. Not filled in yet."""
    return 0


# name → function answering how many rows it removed or changed
STEPS: dict[str, Callable[[], int]] = {
    "idempotency_keys": delete_expired_idempotency_keys,
    "print_jobs": cleanup_print_jobs,
}


def run_cleanup() -> dict[str, int]:
    return {name: STEPS[name]() for name in STEPS}
