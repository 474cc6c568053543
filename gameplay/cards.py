"""Cards, notation and decks.

Internally a card is an integer *code*: ``suit * 13 + (rank - 2)`` for the 52 suited cards, with
suits in the tie-break order ♦ ♣ ♥ ♠ (D=0, C=1, H=2, S=3), then ``52`` = little joker and
``53`` = big joker. :class:`Card` wraps a code for the public API.

>>> Card.parse("S10")
Card('S10')
>>> str(Card.parse("♥t")), str(Card.parse("小王")), str(Card.parse("bj"))
('H10', 'LJ', 'BJ')
>>> format_cards(parse_cards("♠9 s8 S8 ♠4, S4"))
'S9 S8 S8 S4 S4'
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gameplay.errors import InvalidCards
from variants import RANK_NAMES, SUIT_ALIASES, SUITS
from variants import SUIT_NAMES_EN as SUIT_NAMES_EN
from variants import SUIT_NAMES_ZH as SUIT_NAMES_ZH
from variants import SUIT_SYMBOLS as SUIT_SYMBOLS

RANK_VALUES = {v: k for k, v in RANK_NAMES.items()} | {"T": 10}
LJ = 52
BJ = 53
NCODES = 54

_SYMBOL_TO_LETTER = {k: v for k, v in SUIT_ALIASES.items() if len(k) == 1 and k not in SUITS}  # ♠ ♤ …
_JOKERS = {"LJ": LJ, "小王": LJ, "BJ": BJ, "大王": BJ}


def make_code(suit: int, rank: int) -> int:
    """The code of the card of suit number ``suit`` (0..3) and rank ``rank`` (2..14)."""
    return suit * 13 + rank - 2


def code_suit(code: int) -> int:
    """Suit number 0..3 (D, C, H, S), or 4 for a joker."""
    return 4 if code >= 52 else code // 13


def code_rank(code: int) -> int:
    """Rank 2..14 (A = 14); 15 for the little joker, 16 for the big joker."""
    return code - 37 if code >= 52 else code % 13 + 2


def _build_names() -> list[str]:
    names = []
    for code in range(52):
        names.append(SUITS[code // 13] + RANK_NAMES[code % 13 + 2])
    return [*names, "LJ", "BJ"]


CODE_NAMES: list[str] = _build_names()
_NAME_TO_CODE: dict[str, int] = {name: i for i, name in enumerate(CODE_NAMES)}


def parse_code(token: str) -> int:
    """Parse one card token into its code; raises :class:`InvalidCards`.

    >>> [parse_code(t) for t in ("D2", "sa", "♠A", "LJ", "大王")]
    [0, 51, 51, 52, 53]
    """
    raw = token
    tok = token.strip()
    if tok in _JOKERS:
        return _JOKERS[tok]
    tok = tok.upper()
    if tok in _JOKERS:
        return _JOKERS[tok]
    if tok and tok[0] in _SYMBOL_TO_LETTER:
        tok = _SYMBOL_TO_LETTER[tok[0]] + tok[1:]
    if len(tok) >= 2 and tok[0] in SUITS:
        rank = RANK_VALUES.get(tok[1:])
        if rank is not None:
            return make_code(SUITS.index(tok[0]), rank)
    raise InvalidCards(
        f"“{raw}” is not a card: write the suit then the rank, e.g. S10, H9, DA, ♠Q, or LJ / BJ for the jokers.",
        f"“{raw}”不是一张牌：请先写花色再写点数，例如 S10、H9、DA、♠Q；小王写 LJ，大王写 BJ。",
    )


_SPLIT = re.compile(r"[\s,;，、]+")


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a space/comma separated list (or an iterable of tokens) into codes, in order.

    >>> parse_cards("S10 ht 小王")
    [47, 34, 52]
    """
    tokens = [t for t in _SPLIT.split(text) if t] if isinstance(text, str) else list(text)
    return [parse_code(t) for t in tokens]


