"""Match rules (RULES.md §7): first past J, must-play levels, passing A, hand limits, penalties."""

from __future__ import annotations

import pytest

from scoring.partnership import MatchState, advance_level, initial_state, match_winner_at_limit
from tests.scoring.helpers import partnership_rules, play

# ---------------------------------------------------------------------------------------------
# tractor: the target J is a must-play level


@pytest.mark.parametrize(
    ("levels", "dealer", "points", "new_levels", "gaining", "stopped_at", "winner"),
    [
        # the dealer side climbs onto J and stops there (must defend it)
        (("10", "9"), 0, 40, ("J", "9"), 0, None, None),
        (("10", "9"), 0, 35, ("J", "9"), 0, "J", None),
        (("9", "2"), 0, 0, ("J", "2"), 0, "J", None),
        (("8", "2"), 0, 0, ("J", "2"), 0, None, None),
        (("7", "2"), 0, 0, ("10", "2"), 0, None, None),
        # attackers climb onto J and stop there too
        (("2", "9"), 0, 140, ("2", "J"), 1, "J", None),
        (("2", "10"), 0, 100, ("2", "J"), 1, None, None),
        # attackers already at J take over: they stay at J (not defended yet)
        (("5", "J"), 0, 120, ("5", "J"), 1, "J", None),
        (("5", "J"), 0, 80, ("5", "J"), 1, None, None),
        # the dealer side at J goes up: it defended J and wins the match
        (("J", "5"), 0, 75, ("Q", "5"), 0, None, 0),
        (("J", "5"), 0, 5, ("K", "5"), 0, None, 0),
        (("J", "5"), 0, 0, ("A", "5"), 0, None, 0),
        (("5", "J"), 1, 40, ("5", "Q"), 1, None, 1),
        # the dealer side at J fails to defend: the attackers take over, no winner
        (("J", "5"), 0, 80, ("J", "5"), 1, None, None),
        (("J", "J"), 0, 100, ("J", "J"), 1, "J", None),
    ],
)
def test_first_past_j(
    levels: tuple[str, str],
    dealer: int,
    points: int,
    new_levels: tuple[str, str],
    gaining: int,
    stopped_at: str | None,
    winner: int | None,
) -> None:
    result, state = play(partnership_rules(), points=points, levels=levels, dealer=dealer)
    assert state.levels == new_levels
    assert result.gaining_side == gaining
    assert result.stopped_at == stopped_at
    assert result.match_winner == winner
    assert state.winner == winner
    if winner is not None:
        assert result.match_end == "target"


def test_level_gain_reports_the_table_figure_when_stopped() -> None:
    """Side at 10 earns +2: level_gain 2, but the side moves one level, to J."""
    result, state = play(partnership_rules(), points=20, levels=("10", "2"))
    assert (result.level_gain, result.levels_moved, state.levels[0]) == (2, 1, "J")


@pytest.mark.parametrize(
    ("must_play", "level", "gain", "defended", "expected"),
    [
        (["5", "10", "J"], "3", 3, True, ("5", "5")),
        (["5", "10", "J"], "5", 3, False, ("5", "5")),
        (["5", "10", "J"], "5", 3, True, ("8", None)),
        (["5", "10", "J"], "8", 3, True, ("10", "10")),
        (["5", "10", "J"], "10", 1, True, ("J", None)),
        (["5", "10", "J"], "10", 3, True, ("J", "J")),
        (["J"], "2", 12, True, ("J", "J")),
    ],
)
def test_must_play_levels(
    must_play: list[str], level: str, gain: int, defended: bool, expected: tuple[str, str | None]
) -> None:
    rules = partnership_rules(must_play_levels=must_play)
    assert advance_level(rules, level, gain, defended=defended) == expected


def test_target_without_must_play_ends_the_match_when_passed() -> None:
    """With the target left out of the must-play levels, jumping past it wins the match."""
    rules = partnership_rules(must_play_levels=[])
    result, state = play(rules, points=0, levels=("9", "2"))
    assert state.levels == ("Q", "2")
    assert result.match_winner == 0


def test_other_target_level() -> None:
    rules = partnership_rules(target_level="K")
    assert rules.must_play_levels == ("K",)
    result, state = play(rules, points=0, levels=("J", "2"))
    assert (state.levels, result.match_winner) == (("K", "2"), None)
    result, state = play(rules, points=60, levels=("K", "2"))
    assert (state.levels, result.match_winner) == (("A", "2"), 0)


def test_tractor_played_to_a_without_conditions() -> None:
    rules = partnership_rules(target_level="A")
    result, state = play(rules, points=75, levels=("A", "3"))
    assert (state.levels, result.match_winner, result.level_gain) == (("A", "3"), 0, 1)
    assert result.capped_at_top


def test_initial_state() -> None:
    assert initial_state(partnership_rules()) == MatchState(levels=("2", "2"), dealer=0)
    assert initial_state(partnership_rules("chaodi"), dealer=3) == MatchState(levels=("3", "3"), dealer=3)


# ---------------------------------------------------------------------------------------------
# chaodi: passing A (通关)


@pytest.mark.parametrize(
    ("first", "last", "winner", "points", "passed"),
    [
        (True, True, "dealer", 75, True),
        (True, True, "dealer", 0, True),
        (False, True, "dealer", 40, False),
        (True, False, "dealer", 40, False),
        (False, False, "dealer", 40, False),
        (True, True, "attackers", 40, False),
        (True, True, "dealer", 80, False),
    ],
)
def test_a_pass_conditions(first: bool, last: bool, winner: str, points: int, passed: bool) -> None:
    rules = partnership_rules("chaodi")
    result, state = play(rules, points=points, winner=winner, levels=("A", "K"), a_first=first, a_last=last)
    assert result.a_pass is not None
    assert result.a_pass.passed is passed
    if passed:
        assert (result.match_winner, result.gaining_side, state.levels) == (0, 0, ("A", "K"))
        assert result.level_gain > 0
    else:
        assert result.match_winner is None
        assert state.a_failures == (1, 0)
        assert state.levels[0] == "A"  # the failing side stays at A


