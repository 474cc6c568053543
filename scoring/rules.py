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

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scoring.cards import LEVELS_FROM_2, LEVELS_FROM_3, deck_total_points, max_kitty_points, normalize_level
from scoring.errors import Problems

TRACTOR = "tractor"
CHAODI = "chaodi"
RED_FIVE = "red-five"
YONGZHOU = "yongzhou-300"
VARIANTS: tuple[str, ...] = (TRACTOR, CHAODI, RED_FIVE, YONGZHOU)
PARTNERSHIP_VARIANTS: frozenset[str] = frozenset({TRACTOR, CHAODI})

BandSide = Literal["dealer", "attackers"]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------------
# Level table (tractor §6.1, chaodi §6.2)


@dataclass(frozen=True)
class LevelBand:
    """From ``lowest`` attackers' points up to the next band: ``side`` goes up ``gain`` levels.

    A band of the attackers' side means the attackers become the dealer side (``gain`` may be 0).
    """

    lowest: int
    side: BandSide
    gain: int


@dataclass(frozen=True)
class LevelLookup:
    """Which part of the level table applied to an attackers' total."""

    side: BandSide
    gain: int
    """Levels gained: the band's gain plus ``extra_levels``."""
    zero_window: bool
    band_lowest: int
    band_highest: int | None
    """Highest total of the band (before the "every further ``step``" levels); None if open."""
    band_gain: int
    extra_levels: int


@dataclass(frozen=True)
class LevelTable:
    """The level table: a zero window, bands, and "every further ``step`` points one more level".

    >>> STANDARD_LEVEL_TABLE.lookup(0).gain, STANDARD_LEVEL_TABLE.lookup(35).gain
    (3, 2)
    >>> lookup = STANDARD_LEVEL_TABLE.lookup(185)
    >>> lookup.side, lookup.gain, lookup.band_gain, lookup.extra_levels
    ('attackers', 5, 3, 2)
    >>> STANDARD_LEVEL_TABLE.takeover
    80
    """

    bands: tuple[LevelBand, ...]
    zero: int | None = 3
    """Levels the dealer side goes up when the attackers score exactly 0; None: no zero window."""
    step: int | None = 20
    """After the last band's lowest total, every further ``step`` points one more level; None: none."""

    def __post_init__(self) -> None:
        reason = self._problem()
        if reason:
            raise ValueError(reason)

    def _problem(self) -> str | None:
        if not self.bands:
            return "bands is empty"
        if self.bands[0].lowest != 0:
            return "the first band must start at 0"
        previous: LevelBand | None = None
        for band in self.bands:
            if not _is_int(band.lowest) or not _is_int(band.gain) or band.side not in ("dealer", "attackers"):
                return (
                    'each band is [whole number of points, "dealer" or "attackers", whole number of levels]'
                )
            if band.lowest % 5 or band.gain < 0:
                return "lowest points must be multiples of 5 and gains at least 0"
            if previous is not None:
                if band.lowest <= previous.lowest:
                    return "lowest points must rise from band to band"
                if previous.side == "attackers" and band.side == "dealer":
                    return "dealer bands must come before attacker bands"
                if previous.side == band.side == "dealer" and band.gain > previous.gain:
                    return "dealer gains must not rise as the attackers score more"
                if previous.side == band.side == "attackers" and band.gain < previous.gain:
                    return "attacker gains must not fall as the attackers score more"
            previous = band
        if self.bands[0].side != "dealer" or self.bands[-1].side != "attackers":
            return "the table needs dealer bands first and at least one attackers band"
        if self.zero is not None and (not _is_int(self.zero) or self.zero < 0):
            return "zero must be a whole number of levels (at least 0) or null"
        if self.step is not None and (not _is_int(self.step) or self.step <= 0 or self.step % 5):
            return "step must be a positive multiple of 5 or null"
        return None

    @property
    def takeover(self) -> int:
        """The lowest attackers' total at which the attackers become the dealer side (80 by default)."""
        return next(band.lowest for band in self.bands if band.side == "attackers")

    def lookup(self, total: int) -> LevelLookup:
        """Apply the table to an attackers' total (any total ≥ 0)."""
        if total == 0 and self.zero is not None:
            return LevelLookup("dealer", self.zero, True, 0, 0, self.zero, 0)
        index = max(i for i, band in enumerate(self.bands) if band.lowest <= total)
        band = self.bands[index]
        last = index == len(self.bands) - 1
        lowest = 5 if band.lowest == 0 and self.zero is not None else band.lowest
        highest: int | None
        if last:
            highest = band.lowest + self.step - 5 if self.step else None
        else:
            highest = self.bands[index + 1].lowest - 5
        extra = (total - band.lowest) // self.step if last and self.step else 0
        return LevelLookup(band.side, band.gain + extra, False, lowest, highest, band.gain, extra)

    def to_json(self) -> dict[str, Any]:
        return {
            "zero": self.zero,
            "bands": [[band.lowest, band.side, band.gain] for band in self.bands],
            "step": self.step,
        }

    @classmethod
    def from_json(cls, value: object) -> LevelTable:
        """Build from ``"standard"``, a ``LevelTable`` or ``{"zero", "bands", "step"}``; ValueError(reason)."""
        if isinstance(value, LevelTable):
            return value
        if value == "standard":
            return STANDARD_LEVEL_TABLE
        if not isinstance(value, Mapping):
            raise ValueError("not a table")
        unknown = set(value) - {"zero", "bands", "step"}
        if unknown:
            raise ValueError("unknown keys " + ", ".join(sorted(map(str, unknown))))
        raw_bands = value.get("bands")
        if not isinstance(raw_bands, (list, tuple)):
            raise ValueError("bands must be a list")
        bands: list[LevelBand] = []
        for raw in raw_bands:
            if not isinstance(raw, (list, tuple)) or len(raw) != 3:
                raise ValueError("each band is [lowest points, side, levels]")
            lowest, side, gain = raw
            if not _is_int(lowest) or not _is_int(gain) or side not in ("dealer", "attackers"):
                raise ValueError(
                    'each band is [whole number of points, "dealer" or "attackers", whole number of levels]'
                )
            bands.append(LevelBand(lowest, side, gain))
        zero = value.get("zero", 3)
        step = value.get("step", 20)
        if zero is not None and not _is_int(zero):
            raise ValueError("zero must be a whole number of levels or null")
        if step is not None and not _is_int(step):
            raise ValueError("step must be a whole number of points or null")
        return cls(tuple(bands), zero, step)


