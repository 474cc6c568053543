"""The order of cards in one hand's context (variant, level, trump) — RULES.md §2.

Every card is either trump (effective suit :data:`TRUMP`) or belongs to its printed suit. Each
effective suit is a list of *tiers*, lowest first; cards of one tier are equally strong. All
answers come from tables of 54 entries built once per context, indexed by card code.

>>> from gameplay.rulesets import ruleset
>>> ctx = Context(ruleset("tractor"), "10", "S")
>>> [ctx.name_tier(c) for c in ("BJ", "S10", "H10", "SA", "HA", "H2")]
[(4, 15), (4, 13), (4, 12), (4, 11), (2, 11), (2, 0)]
>>> ctx.adjacent("H10", "S10"), ctx.adjacent("H10", "C10"), ctx.is_trump("D10")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from gameplay.cards import (
    LJ,
    NCODES,
    RANK_VALUES,
    SUITS,
    Card,
    code_rank,
    code_suit,
    make_code,
    parse_code,
)
from gameplay.errors import InvalidContext
from gameplay.rulesets import RuleSet
from variants import SUIT_SYMBOLS
from variants.behaviour import TrumpCard

_SUIT_OF_SYMBOL = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}

TRUMP = 4
"""Effective suit number of trumps (side suits are 0..3 = D, C, H, S)."""

CardLike = int | str | Card


def _code(card: TrumpCard) -> int:
    """The code of a ``(suit, rank)`` pair as :mod:`variants.behaviour` names cards (jokers: suit 4)."""
    suit, rank = card
    return make_code(suit, rank) if suit < 4 else LJ + rank - 15


def _card(code: int) -> TrumpCard:
    return (code_suit(code), code_rank(code))


def to_code(card: CardLike) -> int:
    if isinstance(card, Card):
        return card.code
    if isinstance(card, str):
        return parse_code(card)
    return card


def parse_level(value: str | int | None) -> int:
    """A level rank from "2".."10", "J", "Q", "K", "A" (or an int 2..14)."""
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 14:
        return value
    if isinstance(value, str) and value.strip().upper() in RANK_VALUES:
        return RANK_VALUES[value.strip().upper()]
    raise InvalidContext("level", f"{value!r} is not a level: use 2–10, J, Q, K or A.",
                         f"{value!r} 不是级别：请用 2–10、J、Q、K 或 A。")


class Context:
    """One hand's context: answers effective suit, tier, sort key, adjacency and comparison.

    ``level`` is required for tractor and chaodi and must be None otherwise; ``trump`` is a suit
    letter or None (no trump; not allowed in red-five).
    """

    __slots__ = ("adj_up", "esuit", "extra_rules", "level", "max_width", "points", "rules", "sortkey",
                 "strength", "suit_codes", "suit_desc", "tier", "tiers", "trump", "trump_suit")

    def __init__(self, rules: RuleSet, level: str | int | None, trump: str | None) -> None:
        self.rules = rules
        if rules.has_levels:
            lv = parse_level(level)
            if lv not in rules.levels:
                raise InvalidContext("level", f"{rules.variant} has no level {level}: levels run "
                                     f"{rules.spec.first_level_name}…A.",
                                     f"{rules.variant} 没有 {level} 级：级别为 "
                                     f"{rules.spec.first_level_name}…A。")
            self.level: int | None = lv
        else:
            if level is not None:
                raise InvalidContext("level", f"{rules.variant} has no levels: leave the level out.",
                                     f"{rules.variant} 不打级别：请不要填写级别。")
            self.level = None
        if trump is not None:
            t = str(trump).strip().upper()
            t = _SUIT_OF_SYMBOL.get(t, t)
            if t not in SUITS or len(t) != 1:
                raise InvalidContext("trump", f"{trump!r} is not a trump suit: use S, H, C, D or null.",
                                     f"{trump!r} 不是主花色：请用 S、H、C、D 或 null（无主）。")
            self.trump_suit: int | None = SUITS.index(t)
            self.trump: str | None = t
        else:
            if rules.spec.always_trump:
                raise InvalidContext("trump", "red-five always has a trump suit.", "红五必须有主花色。")
            self.trump_suit = None
            self.trump = None
        self.max_width = rules.max_width
        self.extra_rules: bool = rules.must_beat_on_points or rules.no_gifting_points  # yongzhou's 见分必打/不许送分
        self._build()

    # ---------------------------------------------------------------- construction

    def _build(self) -> None:
        rules = self.rules
        removed = set(rules.removed_ranks)
        T = self.trump_suit
        L = self.level
        order = rules.spec.trump_order
        in_deck = [c >= 52 or code_rank(c) not in removed for c in range(NCODES)]
        special: dict[int, int] = {}  # code -> trump-tier rank (higher = stronger) above the plain suit
        # Trump tiers above the trump suit's plain cards, lowest first (lists of codes): the variant's
        # trump order names them as (suit, rank) pairs.
        upper: list[list[int]] = [[_code(card) for card in t] for t in order.upper_tiers(L, T)]
        for rank_tier in upper:
            for c in rank_tier:
                special[c] = 1
        # plain ranks of each printed suit (not trump specials), ascending
        tiers: list[list[list[int]]] = [[] for _ in range(5)]
        for s in range(4):
            es = TRUMP if s == T else s
            for r in range(2, 15):
                c = make_code(s, r)
                if in_deck[c] and c not in special:
                    tiers[es].append([c])
        plain_trump_top = len(tiers[TRUMP]) - 1  # index of T-suit A (or -1)
        tiers[TRUMP].extend([[c for c in t if in_deck[c]] for t in upper])
        tiers[TRUMP] = [t for t in tiers[TRUMP] if t]
        self.tiers = tiers
        esuit = [-1] * NCODES
        tier = [0] * NCODES
        for es in range(5):
            for i, t in enumerate(tiers[es]):
                for c in t:
                    esuit[c] = es
                    tier[c] = i
        self.esuit = esuit
        self.tier = tier
        self.strength = [(esuit[c] * 32 + tier[c]) if esuit[c] >= 0 else -1 for c in range(NCODES)]
        self.sortkey = [self.strength[c] * 8 + (code_suit(c) if c < 52 else 0) for c in range(NCODES)]
        self.suit_codes = [[c for t in tiers[es] for c in sorted(t)] for es in range(5)]
        self.suit_desc = [tuple(reversed(codes)) for codes in self.suit_codes]  # each reversed (strongest first)
        # adjacency (tractors): consecutive tiers, with the variant's exceptions
        adj: list[list[int]] = [[] for _ in range(NCODES)]

        for es in range(5):
            ts = tiers[es]
            for i in range(len(ts) - 1):
                if es == TRUMP and not order.chains([_card(c) for c in ts[i]], [_card(c) for c in ts[i + 1]],
                                                    level=L, trump=T, higher_is_upper=i + 1 > plain_trump_top):
                    continue
                for a in ts[i]:
                    adj[a].extend(ts[i + 1])
        if rules.wrap_k3_at_ace and L == 14:
            for s in range(4):
                plain = [make_code(s, r) for r in range(2, 15)
                         if in_deck[make_code(s, r)] and make_code(s, r) not in special]
                k = make_code(s, 13)
                if len(plain) > 2 and k in plain and plain[0] != k:
                    adj[k].append(plain[0])
        self.adj_up = [tuple(a) for a in adj]
        self.points = [rules.spec.card_point_value(code_rank(c)) for c in range(NCODES)]

    # ---------------------------------------------------------------- queries

    def effective_suit(self, card: CardLike) -> int:
        """0..3 for a side suit (D, C, H, S), 4 for trump, -1 for a card not in the deck."""
        return self.esuit[to_code(card)]

    def is_trump(self, card: CardLike) -> bool:
        return self.esuit[to_code(card)] == TRUMP

    def in_deck(self, card: CardLike) -> bool:
        return self.esuit[to_code(card)] >= 0

    def tier_of(self, card: CardLike) -> int:
        """Index of the card's tier in its effective suit (0 = lowest)."""
        return self.tier[to_code(card)]

    def name_tier(self, card: CardLike) -> tuple[int, int]:
        c = to_code(card)
        return (self.esuit[c], self.tier[c])

    def sort_key(self, card: CardLike) -> int:
        """Sort key: trumps above side suits, strength, then suit order ♦ ♣ ♥ ♠ within a tier."""
        return self.sortkey[to_code(card)]

    def adjacent(self, lower: CardLike, higher: CardLike) -> bool:
        """Whether pairs of ``lower`` and ``higher`` form a tractor (``higher`` just above)."""
        return to_code(higher) in self.adj_up[to_code(lower)]

    def compare(self, a: CardLike, b: CardLike) -> int | None:
        """-1, 0 or 1 comparing two single cards; None for two different side suits."""
        ca, cb = to_code(a), to_code(b)
        ea, eb = self.esuit[ca], self.esuit[cb]
        if ea != eb and ea != TRUMP and eb != TRUMP:
            return None
        sa, sb = self.strength[ca], self.strength[cb]
        return (sa > sb) - (sa < sb)

    def sorted_desc(self, codes: Sequence[int]) -> list[int]:
        """Codes sorted strongest first (display order)."""
        key = self.sortkey
        return sorted(codes, key=lambda c: -key[c])

    def describe(self) -> str:
        lv = "" if self.level is None else f" level {Card(make_code(0, self.level)).rank}"
        return f"{self.rules.variant}{lv}, trump {self.trump or 'none'}"
