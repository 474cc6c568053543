"""Red-five and Yongzhou settlements (RULES.md §6.3, §6.4)."""

from __future__ import annotations

import pytest

from scoring.redfive import RedFiveCapture, RedFiveOutcome, settle_red_five
from scoring.rules import RedFiveRules, YongzhouRules, scoring_rules
from scoring.yongzhou import YongzhouOutcome, settle_yongzhou


def red_five_rules(decks: int, **options: object) -> RedFiveRules:
    rules = scoring_rules("red-five", options, decks=decks)
    assert isinstance(rules, RedFiveRules)
    return rules


def yongzhou_rules(players: int, **options: object) -> YongzhouRules:
    rules = scoring_rules("yongzhou-300", options, players=players)
    assert isinstance(rules, YongzhouRules)
    return rules


# (decks, dealer's final, dealer's game points, each defender's)
RED_FIVE_BANDS = [
    (2, -200, -18, 6),
    (2, -70, -18, 6),
    (2, -65, -12, 4),
    (2, -30, -12, 4),
    (2, -25, -6, 2),
    (2, 0, -6, 2),
    (2, 5, 6, -2),
    (2, 30, 6, -2),
    (2, 35, 12, -4),
    (2, 70, 12, -4),
    (2, 75, 18, -6),
    (2, 100, 18, -6),
    (3, -150, -18, 6),
    (3, -80, -18, 6),
    (3, -75, -12, 4),
    (3, -40, -12, 4),
    (3, -35, -6, 2),
    (3, 0, -6, 2),
    (3, 5, 6, -2),
    (3, 40, 6, -2),
    (3, 45, 12, -4),
    (3, 80, 12, -4),
    (3, 85, 18, -6),
    (3, 150, 18, -6),
]


@pytest.mark.parametrize(("decks", "final", "dealer_gp", "defender_gp"), RED_FIVE_BANDS)
@pytest.mark.parametrize("dealer", [0, 3])
def test_red_five_bands(decks: int, final: int, dealer_gp: int, defender_gp: int, dealer: int) -> None:
    rules = red_five_rules(decks)
    bid = 200 if final == -200 else 150 if abs(final) == 150 else 100
    outcome = RedFiveOutcome(
        dealer=dealer,
        bid=bid,
        trump="S",
        dealer_points=final + bid,
        kitty_points=0,
        dealer_won_last_trick=True,
    )
    result = settle_red_five(rules, outcome)
    assert result.dealer_final == final
    expected = [defender_gp] * 4
    expected[dealer] = dealer_gp
    assert list(result.game_points) == expected
    assert sum(result.game_points) == 0


@pytest.mark.parametrize(
    ("won_last", "kitty", "final"),
    [(True, 20, 0), (False, 20, -20), (True, 0, -20), (True, 80, 60), (False, 80, -20)],
)
def test_red_five_kitty_counts_only_for_the_dealer_winning_the_last_trick(
    won_last: bool, kitty: int, final: int
) -> None:
    outcome = RedFiveOutcome(
        dealer=1, bid=100, trump="H", dealer_points=80, kitty_points=kitty, dealer_won_last_trick=won_last
    )
    assert settle_red_five(red_five_rules(2), outcome).dealer_final == final


@pytest.mark.parametrize(
    ("captures", "final", "points"),
    [
        # the contract example: the dealer's ♥5 captured by seat 1
        ([(0, 1)], -20, [-8, 4, 2, 2]),
        # seat 2's ♥5 captured by the dealer: +20 (final 20 → +6) and seat 2 pays 2
        ([(2, 0)], 20, [8, -2, -4, -2]),
        # both red fives captured by the dealer
        ([(1, 0), (3, 0)], 40, [16, -6, -4, -6]),
        # one each way: the points cancel, the game points do not move in total
        ([(0, 3), (1, 0)], 0, [-6, 0, 2, 4]),
    ],
)
def test_red_five_captures_two_decks(captures: list[tuple[int, int]], final: int, points: list[int]) -> None:
    outcome = RedFiveOutcome(
        dealer=0,
        bid=120,
        trump="C",
        dealer_points=100,
        kitty_points=20,
        dealer_won_last_trick=True,
        red_fives=tuple(RedFiveCapture(played_by, won_by) for played_by, won_by in captures),
    )
    result = settle_red_five(red_five_rules(2), outcome)
    assert result.dealer_final == final
    assert list(result.game_points) == points
    assert sum(result.game_points) == 0