STANDARD_LEVEL_TABLE = LevelTable(
    bands=(
        LevelBand(0, "dealer", 2),
        LevelBand(40, "dealer", 1),
        LevelBand(80, "attackers", 0),
        LevelBand(100, "attackers", 1),
        LevelBand(120, "attackers", 2),
        LevelBand(140, "attackers", 3),
    ),
    zero=3,
    step=20,
)
"""Seed 003's table (2 decks): 0 → dealer +3; 5–35 +2; 40–75 +1; 80–95 take over; 100–115 +1; … every 20 one more."""


# --------------------------------------------------------------------------------------------
# Kitty multiplier


class KittyMultiplier(enum.StrEnum):
    """How the kitty's points multiply when the attackers win the last trick.

    ``largest`` is the number of cards of the largest component of the winning play.
    """

    POWER_OF_TWO = "power_of_two"
    """tractor: 2^largest (single 2, pair 4, 2-pair tractor 16, 3-pair tractor 64)."""
    BY_CARDS = "by_cards"
    """chaodi: ×1 single, ×2 pair, ×cards for a tractor (4, 6, …) — i.e. ×largest."""
    FLAT = "flat"
    """×1 whatever the play."""
    DOUBLE = "double"
    """×2 whatever the play."""

    def multiplier(self, largest: int, cap: int | None = None) -> int:
        """The multiplier for a winning play whose largest component has ``largest`` cards.

        >>> KittyMultiplier.POWER_OF_TWO.multiplier(2), KittyMultiplier.POWER_OF_TWO.multiplier(8, cap=64)
        (4, 64)
        >>> KittyMultiplier.BY_CARDS.multiplier(1), KittyMultiplier.BY_CARDS.multiplier(6)
        (1, 6)
        """
        if self is KittyMultiplier.POWER_OF_TWO:
            value: int = 2 ** min(largest, 64)
        elif self is KittyMultiplier.BY_CARDS:
            value = largest
        elif self is KittyMultiplier.DOUBLE:
            value = 2
        else:
            value = 1
        return min(value, cap) if cap is not None else value