def format_cards(codes: Iterable[int]) -> str:
    """Canonical notation of codes, space separated, in the given order."""
    return " ".join(CODE_NAMES[c] for c in codes)


@dataclass(frozen=True, slots=True)
class Card:
    """One card (immutable). Identical cards of different decks are equal.

    >>> c = Card.parse("♦10")
    >>> c, c.suit, c.rank, c.is_joker, Card.parse(str(c)) == c
    (Card('D10'), 'D', '10', False, True)
    >>> Card.parse("LJ").suit is None
    True
    """

    code: int

    def __post_init__(self) -> None:
        if not isinstance(self.code, int) or not 0 <= self.code < NCODES:
            raise InvalidCards(f"No card has code {self.code!r}.", f"没有编号为 {self.code!r} 的牌。")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card: ``S10``, ``sT``, ``♠10``, ``LJ``, ``小王`` … (case-insensitive)."""
        return cls(parse_code(token))

    @classmethod
    def of(cls, suit: str, rank: str | int) -> Card:
        """The card of a suit letter and a rank (``Card.of("S", 10)``)."""
        r = rank if isinstance(rank, int) else RANK_VALUES[str(rank).upper()]
        return cls(make_code(SUITS.index(suit.upper()), r))

    @property
    def suit(self) -> str | None:
        """Suit letter S/H/C/D, or None for a joker."""
        return None if self.code >= 52 else SUITS[self.code // 13]

    @property
    def rank(self) -> str:
        """Rank as written: "2".."10", "J", "Q", "K", "A", "LJ" or "BJ"."""
        return CODE_NAMES[self.code] if self.code >= 52 else RANK_NAMES[self.code % 13 + 2]

    @property
    def is_joker(self) -> bool:
        return self.code >= 52

    def __str__(self) -> str:
        return CODE_NAMES[self.code]

    def __repr__(self) -> str:
        return f"Card('{CODE_NAMES[self.code]}')"


# ---------------------------------------------------------------- decks and multisets


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: the same permutation from the same generator state, a third faster
    (CPython's algorithm with its bounded draws inlined; ``tests/gameplay/test_cards.py`` compares the
    two). A generator of another class than ``random.Random`` shuffles by its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def deck_codes(decks: int = 2, removed_ranks: Iterable[int] = ()) -> list[int]:
    """All cards of ``decks`` decks (jokers included) without ``removed_ranks``, as codes.

    >>> len(deck_codes(2)), len(deck_codes(3)), len(deck_codes(2, (3, 4, 6)))
    (108, 162, 84)
    """
    removed = tuple(sorted(set(removed_ranks)))
    key = (decks, removed)
    one = _DECKS.get(key)
    if one is None:
        one = _DECKS[key] = tuple(c for c in range(NCODES) if c >= 52 or code_rank(c) not in removed) * decks
    return list(one)


_DECKS: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
"""Each deck's codes by (decks, removed ranks), built once (:func:`deck_codes` returns a fresh list)."""


def to_counts(codes: Iterable[int]) -> list[int]:
    """A multiset of codes as a list of 54 counts."""
    counts = [0] * NCODES
    for c in codes:
        counts[c] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[int]:
    """The codes of a count list, ascending."""
    out: list[int] = []
    for c, k in enumerate(counts):
        if k:
            out.extend([c] * k)
    return out


def contains(counts: Sequence[int], codes: Iterable[int]) -> bool:
    """Whether the multiset ``counts`` holds every card of ``codes`` (with multiplicity)."""
    need: dict[int, int] = {}
    for c in codes:
        need[c] = need.get(c, 0) + 1
    return all(counts[c] >= k for c, k in need.items())


def missing(counts: Sequence[int], codes: Iterable[int]) -> list[int]:
    """Codes of ``codes`` that the multiset ``counts`` cannot supply (with multiplicity)."""
    left = list(counts)
    out = []
    for c in codes:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out
