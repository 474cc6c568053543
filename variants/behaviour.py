"""What a variant *does*, as objects: its trump order, its way of declaring and its settlement.

A :class:`variants.Variant` carries one object of each kind (``variant.trump_order``,
``variant.declaring``, ``variant.settlement``), and code asks it instead of branching on which
kind it is — the shape of python-chess's ``variant.py``: a base class with the common behaviour
and overridable methods, one subclass per way of doing it. A new variant composes existing
objects; a new way of doing one thing is one new subclass here (and, where a layer above keeps the
code that carries it out — the engine's declaring protocol, scoring's rule set — that code, found
there by the object's :attr:`~Behaviour.key`).

Cards here are ``(suit, rank)`` pairs: suit 0..3 (♦ ♣ ♥ ♠), rank 2..14 (A = 14); the jokers are
:data:`LITTLE_JOKER` ``(4, 15)`` and :data:`BIG_JOKER` ``(4, 16)``. Pure Python, no project import.

>>> TractorOrder().upper_tiers(10, 3)
[[(0, 10), (1, 10), (2, 10)], [(3, 10)], [(4, 15)], [(4, 16)]]
>>> RedFiveSettlement().sizes(3, 4), YongzhouSettlement().sizes(2, 3), LevelsSettlement().sizes(2, 4)
((3, None), (None, 3), (None, None))
>>> BiddingDeclaring() == BiddingDeclaring(), BiddingDeclaring() == TensDeclaring(), TensDeclaring()
(True, False, <TensDeclaring 'tens'>)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar, Generic, TypeVar

V = TypeVar("V")

TrumpCard = tuple[int, int]
"""A card as ``(suit, rank)``: suit 0..3 (♦ ♣ ♥ ♠) or 4 for a joker; rank 2..14, 15/16 the jokers."""
LITTLE_JOKER: TrumpCard = (4, 15)
BIG_JOKER: TrumpCard = (4, 16)
HEARTS = 2
"""The suit number of hearts (♥): red five's top card is ♥5."""


def _others(rank: int, exclude: int | None) -> list[TrumpCard]:
    """The cards of ``rank`` in every suit but ``exclude``, in suit order."""
    return [(suit, rank) for suit in range(4) if suit != exclude]


def _rank_tiers(rank: int, trump: int | None) -> list[list[TrumpCard]]:
    """Cards of ``rank`` as trump tiers: the off-suit ones, then the trump suit's (one tier without trump)."""
    if trump is None:
        return [_others(rank, None)]
    return [_others(rank, trump), [(trump, rank)]]


class Behaviour:
    """What every behaviour object shares: a :attr:`key` (its name in docs and in the tables of the
    layers above) and equality by class, since it holds no state of its own."""

    key: ClassVar[str] = ""

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"


# -- trump order (RULES §2) and tractor adjacency (§3) -----------------------------------------------

class TrumpOrder(Behaviour):
    """Which cards are trump above the trump suit's plain ranks, and which trump tiers chain into tractors.

    The engine (``gameplay.order.Context``) asks it once per hand context, never per play."""

    def upper_tiers(self, level: int | None, trump: int | None) -> list[list[TrumpCard]]:
        """The trump tiers above the trump suit's plain ranks, lowest first (cards of one tier are
        equally strong). ``level`` is the level as a rank (None without levels), ``trump`` the trump
        suit's number (None: no trump). Cards not in the deck may be named: the engine drops them."""
        raise NotImplementedError

    def chains(self, lower: Sequence[TrumpCard], higher: Sequence[TrumpCard], *, level: int | None,
               trump: int | None, higher_is_upper: bool) -> bool:
        """Whether pairs of the consecutive trump tiers ``lower`` and ``higher`` form a tractor.

        ``higher_is_upper``: ``higher`` is one of :meth:`upper_tiers` (not a plain trump-suit rank)."""
        return True

    def declaring_rank(self, level: int | None) -> int | None:
        """The rank whose cards declare trump (a bot weighs them like level cards): the level."""
        return level


