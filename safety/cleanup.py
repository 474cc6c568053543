"""Periodic clean-up: expired idempotency keys, stale and old print jobs, old stored PDF renders (``STEPS``).

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
    """Print jobs: those stuck in "running" longer than the task time limit are marked failed (with a
    reason; the print page offers "Try again"), and finished or failed jobs older than
    ``PRINT_JOB_KEEP_DAYS`` (7) are deleted with their files. Answers how many it changed."""
    from tournaments.services.print_jobs import print_jobs_cleanup

    return print_jobs_cleanup()


def cleanup_pdf_renders() -> int:
    """The anonymous visitors' stored PDF renders not replaced for ``PDF_CACHE_SECONDS``."""
    from tournaments.services.pdf_cache import pdf_store_cleanup

    return pdf_store_cleanup()


# name → function answering how many rows it removed or changed
STEPS: dict[str, Callable[[], int]] = {
    "idempotency_keys": delete_expired_idempotency_keys,
    "print_jobs": cleanup_print_jobs,
    "pdf_renders": cleanup_pdf_renders,
}


def run_cleanup() -> dict[str, int]:
    return {name: STEPS[name]() for name in STEPS}
