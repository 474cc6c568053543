"""The referee API (exact contract, 400 per field, both languages) and the referee page."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

THROW = {
    "variant": "tractor", "level": "10", "trump": "H",
    "hands": {"0": "S9 S8 S8 S4 S4", "1": "SJ C3 C4 C5 C6", "2": "D3 D4 D5 D6 D7", "3": "SA SK SK C7 C8"},
    "leader": 0,
    "plays": ["S9"],
}


def post(body: object, **headers: str):
    return APIClient().post("/api/v1/referee/trick", body, format="json", **headers)


def test_failed_throw_forces_the_lowest_component_and_names_the_seat_that_stops_it() -> None:
    # seat 1's J beats the 9; seat 3's A and KK beat the 9, 88 and 44: the lowest failing part, 44
    data = post({**THROW, "plays": ["S9 S8 S8 S4 S4"]}).json()
    assert data["lead"] == {"shape": "throw", "components": ["S9", "S8 S8", "S4 S4"], "throw_failed": True,
                            "forced": "S4 S4", "beaten_by": 3}
    assert data["plays"] == [{"seat": 0, "cards": "S9 S8 S8 S4 S4", "legal": True, "reason": None}]
    assert data["winner"] is None


def test_a_complete_trick_has_a_winner_and_points() -> None:
    body = {**THROW, "plays": ["S9", "SJ", "D5", "SA"]}
    data = post(body).json()
    assert [p["legal"] for p in data["plays"]] == [True, True, True, True]
    assert data["winner"] == 3 and data["points"] == 5  # the API's seats are 0-based …
    assert set(data) == {"lead", "plays", "winner", "points", "explanation"}
    assert data["explanation"][-1].startswith("Seat 4 wins the trick")  # … its sentences count from 1


def test_an_illegal_follow_names_the_rule() -> None:
    data = post({**THROW, "plays": ["S9", "C3"]}).json()
    assert data["plays"][1]["legal"] is False
    assert "spade" in data["plays"][1]["reason"].lower()
    assert data["winner"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"variant": "bridge"}, "variant"),
        ({"level": "1"}, "level"),
        ({"trump": "X"}, "trump"),
        ({"hands": {**THROW["hands"], "1": "S11 C3 C4 C5 C6"}}, "hands.1"),
        ({"plays": ["S10"]}, "plays.0"),
        ({"hands": {**THROW["hands"], "2": "SK SK SK D6 D7"}}, "hands"),
        ({"options": {"no_such": True}}, "options.no_such"),
    ],
)
def test_malformed_or_impossible_input_is_400_per_field(change: dict, field: str) -> None:
    response = post({**THROW, **change})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(key == field or key.startswith(field) for key in errors), errors
    assert all(errors[k] for k in errors)


def test_errors_and_reasons_in_chinese() -> None:
    data = post({**THROW, "plays": ["S9", "C3"]}, HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    reason = data["plays"][1]["reason"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in reason)
    bad = post({**THROW, "variant": "bridge"}, HTTP_ACCEPT_LANGUAGE="zh-hans").json()["errors"]["variant"][0]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in bad)


def test_yongzhou_and_red_five_requests() -> None:
    yz = post({"variant": "yongzhou-300", "players": 3, "trump": "S",
               "hands": {"0": "SA", "1": "S5", "2": "SK"}, "leader": 0, "plays": ["SA", "S5", "SK"]})
    assert yz.status_code == 200, yz.json()
    assert yz.json()["winner"] == 0 and yz.json()["points"] == 15
    red = post({"variant": "red-five", "decks": 3, "trump": "C",
                "hands": {"0": "H5", "1": "BJ", "2": "C3", "3": "S3"}, "leader": 0, "plays": ["H5", "BJ", "C3", "S3"]})
    assert red.status_code == 200, red.json()
    assert red.json()["winner"] == 0 and red.json()["points"] == 5


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_referee_page_rules_on_a_trick(client: Client, language: str) -> None:
    client.cookies["django_language"] = language
    response = client.post("/referee/", {
        "variant": "tractor", "decks": "2", "players": "4", "level": "10", "trump": "H", "leader": "0",
        "hand_0": THROW["hands"]["0"], "hand_1": THROW["hands"]["1"], "hand_2": THROW["hands"]["2"],
        "hand_3": THROW["hands"]["3"], "play_0": "S9 S8 S8 S4 S4",
    })
    assert response.status_code == 200
    html = response.content.decode()
    assert "S9 S8 S8 S4 S4" in html and '<ol class="explanation">' in html
    assert ("throw fails" in html) if language == "en" else ("甩牌" in html)


def test_referee_page_shows_field_errors(client: Client) -> None:
    html = client.post("/referee/", {"variant": "tractor", "decks": "2", "players": "4", "level": "10", "trump": "H",
                                     "leader": "0", "hand_0": "S99", "play_0": "S99"}).content.decode()
    assert 'role="alert"' in html and "hands.0" in html


def test_partial_holdings_through_the_api_say_what_was_assumed() -> None:
    body = {**THROW, "hands": {"0": "S9 S8 S8 S4 S4", "1": "SJ", "3": "SA SK SK"}, "plays": ["S9", "SJ"]}
    response = post(body)
    assert response.status_code == 200, response.json()
    data = response.json()
    assert [p["legal"] for p in data["plays"]] == [True, True]
    assert "Seat 3 shows no spades, so it is treated as void in spades." in data["explanation"]  # "2" left out
    zh = post(body, HTTP_ACCEPT_LANGUAGE="zh-hans").json()["explanation"]
    assert "3号座位没有列出黑桃，因此按黑桃绝门处理。" in zh
    # bad notation in a partial holding is still a 400 naming the field
    bad = post({**body, "hands": {"0": "S9 S8 S8 S4 S4", "2": "S1"}})
    assert bad.status_code == 400 and set(bad.json()["errors"]) == {"hands.2"}


def test_referee_page_asks_only_for_the_cards_that_matter(client: Client) -> None:
    html = client.get("/referee/").content.decode()
    assert 'id="referee-partial"' in html and "taken as all it holds" in html
    assert "every seat's cards" not in html and "cards before the trick" not in html
    client.cookies["django_language"] = "zh-hans"
    assert "视为其全部手牌" in client.get("/referee/").content.decode()


def test_referee_page_rules_on_partial_holdings(client: Client) -> None:
    html = client.post("/referee/", {
        "variant": "tractor", "decks": "2", "players": "4", "level": "10", "trump": "H", "leader": "0",
        "hand_0": "S9 S8 S8 S4 S4", "hand_1": "SJ", "hand_2": "", "hand_3": "SA SK SK", "play_0": "S9 S8 S8 S4 S4",
    }).content.decode()
    assert 'role="alert"' not in html
    assert "The throw fails" in html and "Seat 3 shows no spades, so it is treated as void in spades." in html


def test_referee_page_counts_seats_from_1(client: Client) -> None:
    """The form's seats and the ruling's table and sentences read 1–4; the API body keeps 0–3."""
    form = client.get("/referee/").content.decode()
    assert "Seat 1: cards held" in form and "Seat 4: cards held" in form and "Seat 0" not in form
    html = client.post("/referee/", {
        "variant": "tractor", "decks": "2", "players": "4", "level": "10", "trump": "H", "leader": "0",
        "hand_0": "S9", "hand_1": "SJ", "hand_2": "D5", "hand_3": "SA",
        "play_0": "S9", "play_1": "SJ", "play_2": "D5", "play_3": "SA",
    }).content.decode()
    assert "<td>1</td>" in html and "<td>4</td>" in html and "<td>0</td>" not in html
    assert "<strong>seat 4</strong>" in html and "Seat 4 wins the trick" in html
