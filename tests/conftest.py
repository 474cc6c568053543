"""Shared fixtures: a real Celery worker on the configured broker, a browser, API clients."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Shared machines are noisy: no per-example deadline (speed is measured by benchmarks, not tests).
hypothesis_settings.register_profile(
    "project", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
hypothesis_settings.load_profile("project")

BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``worker`` need a broker; without one they are skipped (CI runs them on Redis)."""
    if BROKER_URL:
        return
    skip = pytest.mark.skip(reason="needs CELERY_BROKER_URL (a real broker); CI runs these on Redis")
    for item in items:
        if "worker" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_playwright_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API leaves its event loop marked as running in the main thread for the rest of
    the session (the browser is session-wide), and ``async_to_sync`` (Channels' group sends, the
    WebSocket test communicators) refuses to run in a thread with a running loop. A test that is not a
    browser test runs with that mark hidden, and gets it back afterwards, so the order in which an xdist
    worker runs the tests does not matter."""
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in request.keywords:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets channel layers of its own: a layer's locks and connections belong to the event loop
    that first used them (channels-redis's receive lock), and every test's communicators run on a new loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    from online import threads

    threads.shutdown()  # the online tables' worker threads close their database connections
    from online import scheduling

    scheduling.forget_loop()  # a loop a test's sockets ran on is not the next test's server
    scheduling.cancel_timers()  # a clock or bot delay a test armed does not tick into the next test's database


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts and ends in the site's default language: a request in Chinese (the locale middleware
    activates it on the thread) or a test that activates one must not leak it into the next test."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def celery_app_eager() -> Any:
    from config.celery_app import app

    return app


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[Any]:
    """A real Celery worker consuming from the configured broker, on a queue of this xdist worker.

    Tasks are sent through the broker (not run eagerly); the worker runs in a thread of this
    process, so it sees the test database.
    """
    from celery.contrib.testing.worker import start_worker
    from kombu import pools

    from config.celery_app import app

    # A test before this one may have closed the broker pool (the broker-down faults): start from new pools.
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
    worker_id = os.environ.get("PYTEST_XDIST_WORKER", "main")
    queue = f"tests-{worker_id}-{os.getpid()}"
    saved = {k: app.conf[k] for k in ("task_always_eager", "task_default_queue")}
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        with start_worker(app, pool="threads", concurrency=2, queues=[queue], perform_ping_check=False,
                          shutdown_timeout=20, loglevel="WARNING") as worker:
            yield worker
    finally:
        app.conf.update(saved)


CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


def uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with an empty cache (log-in counters, PDF cache, rate limits) and no stored
    PDF renders (the visitors' latest renders under MEDIA_ROOT)."""
    from django.core.cache import cache

    from tournaments.services.pdf_cache import STORE_DIR

    cache.clear()
    shutil.rmtree(Path(settings.MEDIA_ROOT) / STORE_DIR, ignore_errors=True)
    yield