class TractorOrder(TrumpOrder):
    """BJ > LJ > the trump suit's level card > the other level cards > the trump suit; 2 is ordinary."""

    key = "tractor"

    def upper_tiers(self, level: int | None, trump: int | None) -> list[list[TrumpCard]]:
        assert level is not None
        return [*_rank_tiers(level, trump), [LITTLE_JOKER], [BIG_JOKER]]


class ChaodiOrder(TractorOrder):
    """Tractor's order with the 2s as permanent trumps below the level cards; trump chains stop
    between the groups (jokers, level cards, 2s, the trump suit's ranks)."""

    key = "chaodi"

    def upper_tiers(self, level: int | None, trump: int | None) -> list[list[TrumpCard]]:
        return [*_rank_tiers(2, trump), *super().upper_tiers(level, trump)]

    def chains(self, lower: Sequence[TrumpCard], higher: Sequence[TrumpCard], *, level: int | None,
               trump: int | None, higher_is_upper: bool) -> bool:
        return self.group(lower[0], level) == self.group(higher[0], level)

    @staticmethod
    def group(card: TrumpCard, level: int | None) -> int:
        """The chain group of a trump: 3 jokers, 2 level cards, 1 the 2s, 0 the trump suit's ranks."""
        suit, rank = card
        if suit == 4:
            return 3
        return 2 if rank == level else 1 if rank == 2 else 0


class RedFiveOrder(TrumpOrder):
    """♥5 > BJ > LJ > the 参谋 3s (trump suit's, then its same-colour mate's) > 2s > the trump suit;
    only the trump suit's plain ranks chain."""

    key = "red-five"

    def upper_tiers(self, level: int | None, trump: int | None) -> list[list[TrumpCard]]:
        assert trump is not None
        mate = {0: 2, 2: 0, 1: 3, 3: 1}[trump]  # same colour: ♦↔♥, ♣↔♠
        return [*_rank_tiers(2, trump), [(mate, 3)], [(trump, 3)], [LITTLE_JOKER], [BIG_JOKER], [(HEARTS, 5)]]

    def chains(self, lower: Sequence[TrumpCard], higher: Sequence[TrumpCard], *, level: int | None,
               trump: int | None, higher_is_upper: bool) -> bool:
        return not higher_is_upper


class YongzhouOrder(TrumpOrder):
    """BJ > LJ > the 10s > the 2s > the trump suit (3, 4, 6 removed); without trump only the jokers chain.
    The 10s declare trump."""

    key = "yongzhou"

    def upper_tiers(self, level: int | None, trump: int | None) -> list[list[TrumpCard]]:
        if trump is None:
            return [_others(2, None), _others(10, None), [LITTLE_JOKER], [BIG_JOKER]]
        return [*_rank_tiers(2, trump), *_rank_tiers(10, trump), [LITTLE_JOKER], [BIG_JOKER]]

    def chains(self, lower: Sequence[TrumpCard], higher: Sequence[TrumpCard], *, level: int | None,
               trump: int | None, higher_is_upper: bool) -> bool:
        return trump is not None or (list(lower) == [LITTLE_JOKER] and list(higher) == [BIG_JOKER])

    def declaring_rank(self, level: int | None) -> int | None:
        return 10


# -- declaring (RULES §5.1, §5.3) ------------------------------------------------------------------------

class Declaring(Behaviour):
    """How trump and the dealer are chosen. The engine carries it out with the protocol class of the
    same :attr:`key` (``gameplay.declaring.PROTOCOLS``); what the layers above ask is here."""

    bids: ClassVar[bool] = False
    """Whether the dealer is whoever wins a bid of points (and the bid is part of the hand's facts)."""
    overturners_take_kitty: ClassVar[bool] = False
    """Whether every overturner takes up the kitty and buries anew (炒底)."""
    declarer_leads: ClassVar[bool] = False
    """Whether the declarer, not a dealer fixed beforehand, chooses trump and leads: declaring is worth more."""