def test_red_five_three_decks_three_captures() -> None:
    """3 decks: three ♥5; the dealer loses all three: −60 points, pays 2 to each capturer."""
    outcome = RedFiveOutcome(
        dealer=2,
        bid=150,
        trump="D",
        dealer_points=200,
        kitty_points=40,
        dealer_won_last_trick=True,
        red_fives=(RedFiveCapture(2, 1), RedFiveCapture(2, 1), RedFiveCapture(2, 3)),
    )
    result = settle_red_five(red_five_rules(3), outcome)
    assert result.dealer_final == 200 + 40 - 60 - 150
    assert result.band.dealer == 6  # 30 is in 5 … 40 with 3 decks
    assert list(result.game_points) == [-2, -2 + 4, 6 - 6, -2 + 2]


def test_red_five_capture_options() -> None:
    rules = red_five_rules(2, red_five_capture_points=30, red_five_capture_game_points=3)
    outcome = RedFiveOutcome(
        dealer=0,
        bid=120,
        trump="C",
        dealer_points=100,
        kitty_points=20,
        dealer_won_last_trick=True,
        red_fives=(RedFiveCapture(0, 1),),
    )
    result = settle_red_five(rules, outcome)
    assert result.dealer_final == -30
    assert list(result.game_points) == [-12 - 3, 4 + 3, 4, 4]


# ---------------------------------------------------------------------------------------------
# yongzhou-300


@pytest.mark.parametrize(
    ("points", "net", "next_dealer"),
    [
        ((20, 130, 150), (-80, 30, 50), 2),
        ((100, 100, 100), (0, 0, 0), 0),
        ((300, 0, 0), (200, -100, -100), 0),
        ((0, 150, 150), (-100, 50, 50), 1),
        ((95, 105, 100), (-5, 5, 0), 1),
    ],
)
def test_yongzhou_three_players(points: tuple[int, ...], net: tuple[int, ...], next_dealer: int) -> None:
    result = settle_yongzhou(yongzhou_rules(3), YongzhouOutcome(points=points))
    assert (result.net, result.next_dealer) == (net, next_dealer)
    assert sum(result.net) == 0


@pytest.mark.parametrize(
    ("points", "net", "next_dealer", "tied"),
    [
        ((0, 100, 90, 110), (-75, 25, 15, 35), 3, (3,)),
        ((75, 75, 75, 75), (0, 0, 0, 0), 0, (0, 1, 2, 3)),
        ((20, 130, 20, 130), (-55, 55, -55, 55), 1, (1, 3)),
    ],
)
def test_yongzhou_four_players(
    points: tuple[int, ...], net: tuple[int, ...], next_dealer: int, tied: tuple[int, ...]
) -> None:
    result = settle_yongzhou(yongzhou_rules(4), YongzhouOutcome(points=points))
    assert (result.net, result.next_dealer, result.tied_winners) == (net, next_dealer, tied)
    assert result.side_net is None and result.winning_side is None and not result.draw


def test_yongzhou_tie_broken_by_the_draw_at_the_table() -> None:
    result = settle_yongzhou(yongzhou_rules(4), YongzhouOutcome(points=(20, 130, 20, 130), tie_break=3))
    assert result.next_dealer == 3


@pytest.mark.parametrize(
    ("points", "side_net", "winning_side", "draw_reason"),
    [
        ((150, 75, 0, 75), (0, 0), None, "first_and_last"),
        ((200, 50, 0, 50), (50, -50), None, "first_and_last"),  # same camp first and last: a draw anyway
        ((150, 100, 25, 25), (25, -25), 0, None),
        ((25, 25, 100, 150), (-25, 25), 1, None),
        ((100, 100, 50, 50), (0, 0), None, "equal"),
        ((75, 75, 75, 75), (0, 0), None, "equal"),
    ],
)
def test_yongzhou_partnership_mode(
    points: tuple[int, ...], side_net: tuple[int, int], winning_side: int | None, draw_reason: str | None
) -> None:
    result = settle_yongzhou(yongzhou_rules(4, partnership_mode=True), YongzhouOutcome(points=points))
    assert (result.side_net, result.winning_side, result.draw_reason) == (side_net, winning_side, draw_reason)
    assert result.draw is (draw_reason is not None)