def test_failed_a_below_takeover_keeps_the_deal() -> None:
    result, state = play(
        partnership_rules("chaodi"), points=40, levels=("A", "K"), a_first=False, a_last=True
    )
    assert (result.level_gain, result.gaining_side, result.deal_changes) == (0, None, False)
    assert (state.dealer, state.a_failures) == (2, (1, 0))


def test_failed_a_above_takeover_gives_the_attackers_their_levels() -> None:
    result, state = play(
        partnership_rules("chaodi"), points=120, levels=("A", "K"), dealer=2, a_first=True, a_last=True
    )
    assert (result.gaining_side, result.level_gain, result.deal_changes) == (1, 2, True)
    assert (state.levels, state.dealer, state.a_failures) == (("A", "A"), 3, (1, 0))


def test_three_failed_a_attempts_in_a_row_hand_over_the_deal() -> None:
    rules = partnership_rules("chaodi")
    state = MatchState(levels=("A", "9"), dealer=0)
    dealers = []
    for attempt in range(1, 4):
        result, state = play(
            rules,
            points=30,
            levels=state.levels,
            dealer=state.dealer,
            a_failures=state.a_failures,
            a_first=False,
            a_last=True,
        )
        dealers.append(state.dealer)
        assert result.a_failures == attempt
    assert dealers == [2, 0, 1]
    assert result.forced_handover
    assert (result.deal_changes, result.gaining_side, result.level_gain) == (True, 1, 0)
    assert state.a_failures == (0, 0)  # the count restarts
    assert state.levels == ("A", "9")  # [decided] the failing side stays at A


def test_a_failures_count_per_side() -> None:
    rules = partnership_rules("chaodi")
    result, state = play(
        rules, points=30, levels=("A", "A"), dealer=1, a_failures=(2, 1), a_first=True, a_last=False
    )
    assert state.a_failures == (2, 2)
    assert not result.forced_handover


def test_a_failure_limit_off() -> None:
    rules = partnership_rules("chaodi", a_failure_limit=None)
    result, state = play(rules, points=30, levels=("A", "9"), a_failures=(7, 0), a_first=False, a_last=False)
    assert (result.forced_handover, state.a_failures, state.dealer) == (False, (8, 0), 2)


def test_a_failure_reset_level_option() -> None:
    rules = partnership_rules("chaodi", a_failure_reset_level="3")
    result, state = play(rules, points=30, levels=("A", "9"), a_failures=(2, 0), a_first=False, a_last=False)
    assert result.forced_handover
    assert state.levels == ("3", "9")


def test_a_failures_reset_on_deal_loss_option() -> None:
    _, kept_state = play(
        partnership_rules("chaodi"),
        points=80,
        levels=("A", "9"),
        a_failures=(1, 0),
        a_first=True,
        a_last=True,
    )
    assert kept_state.a_failures == (2, 0)
    rules = partnership_rules("chaodi", a_failures_reset_on_deal_loss=True)
    _, state = play(rules, points=80, levels=("A", "9"), a_failures=(1, 0), a_first=True, a_last=True)
    assert state.a_failures == (0, 0)


def test_a_conditions_apply_only_at_a() -> None:
    result, state = play(partnership_rules("chaodi"), points=40, levels=("K", "9"))
    assert result.a_pass is None
    assert state.levels == ("A", "9")


def test_chaodi_reaching_a_from_below_does_not_win() -> None:
    result, state = play(partnership_rules("chaodi"), points=0, levels=("Q", "9"))
    assert (state.levels, result.match_winner) == (("A", "9"), None)


# ---------------------------------------------------------------------------------------------
# throw penalties and hand limits


def test_throw_penalties_added_when_enabled() -> None:
    rules = partnership_rules(throw_penalties=True)
    result, _ = play(rules, points=70, penalties=10)
    assert (result.attackers_total, result.gaining_side, result.deal_changes) == (80, 1, True)


def test_negative_throw_penalties_floor_at_zero() -> None:
    rules = partnership_rules(throw_penalties=True)
    result, _ = play(rules, points=10, penalties=-20)
    assert result.attackers_total == 0
    assert result.level_gain == 3


@pytest.mark.parametrize(
    ("levels", "dealer", "points", "winner"),
    [
        (("5", "3"), 0, 40, 0),  # higher level wins
        (("3", "5"), 0, 40, 1),
        (("4", "5"), 0, 40, 0),  # equal after the hand: the dealer side of the last hand
        (("4", "5"), 1, 100, 1),  # equal after the hand (attackers 4→5 take over): last dealer side 1
    ],
)
def test_hand_limit(levels: tuple[str, str], dealer: int, points: int, winner: int) -> None:
    rules = partnership_rules(hand_limit=10)
    result, state = play(rules, points=points, levels=levels, dealer=dealer, hands_played=9)
    assert (result.match_winner, result.match_end, state.hands_played) == (winner, "hand_limit", 10)


def test_hand_limit_not_yet_reached() -> None:
    result, state = play(partnership_rules(hand_limit=10), points=40, hands_played=3)
    assert (result.match_winner, state.hands_played) == (None, 4)


def test_match_winner_at_time_limit() -> None:
    assert match_winner_at_limit(MatchState(levels=("9", "J"), dealer=0), 0) == 1
    assert match_winner_at_limit(MatchState(levels=("9", "9"), dealer=1), 0) == 0
