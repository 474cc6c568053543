"""The few card facts scoring needs: suit and level spellings.

Built on :mod:`variants` (the card vocabulary; point cards and kitty capacity are
``Variant.total_points`` / ``max_kitty_points``), not on ``gameplay``, so that ``scoring`` stays a
small pure core that can be tested on its own (RULES.md §1, §5.2).

>>> LEVELS_FROM_2[8], LEVELS_FROM_3[0]
('10', '3')
>>> normalize_level("t"), normalize_level("j")
('10', 'J')
"""

from __future__ import annotations

import variants

SUITS: tuple[str, ...] = tuple(reversed(variants.SUITS))
"""Suit letters: spades, hearts, clubs, diamonds (RULES.md §1)."""

SUIT_ALIASES: dict[str, str] = dict(variants.SUIT_ALIASES)
"""Suit spellings → letter (:data:`variants.SUIT_ALIASES`)."""

LEVELS_FROM_2: tuple[str, ...] = variants.TRACTOR.level_names
"""Levels of ``tractor``: 2 up to A."""

LEVELS_FROM_3: tuple[str, ...] = variants.CHAODI.level_names
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