# --------------------------------------------------------------------------------------------
# Red-five game points (§6.3)


@dataclass(frozen=True)
class GamePointBand:
    """Dealer's final up to ``highest`` (None: any higher) → the dealer's game points."""

    highest: int | None
    dealer: int


@dataclass(frozen=True)
class GamePointLookup:
    index: int
    lowest: int | None
    """Lowest dealer's final of the band, None for the open first band."""
    highest: int | None
    dealer: int
    each_defender: int


@dataclass(frozen=True)
class GamePointTable:
    """The red-five settlement table: bands of the dealer's final; defenders share the opposite.

    >>> RED_FIVE_TABLE_2_DECKS.lookup(-20).dealer, RED_FIVE_TABLE_2_DECKS.lookup(-20).each_defender
    (-6, 2)
    >>> RED_FIVE_TABLE_3_DECKS.lookup(85).dealer
    18
    """

    bands: tuple[GamePointBand, ...]

    def __post_init__(self) -> None:
        reason = self._problem()
        if reason:
            raise ValueError(reason)

    def _problem(self) -> str | None:
        if len(self.bands) < 2:
            return "at least two bands"
        for i, band in enumerate(self.bands):
            last = i == len(self.bands) - 1
            if last != (band.highest is None):
                return "only the last bound is null"
            if band.highest is not None and (not _is_int(band.highest) or band.highest % 5):
                return "bounds must be multiples of 5"
            if not _is_int(band.dealer) or band.dealer % 3:
                return "game points must be whole numbers divisible by 3 (the three defenders share them)"
            if i and band.highest is not None:
                previous = self.bands[i - 1].highest
                if previous is not None and band.highest <= previous:
                    return "bounds must rise"
        return None

    def lookup(self, final: int) -> GamePointLookup:
        for index, band in enumerate(self.bands):
            if band.highest is None or final <= band.highest:
                previous = self.bands[index - 1].highest if index else None
                lowest = previous + 5 if previous is not None else None
                return GamePointLookup(index, lowest, band.highest, band.dealer, -band.dealer // 3)
        raise AssertionError("the last band is open")  # pragma: no cover

    def to_json(self) -> list[list[int | None]]:
        return [[band.highest, band.dealer] for band in self.bands]

    @classmethod
    def from_json(cls, value: object) -> GamePointTable:
        if isinstance(value, GamePointTable):
            return value
        if not isinstance(value, (list, tuple)):
            raise ValueError("not a list")
        bands: list[GamePointBand] = []
        for raw in value:
            if not isinstance(raw, (list, tuple)) or len(raw) != 2:
                raise ValueError("each band is [highest or null, game points]")
            highest, dealer = raw
            if (highest is not None and not _is_int(highest)) or not _is_int(dealer):
                raise ValueError("bounds and game points must be whole numbers")
            bands.append(GamePointBand(highest, dealer))
        return cls(tuple(bands))


RED_FIVE_TABLE_2_DECKS = GamePointTable(
    (
        GamePointBand(-70, -18),
        GamePointBand(-30, -12),
        GamePointBand(0, -6),
        GamePointBand(30, 6),
        GamePointBand(70, 12),
        GamePointBand(None, 18),
    )
)
RED_FIVE_TABLE_3_DECKS = GamePointTable(
    (
        GamePointBand(-80, -18),
        GamePointBand(-40, -12),
        GamePointBand(0, -6),
        GamePointBand(40, 6),
        GamePointBand(80, 12),
        GamePointBand(None, 18),
    )
)


# --------------------------------------------------------------------------------------------
# Rule sets


@dataclass(frozen=True)
class ScoringRules:
    """What every variant's rule set knows: the variant, decks, players and point facts."""

    variant: str
    decks: int
    players: int
    total_points: int
    """Points in the cards of one hand: 200 (2 decks), 300 (3 decks, yongzhou-300)."""
    kitty_cards: int
    kitty_max_points: int
    """The most points the kitty can hold (8 cards of 2 decks: 80)."""

    def to_options(self) -> dict[str, Any]:
        """Every scoring option of the variant with its value, JSON-ready."""
        return {}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the variant's preset (what a tournament needs to store)."""
        preset = scoring_rules(
            self.variant,
            decks=self.decks if self.variant == RED_FIVE else None,
            players=self.players if self.variant == YONGZHOU else None,
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
    hand_limit_tie: str
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
            "hand_limit_tie": self.hand_limit_tie,
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


HAND_LIMIT_TIES = ("dealer_side", "draw", "deciding_hand")


def _parse_hand_limit_tie(value: object, context: _Context) -> str:
    if value not in HAND_LIMIT_TIES:
        raise _OptionError("choice", choices=", ".join(HAND_LIMIT_TIES), value=value)
    return value  # type: ignore[return-value]


def _parse_partnership_mode(value: object, context: _Context) -> bool:
    mode = _parse_bool(value, context)
    if mode and context.players != 4:
        raise _OptionError("partnership_mode_players")
    return mode


_P = frozenset(PARTNERSHIP_VARIANTS)
_OPTION_PARSERS: dict[str, tuple[frozenset[str], Callable[[object, _Context], Any]]] = {
    "level_table": (_P, _parse_level_table),
    "kitty_multiplier": (_P, _parse_kitty_multiplier),
    "kitty_multiplier_cap": (_P, _parse_optional_positive),
    "target_level": (_P, _parse_level),
    "must_play_levels": (_P, _parse_level_list),
    "a_pass_conditions": (_P, _parse_bool),
    "a_failure_limit": (_P, _parse_optional_positive),
    "a_failure_reset_level": (_P, _parse_reset_level),
    "a_failures_reset_on_deal_loss": (_P, _parse_bool),
    "throw_penalties": (_P, _parse_bool),
    "hand_limit": (_P, _parse_optional_positive),
    "hand_limit_tie": (_P, _parse_hand_limit_tie),
    "bid_range": (frozenset({RED_FIVE}), _parse_pair),
    "bid_increment": (frozenset({RED_FIVE}), _parse_pair),
    "game_point_table": (frozenset({RED_FIVE}), _parse_game_point_table),
    "red_five_capture_points": (frozenset({RED_FIVE}), _parse_points),
    "red_five_capture_game_points": (frozenset({RED_FIVE}), _parse_count),
    "net_base": (frozenset({YONGZHOU}), _parse_net_base),
    "partnership_mode": (frozenset({YONGZHOU}), _parse_partnership_mode),
}

SCORING_OPTIONS: frozenset[str] = frozenset(_OPTION_PARSERS)
"""Every scoring option name (engine options in ``gameplay`` use other names)."""


def variant_options(variant: str) -> frozenset[str]:
    """The scoring options that apply to ``variant``."""
    return frozenset(name for name, (variants, _) in _OPTION_PARSERS.items() if variant in variants)


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a combined options mapping into (scoring options, the rest) by name."""
    scoring = {name: value for name, value in options.items() if name in SCORING_OPTIONS}
    rest = {name: value for name, value in options.items() if name not in SCORING_OPTIONS}
    return scoring, rest


def default_options(variant: str, *, decks: int | None = None, players: int | None = None) -> dict[str, Any]:
    """The preset's option values (Python values) for ``variant``; ``must_play_levels`` None = the target."""
    if variant == TRACTOR:
        return {
            "level_table": STANDARD_LEVEL_TABLE,
            "kitty_multiplier": KittyMultiplier.POWER_OF_TWO,
            "kitty_multiplier_cap": 64,
            "target_level": "J",
            "must_play_levels": None,
            "a_pass_conditions": False,
            "a_failure_limit": None,
            "a_failure_reset_level": None,
            "a_failures_reset_on_deal_loss": False,
            "throw_penalties": False,
            "hand_limit": None,
            "hand_limit_tie": "dealer_side",
        }
    if variant == CHAODI:
        return {
            "level_table": STANDARD_LEVEL_TABLE,
            "kitty_multiplier": KittyMultiplier.BY_CARDS,
            "kitty_multiplier_cap": None,
            "target_level": "A",
            "must_play_levels": None,
            "a_pass_conditions": True,
            "a_failure_limit": 3,
            "a_failure_reset_level": None,
            "a_failures_reset_on_deal_loss": False,
            "throw_penalties": False,
            "hand_limit": None,
            "hand_limit_tie": "dealer_side",
        }
    if variant == RED_FIVE:
        three = decks == 3
        return {
            "bid_range": (80, 300) if three else (60, 200),
            "bid_increment": (5, 15),
            "game_point_table": RED_FIVE_TABLE_3_DECKS if three else RED_FIVE_TABLE_2_DECKS,
            "red_five_capture_points": 20,
            "red_five_capture_game_points": 2,
        }
    if variant == YONGZHOU:
        return {"net_base": 300 // (players or 4), "partnership_mode": False}
    raise ValueError(f"unknown variant {variant!r}")


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
    variant: str,
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
    if not isinstance(variant, str) or variant not in VARIANTS:
        problems.add("variant", "unknown_variant", value=variant, choices=", ".join(VARIANTS))
        problems.raise_if_any(lang)
    if variant == YONGZHOU:
        if decks is not None:
            problems.add("decks", "not_applicable", variant=variant)
        used_decks: int | None = 2
        used_players = _check_count(problems, "players", players, variant, (3, 4), 4)
    else:
        allowed_decks = (2, 3) if variant == RED_FIVE else (2,)
        used_decks = _check_count(problems, "decks", decks, variant, allowed_decks, 2)
        used_players = _check_count(problems, "players", players, variant, (4,), 4)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        problems.add("options", "type_object")
        options = {}
    problems.raise_if_any(lang)
    assert used_decks is not None and used_players is not None

    levels = LEVELS_FROM_3 if variant == CHAODI else LEVELS_FROM_2
    context = _Context(variant, levels, used_players)
    applicable = variant_options(variant)
    for name in options:
        if name not in SCORING_OPTIONS:
            problems.add(f"options.{name}", "unknown_option")
        elif name not in applicable:
            problems.add(f"options.{name}", "option_not_for_variant", variant=variant)
    values = default_options(variant, decks=used_decks, players=used_players)
    for name in applicable:
        if name not in options:
            continue
        raw = options[name]
        try:
            values[name] = _OPTION_PARSERS[name][1](raw, context)
        except _OptionError as error:
            field = f"options.{name}"
            if name == "must_play_levels" and isinstance(raw, (list, tuple)):
                field = _locate_list_item(raw, context) or field
            problems.add(field, error.code, **error.params)
    problems.raise_if_any(lang)

    total = deck_total_points(variant, used_decks)
    if variant == YONGZHOU:
        return YongzhouRules(
            variant=variant,
            decks=used_decks,
            players=used_players,
            total_points=total,
            kitty_cards=0,
            kitty_max_points=0,
            net_base=values["net_base"],
            partnership_mode=values["partnership_mode"],
        )
    kitty_cards = 6 if used_decks == 3 else 8
    kitty_max = max_kitty_points(variant=variant, decks=used_decks, kitty_cards=kitty_cards)
    if variant == RED_FIVE:
        return RedFiveRules(
            variant=variant,
            decks=used_decks,
            players=used_players,
            total_points=total,
            kitty_cards=kitty_cards,
            kitty_max_points=kitty_max,
            bid_range=values["bid_range"],
            bid_increment=values["bid_increment"],
            game_point_table=values["game_point_table"],
            red_five_capture_points=values["red_five_capture_points"],
            red_five_capture_game_points=values["red_five_capture_game_points"],
        )
    target: str = values["target_level"]
    must_play: tuple[str, ...] | None = values["must_play_levels"]
    if must_play is None:
        must_play = (target,)
    must_play = tuple(sorted(set(must_play), key=levels.index))
    hand_size = (54 * used_decks - kitty_cards) // used_players
    return PartnershipRules(
        variant=variant,
        decks=used_decks,
        players=used_players,
        total_points=total,
        kitty_cards=kitty_cards,
        kitty_max_points=kitty_max,
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


def _locate_list_item(raw: list[Any] | tuple[Any, ...], context: _Context) -> str | None:
    for index, item in enumerate(raw):
        try:
            _parse_level(item, context)
        except _OptionError:
            return f"options.must_play_levels.{index}"
    return None
