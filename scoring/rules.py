"""Scoring rule sets: one frozen object per variant, built from named options with defaults.

Every threshold and table of RULES.md §6–§7 is data here, and every [decided] point is an option.
``scoring_rules`` builds and validates a rule set; an unknown option or a bad value is refused with
a ``ScoringInputError`` naming ``options.<name>``.

>>> rules = scoring_rules("tractor")
>>> rules.target_level, rules.kitty_multiplier.value, rules.kitty_multiplier_cap
('J', 'power_of_two', 64)
>>> scoring_rules("red-five", decks=3).bid_range
(80, 300)
>>> scoring_rules("chaodi", {"target_level": "K"}).must_play_levels
('K',)
>>> sorted(split_options({"target_level": "Q", "throw_policy": "strict"})[1])
['throw_policy']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import variants
from scoring.cards import normalize_level
from scoring.errors import Problems
from variants import Variant
from variants.behaviour import ByKey, LevelsSettlement, RedFiveSettlement, YongzhouSettlement
from variants.options import SCORING_OPTIONS, HandLimitTie, KittyMultiplier, Scope
from variants.options import defaults as option_defaults
from variants.options import scoring_options as variant_scoring_options
from variants.tables import (
    RED_FIVE_TABLE_2_DECKS,
    RED_FIVE_TABLE_3_DECKS,
    STANDARD_LEVEL_TABLE,
    BandSide,
    GamePointBand,
    GamePointLookup,
    GamePointTable,
    LevelBand,
    LevelLookup,
    LevelTable,
)
from variants.tables import is_int as _is_int

TRACTOR = variants.TRACTOR.key
CHAODI = variants.CHAODI.key
RED_FIVE = variants.RED_FIVE.key
YONGZHOU = variants.YONGZHOU.key
VARIANTS: tuple[str, ...] = variants.VARIANT_KEYS
PARTNERSHIP_VARIANTS: frozenset[str] = frozenset(variants.PARTNERSHIP_KEYS)

__all__ = [
    "PARTNERSHIP_VARIANTS", "RED_FIVE_TABLE_2_DECKS", "RED_FIVE_TABLE_3_DECKS", "SCORING_OPTIONS",
    "STANDARD_LEVEL_TABLE", "VARIANTS", "BandSide", "GamePointBand", "GamePointLookup", "GamePointTable",
    "HandLimitTie", "KittyMultiplier", "LevelBand", "LevelLookup", "LevelTable", "PartnershipRules",
    "RedFiveRules", "ScoringRules", "YongzhouRules", "scoring_rules", "split_options", "variant_options",
]

# --------------------------------------------------------------------------------------------
# Rule sets


@dataclass(frozen=True)
class ScoringRules:
    """What every variant's rule set knows: the variant, decks, players and point facts."""

    variant: str
    """The variant's key (what JSON carries); :attr:`spec` is the :class:`variants.Variant` itself."""
    decks: int
    players: int
    total_points: int
    """Points in the cards of one hand: 200 (2 decks), 300 (3 decks, yongzhou-300)."""
    kitty_cards: int
    kitty_max_points: int
    """The most points the kitty can hold (8 cards of 2 decks: 80)."""
    spec: Variant = field(repr=False, compare=False, hash=False, kw_only=True)

    def to_options(self) -> dict[str, Any]:
        """Every scoring option of the variant with its value, JSON-ready."""
        return {}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the variant's preset (what a tournament needs to store)."""
        preset = scoring_rules(
            self.spec,
            decks=self.decks if self.spec.variable_decks else None,
            players=self.players if self.spec.variable_players else None,
        ).to_options()
        return {name: value for name, value in self.to_options().items() if preset.get(name) != value}


@dataclass(frozen=True)
class PartnershipRules(ScoringRules):
    """``tractor`` and ``chaodi``: two fixed partnerships climbing levels (§6.1, §6.2, §7)."""

    levels: tuple[str, ...]
    level_table: LevelTable
    kitty_multiplier: KittyMultiplier
    kitty_multiplier_cap: int | None
    target_level: str
    must_play_levels: tuple[str, ...]
    a_pass_conditions: bool
    a_failure_limit: int | None
    a_failure_reset_level: str | None
    a_failures_reset_on_deal_loss: bool
    throw_penalties: bool
    hand_limit: int | None
    hand_limit_tie: HandLimitTie
    """At the hand limit with equal levels: ``dealer_side`` (§7), ``draw`` or ``deciding_hand``."""
    max_component: int
    """The most cards the largest component of a play can have (24: hands of 25, pairs only)."""

    @property
    def top_level(self) -> str:
        return self.levels[-1]

    def level_index(self, level: str) -> int:
        return self.levels.index(level)

    def to_options(self) -> dict[str, Any]:
        return {
            "level_table": self.level_table.to_json(),
            "kitty_multiplier": self.kitty_multiplier.value,
            "kitty_multiplier_cap": self.kitty_multiplier_cap,
            "target_level": self.target_level,
            "must_play_levels": list(self.must_play_levels),
            "a_pass_conditions": self.a_pass_conditions,
            "a_failure_limit": self.a_failure_limit,
            "a_failure_reset_level": self.a_failure_reset_level,
            "a_failures_reset_on_deal_loss": self.a_failures_reset_on_deal_loss,
            "throw_penalties": self.throw_penalties,
            "hand_limit": self.hand_limit,
            "hand_limit_tie": self.hand_limit_tie.value,
        }


