"""The level table (RULES.md §6.1, used by chaodi too): every row, both sides of every threshold."""

from __future__ import annotations

import pytest

from scoring.rules import STANDARD_LEVEL_TABLE, LevelTable
from tests.scoring.helpers import partnership_rules, play

# (attackers' total, side that goes up: "dealer"/"attackers", levels gained)
LEVEL_ROWS = [
    (0, "dealer", 3),
    (5, "dealer", 2),
    (35, "dealer", 2),
    (40, "dealer", 1),
    (75, "dealer", 1),
    (80, "attackers", 0),
    (95, "attackers", 0),
    (100, "attackers", 1),
    (115, "attackers", 1),
    (120, "attackers", 2),
    (135, "attackers", 2),
    (140, "attackers", 3),
    (155, "attackers", 3),
    (160, "attackers", 4),
    (175, "attackers", 4),
    (180, "attackers", 5),
    (195, "attackers", 5),
    (200, "attackers", 6),
]


@pytest.mark.parametrize(("total", "side", "gain"), LEVEL_ROWS)
def test_standard_table_lookup(total: int, side: str, gain: int) -> None:
    """The table alone: every band edge, and every further 20 points one more level."""
    lookup = STANDARD_LEVEL_TABLE.lookup(total)
    assert (lookup.side, lookup.gain) == (side, gain)


@pytest.mark.parametrize("variant", ["tractor", "chaodi"])
@pytest.mark.parametrize(("total", "side", "gain"), LEVEL_ROWS)
def test_hand_applies_table(variant: str, total: int, side: str, gain: int) -> None:
    """Through apply_hand from low levels (no gate in the way), dealer seat 1 (side 1)."""
    rules = partnership_rules(variant)
    low = rules.levels[0]
    result, state = play(rules, points=total, levels=(low, low), dealer=1)
    assert result.attackers_total == total
    assert result.level_gain == gain
    if side == "dealer":
        assert result.gaining_side == 1
        assert not result.deal_changes
        assert state.dealer == 3  # the dealer's partner
        assert state.levels == (low, rules.levels[gain])
    else:
        assert result.gaining_side == 0  # the attackers' side, also when they take over with no gain
        assert result.deal_changes
        assert state.dealer == 2  # the old dealer's next player
        assert state.levels == (rules.levels[gain], low)
    assert result.match_winner is None


@pytest.mark.parametrize(
    ("dealer", "keeps", "next_dealer"),
    [
        (0, True, 2),
        (1, True, 3),
        (2, True, 0),
        (3, True, 1),
        (0, False, 1),
        (1, False, 2),
        (2, False, 3),
        (3, False, 0),
    ],
)
def test_next_dealer(dealer: int, keeps: bool, next_dealer: int) -> None:
    """Dealer side keeps: the partner deals; attackers take over: the dealer's next player deals."""
    result, state = play(partnership_rules(), points=40 if keeps else 80, dealer=dealer)
    assert result.deal_changes is (not keeps)
    assert state.dealer == next_dealer


def test_custom_table_without_zero_window_and_step() -> None:
    """A club table: no zero window, no "every further 20"; 0 falls in the first band."""
    table = {
        "zero": None,
        "bands": [[0, "dealer", 2], [60, "dealer", 1], [100, "attackers", 0], [140, "attackers", 1]],
        "step": None,
    }
    rules = partnership_rules(level_table=table)
    assert rules.level_table.lookup(0).gain == 2
    assert rules.level_table.lookup(55).gain == 2
    assert rules.level_table.lookup(60).gain == 1
    assert rules.level_table.takeover == 100
    assert rules.level_table.lookup(200).gain == 1
    result, state = play(rules, points=95)
    assert (result.gaining_side, result.level_gain, state.levels) == (0, 1, ("3", "2"))


def test_dealer_band_without_gain() -> None:
    """A dealer band worth 0 levels: the dealer side keeps the deal and nobody goes up."""
    table = {"zero": 3, "bands": [[0, "dealer", 1], [60, "dealer", 0], [80, "attackers", 0]], "step": 20}
    result, state = play(partnership_rules(level_table=table), points=60, dealer=1)
    assert (result.gaining_side, result.level_gain, result.deal_changes, state.dealer) == (None, 0, False, 3)


@pytest.mark.parametrize(
    "table",
    [
        {"bands": []},
        {"bands": [[5, "dealer", 1], [80, "attackers", 0]]},
        {"bands": [[0, "attackers", 1]]},
        {"bands": [[0, "dealer", 1], [80, "attackers", 0], [100, "dealer", 1]]},
        {"bands": [[0, "dealer", 1], [40, "dealer", 2], [80, "attackers", 0]]},
        {"bands": [[0, "dealer", 1], [80, "attackers", 2], [100, "attackers", 1]]},
        {"bands": [[0, "dealer", 1], [82, "attackers", 0]]},
        {"bands": [[0, "dealer", 1], [80, "attackers", 0]], "step": 7},
        {"bands": [[0, "dealer", 1], [80, "attackers", 0]], "zero": -1},
        {"bands": [[0, "dealer", 1], [80, "nobody", 0]]},
        {"bands": [[0, "dealer"]]},
        {"bands": [[0, "dealer", 1], [80, "attackers", 0]], "other": 1},
        "generous",
        [1, 2],
    ],
)
def test_bad_level_tables_are_refused(table: object) -> None:
    with pytest.raises(ValueError):
        LevelTable.from_json(table)
