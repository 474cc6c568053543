"""Bulk print runs (:class:`~tournaments.models.PrintJob`): :func:`print_job_create` records and
enqueues one (after the transaction commits) by the task's name (:mod:`tournaments.enqueue`); the
Celery task in :mod:`tournaments.tasks` calls :func:`print_job_run`, which renders the document and
stores the file with ``default_storage``."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.documents.base import site_url
from tournaments.documents.kinds import document_from_params
from tournaments.enqueue import PRINT_JOB, BrokerUnavailable, enqueue
from tournaments.models import (
    PrintJob,
    Tournament,
)

logger = logging.getLogger(__name__)

def print_job_create(*, tournament: Tournament, kind: str, params: dict[str, Any], user: Any = None,
                     base_url: str | None = None) -> PrintJob:
    """Record a bulk run and enqueue it once the transaction commits.

    The parameters are checked by building the document (no rendering). If the broker cannot be
    reached the job is marked failed with a message at once — it never waits for a broker."""
    params = {**params, "base_url": base_url or site_url(), "lang": translation.get_language() or "en"}
    document = document_from_params(tournament, kind, params)
    with transaction.atomic():
        job = PrintJob.objects.create(tournament=tournament, kind=kind, params=params, title=document.title,
                                      total=len(document.units()), created_by=user if getattr(
                                          user, "is_authenticated", False) else None)
        transaction.on_commit(lambda: print_job_enqueue(job.pk))
    return job


def print_job_enqueue(job_id: int) -> None:
    """Queue the task (in-process without a broker). A broker that is down fails the job with a message."""
    try:
        result = enqueue(PRINT_JOB, args=[job_id])
    except BrokerUnavailable as exc:
        logger.warning("print job %s: broker unavailable: %s", job_id, exc)
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.Status.FAILED, finished_at=timezone.now(),
            error=_("The task queue (broker) is unavailable; the job was not started. Try again later "
                    "or ask the administrator. (%(e)s)") % {"e": str(exc)[:200]})
        return
    PrintJob.objects.filter(pk=job_id, task_id="").update(task_id=result.id or "")


def print_job_run(*, job_id: int) -> str:
    """Render a job's document, store the PDF and mark the job done (or failed, with the reason)."""
    job = PrintJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None:
        return "missing"
    if job.status == PrintJob.Status.DONE:
        return job.status
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, error="", updated_at=timezone.now())

    def progress(done: int, total: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(progress=done, total=total, updated_at=timezone.now())

    try:
        with translation.override(job.params.get("lang") or settings.LANGUAGE_CODE):
            document = document_from_params(job.tournament, job.kind, job.params)
            pdf, pages = document.render_pdf(progress=progress)
            name = f"{job.tournament_id}-{document.filename()[:-4]}-{secrets.token_hex(6)}.pdf"
        job.refresh_from_db()
        job.file.save(name, ContentFile(pdf), save=False)
        job.status, job.pages, job.finished_at, job.error = PrintJob.Status.DONE, pages, timezone.now(), ""
        job.progress = job.total
        job.save(update_fields=["file", "status", "pages", "finished_at", "error", "progress", "updated_at"])
        return job.status
    except Exception as exc:
        logger.exception("print job %s failed", job_id)
        message = (_("The document took too long to render.") if isinstance(exc, SoftTimeLimitExceeded)
                   else _("The document could not be made: %(e)s") % {"e": exc})
        PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.FAILED, error=message,
                                                  finished_at=timezone.now())
        return PrintJob.Status.FAILED


def print_jobs_of(tournament: Tournament, limit: int = 50) -> list[PrintJob]:
    return list(PrintJob.objects.filter(tournament=tournament).select_related("created_by")[:limit])
