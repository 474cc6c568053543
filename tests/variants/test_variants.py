"""The variants as data: points, seats, sizes, and the one table of typed options."""

from __future__ import annotations

import json

import pytest

import variants
from gameplay.errors import InvalidOption
from gameplay.rulesets import ENGINE_OPTIONS, ruleset
from scoring.errors import ScoringInputError
from scoring.rules import SCORING_OPTIONS, scoring_rules
from variants import RedFiveSettlement
from variants.options import (
    OPTIONS,
    KittyMultiplier,
    NoDeclaration,
    Scope,
    ThrowForced,
    defaults,
    engine_options,
    scoring_options,
)


@pytest.mark.parametrize(("key", "decks", "players", "total", "kitty_max", "kitty"), [
    ("tractor", 2, 4, 200, 80, 8),
    ("chaodi", 2, 4, 200, 80, 8),
    ("red-five", 2, 4, 200, 80, 8),
    ("red-five", 3, 4, 300, 60, 6),
    ("yongzhou-300", 2, 3, 300, 0, 0),
    ("yongzhou-300", 2, 4, 300, 0, 0),
])
def test_points_and_kitty_follow_decks_and_players(key, decks, players, total, kitty_max, kitty) -> None:
    v = variants.get(key)
    assert v.total_points(decks, players) == total
    assert v.max_kitty_points(decks, players) == kitty_max
    assert v.kitty_size(decks, players) == kitty
    # the engine and scoring read the same facts
    engine = ruleset(key, decks=decks if v.variable_decks else None, players=players if v.variable_players else None)
    assert engine.total_points == total and engine.kitty_size == kitty and engine.spec is v
    sc = scoring_rules(key, decks=decks if v.variable_decks else None,
                       players=players if v.variable_players else None)
    assert (sc.total_points, sc.kitty_max_points, sc.kitty_cards, sc.spec) == (total, kitty_max, kitty, v)


def test_card_points_count_jokers_only_in_yongzhou() -> None:
    assert variants.YONGZHOU.card_point_value(15) == 20 and variants.YONGZHOU.card_point_value(16) == 30
    assert variants.TRACTOR.card_point_value(16) == 0
    assert [variants.TRACTOR.card_point_value(r) for r in (5, 10, 13, 14)] == [5, 10, 10, 0]


def test_teams_sizes_and_levels() -> None:
    assert variants.CHAODI.teams(4) == ((0, 2), (1, 3))
    assert variants.RED_FIVE.teams(4) == ((0,), (1,), (2,), (3,))
    assert variants.YONGZHOU.seats(3) == (0, 1, 2)
    assert variants.RED_FIVE.size_label(3, 4) == ("3 decks", "3副牌")
    assert variants.YONGZHOU.size_label(2, 3) == ("3 players", "3人")
    assert variants.CHAODI.size_label(2, 4) is None
    assert variants.TRACTOR.first_level_name == "2" and variants.CHAODI.first_level_name == "3"
    assert variants.CHAODI.level_names == variants.LEVEL_NAMES[1:]
    assert variants.RED_FIVE.first_level_name is None and variants.RED_FIVE.level_names == ()
    assert variants.PARTNERSHIP_KEYS == ("tractor", "chaodi")


def test_option_names_stay_what_tournaments_store() -> None:
    assert ENGINE_OPTIONS == {
        "throw_allowed", "throw_forced", "throw_penalty", "wrap_k3_at_ace", "must_beat_on_points",
        "must_beat_strength", "no_gifting_points", "no_declaration", "first_hand_no_declaration",
        "undecided_trump", "first_bidder"}
    assert SCORING_OPTIONS == {
        "level_table", "kitty_multiplier", "kitty_multiplier_cap", "target_level", "must_play_levels",
        "a_pass_conditions", "a_failure_limit", "a_failure_reset_level", "a_failures_reset_on_deal_loss",
        "throw_penalties", "hand_limit", "hand_limit_tie", "bid_range", "bid_increment", "game_point_table",
        "red_five_capture_points", "red_five_capture_game_points", "net_base", "partnership_mode"}
    assert set(OPTIONS) == ENGINE_OPTIONS | SCORING_OPTIONS
    assert engine_options("red-five") >= {"undecided_trump", "first_bidder"}
    assert "wrap_k3_at_ace" not in engine_options("yongzhou-300")
    assert scoring_options("yongzhou-300") == {"net_base", "partnership_mode"}
    assert all(OPTIONS[n].help_en and OPTIONS[n].help_zh for n in OPTIONS)


def test_choices_are_enum_members_that_read_and_write_as_strings() -> None:
    rules = ruleset("tractor", {"throw_forced": "fewest_cards", "no_declaration": "redeal"})
    assert rules.throw_forced is ThrowForced.FEWEST_CARDS
    assert rules.options["no_declaration"] is NoDeclaration.REDEAL
    assert json.loads(json.dumps(dict(rules.options)))["throw_forced"] == "fewest_cards"
    assert ruleset("chaodi").options["first_hand_no_declaration"] is NoDeclaration.KITTY_CARD
    sc = scoring_rules("chaodi", {"kitty_multiplier": "flat", "hand_limit_tie": "draw"})
    assert sc.kitty_multiplier is KittyMultiplier.FLAT
    assert sc.to_options()["hand_limit_tie"] == "draw" and type(sc.to_options()["hand_limit_tie"]) is str
    assert sc.overrides() == {"kitty_multiplier": "flat", "hand_limit_tie": "draw"}


def test_every_choice_option_refuses_a_value_outside_its_enum() -> None:
    for name, spec in OPTIONS.items():
        if spec.kind != "choice":
            continue
        variant = sorted(spec.variants)[0]
        if spec.scope is Scope.ENGINE:
            with pytest.raises(InvalidOption) as info:
                ruleset(variant, {name: "nonsense"})
            assert info.value.option == name and ", ".join(spec.choices) in info.value.en
        else:
            with pytest.raises(ScoringInputError) as sinfo:
                scoring_rules(variant, {name: "nonsense"})
            assert f"options.{name}" in sinfo.value.field_errors


def test_defaults_depend_on_decks_and_players_where_the_rules_say() -> None:
    assert defaults("red-five", Scope.SCORING, decks=3)["bid_range"] == (80, 300)
    assert defaults("red-five", Scope.SCORING)["bid_range"] == (60, 200)
    assert defaults("yongzhou-300", Scope.SCORING, players=3)["net_base"] == 100
    assert defaults("yongzhou-300", Scope.SCORING)["net_base"] == 75
    assert OPTIONS["kitty_multiplier"].default(variants.TRACTOR) is KittyMultiplier.POWER_OF_TWO
    with pytest.raises(KeyError):
        OPTIONS["net_base"].default("tractor")


def test_rules_carry_their_variant_and_json_carries_the_key() -> None:
    rules = ruleset("red-five", decks=3)
    assert rules.spec is variants.RED_FIVE and rules.variant == "red-five"
    assert rules.spec.settlement == RedFiveSettlement()
    assert scoring_rules(variants.YONGZHOU, players=3).variant == "yongzhou-300"
    with pytest.raises(InvalidOption) as info:
        ruleset("bridge")
    assert info.value.option == "variant" and "tractor, chaodi, red-five, yongzhou-300" in info.value.en
