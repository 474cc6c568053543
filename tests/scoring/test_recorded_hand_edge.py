"""The parsing edge of a recorded hand: a yongzhou tie needs ``tie_break``; a dealer named twice must agree."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.api import check_dealer_named_once, score_hand_request
from scoring.errors import ScoringInputError

TIED = {"variant": "yongzhou-300", "players": 4, "outcome": {"points": [45, 105, 45, 105]}}


def test_a_tie_without_tie_break_is_refused_naming_the_field() -> None:
    with pytest.raises(ScoringInputError) as exc:
        score_hand_request(TIED)
    assert list(exc.value.field_errors) == ["outcome.tie_break"]
    assert exc.value.field_errors["outcome.tie_break"][0].startswith("Seats 2 and 4 tie")  # 0-based 1 and 3
    zh = exc.value.in_lang("zh-hans").field_errors["outcome.tie_break"][0]
    assert "抽签" in zh and zh.startswith("2、4号座位并列最高分")
    tied3 = {"variant": "yongzhou-300", "players": 3, "outcome": {"points": [120, 60, 120]}}
    with pytest.raises(ScoringInputError) as exc:
        score_hand_request(tied3)
    assert "outcome.tie_break" in exc.value.field_errors


def test_a_tie_with_tie_break_deals_from_the_drawn_seat() -> None:
    body = {**TIED, "outcome": {**TIED["outcome"], "tie_break": 3}}
    assert score_hand_request(body)["next_dealer"] == 3
    untied = {"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}}
    assert score_hand_request(untied)["next_dealer"] == 2  # no tie: nothing to draw


@pytest.mark.django_db
def test_scoring_api_answers_400_naming_tie_break() -> None:
    r = APIClient().post("/api/v1/scoring/hand", TIED, format="json")
    assert r.status_code == 400 and "outcome.tie_break" in r.json()["errors"]


def test_dealer_named_twice_must_agree() -> None:
    check_dealer_named_once(None, {"dealer": 2})
    check_dealer_named_once(2, {"dealer": 2})
    check_dealer_named_once(1, {"points": [1, 2]})
    with pytest.raises(ScoringInputError) as exc:
        check_dealer_named_once(1, {"dealer": 2})
    assert list(exc.value.field_errors) == ["dealer"]
    assert "outcome.dealer" in exc.value.field_errors["dealer"][0]
    assert "庄家" in exc.value.in_lang("zh-hans").field_errors["dealer"][0]
