"""Safe retries: the same Idempotency-Key replays the first answer instead of writing twice."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from safety.models import IdempotencyKey
from tests.safety.urls import Gate

pytestmark = [pytest.mark.urls("tests.safety.urls")]


def key() -> str:
    return str(uuid.uuid4())


@pytest.mark.django_db
def test_function_view_replays_the_first_answer_and_writes_once(client: Client) -> None:
    k = key()
    first = client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k)
    again = client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k)
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")
    assert Group.objects.count() == 1
    # Without a key, or with a new one, each request writes.
    client.post("/write/", {"name": "a"})
    client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=key())
    assert Group.objects.count() == 3


@pytest.mark.django_db
def test_same_key_with_a_different_body_is_422_and_writes_nothing(client: Client) -> None:
    k = key()
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201
    other = client.post("/write/", {"name": "b"}, HTTP_IDEMPOTENCY_KEY=k)
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert "different request" in other.json()["detail"]
    assert Group.objects.count() == 1


@pytest.mark.django_db
def test_keys_are_per_scope(client: Client) -> None:
    """One key used from two table links is two requests, each written once."""
    k = key()
    assert client.post("/t/tokenA/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201
    assert client.post("/t/tokenB/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201
    assert Group.objects.count() == 2
    scopes = set(IdempotencyKey.objects.values_list("scope", flat=True))
    assert len(scopes) == 2 and all(s.startswith("table:") and "token" not in s for s in scopes)


@pytest.mark.django_db
def test_a_bad_key_is_400(client: Client) -> None:
    r = client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY="x" * 200)
    assert r.status_code == 400 and r.json()["code"] == "invalid_idempotency_key"
    assert Group.objects.count() == 0


@pytest.mark.django_db
def test_a_5xx_answer_releases_the_key_for_a_retry(client: Client) -> None:
    k = key()
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k, HTTP_X_FAIL="500").status_code == 500
    assert not IdempotencyKey.objects.exists()
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201


@pytest.mark.django_db
def test_drf_mixin_replays_success_and_validation_errors(api_client: Any) -> None:
    k = key()
    first = api_client.post("/api/write/", {"name": "x"}, format="json", HTTP_IDEMPOTENCY_KEY=k)
    again = api_client.post("/api/write/", {"name": "x"}, format="json", HTTP_IDEMPOTENCY_KEY=k)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Group.objects.count() == 1
    other = api_client.post("/api/write/", {"name": "y"}, format="json", HTTP_IDEMPOTENCY_KEY=k)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    k2 = key()
    bad = api_client.post("/api/write/", {}, format="json", HTTP_IDEMPOTENCY_KEY=k2)
    bad_again = api_client.post("/api/write/", {}, format="json", HTTP_IDEMPOTENCY_KEY=k2)
    assert bad.status_code == bad_again.status_code == 400
    assert bad_again.json() == bad.json() and bad_again["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
def test_drf_mixin_releases_the_key_when_the_view_crashes() -> None:
    from rest_framework.test import APIClient

    api = APIClient(raise_request_exception=True)
    k = key()
    with pytest.raises(RuntimeError):
        api.post("/api/write/", {"name": "crash"}, format="json", HTTP_IDEMPOTENCY_KEY=k)
    assert not IdempotencyKey.objects.exists()


@pytest.mark.django_db
def test_form_double_submit_replays_the_redirect(client: Client) -> None:
    html = Template("{% load safety_tags %}{% idempotency_field %}").render(Context())
    value = html.split('value="')[1].split('"')[0]
    assert uuid.UUID(value) and 'name="idempotency_key"' in html and 'type="hidden"' in html
    other = Template("{% load safety_tags %}{% idempotency_field %}").render(Context())
    assert other != html  # a fresh key on every render
    first = client.post("/form/", {"name": "f", "idempotency_key": value})
    again = client.post("/form/", {"name": "f", "idempotency_key": value})
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] and again["Idempotent-Replayed"] == "true"
    assert Group.objects.count() == 1
    changed = client.post("/form/", {"name": "g", "idempotency_key": value})
    assert changed.status_code == 422 and changed["Content-Type"].startswith("text/html")
    page = changed.content.decode()
    assert "already used for another request" in page and "site-header" in page and 'href="/form/"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_a_page_handing_its_post_to_another_idempotent_page_saves_once(client: Client, signed_in: bool,
                                                                      django_user_model: Any) -> None:
    """The table link's confirmation hands its POST on to the token page's view, both idempotent: the
    inner call runs inside the outer reservation (never "still in progress"), and a resend replays."""
    if signed_in:
        client.force_login(django_user_model.objects.create_user("scorer", password="x-12345678"))
    k = key()
    first = client.post("/outer/7/", {"idempotency_key": k})
    assert first.status_code == 302 and first["Location"].startswith("/done/")
    again = client.post("/outer/7/", {"idempotency_key": k})
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert Group.objects.filter(name__startswith="inner-token7").count() == 1
    assert IdempotencyKey.objects.count() == 1  # one reservation per request, held by the outer call


@pytest.mark.django_db
def test_a_refused_page_says_what_to_do_in_the_sites_layout(client: Client) -> None:
    """A page's refusal (here: the first press still saving) is a page of the site with a way back."""
    k = key()
    client.post("/form/", {"name": "f", "idempotency_key": k})
    IdempotencyKey.objects.update(status_code=None)  # as if the first press were still being saved
    busy = client.post("/form/", {"name": "f", "idempotency_key": k}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert busy.status_code == 409 and busy["Retry-After"] == "1"
    page = busy.content.decode()
    assert busy["Content-Type"].startswith("text/html") and "site-header" in page
    assert 'data-code="idempotency_in_progress"' in page and 'href="/form/"' in page
    assert "仍在保存" in page and "Idempotency-Key 的请求" not in page


def test_the_script_sends_the_form_key_as_a_header() -> None:
    html = Template("{% load safety_tags %}{% idempotency_script %}").render(Context())
    assert "htmx:configRequest" in html and '"Idempotency-Key"' in html and "<script>" in html


@pytest.mark.django_db
def test_an_expired_key_is_a_new_request_and_cleanup_deletes_it(client: Client, settings: Any) -> None:
    from django.core.management import call_command

    k = key()
    client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k)
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS + 1))
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201
    assert Group.objects.count() == 2  # the old answer was not replayed
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS + 1))
    IdempotencyKey.objects.create(scope="user:1", key="fresh", method="POST", path="/x", request_hash="0")
    call_command("cleanup")
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["fresh"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url,kwargs", [("/write/", {}), ("/api/write/", {"content_type": "application/json"})])
def test_a_concurrent_duplicate_is_409_in_progress(url: str, kwargs: dict[str, Any]) -> None:
    k = key()
    body: Any = '{"name": "c"}' if kwargs else {"name": "c"}
    results: dict[str, Any] = {}

    def first() -> None:
        try:
            results["first"] = Client().post(url, body, HTTP_IDEMPOTENCY_KEY=k, **kwargs)
        finally:
            connection.close()

    Gate.entered.clear()
    Gate.release.clear()
    Gate.hold = True
    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert Gate.entered.wait(timeout=20), "the first request never reached the view"
        Gate.hold = False
        second = Client().post(url, body, HTTP_IDEMPOTENCY_KEY=k, **kwargs)
        assert second.status_code == 409
        assert second.json()["code"] == "idempotency_in_progress" and second["Retry-After"] == "1"
    finally:
        Gate.hold = False
        Gate.release.set()
        thread.join(timeout=30)
    assert results["first"].status_code == 201
    third = Client().post(url, body, HTTP_IDEMPOTENCY_KEY=k, **kwargs)
    assert third.status_code == 201 and third["Idempotent-Replayed"] == "true"
    assert third.content == results["first"].content
    assert Group.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_abandoned_reservation_is_taken_over(settings: Any) -> None:
    k = key()
    client = Client(REMOTE_ADDR="10.1.1.1")
    import hashlib

    same_body = hashlib.sha256(b"name\x00a\x01").hexdigest()  # the fingerprint of the form {"name": "a"}
    IdempotencyKey.objects.create(scope="anon:10.1.1.1", key=k, method="POST", path="/write/",
                                  request_hash=same_body)
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 409
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_STALE_SECONDS + 5))
    assert client.post("/write/", {"name": "a"}, HTTP_IDEMPOTENCY_KEY=k).status_code == 201
