"""Rule sets: one frozen object per variant, built from named options with defaults.

>>> rs = ruleset("tractor")
>>> rs.variant, rs.decks, rs.players, rs.throw_allowed, rs.throw_penalty
('tractor', 2, 4, True, 0)
>>> ruleset("red-five", decks=3).kitty_size
6
>>> ruleset("tractor", {"throw_penalty": 10}).throw_penalty
10
>>> ruleset("tractor", {"throw_penalty": -5})
Traceback (most recent call last):
...
gameplay.errors.InvalidOption: Option “throw_penalty”: must be a multiple of 5 between 0 and 100, got -5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import variants
from gameplay.errors import InvalidOption
from variants import Variant
from variants.options import ENGINE_OPTIONS, OPTIONS, Kind, MustBeatStrength, OptionSpec, Scope, ThrowForced

VARIANTS = variants.VARIANT_KEYS
ALL = frozenset(VARIANTS)

OPTION_SPECS: dict[str, OptionSpec] = {name: spec for name, spec in OPTIONS.items() if spec.scope is Scope.ENGINE}
"""The engine's options (names, kinds, per-variant defaults): the engine part of :data:`variants.options.OPTIONS`."""

__all__ = ["ALL", "ENGINE_OPTIONS", "OPTION_SPECS", "VARIANTS", "OptionSpec", "RuleSet", "ruleset"]


@dataclass(frozen=True)
class RuleSet:
    """The rules of one variant with its options resolved. Build with :func:`ruleset`."""

    variant: str
    """The variant's key (what JSON carries); :attr:`spec` is the :class:`variants.Variant` itself."""
    decks: int
    players: int
    options: Mapping[str, Any] = field(repr=False, hash=False)
    throw_allowed: bool
    throw_forced: ThrowForced
    throw_penalty: int
    wrap_k3_at_ace: bool
    must_beat_on_points: bool
    must_beat_strength: MustBeatStrength
    no_gifting_points: bool
    spec: Variant = field(repr=False, compare=False, hash=False)

    @property
    def has_levels(self) -> bool:
        return self.spec.has_levels

    @property
    def removed_ranks(self) -> tuple[int, ...]:
        return self.spec.removed_ranks

    @property
    def deck_size(self) -> int:
        return self.spec.deck_size(self.decks, self.players)

    @property
    def kitty_size(self) -> int:
        return self.spec.kitty_size(self.decks, self.players)

    @property
    def hand_size(self) -> int:
        return (self.deck_size - self.kitty_size) // self.players

    @property
    def max_width(self) -> int:
        """Copies of each card: 2, or 3 with three decks (triples exist)."""
        return self.decks

    @property
    def total_points(self) -> int:
        return self.spec.total_points(self.decks, self.players)

    @property
    def levels(self) -> tuple[int, ...]:
        """Playable levels as ranks (A = 14); empty without levels."""
        return self.spec.levels

    def option(self, name: str) -> Any:
        return self.options[name]


def _check_value(spec: OptionSpec, value: Any) -> Any:
    name = spec.name
    if spec.kind is Kind.BOOL:
        if not isinstance(value, bool):
            raise InvalidOption(name, f"Option “{name}”: must be true or false, got {value!r}.",
                                f"选项“{name}”：必须为 true 或 false，而不是 {value!r}。")
        return value
    if spec.kind is Kind.CHOICE:
        if not isinstance(value, str) or value not in spec.choices:
            allowed = ", ".join(spec.choices)
            raise InvalidOption(name, f"Option “{name}”: must be one of {allowed}, got {value!r}.",
                                f"选项“{name}”：必须是 {allowed} 之一，而不是 {value!r}。")
        return spec.coerce(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 100 or value % 5:
        raise InvalidOption(name, f"Option “{name}”: must be a multiple of 5 between 0 and 100, got {value!r}.",
                            f"选项“{name}”：必须是0到100之间5的倍数，而不是 {value!r}。")
    return value


def ruleset(variant: str, options: Mapping[str, Any] | None = None, *,
            decks: int | None = None, players: int | None = None) -> RuleSet:
    """Build the rule set of ``variant`` with ``options`` overriding the preset's defaults.

    ``decks`` applies to red-five (2 or 3), ``players`` to yongzhou-300 (3 or 4); other variants
    accept only their fixed values. Raises :class:`InvalidOption` naming the offending option
    ("variant", "decks" and "players" are named like options).
    """
    try:
        spec = variants.get(variant)
    except variants.UnknownVariant as error:
        raise InvalidOption("variant", str(error), error.message_zh) from None
    if decks is None:
        decks = spec.default_decks
    if players is None:
        players = spec.default_players
    allowed_decks = spec.decks
    if isinstance(decks, bool) or decks not in allowed_decks:
        raise InvalidOption("decks", f"{variant} is played with {' or '.join(map(str, allowed_decks))} decks, not {decks!r}.",
                            f"{variant} 使用 {' 或 '.join(map(str, allowed_decks))} 副牌，不能是 {decks!r}。")
    allowed_players = tuple(sorted(spec.players))
    if isinstance(players, bool) or players not in allowed_players:
        raise InvalidOption("players", f"{variant} is played by {' or '.join(map(str, allowed_players))} players, not {players!r}.",
                            f"{variant} 的人数为 {' 或 '.join(map(str, allowed_players))}，不能是 {players!r}。")
    resolved: dict[str, Any] = {}
    for name, opt in OPTION_SPECS.items():
        if opt.applies_to(spec):
            resolved[name] = opt.default(spec, decks=decks, players=players)
    for name, value in (options or {}).items():
        spec_opt = OPTION_SPECS.get(name)
        if spec_opt is None:
            raise InvalidOption(name, f"Unknown option “{name}”.", f"未知选项“{name}”。")
        if not spec_opt.applies_to(spec):
            raise InvalidOption(name, f"Option “{name}” does not apply to {variant}.",
                                f"选项“{name}”不适用于 {variant}。")
        resolved[name] = _check_value(spec_opt, value)
    return RuleSet(
        variant=spec.key, decks=decks, players=players, options=dict(resolved),
        throw_allowed=resolved["throw_allowed"], throw_forced=resolved["throw_forced"],
        throw_penalty=resolved["throw_penalty"], wrap_k3_at_ace=resolved.get("wrap_k3_at_ace", False),
        must_beat_on_points=resolved["must_beat_on_points"],
        must_beat_strength=resolved["must_beat_strength"],
        no_gifting_points=resolved["no_gifting_points"], spec=spec,
    )


PRESETS: dict[str, RuleSet] = {v: ruleset(v) for v in VARIANTS}
"""The four seed variants with default options (red-five with 2 decks, yongzhou-300 with 4 players)."""
