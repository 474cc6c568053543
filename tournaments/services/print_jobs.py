"""Print jobs after they were queued: a job whose worker vanished is failed with a reason, a failed
job can be queued again, and old files are deleted (``safety.cleanup`` runs the last two steps)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.enqueue import PRINT_JOB, registered
from tournaments.errors import ServiceError
from tournaments.models import PrintJob, Tournament
from tournaments.services.common import Actor, require_organizer
from tournaments.services.printing import print_job_enqueue


def stale_after() -> timedelta:
    """A running job with no progress for longer than the task's hard time limit has lost its worker."""
    return timedelta(seconds=registered(PRINT_JOB).time_limit)


def keep_for() -> timedelta:
    return timedelta(days=float(getattr(settings, "PRINT_JOB_KEEP_DAYS", 7)))


def print_jobs_fail_stale(*, tournament: Tournament | None = None, now: datetime | None = None) -> int:
    """Mark running jobs without progress for longer than the time limit as failed; answers how many."""
    now = now or timezone.now()
    qs = PrintJob.objects.filter(status=PrintJob.Status.RUNNING, updated_at__lt=now - stale_after())
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    minutes = int(stale_after().total_seconds() // 60)
    return qs.update(status=PrintJob.Status.FAILED, finished_at=now, updated_at=now, error=_(
        "The worker making this file stopped (no progress for %(m)d minutes). Press “Try again”.")
        % {"m": minutes})


def print_job_retry(*, job_id: int, actor: Actor) -> PrintJob:
    """Queue a failed job again (the same document and parameters), once the transaction commits."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().select_related("tournament").filter(pk=job_id).first()
        if job is None:
            raise ServiceError.one("job", _("No such print job."))
        require_organizer(actor, job.tournament)
        if job.status != PrintJob.Status.FAILED:
            raise ServiceError.one("job", _("Only a failed print job can be tried again (this one is %(s)s).")
                                   % {"s": job.get_status_display()})
        job.status, job.progress, job.error, job.finished_at, job.task_id = PrintJob.Status.QUEUED, 0, "", None, ""
        job.save(update_fields=["status", "progress", "error", "finished_at", "task_id", "updated_at"])
        transaction.on_commit(lambda: print_job_enqueue(job.pk))
    return job


def print_jobs_delete_old(*, now: datetime | None = None) -> int:
    """Delete finished and failed jobs (and their files) older than ``PRINT_JOB_KEEP_DAYS``."""
    now = now or timezone.now()
    cutoff = now - keep_for()
    old = PrintJob.objects.filter(status__in=[PrintJob.Status.DONE, PrintJob.Status.FAILED]).filter(
        Q(finished_at__lt=cutoff) | Q(finished_at__isnull=True, updated_at__lt=cutoff))
    deleted = 0
    for job in old.iterator():
        if job.file:
            job.file.delete(save=False)
        job.delete()
        deleted += 1
    return deleted


def print_jobs_cleanup(**kwargs: Any) -> int:
    """The clean-up step: stale jobs failed plus old jobs deleted."""
    return print_jobs_fail_stale(**kwargs) + print_jobs_delete_old(**kwargs)
