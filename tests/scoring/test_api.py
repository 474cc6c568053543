"""The request functions behind ``POST /api/v1/scoring/hand`` and the calculator page."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.api import explain_hand_request, score_hand_request
from scoring.errors import ScoringInputError

TRACTOR_REQUEST: dict[str, Any] = {
    "variant": "tractor",
    "options": {},
    "state": {"levels": ["10", "9"], "dealer": 0, "a_failures": [0, 0]},
    "outcome": {
        "attackers_points": 35,
        "kitty_points": 10,
        "last_trick": {"winner": "attackers", "largest": 2},
        "a_first_trick": True,
        "a_last_trick": True,
        "throw_penalties": 0,
    },
}
TRACTOR_RESPONSE = {
    "kitty_multiplier": 4,
    "kitty_bonus": 40,
    "attackers_total": 75,
    "level_gain": 1,
    "gaining_side": 0,
    "deal_changes": False,
    "state": {"levels": ["J", "9"], "dealer": 2, "a_failures": [0, 0]},
    "match_winner": None,
}
RED_FIVE_REQUEST: dict[str, Any] = {
    "variant": "red-five",
    "decks": 2,
    "outcome": {
        "dealer": 0,
        "bid": 120,
        "trump": "C",
        "dealer_points": 100,
        "kitty_points": 20,
        "dealer_won_last_trick": True,
        "red_fives": [{"played_by": 0, "won_by": 1}],
    },
}
YONGZHOU_REQUEST: dict[str, Any] = {
    "variant": "yongzhou-300",
    "players": 3,
    "outcome": {"points": [20, 130, 150]},
}


@pytest.mark.parametrize(
    ("request_body", "response"),
    [
        (TRACTOR_REQUEST, TRACTOR_RESPONSE),
        (RED_FIVE_REQUEST, {"dealer_final": -20, "game_points": [-8, 4, 2, 2]}),
        (YONGZHOU_REQUEST, {"net": [-80, 30, 50], "next_dealer": 2}),
    ],
    ids=["tractor", "red-five", "yongzhou-300"],
)
def test_contract_examples(request_body: dict[str, Any], response: dict[str, Any]) -> None:
    """The examples of issue 4 are real results, byte for byte."""
    assert score_hand_request(copy.deepcopy(request_body)) == response


def test_minimal_tractor_request() -> None:
    """options, a_failures and the chaodi flags may be left out."""
    body = {
        "variant": "tractor",
        "state": {"levels": ["10", "9"], "dealer": 0},
        "outcome": {
            "attackers_points": 35,
            "kitty_points": 10,
            "last_trick": {"winner": "attackers", "largest": 2},
        },
    }
    assert score_hand_request(body) == TRACTOR_RESPONSE


def test_chaodi_pass_a_request() -> None:
    body: dict[str, Any] = {
        "variant": "chaodi",
        "state": {"levels": ["Q", "A"], "dealer": 1, "a_failures": [0, 2]},
        "outcome": {
            "attackers_points": 60,
            "kitty_points": 0,
            "last_trick": {"winner": "dealer"},
            "a_first_trick": True,
            "a_last_trick": False,
        },
    }
    assert score_hand_request(body) == {
        "kitty_multiplier": 0,
        "kitty_bonus": 0,
        "attackers_total": 60,
        "level_gain": 0,
        "gaining_side": 0,
        "deal_changes": True,
        "state": {"levels": ["Q", "A"], "dealer": 2, "a_failures": [0, 0]},
        "match_winner": None,
    }
    body["outcome"]["a_last_trick"] = True
    result = score_hand_request(body)
    assert (result["match_winner"], result["level_gain"], result["gaining_side"]) == (1, 1, 1)


def test_level_spellings_are_normalized() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["state"]["levels"] = ["t", "9"]
    assert score_hand_request(body)["state"]["levels"] == ["J", "9"]


def test_hand_limit_shows_hands_played() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["options"] = {"hand_limit": 5}
    body["state"]["hands_played"] = 4
    result = score_hand_request(body)
    assert result["state"]["hands_played"] == 5
    assert result["match_winner"] == 0


def test_yongzhou_partnership_mode_response() -> None:
    body = {
        "variant": "yongzhou-300",
        "players": 4,
        "options": {"partnership_mode": True},
        "outcome": {"points": [150, 75, 0, 75]},
    }
    assert score_hand_request(body) == {
        "net": [75, 0, -75, 0],
        "next_dealer": 0,
        "side_net": [0, 0],
        "winning_side": None,
        "draw": True,
    }


def test_explanations_en() -> None:
    result = explain_hand_request(copy.deepcopy(TRACTOR_REQUEST))
    assert {key: value for key, value in result.items() if key != "explanation"} == TRACTOR_RESPONSE
    text = " ".join(result["explanation"])
    assert "×2^2 = ×4" in text
    assert "40–75 band" in text
    assert "J is a must-play level" in text
    assert "seat 3, the dealer's partner, deals next" in text  # 0-based seat 2, as people count it


def test_explanation_of_a_stop_at_j_zh() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["outcome"].update(attackers_points=20, kitty_points=0)
    text = " ".join(explain_hand_request(body, "zh-hans")["explanation"])
    assert "停在 J" in text and "必打级" in text
    assert "5–35" in text


def test_explanation_of_a_failed_a_attempt() -> None:
    body = {
        "variant": "chaodi",
        "state": {"levels": ["A", "Q"], "dealer": 0, "a_failures": [2, 0]},
        "outcome": {
            "attackers_points": 60,
            "kitty_points": 0,
            "last_trick": {"winner": "dealer"},
            "a_first_trick": False,
            "a_last_trick": True,
        },
    }
    lines = explain_hand_request(body)["explanation"]
    text = " ".join(lines)
    assert "(not met)" in text and "failed at A 3 time(s) in a row (the limit is 3)" in text
    assert "the deal passes to the attackers although they scored below 80" in text
    assert "Side 1 stays at A." in lines  # 0-based side 0


def test_explanation_red_five_and_yongzhou() -> None:
    lines = explain_hand_request(copy.deepcopy(RED_FIVE_REQUEST))["explanation"]
    assert (
        lines[0]
        == "The dealer's final: 100 in tricks + 20 from the kitty − 20 for red fives − 120 bid = -20."
    )
    assert "-25 … 0 band (2 decks)" in lines[1]
    zh = explain_hand_request(copy.deepcopy(YONGZHOU_REQUEST), "zh-hans")["explanation"]
    assert zh[0] == "每人净分 = 捡分 − 100：-80, +30, +50。"
    with pytest.raises(ScoringInputError) as refused:  # a tie needs the drawn seat (RULES §6.4)
        explain_hand_request({"variant": "yongzhou-300", "players": 4, "outcome": {"points": [20, 130, 20, 130]}})
    assert "outcome.tie_break" in refused.value.field_errors
    tie = explain_hand_request(
        {"variant": "yongzhou-300", "players": 4, "outcome": {"points": [20, 130, 20, 130], "tie_break": 3}}
    )
    assert tie["next_dealer"] == 3 and "seat 4, drawn at the table" in tie["explanation"][1]
    assert "Seats 2, 4 tie for the most points" in tie["explanation"][1]


def test_explanation_extra_levels_and_kitty_cap() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["state"]["levels"] = ["2", "3"]
    body["outcome"].update(
        attackers_points=100, kitty_points=20, last_trick={"winner": "attackers", "largest": 8}
    )
    text = " ".join(explain_hand_request(body)["explanation"])
    assert "capped at ×64" in text
    assert "every further 20 points one more" in text


def test_error_messages_in_chinese() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["outcome"]["attackers_points"] = 33
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body, lang="zh-hans")
    assert caught.value.field_errors == {"outcome.attackers_points": ["分数必须是 5 的倍数；33 不是。"]}
    assert caught.value.in_lang("en").field_errors["outcome.attackers_points"] == [
        "Points come in multiples of 5; 33 is not one."
    ]


def test_every_wrong_field_reported_at_once() -> None:
    body = copy.deepcopy(TRACTOR_REQUEST)
    body["state"]["dealer"] = 7
    body["outcome"]["attackers_points"] = 33
    body["outcome"]["kitty_points"] = 90
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body)
    assert set(caught.value.field_errors) == {
        "state.dealer",
        "outcome.attackers_points",
        "outcome.kitty_points",
    }


def test_defaults_match_the_referee_red_five_2_decks_and_yongzhou_4_players() -> None:
    """Without ``decks`` red five is played with 2 decks; without ``players`` Yongzhou has 4 players."""
    from scoring.api import score_hand_request

    red = score_hand_request({"variant": "red-five", "outcome": {
        "dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
        "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]}})
    assert red == {"dealer_final": -20, "game_points": [-8, 4, 2, 2]}
    yz = score_hand_request({"variant": "yongzhou-300", "outcome": {"points": [20, 130, 100, 50]}})
    assert yz["net"] == [-55, 55, 25, -25]