@dataclass(frozen=True)
class RedFiveRules(ScoringRules):
    """``red-five``: one dealer against three, settled in game points (§5.3, §6.3)."""

    bid_range: tuple[int, int]
    bid_increment: tuple[int, int]
    game_point_table: GamePointTable
    red_five_capture_points: int
    red_five_capture_game_points: int

    def to_options(self) -> dict[str, Any]:
        return {
            "bid_range": list(self.bid_range),
            "bid_increment": list(self.bid_increment),
            "game_point_table": self.game_point_table.to_json(),
            "red_five_capture_points": self.red_five_capture_points,
            "red_five_capture_game_points": self.red_five_capture_game_points,
        }


@dataclass(frozen=True)
class YongzhouRules(ScoringRules):
    """``yongzhou-300``: each for themselves, net = points − base (§6.4)."""

    net_base: int
    partnership_mode: bool

    def to_options(self) -> dict[str, Any]:
        return {"net_base": self.net_base, "partnership_mode": self.partnership_mode}


# --------------------------------------------------------------------------------------------
# Options


class _OptionError(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class _Context:
    variant: str
    levels: tuple[str, ...]
    players: int


def _parse_bool(value: object, context: _Context) -> bool:
    if not isinstance(value, bool):
        raise _OptionError("type_bool")
    return value


def _parse_optional_positive(value: object, context: _Context) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or value < 1:  # type: ignore[operator]
        raise _OptionError("positive_int_or_null")
    return value  # type: ignore[return-value]


def _parse_level(value: object, context: _Context) -> str:
    if not isinstance(value, str):
        raise _OptionError("type_str")
    level = normalize_level(value)
    if level is None or level not in context.levels:
        raise _OptionError("level_invalid", value=value, variant=context.variant, first=context.levels[0])
    return level


def _parse_level_list(value: object, context: _Context) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise _OptionError("type_list")
    return tuple(_parse_level(item, context) for item in value)


def _parse_reset_level(value: object, context: _Context) -> str | None:
    if value is None:
        return None
    level = _parse_level(value, context)
    if level == context.levels[-1]:
        raise _OptionError("reset_level", value=value)
    return level


def _parse_level_table(value: object, context: _Context) -> LevelTable:
    try:
        return LevelTable.from_json(value)
    except ValueError as error:
        raise _OptionError("level_table", reason=str(error)) from None


def _parse_kitty_multiplier(value: object, context: _Context) -> KittyMultiplier:
    choices = [member.value for member in KittyMultiplier]
    if isinstance(value, str) and value in choices:
        return KittyMultiplier(value)
    raise _OptionError("choice", choices=", ".join(choices), value=value)


def _parse_pair(value: object, context: _Context) -> tuple[int, int]:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(_is_int(item) and item % 5 == 0 for item in value)
        and 0 < value[0] <= value[1]
    ):
        return (value[0], value[1])
    raise _OptionError("pair_range", value=value)


def _parse_game_point_table(value: object, context: _Context) -> GamePointTable:
    try:
        return GamePointTable.from_json(value)
    except ValueError as error:
        raise _OptionError("game_point_table", reason=str(error)) from None


def _parse_points(value: object, context: _Context) -> int:
    if not _is_int(value):
        raise _OptionError("type_int")
    if value < 0 or value % 5:  # type: ignore[operator]
        raise _OptionError("multiple_of_5", value=value)
    return value  # type: ignore[return-value]


def _parse_count(value: object, context: _Context) -> int:
    if not _is_int(value):
        raise _OptionError("type_int")
    if value < 0:  # type: ignore[operator]
        raise _OptionError("min", low=0, value=value)
    return value  # type: ignore[return-value]


