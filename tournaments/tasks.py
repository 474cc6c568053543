"""Celery tasks of the tournaments app: thin — they take ids, and call one function that re-fetches.

Without a broker (``CELERY_BROKER_URL`` unset) they run in-process (eager), so the site works alone.
"""

from __future__ import annotations

from celery import shared_task

# A bulk print of 128 score sheets renders in well under a minute; these limits stop a runaway job.
PRINT_SOFT_TIME_LIMIT = 5 * 60
PRINT_TIME_LIMIT = 6 * 60


@shared_task(name="tournaments.print_job", ignore_result=True, acks_late=True,
             soft_time_limit=PRINT_SOFT_TIME_LIMIT, time_limit=PRINT_TIME_LIMIT)
def print_job_task(job_id: int) -> str:
    """Render the document of PrintJob ``job_id`` and store the PDF; the job row records progress,
    the file, or the reason it failed."""
    from tournaments.services.printing import print_job_run  # the task → its service (printing imports tasks)

    return print_job_run(job_id=job_id)