class LevelCardDeclaring(Declaring):
    """Tractor: show a level card while dealing; pairs overturn."""

    key = "level_card"


class LevelCardAndJokerDeclaring(Declaring):
    """Chaodi: a level card with a joker; 翻底; the 炒底 round of overturns, each taking the kitty."""

    key = "level_card_and_joker"
    overturners_take_kitty = True


class BiddingDeclaring(Declaring):
    """Red five: bid points after the deal; the winner takes the kitty and names trump."""

    key = "bidding"
    bids = True


class TensDeclaring(Declaring):
    """Yongzhou: show a 10 while dealing; pairs of 10s overturn; the declarer leads."""

    key = "tens"
    declarer_leads = True


# -- settlement (RULES §6) -------------------------------------------------------------------------------

class Settlement(Behaviour):
    """How a hand's result is scored. Scoring builds the rule set and reads the figures of the
    settlement of the same :attr:`key` (``scoring.rules.RULE_BUILDERS``, ``scoring.api``); the engine
    settles a played hand by it (``gameplay.outcome``)."""

    accepts_decks: ClassVar[bool] = True
    """Whether scoring takes a number of decks (Yongzhou's deck is fixed by its removed ranks)."""
    contract: ClassVar[bool] = False
    """Whether the dealer plays a bid contract against all the others (red five's game points)."""
    winner_deals_next: ClassVar[bool] = False
    """Whether the hand's winner deals the next one (a tie for the most points is drawn)."""
    table_metric: ClassVar[str] = "game_points"
    """What an individual table adds up per seat: ``game_points`` or ``net``."""
    score_name: ClassVar[str] = "level margin"
    """What a seat's (or a side's) score per hand is called in a simulation's summary."""

    def sizes(self, decks: int | None, players: int | None) -> tuple[int | None, int | None]:
        """The (decks, players) that scoring takes: what the settlement depends on, None for the rest."""
        return None, None


class LevelsSettlement(Settlement):
    """Two partnerships climb levels (tractor, chaodi)."""

    key = "levels"


class RedFiveSettlement(Settlement):
    """The bid contract settled in game points per seat; it depends on the number of decks."""

    key = "red-five"
    contract = True
    score_name = "game points"

    def sizes(self, decks: int | None, players: int | None) -> tuple[int | None, int | None]:
        return decks, None


class YongzhouSettlement(Settlement):
    """Each player's net against an even share of 300; the winner deals next; it depends on the players."""

    key = "yongzhou"
    accepts_decks = False
    winner_deals_next = True
    table_metric = "net"
    score_name = "net"

    def sizes(self, decks: int | None, players: int | None) -> tuple[int | None, int | None]:
        return None, players


class ByKey(Mapping[str, V], Generic[V]):
    """A read-only table of what a layer above keeps for each kind of behaviour (the engine's
    declaring protocol, scoring's rule-set builder), looked up by the behaviour object itself or by
    its key: ``PROTOCOLS[variant.declaring]``. A subclass that keeps its parent's key shares its entry.

    >>> table = ByKey({"tens": 1})
    >>> table[TensDeclaring()], table["tens"], list(table)
    (1, 1, ['tens'])
    """

    __slots__ = ("_by_key",)

    def __init__(self, entries: Mapping[str, V]) -> None:
        self._by_key = dict(entries)

    def __getitem__(self, key: str | Behaviour) -> V:
        return self._by_key[key.key if isinstance(key, Behaviour) else key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_key)

    def __len__(self) -> int:
        return len(self._by_key)

    def __repr__(self) -> str:
        return f"ByKey({self._by_key!r})"


BEHAVIOURS: tuple[type[Behaviour], ...] = (
    TractorOrder, ChaodiOrder, RedFiveOrder, YongzhouOrder,
    LevelCardDeclaring, LevelCardAndJokerDeclaring, BiddingDeclaring, TensDeclaring,
    LevelsSettlement, RedFiveSettlement, YongzhouSettlement,
)
"""Every behaviour class (what the test of branches outside ``variants/`` looks for)."""
