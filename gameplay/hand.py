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
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

from gameplay.cards import (
    BJ,
    CODE_NAMES,
    LJ,
    NCODES,
    SUITS,
    code_rank,
    code_suit,
    deck_codes,
    format_cards,
    make_code,
    parse_cards,
)
from gameplay.combos import Combo, decompose
from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from gameplay.legality import (
    _count_submultisets,
    _follow_fault,
    check_follow,
    check_lead,
    count_legal_leads,
    is_legal_follow,
    legal_follows,
    legal_leads,
    throw_check,
)
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ENGINE_OPTIONS, RuleSet, ruleset
from gameplay.tricks import play_key
from scoring.partnership import (
    HandResult,
    LastTrick,
    MatchState,
    PartnershipOutcome,
    apply_hand,
    initial_state,
)
from scoring.redfive import RedFiveCapture, RedFiveOutcome, RedFiveResult, settle_red_five
from scoring.rules import PartnershipRules, RedFiveRules, ScoringRules, YongzhouRules, scoring_rules
from scoring.yongzhou import YongzhouOutcome, YongzhouResult, settle_yongzhou

__all__ = ["PHASES", "Declaration", "Event", "Hand", "HandConfig", "InvalidLog", "LegalPlays", "Observation",
           "context_for", "replay"]

PHASES = ("deal", "declare", "bid", "trump", "kitty", "overturn", "play", "scored")
ACTIONS = frozenset({"deal", "declare", "pass", "bid", "name_trump", "bury", "insure", "overturn", "play"})
LOG_FORMAT = "shengji-hand/1"
MAX_REDEALS = 20
"""After this many redeals in a row (nobody declaring in a first hand) the hand is played no trump."""

SUIT_EN = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", None: "no trump"}
SUIT_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块", None: "无主"}
PAIR_ORDER = {"D": 1, "C": 2, "H": 3, "S": 4}
"""Overturn strength of a pair of one suit (♠ > ♥ > ♣ > ♦); joker pairs above: LJ LJ 5, BJ BJ 6."""
JOKER_OF = {"D": BJ, "H": BJ, "C": LJ, "S": LJ}
"""The joker of a suit's colour (chaodi): red suits with the big joker, black with the little one."""


class InvalidLog(GameplayError):
    """A hand log that does not replay: ``.index`` is the event, the message says why."""

    code = "invalid_log"

    def __init__(self, index: int | None, en: str, zh: str | None = None) -> None:
        super().__init__(en, zh)
        self.index = index


def _en_seat(seat: int) -> str:
    return f"Seat {seat}"


def _zh_seat(seat: int) -> str:
    return f"{seat}号座位"


# ---------------------------------------------------------------- configuration and events


@dataclass(frozen=True)
class HandConfig:
    """What a hand needs before the deal.

    ``options`` may mix engine options (:data:`gameplay.rulesets.ENGINE_OPTIONS`) and scoring
    options; they are split by name. ``state`` (tractor, chaodi) is the match state before the hand;
    None means the first hand of a match (the first declarer becomes the dealer, 争庄).
    ``start_seat`` is the seat dealt to first (yongzhou-300: the last hand's winner; it leads when
    nobody declares). ``first_bidder`` is red-five's first bidder (None: seat 0, or a random seat
    with the ``first_bidder="random"`` option).
    """

    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: int | None = None
    players: int | None = None
    state: MatchState | None = None
    start_seat: int | None = None
    first_bidder: int | None = None

    def engine_rules(self) -> RuleSet:
        eng = {k: v for k, v in self.options.items() if k in ENGINE_OPTIONS}
        return ruleset(self.variant, eng, decks=self.decks, players=self.players)

    def scoring_rules(self) -> ScoringRules:
        sc = {k: v for k, v in self.options.items() if k not in ENGINE_OPTIONS}
        return scoring_rules(self.variant, sc, decks=self.decks if self.variant == "red-five" else None,
                             players=self.players if self.variant == "yongzhou-300" else None)

    def to_json(self) -> dict[str, Any]:
        st = None
        if self.state is not None:
            st = {"levels": list(self.state.levels), "dealer": self.state.dealer,
                  "a_failures": list(self.state.a_failures), "hands_played": self.state.hands_played}
        return {"variant": self.variant, "options": dict(self.options), "decks": self.decks, "players": self.players,
                "state": st, "start_seat": self.start_seat, "first_bidder": self.first_bidder}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandConfig:
        st = data.get("state")
        state = None
        if st is not None:
            state = MatchState(levels=(str(st["levels"][0]), str(st["levels"][1])), dealer=int(st["dealer"]),
                               a_failures=(int(st["a_failures"][0]), int(st["a_failures"][1])),
                               hands_played=int(st.get("hands_played", 0)))
        return cls(variant=str(data["variant"]), options=dict(data.get("options") or {}), decks=data.get("decks"),
                   players=data.get("players"), state=state, start_seat=data.get("start_seat"),
                   first_bidder=data.get("first_bidder"))


