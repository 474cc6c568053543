"""Anonymous PDF visitors never wait for a render (issue 14, "heavy work off the request path"): they
get the latest stored render, shared by every process, or a "being prepared" page while one render
per document runs off the request path (a Celery task, or a background thread without a broker)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.factories import SHUTOUT, play_hand
from tests.tournaments.test_documents import Fixture
from tournaments import documents as docs
from tournaments.services import pdf_cache


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


def store_files() -> list[Path]:
    folder = Path(django_settings.MEDIA_ROOT) / pdf_cache.STORE_DIR
    return sorted(folder.glob("*.pdf")) if folder.exists() else []


@pytest.fixture
def cup(db: None) -> Fixture:
    return Fixture()


@pytest.fixture
def threads(settings: Any) -> Any:
    """The embedded default (no broker: renders in a background thread), with the thread recorded
    instead of started — the test runs the render itself, on its own database connection."""
    settings.PDF_RENDER_THREAD = True
    with mock.patch.object(pdf_cache, "render_thread_start") as thread:
        yield thread


def run_scheduled(thread: Any) -> None:
    """What the background thread does (without closing the test's database connection)."""
    for call in thread.call_args_list:
        pdf_cache.pdf_render_latest(**call.args[0])


def test_an_anonymous_visitor_never_waits_for_a_render_and_a_burst_schedules_one(
        client: Client, cup: Fixture, threads: Any) -> None:
    """No render yet: every visitor of a burst gets a 202 page that reloads itself, the renderer is
    never called in a request, one render is scheduled; once it ran, visitors get the real PDF."""
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    with mock.patch.object(docs, "pdf_bytes", wraps=docs.pdf_bytes) as render:
        answers = [client.get(url, REMOTE_ADDR=f"203.0.113.{n}") for n in range(1, 7)]
        assert {a.status_code for a in answers} == {202} and render.call_count == 0
        assert threads.call_count == 1
        page = answers[0].content.decode()
        assert answers[0]["Retry-After"] == str(pdf_cache.PREPARING_RETRY_SECONDS)
        assert answers[0]["Cache-Control"] == "no-store"
        assert f'<meta http-equiv="refresh" content="{pdf_cache.PREPARING_RETRY_SECONDS}">' in page
        assert "This PDF is being prepared. This page will try again in 5 seconds." in page
        run_scheduled(threads)
        assert render.call_count == 1
        served = client.get(url)
        assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
        assert int(served["Age"]) <= 1 and render.call_count == 1
        assert "王小明 & 李华" in pdf_text(served.content)
    assert threads.call_count == 1


def test_the_being_prepared_page_is_translated(client: Client, cup: Fixture, threads: Any) -> None:
    client.cookies["django_language"] = "zh-hans"
    answer = client.get(reverse("print-standings-pdf", args=[cup.tournament.pk]))
    assert answer.status_code == 202
    page = answer.content.decode()
    assert "此 PDF 正在生成中，本页将在 5 秒后自动重试。" in page and "立即重试" in page


def test_a_stale_render_is_served_at_once_with_its_age_while_one_new_render_is_scheduled(
        client: Client, cup: Fixture, settings: Any) -> None:
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    renders = [(b"%PDF-1.7 before the hand", 1), (b"%PDF-1.7 after the hand", 1)]
    with mock.patch.object(docs, "pdf_bytes", side_effect=renders) as render:
        first = client.get(url)  # rendered at once (the tests' setting), as the scheduled render would
        assert first.status_code == 200 and first.content == renders[0][0]
        play_hand(cup.second, SHUTOUT, cup.actor)
        settings.PDF_ANON_MAX_AGE = 0
        settings.PDF_RENDER_THREAD = True
        with mock.patch.object(pdf_cache, "render_thread_start") as thread:
            stale = [client.get(url, REMOTE_ADDR=f"198.51.100.{n}") for n in range(1, 4)]
            assert [a.status_code for a in stale] == [200] * 3 and render.call_count == 1
            assert all(a.content == renders[0][0] and "Age" in a for a in stale)
            assert thread.call_count == 1  # one render for the burst
            run_scheduled(thread)
        assert render.call_count == 2
        fresh = client.get(url)
        assert fresh.status_code == 200 and fresh.content == renders[1][0] and render.call_count == 2


def test_a_render_stored_by_one_process_serves_another(client: Client, cup: Fixture) -> None:
    """Another web process has an empty cache: it serves the stored file, visitors and organizers
    alike (the organizer's when it shows the current results), without rendering."""
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    first = client.get(url)
    assert first.status_code == 200 and len(store_files()) == 1
    cache.clear()  # a fresh process
    with mock.patch.object(docs, "pdf_bytes", side_effect=AssertionError("rendered")):
        assert client.get(url).content == first.content
        organizer = Client()
        organizer.force_login(cup.owner)
        answer = organizer.get(url)
        assert answer.status_code == 200 and answer.content == first.content and "Age" not in answer


def test_signed_in_users_get_the_current_results_rendered_in_their_request(client: Client, cup: Fixture,
                                                                           threads: Any) -> None:
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    client.force_login(cup.owner)
    with mock.patch.object(docs, "pdf_bytes", wraps=docs.pdf_bytes) as render:
        answer = client.get(url)
        assert answer.status_code == 200 and render.call_count == 1 and threads.call_count == 0
        assert "王小明 & 李华" in pdf_text(answer.content)
    assert len(store_files()) == 1  # and it serves the visitors too
    assert Client().get(url).content == answer.content


def test_private_documents_are_not_stored_for_visitors(db: None) -> None:
    private = Fixture(is_public=False)
    organizer = Client()
    organizer.force_login(private.owner)
    assert organizer.get(reverse("print-standings-pdf", args=[private.tournament.pk])).status_code == 200
    assert store_files() == []
    assert Client().get(reverse("print-standings-pdf", args=[private.tournament.pk])).status_code == 404


def test_the_rate_limit_still_counts_before_anything_is_served(client: Client, cup: Fixture, settings: Any,
                                                               threads: Any) -> None:
    settings.PDF_ANON_PER_MINUTE = 2
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    codes = [client.get(url, REMOTE_ADDR="203.0.113.9").status_code for _ in range(3)]
    assert codes == [202, 202, 429] and threads.call_count == 1


def test_a_render_lock_left_by_a_dead_render_is_taken_over(settings: Any) -> None:
    key = pdf_cache.document_key(path="/x.pdf", query="", language="en")
    assert pdf_cache.render_lock_take(key) and not pdf_cache.render_lock_take(key)
    old = time.time() - pdf_cache.RENDER_LOCK_SECONDS - 1
    os.utime(Path(settings.MEDIA_ROOT) / pdf_cache.STORE_DIR / f"{key}.lock", (old, old))
    assert pdf_cache.render_lock_take(key)
    pdf_cache.render_lock_release(key)
    assert pdf_cache.render_lock_take(key)
    pdf_cache.render_lock_release(key)


def test_a_render_of_a_document_gone_stores_nothing_and_frees_the_lock(db: None) -> None:
    path = reverse("print-standings-pdf", args=[999_999])
    key = pdf_cache.document_key(path=path, query="", language="en")
    assert pdf_cache.render_lock_take(key)
    assert pdf_cache.pdf_render_latest(path=path, query="", language="en",
                                       base_url="http://testserver") == "not rendered (Http404)"
    assert store_files() == [] and pdf_cache.render_lock_take(key)
    pdf_cache.render_lock_release(key)


@pytest.mark.worker
def test_with_a_broker_the_render_is_a_celery_task(celery_worker: Any, client: Client) -> None:
    """Through a real worker on the broker: the visitor gets 202, the worker renders and stores the
    PDF, the next visitor gets it."""
    cup = Fixture()
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    with mock.patch.object(pdf_cache, "render_thread_start", side_effect=AssertionError("a thread")):
        assert client.get(url).status_code == 202
    deadline = time.monotonic() + 30
    while not store_files() and time.monotonic() < deadline:
        time.sleep(0.2)
    answer = client.get(url)
    assert answer.status_code == 200 and "王小明 & 李华" in pdf_text(answer.content)


def test_without_a_broker_a_real_background_thread_renders_and_stores(transactional_db: None, settings: Any) -> None:
    """The embedded default end to end: the request answers 202 at once, a thread of the process
    renders on its own database connection, the next visitor gets the PDF."""
    settings.PDF_RENDER_THREAD = True
    cup = Fixture()
    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    assert Client().get(url).status_code == 202
    deadline = time.monotonic() + 30
    while not store_files() and time.monotonic() < deadline:
        time.sleep(0.1)
    answer = Client().get(url)
    assert answer.status_code == 200 and "王小明 & 李华" in pdf_text(answer.content)


def test_the_cleanup_deletes_stored_renders_nobody_asked_for(client: Client, cup: Fixture, settings: Any) -> None:
    from safety.cleanup import run_cleanup

    url = reverse("print-standings-pdf", args=[cup.tournament.pk])
    client.get(url)
    client.get(url, {"stage": cup.stage.pk})
    old, kept = store_files()
    then = time.time() - settings.PDF_CACHE_SECONDS - 1
    os.utime(old, (then, then))
    assert run_cleanup()["pdf_renders"] == 1 and store_files() == [kept]
