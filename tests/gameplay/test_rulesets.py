"""Rule sets: presets, named options, validation."""

from __future__ import annotations

import pytest

from gameplay.errors import InvalidOption
from gameplay.rulesets import ENGINE_OPTIONS, OPTION_SPECS, PRESETS, VARIANTS, RuleSet, ruleset


def test_presets_of_the_four_variants() -> None:
    assert set(PRESETS) == set(VARIANTS) == {"tractor", "chaodi", "red-five", "yongzhou-300"}
    t, c, r, y = (PRESETS[v] for v in VARIANTS)
    assert (t.decks, t.players, t.kitty_size, t.hand_size, t.total_points) == (2, 4, 8, 25, 200)
    assert t.throw_allowed and c.throw_allowed
    assert not r.throw_allowed and not y.throw_allowed  # [decided] RULES §3
    assert c.wrap_k3_at_ace and not t.wrap_k3_at_ace
    assert y.must_beat_on_points and y.no_gifting_points and not t.must_beat_on_points
    assert (y.deck_size, y.kitty_size, y.hand_size, y.total_points) == (84, 0, 21, 300)
    assert t.options["no_declaration"] == "no_trump" and c.options["no_declaration"] == "kitty_card"
    assert t.options["first_hand_no_declaration"] == "redeal"


def test_decks_and_players() -> None:
    r3 = ruleset("red-five", decks=3)
    assert (r3.decks, r3.kitty_size, r3.hand_size, r3.total_points, r3.max_width) == (3, 6, 39, 300, 3)
    y3 = ruleset("yongzhou-300", players=3)
    assert (y3.players, y3.hand_size) == (3, 28)
    with pytest.raises(InvalidOption) as e:
        ruleset("tractor", decks=3)
    assert e.value.option == "decks"
    with pytest.raises(InvalidOption) as e:
        ruleset("red-five", players=3)
    assert e.value.option == "players"


def test_rulesets_are_frozen_and_equal_by_value() -> None:
    rs = ruleset("tractor", {"throw_penalty": 10})
    assert isinstance(rs, RuleSet)
    with pytest.raises(AttributeError):
        rs.throw_penalty = 5  # type: ignore[misc]
    assert rs == ruleset("tractor", {"throw_penalty": 10})
    assert hash(rs) == hash(ruleset("tractor", {"throw_penalty": 10}))


@pytest.mark.parametrize(
    ("variant", "options", "option"),
    [("tractor", {"nonsense": 1}, "nonsense"),
     ("tractor", {"throw_penalty": 7}, "throw_penalty"),
     ("tractor", {"throw_penalty": True}, "throw_penalty"),
     ("tractor", {"throw_allowed": "yes"}, "throw_allowed"),
     ("chaodi", {"throw_forced": "biggest"}, "throw_forced"),
     ("tractor", {"throw_single_threat": "any"}, "throw_single_threat"),
     ("red-five", {"wrap_k3_at_ace": True}, "wrap_k3_at_ace"),
     ("tractor", {"undecided_trump": "S"}, "undecided_trump"),
     ("nope", {}, "variant")],
)
def test_bad_options_are_refused_naming_the_option(variant: str, options: dict, option: str) -> None:
    with pytest.raises(InvalidOption) as e:
        ruleset(variant, options)
    assert e.value.option == option
    assert option in str(e.value) or option == "variant"
    assert e.value.message("zh-hans")


def test_every_option_is_named_and_documented() -> None:
    assert frozenset(OPTION_SPECS) == ENGINE_OPTIONS
    doc = (__import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text("utf-8")
    for name, spec in OPTION_SPECS.items():
        assert spec.help_en and spec.help_zh
        assert f"`{name}`" in doc, name
        for v in spec.variants:
            ruleset(v, {name: spec.defaults[v]})


def test_options_override_defaults() -> None:
    assert ruleset("red-five", {"throw_allowed": True}).throw_allowed
    assert ruleset("yongzhou-300", {"must_beat_strength": "any"}).must_beat_strength == "any"
    assert ruleset("tractor", {"throw_forced": "fewest_cards"}).throw_forced == "fewest_cards"


def test_failed_throw_forces_the_lowest_component_by_default() -> None:
    """RULES §4: the default is the lowest failing component; ``fewest_cards`` is the option."""
    for v in VARIANTS:
        assert ruleset(v).throw_forced == "lowest_card"
    assert OPTION_SPECS["throw_forced"].choices == ("lowest_card", "fewest_cards")
    assert "throw_single_threat" not in ENGINE_OPTIONS
    assert not hasattr(ruleset("tractor"), "throw_single_threat")
