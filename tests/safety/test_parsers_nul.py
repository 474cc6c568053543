"""A NUL character inside any JSON string is a 400 naming the field (PostgreSQL cannot store one, so
without this check the same request is a 503 there and a silent write on SQLite)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [{"username": "a\x00b", "password": "x"}, {"username": "\x00"}])
def test_nul_in_the_token_request_is_a_400_naming_the_field(body: dict) -> None:
    answer = APIClient().post("/api/v1/auth/token/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert "username" in answer.json()["errors"] and answer.json()["detail"]


def test_nul_deep_in_a_write_names_its_path_and_writes_nothing() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory())
    answer = api.post("/api/v1/players/", {"name": "甲", "club": "ok", "extra": [{"k": "x\x00"}]}, format="json")
    assert answer.status_code == 400 and list(answer.json()["errors"]) == ["extra.0.k"]
    assert not Player.objects.filter(name="甲").exists()


def test_nul_in_a_form_encoded_token_request_is_a_400_too() -> None:
    answer = APIClient().post("/api/v1/auth/token/", {"username": "a\x00b", "password": "x"})
    assert answer.status_code == 400 and "username" in answer.json()["errors"]
