"""Property tests: settlements sum to zero; levels never go down nor skip a must-play level;
refusals name the wrong field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.api import score_hand_request
from scoring.errors import ScoringInputError
from scoring.explain import explain_partnership, explain_red_five, explain_yongzhou
from scoring.partnership import LastTrick, MatchState, PartnershipOutcome, apply_hand, initial_state
from scoring.redfive import RedFiveCapture, RedFiveOutcome, settle_red_five
from scoring.rules import PartnershipRules, RedFiveRules, YongzhouRules, scoring_rules
from scoring.yongzhou import YongzhouOutcome, settle_yongzhou

MODEST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
fives = st.integers(min_value=0, max_value=40).map(lambda n: n * 5)


@st.composite
def red_five_hands(draw: st.DrawFn) -> tuple[RedFiveRules, RedFiveOutcome]:
    decks = draw(st.sampled_from([2, 3]))
    rules = scoring_rules("red-five", decks=decks)
    assert isinstance(rules, RedFiveRules)
    dealer = draw(st.integers(0, 3))
    low, high = rules.bid_range
    bid = draw(st.integers(low // 5, high // 5)) * 5
    kitty = draw(st.integers(0, rules.kitty_max_points // 5)) * 5
    defenders = [seat for seat in range(4) if seat != dealer]
    captures = draw(
        st.lists(
            st.one_of(
                st.sampled_from(defenders).map(lambda seat: RedFiveCapture(dealer, seat)),
                st.sampled_from(defenders).map(lambda seat: RedFiveCapture(seat, dealer)),
            ),
            max_size=decks,
        )
    )
    by_dealer = sum(1 for capture in captures if capture.won_by == dealer)
    by_defenders = len(captures) - by_dealer
    lowest = by_dealer
    highest = (rules.total_points - kitty) // 5 - by_defenders
    points = draw(st.integers(lowest, highest)) * 5
    won_last = draw(st.booleans())
    trump = draw(st.sampled_from("SHCD"))
    return rules, RedFiveOutcome(dealer, bid, trump, points, kitty, won_last, tuple(captures))


@MODEST
@given(red_five_hands())
def test_red_five_game_points_sum_to_zero(hand: tuple[RedFiveRules, RedFiveOutcome]) -> None:
    rules, outcome = hand
    result = settle_red_five(rules, outcome)
    assert sum(result.game_points) == 0
    assert explain_red_five(rules, outcome, result, "zh-hans")
    kitty = outcome.kitty_points if outcome.dealer_won_last_trick else 0
    expected = (
        outcome.dealer_points
        + kitty
        + 20 * (result.captured_by_dealer - result.captured_by_defenders)
        - outcome.bid
    )
    assert result.dealer_final == expected


@st.composite
def yongzhou_hands(draw: st.DrawFn) -> tuple[YongzhouRules, YongzhouOutcome]:
    players = draw(st.sampled_from([3, 4]))
    partnership = players == 4 and draw(st.booleans())
    rules = scoring_rules("yongzhou-300", {"partnership_mode": partnership}, players=players)
    assert isinstance(rules, YongzhouRules)
    cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=players - 1, max_size=players - 1)))
    bounds = [0, *cuts, 60]
    points = tuple((bounds[i + 1] - bounds[i]) * 5 for i in range(players))
    return rules, YongzhouOutcome(points=points)


@MODEST
@given(yongzhou_hands())
def test_yongzhou_nets_sum_to_zero(hand: tuple[YongzhouRules, YongzhouOutcome]) -> None:
    rules, outcome = hand
    result = settle_yongzhou(rules, outcome)
    assert sum(result.net) == 0
    assert explain_yongzhou(rules, outcome, result, "en")
    assert outcome.points[result.next_dealer] == max(outcome.points)
    if result.side_net is not None:
        assert sum(result.side_net) == 0


@st.composite
def partnership_outcomes(draw: st.DrawFn, rules: PartnershipRules) -> PartnershipOutcome:
    kitty = draw(st.integers(0, rules.kitty_max_points // 5)) * 5
    points = draw(st.integers(0, (rules.total_points - kitty) // 5)) * 5
    winner = draw(st.sampled_from(["dealer", "attackers"]))
    largest = draw(st.sampled_from([1, 2, 4, 6, 8]))
    return PartnershipOutcome(
        attackers_points=points,
        kitty_points=kitty,
        last_trick=LastTrick(winner, largest),  # type: ignore[arg-type]
        a_first_trick=draw(st.booleans()),
        a_last_trick=draw(st.booleans()),
    )


MUST_PLAY_CHOICES = [None, ["5", "10", "K"], ["J", "Q"], ["A"]]


@st.composite
def matches(draw: st.DrawFn) -> tuple[PartnershipRules, MatchState, list[PartnershipOutcome]]:
    variant = draw(st.sampled_from(["tractor", "chaodi"]))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["target_level"] = draw(st.sampled_from(["J", "K", "A"]))
    must_play = draw(st.sampled_from(MUST_PLAY_CHOICES))
    if must_play is not None:
        options["must_play_levels"] = must_play
    rules = scoring_rules(variant, options)
    assert isinstance(rules, PartnershipRules)
    state = initial_state(rules, dealer=draw(st.integers(0, 3)))
    hands = draw(st.lists(partnership_outcomes(rules), min_size=1, max_size=40))
    return rules, state, hands


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(matches())
def test_levels_never_go_down_nor_skip_a_must_play_level(
    match: tuple[PartnershipRules, MatchState, list[PartnershipOutcome]],
) -> None:
    rules, state, hands = match
    index = rules.level_index
    for outcome in hands:
        result, after = apply_hand(rules, state, outcome)
        for lang in ("en", "zh-hans"):
            sentences = explain_partnership(rules, state, outcome, result, after, lang)
            assert sentences and all(sentences)
        for side in (0, 1):
            before_i, after_i = index(state.levels[side]), index(after.levels[side])
            assert after_i >= before_i, "a level went down"
            for must in rules.must_play_levels:
                must_i = index(must)
                assert not before_i < must_i < after_i, f"side {side} skipped {must}"
                if before_i == must_i < after_i:
                    assert side == state.dealer_side and result.gaining_side == side, (
                        f"{must} passed undefended"
                    )
        total_gain = sum(index(after.levels[s]) - index(state.levels[s]) for s in (0, 1))
        assert total_gain <= result.level_gain
        assert after.dealer == (state.dealer + (1 if result.deal_changes else 2)) % 4
        if result.match_winner is not None:
            break
        state = after


@MODEST
@given(
    st.integers(-1000, 1000).filter(lambda n: n % 5 != 0 or not 0 <= n <= 200),
    st.sampled_from(["tractor", "chaodi"]),
)
def test_bad_attackers_points_name_the_field(points: int, variant: str) -> None:
    body = {
        "variant": variant,
        "state": {"levels": ["5", "5"], "dealer": 0},
        "outcome": {"attackers_points": points, "kitty_points": 0, "last_trick": {"winner": "dealer"}},
    }
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body)
    assert set(caught.value.field_errors) == {"outcome.attackers_points"}


@MODEST
@given(
    st.lists(st.integers(-50, 350), min_size=3, max_size=3).filter(
        lambda p: sum(p) != 300 or any(v % 5 or v < 0 for v in p)
    )
)
def test_bad_yongzhou_points_name_the_field(points: list[int]) -> None:
    body = {"variant": "yongzhou-300", "players": 3, "outcome": {"points": points}}
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body)
    assert all(name.startswith("outcome.points") for name in caught.value.field_errors)