def _parse_net_base(value: object, context: _Context) -> int:
    if not _is_int(value):
        raise _OptionError("type_int")
    if value * context.players != 300:  # type: ignore[operator]
        raise _OptionError("net_base_sum", value=value, players=context.players)
    return value  # type: ignore[return-value]


HAND_LIMIT_TIES = tuple(member.value for member in HandLimitTie)


def _parse_hand_limit_tie(value: object, context: _Context) -> HandLimitTie:
    if not isinstance(value, str) or value not in HAND_LIMIT_TIES:
        raise _OptionError("choice", choices=", ".join(HAND_LIMIT_TIES), value=value)
    return HandLimitTie(value)


def _parse_partnership_mode(value: object, context: _Context) -> bool:
    mode = _parse_bool(value, context)
    if mode and context.players != 4:
        raise _OptionError("partnership_mode_players")
    return mode


_PARSERS: dict[str, Callable[[object, _Context], Any]] = {
    "level_table": _parse_level_table,
    "kitty_multiplier": _parse_kitty_multiplier,
    "kitty_multiplier_cap": _parse_optional_positive,
    "target_level": _parse_level,
    "must_play_levels": _parse_level_list,
    "a_pass_conditions": _parse_bool,
    "a_failure_limit": _parse_optional_positive,
    "a_failure_reset_level": _parse_reset_level,
    "a_failures_reset_on_deal_loss": _parse_bool,
    "throw_penalties": _parse_bool,
    "hand_limit": _parse_optional_positive,
    "hand_limit_tie": _parse_hand_limit_tie,
    "bid_range": _parse_pair,
    "bid_increment": _parse_pair,
    "game_point_table": _parse_game_point_table,
    "red_five_capture_points": _parse_points,
    "red_five_capture_game_points": _parse_count,
    "net_base": _parse_net_base,
    "partnership_mode": _parse_partnership_mode,
}
"""How each scoring option's JSON value is checked; names and defaults come from :data:`variants.options.OPTIONS`."""
assert set(_PARSERS) == SCORING_OPTIONS, "every scoring option of variants.options has a parser"


def variant_options(variant: str | Variant) -> frozenset[str]:
    """The scoring options that apply to ``variant``."""
    return variant_scoring_options(variant)


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a combined options mapping into (scoring options, the rest) by name."""
    scoring = {name: value for name, value in options.items() if name in SCORING_OPTIONS}
    rest = {name: value for name, value in options.items() if name not in SCORING_OPTIONS}
    return scoring, rest


def default_options(variant: str | Variant, *, decks: int | None = None,
                    players: int | None = None) -> dict[str, Any]:
    """The preset's option values (Python values) for ``variant``; ``must_play_levels`` None = the target."""
    try:
        spec = variants.get(variant)
    except variants.UnknownVariant:
        raise ValueError(f"unknown variant {variant!r}") from None
    return option_defaults(spec, Scope.SCORING, decks=decks, players=players)


def _check_count(
    problems: Problems, name: str, value: object, variant: str, allowed: tuple[int, ...], default: int | None
) -> int | None:
    """Check ``decks``/``players``; return the value to use (None when refused)."""
    if value is None:
        if default is None:
            return None
        return default
    if not _is_int(value):
        problems.add(name, "type_int")
        return None
    if value not in allowed:
        if len(allowed) == 1:
            problems.add(name, f"{name}_fixed", variant=variant, expected=allowed[0], value=value)
        else:
            problems.add(name, "choice", choices=" or ".join(map(str, allowed)), value=value)
        return None
    assert isinstance(value, int)
    return value


