"""One whole hand — RULES.md §5: deal → declare or bid → kitty → (chaodi: overturn round) → play → scored.

A :class:`Hand` owns the cards of one hand and moves through explicit phases. Every action is a
triple: ``verify_x(...)`` raises a :class:`~gameplay.errors.GameplayError` (``WrongPhase``,
``OutOfTurn``, ``IllegalPlay``, ``InvalidCards``), ``can_x(...)`` answers with a bool, and ``x(...)``
verifies, changes the state and returns a frozen :class:`Event` appended to :attr:`Hand.log`
(automatic consequences — a trick won, the kitty taken, trump fixed, the hand scored — follow it
in the log). The log serializes to JSON (:meth:`Hand.to_json`); :func:`replay` rebuilds the hand
from it and refuses a tampered log with :class:`InvalidLog` naming the event and the reason.

The finished hand's :attr:`Hand.outcome` is exactly the ``outcome`` object of
``POST /api/v1/scoring/hand`` for the variant, and :attr:`Hand.result` comes from ``scoring``.

>>> from gameplay.cards import format_cards
>>> h = Hand(HandConfig("yongzhou-300", players=3), seed=1)
>>> h.phase, len(h.deck), h.to_act()
('deal', 84, ('deal', None))
>>> ev = h.deal(); ev.kind, ev.seat, len(ev.cards)
('deal', 0, 1)
"""

from __future__ import annotations

import json
import random
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import variants
from gameplay.cards import CODE_NAMES, NCODES, deck_codes, format_cards, shuffle
from gameplay.combos import Combo, classify
from gameplay.config import HandConfig, context_for
from gameplay.declaring import PROTOCOLS, Bidding, Declaration, DeclaringProtocol, LevelCardAndJoker
from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from gameplay.events import (
    Bid,
    Bury,
    Declare,
    Event,
    Insure,
    NameTrump,
    Overturn,
    Pass,
    Redeal,
    Scored,
    Shuffle,
    TakeKitty,
    Trump,
    dealt,
    dealt_row,
    hidden_deal,
    new_play,
    new_trick,
    redact,
)
from gameplay.legal_plays import LegalPlays
from gameplay.legality import check_follow, check_lead, follow_fault
from gameplay.observation import Observation, no_rows, observe
from gameplay.order import TRUMP, Context
from gameplay.outcome import kitty_points, score_request, settle
from gameplay.throws import throw_forced
from gameplay.tricks import play_key
from scoring.partnership import HandResult, MatchState, initial_state
from scoring.redfive import RedFiveResult
from scoring.rules import PartnershipRules
from scoring.yongzhou import YongzhouResult
from variants.seats import en_seat, zh_seat

__all__ = ["LOG_FORMAT", "PHASES", "Hand"]

PHASES = ("deal", "declare", "bid", "trump", "kitty", "overturn", "play", "scored")
LOG_FORMAT = "shengji-hand/1"


# ---------------------------------------------------------------- the hand


def _allowed(verify: Callable[..., object], *args: Any) -> bool:
    """``can_x``: whether ``verify_x`` accepts."""
    try:
        verify(*args)
    except GameplayError:
        return False
    return True


