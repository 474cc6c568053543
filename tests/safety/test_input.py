"""Bad input is 4xx, never 5xx: deep JSON, %00, oversized bodies and uploads."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client, RequestFactory

from safety.middleware import RequestGuardMiddleware

pytestmark = pytest.mark.django_db


def test_json_nested_1000_deep_is_a_400_naming_the_problem(api_client: Any) -> None:
    body = "[" * 1000 + "]" * 1000
    r = api_client.post("/api/v1/scoring/hand", body, content_type="application/json")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "json_too_deep"
    assert "1000 levels deep" in r.json()["detail"] and "64" in r.json()["detail"]


def test_json_within_the_depth_limit_still_parses(api_client: Any) -> None:
    body = '{"a": ' * 60 + "1" + "}" * 60
    r = api_client.post("/api/v1/scoring/hand", body, content_type="application/json")
    assert r.status_code == 400  # an invalid hand, but parsed: field errors, not a parse error
    assert r.json()["code"] != "json_too_deep"


@pytest.mark.parametrize("url", ["/players/?q=%00", "/players/%00/", "/api/v1/tournaments/?search=a%00b",
                                 "/t/abc%00/", "/?x=%2500%00"])
def test_nul_in_path_or_query_is_400(client: Client, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 400
    assert "NUL" in r.content.decode()
    if url.startswith("/api/"):
        assert r.json()["code"] == "nul_character"


def test_a_body_over_the_limit_is_a_json_413_under_the_api(api_client: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"x": "' + "a" * 2000 + '"}'
    r = api_client.post("/api/v1/scoring/hand", body, content_type="application/json")
    assert r.status_code == 413
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "request_too_large" and "at most 1000 bytes" in r.json()["detail"]


def test_django_refusing_too_many_fields_answers_json_under_the_api(api_client: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5
    r = api_client.post("/api/v1/scoring/hand", "&".join(f"f{i}=1" for i in range(20)),
                        content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400
    assert r.json()["code"] == "request_too_large"


class ExplodingInput(io.RawIOBase):
    def read(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")


def test_an_upload_over_the_limit_is_refused_before_it_is_read(settings: Any) -> None:
    settings.UPLOAD_MAX_BYTES = 10_000
    request = RequestFactory().generic("POST", "/tournaments/import/", CONTENT_TYPE="multipart/form-data; boundary=x",
                                       CONTENT_LENGTH="50000")
    request._stream = ExplodingInput()  # type: ignore[attr-defined]  # any read of the body fails

    def view(req: Any) -> Any:
        req.POST  # noqa: B018 - would read the body
        raise AssertionError("the view ran")

    response = RequestGuardMiddleware(view)(request)
    assert response.status_code == 413
    assert "at most 10000 bytes" in response.content.decode()


def test_an_upload_within_the_limit_reaches_the_view(client: Client, settings: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.UPLOAD_MAX_BYTES = 10_000
    small = client.post("/api/v1/tournaments/import/", {"file": SimpleUploadedFile("a.csv", b"x" * 100)})
    assert small.status_code != 413
    big = client.post("/api/v1/tournaments/import/", {"file": SimpleUploadedFile("a.csv", b"x" * 20_000)})
    assert big.status_code == 413 and big.json()["code"] == "request_too_large"