def scoring_rules(
    variant: str | Variant,
    options: Mapping[str, Any] | None = None,
    *,
    decks: int | None = None,
    players: int | None = None,
    lang: str = "en",
) -> ScoringRules:
    """Build and validate the rule set of ``variant`` with ``options`` over its preset.

    ``decks``: red-five 2 (default) or 3; tractor/chaodi only 2; yongzhou-300 none.
    ``players``: yongzhou-300 3 (default) or 4; the others only 4.
    Raises ``ScoringInputError`` naming ``variant``, ``decks``, ``players`` or ``options.<name>``.
    """
    problems = Problems()
    if not isinstance(variant, (str, Variant)) or str(variant) not in variants.VARIANTS:
        problems.add("variant", "unknown_variant", value=variant, choices=", ".join(VARIANTS))
        problems.raise_if_any(lang)
    spec = variants.get(variant)
    variant = spec.key
    if not spec.settlement.accepts_decks:  # yongzhou: its deck is fixed by the removed ranks
        if decks is not None:
            problems.add("decks", "not_applicable", variant=variant)
        used_decks: int | None = spec.default_decks
    else:
        used_decks = _check_count(problems, "decks", decks, variant, spec.decks, spec.default_decks)
    used_players = _check_count(problems, "players", players, variant, tuple(sorted(spec.players)),
                                spec.default_players)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        problems.add("options", "type_object")
        options = {}
    problems.raise_if_any(lang)
    assert used_decks is not None and used_players is not None

    levels = spec.level_names or variants.LEVEL_NAMES
    context = _Context(variant, levels, used_players)
    applicable = variant_options(variant)
    for name in options:
        if name not in SCORING_OPTIONS:
            problems.add(f"options.{name}", "unknown_option")
        elif name not in applicable:
            problems.add(f"options.{name}", "option_not_for_variant", variant=variant)
    values = default_options(spec, decks=used_decks, players=used_players)
    for name in applicable:
        if name not in options:
            continue
        raw = options[name]
        try:
            values[name] = _PARSERS[name](raw, context)
        except _OptionError as error:
            field = f"options.{name}"
            if name == "must_play_levels" and isinstance(raw, (list, tuple)):
                field = _locate_list_item(raw, context) or field
            problems.add(field, error.code, **error.params)
    problems.raise_if_any(lang)
    return RULE_BUILDERS[spec.settlement](spec, values, used_decks, used_players)


def _yongzhou_rules(spec: Variant, values: dict[str, Any], decks: int, players: int) -> ScoringRules:
    return YongzhouRules(
        spec=spec,
        variant=spec.key,
        decks=decks,
        players=players,
        total_points=spec.total_points(decks, players),
        kitty_cards=spec.kitty_size(decks, players),
        kitty_max_points=spec.max_kitty_points(decks, players),
        net_base=values["net_base"],
        partnership_mode=values["partnership_mode"],
    )


def _red_five_rules(spec: Variant, values: dict[str, Any], decks: int, players: int) -> ScoringRules:
    return RedFiveRules(
        spec=spec,
        variant=spec.key,
        decks=decks,
        players=players,
        total_points=spec.total_points(decks, players),
        kitty_cards=spec.kitty_size(decks, players),
        kitty_max_points=spec.max_kitty_points(decks, players),
        bid_range=values["bid_range"],
        bid_increment=values["bid_increment"],
        game_point_table=values["game_point_table"],
        red_five_capture_points=values["red_five_capture_points"],
        red_five_capture_game_points=values["red_five_capture_game_points"],
    )


def _partnership_rules(spec: Variant, values: dict[str, Any], decks: int, players: int) -> ScoringRules:
    levels = spec.level_names or variants.LEVEL_NAMES
    target: str = values["target_level"]
    must_play: tuple[str, ...] | None = values["must_play_levels"]
    if must_play is None:
        must_play = (target,)
    must_play = tuple(sorted(set(must_play), key=levels.index))
    hand_size = spec.hand_size(decks, players)
    return PartnershipRules(
        spec=spec,
        variant=spec.key,
        decks=decks,
        players=players,
        total_points=spec.total_points(decks, players),
        kitty_cards=spec.kitty_size(decks, players),
        kitty_max_points=spec.max_kitty_points(decks, players),
        levels=levels,
        level_table=values["level_table"],
        kitty_multiplier=values["kitty_multiplier"],
        kitty_multiplier_cap=values["kitty_multiplier_cap"],
        target_level=target,
        must_play_levels=must_play,
        a_pass_conditions=values["a_pass_conditions"],
        a_failure_limit=values["a_failure_limit"],
        a_failure_reset_level=values["a_failure_reset_level"],
        a_failures_reset_on_deal_loss=values["a_failures_reset_on_deal_loss"],
        throw_penalties=values["throw_penalties"],
        hand_limit=values["hand_limit"],
        hand_limit_tie=values["hand_limit_tie"],
        max_component=hand_size - hand_size % 2,
    )


RULE_BUILDERS: ByKey[Callable[[Variant, dict[str, Any], int, int], ScoringRules]] = ByKey({
    LevelsSettlement.key: _partnership_rules,
    RedFiveSettlement.key: _red_five_rules,
    YongzhouSettlement.key: _yongzhou_rules,
})
"""The rule set each :class:`variants.Settlement` is scored by, built from the variant, its option
values, decks and players: ``RULE_BUILDERS[spec.settlement](spec, values, decks, players)``."""


def _locate_list_item(raw: list[Any] | tuple[Any, ...], context: _Context) -> str | None:
    for index, item in enumerate(raw):
        try:
            _parse_level(item, context)
        except _OptionError:
            return f"options.must_play_levels.{index}"
    return None
