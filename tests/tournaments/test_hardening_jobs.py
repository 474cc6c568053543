"""Issue 14: print jobs whose worker vanished, their retry and clean-up; PDFs cached and rate-limited."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone

from safety.cleanup import run_cleanup
from tests.tournaments.factories import SHUTOUT, play_hand
from tests.tournaments.test_documents import Fixture
from tournaments import documents as docs
from tournaments.models import PrintJob
from tournaments.services import printing
from tournaments.services.print_jobs import print_jobs_cleanup
from tournaments.tasks import PRINT_TIME_LIMIT


@pytest.fixture
def cup(db: None) -> Fixture:
    return Fixture()


def test_a_running_job_without_progress_past_the_time_limit_fails_and_can_be_retried(
        client: Any, cup: Fixture, django_capture_on_commit_callbacks: Any) -> None:
    job = printing.print_job_create(tournament=cup.tournament, kind="table-cards", params={"round": cup.round.pk})
    PrintJob.objects.filter(pk=job.pk).update(status="running", progress=0, file=None,
                                              updated_at=timezone.now() - timedelta(seconds=PRINT_TIME_LIMIT + 60))
    fresh = PrintJob.objects.create(tournament=cup.tournament, kind="standings", status="running", total=1)
    assert print_jobs_cleanup() == 1
    job.refresh_from_db()
    fresh.refresh_from_db()
    assert job.status == "failed" and "stopped" in job.error and job.finished_at and fresh.status == "running"
    client.force_login(cup.owner)
    page = client.get(reverse("print-jobs", args=[cup.tournament.pk])).content.decode()
    assert reverse("print-job-retry", args=[job.pk]) in page and "Try again" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("print-job-retry", args=[job.pk]))
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.status == "done" and job.file and job.error == ""
    # a job that is not failed cannot be retried; others than organizers may not
    again = client.post(reverse("print-job-retry", args=[job.pk]), follow=True)
    assert "Only a failed print job" in again.content.decode()
    client.logout()
    assert client.post(reverse("print-job-retry", args=[job.pk])).status_code == 302  # to the log-in page
    job.refresh_from_db()
    assert job.status == "done"


def test_the_cleanup_deletes_old_finished_jobs_and_their_files(cup: Fixture, settings: Any) -> None:
    assert settings.PRINT_JOB_KEEP_DAYS == 7
    old = PrintJob.objects.create(tournament=cup.tournament, kind="standings", status="done", total=1)
    old.file.save("old.pdf", ContentFile(b"%PDF-old"), save=True)
    path = old.file.path
    recent = PrintJob.objects.create(tournament=cup.tournament, kind="standings", status="done", total=1,
                                     finished_at=timezone.now() - timedelta(days=6))
    failed = PrintJob.objects.create(tournament=cup.tournament, kind="bracket", status="failed", error="x")
    queued = PrintJob.objects.create(tournament=cup.tournament, kind="bracket", status="queued")
    eight_days_ago = timezone.now() - timedelta(days=8)
    PrintJob.objects.filter(pk__in=[old.pk, failed.pk]).update(finished_at=eight_days_ago)
    PrintJob.objects.filter(pk=queued.pk).update(updated_at=eight_days_ago)
    assert run_cleanup()["print_jobs"] == 2
    assert set(PrintJob.objects.values_list("pk", flat=True)) == {recent.pk, queued.pk}
    assert not old.file.storage.exists(path)


# --------------------------------------------------------------------------- PDFs on demand

def test_the_same_standings_pdf_renders_once_until_a_result_changes(client: Any, cup: Fixture) -> None:
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    client.force_login(cup.owner)
    with mock.patch.object(docs, "pdf_bytes", wraps=docs.pdf_bytes) as render:
        first = client.get(url)
        second = client.get(url)
        assert render.call_count == 1
        assert first.status_code == second.status_code == 200 and first.content == second.content
        play_hand(cup.second, SHUTOUT, cup.actor)
        third = client.get(url)
        assert render.call_count == 2 and third.status_code == 200
        client.get(url, {"stage": ""})  # another address of the document: its own entry
        assert render.call_count == 3


def test_visitors_during_play_get_the_latest_render_not_one_per_hand(client: Any, cup: Fixture,
                                                                     settings: Any) -> None:
    """Results change with every hand: an anonymous visitor gets the latest render while it is younger
    than PDF_ANON_MAX_AGE, so visitors cannot make the server render once per hand; organizers get the
    current results; once the render is old enough, visitors get a new one."""
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    with mock.patch.object(docs, "pdf_bytes", wraps=docs.pdf_bytes) as render:
        first = client.get(url)
        assert first.status_code == 200 and render.call_count == 1
        play_hand(cup.second, SHUTOUT, cup.actor)
        again = client.get(url)
        assert again.status_code == 200 and render.call_count == 1 and again.content == first.content
        client.force_login(cup.owner)
        assert client.get(url).status_code == 200 and render.call_count == 2  # the organizer: current results
        client.logout()
        settings.PDF_ANON_MAX_AGE = 0
        play_hand(cup.second, SHUTOUT, cup.actor)
        assert client.get(url).status_code == 200 and render.call_count == 3


def test_anonymous_pdf_bursts_get_429_and_organizers_are_not_limited(client: Any, cup: Fixture,
                                                                     settings: Any) -> None:
    settings.PDF_ANON_PER_MINUTE = 3
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    with mock.patch.object(docs, "pdf_bytes", return_value=(b"%PDF-1.7 test", 1)):
        codes = [client.get(url, REMOTE_ADDR="203.0.113.5").status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        refused = client.get(url, REMOTE_ADDR="203.0.113.5")
        assert 1 <= int(refused["Retry-After"]) <= 60 and "Too many PDF requests" in refused.content.decode()
        assert client.get(url, REMOTE_ADDR="198.51.100.1").status_code == 200  # another address
        client.force_login(cup.owner)
        assert {client.get(url, REMOTE_ADDR="203.0.113.5").status_code for _ in range(6)} == {200}
