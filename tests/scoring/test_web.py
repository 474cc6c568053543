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
    sentences = {
        "en": ["The attackers score 75 points: 35 in tricks and 40 from the kitty.",
               "Side 1 goes up 1 level: 10 → J.", "The dealer side keeps the deal: seat 3 deals the next hand."],
        "zh-hans": ["闲家共得 75 分：牌面 35 分，抠底 40 分。", "第 1 方升 1 级：10 → J。",
                    "庄家方保庄：下一局由3号座位坐庄。"],
    }[language]
    for sentence in sentences:
        assert sentence in html, sentence
    assert '<ol class="explanation">' in html
    table = html[html.index('class="table result-table"'):html.index("</table>", html.index("result-table"))]
    assert table.count("<tr>") == 3 and ">10<" in table and ">J<" in table and ">9<" in table
    assert_no_internals(html)


def assert_no_internals(html: str) -> None:
    result = html[html.index('id="result"'):]
    for word in ("True", "False", "None", "kitty_bonus", "gaining_side", "game_points", "next_dealer",
                 "outcome.", "state.", "[-"):
        assert word not in result, word


def test_calculator_page_red_five_and_yongzhou(client: Client) -> None:
    red = client.post("/calculator/", {
        "variant": "red-five", "decks": "2", "dealer": "0", "bid": "120", "trump": "C", "dealer_points": "100",
        "kitty_points": "20", "dealer_won_last_trick": "on", "red_five_0_played_by": "0", "red_five_0_won_by": "1",
    }).content.decode()
    assert "The dealer&#x27;s final is -20 against the bid of 120." in red
    assert "The dealer (seat 1) gets -8 game points." in red  # the form's seat 0, as people count it
    for cell in ("-8", "+4", "+2"):
        assert f'<td class="num">{cell}</td>' in red, cell
    assert_no_internals(red)
    yz = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                      "points_1": "130", "points_2": "150"}).content.decode()
    assert "Seat 3 scored the most (150)." in yz and "Seat 3 is dealt to first in the next hand." in yz
    for cell in ("-80", "+30", "+50"):
        assert f'<td class="num">{cell}</td>' in yz, cell
    assert 'name="points_3"' not in yz  # three players: three seats
    assert_no_internals(yz)


def test_calculator_shows_field_errors_by_label(client: Client) -> None:
    html = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                        "points_1": "130", "points_2": "100"}).content.decode()
    assert 'role="alert"' in html and "<strong>Points of seat 1</strong>" in html
    assert "outcome.points" not in html
    assert 'class="errorlist' in html[html.index('id="field-points_0"'):html.index('id="field-points_1"')]


@pytest.mark.parametrize(("variant", "present", "absent", "first"), [
    ("tractor", ["level_0", "level_1", "dealer", "attackers_points", "kitty_points", "last_trick_winner"],
     ["a_failures_0", "a_first_trick", "bid", "trump", "decks", "points_0", "red_five_0_played_by"], "2"),
    ("chaodi", ["level_0", "a_failures_0", "a_first_trick", "a_last_trick", "attackers_points"],
     ["bid", "decks", "points_0"], "3"),
    ("red-five", ["decks", "dealer", "bid", "trump", "dealer_points", "red_five_0_played_by"],
     ["level_0", "attackers_points", "points_0", "a_failures_0"], None),
    ("yongzhou-300", ["points_0", "points_3"], ["level_0", "bid", "dealer", "kitty_points", "decks"], None),
])
def test_the_calculator_shows_only_the_chosen_variants_fields(client: Client, variant: str, present: list[str],
                                                              absent: list[str], first: str | None) -> None:
    html = client.get("/calculator/", {"variant": variant}).content.decode()
    form = html[html.index('id="calculator"'):html.index("</form>", html.index('id="calculator"'))]
    for name in present:
        assert f'name="{name}"' in form, name
    for name in absent:
        assert f'name="{name}"' not in form, name
    assert f'<option value="{variant}" selected>' in html
    if first is not None:
        level_0 = form[form.index('name="level_0"'):form.index("</select>", form.index('name="level_0"'))]
        assert f'<option value="{first}" selected>{first}</option>' in level_0
        assert level_0.index("<option") == level_0.index(f'<option value="{first}"')  # the variant's first level


def test_the_calculator_variant_switch_works_without_javascript(client: Client) -> None:
    html = client.get("/calculator/").content.decode()
    chooser = html[html.index('<form method="get"'):html.index("</form>", html.index('id="variant-chooser"'))]
    assert 'method="get"' in chooser and 'type="submit"' in chooser and 'name="variant"' in chooser
    four = client.get("/calculator/", {"variant": "yongzhou-300", "players": "4"}).content.decode()
    three = client.get("/calculator/", {"variant": "yongzhou-300", "players": "3"}).content.decode()
    assert 'name="points_3"' in four and 'name="points_3"' not in three
    assert 'name="points_2"' in three
    unknown = client.get("/calculator/", {"variant": "bridge"}).content.decode()
    assert '<option value="tractor" selected>' in unknown


def test_calculator_htmx_answers_the_result_fragment_only(client: Client) -> None:
    html = client.post("/calculator/", {"variant": "yongzhou-300", "players": "3", "points_0": "20",
                                        "points_1": "130", "points_2": "150"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html and '<td class="num">-80</td>' in html


@pytest.mark.parametrize(("language", "labels"), [
    ("en", ["Level of side 1 (seats 1, 3)", "Level of side 2 (seats 2, 4)"]),
    ("zh-hans", ["第 1 方级数（1、3号座位）", "第 2 方级数（2、4号座位）"]),
])
def test_calculator_form_counts_seats_and_sides_from_1(client: Client, language: str, labels: list[str]) -> None:
    """People read seats 1–4 on the calculator as on the tournament pages; the form still sends 0–3."""
    client.cookies["django_language"] = language
    html = client.get("/calculator/", {"variant": "chaodi"}).content.decode()
    for label in labels:
        assert label in html, label
    assert "side 0" not in html.lower() and "第 0 方" not in html
    assert '<option value="0" selected>1</option>' in html and '<option value="3">4</option>' in html
    yz = client.get("/calculator/", {"variant": "yongzhou-300", "players": "3"}).content.decode()
    assert ("Points of seat 1" if language == "en" else "1号座位得分") in yz
    assert ("Points of seat 0" if language == "en" else "0号座位") not in yz
