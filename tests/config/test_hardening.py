"""Configuration-level hardening: secrets masked in logs, /healthz details for staff only, worker
ping, Celery redelivery settings and the clean-up schedule, log-in limits per address behind a proxy."""

from __future__ import annotations

import copy
import io
import logging
import logging.config
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------------- secrets in logs


@pytest.fixture
def project_logging() -> Iterator[io.StringIO]:
    """The LOGGING of config/settings/base.py, writing into a buffer at DEBUG level."""
    from django.conf import settings

    from config.settings import base

    config = copy.deepcopy(base.LOGGING)
    config["root"]["level"] = "DEBUG"
    logging.config.dictConfig(config)
    buffer = io.StringIO()
    for handler in logging.getLogger().handlers:
        handler.setStream(buffer)  # type: ignore[attr-defined]
    try:
        yield buffer
    finally:
        logging.config.dictConfig(settings.LOGGING)


def test_every_logging_handler_masks_secrets() -> None:
    from config.settings import base

    assert base.LOGGING["handlers"]
    for name, handler in base.LOGGING["handlers"].items():
        assert "mask_secrets" in handler.get("filters", []), name


def test_table_tokens_and_authorization_are_masked_in_log_lines(project_logging: io.StringIO) -> None:
    token, api_token = "Zq9-secretTableToken_42", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    logging.getLogger("django.server").info('"%s" %s %s', f"GET /t/{token}/confirm/1/ HTTP/1.1", 200, 512)
    logging.getLogger("django.request").warning("Not Found: /api/v1/matches/?token=%s&x=1", token)
    logging.getLogger("tournaments").info("headers: %s", {"Authorization": f"Token {api_token}",
                                                         "X-Table-Token": token})
    try:
        raise ValueError(f"bad link /t/{token}/")
    except ValueError:
        logging.getLogger("tournaments").exception("failed")
    text = project_logging.getvalue()
    assert token not in text and api_token not in text, text
    assert '"GET /t/***/confirm/1/ HTTP/1.1" 200 512' in text
    assert "?token=***&x=1" in text
    assert "Token ***" in text and "bad link /t/***/" in text


def test_a_real_table_link_request_logs_no_token(project_logging: io.StringIO, client: Client) -> None:
    client.get("/t/NoSuchTokenButSecret123/")  # a 404 is logged with the path by django.request
    text = project_logging.getvalue()
    assert "/t/***/" in text and "NoSuchTokenButSecret123" not in text


# ---------------------------------------------------------------------------------- /healthz


def test_healthz_shows_only_the_verdict_to_the_public(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = None  # in-process tasks (CI also runs this suite with a broker)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_healthz_shows_details_to_staff(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = None
    client.force_login(get_user_model().objects.create_user("ops", password="x", is_staff=True))
    data = client.get("/healthz").json()
    assert data["status"] == "ok" and data["database"]["ok"] is True
    assert data["workers"] == {"ok": True, "mode": "in-process",
                               "detail": "No broker configured: tasks run in-process."}


def test_healthz_is_degraded_not_down_when_no_worker_answers(client: Client, settings: Any,
                                                             monkeypatch: Any) -> None:
    """Database and broker answer, no worker does: the site still serves (200, "degraded"); staff see why."""
    from config import health
    from config.celery_app import app

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/15"
    monkeypatch.setattr(health, "check_broker", lambda: {"ok": True, "mode": "broker", "ms": 1.0})
    monkeypatch.setattr(app.control, "ping", lambda timeout: [])
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "degraded"}
    client.force_login(get_user_model().objects.create_user("ops2", password="x", is_staff=True))
    data = client.get("/healthz").json()
    assert data["status"] == "degraded" and data["workers"]["ok"] is False
    assert data["workers"]["error"] == "No worker answered the ping."
    monkeypatch.setattr(app.control, "ping", lambda timeout: [{"celery@w1": {"ok": "pong"}}])
    data = client.get("/healthz").json()
    assert data["status"] == "ok" and data["workers"]["workers"] == ["celery@w1"]


