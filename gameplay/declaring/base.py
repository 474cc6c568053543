"""What every declaring protocol shares: the declaration record, the table it acts on, the round of
declaring after the deal and how a standing declaration (or none) fixes trump and the dealer.

A protocol is built by the hand (:class:`gameplay.hand.Hand`) once and keeps no state of its own: the
state is the hand's (:class:`Table` names what a protocol reads and changes). The hand asks it at each
step — may a seat declare while dealing, what a shown set of cards declares, what happens when the deal
ends, when a seat declares or passes, and after the kitty is buried.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from gameplay.cards import BJ, LJ, NCODES, SUITS, code_suit, format_cards, make_code
from gameplay.config import HandConfig
from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from gameplay.rulesets import RuleSet
from scoring.partnership import MatchState
from scoring.rules import ScoringRules
from variants import level_rank
from variants.seats import en_seat, zh_seat

MAX_REDEALS = 20
"""After this many redeals in a row (nobody declaring in a first hand) the hand is played no trump."""

PAIR_ORDER = {"D": 1, "C": 2, "H": 3, "S": 4}
"""Overturn strength of a pair of one suit (♠ > ♥ > ♣ > ♦); joker pairs rank above."""




@dataclass(frozen=True, slots=True)
class Declaration:
    """A standing declaration: who, with which cards, which trump (None: no trump), how strong."""

    seat: int
    cards: tuple[int, ...]
    kind: str
    suit: str | None
    strength: int


class Table(Protocol):
    """The part of a hand that a declaring protocol reads and changes."""

    n: int
    config: HandConfig
    rules: RuleSet
    scoring: ScoringRules
    phase: str
    hands: list[list[int]]
    kitty: list[int]
    dealt: int
    ndeal: int
    first_hand: bool
    state: MatchState | None
    start_seat: int
    level: str | None
    dealer: int | None
    trump: str | None
    flipped: int | None
    redeals: int
    declaration: Declaration | None
    declarations: list[Declaration]
    first_declarer: int | None
    overturned_once: bool
    forfeited: set[int]
    offers: list[int]
    offered: set[int]
    round_order: list[int]
    turn_index: int
    passes: int
    round_started: bool
    overturner_original: int | None
    contract: int | None
    bidder: int | None
    bid_passed: set[int]
    bid_turn: int | None
    bids: list[tuple[int, int | None]]
    first_bidder: int | None

    def decl_level(self, seat: int) -> int | None: ...
    def redeal(self) -> None: ...
    def fix_trump(self) -> None: ...
    def take_kitty(self, seat: int) -> None: ...
    def begin_play(self, leader: int) -> None: ...


class DeclaringProtocol:
    """How trump and the dealer are chosen (RULES §5.1, §5.3): the base that the four protocols refine."""

    declaring: ClassVar[str]
    """The key of the :class:`variants.Declaring` this protocol carries out."""
    shows_first_kitty: ClassVar[bool] = False
    """Whether the kitty as dealt is shown to all when it is first taken (chaodi, RULES §5.2)."""
    has_insurance: ClassVar[bool] = False
    """Whether the dealer may insure (定主) its declaration (chaodi)."""

    def __init__(self, hand: Table) -> None:
        self.hand = hand

    # ------------------------------------------------------------ setup

    def first_bidder(self, configured: int | None, rng: random.Random) -> int | None:
        """The seat that bids first (only bidding has one)."""
        return configured

    def decl_level(self, seat: int) -> int | None:
        """The rank of the level card ``seat`` declares with (None: no level cards are shown)."""
        h = self.hand
        if h.state is None:
            return None
        assert h.level is not None
        return level_rank(h.level)

    # ------------------------------------------------------------ dealing

    def deal_window(self) -> bool:
        """Whether declaring is possible while the cards are dealt."""
        return True

    def after_deal(self, seat: int) -> None:
        """A card was dealt to ``seat``."""

    def end_deal(self) -> None:
        """The last card is dealt (and no offer is open): the round of declaring, starting at the start seat."""
        h = self.hand
        self.start_round([(h.start_seat + i) % h.n for i in range(h.n)])

    # ------------------------------------------------------------ declarations

    def window_open(self) -> bool:
        """Whether declaring is possible now (dealing or the declaration round)."""
        h = self.hand
        if h.phase == "declare":
            return True
        return h.phase == "deal" and self.deal_window()

    def judge_shown(self, seat: int, cards: Sequence[int]) -> Declaration:
        """The declaration ``seat`` makes by showing ``cards`` now, or raise IllegalPlay/InvalidCards."""
        cards = tuple(sorted(cards))
        held = self.hand.hands[seat]
        need: dict[int, int] = {}
        for c in cards:
            if not 0 <= c < NCODES:
                raise InvalidCards(f"{c} is not a card.", f"{c} 不是牌。")
            need[c] = need.get(c, 0) + 1
        for c, k in need.items():
            if held[c] < k:
                raise InvalidCards(f"{en_seat(seat)} does not hold {format_cards([c] * k)} to show.",
                                   f"{zh_seat(seat)}手中没有 {format_cards([c] * k)} 可亮。")
        return self.judge(seat, cards)

    def verify_declare(self, seat: int, cards: Sequence[int]) -> Declaration:
        h = self.hand
        if not 0 <= seat < h.n:
            raise OutOfTurn(f"There is no seat numbered {seat} (seats are numbered from 0 in code and in the API).",
                            f"没有编号为 {seat} 的座位（程序和 API 中座位从 0 起编号）。")
        if not self.window_open():
            raise WrongPhase(f"{en_seat(seat)} cannot declare now: declaring is over (phase {h.phase}).",
                             f"{zh_seat(seat)}现在不能亮主：亮主阶段已过（{h.phase}）。")
        if h.phase == "declare" and h.round_order[h.turn_index] != seat:
            who = h.round_order[h.turn_index]
            raise OutOfTurn(f"{en_seat(seat)} cannot declare now: it is {en_seat(who, capital=False)}'s turn to declare or pass.",
                            f"{zh_seat(seat)}现在不能亮主：轮到{zh_seat(who)}。")
        if h.phase == "deal" and h.offers and h.offers[0] != seat:
            raise OutOfTurn(f"{en_seat(seat)} must wait: {en_seat(h.offers[0], capital=False)} answers an overturn offer first.",
                            f"{zh_seat(seat)}须等待：{zh_seat(h.offers[0])}先决定是否反主。")
        return self.judge_shown(seat, cards)

    def legal_declarations(self, seat: int) -> list[tuple[int, ...]]:
        """Every declaration ``seat`` could make now (empty outside the declaring window)."""
        h = self.hand
        if not self.window_open():
            return []
        if h.phase == "declare" and h.round_order[h.turn_index] != seat:
            return []
        if h.phase == "deal" and h.offers and h.offers[0] != seat:
            return []
        return self.candidates(seat)

    def judge(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        """The declaration ``seat`` makes by showing ``cards`` (held), or raise IllegalPlay."""
        raise NotImplementedError

    def candidate_cards(self, seat: int, level: int, *, overturn: bool) -> list[tuple[int, ...]]:
        """The sets of cards worth judging for ``seat``: joker pairs, single and paired level cards."""
        h = self.hand.hands[seat]
        cands: list[tuple[int, ...]] = []
        if h[LJ] >= 2:
            cands.append((LJ, LJ))
        if h[BJ] >= 2:
            cands.append((BJ, BJ))
        for s in range(4):
            c = make_code(s, level)
            if h[c]:
                cands.append((c,))
                if h[c] >= 2:
                    cands.append((c, c))
        return cands

    def candidates(self, seat: int, *, overturn: bool = False) -> list[tuple[int, ...]]:
        """Every set of cards ``seat`` may show now (each sorted)."""
        h = self.hand
        level = level_rank(str(h.level)) if overturn else h.decl_level(seat)
        if level is None:
            return []
        out: list[tuple[int, ...]] = []
        self._quiet = True  # refusals are only counted here: no message is worded
        try:
            for cs in self.candidate_cards(seat, level, overturn=overturn):
                cs = tuple(sorted(cs))
                try:
                    self.judge_overturn(seat, cs) if overturn else self.judge(seat, cs)
                except GameplayError:
                    continue
                out.append(cs)
        finally:
            self._quiet = False
        return out

    def judge_overturn(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        raise NotImplementedError

    _quiet = False
    """Set while :meth:`candidates` judges: a refusal needs no message then."""

    def bad(self, seat: int, cards: Sequence[int], en: str, zh: str) -> IllegalPlay:
        """The error for showing ``cards``: ``en``/``zh`` say which rule forbids it."""
        if self._quiet:
            return IllegalPlay(en, zh)
        return IllegalPlay(f"{en_seat(seat)} cannot show {format_cards(cards)}: {en}.",
                           f"{zh_seat(seat)}不能亮 {format_cards(cards)}：{zh}。")

    def declared(self, seat: int) -> None:
        """``seat`` declared (the declaration is recorded and logged)."""
        h = self.hand
        if h.phase == "deal":
            if h.offers and h.offers[0] == seat:
                h.offers.pop(0)
            self.declared_while_dealing(seat)
            if h.dealt == h.ndeal and not h.offers:
                self.end_deal()
        else:
            self.declared_in_round(seat)

    def declared_while_dealing(self, seat: int) -> None:
        """What a declaration during the deal starts (yongzhou: offers to overturn it)."""

    def declared_in_round(self, seat: int) -> None:
        h = self.hand
        h.passes = 0
        self.next_in_round()

    # ------------------------------------------------------------ passing

    def verify_pass(self, seat: int) -> None:
        h = self.hand
        p = h.phase
        if p == "deal" and h.offers:
            if h.offers[0] != seat:
                raise OutOfTurn(f"{en_seat(seat)} has nothing to answer: {en_seat(h.offers[0], capital=False)} is asked.",
                                f"{zh_seat(seat)}无需表态：轮到{zh_seat(h.offers[0])}。")
            return
        if p in ("declare", "bid", "overturn"):
            who = h.bid_turn if p == "bid" else h.round_order[h.turn_index]
            if who != seat:
                raise OutOfTurn(f"{en_seat(seat)} cannot pass now: it is {en_seat(who, capital=False)}'s turn.",
                                f"{zh_seat(seat)}现在不能表态：轮到{zh_seat(who)}。")
            return
        raise WrongPhase(f"{en_seat(seat)} has nothing to pass in the {p} phase.", f"{zh_seat(seat)}在 {p} 阶段无需过牌。")

    def passed(self, seat: int, phase: str) -> None:
        """``seat`` passed in ``phase`` (the pass is logged)."""
        h = self.hand
        if phase == "deal":
            h.offers.pop(0)
            self.forfeit(seat, dealing=True)
            if h.dealt == h.ndeal and not h.offers:
                self.end_deal()
        elif phase == "declare":
            self.forfeit(seat, dealing=False)
            h.passes += 1
            self.next_in_round()
        else:
            raise WrongPhase(f"{en_seat(seat)} has nothing to pass in the {phase} phase.",
                             f"{zh_seat(seat)}在 {phase} 阶段无需过牌。")

    def forfeit(self, seat: int, *, dealing: bool) -> None:
        """A pass that gives up overturning for the hand (yongzhou)."""

    # ------------------------------------------------------------ the round of declaring

    def start_round(self, order: list[int]) -> None:
        h = self.hand
        h.phase = "declare"
        h.round_order = order
        h.turn_index = 0
        h.passes = 0
        self.advance_round()

    def linear_round(self) -> bool:
        """Whether the round asks each seat once in order (True) or goes round until all pass."""
        return False

    def next_in_round(self) -> None:
        h = self.hand
        if self.linear_round():
            h.turn_index += 1
        else:
            h.turn_index = (h.turn_index + 1) % len(h.round_order)
        self.advance_round()

    def advance_round(self) -> None:
        """Skip seats with no legal declaration (an implicit pass); end the round when everyone passed."""
        h = self.hand
        order = h.round_order
        linear = self.linear_round()
        while True:
            if linear:
                if h.turn_index >= len(order):
                    self.resolve()
                    return
            elif h.passes >= h.n:
                self.resolve()
                return
            seat = order[h.turn_index]
            if self.candidates(seat):
                return
            h.passes += 1
            if linear:
                h.turn_index += 1
            else:
                h.turn_index = (h.turn_index + 1) % len(order)

    # ------------------------------------------------------------ trump and the dealer

    def resolve(self) -> None:
        """Declaring is over: the standing declaration (or the no-declaration policy) fixes trump."""
        h = self.hand
        d = h.declaration
        if d is None:
            policy = h.rules.option("first_hand_no_declaration" if h.first_hand else "no_declaration")
            if policy == "redeal" and h.redeals < MAX_REDEALS:
                h.redeal()
                return
            trump: str | None = None
            if policy == "kitty_card":
                c = h.kitty[3]
                if not self.turn_kitty_card(c):
                    return
                h.flipped = c
                if c < 52 and self.kitty_card_names_trump(c):
                    trump = SUITS[code_suit(c)]
            if h.dealer is None:
                h.dealer = self.default_dealer()
            h.trump = trump
        else:
            h.trump = d.suit
            self.dealer_from(d)
        h.fix_trump()
        self.after_trump()

    def turn_kitty_card(self, card: int) -> bool:
        """The kitty card ``card`` is turned (nobody declared); False: the hand was redealt instead."""
        return True

    def kitty_card_names_trump(self, card: int) -> bool:
        return True

    def default_dealer(self) -> int | None:
        """The dealer when nobody declared and none is set."""
        return self.hand.start_seat

    def dealer_from(self, d: Declaration) -> None:
        """Set the dealer from the declaration that stands."""
        h = self.hand
        if h.first_hand:
            h.dealer = d.seat

    def after_trump(self) -> None:
        """Trump is fixed: the dealer takes the kitty."""
        h = self.hand
        assert h.dealer is not None
        h.take_kitty(h.dealer)

    def after_bury(self, seat: int) -> None:
        """``seat`` buried the kitty: play begins, the dealer leading."""
        h = self.hand
        assert h.dealer is not None
        h.begin_play(h.dealer)

    # ------------------------------------------------------------ actions of other protocols

    def verify_insure(self, seat: int, cards: Sequence[int] | None) -> tuple[int, int]:
        raise IllegalPlay(f"{en_seat(seat)} cannot insure: insurance (定主) belongs to chaodi only.",
                          f"{zh_seat(seat)}不能定主：只有炒地皮有定主。")

    def legal_insurances(self, seat: int) -> list[tuple[int, ...]]:
        return []

    def verify_overturn(self, seat: int, cards: Sequence[int]) -> Declaration:
        h = self.hand
        raise WrongPhase(f"{en_seat(seat)} cannot overturn in the {h.phase} phase.",
                         f"{zh_seat(seat)}在 {h.phase} 阶段不能反主。")

    def legal_overturns(self, seat: int) -> list[tuple[int, ...]]:
        return []

    def verify_bid(self, seat: int, amount: int) -> None:
        h = self.hand
        raise WrongPhase(f"{en_seat(seat)} cannot bid in the {h.phase} phase.",
                         f"{zh_seat(seat)}在 {h.phase} 阶段不能叫分。")

    def legal_bids(self, seat: int) -> list[int]:
        return []

    def verify_name_trump(self, seat: int, suit: str) -> None:
        h = self.hand
        raise WrongPhase(f"Trump is not named in the {h.phase} phase.", f"{h.phase} 阶段不定主。")

