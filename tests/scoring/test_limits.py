"""Hand limits and fixed-deal matches (把数制): ties by option, and "decided before the limit"."""

from __future__ import annotations

import pytest

from scoring.api import score_hand_request
from scoring.partnership import MatchState, decided_before_limit, max_gain_per_hand
from scoring.rules import scoring_rules

SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
TAKEOVER = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


def hand(options: dict, state: dict, outcome: dict) -> dict:
    return score_hand_request({"variant": "tractor", "options": options, "state": state, "outcome": outcome})


@pytest.mark.parametrize(("tie", "winner", "drawn"), [("dealer_side", 0, False), ("draw", None, True)])
def test_equal_levels_at_the_limit(tie: str, winner: int | None, drawn: bool) -> None:
    """Two hands, both takeovers without a level change: levels stay equal at the limit."""
    options = {"hand_limit": 2, "hand_limit_tie": tie}
    first = hand(options, {"levels": ["2", "2"], "dealer": 1}, TAKEOVER)
    assert first["match_winner"] is None and first["state"]["dealer"] == 2
    second = hand(options, first["state"], TAKEOVER)
    # The last hand's dealer was seat 2 (side 0).
    assert second["match_winner"] == winner
    assert second["match_drawn"] is drawn


def test_deciding_hand_is_played_after_the_limit_on_equal_levels() -> None:
    options = {"hand_limit": 1, "hand_limit_tie": "deciding_hand"}
    first = hand(options, {"levels": ["2", "2"], "dealer": 1}, TAKEOVER)
    assert first["match_winner"] is None and first["state"]["hands_played"] == 1
    decider = hand(options, first["state"], SHUTOUT)
    assert decider["match_winner"] == 0


def test_higher_level_wins_at_the_limit() -> None:
    result = hand({"hand_limit": 1}, {"levels": ["2", "2"], "dealer": 0}, SHUTOUT)
    assert result["match_winner"] == 0 and result["match_drawn"] is False


def test_without_a_limit_the_contract_has_no_extra_fields() -> None:
    result = hand({}, {"levels": ["2", "2"], "dealer": 0}, SHUTOUT)
    assert "match_drawn" not in result and "decided" not in result


def test_decided_when_the_trailing_side_cannot_catch_up() -> None:
    """With a flat kitty the best hand is 200 points: +6 levels (100 → +1, every further 20 one more)."""
    rules = scoring_rules("tractor", {"hand_limit": 10, "kitty_multiplier": "flat", "target_level": "A"})
    assert max_gain_per_hand(rules) == 6
    # One hand left, 2 against Q (a gap of 10 > 6): decided for the leader.
    assert decided_before_limit(rules, MatchState(levels=("2", "Q"), dealer=0, hands_played=9)) == 1
    # Two hands left: 2 + 12 ≥ Q, the trailing side can still catch up.
    assert decided_before_limit(rules, MatchState(levels=("2", "Q"), dealer=0, hands_played=8)) is None
    assert decided_before_limit(rules, MatchState(levels=("5", "5"), dealer=0, hands_played=9)) is None
    # With the ×64 kitty of the preset one hand can gain anything: never decided early.
    preset = scoring_rules("tractor", {"hand_limit": 10})
    assert decided_before_limit(preset, MatchState(levels=("2", "J"), dealer=0, hands_played=9)) is None


def test_unknown_tie_rule_is_refused_by_name() -> None:
    from scoring.errors import ScoringInputError

    with pytest.raises(ScoringInputError) as caught:
        scoring_rules("tractor", {"hand_limit_tie": "coin"})
    assert "options.hand_limit_tie" in caught.value.field_errors
