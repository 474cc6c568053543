"""The few card facts scoring needs: suits, level orders, point cards, kitty capacity.

Defined here rather than imported from ``gameplay`` so that ``scoring`` stays a small pure core
that can be tested on its own (RULES.md §1, §5.2).

>>> LEVELS_FROM_2[8], LEVELS_FROM_3[0]
('10', '3')
>>> normalize_level("t"), normalize_level("j")
('10', 'J')
>>> max_kitty_points(variant="tractor", decks=2, kitty_cards=8)
80
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("S", "H", "C", "D")
"""Suit letters: spades, hearts, clubs, diamonds (RULES.md §1)."""

SUIT_ALIASES: dict[str, str] = {
    "S": "S",
    "♠": "S",
    "♤": "S",
    "H": "H",
    "♥": "H",
    "♡": "H",
    "C": "C",
    "♣": "C",
    "♧": "C",
    "D": "D",
    "♦": "D",
    "♢": "D",
    "黑桃": "S",
    "红桃": "H",
    "梅花": "C",
    "草花": "C",
    "方块": "D",
    "方片": "D",
}

LEVELS_FROM_2: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Levels of ``tractor``: 2 up to A."""

LEVELS_FROM_3: tuple[str, ...] = LEVELS_FROM_2[1:]
"""Levels of ``chaodi``: 3 up to A (2 is a permanent trump there)."""

RANKS: tuple[str, ...] = LEVELS_FROM_2


def normalize_level(text: str) -> str | None:
    """Return the canonical spelling of a level (``"T"``/``"t"`` → ``"10"``, ``"j"`` → ``"J"``), or None.

    >>> normalize_level("a"), normalize_level("1"), normalize_level(" 10 ")
    ('A', None, '10')
    """
    value = text.strip().upper()
    if value == "T":
        value = "10"
    return value if value in LEVELS_FROM_2 else None


def normalize_suit(text: str) -> str | None:
    """Return the suit letter for ``text`` (letter, symbol or Chinese name, any case), or None.

    >>> normalize_suit("c"), normalize_suit("♥"), normalize_suit("方片"), normalize_suit("X")
    ('C', 'H', 'D', None)
    """
    value = text.strip()
    return SUIT_ALIASES.get(value.upper(), SUIT_ALIASES.get(value))


def _deck_points(variant: str, decks: int) -> list[int]:
    """Point value of every point card in the cards used by ``variant`` with ``decks`` decks."""
    values: list[int] = []
    for _ in range(decks):
        for _suit in SUITS:
            values += [5, 10, 10]  # 5, 10, K
        if variant == "yongzhou-300":
            values += [20, 30]  # LJ, BJ
    return values


def deck_total_points(variant: str, decks: int) -> int:
    """Total points in the cards of a hand (RULES.md §1): 200 for 2 decks, 300 for 3, yongzhou 300.

    >>> deck_total_points("tractor", 2), deck_total_points("red-five", 3), deck_total_points("yongzhou-300", 2)
    (200, 300, 300)
    """
    return sum(_deck_points(variant, decks))


def max_kitty_points(*, variant: str, decks: int, kitty_cards: int) -> int:
    """The most points a kitty of ``kitty_cards`` cards can hold: the highest point cards of the deck.

    >>> max_kitty_points(variant="red-five", decks=3, kitty_cards=6)
    60
    >>> max_kitty_points(variant="tractor", decks=2, kitty_cards=0)
    0
    """
    values = sorted(_deck_points(variant, decks), reverse=True)
    return sum(values[:kitty_cards])
