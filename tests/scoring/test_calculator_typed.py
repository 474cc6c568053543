"""The calculator page scores through scoring's typed functions, with the JSON handler's results."""

from __future__ import annotations

import pytest

from rules_web.calculator_forms import CalculatorForm
from scoring.api import explain_hand_request
from scoring.errors import ScoringInputError

CASES = [
    ({"variant": "tractor", "level_0": "10", "level_1": "9", "dealer": "1", "attackers_points": "85",
      "kitty_points": "10", "last_trick_winner": "attackers", "last_trick_largest": "2"},
     {"variant": "tractor", "state": {"levels": ["10", "9"], "dealer": 1},
      "outcome": {"attackers_points": 85, "kitty_points": 10, "last_trick": {"winner": "attackers", "largest": 2}}}),
    ({"variant": "chaodi", "level_0": "A", "level_1": "5", "dealer": "0", "a_failures_0": "2",
      "attackers_points": "40", "kitty_points": "0", "last_trick_winner": "dealer", "last_trick_largest": "1",
      "a_first_trick": "yes", "a_last_trick": "no"},
     {"variant": "chaodi", "state": {"levels": ["A", "5"], "dealer": 0, "a_failures": [2, 0]},
      "outcome": {"attackers_points": 40, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1},
                  "a_first_trick": True, "a_last_trick": False}}),
    ({"variant": "red-five", "decks": "3", "dealer": "2", "bid": "120", "trump": "C", "dealer_points": "100",
      "kitty_points": "20", "dealer_won_last_trick": "on", "red_five_0_played_by": "0", "red_five_0_won_by": "2"},
     {"variant": "red-five", "decks": 3,
      "outcome": {"dealer": 2, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
                  "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 2}]}}),
    ({"variant": "yongzhou-300", "players": "3", "points_0": "20", "points_1": "130", "points_2": "150"},
     {"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}}),
]


@pytest.mark.parametrize(("form_data", "payload"), CASES, ids=[c[1]["variant"] for c in CASES])
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_typed_calculator_matches_the_json_handler(form_data, payload, lang) -> None:
    form = CalculatorForm(form_data)
    assert form.is_valid(), form.errors
    scored = form.scored(lang=lang)
    assert {**scored.response, "explanation": scored.explanation()} == explain_hand_request(payload, lang)


def test_a_red_five_hand_without_a_bid_names_the_bid() -> None:
    form = CalculatorForm({"variant": "red-five", "decks": "2", "dealer": "0", "trump": "S"})
    assert form.is_valid(), form.errors
    with pytest.raises(ScoringInputError) as info:
        form.scored()
    assert list(info.value.field_errors) == ["outcome.bid"]
