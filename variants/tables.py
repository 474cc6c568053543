"""The scoring tables that options hold: the level table (RULES §6.1, §6.2) and red five's game-point table (§6.3).

Pure data with validation, here so that :mod:`variants.options` can name them as defaults;
``scoring.rules`` re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

BandSide = Literal["dealer", "attackers"]


def is_int(value: object) -> bool:
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
            if not is_int(band.lowest) or not is_int(band.gain) or band.side not in ("dealer", "attackers"):
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
        if self.zero is not None and (not is_int(self.zero) or self.zero < 0):
            return "zero must be a whole number of levels (at least 0) or null"
        if self.step is not None and (not is_int(self.step) or self.step <= 0 or self.step % 5):
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
            if not is_int(lowest) or not is_int(gain) or side not in ("dealer", "attackers"):
                raise ValueError(
                    'each band is [whole number of points, "dealer" or "attackers", whole number of levels]'
                )
            bands.append(LevelBand(lowest, side, gain))
        zero = value.get("zero", 3)
        step = value.get("step", 20)
        if zero is not None and not is_int(zero):
            raise ValueError("zero must be a whole number of levels or null")
        if step is not None and not is_int(step):
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
            if band.highest is not None and (not is_int(band.highest) or band.highest % 5):
                return "bounds must be multiples of 5"
            if not is_int(band.dealer) or band.dealer % 3:
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
            if (highest is not None and not is_int(highest)) or not is_int(dealer):
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
