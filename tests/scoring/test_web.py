"""The scoring API (exact contract, 400s per field, both languages) and the calculator page."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TRACTOR = {
    "variant": "tractor",
    "options": {},
    "state": {"levels": ["10", "9"], "dealer": 0, "a_failures": [0, 0]},
    "outcome": {"attackers_points": 35, "kitty_points": 10, "last_trick": {"winner": "attackers", "largest": 2},
                "throw_penalties": 0},
}
RED_FIVE = {
    "variant": "red-five", "decks": 2,
    "outcome": {"dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
                "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]},
}
YONGZHOU = {"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}}


def post(body: object, **headers: str):
    return APIClient().post("/api/v1/scoring/hand", body, format="json", **headers)


def test_contract_examples_are_real_results() -> None:
    assert post(TRACTOR).json() == {
        "kitty_multiplier": 4, "kitty_bonus": 40, "attackers_total": 75, "level_gain": 1, "gaining_side": 0,
        "deal_changes": False, "state": {"levels": ["J", "9"], "dealer": 2, "a_failures": [0, 0]},
        "match_winner": None,
    }
    assert post(RED_FIVE).json() == {"dealer_final": -20, "game_points": [-8, 4, 2, 2]}
    assert post(YONGZHOU).json() == {"net": [-80, 30, 50], "next_dealer": 2}


def test_no_login_needed_even_with_a_session_and_no_csrf_token(django_user_model) -> None:
    user = django_user_model.objects.create_user("u", password="pw-long-enough-1")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post("/api/v1/scoring/hand", YONGZHOU, format="json").status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**TRACTOR, "variant": "bridge"}, "variant"),
        ({**TRACTOR, "outcome": {**TRACTOR["outcome"], "attackers_points": 37}}, "outcome.attackers_points"),
        ({**TRACTOR, "outcome": {**TRACTOR["outcome"], "kitty_points": 90}}, "outcome.kitty_points"),
        ({**TRACTOR, "state": {"levels": ["Z", "9"], "dealer": 0}}, "state.levels.0"),
        ({**TRACTOR, "state": {"levels": ["10", "9"], "dealer": 4}}, "state.dealer"),
        ({**TRACTOR, "options": {"nope": 1}}, "options.nope"),
        ({**RED_FIVE, "decks": 4}, "decks"),
        ({**RED_FIVE, "outcome": {**RED_FIVE["outcome"], "bid": 55}}, "outcome.bid"),
        ({**YONGZHOU, "outcome": {"points": [20, 130, 145]}}, "outcome.points"),
    ],
)
def test_bad_input_is_400_naming_the_field(body: dict, field: str) -> None:
    response = post(body)
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "invalid" and data["detail"]
    assert field in data["errors"], data["errors"]
    assert all(message for message in data["errors"][field])


def test_a_body_that_is_not_an_object_is_400() -> None:
    response = post([1, 2, 3])
    assert response.status_code == 400 and response.json()["errors"]


def test_messages_in_chinese() -> None:
    body = {**TRACTOR, "outcome": {**TRACTOR["outcome"], "attackers_points": 37}}
    message = post(body, HTTP_ACCEPT_LANGUAGE="zh-hans").json()["errors"]["outcome.attackers_points"][0]
    assert "5" in message and any("\u4e00" <= ch <= "\u9fff" for ch in message)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_calculator_page_explains_a_tractor_hand(client: Client, language: str) -> None:
    client.cookies["django_language"] = language
    response = client.post("/calculator/", {
        "variant": "tractor", "level_0": "10", "level_1": "9", "dealer": "0", "attackers_points": "35",
        "kitty_points": "10", "last_trick_winner": "attackers", "last_trick_largest": "2",
    })
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-key="kitty_bonus">40<' in html
    assert "J" in html
    assert '<ol class="explanation">' in html


def test_calculator_page_red_five_and_yongzhou(client: Client) -> None:
    red = client.post("/calculator/", {
        "variant": "red-five", "decks": "2", "dealer": "0", "bid": "120", "trump": "C", "dealer_points": "100",
        "kitty_points": "20", "dealer_won_last_trick": "on", "red_five_0_played_by": "0", "red_five_0_won_by": "1",
    }).content.decode()
    assert 'data-key="dealer_final">-20<' in red
    assert "[-8, 4, 2, 2]" in red
    yz = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                      "points_1": "130", "points_2": "150"}).content.decode()
    assert "[-80, 30, 50]" in yz


def test_calculator_shows_field_errors(client: Client) -> None:
    html = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                        "points_1": "130", "points_2": "100"}).content.decode()
    assert 'role="alert"' in html and "outcome.points" in html


def test_calculator_htmx_answers_the_result_fragment_only(client: Client) -> None:
    html = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                        "points_1": "130", "points_2": "150"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html and "[-80, 30, 50]" in html