class Hand:
    """The state machine of one hand. Build with a config and a seed (or a ``random.Random``, or a
    fixed ``deck`` in dealing order: the first cards go one at a time to the seats in play order
    from the start seat; the last ``kitty_size`` cards are the kitty)."""

    def __init__(self, config: HandConfig, *, seed: int | None = None, rng: random.Random | None = None,
                 deck: Sequence[int] | None = None,
                 deck_source: Callable[[], list[int]] | None = None) -> None:
        self.config = config
        self.rules = config.engine_rules()
        self.scoring = config.scoring_rules()
        r = self.rules
        self.variant = r.variant
        self.n = r.players
        self.rng = rng if rng is not None else random.Random(seed)
        self._deck_source = deck_source
        self.spec = variants.get(r.variant)
        self.partnership = self.spec.partnership
        self.protocol: DeclaringProtocol = PROTOCOLS[self.spec.declaring](self)
        """How trump and the dealer are chosen (:mod:`gameplay.declaring`)."""
        if self.partnership:
            self.state: MatchState | None = config.state
            self.first_hand = config.state is None
            if self.state is None:
                assert isinstance(self.scoring, PartnershipRules)
                self.state = initial_state(self.scoring, dealer=0)
        else:
            self.state = None
            self.first_hand = False
        self.start_seat = config.start_seat if config.start_seat is not None else (
            self.state.dealer if self.state is not None and not self.first_hand else 0)
        self.first_bidder = self.protocol.first_bidder(config.first_bidder, self.rng)
        self.log: list[Event] = []
        self.public_log: list[Event] = []
        """The log as a spectator sees it (no deck, no dealt cards, no kitty): part of every observation."""
        self._decl_levels: dict[int, int | None] = {}
        self._events: Sequence[Event] | None = None  # the last observation's view of the public log (events.LogView)
        self._hidden = [hidden_deal(s) for s in range(self.n)]
        self._dealt = [dealt_row(s) for s in range(self.n)]  # each seat's shared Deal events by code
        self._after_deal = None if type(self.protocol).after_deal is DeclaringProtocol.after_deal else self.protocol.after_deal
        self.redeals = 0
        first = list(deck) if deck is not None else self._new_deck()
        self._start(first, Shuffle, checked=deck is None and deck_source is None)

    # ------------------------------------------------------------ setup

    def _new_deck(self) -> list[int]:
        if self._deck_source is not None:
            return self._deck_source()
        d = deck_codes(self.rules.decks, self.rules.removed_ranks)
        shuffle(self.rng, d)
        return d

    def _start(self, deck: list[int], kind: type[Shuffle | Redeal], *, checked: bool = False) -> None:
        """``checked``: the deck is a shuffle of :func:`deck_codes` made here (no need to compare it)."""
        r = self.rules
        if not checked and sorted(deck) != sorted(deck_codes(r.decks, r.removed_ranks)):
            raise InvalidCards("The deck is not a full deck of the variant.", "这副牌不是该玩法的完整牌。")
        self.deck, self.dealt = tuple(deck), 0
        self.ndeal = r.hand_size * self.n
        self.kitty: list[int] = list(deck[self.ndeal:])
        self.hands: list[list[int]] = [[0] * NCODES for _ in range(self.n)]
        self.nleft = [0] * self.n
        self.phase = "deal"
        self.declaration: Declaration | None = None
        self.declarations: list[Declaration] = []
        self.first_declarer: int | None = None
        self.forfeited: set[int] = set()
        self.offers: list[int] = []
        self.offered: set[int] = set()
        self.round_order: list[int] = []
        self.turn_index = self.passes = 0
        self.dealer: int | None = None if self.first_hand or self.state is None else self.state.dealer
        self.trump: str | None = None
        self.level: str | None = self.state.levels[self.state.dealer % 2] if self.state is not None else None
        self.ctx: Context | None = None
        self.flipped: int | None = None
        self.bids: list[tuple[int, int | None]] = []
        self.contract: int | None = None
        """red-five: the highest bid so far, then the dealer's bid."""
        self.bidder: int | None = None
        self.bid_passed: set[int] = set()
        self.bid_turn: int | None = None
        self.kitty_holder: int | None = None
        self.shown_kitty: tuple[int, ...] | None = None
        """chaodi: the kitty as dealt, shown to every player when the dealer first takes it (RULES §5.2)."""
        self.buried_by: int | None = None
        self.overturner_original: int | None = None
        self.overturned_once = self.round_started = False
        self._new_trick(0)
        self._offered: LegalPlays | None = None  # the last legal_plays, for seat _offered_seat at log length _offered_at
        self._offered_seat = self._offered_at = -1
        self.tricks: list[tuple[int, tuple[Event, ...], int, int]] = []  # (leader, plays, winner, points)
        self.points = [0] * self.n
        self.penalties = [0] * self.n
        self.tie_break: int | None = None
        self.played = [0] * NCODES
        self.voids: list[frozenset[int]] = [frozenset() for _ in range(self.n)]
        self.outcome: dict[str, Any] | None = None
        self.result: HandResult | RedFiveResult | YongzhouResult | None = None
        self.new_state: MatchState | None = None
        self.match_state: MatchState | None = None
        self._append(kind(None, tuple(deck)))

    def _append(self, ev: Event) -> Event:
        self.log.append(ev)
        self.public_log.append(redact(ev, None))
        return ev

    # ------------------------------------------------------------ queries

    @property
    def options(self) -> Mapping[str, Any]:
        """The options of the hand's config (engine and scoring options mixed)."""
        return self.config.options

    @property
    def finished(self) -> bool:
        return self.phase == "scored"

    def seat_counts(self, seat: int) -> list[int]:
        return self.hands[seat]

    def seat_cards(self, seat: int) -> list[int]:
        h = self.hands[seat]
        return [c for c in range(NCODES) for _ in range(h[c])]

    def decl_level(self, seat: int) -> int | None:
        """The rank of the level card ``seat`` declares with (chaodi's later hands: its own side's level)."""
        cache = self._decl_levels
        if seat in cache:
            return cache[seat]
        cache[seat] = lv = self.protocol.decl_level(seat)
        return lv

    def to_act(self) -> tuple[str, int | None]:
        """What happens next: ("deal", None), ("declare", seat) — declare or pass —, ("bid", seat),
        ("name_trump", seat), ("bury", seat), ("overturn", seat), ("play", seat) or ("scored", None)."""
        p = self.phase
        if p == "deal":
            return ("declare", self.offers[0]) if self.offers else ("deal", None)
        if p == "declare":
            return ("declare", self.round_order[self.turn_index])
        if p == "bid":
            return ("bid", self.bid_turn)
        if p == "trump":
            return ("name_trump", self.dealer)
        if p == "kitty":
            return ("bury", self.kitty_holder)
        if p == "overturn":
            return ("overturn", self.round_order[self.turn_index])
        if p == "play":
            return ("play", self.trick_turn)
        return ("scored", None)

    # ------------------------------------------------------------ dealing

    def verify_deal(self) -> None:
        if self.phase != "deal":
            raise WrongPhase(f"No card is dealt in the {self.phase} phase.", f"{self.phase} 阶段不发牌。")
        if self.offers:
            s = self.offers[0]
            raise OutOfTurn(f"{en_seat(s)} must first overturn or pass (an overturn is offered).",
                            f"{zh_seat(s)}须先决定反主或不反。")

    def can_deal(self) -> bool:
        return self.phase == "deal" and not self.offers

    def deal(self) -> Event:
        """Deal the next card to the next seat in play order."""
        if self.phase != "deal" or self.offers:
            self.verify_deal()
        i = self.dealt
        seat, c = (self.start_seat + i) % self.n, self.deck[i]
        self.hands[seat][c] += 1
        self.nleft[seat] += 1
        self.dealt = i + 1
        self.log.append(ev := dealt(seat, c))  # shared immutable events: no object per dealt card
        self.public_log.append(self._hidden[seat])
        if self._after_deal is not None:
            self._after_deal(seat)
        if i + 1 == self.ndeal and not self.offers:
            self.protocol.end_deal()
        return ev

    def deal_until(self, stops: Sequence[Sequence[bool]]) -> Event:
        """Deal like :meth:`deal`, card after card, until the card dealt is marked in ``stops[seat]``
        (per code), the deal ends or an overturn is offered; return the last card's event."""
        if self.phase != "deal" or self.offers or self._after_deal is not None:
            while True:  # the protocol acts after each card (or refuses the deal): card by card
                ev = self.deal()
                if self.phase != "deal" or self.offers or stops[ev.seat][ev.cards[0]]:  # type: ignore[index]
                    return ev
        # :meth:`deal` inlined: nothing but the deal's end changes the phase or opens an offer
        i, n, start, deck, hands, nleft = self.dealt, self.n, self.start_seat, self.deck, self.hands, self.nleft
        log, public, hidden, last, rows = self.log.append, self.public_log.append, self._hidden, self.ndeal - 1, self._dealt
        while True:
            seat, c = (start + i) % n, deck[i]
            hands[seat][c] += 1
            nleft[seat] += 1
            log(ev := rows[seat][c])
            public(hidden[seat])
            if i == last:
                self.dealt = i + 1
                self.protocol.end_deal()
                return ev
            i += 1
            if stops[seat][c]:
                self.dealt = i
                return ev

    def deal_all(self) -> None:
        """Deal the rest without declaring (tests and tools)."""
        while self.phase == "deal" and not self.offers:
            self.deal()

    # ------------------------------------------------------------ declaring (the protocol decides)

    def judge_declaration(self, seat: int, cards: Sequence[int]) -> Declaration:
        """The declaration ``seat`` makes by showing ``cards`` now, or raise IllegalPlay/InvalidCards."""
        return self.protocol.judge_shown(seat, cards)

    def verify_declare(self, seat: int, cards: Sequence[int]) -> Declaration:
        return self.protocol.verify_declare(seat, cards)

    def can_declare(self, seat: int, cards: Sequence[int]) -> bool:
        return _allowed(self.verify_declare, seat, cards)

    def legal_declarations(self, seat: int) -> list[tuple[int, ...]]:
        """Every declaration ``seat`` could make now (empty outside the declaring window)."""
        return self.protocol.legal_declarations(seat)

    def declarations_by_seat(self) -> dict[int, list[tuple[int, ...]]]:
        """The legal declarations of every seat right now (after each dealt card, for the UI)."""
        return {s: self.legal_declarations(s) for s in range(self.n)}

    def declare(self, seat: int, cards: Sequence[int]) -> Event:
        """Show ``cards`` to declare (亮主), reinforce, overturn or declare no trump."""
        d = self.verify_declare(seat, cards)
        self.declaration = d
        self.declarations.append(d)
        if self.first_declarer is None:
            self.first_declarer = seat
        if d.kind == "overturn" or (d.kind == "no_trump" and len(self.declarations) > 1):
            self.overturned_once = True
        ev = self._append(Declare(seat, tuple(sorted(cards)), d.kind))
        self.protocol.declared(seat)
        return ev

    def verify_pass(self, seat: int) -> None:
        self.protocol.verify_pass(seat)

    def can_pass(self, seat: int) -> bool:
        return _allowed(self.verify_pass, seat)

    def pass_(self, seat: int) -> Event:
        """Decline: an offered overturn (yongzhou: forfeits overturning for the hand), a turn to
        declare, to bid (final) or to overturn (chaodi's round)."""
        self.verify_pass(seat)
        p = self.phase
        ev = self._append(Pass(seat, (), "declare" if p == "deal" else p))
        self.protocol.passed(seat, p)
        return ev

    # ------------------------------------------------------------ transitions the protocols ask for

    def fix_trump(self) -> None:
        """Trump and the dealer are settled (``self.trump``, ``self.dealer``): log it, build the context."""
        if self.partnership:
            assert self.state is not None and self.dealer is not None
            self.state = replace(self.state, dealer=self.dealer)
            self.level = self.state.levels[self.dealer % 2]
        self._append(Trump(self.dealer, () if self.flipped is None else (self.flipped,), self.trump))
        self.ctx = context_for(self.rules, self.level, self.trump)

    def redeal(self) -> None:
        """Nobody declared: deal a new deck (the protocol decides when)."""
        self.redeals += 1
        redeals = self.redeals
        self._start(self._new_deck(), Redeal, checked=self._deck_source is None)
        self.redeals = redeals

    # ------------------------------------------------------------ bidding (red-five)

    def legal_bids(self, seat: int) -> list[int]:
        return self.protocol.legal_bids(seat)

    def verify_bid(self, seat: int, amount: int) -> None:
        self.protocol.verify_bid(seat, amount)

    def can_bid(self, seat: int, amount: int) -> bool:
        return _allowed(self.verify_bid, seat, amount)

    def bid(self, seat: int, amount: int) -> Event:
        """Bid ``amount`` (red-five)."""
        self.verify_bid(seat, amount)
        ev = self._append(Bid(seat, (), amount))
        assert isinstance(self.protocol, Bidding)
        self.protocol.made_bid(seat, amount)
        return ev

    def verify_name_trump(self, seat: int, suit: str) -> None:
        self.protocol.verify_name_trump(seat, suit)

    def can_name_trump(self, seat: int, suit: str) -> bool:
        return _allowed(self.verify_name_trump, seat, suit)

    def name_trump(self, seat: int, suit: str | None = None) -> Event:
        """The red-five dealer names trump (None: the ``undecided_trump`` option, spades)."""
        if suit is None:
            suit = str(self.rules.option("undecided_trump"))
        self.verify_name_trump(seat, suit)
        self.trump = suit
        ev = self._append(NameTrump(seat, (), suit))
        self.ctx = context_for(self.rules, None, suit)
        self.take_kitty(seat)
        return ev

    # ------------------------------------------------------------ kitty

    def take_kitty(self, seat: int) -> None:
        """``seat`` takes the kitty into its hand (the protocol says when)."""
        h = self.hands[seat]
        for c in self.kitty:
            h[c] += 1
        self.nleft[seat] += len(self.kitty)
        self.kitty_holder = seat
        # chaodi (seed 001 "每一局的第一次翻看底牌需要亮出给所有人看"): the kitty as dealt is shown to all
        shown = self.protocol.shows_first_kitty and self.shown_kitty is None
        if shown:
            self.shown_kitty = tuple(self.kitty)
        self._append(TakeKitty(seat, tuple(self.kitty), shown))
        self.kitty = []
        self.phase = "kitty"

    def verify_bury(self, seat: int, cards: Sequence[int]) -> None:
        if self.phase != "kitty":
            raise WrongPhase(f"{en_seat(seat)} cannot bury in the {self.phase} phase.", f"{zh_seat(seat)}在 {self.phase} 阶段不能扣底。")
        if seat != self.kitty_holder:
            raise OutOfTurn(f"{en_seat(seat)} cannot bury: {en_seat(self.kitty_holder, capital=False)} holds the kitty.",
                            f"{zh_seat(seat)}不能扣底：底牌在{zh_seat(self.kitty_holder)}手中。")
        k = self.rules.kitty_size
        if len(cards) != k:
            raise IllegalPlay(f"{en_seat(seat)} must bury exactly {k} cards, not {len(cards)}.",
                              f"{zh_seat(seat)}必须扣 {k} 张牌，而不是 {len(cards)} 张。")
        h = list(self.hands[seat])
        for c in cards:
            if not 0 <= c < NCODES or h[c] <= 0:
                name = CODE_NAMES[c] if 0 <= c < NCODES else str(c)
                raise InvalidCards(f"{en_seat(seat)} does not hold {name} to bury ({format_cards(cards)}).",
                                   f"{zh_seat(seat)}手中没有 {name} 可扣（{format_cards(cards)}）。")
            h[c] -= 1

    def can_bury(self, seat: int, cards: Sequence[int]) -> bool:
        return _allowed(self.verify_bury, seat, cards)

    def bury(self, seat: int, cards: Sequence[int]) -> Event:
        """Bury ``cards`` face down as the kitty."""
        self.verify_bury(seat, cards)
        h = self.hands[seat]
        for c in cards:
            h[c] -= 1
        self.nleft[seat] -= len(cards)
        self.kitty = list(cards)
        self.buried_by = seat
        ev = self._append(Bury(seat, tuple(cards)))
        self.protocol.after_bury(seat)
        return ev

    # ------------------------------------------------------------ chaodi's insurance (定主) and overturn round (炒底)

    def verify_insure(self, seat: int, cards: Sequence[int] | None = None) -> tuple[int, int]:
        """Check 定主 (RULES §5.1, chaodi: the dealer shows the pair of the trump level card before burying
        the kitty). ``cards`` None: that pair. Returns the pair."""
        if not 0 <= seat < self.n:
            raise OutOfTurn(f"There is no seat numbered {seat} (seats are numbered from 0 in code and in the API).",
                            f"没有编号为 {seat} 的座位（程序和 API 中座位从 0 起编号）。")
        return self.protocol.verify_insure(seat, cards)

    def can_insure(self, seat: int, cards: Sequence[int] | None = None) -> bool:
        return _allowed(self.verify_insure, seat, cards)

    def legal_insurances(self, seat: int) -> list[tuple[int, ...]]:
        """The insurance ``seat`` could show now: ``[pair]`` or ``[]`` (chaodi's 定主)."""
        return self.protocol.legal_insurances(seat)

    def insure(self, seat: int, cards: Sequence[int] | None = None) -> Event:
        """Chaodi 定主: the dealer shows the pair of the trump level card (the declaration becomes
        ``insured`` with that pair's overturn strength: ♠ > ♥ > ♣ > ♦, below LJ LJ and BJ BJ)."""
        pair = self.verify_insure(seat, cards)
        assert isinstance(self.protocol, LevelCardAndJoker)
        nd = self.protocol.insurance(seat, pair)
        self.declaration = nd
        self.declarations.append(nd)
        return self._append(Insure(seat, pair))

    def legal_overturns(self, seat: int) -> list[tuple[int, ...]]:
        return self.protocol.legal_overturns(seat)

    def verify_overturn(self, seat: int, cards: Sequence[int]) -> Declaration:
        return self.protocol.verify_overturn(seat, cards)

    def can_overturn(self, seat: int, cards: Sequence[int]) -> bool:
        return _allowed(self.verify_overturn, seat, cards)

    def overturn(self, seat: int, cards: Sequence[int]) -> Event:
        """Chaodi: overturn after the kitty is buried; the overturner takes and re-buries the kitty."""
        d = self.verify_overturn(seat, cards)
        self.declaration = d
        self.declarations.append(d)
        self.overturned_once = True
        ev = self._append(Overturn(seat, d.cards, d.kind))
        self.trump = d.suit
        self.ctx = context_for(self.rules, self.level, self.trump)
        self._append(Trump(self.dealer, (), self.trump))
        self.take_kitty(seat)
        return ev

    # ------------------------------------------------------------ play

    def begin_play(self, leader: int) -> None:
        assert self.ctx is not None
        self.phase = "play"
        self.elsewhere, self._others = no_rows(self.n)  # the first observation of the play makes them
        self._new_trick(leader)

    def _new_trick(self, leader: int) -> None:
        self.trick_leader = self.trick_turn = leader
        self.trick_plays: list[Event] = []
        self.trick_on: tuple[tuple[int, ...], ...] = ()  # rebuilt per play: legal_plays hands it out as is
        self.trick_seats: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (seat, cards on the table): observations share it
        self.trick_lead: Combo | None = None
        self.trick_best: tuple[int, int] | None = None
        self.trick_best_seat: int | None = None
        self.trick_points = 0  # the points on the table, added play by play

    def legal_plays(self, seat: int) -> LegalPlays:
        """The legal plays of ``seat`` (which must be the seat to play)."""
        if self.phase != "play" or seat != self.trick_turn:
            self._check_turn(seat)
        assert self.ctx is not None
        self._offered = lp = LegalPlays(self.ctx, self.hands[seat], self.trick_lead, self.trick_on, self.nleft[seat])
        self._offered_seat, self._offered_at = seat, len(self.log)
        return lp

    def _check_turn(self, seat: int) -> None:
        if self.phase != "play":
            raise WrongPhase(f"{en_seat(seat)} cannot play in the {self.phase} phase.",
                             f"{zh_seat(seat)}在 {self.phase} 阶段不能出牌。")
        if seat != self.trick_turn:
            raise OutOfTurn(f"{en_seat(seat)} played out of turn: {en_seat(self.trick_turn, capital=False)} is to play.",
                            f"{zh_seat(seat)}没有轮到出牌：现在轮到{zh_seat(self.trick_turn)}。")

    def _verify_play(self, seat: int, cards: Sequence[int]) -> Combo | None:
        """Check a play; return the classified lead (None for a follow)."""
        self._check_turn(seat)
        ctx = self.ctx
        assert ctx is not None
        hand, lead = self.hands[seat], self.trick_lead
        if lead is None:
            return check_lead(ctx, hand, cards, seat=seat)
        if follow_fault(ctx, hand, lead, cards) is None and not (ctx.extra_rules and self.trick_on):
            return None
        check_follow(ctx, hand, lead, cards, prior=self.trick_on, seat=seat)
        return None

    def verify_play(self, seat: int, cards: Sequence[int]) -> None:
        self._verify_play(seat, cards)

    def can_play(self, seat: int, cards: Sequence[int]) -> bool:
        return _allowed(self._verify_play, seat, cards)

    def play(self, seat: int, cards: Sequence[int]) -> Event:
        """Play ``cards``: a lead (a throw is checked against the other hands and may be replaced
        by the forced component) or a follow."""
        ctx = self.ctx
        lead = self.trick_lead
        off = self._offered  # a play this very state's legal_plays handed out is legal: not checked again
        if off is not None and seat == self._offered_seat and len(self.log) == self._offered_at and \
                self.phase == "play" and (cards is off._given or off.gave(cards)):
            combo = classify(off.ctx, cards) if lead is None else None
        else:
            combo = self._verify_play(seat, cards)
        assert ctx is not None
        on = cards = tuple(cards)
        ev = new_play(seat, cards)
        penalty = 0
        if combo is not None and len(combo.components) > 1:  # a throw: checked against the other hands
            failed = throw_forced(ctx, combo, [h for s, h in enumerate(self.hands) if s != seat])
            if failed is not None:
                combo, penalty = failed
                ev = new_play(seat, cards, combo.codes, penalty)
                on = combo.codes
        return self._place(seat, ev, on, combo, penalty)

    def place(self, seat: int, cards: Sequence[int], forced: Sequence[int] | None = None) -> Event:
        """Put ``cards`` on the table as a physical table played them, checking only the turn (judged first
        by :mod:`gameplay.record_replay`); ``forced``: what a failed throw left on the table."""
        self._check_turn(seat)
        ctx = self.ctx
        assert ctx is not None
        cards = tuple(cards)
        if self.trick_lead is not None:
            return self._place(seat, new_play(seat, cards), cards, None, 0)
        if forced is None:
            return self._place(seat, new_play(seat, cards), cards, classify(ctx, cards), 0)
        on = tuple(forced)
        penalty = (len(cards) - len(on)) * ctx.rules.throw_penalty
        return self._place(seat, new_play(seat, cards, on, penalty), on, classify(ctx, on), penalty)

    def _place(self, seat: int, ev: Event, on: tuple[int, ...], combo: Combo | None, penalty: int) -> Event:
        """Put a judged play on the table: ``on`` left there, ``combo`` a lead's effective combination."""
        ctx, lead = self.ctx, self.trick_lead
        assert ctx is not None
        es = ctx.esuit
        if combo is not None:
            if penalty:
                self.penalties[seat] += penalty
            self.trick_lead = lead = combo
        else:
            assert lead is not None
            s = lead.suit
            if s not in self.voids[seat]:
                for c in on:  # a follow's cards are all on the table
                    if es[c] != s:
                        self.voids[seat] = self.voids[seat] | {s}
                        break
        self.log.append(ev)
        self.public_log.append(ev)
        h, pts, points = self.hands[seat], ctx.points, self.trick_points
        played, others = self.played, self._others[seat]
        for c in on:
            h[c] -= 1
            played[c] += 1
            points += pts[c]
            for row in others:  # the other seats' counts of the cards they do not hold
                row[c] -= 1
        self.trick_points = points
        self.nleft[seat] -= len(on)
        self.trick_plays.append(ev)
        self.trick_on += (on,)
        self.trick_seats += ((seat, on),)
        if lead.n == 1:  # a single's key (as play_key gives it): its strength, a ruff above
            c = on[0]
            e, s = es[c], lead.suit
            key = (0, ctx.strength[c]) if e == s else (1, ctx.strength[c]) if e == TRUMP and s != TRUMP else None
        else:
            key = play_key(ctx, lead, on)
        if key is not None and (self.trick_best is None or key > self.trick_best):
            self.trick_best, self.trick_best_seat = key, seat
        if len(self.trick_plays) == self.n:
            self._finish_trick()
        else:
            self.trick_turn = (seat + 1) % self.n
        return ev

    def _finish_trick(self) -> None:
        ctx = self.ctx
        winner = self.trick_best_seat  # the first strongest play (先出为大), kept as plays come
        assert ctx is not None and winner is not None
        points = self.trick_points
        self.points[winner] += points
        self.tricks.append((self.trick_leader, tuple(self.trick_plays), winner, points))
        self.log.append(ev := new_trick(winner, points))
        self.public_log.append(ev)
        if self.nleft[winner] == 0:
            self.score()
        else:
            self._new_trick(winner)

    # ------------------------------------------------------------ scoring

    def kitty_points(self) -> int:
        return kitty_points(self)

    def score(self) -> None:
        """The last trick is won: score the hand through :func:`gameplay.outcome.settle` and log it."""
        self.phase = "scored"
        settled = settle(self)
        self.outcome = settled.outcome
        self.result = settled.result
        if settled.match_state is not None:
            self.match_state = settled.match_state
            self.new_state = settled.new_state
        self._append(Scored(None, tuple(self.kitty), json.dumps(self.outcome, sort_keys=True)))
        if type(self).__weakrefoffset__:  # mypyc's classes take no weak reference (the collector frees those)
            self.protocol.hand = weakref.proxy(self)  # no cycle left: freed as soon as the last reference goes

    def score_request(self) -> dict[str, Any]:
        """The body of ``POST /api/v1/scoring/hand`` that scores this hand."""
        return score_request(self)

    # ------------------------------------------------------------ observation and serialization

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (:func:`gameplay.observation.observe`)."""
        return observe(self, seat)

    def public_events(self, seat: int | None = None) -> list[Event]:
        """The log as ``seat`` (None: a spectator) sees it: others' dealt cards, the deck and their kitty hidden."""
        return [redact(e, seat) for e in self.log]

    def to_json(self) -> dict[str, Any]:
        return {"format": LOG_FORMAT, "config": self.config.to_json(), "events": [e.to_json() for e in self.log]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
