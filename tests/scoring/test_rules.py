"""Rule sets: presets, options, validation when built."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import ScoringInputError
from scoring.rules import (
    SCORING_OPTIONS,
    VARIANTS,
    KittyMultiplier,
    PartnershipRules,
    RedFiveRules,
    YongzhouRules,
    default_options,
    scoring_rules,
    split_options,
    variant_options,
)


def test_variant_keys() -> None:
    assert VARIANTS == ("tractor", "chaodi", "red-five", "yongzhou-300")


@pytest.mark.parametrize(
    ("variant", "kwargs", "facts"),
    [
        (
            "tractor",
            {},
            {"decks": 2, "players": 4, "total_points": 200, "kitty_cards": 8, "kitty_max_points": 80},
        ),
        (
            "chaodi",
            {},
            {"decks": 2, "players": 4, "total_points": 200, "kitty_cards": 8, "kitty_max_points": 80},
        ),
        (
            "red-five",
            {},
            {"decks": 2, "players": 4, "total_points": 200, "kitty_cards": 8, "kitty_max_points": 80},
        ),
        (
            "red-five",
            {"decks": 3},
            {"decks": 3, "players": 4, "total_points": 300, "kitty_cards": 6, "kitty_max_points": 60},
        ),
        ("yongzhou-300", {}, {"players": 4, "total_points": 300, "kitty_cards": 0, "kitty_max_points": 0}),
        ("yongzhou-300", {"players": 4}, {"players": 4, "total_points": 300, "kitty_cards": 0}),
    ],
)
def test_deck_facts(variant: str, kwargs: dict[str, Any], facts: dict[str, int]) -> None:
    rules = scoring_rules(variant, **kwargs)
    for name, value in facts.items():
        assert getattr(rules, name) == value, name


def test_tractor_preset() -> None:
    rules = scoring_rules("tractor")
    assert isinstance(rules, PartnershipRules)
    assert rules.levels[0] == "2" and rules.levels[-1] == "A"
    assert rules.kitty_multiplier is KittyMultiplier.POWER_OF_TWO and rules.kitty_multiplier_cap == 64
    assert (rules.target_level, rules.must_play_levels) == ("J", ("J",))
    assert not rules.a_pass_conditions and not rules.throw_penalties
    assert rules.level_table.takeover == 80
    assert rules.max_component == 24


def test_chaodi_preset() -> None:
    rules = scoring_rules("chaodi")
    assert isinstance(rules, PartnershipRules)
    assert rules.levels[0] == "3"
    assert rules.kitty_multiplier is KittyMultiplier.BY_CARDS and rules.kitty_multiplier_cap is None
    assert (rules.target_level, rules.must_play_levels) == ("A", ("A",))
    assert rules.a_pass_conditions and rules.a_failure_limit == 3 and rules.a_failure_reset_level is None
    assert rules.level_table == scoring_rules("tractor").level_table  # type: ignore[attr-defined]


@pytest.mark.parametrize(("decks", "bids", "table"), [(2, (60, 200), -70), (3, (80, 300), -80)])
def test_red_five_preset(decks: int, bids: tuple[int, int], table: int) -> None:
    rules = scoring_rules("red-five", decks=decks)
    assert isinstance(rules, RedFiveRules)
    assert rules.bid_range == bids and rules.bid_increment == (5, 15)
    assert rules.game_point_table.bands[0].highest == table
    assert (rules.red_five_capture_points, rules.red_five_capture_game_points) == (20, 2)


@pytest.mark.parametrize(("players", "base"), [(3, 100), (4, 75)])
def test_yongzhou_preset(players: int, base: int) -> None:
    rules = scoring_rules("yongzhou-300", players=players)
    assert isinstance(rules, YongzhouRules)
    assert rules.net_base == base and not rules.partnership_mode


def test_options_list() -> None:
    assert SCORING_OPTIONS == {
        "level_table",
        "kitty_multiplier",
        "kitty_multiplier_cap",
        "target_level",
        "must_play_levels",
        "a_pass_conditions",
        "a_failure_limit",
        "a_failure_reset_level",
        "a_failures_reset_on_deal_loss",
        "throw_penalties",
        "hand_limit",
        "hand_limit_tie",
        "bid_range",
        "bid_increment",
        "game_point_table",
        "red_five_capture_points",
        "red_five_capture_game_points",
        "net_base",
        "partnership_mode",
    }
    union = frozenset().union(*(variant_options(variant) for variant in VARIANTS))
    assert union == SCORING_OPTIONS


@pytest.mark.parametrize("variant", VARIANTS)
def test_to_options_round_trip(variant: str) -> None:
    """Every option of a preset is listed, JSON-ready, and rebuilds the same rule set."""
    rules = scoring_rules(variant)
    options = rules.to_options()
    assert set(options) == variant_options(variant)
    assert set(default_options(variant)) == set(options)
    assert scoring_rules(variant, options) == rules
    assert rules.overrides() == {}


def test_overrides() -> None:
    rules = scoring_rules("tractor", {"throw_penalties": True, "hand_limit": 12})
    assert rules.overrides() == {"throw_penalties": True, "hand_limit": 12}
    assert scoring_rules("tractor", rules.overrides()) == rules


def test_split_options() -> None:
    scoring, rest = split_options({"target_level": "Q", "throw_penalty_points": 10, "allow_throws": False})
    assert scoring == {"target_level": "Q"}
    assert rest == {"throw_penalty_points": 10, "allow_throws": False}


def test_rules_are_frozen() -> None:
    rules = scoring_rules("tractor")
    with pytest.raises(AttributeError):
        rules.target_level = "A"  # type: ignore[misc, attr-defined]


def test_all_bad_options_reported_at_once() -> None:
    with pytest.raises(ScoringInputError) as caught:
        scoring_rules("tractor", {"target_level": "Z", "hand_limit": 0, "colour": "red"})
    assert set(caught.value.field_errors) == {"options.target_level", "options.hand_limit", "options.colour"}


def test_rules_errors_in_chinese() -> None:
    with pytest.raises(ScoringInputError) as caught:
        scoring_rules("mahjong", lang="zh-hans")
    assert caught.value.field_errors["variant"][0].startswith("未知玩法 mahjong")


def test_level_table_option_forms() -> None:
    standard = scoring_rules("tractor", {"level_table": "standard"})
    assert standard == scoring_rules("tractor")
    table = {"zero": None, "bands": [[0, "dealer", 1], [80, "attackers", 0]], "step": None}
    rules = scoring_rules("chaodi", {"level_table": table})
    assert isinstance(rules, PartnershipRules)
    assert rules.level_table.to_json() == table
