"""The four rule variants as data: the floor that the engine, scoring and tournaments stand on.

One frozen :class:`Variant` per variant, built once here and passed around. Code asks it
(``variant.kitty_size(decks)``, ``variant.declaring``, ``variant.partnership``) instead of
comparing names. Card vocabulary (suits, their symbols and names, ranks, levels) is defined
here once too. Pure Python: no Django, nothing else of the project.

>>> v = get("chaodi")
>>> v.key, v.declaring, v.partnership, v.kitty_size(2, 4), v.first_level
('chaodi', <LevelCardAndJokerDeclaring 'level_card_and_joker'>, True, 8, 3)
>>> get("red-five").kitty_size(3, 4), get("yongzhou-300").deck_size(2, 3)
(6, 84)
>>> [v.key for v in VARIANTS.values()]
['tractor', 'chaodi', 'red-five', 'yongzhou-300']
>>> level_name(14), level_rank("10")
('A', 10)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from variants.behaviour import (
    BiddingDeclaring,
    ChaodiOrder,
    Declaring,
    LevelCardAndJokerDeclaring,
    LevelCardDeclaring,
    LevelsSettlement,
    RedFiveOrder,
    RedFiveSettlement,
    Settlement,
    TensDeclaring,
    TractorOrder,
    TrumpOrder,
    YongzhouOrder,
    YongzhouSettlement,
)

# -- card vocabulary -------------------------------------------------------------------------------

SUITS = "DCHS"
"""Suit letters in suit order (♦, ♣, ♥, ♠): the order that breaks ties between equal-tier cards."""
SUIT_SYMBOLS: Mapping[str, str] = MappingProxyType({"D": "♦", "C": "♣", "H": "♥", "S": "♠"})
SUIT_NAMES_EN: Mapping[str, str] = MappingProxyType({"D": "diamonds", "C": "clubs", "H": "hearts", "S": "spades"})
SUIT_NAMES_ZH: Mapping[str, str] = MappingProxyType({"D": "方块", "C": "梅花", "H": "红桃", "S": "黑桃"})
SUIT_ALIASES: Mapping[str, str] = MappingProxyType(
    {letter: letter for letter in SUITS}
    | {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
    | {"♢": "D", "♧": "C", "♡": "H", "♤": "S"}
    | {name: letter for letter, name in SUIT_NAMES_ZH.items()}
    | {"方片": "D", "草花": "C"})
"""Every accepted spelling of a suit (letter, symbol, hollow symbol, Chinese name) → its letter."""
RANK_NAMES: Mapping[int, str] = MappingProxyType(
    {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
     11: "J", 12: "Q", 13: "K", 14: "A"})
LEVEL_NAMES: tuple[str, ...] = tuple(RANK_NAMES.values())
"""Every level a match can be at, lowest first: ``2`` … ``A``."""
RANK_POINTS: Mapping[int, int] = MappingProxyType({5: 5, 10: 10, 13: 10})
"""Point values of the suited point cards (5, 10, K) in every variant (RULES §1)."""


def level_name(rank: int) -> str:
    """The printed name of a level given as a rank (A = 14)."""
    return RANK_NAMES[rank]


def level_rank(name: str) -> int:
    """The rank of a level given by its printed name (``"A"`` → 14); raises ``KeyError``."""
    return _RANK_OF_NAME[name]


_RANK_OF_NAME = {v: k for k, v in RANK_NAMES.items()}


# -- the variant -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Variant:
    """The structural facts of one variant. Options with defaults are layered on top of these."""

    key: str
    name_en: str
    name_zh: str
    seed: str
    """The seed text the variant comes from, in words (docs/rules.md)."""
    decks: tuple[int, ...]
    """Allowed numbers of decks; the first is the default."""
    players: tuple[int, ...]
    """Allowed numbers of players; the first is the default."""
    removed_ranks: tuple[int, ...]
    levels: tuple[int, ...]
    """Playable levels as ranks (A = 14), lowest first; empty without levels."""
    partnership: bool
    """Two fixed teams of two (True) or every player for themselves."""
    trump_order: TrumpOrder
    """Which cards are trump and which trumps chain into tractors (RULES §2, §3)."""
    declaring: Declaring
    """How trump and the dealer are chosen (RULES §5.1, §5.3)."""
    settlement: Settlement
    """How a hand's result is scored (RULES §6)."""
    throws: bool
    """Whether throws (甩牌) exist in this variant at all (RULES §3)."""
    joker_points: tuple[int, int] = (0, 0)
    """Point values of the little and the big joker (yongzhou-300: 20 and 30)."""
    always_trump: bool = False
    """Whether every hand has a trump suit (red five: no-trump hands do not exist)."""
    dealer_is_declarer: bool = False
    """Whether the "dealer" seat is simply whoever declared (yongzhou-300: may be nobody)."""
    kitty: bool = True
    """Whether the hand has a kitty (yongzhou-300 deals every card)."""
    options_from: str = ""
    """The key of the variant whose rule-option defaults a new variant takes (``variants.options``
    gives defaults per variant key) until the option table gives it its own; empty: its own key."""

    def __str__(self) -> str:
        return self.key

    @property
    def has_levels(self) -> bool:
        return bool(self.levels)

    @property
    def options_key(self) -> str:
        """The key the option table (``variants.options``) keeps this variant's defaults under."""
        return self.options_from or self.key

    @property
    def first_level(self) -> int | None:
        return self.levels[0] if self.levels else None

    @property
    def default_decks(self) -> int:
        return self.decks[0]

    @property
    def default_players(self) -> int:
        return self.players[0]

    @property
    def variable_decks(self) -> bool:
        """Whether the number of decks is a choice (red five: 2 or 3)."""
        return len(self.decks) > 1

    @property
    def variable_players(self) -> bool:
        """Whether the number of players is a choice (yongzhou-300: 3 or 4)."""
        return len(self.players) > 1

    @property
    def first_level_name(self) -> str | None:
        """The printed first level (``"2"``, chaodi ``"3"``), None without levels."""
        return RANK_NAMES[self.levels[0]] if self.levels else None

    @property
    def level_names(self) -> tuple[str, ...]:
        """Playable levels as printed names, lowest first; empty without levels."""
        return tuple(RANK_NAMES[rank] for rank in self.levels)

    def size_label(self, decks: int, players: int) -> tuple[str, str] | None:
        """(English, Chinese) words for the count that varies (decks or players), None if none does.

        >>> get("red-five").size_label(3, 4), get("tractor").size_label(2, 4)
        (('3 decks', '3副牌'), None)
        """
        if self.variable_decks:
            return f"{decks} decks", f"{decks}副牌"
        if self.variable_players:
            return f"{players} players", f"{players}人"
        return None

    def seats(self, players: int) -> tuple[int, ...]:
        """The seat numbers of a table of ``players``, in playing order."""
        return tuple(range(players))

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Who plays together: two partnerships (seats 0+2, 1+3) or every seat alone.

        >>> get("tractor").teams(4), get("yongzhou-300").teams(3)
        (((0, 2), (1, 3)), ((0,), (1,), (2,)))
        """
        if self.partnership:
            return tuple(tuple(s for s in range(players) if s % 2 == side) for side in (0, 1))
        return tuple((s,) for s in range(players))

    def card_points(self, decks: int) -> tuple[int, ...]:
        """The point value of every point card in the cards of a hand with ``decks`` decks."""
        values: list[int] = []
        for _ in range(decks):
            for _suit in SUITS:
                values += [pts for rank, pts in RANK_POINTS.items() if rank not in self.removed_ranks]
            values += [pts for pts in self.joker_points if pts]
        return tuple(values)

    def total_points(self, decks: int, players: int) -> int:
        """Points in the cards of one hand: 200 (2 decks), 300 (3 decks; yongzhou-300).

        >>> get("tractor").total_points(2, 4), get("red-five").total_points(3, 4), get("yongzhou-300").total_points(2, 3)
        (200, 300, 300)
        """
        return sum(self.card_points(decks))

    def max_kitty_points(self, decks: int, players: int) -> int:
        """The most points the kitty can hold: its size in the highest point cards (2 decks: 80)."""
        return sum(sorted(self.card_points(decks), reverse=True)[:self.kitty_size(decks, players)])

    def card_point_value(self, rank: int) -> int:
        """Points of a card by rank (jokers: 15 little, 16 big)."""
        if rank >= 15:
            return self.joker_points[rank - 15]
        return RANK_POINTS.get(rank, 0)

    def deck_size(self, decks: int, players: int) -> int:
        return (54 - 4 * len(self.removed_ranks)) * decks

    def kitty_size(self, decks: int, players: int) -> int:
        if not self.kitty:
            return 0
        return 6 if decks == 3 else 8

    def hand_size(self, decks: int, players: int) -> int:
        return (self.deck_size(decks, players) - self.kitty_size(decks, players)) // players


TRACTOR = Variant(
    key="tractor", name_en="Tractor", name_zh="拖拉机", seed="seed 003 (拖拉机)",
    decks=(2,), players=(4,), removed_ranks=(), levels=tuple(range(2, 15)), partnership=True,
    trump_order=TractorOrder(), declaring=LevelCardDeclaring(), settlement=LevelsSettlement(),
    throws=True,
)
CHAODI = Variant(
    key="chaodi", name_en="Chaodi", name_zh="炒地皮", seed="seed 001 (炒地皮)",
    decks=(2,), players=(4,), removed_ranks=(), levels=tuple(range(3, 15)), partnership=True,
    trump_order=ChaodiOrder(), declaring=LevelCardAndJokerDeclaring(), settlement=LevelsSettlement(),
    throws=True,
)
RED_FIVE = Variant(
    key="red-five", name_en="Red five", name_zh="红五", seed="seed 002 (红五)",
    decks=(2, 3), players=(4,), removed_ranks=(), levels=(), partnership=False,
    trump_order=RedFiveOrder(), declaring=BiddingDeclaring(), settlement=RedFiveSettlement(),
    throws=False, always_trump=True,
)
YONGZHOU = Variant(
    key="yongzhou-300", name_en="Yongzhou 300", name_zh="永州三百分", seed="seed 000 (永州三百分)",
    decks=(2,), players=(4, 3), removed_ranks=(3, 4, 6), levels=(), partnership=False,
    trump_order=YongzhouOrder(), declaring=TensDeclaring(), settlement=YongzhouSettlement(),
    throws=False, joker_points=(20, 30), dealer_is_declarer=True, kitty=False,
)

_REGISTRY: dict[str, Variant] = {v.key: v for v in (TRACTOR, CHAODI, RED_FIVE, YONGZHOU)}
VARIANTS: Mapping[str, Variant] = MappingProxyType(_REGISTRY)
"""Every variant by key, in the order pages list them (a read-only view: :func:`register` adds one)."""
VARIANT_KEYS: tuple[str, ...] = tuple(VARIANTS)
PARTNERSHIP_KEYS: tuple[str, ...] = tuple(v.key for v in VARIANTS.values() if v.partnership)
"""Keys of the variants played by two fixed partnerships (tractor, chaodi)."""


class UnknownVariant(ValueError):
    def __init__(self, key: object) -> None:
        self.key = key
        super().__init__(f"Unknown variant {key!r}: use one of {', '.join(VARIANT_KEYS)}.")
        self.message_zh = f"未知玩法 {key!r}：可用 {', '.join(VARIANT_KEYS)}。"


def get(key: str | Variant) -> Variant:
    """The variant of ``key`` (a variant passes through); raises :class:`UnknownVariant`."""
    if isinstance(key, Variant):
        return key
    try:
        return VARIANTS[key]
    except (KeyError, TypeError):
        raise UnknownVariant(key) from None


def register(variant: Variant) -> Variant:
    """Make ``variant`` known by its key to :func:`get` (and so to the engine, scoring and logs):
    a variant that is not one of the four presets, such as one composed from their behaviour
    objects. Refuses a key in use by another variant."""
    known = _REGISTRY.get(variant.key)
    if known is not None and known is not variant:
        raise ValueError(f"Variant key {variant.key!r} is already in use.")
    _REGISTRY[variant.key] = variant
    return variant


def unregister(key: str) -> None:
    """Forget a variant added by :func:`register` (the four presets stay)."""
    if key in VARIANT_KEYS:
        raise ValueError(f"{key!r} is a preset and stays.")
    _REGISTRY.pop(key, None)