class Event(NamedTuple):
    """One entry of a hand's log (immutable).

    ``kind``: an action (deal, declare, pass, bid, name_trump, bury, insure, overturn, play) or an automatic
    consequence (shuffle, redeal, trump, take_kitty, trick, scored). ``value``: the declaration kind
    ("insured" for chaodi's separate 定主),
    the bid, the trump suit ("NT" for none), a trick's points, the phase of a pass, the outcome JSON.
    ``forced``: the cards a failed throw must play instead; ``penalty`` its penalty points.
    """

    kind: str
    seat: int | None = None
    cards: tuple[int, ...] = ()
    value: int | str | None = None
    forced: tuple[int, ...] | None = None
    penalty: int = 0

    @property
    def on_table(self) -> tuple[int, ...]:
        return self.forced if self.forced is not None else self.cards

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = format_cards(self.cards)
        if self.value is not None:
            out["value"] = self.value
        if self.forced is not None:
            out["forced"] = format_cards(self.forced)
        if self.penalty:
            out["penalty"] = self.penalty
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        forced = data.get("forced")
        return cls(kind=str(data["kind"]), seat=data.get("seat"), cards=tuple(parse_cards(data.get("cards") or "")),
                   value=data.get("value"), forced=None if forced is None else tuple(parse_cards(forced)),
                   penalty=int(data.get("penalty", 0)))

    def __str__(self) -> str:
        parts = [self.kind]
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.cards:
            parts.append(format_cards(self.cards))
        if self.value is not None:
            parts.append(f"({self.value})")
        if self.forced is not None:
            parts.append(f"→ {format_cards(self.forced)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A standing declaration: who, with which cards, which trump (None: no trump), how strong."""

    seat: int
    cards: tuple[int, ...]
    kind: str
    suit: str | None
    strength: int


_CTX_CACHE: dict[tuple[Any, ...], Context] = {}


def context_for(rules: RuleSet, level: str | int | None, trump: str | None) -> Context:
    """A cached :class:`Context` (building one takes ~100 µs; hands reuse a few dozen)."""
    key = (rules.variant, rules.decks, rules.players, tuple(sorted(rules.options.items())), level, trump)
    ctx = _CTX_CACHE.get(key)
    if ctx is None:
        ctx = Context(rules, level, trump)
        if len(_CTX_CACHE) > 512:
            _CTX_CACHE.clear()
        _CTX_CACHE[key] = ctx
    return ctx


# ---------------------------------------------------------------- legal plays and observations


def _sample_submultiset(rng: random.Random, items: list[tuple[int, int]], size: int) -> list[int]:
    """A uniformly random sub-multiset of ``size`` cards of (code, count) items."""
    if size == 1:  # distinct codes are equally likely
        return [items[rng.randrange(len(items))][0]]
    # ways[i][s] = number of sub-multisets of size s from items[i:]
    n = len(items)
    ways = [[0] * (size + 1) for _ in range(n + 1)]
    ways[n][0] = 1
    for i in range(n - 1, -1, -1):
        k = items[i][1]
        row, nxt = ways[i], ways[i + 1]
        for s in range(size + 1):
            row[s] = sum(nxt[s - t] for t in range(min(k, s) + 1))
    out: list[int] = []
    left = size
    for i in range(n):
        if left == 0:
            break
        code, k = items[i]
        r = rng.randrange(ways[i][left])
        for t in range(min(k, left) + 1):
            w = ways[i + 1][left - t]
            if r < w:
                out.extend([code] * t)
                left -= t
                break
            r -= w
    return out


class LegalPlays:
    """The legal plays of one seat at its turn in the play phase (what bots and the UI get)."""

    __slots__ = ("_list", "counts", "ctx", "lead", "prior")

    def __init__(self, ctx: Context, counts: Sequence[int], lead: Combo | None,
                 prior: Sequence[Sequence[int]]) -> None:
        self.ctx = ctx
        self.counts = counts
        self.lead = lead
        self.prior = prior
        self._list: list[tuple[int, ...]] | None = None

    @property
    def is_lead(self) -> bool:
        return self.lead is None

    def leads(self, *, include_throws: bool = False) -> Iterator[tuple[int, ...]]:
        return legal_leads(self.ctx, self.counts, include_throws=include_throws)

    def follows(self) -> list[tuple[int, ...]]:
        assert self.lead is not None
        if self._list is None:
            self._list = list(legal_follows(self.ctx, self.counts, self.lead, prior=self.prior))
        return self._list

    def _short(self) -> tuple[list[int], list[tuple[int, int]], int] | None:
        """(suit cards, other items, fill size) when the follower is short of the led suit and no
        yongzhou rule narrows the choice; None otherwise."""
        lead = self.lead
        assert lead is not None
        ctx = self.ctx
        rules = ctx.rules
        if (rules.must_beat_on_points or rules.no_gifting_points) and self.prior:
            return None
        s = lead.suit
        es = ctx.esuit
        counts = self.counts
        suit = [c for c in ctx.suit_codes[s] for _ in range(counts[c])]
        if len(suit) > lead.n:
            return None
        others = [(c, counts[c]) for c in range(NCODES) if counts[c] and es[c] != s]
        return suit, others, lead.n - len(suit)

    def count(self) -> int:
        if self.lead is None:
            return count_legal_leads(self.ctx, self.counts, include_throws=self.ctx.rules.throw_allowed)
        short = self._short()
        if short is not None:
            return _count_submultisets([k for _, k in short[1]], short[2])
        return len(self.follows())

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal play (leads: throws included where allowed), without listing
        every play when there are very many."""
        ctx = self.ctx
        counts = self.counts
        if self.lead is None:
            if not ctx.rules.throw_allowed:
                leads = list(self.leads())
                return leads[rng.randrange(len(leads))]
            totals = []
            for s in range(TRUMP + 1):
                prod = 1
                for c in ctx.suit_codes[s]:
                    prod *= counts[c] + 1
                totals.append(prod - 1)
            r = rng.randrange(sum(totals))
            for s in range(TRUMP + 1):
                if r < totals[s]:
                    x = r + 1  # mixed-radix index of a non-empty sub-multiset
                    out: list[int] = []
                    for c in ctx.suit_codes[s]:
                        k = counts[c] + 1
                        x, take = divmod(x, k)
                        out.extend([c] * take)
                    return tuple(out)
                r -= totals[s]
            raise AssertionError("no lead")
        short = self._short()
        if short is not None:
            suit, others, fill = short
            return tuple(suit + _sample_submultiset(rng, others, fill))
        plays = self.follows()
        return plays[rng.randrange(len(plays))]

    def is_legal(self, cards: Sequence[int]) -> bool:
        if self.lead is None:
            from gameplay.legality import can_lead

            return can_lead(self.ctx, self.counts, cards)
        return is_legal_follow(self.ctx, self.counts, self.lead, cards, prior=self.prior)


class Observation(NamedTuple):
    """What one seat may know: its own cards, everything public, the kitty only if it buried it."""

    seat: int
    players: int
    decks: int
    variant: str
    phase: str
    level: str | None
    trump: str | None
    ctx: Context | None
    dealer: int | None
    declaration: Declaration | None
    hand: tuple[int, ...]
    kitty: tuple[int, ...] | None
    leader: int | None
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    lead: Combo | None
    played: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    points: tuple[int, ...]
    tricks_played: int
    cards_left: tuple[int, ...]
    winning: int | None
    """The seat whose play currently wins the trick (None before the lead)."""
    winning_key: tuple[int, int] | None
    """Its strength against the lead (``gameplay.tricks.play_key``)."""
    events: tuple[Event, ...]
    """The public events so far (the deck, dealt cards and the kitty hidden; this seat's own cards are
    in ``hand`` and ``kitty``)."""
    bid: int | None
    bidder: int | None
    passed: frozenset[int]
    shown_kitty: tuple[int, ...] | None = None
    """chaodi: the kitty as dealt, shown to all when the dealer first took it (None before, and in
    other variants)."""

    def team(self, seat: int) -> int:
        """Who plays together: partnership sides; red-five dealer (0) vs defenders (1); yongzhou each alone."""
        if self.variant in ("tractor", "chaodi"):
            return seat % 2
        if self.variant == "red-five":
            return 0 if seat == self.dealer else 1
        return seat



def redact(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it (None: a spectator)."""
    if event.kind in ("shuffle", "redeal"):
        return event._replace(cards=())
    if event.kind == "take_kitty" and event.value == "shown":
        return event  # chaodi: the kitty as dealt is shown to all (RULES §5.2)
    if event.kind in ("deal", "take_kitty", "bury") and event.seat != seat:
        return event._replace(cards=())
    return event


# ---------------------------------------------------------------- the hand


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
        self.partnership = self.variant in ("tractor", "chaodi")
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
        fb = config.first_bidder
        if self.variant == "red-five" and fb is None:
            fb = self.rng.randrange(self.n) if r.option("first_bidder") == "random" else 0
        self.first_bidder = fb
        self.log: list[Event] = []
        self.public_log: list[Event] = []
        """The log as a spectator sees it (no deck, no dealt cards, no kitty): part of every observation."""
        self._decl_levels: dict[int, int | None] = {}
        self.redeals = 0
        first = list(deck) if deck is not None else self._new_deck()
        self._start(first, "shuffle")

    @classmethod
    def from_position(cls, config: HandConfig, hands: Sequence[Sequence[int]], kitty: Sequence[int], *,
                      trump: str | None, dealer: int) -> Hand:
        """A hand placed directly at the start of the play phase (benchmarks, analysis): ``hands`` per
        seat after the burial, ``kitty`` buried by ``dealer``, who leads. The level is the dealer
        side's level of ``config.state``. Its log starts with a ``position`` event (the cards in
        dealing order, then the kitty): it records the play but :func:`replay` refuses it."""
        n = len(hands)
        size = len(hands[0])
        deck = [hands[s][i] for i in range(size) for s in range(n)] + list(kitty)
        h = cls(config, deck=deck)
        for seat in range(n):
            for c in hands[seat]:
                h.hands[seat][c] += 1
            h.nleft[seat] = len(hands[seat])
        h.dealt = h.ndeal
        h.log = [Event("position", None, tuple(deck))]
        h.public_log = [Event("position")]
        h.dealer = dealer
        h.trump = trump
        if h.partnership:
            assert h.state is not None
            h.state = replace(h.state, dealer=dealer)
            h.level = h.state.levels[dealer % 2]
        h.ctx = context_for(h.rules, h.level, trump)
        h.kitty = list(kitty)
        h.buried_by = dealer
        h._begin_play(dealer)
        return h

    # ------------------------------------------------------------ setup

    def _new_deck(self) -> list[int]:
        if self._deck_source is not None:
            return self._deck_source()
        d = deck_codes(self.rules.decks, self.rules.removed_ranks)
        self.rng.shuffle(d)
        return d

    def _start(self, deck: list[int], kind: str) -> None:
        r = self.rules
        expected = sorted(deck_codes(r.decks, r.removed_ranks))
        if sorted(deck) != expected:
            raise InvalidCards("The deck is not a full deck of the variant.", "这副牌不是该玩法的完整牌。")
        self.deck = tuple(deck)
        self.dealt = 0
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
        self.turn_index = 0
        self.passes = 0
        self.dealer: int | None = None if (self.first_hand or self.variant in ("red-five", "yongzhou-300")) \
            else self.state.dealer if self.state is not None else None
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
        self.overturned_once = False
        self.round_started = False
        self._new_trick(0)
        r_ = self.rules
        self._extra = r_.must_beat_on_points or r_.no_gifting_points
        self.tricks: list[tuple[int, tuple[Event, ...], int, int]] = []  # (leader, plays, winner, points)
        self.points = [0] * self.n
        self.penalties = [0] * self.n
        self.played = [0] * NCODES
        self.voids: list[frozenset[int]] = [frozenset() for _ in range(self.n)]
        self.outcome: dict[str, Any] | None = None
        self.result: HandResult | RedFiveResult | YongzhouResult | None = None
        self.new_state: MatchState | None = None
        self.match_state: MatchState | None = None
        self._append(Event(kind, None, tuple(deck)))

    def _append(self, ev: Event) -> Event:
        self.log.append(ev)
        self.public_log.append(redact(ev, None))
        return ev

    # ------------------------------------------------------------ queries

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
        cache[seat] = lv = self._decl_level(seat)
        return lv

    def _decl_level(self, seat: int) -> int | None:
        if self.variant == "yongzhou-300":
            return 10
        if not self.partnership:
            return None
        assert self.state is not None
        lv = self.state.levels[seat % 2] if (self.variant == "chaodi" and not self.first_hand) else self.level
        assert lv is not None
        return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(lv, None) or int(lv)

    def to_act(self) -> tuple[str, int | None]:
        """What happens next: ("deal", None), ("declare", seat) — declare or pass —, ("bid", seat),
        ("name_trump", seat), ("bury", seat), ("overturn", seat), ("play", seat) or ("scored", None)."""
        p = self.phase
        if p == "deal":
            if self.offers:
                return ("declare", self.offers[0])
            return ("deal", None)
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
            raise OutOfTurn(f"{_en_seat(s)} must first overturn or pass (an overturn is offered).",
                            f"{_zh_seat(s)}须先决定反主或不反。")

    def can_deal(self) -> bool:
        return self.phase == "deal" and not self.offers

    def deal(self) -> Event:
        """Deal the next card to the next seat in play order."""
        self.verify_deal()
        i = self.dealt
        seat = (self.start_seat + i) % self.n
        c = self.deck[i]
        self.hands[seat][c] += 1
        self.nleft[seat] += 1
        self.dealt = i + 1
        ev = self._append(Event("deal", seat, (c,)))
        if self.variant == "yongzhou-300" and self.declaration is not None:
            self._offer([seat])
        if self.dealt == self.ndeal and not self.offers:
            self._end_deal()
        return ev

    def deal_all(self) -> None:
        """Deal the rest without declaring (tests and tools)."""
        while self.phase == "deal" and not self.offers:
            self.deal()

    def _end_deal(self) -> None:
        v = self.variant
        if v == "red-five":
            self.phase = "bid"
            self.bid_turn = self.first_bidder
            return
        if v == "chaodi" and not self.first_hand:
            assert self.dealer is not None
            d = self.dealer
            order = [d, (d + 2) % 4, (d + 1) % 4, (d + 3) % 4]
        elif v == "chaodi" and self.declaration is not None:
            self._resolve_declarations()
            return
        else:
            order = [(self.start_seat + i) % self.n for i in range(self.n)]
        self.phase = "declare"
        self.round_order = order
        self.turn_index = 0
        self.passes = 0
        self._advance_round(start=True)

    # ------------------------------------------------------------ declaring

    def _declaring_window(self) -> bool:
        """Whether declaring is possible now (dealing or the declaration round)."""
        if self.phase == "declare":
            return True
        if self.phase != "deal":
            return False
        if self.variant == "chaodi":
            return self.first_hand and self.declaration is None
        return self.variant in ("tractor", "yongzhou-300")

    def judge_declaration(self, seat: int, cards: Sequence[int]) -> Declaration:
        """The declaration ``seat`` makes by showing ``cards`` now, or raise IllegalPlay/InvalidCards."""
        cards = tuple(sorted(cards))
        h = self.hands[seat]
        need: dict[int, int] = {}
        for c in cards:
            if not 0 <= c < NCODES:
                raise InvalidCards(f"{c} is not a card.", f"{c} 不是牌。")
            need[c] = need.get(c, 0) + 1
        for c, k in need.items():
            if h[c] < k:
                raise InvalidCards(f"{_en_seat(seat)} does not hold {format_cards([c] * k)} to show.",
                                   f"{_zh_seat(seat)}手中没有 {format_cards([c] * k)} 可亮。")
        v = self.variant
        if v == "tractor":
            return self._judge_tractor(seat, cards)
        if v == "chaodi":
            return self._judge_chaodi(seat, cards, overturn=False)
        if v == "yongzhou-300":
            return self._judge_yongzhou(seat, cards)
        raise IllegalPlay("red-five has no declaring: the dealer is found by bidding.", "红五不亮主：以叫分定庄。")

    def _bad(self, seat: int, cards: Sequence[int], en: str, zh: str) -> IllegalPlay:
        return IllegalPlay(f"{_en_seat(seat)} cannot show {format_cards(cards)}: {en}.",
                           f"{_zh_seat(seat)}不能亮 {format_cards(cards)}：{zh}。")

    def _judge_tractor(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        L = self.decl_level(seat)
        assert L is not None
        st = self.declaration
        cur = st.strength if st else 0
        if cards in ((LJ, LJ), (BJ, BJ)):
            strength = 3 if cards[0] == LJ else 4
            if strength <= cur:
                raise self._bad(seat, cards, "a joker pair must beat the standing declaration (BJ BJ > LJ LJ)",
                                "反无主须大于已亮的主（对大王 > 对小王）")
            return Declaration(seat, cards, "no_trump", None, strength)
        if not cards or any(c >= 52 or code_rank(c) != L for c in cards) or len(cards) > 2 or \
                (len(cards) == 2 and cards[0] != cards[1]):
            raise self._bad(seat, cards, f"show one level card ({CODE_NAMES[make_code(0, L)][1:]}), a pair of "
                            "level cards of one suit, or a pair of jokers", "须亮一张级牌、一对同花色级牌或一对王")
        suit = SUITS[code_suit(cards[0])]
        if len(cards) == 1:
            if st is not None:
                raise self._bad(seat, cards, "trump is already declared; only a pair can change it (first shown wins)",
                                "已有人亮主，只有对子才能反（先亮为准）")
            return Declaration(seat, cards, "declare", suit, 1)
        if st is None:
            return Declaration(seat, cards, "declare", suit, 2)
        if cur >= 2:
            raise self._bad(seat, cards, "a pair already stands (自保/反主/自反: the first one stands); only a joker "
                            "pair can overturn it", "已有对子（自保、反主、自反以先出现者为准），只能用对王反无主")
        if st.seat == seat:
            kind = "reinforce" if suit == st.suit else "self_overturn"
        else:
            if suit == st.suit:
                raise self._bad(seat, cards, "an overturn (反主) shows a pair of another suit", "反主须亮另一花色的一对级牌")
            kind = "overturn"
        return Declaration(seat, cards, kind, suit, 2)

    def _judge_chaodi(self, seat: int, cards: tuple[int, ...], *, overturn: bool) -> Declaration:
        L = level_rank(str(self.level)) if overturn else self.decl_level(seat)
        st = self.declaration
        if overturn:
            cur = st.strength if st else 0
            if cards in ((LJ, LJ), (BJ, BJ)):
                strength = 5 if cards[0] == LJ else 6
                if strength <= cur:
                    raise self._bad(seat, cards, "an overturn must be stronger than what stands (BJ BJ > LJ LJ > ♠ > ♥ "
                                    "> ♣ > ♦)", "反主须大于已亮的主（对大王 > 对小王 > 黑桃 > 红桃 > 梅花 > 方块）")
                return Declaration(seat, cards, "no_trump", None, strength)
            lv = [c for c in cards if c < 52]
            jk = [c for c in cards if c >= 52]
            if len(cards) != 3 or len(lv) != 2 or lv[0] != lv[1] or code_rank(lv[0]) != L or \
                    jk[0] != JOKER_OF[SUITS[code_suit(lv[0])]]:
                raise self._bad(seat, cards, "an overturn (反主) shows a pair of level cards of one suit with the joker "
                                "of its colour, or a pair of jokers", "反主须亮一对同花色级牌加同颜色的王，或一对王")
            suit = SUITS[code_suit(lv[0])]
            if PAIR_ORDER[suit] <= cur:
                raise self._bad(seat, cards, "an overturn must be stronger than what stands (BJ BJ > LJ LJ > ♠ > ♥ > ♣ "
                                "> ♦)", "反主须大于已亮的主（对大王 > 对小王 > 黑桃 > 红桃 > 梅花 > 方块）")
            return Declaration(seat, cards, "overturn", suit, PAIR_ORDER[suit])
        if st is not None:
            raise self._bad(seat, cards, "trump is already declared (overturns come after the kitty, in later hands)",
                            "已有人亮主（反主在扣底之后，且不在首局）")
        lv = [c for c in cards if c < 52]
        jk = [c for c in cards if c >= 52]
        ok = len(jk) == 1 and 1 <= len(lv) <= 2 and all(c == lv[0] for c in lv) and code_rank(lv[0]) == L \
            and jk[0] == JOKER_OF[SUITS[code_suit(lv[0])]]
        if not ok:
            raise self._bad(seat, cards, "declare with a level card and the joker of its colour (♥/♦ with BJ, ♠/♣ "
                            "with LJ), or a pair of level cards with that joker (定主)",
                            "须亮一张级牌加同颜色的王（红桃/方块配大王，黑桃/梅花配小王），或一对级牌加该王（定主）")
        suit = SUITS[code_suit(lv[0])]
        if len(lv) == 2:
            if not self.first_hand and self.dealer is not None and seat != self.dealer and \
                    seat % 2 == self.dealer % 2:
                raise self._bad(seat, cards, "only the dealer insures (定主) with a pair of level cards; the partner "
                                "declares with one level card and the joker", "只有庄家可以用一对级牌定主；对家用一张级牌加王叫主")
            return Declaration(seat, cards, "insured", suit, PAIR_ORDER[suit])
        return Declaration(seat, cards, "declare", suit, 0)

    def _judge_yongzhou(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        st = self.declaration
        cur = st.strength if st else 0
        if cards in ((LJ, LJ), (BJ, BJ)):
            strength = 6 if cards[0] == LJ else 7
            kind = "no_trump"
        else:
            if not cards or len(cards) > 2 or any(c >= 52 or code_rank(c) != 10 for c in cards) or \
                    (len(cards) == 2 and cards[0] != cards[1]):
                raise self._bad(seat, cards, "show a 10 (亮主), a second 10 of the declared suit (保主), or a pair of "
                                "10s or jokers (反主)", "须亮一张10（亮主）、同花色的第二张10（保主），或一对10或一对王（反主）")
            suit = SUITS[code_suit(cards[0])]
            if len(cards) == 1:
                if st is None:
                    return Declaration(seat, cards, "declare", suit, 1)
                if st.seat == seat and st.kind == "declare" and suit == st.suit and not self.overturned_once:
                    return Declaration(seat, st.cards + cards, "reinforce", suit, 1 + PAIR_ORDER[suit])
                raise self._bad(seat, cards, "trump is already declared: only the declarer may reinforce (保主) with "
                                "a second 10 of its suit, before any overturn", "已有人亮主：只有亮主者在无人反主时可用同花色第二张10保主")
            strength = 1 + PAIR_ORDER[suit]
            kind = "overturn" if st is not None else "declare"
        if st is not None:
            if seat in self.forfeited:
                raise self._bad(seat, cards, "this seat passed an offered overturn earlier and may not overturn any "
                                "more in this hand", "该座位曾放弃反主机会，本局不能再反主")
            if st.seat == seat:
                raise self._bad(seat, cards, "the seat's own declaration stands", "当前的主就是该座位亮的")
            if strength <= cur:
                raise self._bad(seat, cards, "an overturn must be stronger than what stands (BJ BJ > LJ LJ > ♠ > ♥ > "
                                "♣ > ♦ pairs > a single 10)", "反主须大于已亮的主（对大王 > 对小王 > 黑桃 > 红桃 > 梅花 > 方块对10 > 单张10）")
        suit_out = None if kind == "no_trump" else SUITS[code_suit(cards[0])]
        return Declaration(seat, cards, kind, suit_out, strength)

    def verify_declare(self, seat: int, cards: Sequence[int]) -> Declaration:
        if not 0 <= seat < self.n:
            raise OutOfTurn(f"There is no seat {seat}.", f"没有{seat}号座位。")
        if not self._declaring_window():
            raise WrongPhase(f"{_en_seat(seat)} cannot declare now: declaring is over (phase {self.phase}).",
                             f"{_zh_seat(seat)}现在不能亮主：亮主阶段已过（{self.phase}）。")
        _kind, who = self.to_act()
        if self.phase == "declare" and who != seat:
            raise OutOfTurn(f"{_en_seat(seat)} cannot declare now: it is seat {who}'s turn to declare or pass.",
                            f"{_zh_seat(seat)}现在不能亮主：轮到{who}号座位。")
        if self.phase == "deal" and self.offers and self.offers[0] != seat:
            raise OutOfTurn(f"{_en_seat(seat)} must wait: seat {self.offers[0]} answers an overturn offer first.",
                            f"{_zh_seat(seat)}须等待：{self.offers[0]}号座位先决定是否反主。")
        return self.judge_declaration(seat, cards)

    def can_declare(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_declare(seat, cards)
        except GameplayError:
            return False
        return True

    def legal_declarations(self, seat: int) -> list[tuple[int, ...]]:
        """Every declaration ``seat`` could make now (empty outside the declaring window)."""
        if not self._declaring_window():
            return []
        if self.phase == "declare" and self.round_order[self.turn_index] != seat:
            return []
        if self.phase == "deal" and self.offers and self.offers[0] != seat:
            return []
        return self._candidates(seat, overturn=False)

    def declarations_by_seat(self) -> dict[int, list[tuple[int, ...]]]:
        """The legal declarations of every seat right now (after each dealt card, for the UI)."""
        return {s: self.legal_declarations(s) for s in range(self.n)}

    def _candidates(self, seat: int, *, overturn: bool) -> list[tuple[int, ...]]:
        h = self.hands[seat]
        out: list[tuple[int, ...]] = []
        L = level_rank(str(self.level)) if overturn else self.decl_level(seat)
        if L is None:
            return out
        cands: list[tuple[int, ...]] = []
        if h[LJ] >= 2:
            cands.append((LJ, LJ))
        if h[BJ] >= 2:
            cands.append((BJ, BJ))
        for s in range(4):
            c = make_code(s, L)
            k = h[c]
            if not k:
                continue
            if self.variant == "chaodi":
                j = JOKER_OF[SUITS[s]]
                if h[j]:
                    if not overturn:
                        cands.append((c, j))
                    if k >= 2:
                        cands.append((c, c, j))
            else:
                cands.append((c,))
                if k >= 2:
                    cands.append((c, c))
        judge = (lambda cs: self._judge_chaodi(seat, cs, overturn=True)) if overturn else \
            (lambda cs: self.judge_declaration(seat, cs))
        for cs in cands:
            try:
                judge(tuple(sorted(cs)))
            except GameplayError:
                continue
            out.append(tuple(sorted(cs)))
        return out

    def declare(self, seat: int, cards: Sequence[int]) -> Event:
        """Show ``cards`` to declare (亮主), reinforce, overturn or declare no trump."""
        d = self.verify_declare(seat, cards)
        self.declaration = d
        self.declarations.append(d)
        if self.first_declarer is None:
            self.first_declarer = seat
        if d.kind == "overturn" or (d.kind == "no_trump" and len(self.declarations) > 1):
            self.overturned_once = True
        ev = self._append(Event("declare", seat, tuple(sorted(cards)), d.kind))
        if self.phase == "deal":
            if self.offers and self.offers[0] == seat:
                self.offers.pop(0)
            if self.variant == "yongzhou-300":
                self.offers = []
                self.offered = set()
                self._offer([(seat + i) % self.n for i in range(1, self.n)])
            if self.dealt == self.ndeal and not self.offers:
                self._end_deal()
        else:
            if self.variant == "chaodi" and not self.first_hand:
                self._resolve_declarations()
            else:
                self.passes = 0
                self._next_in_round()
        return ev

    def _offer(self, seats: Iterable[int]) -> None:
        """Yongzhou: seats that can overturn now and were not yet asked at this standing must answer."""
        for s in seats:
            if s in self.offered or s in self.forfeited or s in self.offers:
                continue
            if self.declaration is not None and self.declaration.seat == s:
                continue
            if self._candidates(s, overturn=False):
                self.offered.add(s)
                self.offers.append(s)

    def verify_pass(self, seat: int) -> None:
        p = self.phase
        if p == "deal" and self.offers:
            if self.offers[0] != seat:
                raise OutOfTurn(f"{_en_seat(seat)} has nothing to answer: seat {self.offers[0]} is asked.",
                                f"{_zh_seat(seat)}无需表态：轮到{self.offers[0]}号座位。")
            return
        if p in ("declare", "bid", "overturn"):
            _kind, who = self.to_act()
            if who != seat:
                raise OutOfTurn(f"{_en_seat(seat)} cannot pass now: it is seat {who}'s turn.",
                                f"{_zh_seat(seat)}现在不能表态：轮到{who}号座位。")
            return
        raise WrongPhase(f"{_en_seat(seat)} has nothing to pass in the {p} phase.", f"{_zh_seat(seat)}在 {p} 阶段无需过牌。")

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except GameplayError:
            return False
        return True

    def pass_(self, seat: int) -> Event:
        """Decline: an offered overturn (yongzhou: forfeits overturning for the hand), a turn to
        declare, to bid (final) or to overturn (chaodi's round)."""
        self.verify_pass(seat)
        p = self.phase
        ev = self._append(Event("pass", seat, (), "declare" if p == "deal" else p))
        if p == "deal":
            self.offers.pop(0)
            if self.variant == "yongzhou-300" and self.declaration is not None:
                self.forfeited.add(seat)
            if self.dealt == self.ndeal and not self.offers:
                self._end_deal()
        elif p == "declare":
            if self.variant == "yongzhou-300" and self.declaration is not None and self._candidates(seat, overturn=False):
                self.forfeited.add(seat)
            self.passes += 1
            self._next_in_round()
        elif p == "bid":
            self.bid_passed.add(seat)
            self.bids.append((seat, None))
            self._after_bid()
        else:
            self.passes += 1
            self._next_overturn()
        return ev

    def _next_in_round(self) -> None:
        if self.variant == "chaodi" and not self.first_hand:
            self.turn_index += 1
            self._advance_round()
            return
        self.turn_index = (self.turn_index + 1) % len(self.round_order)
        self._advance_round()

    def _advance_round(self, start: bool = False) -> None:
        """Skip seats with no legal declaration (an implicit pass); end the round when everyone passed."""
        order = self.round_order
        linear = self.variant == "chaodi" and not self.first_hand
        while True:
            if linear:
                if self.turn_index >= len(order):
                    self._resolve_declarations()
                    return
            elif self.passes >= self.n:
                self._resolve_declarations()
                return
            seat = order[self.turn_index]
            if self._candidates(seat, overturn=False):
                return
            self.passes += 1
            if linear:
                self.turn_index += 1
            else:
                self.turn_index = (self.turn_index + 1) % len(order)

    def _resolve_declarations(self) -> None:
        d = self.declaration
        v = self.variant
        if d is None:
            policy = self.rules.option("first_hand_no_declaration" if self.first_hand else "no_declaration")
            if policy == "redeal" and self.redeals < MAX_REDEALS:
                self._redeal()
                return
            trump: str | None = None
            if policy == "kitty_card":
                c = self.kitty[3]
                if v == "chaodi":
                    # 翻底 (seed 001): the holder of the other copy deals, at its side's level; with both
                    # copies in the kitty the dealer stays — a first hand has none yet: redeal.
                    holder = next((s for s in range(self.n) if self.hands[s][c]), None)
                    if holder is not None:
                        self.dealer = holder
                    elif self.dealer is None and self.redeals < MAX_REDEALS:
                        self._redeal()
                        return
                self.flipped = c
                if c < 52 and not (v == "chaodi" and code_rank(c) == 2):
                    trump = SUITS[code_suit(c)]
            if self.dealer is None:
                self.dealer = self.start_seat if v != "yongzhou-300" else None
            self.trump = trump
        else:
            self.trump = d.suit
            if v == "yongzhou-300":
                self.dealer = d.seat
            elif self.first_hand:
                self.dealer = self.first_declarer if v == "tractor" else d.seat
            elif v == "chaodi":
                assert self.dealer is not None
                if d.seat % 2 != self.dealer % 2:
                    self.dealer = d.seat
        if self.partnership:
            assert self.state is not None and self.dealer is not None
            self.state = replace(self.state, dealer=self.dealer)
            self.level = self.state.levels[self.dealer % 2]
        self._append(Event("trump", self.dealer, () if self.flipped is None else (self.flipped,),
                           self.trump or "NT"))
        self.ctx = context_for(self.rules, self.level, self.trump)
        if v == "yongzhou-300":
            self._begin_play(self.dealer if self.dealer is not None else self.start_seat)
        else:
            assert self.dealer is not None
            self._take_kitty(self.dealer)

    def _redeal(self) -> None:
        self.redeals += 1
        redeals = self.redeals
        self._start(self._new_deck(), "redeal")
        self.redeals = redeals

    # ------------------------------------------------------------ bidding (red-five)

    def bid_range(self) -> tuple[int, int]:
        assert isinstance(self.scoring, RedFiveRules)
        return self.scoring.bid_range

    def legal_bids(self, seat: int) -> list[int]:
        if self.phase != "bid" or self.bid_turn != seat:
            return []
        lo, hi = self.bid_range()
        inc_lo, inc_hi = self.scoring.bid_increment  # type: ignore[attr-defined]
        if self.contract is None:
            start, stop = lo, min(hi, lo + inc_hi)
        else:
            start, stop = self.contract + inc_lo, min(hi, self.contract + inc_hi)
        return list(range(start, stop + 1, 5))

    def verify_bid(self, seat: int, amount: int) -> None:
        if self.phase != "bid":
            raise WrongPhase(f"{_en_seat(seat)} cannot bid in the {self.phase} phase.", f"{_zh_seat(seat)}在 {self.phase} 阶段不能叫分。")
        if seat != self.bid_turn:
            raise OutOfTurn(f"{_en_seat(seat)} bid out of turn: seat {self.bid_turn} is to bid.",
                            f"{_zh_seat(seat)}没有轮到叫分：现在轮到{self.bid_turn}号座位。")
        if amount not in self.legal_bids(seat):
            lo, hi = self.bid_range()
            last = "" if self.contract is None else f" the last bid is {self.contract}, so"
            raise IllegalPlay(f"{_en_seat(seat)} cannot bid {amount}: bids run {lo}–{hi} in steps of 5;{last} a bid "
                              f"must be one of {self.legal_bids(seat)} (5 to 15 above the last).",
                              f"{_zh_seat(seat)}不能叫 {amount} 分：叫分范围 {lo}–{hi}，每次比上家高5至15分，可叫 {self.legal_bids(seat)}。")

    def can_bid(self, seat: int, amount: int) -> bool:
        try:
            self.verify_bid(seat, amount)
        except GameplayError:
            return False
        return True

    def bid(self, seat: int, amount: int) -> Event:
        """Bid ``amount`` (red-five)."""
        self.verify_bid(seat, amount)
        self.contract = amount
        self.bidder = seat
        self.bids.append((seat, amount))
        ev = self._append(Event("bid", seat, (), amount))
        self._after_bid()
        return ev


    def _after_bid(self) -> None:
        lo, hi = self.bid_range()
        n = self.n
        winner = None
        if self.contract is not None and self.contract >= hi:
            winner = self.bidder
        elif self.bidder is not None and len(self.bid_passed) >= n - 1 and self.bidder not in self.bid_passed:
            winner = self.bidder
        elif len(self.bid_passed) >= n:
            if self.bidder is None:
                winner = self.first_bidder
                self.contract = lo
            else:
                winner = self.bidder
        if winner is not None:
            self.dealer = winner
            self.bidder = winner
            self.phase = "trump"
            return
        assert self.bid_turn is not None
        s = self.bid_turn
        for _ in range(n):
            s = (s + 1) % n
            if s not in self.bid_passed:
                break
        self.bid_turn = s

    def verify_name_trump(self, seat: int, suit: str) -> None:
        if self.phase != "trump":
            raise WrongPhase(f"Trump is not named in the {self.phase} phase.", f"{self.phase} 阶段不定主。")
        if seat != self.dealer:
            raise OutOfTurn(f"{_en_seat(seat)} cannot name trump: the dealer (seat {self.dealer}) does.",
                            f"{_zh_seat(seat)}不能定主：由庄家（{self.dealer}号座位）定主。")
        if suit not in SUITS:
            raise IllegalPlay(f"{suit!r} is not a trump suit: red-five names S, H, C or D (no no-trump).",
                              f"{suit!r} 不是主花色：红五须选 S、H、C 或 D（不能无主）。")

    def can_name_trump(self, seat: int, suit: str) -> bool:
        try:
            self.verify_name_trump(seat, suit)
        except GameplayError:
            return False
        return True

    def name_trump(self, seat: int, suit: str | None = None) -> Event:
        """The red-five dealer names trump (None: the ``undecided_trump`` option, spades)."""
        if suit is None:
            suit = str(self.rules.option("undecided_trump"))
        self.verify_name_trump(seat, suit)
        self.trump = suit
        ev = self._append(Event("name_trump", seat, (), suit))
        self.ctx = context_for(self.rules, None, suit)
        self._take_kitty(seat)
        return ev

    # ------------------------------------------------------------ kitty

    def _take_kitty(self, seat: int) -> None:
        h = self.hands[seat]
        for c in self.kitty:
            h[c] += 1
        self.nleft[seat] += len(self.kitty)
        self.kitty_holder = seat
        # chaodi (seed 001 "每一局的第一次翻看底牌需要亮出给所有人看"): the kitty as dealt is shown to all
        shown = self.variant == "chaodi" and self.shown_kitty is None
        if shown:
            self.shown_kitty = tuple(self.kitty)
        self._append(Event("take_kitty", seat, tuple(self.kitty), "shown" if shown else None))
        self.kitty = []
        self.phase = "kitty"

    def verify_bury(self, seat: int, cards: Sequence[int]) -> None:
        if self.phase != "kitty":
            raise WrongPhase(f"{_en_seat(seat)} cannot bury in the {self.phase} phase.", f"{_zh_seat(seat)}在 {self.phase} 阶段不能扣底。")
        if seat != self.kitty_holder:
            raise OutOfTurn(f"{_en_seat(seat)} cannot bury: seat {self.kitty_holder} holds the kitty.",
                            f"{_zh_seat(seat)}不能扣底：底牌在{self.kitty_holder}号座位手中。")
        k = self.rules.kitty_size
        if len(cards) != k:
            raise IllegalPlay(f"{_en_seat(seat)} must bury exactly {k} cards, not {len(cards)}.",
                              f"{_zh_seat(seat)}必须扣 {k} 张牌，而不是 {len(cards)} 张。")
        h = list(self.hands[seat])
        for c in cards:
            if not 0 <= c < NCODES or h[c] <= 0:
                name = CODE_NAMES[c] if 0 <= c < NCODES else str(c)
                raise InvalidCards(f"{_en_seat(seat)} does not hold {name} to bury ({format_cards(cards)}).",
                                   f"{_zh_seat(seat)}手中没有 {name} 可扣（{format_cards(cards)}）。")
            h[c] -= 1

    def can_bury(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_bury(seat, cards)
        except GameplayError:
            return False
        return True

    def bury(self, seat: int, cards: Sequence[int]) -> Event:
        """Bury ``cards`` face down as the kitty."""
        self.verify_bury(seat, cards)
        h = self.hands[seat]
        for c in cards:
            h[c] -= 1
        self.nleft[seat] -= len(cards)
        self.kitty = list(cards)
        self.buried_by = seat
        ev = self._append(Event("bury", seat, tuple(cards)))
        if self.variant == "chaodi" and not self.first_hand:
            if not self.round_started:
                assert self.dealer is not None
                d = self.dealer
                self.round_started = True
                self.overturner_original = self.declaration.seat if self.declaration is not None else None
                self.round_order = [(d + 1 + i) % 4 for i in range(4)]
                self.turn_index = 0
            else:
                self.turn_index = (self.round_order.index(seat) + 1) % 4
            self.passes = 0
            self.phase = "overturn"
            self._advance_overturn()
        else:
            assert self.dealer is not None
            self._begin_play(self.dealer)
        return ev

    # ------------------------------------------------------------ chaodi's insurance (定主)

    def _insurance_pair(self) -> tuple[int, int] | None:
        """The pair of the trump suit's level card (None without a trump suit or a level)."""
        if self.trump is None or self.level is None:
            return None
        c = make_code(SUITS.index(self.trump), level_rank(self.level))
        return (c, c)

    def verify_insure(self, seat: int, cards: Sequence[int] | None = None) -> tuple[int, int]:
        """Check 定主 (RULES §5.1, chaodi): after the dealer's own declaration stands, and before the dealer
        buries the kitty, the dealer may show a pair of the trump suit's level card; later overturns must
        then beat that pair in the overturn order. ``cards`` None: that pair. Returns the pair."""
        rule_en = ("insurance (定主, RULES §5.1) is shown by the dealer after its declaration stands and before "
                   "it buries the kitty")
        rule_zh = "定主（规则 §5.1）由庄家在其叫主成立后、扣底之前亮出"
        if not 0 <= seat < self.n:
            raise OutOfTurn(f"There is no seat {seat}.", f"没有{seat}号座位。")
        if self.variant != "chaodi":
            raise IllegalPlay(f"{_en_seat(seat)} cannot insure: insurance (定主) belongs to chaodi only.",
                              f"{_zh_seat(seat)}不能定主：只有炒地皮有定主。")
        if self.phase != "kitty" or self.round_started:
            when = "the kitty is already buried" if self.round_started else f"the phase is {self.phase}"
            raise WrongPhase(f"{_en_seat(seat)} cannot insure now ({when}): {rule_en}.",
                             f"{_zh_seat(seat)}现在不能定主（{'已扣底' if self.round_started else self.phase + ' 阶段'}）："
                             f"{rule_zh}。")
        if self.first_hand:
            raise IllegalPlay(f"{_en_seat(seat)} cannot insure: a match's first hand has no overturn round, so "
                              "there is nothing to insure against (RULES §5.2).",
                              f"{_zh_seat(seat)}不能定主：首局没有反主炒底，无需定主（规则 §5.2）。")
        if seat != self.dealer:
            raise OutOfTurn(f"{_en_seat(seat)} cannot insure: only the dealer (seat {self.dealer}) insures (定主, "
                            "RULES §5.1).", f"{_zh_seat(seat)}不能定主：只有庄家（{self.dealer}号座位）可以定主（规则 §5.1）。")
        d = self.declaration
        if d is None or d.seat != seat:
            why_en = "trump was set by the kitty card (翻底)" if d is None else f"trump was declared by seat {d.seat}"
            why_zh = "主由翻底决定" if d is None else f"主由{d.seat}号座位叫出"
            raise IllegalPlay(f"{_en_seat(seat)} cannot insure: {why_en}; the dealer insures its own declaration "
                              "(定主).", f"{_zh_seat(seat)}不能定主：{why_zh}；庄家只能为自己叫的主定主。")
        if d.kind == "insured":
            raise IllegalPlay(f"{_en_seat(seat)} cannot insure: the declaration is already insured (定主).",
                              f"{_zh_seat(seat)}不能定主：已经定主。")
        pair = self._insurance_pair()
        assert pair is not None
        shown = pair if cards is None else tuple(sorted(cards))
        if shown != pair:
            raise self._bad(seat, shown, f"insurance (定主) shows a pair of the trump level card, {format_cards(pair)}",
                            f"定主须亮一对主花色的级牌 {format_cards(pair)}")
        if self.hands[seat][pair[0]] < 2:
            raise InvalidCards(f"{_en_seat(seat)} does not hold {format_cards(pair)} to insure (定主).",
                               f"{_zh_seat(seat)}手中没有 {format_cards(pair)} 可定主。")
        return pair

    def can_insure(self, seat: int, cards: Sequence[int] | None = None) -> bool:
        try:
            self.verify_insure(seat, cards)
        except GameplayError:
            return False
        return True

    def legal_insurances(self, seat: int) -> list[tuple[int, ...]]:
        """The insurance ``seat`` could show now: ``[pair]`` or ``[]`` (chaodi's 定主)."""
        if self.variant != "chaodi" or self.phase != "kitty" or self.round_started or seat != self.dealer:
            return []
        try:
            return [self.verify_insure(seat)]
        except GameplayError:
            return []

    def insure(self, seat: int, cards: Sequence[int] | None = None) -> Event:
        """Chaodi 定主: the dealer shows the pair of the trump level card (the declaration becomes
        ``insured`` with that pair's overturn strength: ♠ > ♥ > ♣ > ♦, below LJ LJ and BJ BJ)."""
        pair = self.verify_insure(seat, cards)
        d = self.declaration
        assert d is not None and d.suit is not None
        nd = Declaration(seat, pair, "insured", d.suit, PAIR_ORDER[d.suit])
        self.declaration = nd
        self.declarations.append(nd)
        return self._append(Event("insure", seat, pair, "insured"))

    # ------------------------------------------------------------ chaodi's overturn round (炒底)

    def legal_overturns(self, seat: int) -> list[tuple[int, ...]]:
        if self.phase != "overturn" or self.round_order[self.turn_index] != seat:
            return []
        if seat == self.overturner_original and not self.overturned_once:
            return []
        return self._candidates(seat, overturn=True)

    def verify_overturn(self, seat: int, cards: Sequence[int]) -> Declaration:
        if self.phase != "overturn":
            raise WrongPhase(f"{_en_seat(seat)} cannot overturn in the {self.phase} phase.",
                             f"{_zh_seat(seat)}在 {self.phase} 阶段不能反主。")
        who = self.round_order[self.turn_index]
        if seat != who:
            raise OutOfTurn(f"{_en_seat(seat)} cannot overturn now: it is seat {who}'s turn.",
                            f"{_zh_seat(seat)}现在不能反主：轮到{who}号座位。")
        cs = tuple(sorted(cards))
        if seat == self.overturner_original and not self.overturned_once:
            raise self._bad(seat, cs, "the original declarer may overturn only after someone else has",
                            "原叫主玩家只有在别人反主之后才能反主")
        h = self.hands[seat]
        for c in set(cs):
            if not 0 <= c < NCODES or h[c] < cs.count(c):
                raise InvalidCards(f"{_en_seat(seat)} does not hold {format_cards(cs)}.", f"{_zh_seat(seat)}手中没有 {format_cards(cs)}。")
        return self._judge_chaodi(seat, cs, overturn=True)

    def can_overturn(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self.verify_overturn(seat, cards)
        except GameplayError:
            return False
        return True

    def overturn(self, seat: int, cards: Sequence[int]) -> Event:
        """Chaodi: overturn after the kitty is buried; the overturner takes and re-buries the kitty."""
        d = self.verify_overturn(seat, cards)
        self.declaration = d
        self.declarations.append(d)
        self.overturned_once = True
        ev = self._append(Event("overturn", seat, d.cards, d.kind))
        self.trump = d.suit
        self.ctx = context_for(self.rules, self.level, self.trump)
        self._append(Event("trump", self.dealer, (), self.trump or "NT"))
        self._take_kitty(seat)
        return ev

    def _next_overturn(self) -> None:
        self.turn_index = (self.turn_index + 1) % 4
        self._advance_overturn()

    def _advance_overturn(self) -> None:
        while True:
            if self.passes >= self.n:
                assert self.dealer is not None
                self._begin_play(self.dealer)
                return
            seat = self.round_order[self.turn_index]
            if self.legal_overturns(seat):
                return
            self.passes += 1
            self.turn_index = (self.turn_index + 1) % 4

    # ------------------------------------------------------------ play

    def _begin_play(self, leader: int) -> None:
        assert self.ctx is not None
        self.phase = "play"
        self._new_trick(leader)

    def _new_trick(self, leader: int) -> None:
        self.trick_leader = leader
        self.trick_turn = leader
        self.trick_plays: list[Event] = []
        self.trick_on: list[tuple[int, ...]] = []
        self.trick_lead: Combo | None = None
        self.trick_best: tuple[int, int] | None = None
        self.trick_best_seat: int | None = None

    def legal_plays(self, seat: int) -> LegalPlays:
        """The legal plays of ``seat`` (which must be the seat to play)."""
        self._check_turn(seat)
        assert self.ctx is not None
        return LegalPlays(self.ctx, self.hands[seat], self.trick_lead, list(self.trick_on))

    def _check_turn(self, seat: int) -> None:
        if self.phase != "play":
            raise WrongPhase(f"{_en_seat(seat)} cannot play in the {self.phase} phase.",
                             f"{_zh_seat(seat)}在 {self.phase} 阶段不能出牌。")
        if seat != self.trick_turn:
            raise OutOfTurn(f"{_en_seat(seat)} played out of turn: seat {self.trick_turn} is to play.",
                            f"{_zh_seat(seat)}没有轮到出牌：现在轮到{self.trick_turn}号座位。")

    def _verify_play(self, seat: int, cards: Sequence[int]) -> Combo | None:
        """Check a play; return the classified lead (None for a follow)."""
        self._check_turn(seat)
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[seat]
        lead = self.trick_lead
        if lead is None:
            return check_lead(ctx, hand, cards, seat=seat)
        if _follow_fault(ctx, hand, lead, cards) is None and not (self._extra and self.trick_on):
            return None
        check_follow(ctx, hand, lead, cards, prior=self.trick_on, seat=seat)
        return None

    def verify_play(self, seat: int, cards: Sequence[int]) -> None:
        self._verify_play(seat, cards)

    def can_play(self, seat: int, cards: Sequence[int]) -> bool:
        try:
            self._verify_play(seat, cards)
        except GameplayError:
            return False
        return True

    def play(self, seat: int, cards: Sequence[int]) -> Event:
        """Play ``cards``: a lead (a throw is checked against the other hands and may be replaced
        by the forced component) or a follow."""
        combo = self._verify_play(seat, cards)
        ctx = self.ctx
        assert ctx is not None
        hands = self.hands
        cards = tuple(cards)
        if combo is not None:
            ev = Event("play", seat, cards)
            if combo.is_throw:
                others = {s: hands[s] for s in range(self.n) if s != seat}
                tc = throw_check(ctx, combo, others, seat)
                if tc.failed and tc.forced is not None:
                    ev = Event("play", seat, cards, None, tc.forced.codes, tc.penalty)
                    combo = tc.forced
                    self.penalties[seat] += tc.penalty
            self.trick_lead = combo
        else:
            ev = Event("play", seat, cards)
            lead = self.trick_lead
            assert lead is not None
            s = lead.suit
            es = ctx.esuit
            if s not in self.voids[seat] and any(es[c] != s for c in cards):
                self.voids[seat] = self.voids[seat] | {s}
        self.log.append(ev)
        self.public_log.append(ev)
        on = ev.on_table
        h = hands[seat]
        played = self.played
        for c in on:
            h[c] -= 1
            played[c] += 1
        self.nleft[seat] -= len(on)
        self.trick_plays.append(ev)
        self.trick_on.append(on)
        lead_now = self.trick_lead
        assert lead_now is not None
        key = play_key(ctx, lead_now, on)
        if key is not None and (self.trick_best is None or key > self.trick_best):
            self.trick_best = key
            self.trick_best_seat = seat
        if len(self.trick_plays) == self.n:
            self._finish_trick()
        else:
            self.trick_turn = (seat + 1) % self.n
        return ev

    def _finish_trick(self) -> None:
        ctx = self.ctx
        lead = self.trick_lead
        assert lead is not None and ctx is not None
        ons = self.trick_on
        winner = self.trick_best_seat  # the first strongest play (先出为大), kept as plays come
        assert winner is not None
        pts = ctx.points
        points = sum(pts[c] for p in ons for c in p)
        self.points[winner] += points
        self.tricks.append((self.trick_leader, tuple(self.trick_plays), winner, points))
        self._append(Event("trick", winner, (), points))
        if self.nleft[winner] == 0:
            self._score()
        else:
            self._new_trick(winner)

    # ------------------------------------------------------------ scoring

    def kitty_points(self) -> int:
        assert self.ctx is not None
        return sum(self.ctx.points[c] for c in self.kitty)

    def _score(self) -> None:
        self.phase = "scored"
        ctx = self.ctx
        assert ctx is not None
        _last_leader, last_plays, last_winner, _ = self.tricks[-1]
        v = self.variant
        if self.partnership:
            state = self.state
            assert state is not None and self.dealer is not None and isinstance(self.scoring, PartnershipRules)
            dside = self.dealer % 2
            attackers = sum(p for s, p in enumerate(self.points) if s % 2 != dside)
            last: Literal["dealer", "attackers"] = "attackers" if last_winner % 2 != dside else "dealer"
            win_play = next(e.on_table for e in last_plays if e.seat == last_winner)
            largest = max(c.size for c in decompose(ctx, win_play))
            out: dict[str, Any] = {"attackers_points": attackers, "kitty_points": self.kitty_points(),
                                   "last_trick": {"winner": last, "largest": largest} if last == "attackers"
                                   else {"winner": last}}
            sr = self.scoring
            if sr.a_pass_conditions and self.level == sr.top_level:
                def dealer_a(plays: Sequence[Event]) -> bool:
                    return any(e.seat is not None and e.seat % 2 == dside and any(c < 52 and code_rank(c) == 14
                                                                                   for c in e.on_table) for e in plays)
                out["a_first_trick"] = dealer_a(self.tricks[0][1])
                out["a_last_trick"] = dealer_a(last_plays)
            if sr.throw_penalties:
                out["throw_penalties"] = sum(p if s % 2 == dside else -p for s, p in enumerate(self.penalties))
            self.outcome = out
            po = PartnershipOutcome(attackers_points=attackers, kitty_points=out["kitty_points"],
                                    last_trick=LastTrick(last, largest if last == "attackers" else None),
                                    a_first_trick=out.get("a_first_trick"), a_last_trick=out.get("a_last_trick"),
                                    throw_penalties=out.get("throw_penalties", 0))
            self.match_state = state
            self.result, self.new_state = apply_hand(sr, state, po)
        elif v == "red-five":
            assert isinstance(self.scoring, RedFiveRules) and self.dealer is not None and self.contract is not None
            dealer = self.dealer
            caps: list[dict[str, int]] = []
            for _, plays, winner, _ in self.tricks:
                for e in plays:
                    assert e.seat is not None
                    n5 = sum(1 for c in e.on_table if c == make_code(2, 5))
                    if n5 and (e.seat == dealer) != (winner == dealer):
                        caps.extend({"played_by": e.seat, "won_by": winner} for _ in range(n5))
            out = {"dealer": dealer, "bid": self.contract, "trump": self.trump, "dealer_points": self.points[dealer],
                   "kitty_points": self.kitty_points(), "dealer_won_last_trick": last_winner == dealer,
                   "red_fives": caps}
            self.outcome = out
            ro = RedFiveOutcome(dealer=dealer, bid=self.contract, trump=str(self.trump), dealer_points=self.points[dealer],
                                kitty_points=out["kitty_points"], dealer_won_last_trick=last_winner == dealer,
                                red_fives=tuple(RedFiveCapture(c["played_by"], c["won_by"]) for c in caps))
            self.result = settle_red_five(self.scoring, ro)
        else:
            assert isinstance(self.scoring, YongzhouRules)
            out = {"points": list(self.points)}
            if self.dealer is not None:
                out["declarer"] = self.dealer
            best = max(self.points)
            tied = [s for s, p in enumerate(self.points) if p == best]
            tie_break = None
            if len(tied) > 1:
                # RULES §6.4: a tie for the next dealer is drawn at random — seeded by the deal, so that
                # a replay of the log draws the same seat.
                tie_break = tied[random.Random("tie-break:" + ",".join(map(str, self.deck))).randrange(len(tied))]
                out["tie_break"] = tie_break
            self.outcome = out
            self.result = settle_yongzhou(self.scoring, YongzhouOutcome(points=tuple(self.points),
                                                                        declarer=self.dealer, tie_break=tie_break))
        self._append(Event("scored", None, tuple(self.kitty), json.dumps(self.outcome, sort_keys=True)))

    def score_request(self) -> dict[str, Any]:
        """The body of ``POST /api/v1/scoring/hand`` that scores this hand."""
        assert self.outcome is not None
        body: dict[str, Any] = {"variant": self.variant, "outcome": self.outcome}
        sc = {k: v for k, v in self.config.options.items() if k not in ENGINE_OPTIONS}
        if sc:
            body["options"] = sc
        if self.variant == "red-five":
            body["decks"] = self.rules.decks
        if self.variant == "yongzhou-300":
            body["players"] = self.rules.players
        if self.partnership:
            st = self.match_state
            assert st is not None
            body["state"] = {"levels": list(st.levels), "dealer": st.dealer, "a_failures": list(st.a_failures)}
        return body

    # ------------------------------------------------------------ observation and serialization

    def observation(self, seat: int) -> Observation:
        playing = self.phase == "play"
        trick = tuple((e.seat or 0, e.on_table) for e in self.trick_plays) if playing else ()
        lead = self.trick_lead if playing else None
        leader = self.trick_leader if playing else None
        return Observation(
            seat=seat, players=self.n, decks=self.rules.decks, variant=self.variant, phase=self.phase, level=self.level, trump=self.trump,
            ctx=self.ctx, dealer=self.dealer, declaration=self.declaration, hand=tuple(self.hands[seat]),
            kitty=tuple(self.kitty) if self.buried_by == seat else None, leader=leader, trick=trick, lead=lead,
            played=tuple(self.played), voids=tuple(self.voids), points=tuple(self.points),
            tricks_played=len(self.tricks), cards_left=tuple(self.nleft), bid=self.contract,
            winning=self.trick_best_seat if playing else None, winning_key=self.trick_best if playing else None,
            events=tuple(self.public_log),
            bidder=self.bidder, passed=frozenset(self.bid_passed), shown_kitty=self.shown_kitty)

    def public_events(self, seat: int | None = None) -> list[Event]:
        """The log as ``seat`` sees it (None: a spectator): other seats' dealt cards, the deck and
        the kitty of others hidden."""
        return [redact(e, seat) for e in self.log]

    def to_json(self) -> dict[str, Any]:
        return {"format": LOG_FORMAT, "config": self.config.to_json(), "events": [e.to_json() for e in self.log]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    def apply(self, ev: Event) -> Event:
        """Apply a logged action event (used by :func:`replay`)."""
        k = ev.kind
        seat = ev.seat
        if k == "deal":
            return self.deal()
        if seat is None:
            raise GameplayError(f"a {k} event needs a seat", f"{k} 事件须有座位")
        if k == "declare":
            return self.declare(seat, ev.cards)
        if k == "pass":
            return self.pass_(seat)
        if k == "bid":
            if not isinstance(ev.value, int):
                raise GameplayError("a bid needs an amount", "叫分须有分数")
            return self.bid(seat, ev.value)
        if k == "name_trump":
            return self.name_trump(seat, str(ev.value))
        if k == "bury":
            return self.bury(seat, ev.cards)
        if k == "insure":
            return self.insure(seat, ev.cards)
        if k == "overturn":
            return self.overturn(seat, ev.cards)
        if k == "play":
            return self.play(seat, ev.cards)
        raise GameplayError(f"unknown action {k!r}", f"未知动作 {k!r}")


def replay(data: Mapping[str, Any] | str) -> Hand:
    """Rebuild a hand from its JSON log (a dict or a JSON string), checking every event.

    Raises :class:`InvalidLog` at the first event that is malformed, refused by the rules, or
    different from what the replayed hand produces."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise InvalidLog(None, f"The log is not JSON: {e}.", f"日志不是 JSON：{e}。") from e
    if not isinstance(data, Mapping) or data.get("format") != LOG_FORMAT or not isinstance(data.get("events"), list):
        raise InvalidLog(None, f"Not a hand log: expected an object with \"format\": \"{LOG_FORMAT}\", "
                         "\"config\" and \"events\".", "不是牌局日志：须为含 format、config、events 的对象。")
    raw = data["events"]
    try:
        events = [Event.from_json(e) for e in raw]
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        bad = next((i for i, r in enumerate(raw) if not _parses(r)), None)
        raise InvalidLog(bad, f"Event {bad} cannot be read: {e}.", f"第 {bad} 个事件无法读取：{e}。") from e
    if not events or events[0].kind != "shuffle":
        raise InvalidLog(0, "Event 0 must be the shuffle (the deck in dealing order).", "第 0 个事件必须是洗牌（发牌顺序）。")
    decks = iter([list(e.cards) for e in events if e.kind == "redeal"])

    def next_deck() -> list[int]:
        d = next(decks, None)
        if d is None:
            raise InvalidLog(None, "The log redeals more often than it records.", "日志中的重新发牌次数不符。")
        return d

    try:
        config = HandConfig.from_json(data["config"])
        hand = Hand(config, deck=list(events[0].cards), deck_source=next_deck)
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        raise InvalidLog(0, f"The config or the deck is invalid: {e}.", f"配置或牌序无效：{e}。") from e
    i = 1
    while i < len(events):
        ev = events[i]
        if ev.kind not in ACTIONS:
            raise InvalidLog(i, f"Event {i} ({ev}) is not an action and does not follow from the previous one.",
                             f"第 {i} 个事件（{ev}）不是动作，也不由前一个动作产生。")
        start = len(hand.log)
        if start != i:
            raise InvalidLog(i, f"Event {i} ({ev}): the hand expected event {start} here.", f"第 {i} 个事件位置不符。")
        try:
            hand.apply(ev)
        except InvalidLog:
            raise
        except GameplayError as e:
            raise InvalidLog(i, f"Event {i} ({ev}) is refused: {e.message('en')}",
                             f"第 {i} 个事件（{ev}）不合规则：{e.message('zh-hans')}") from e
        for j in range(start, len(hand.log)):
            if j >= len(events):
                raise InvalidLog(j, f"The log ends early: event {j} should be {hand.log[j]}.",
                                 f"日志提前结束：第 {j} 个事件应为 {hand.log[j]}。")
            if hand.log[j] != events[j]:
                raise InvalidLog(j, f"Event {j} differs: the log says {events[j]}, the replay gives {hand.log[j]}.",
                                 f"第 {j} 个事件不符：日志为 {events[j]}，重放得到 {hand.log[j]}。")
        i = len(hand.log)
    if not hand.finished:
        raise InvalidLog(len(events), f"The log stops before the hand ends (phase {hand.phase}).",
                         f"日志在牌局结束前中断（{hand.phase} 阶段）。")
    return hand


_LINE = re.compile(r"^(?P<kind>[a-z_]+)(?: (?P<seat>\d+))?(?:: (?P<cards>[^\[\]>!]*?))?(?: \[(?P<value>.*)\])?"
                   r"(?: -> (?P<forced>[^!]*?))?(?: !(?P<penalty>\d+))?$")


def event_text(ev: Event) -> str:
    """One event in text notation: ``kind[ seat][: cards][ [value]][ -> forced][ !penalty]``.

    >>> event_text(Event("play", 2, (51, 50, 50), None, (51,), 0))
    'play 2: SA SK SK -> SA'
    >>> event_from_text("bid 1 [120]")
    Event(kind='bid', seat=1, cards=(), value=120, forced=None, penalty=0)
    """
    out = ev.kind
    if ev.seat is not None:
        out += f" {ev.seat}"
    if ev.cards:
        out += f": {format_cards(ev.cards)}"
    if ev.value is not None:
        out += f" [{json.dumps(ev.value, ensure_ascii=False)}]"
    if ev.forced is not None:
        out += f" -> {format_cards(ev.forced)}"
    if ev.penalty:
        out += f" !{ev.penalty}"
    return out


def event_from_text(line: str) -> Event:
    m = _LINE.match(line.strip())
    if m is None:
        raise InvalidLog(None, f"Not an event line: {line!r}.", f"不是事件行：{line!r}。")
    g = m.groupdict()
    return Event(g["kind"], None if g["seat"] is None else int(g["seat"]),
                 tuple(parse_cards(g["cards"] or "")), None if g["value"] is None else json.loads(g["value"]),
                 None if g["forced"] is None else tuple(parse_cards(g["forced"])), int(g["penalty"] or 0))


def log_text(data: Mapping[str, Any]) -> str:
    """A JSON hand log as text: ``# config: {...}`` then one event per line (golden files)."""
    lines = [f"# {data.get('format', LOG_FORMAT)}", "# config: " + json.dumps(data["config"], sort_keys=True,
                                                                             ensure_ascii=False)]
    lines += [event_text(Event.from_json(e)) for e in data["events"]]
    return "\n".join(lines) + "\n"


def log_from_text(text: str) -> dict[str, Any]:
    """The JSON hand log of a text log (see :func:`log_text`); replay it with :func:`replay`."""
    config: Any = None
    events = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("# config:"):
            config = json.loads(line[len("# config:"):])
        elif not line.startswith("#"):
            events.append(event_from_text(line).to_json())
    if config is None:
        raise InvalidLog(None, "The text log has no “# config:” line.", "文本日志缺少“# config:”行。")
    return {"format": LOG_FORMAT, "config": config, "events": events}


def _parses(raw: Any) -> bool:
    try:
        Event.from_json(raw)
    except (GameplayError, KeyError, TypeError, ValueError):
        return False
    return True


def level_rank(level: str) -> int:
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(level) or int(level)


