"""Kitty bonus (抠底): every shape of the winning play, both multiplier policies, the cap."""

from __future__ import annotations

import pytest

from scoring.rules import KittyMultiplier
from tests.scoring.helpers import partnership_rules, play

# (cards in the largest component, tractor ×2^m capped at 64, chaodi ×1/×2/×cards)
KITTY_SHAPES = [
    (1, 2, 1),  # single
    (2, 4, 2),  # pair
    (4, 16, 4),  # tractor of 2 pairs
    (6, 64, 6),  # tractor of 3 pairs
    (8, 64, 8),  # tractor of 4 pairs: tractor capped
    (12, 64, 12),
    (24, 64, 24),  # the longest possible (hands of 25 cards)
]


@pytest.mark.parametrize(("largest", "tractor", "chaodi"), KITTY_SHAPES)
def test_kitty_multiplier_by_shape(largest: int, tractor: int, chaodi: int) -> None:
    """Seed 003: 444555/445566 ×64, 4455 ×16, pair ×4, single ×2; seed 001: ×1, ×2, ×cards."""
    for variant, expected in (("tractor", tractor), ("chaodi", chaodi)):
        result, _ = play(
            partnership_rules(variant),
            points=10,
            kitty=5,
            winner="attackers",
            largest=largest,
            levels=("5", "5"),
        )
        assert result.kitty_multiplier == expected
        assert result.kitty_bonus == 5 * expected
        assert result.attackers_total == 10 + 5 * expected


@pytest.mark.parametrize(
    ("winning_throw", "largest", "multiplier"),
    [("AKQJ 10 9 8 77", 2, 4), ("AKQJ", 1, 2), ("AAJJ", 2, 4)],
)
def test_seed_003_throws_count_their_largest_component(
    winning_throw: str, largest: int, multiplier: int
) -> None:
    result, _ = play(partnership_rules(), kitty=10, winner="attackers", largest=largest)
    assert result.kitty_multiplier == multiplier, winning_throw


@pytest.mark.parametrize("variant", ["tractor", "chaodi"])
def test_kitty_does_not_count_when_the_dealer_side_wins_the_last_trick(variant: str) -> None:
    result, _ = play(partnership_rules(variant), points=70, kitty=80, winner="dealer", levels=("5", "5"))
    assert (result.kitty_multiplier, result.kitty_bonus, result.attackers_total) == (0, 0, 70)


def test_largest_is_optional_when_the_dealer_side_wins() -> None:
    result, _ = play(partnership_rules(), points=30, winner="dealer", largest=None)
    assert result.kitty_multiplier == 0


def test_kitty_multiplier_crosses_the_level_table() -> None:
    """35 + 10×4 = 75 keeps the deal; 35 + 10×16 = 195 gives the attackers +5."""
    keep, _ = play(partnership_rules(), points=35, kitty=10, winner="attackers", largest=2)
    assert (keep.attackers_total, keep.gaining_side, keep.level_gain) == (75, 0, 1)
    lose, _ = play(partnership_rules(), points=35, kitty=10, winner="attackers", largest=4)
    assert (lose.attackers_total, lose.gaining_side, lose.level_gain) == (195, 1, 5)


def test_full_kitty_with_the_top_multiplier() -> None:
    """80 kitty points ×64 = 5120: the gain is huge, the level still stops at the target J."""
    result, state = play(partnership_rules(), points=120, kitty=80, winner="attackers", largest=6)
    assert result.attackers_total == 120 + 5120
    assert state.levels == ("2", "J")
    assert result.stopped_at == "J"
    assert result.match_winner is None


@pytest.mark.parametrize(
    ("policy", "cap", "largest", "expected"),
    [
        ("power_of_two", None, 8, 256),
        ("power_of_two", 16, 6, 16),
        ("by_cards", 4, 6, 4),
        ("flat", None, 6, 1),
        ("double", None, 1, 2),
        ("double", None, 6, 2),
    ],
)
def test_kitty_policy_options(policy: str, cap: int | None, largest: int, expected: int) -> None:
    rules = partnership_rules(kitty_multiplier=policy, kitty_multiplier_cap=cap)
    assert rules.kitty_multiplier is KittyMultiplier(policy)
    result, _ = play(rules, kitty=5, winner="attackers", largest=largest)
    assert result.kitty_multiplier == expected
