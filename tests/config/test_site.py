"""The site skeleton: pages in both languages, the API root and schema, /healthz, Celery, the demo."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.utils import OperationalError
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES = ["home", "login", "admin:login", "referee", "calculator", "player-list", "api-docs"]
# A phrase of the page chrome in each language: the log-in link and the language switcher.
CHROME = {"en": ["Log in", "English", "简体中文"], "zh-hans": ["登录", "English", "简体中文"]}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("name", PAGES)
def test_every_skeleton_page_loads_in_both_languages(client: Client, name: str, language: str) -> None:
    client.cookies["django_language"] = language
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    if name not in ("admin:login", "api-docs"):
        for phrase in CHROME[language]:
            assert phrase in html, (name, language, phrase)
        assert f'<html lang="{language}">' in html


def test_language_switcher_sets_chinese(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert "登录" in response.content.decode()


def test_login_and_logout(client: Client) -> None:
    get_user_model().objects.create_user("scorer", password="correct horse battery")
    response = client.post(reverse("login"), {"username": "scorer", "password": "correct horse battery"})
    assert response.status_code == 302
    assert "Log out" in client.get(reverse("home")).content.decode()
    client.post(reverse("logout"))
    assert "Log in" in client.get(reverse("home")).content.decode()


def test_login_with_wrong_password_says_so(client: Client) -> None:
    response = client.post(reverse("login"), {"username": "nobody", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_api_root_lists_schema_docs_and_entry_points(client: Client) -> None:
    data = client.get("/api/v1/", HTTP_ACCEPT="application/json").json()
    assert data["schema"].endswith("/api/v1/schema/")
    assert data["docs"].endswith("/api/v1/docs/")
    assert data["referee_trick"].endswith("/api/v1/referee/trick")
    assert data["scoring_hand"].endswith("/api/v1/scoring/hand")


def test_openapi_schema_is_valid(client: Client) -> None:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)  # raises on an invalid OpenAPI 3 document
    assert "/api/v1/referee/trick" in schema["paths"]
    assert "/api/v1/scoring/hand" in schema["paths"]
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_healthz_is_200_when_database_and_broker_are_healthy(admin_client: Client) -> None:
    response = admin_client.get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == ("ok" if data["workers"]["ok"] else "degraded")  # no worker: still serving
    assert data["database"]["ok"] is True
    assert data["broker"]["ok"] is True


def test_healthz_reports_a_broken_database_as_503(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the database gone nobody can be recognised as staff: the verdict alone, 503, not a 500."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    client.force_login(get_user_model().objects.create_user("ops", password="x", is_staff=True))

    def broken_cursor(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error"}


def test_healthz_reports_an_unreachable_broker_as_503(admin_client: Client, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = admin_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


def test_celery_task_round_trips_in_process_by_default() -> None:
    from config.celery_app import app, ping

    assert app.conf.task_always_eager is True
    assert ping.delay(41).get(timeout=5)["pong"] == 42


@pytest.mark.worker
def test_celery_task_round_trips_through_a_real_worker(celery_worker: Any) -> None:
    import socket

    from config.celery_app import app, ping

    assert app.conf.task_always_eager is False
    result = ping.delay(1)
    assert result.get(timeout=30) == {"pong": 2, "host": socket.gethostname()}
    assert result.successful()


def test_load_demo_twice_leaves_the_same_data() -> None:
    from django.apps import apps

    def snapshot() -> dict[str, list[tuple[Any, ...]]]:
        out = {}
        for model in apps.get_app_config("tournaments").get_models():
            fields = [f.attname for f in model._meta.concrete_fields if f.attname not in ("created_at", "updated_at")]
            out[model.__name__] = sorted(model.objects.values_list(*fields), key=repr)
        return out

    call_command("load_demo")
    first = snapshot()
    call_command("load_demo")
    assert snapshot() == first
    assert sum(len(rows) for rows in first.values()) > 0


def test_ensure_admin_creates_one_admin_and_prints_its_login(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("ensure_admin")
    out = capsys.readouterr().out
    assert "Log in as 'admin' with password" in out
    call_command("ensure_admin")
    assert "already exists" in capsys.readouterr().out
    assert get_user_model().objects.filter(is_superuser=True).count() == 1


@pytest.mark.worker
def test_healthz_reports_the_real_broker_as_healthy(admin_client: Client) -> None:
    data = admin_client.get("/healthz").json()
    assert data["broker"] == {**data["broker"], "ok": True, "mode": "broker"}


def test_login_is_rate_limited_even_with_the_right_password(client: Client) -> None:
    get_user_model().objects.create_user("target", password="the right password 42")
    codes = [client.post(reverse("login"), {"username": "target", "password": "wrong"}).status_code for _ in range(5)]
    assert codes[:4] == [200] * 4  # the form says the password is wrong; the fifth failure locks out
    blocked = client.post(reverse("login"), {"username": "target", "password": "the right password 42"})
    assert blocked.status_code == 429
    assert "Too many failed log-in attempts" in blocked.content.decode()
    # Five failures lock this user name from this address only: another user from the same address
    # (a venue behind one router) still gets in, and so does the same user from another address.
    get_user_model().objects.create_user("other", password="the right password 42")
    assert client.post(reverse("login"), {"username": "other", "password": "the right password 42"}).status_code == 302
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    assert elsewhere.post(reverse("login"), {"username": "target", "password": "the right password 42"}).status_code == 302


def test_api_token_endpoint_is_rate_limited_too(client: Client) -> None:
    get_user_model().objects.create_user("apiuser", password="the right password 42")
    ok = client.post("/api/v1/auth/token/", {"username": "apiuser", "password": "the right password 42"})
    assert ok.status_code == 200 and ok.json()["token"]
    codes = [client.post("/api/v1/auth/token/", {"username": "apiuser", "password": "x"}).status_code for _ in range(5)]
    assert codes[:4] == [400] * 4
    assert client.post("/api/v1/auth/token/", {"username": "apiuser", "password": "the right password 42"}).status_code == 429


def test_every_page_links_the_favicon_and_it_is_served(client: Client) -> None:
    from django.contrib.staticfiles import finders

    html = client.get(reverse("home")).content.decode()
    assert 'rel="icon"' in html and "favicon.svg" in html
    path = finders.find("favicon.svg")
    assert path and open(path, encoding="utf-8").read().startswith("<svg")