def test_healthz_hides_failure_details_from_the_public(client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error"}


@pytest.fixture
def broker_up(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from config import health

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "check_broker", lambda: {"ok": True, "mode": "broker"})


def test_healthz_names_the_workers_that_answer(admin_client: Client, broker_up: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from config.celery_app import app

    monkeypatch.setattr(app.control, "ping", lambda timeout: [{"celery@w1": {"ok": "pong"}}])
    response = admin_client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["workers"]["workers"] == ["celery@w1"]


# ----------------------------------------------------------------------------------- Celery


def test_a_lost_job_is_redelivered_after_the_time_limit_but_within_minutes() -> None:
    from config.celery_app import app

    assert app.conf.task_acks_late is True and app.conf.task_reject_on_worker_lost is True
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert app.conf.task_time_limit < visibility <= app.conf.task_time_limit + 10 * 60


def test_the_cleanup_runs_on_a_schedule_and_is_a_registered_task() -> None:
    import safety.tasks  # noqa: F401 - registers the task (autodiscovery does the same in a worker)
    from config.celery_app import app

    entry = app.conf.beat_schedule["cleanup"]
    assert entry["task"] in app.tasks and entry["task"] == "safety.cleanup"
    assert 60 <= float(entry["schedule"]) <= 24 * 3600
    assert app.tasks["safety.cleanup"].delay().get(timeout=5) == {"idempotency_keys": 0, "print_jobs": 0,
                                                                        "pdf_renders": 0}


# ------------------------------------------------------------------------------------ log-in


def fail_login(client: Client, username: str, **extra: Any) -> int:
    response = client.post(reverse("login"), {"username": username, "password": "wrong"}, **extra)
    return response.status_code


def login_ok(client: Client, **extra: Any) -> int:
    response = client.post(reverse("login"), {"username": "victim", "password": "correct horse battery"}, **extra)
    return response.status_code


def test_five_wrong_passwords_lock_that_user_name_from_that_address(settings: Any) -> None:
    get_user_model().objects.create_user("victim", password="correct horse battery")
    get_user_model().objects.create_user("neighbour", password="correct horse battery")
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    codes = [fail_login(attacker, "victim") for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert codes == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]  # the failure that reaches the limit
    assert login_ok(attacker) == 429  # even with the right password
    # Another user name from the same address (a venue behind one router) still gets in ...
    neighbour = attacker.post(reverse("login"), {"username": "neighbour", "password": "correct horse battery"})
    assert neighbour.status_code == 302
    # ... and so does the same user from another address.
    assert login_ok(Client(REMOTE_ADDR="198.51.100.9")) == 302


def test_the_address_limit_counts_failures_across_user_names(settings: Any) -> None:
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 30
    get_user_model().objects.create_user("victim", password="correct horse battery")
    venue = Client(REMOTE_ADDR="203.0.113.7")
    codes = [fail_login(venue, f"typo{i}") for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1)]
    assert set(codes) == {200}  # 29 typos over many names: nobody is locked out
    assert login_ok(venue) == 302
    venue.logout()
    assert fail_login(venue, "typo-last") == 429  # the 30th failure from the address
    assert login_ok(venue) == 429
    token = venue.post("/api/v1/auth/token/", {"username": "victim", "password": "correct horse battery"})
    assert token.status_code == 429 and token.json()["code"] == "locked_out"
    assert login_ok(Client(REMOTE_ADDR="198.51.100.9")) == 302  # another address is not affected


def test_behind_a_proxy_the_address_comes_from_the_trusted_header(settings: Any) -> None:
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXY_COUNT = 1
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    get_user_model().objects.create_user("victim", password="correct horse battery")
    proxy = "10.0.0.1"
    attacker = Client(REMOTE_ADDR=proxy)
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        # The attacker writes a fake address in front; the proxy appends the real one.
        fail_login(attacker, f"guess{i}", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.7")
    assert fail_login(attacker, "victim", HTTP_X_FORWARDED_FOR="203.0.113.7") == 429
    assert login_ok(attacker, HTTP_X_FORWARDED_FOR="203.0.113.7") == 429
    # Another visitor through the same proxy is not locked out.
    assert login_ok(Client(REMOTE_ADDR=proxy), HTTP_X_FORWARDED_FOR="198.51.100.9") == 302


def test_client_ip_reads_the_configured_header_and_proxy_count(settings: Any) -> None:
    from django.test import RequestFactory

    from safety.client_ip import client_ip

    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_REAL_IP="203.0.113.5",
                          HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7, 10.0.0.2")
    settings.TRUSTED_PROXY_HEADER = ""
    assert client_ip(request) == "10.0.0.1"
    settings.TRUSTED_PROXY_HEADER = "X-Real-IP"
    assert client_ip(request) == "203.0.113.5"
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "203.0.113.7"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "10.0.0.2"
    bad = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-address")
    assert client_ip(bad) == "10.0.0.1"
