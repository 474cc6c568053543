"""Celery tasks of the tournaments app: thin — they take ids, and call one service function that
re-fetches everything.

Imports go one way: this module imports the services; the services queue these tasks by their
registered names (:mod:`tournaments.enqueue`), never by importing this module. Without a broker
(``CELERY_BROKER_URL`` unset) they run in-process (eager), so the site works alone.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.enqueue import ONLINE_NO_SHOWS, PDF_RENDER, PRINT_JOB, RATINGS_RECOMPUTE
from tournaments.services.online_noshow import online_no_shows
from tournaments.services.pdf_cache import pdf_render_latest
from tournaments.services.printing import print_job_run
from tournaments.services.ratings import ratings_pool_recompute

# A bulk print of 128 score sheets renders in well under a minute; these limits stop a runaway job.
PRINT_SOFT_TIME_LIMIT = 5 * 60
PRINT_TIME_LIMIT = 6 * 60


@shared_task(name=PRINT_JOB, ignore_result=True, acks_late=True,
             soft_time_limit=PRINT_SOFT_TIME_LIMIT, time_limit=PRINT_TIME_LIMIT)
def print_job_task(job_id: int) -> str:
    """Render the document of PrintJob ``job_id`` and store the PDF; the job row records progress,
    the file, or the reason it failed."""
    return print_job_run(job_id=job_id)


# An on-demand PDF is one page or a few: far below these; the render lock outlives the hard limit.
PDF_RENDER_SOFT_TIME_LIMIT = 60
PDF_RENDER_TIME_LIMIT = 90


@shared_task(name=PDF_RENDER, ignore_result=True, acks_late=True,
             soft_time_limit=PDF_RENDER_SOFT_TIME_LIMIT, time_limit=PDF_RENDER_TIME_LIMIT)
def pdf_render_task(path: str, query: str, language: str, base_url: str) -> str:
    """Render the latest PDF of the document at ``path?query`` in ``language`` for anonymous visitors
    and store it (:func:`tournaments.services.pdf_cache.pdf_render_latest` re-fetches everything)."""
    return pdf_render_latest(path=path, query=query, language=language, base_url=base_url)


# A recompute replays one pool from the earliest changed result: seconds for a club, a few minutes for
# a site of 200,000 matches from the very beginning (bench/ratings.py).
RATINGS_SOFT_TIME_LIMIT = 20 * 60
RATINGS_TIME_LIMIT = 25 * 60


@shared_task(name=RATINGS_RECOMPUTE, ignore_result=True, acks_late=True,
             soft_time_limit=RATINGS_SOFT_TIME_LIMIT, time_limit=RATINGS_TIME_LIMIT)
def ratings_recompute_task(pool_id: int) -> int:
    """Recompute the ratings of pool ``pool_id`` from its earliest changed result
    (:func:`tournaments.services.ratings.ratings_pool_recompute` re-reads the mark under its lock)."""
    return ratings_pool_recompute(pool_id=pool_id)


@shared_task(name=ONLINE_NO_SHOWS, ignore_result=True, soft_time_limit=60, time_limit=90)
def online_no_shows_task() -> int:
    """Apply the online stages' no-show rule to the rooms whose wait is over (the beat runs it every 30 s;
    :func:`tournaments.services.online_noshow.online_no_shows`)."""
    return len(online_no_shows())
