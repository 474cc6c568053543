"""Bots that play whole hands. A bot sees only its :class:`~gameplay.hand.Observation` and the legal
actions it is offered; it never touches the :class:`~gameplay.hand.Hand`.

- ``random``: uniform over the legal actions (follows sampled without listing them all).
- ``heuristic``: declares and bids from hand strength, insures (chaodi 定主) when trump is its best
  suit, buries toward voids without points, counts cards (what is unseen: not played, not in its
  own hand or kitty), leads sure winners and throws only when no unseen card can beat any part,
  protects its side's points, feeds points to a partner who is sure to win, and as dealer side with
  a trump majority pulls trumps first (seed 001 tips). Its card play is :mod:`gameplay.bot_play`,
  which decides exactly as the former code kept in ``tests/gameplay/reference_bot.py``.
  ``normal`` is the same bot under the name players are offered.
- ``easy``: the heuristic bot with a beginner's slips (:class:`EasyBot`).
- ``strong``: searches its card play by determinized Monte Carlo with heuristic playouts
  (:mod:`gameplay.bot_search`), a time budget per decision; the rest as the heuristic bot.

>>> sorted(BOTS)
['easy', 'heuristic', 'normal', 'random', 'strong']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress
from typing import Protocol

import variants
from gameplay.bot_play import PlayChooser
from gameplay.bot_search import PlaySearch
from gameplay.cards import BJ, LJ, NCODES, SUITS, code_rank, code_suit, make_code
from gameplay.legal_plays import LegalPlays
from gameplay.observation import Observation
from gameplay.order import TRUMP

__all__ = ["BOTS", "LEVELS", "Bot", "EasyBot", "HeuristicBot", "RandomBot", "StrongBot", "make_bot"]

Cards = tuple[int, ...]


class Bot(Protocol):
    """What the runner asks a bot. ``uses_observation`` False lets the runner skip building an
    observation for ``play`` (the random bot), which then receives None. ``asked_when_forced`` False
    lets it play a forced follow (:meth:`LegalPlays.forced`) without asking: the bot would play just
    that, drawing nothing from its generator (the random bot draws even then: it is asked)."""

    name: str
    uses_observation: bool
    asked_when_forced: bool

    def declare(self, obs: Observation, options: Sequence[Cards]) -> Cards | None: ...

    def overturn(self, obs: Observation, options: Sequence[Cards]) -> Cards | None: ...

    def insure(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        """Chaodi 定主: show one of ``options`` (the pair of the trump level card) or None."""
        ...

    def bid(self, obs: Observation, options: Sequence[int]) -> int | None: ...

    def name_trump(self, obs: Observation) -> str: ...

    def bury(self, obs: Observation, size: int) -> list[int]: ...

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]: ...


class RandomBot:
    """Uniform over the legal actions (declining counts as one action)."""

    name = "random"
    uses_observation = False
    asked_when_forced = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def declare(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        k = self.rng.randrange(len(options) + 1)
        return options[k] if k < len(options) else None

    def overturn(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        return self.declare(obs, options)  # a method, not `overturn = declare`: mypyc compiles this

    def insure(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        return self.declare(obs, options)

    def bid(self, obs: Observation, options: Sequence[int]) -> int | None:
        k = self.rng.randrange(len(options) + 1)
        return options[k] if k < len(options) else None

    def name_trump(self, obs: Observation) -> str:
        return self.rng.choice(SUITS)

    def bury(self, obs: Observation, size: int) -> list[int]:
        cards = [c for c in range(NCODES) for _ in range(obs.hand[c])]
        return self.rng.sample(cards, size)

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]:
        return legal.sample(self.rng)


YONGZHOU_EAGERNESS = 0.5
_LEVELS: dict[tuple[str, str | None], int | None] = {}
"""The rank a declaration's level card has, by variant and level (``HeuristicBot._level``)."""
_GONE = 1 << 40
"""The burial cost of a card no longer held."""
BID_OFFSET = -30
YZ_MIN = 100


class HeuristicBot(PlayChooser):
    """A card-counting rule-of-thumb player (see the module docstring); its card play
    (:meth:`~gameplay.bot_play.PlayChooser.play`, asked with the seat's observation) is the chooser's."""

    name = "heuristic"
    uses_observation = True
    asked_when_forced = False

    # ------------------------------------------------------------ hand strength

    @staticmethod
    def _suit_strength(hand: Sequence[int], suit: int, level: int | None) -> float:
        """How good ``suit`` would be as trump: its cards, its pairs, its high cards."""
        score = 0.0
        first = make_code(suit, 2) - 2  # the code of rank r is first + r
        for r in range(2, 15):
            k = hand[first + r]
            if not k or r == level:
                continue
            score += k + (0.5 if k >= 2 else 0) + (0.5 * k if r >= 13 else 0)
        return score

    def _level(self, obs: Observation) -> int | None:
        key = (obs.variant, obs.level)
        if key in _LEVELS:
            return _LEVELS[key]
        level: int | None = None
        if obs.level is not None:
            level = {"J": 11, "Q": 12, "K": 13, "A": 14}.get(obs.level) or int(obs.level)
        level = variants.get(obs.variant).trump_order.declaring_rank(level)  # yongzhou: the 10s, like level cards
        _LEVELS[key] = level
        return level

    def _want(self, obs: Observation, options: Sequence[Cards], *, overturn: bool) -> Cards | None:
        hand = obs.hand
        held = sum(hand)
        level = self._level(obs)
        cur = obs.declaration
        me_team = obs.team(obs.seat)
        best: tuple[float, Cards] | None = None
        spec = variants.get(obs.variant)
        for opt in options:
            suits = {code_suit(c) for c in opt if c < 52}
            if not suits:  # joker pair: no trump — only against an opponent's good suit and with a weak hand
                if cur is None or obs.team(cur.seat) == me_team or cur.suit is None:
                    continue
                mine = self._suit_strength(hand, SUITS.index(cur.suit), level)
                if mine > 0.2 * held:
                    continue
                score = 0.15 * held - mine
            else:
                s = suits.pop()
                score = self._suit_strength(hand, s, level) + 1.5 * (hand[LJ] + hand[BJ])
                if cur is not None and cur.suit is not None:
                    if cur.seat == obs.seat or obs.team(cur.seat) == me_team:
                        if SUITS[s] == cur.suit:
                            score += 2  # reinforce our own suit
                        else:
                            score -= self._suit_strength(hand, SUITS.index(cur.suit), level) + 1
                    else:
                        score -= 0.8 * self._suit_strength(hand, SUITS.index(cur.suit), level)
                if spec.has_levels:
                    score -= 0.3 * max(0, 12 - held)  # early: wait a little for better information
            if best is None or score > best[0]:
                best = (score, opt)
        if best is None:
            return None
        threshold = (0.28 * held if not overturn else 3.0) if obs.phase == "deal" else 0.2 * held
        if cur is not None and cur.seat != obs.seat and obs.team(cur.seat) != me_team:
            threshold = min(threshold, 0.25 * held)
        if spec.declaring.declarer_leads:
            threshold *= YONGZHOU_EAGERNESS  # the declarer chooses trump and leads: worth more there
        if obs.phase != "deal" and cur is None:
            threshold = 0.0  # last chance: something beats nothing
        return best[1] if best[0] >= threshold else None

    def declare(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        return self._want(obs, options, overturn=False)

    def overturn(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        cur = obs.declaration
        if cur is not None and obs.team(cur.seat) == obs.team(obs.seat) and cur.suit is not None:
            return None
        return self._want(obs, options, overturn=True)

    def insure(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        """定主 when the trump suit is worth protecting: it is the hand's best suit (otherwise the bot
        keeps the chance to counter-overturn into a better suit, as seed 001 suggests)."""
        cur = obs.declaration
        if not options or cur is None or cur.suit is None:
            return None
        level = self._level(obs)
        strength = [self._suit_strength(obs.hand, s, level) for s in range(4)]
        trump = SUITS.index(cur.suit)
        return options[0] if strength[trump] >= max(strength) else None

    def _best_suit(self, hand: Sequence[int], level: int | None) -> tuple[float, str]:
        return max((self._suit_strength(hand, SUITS.index(s), level), s) for s in SUITS)

    def bid(self, obs: Observation, options: Sequence[int]) -> int | None:
        hand = obs.hand
        strength, _suit = self._best_suit(hand, None)
        h5 = hand[make_code(2, 5)]
        trumps = hand[LJ] + hand[BJ] + h5 + sum(hand[make_code(s, 2)] for s in range(4)) + sum(
            hand[make_code(s, 3)] for s in range(4)) * 0.5
        aces = sum(hand[make_code(s, 14)] for s in range(4))
        held = sum(hand)
        scale = 25 / held  # in points of a 2-deck hand of 25 cards
        est = (strength * 5 + trumps * 8 + h5 * 10 + aces * 4) * scale
        limit = (BID_OFFSET + est) * obs.decks / 2  # 3 decks: 300 points in play
        ok = [b for b in options if b <= limit]
        return ok[0] if ok else None

    def name_trump(self, obs: Observation) -> str:
        return self._best_suit(obs.hand, None)[1]

    # ------------------------------------------------------------ burying

    def bury(self, obs: Observation, size: int) -> list[int]:
        """Card by card, the cheapest to lose: low, without points, not trump, not an A, from a
        short suit (toward a void), a single rather than half a pair."""
        ctx = obs.ctx
        assert ctx is not None
        hand = list(obs.hand)
        es, tier, pts = ctx.esuit, ctx.tier, ctx.points
        held = list(compress(range(NCODES), hand))  # code order: the first of equal costs is buried
        suit_len = [0] * 5
        for c in held:
            suit_len[es[c]] += hand[c]
        # twice the cost, so that a suit's length (counted 1.5 a card) stays an integer; kept up to date
        # as cards go (a suit shorter by one: 3 less for its cards; a pair broken: 16 less)
        costs = [2 * (tier[c] + pts[c] * 3 + (60 if es[c] == TRUMP else 15 if code_rank(c) == 14 else 0))
                 + (16 if hand[c] >= 2 else 0) + (0 if es[c] == TRUMP else 3 * suit_len[es[c]]) for c in held]
        members: dict[int, list[int]] = {}
        for i, c in enumerate(held):
            members.setdefault(es[c], []).append(i)
        out: list[int] = []
        for _ in range(size):
            i = costs.index(min(costs))  # the first of the cheapest
            c = held[i]
            out.append(c)
            hand[c] -= 1
            if not hand[c]:
                costs[i] = _GONE
            elif hand[c] == 1:
                costs[i] -= 16
            s = es[c]
            if s != TRUMP:
                for j in members[s]:
                    costs[j] -= 3
        return out



class EasyBot(HeuristicBot):
    """The heuristic player with a beginner's slips: it follows the rules and still counts its points,
    but about one play in three (:data:`EASY_SLIP`) it plays a legal play at random instead of its
    considered one — a high card thrown away, a point card fed to the wrong side, a pair split —, and
    it declares and bids a little too eagerly."""

    name = "easy"

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]:
        if self.rng.random() < EASY_SLIP:
            return legal.sample(self.rng)
        return HeuristicBot.play(self, obs, legal)

    def declare(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        if options and self.rng.random() < EASY_SLIP:
            return options[self.rng.randrange(len(options))]
        return HeuristicBot.declare(self, obs, options)

    def bid(self, obs: Observation, options: Sequence[int]) -> int | None:
        if options and self.rng.random() < EASY_SLIP:
            return options[0]
        return HeuristicBot.bid(self, obs, options)


EASY_SLIP = 0.3
"""How often the easy bot plays (or declares, or bids) on a whim."""


class StrongBot(HeuristicBot):
    """Searches its card play (:class:`gameplay.bot_search.PlaySearch`: determinized Monte Carlo with
    heuristic playouts, the heuristic's choice the first candidate); declares, bids, insures, buries
    and overturns by the heuristic's rules. ``budget_ms`` per decision (default
    :data:`STRONG_BUDGET_MS`) and ``playouts`` (deals per decision, at most) bound the search."""

    name = "strong"

    def __init__(self, rng: random.Random, *, budget_ms: float | None = None, playouts: int | None = None) -> None:
        super().__init__(rng)
        self.search = PlaySearch(random.Random(rng.getrandbits(32)), HeuristicBot,
                                 budget_ms=STRONG_BUDGET_MS if budget_ms is None else budget_ms,
                                 playouts=STRONG_PLAYOUTS if playouts is None else playouts)

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]:
        first = HeuristicBot.play(self, obs, legal)
        assert obs is not None
        return self.search.choose(obs, legal, first)


STRONG_BUDGET_MS = 200.0
"""The strong bot's time per decision by default (ms)."""
STRONG_PLAYOUTS = 200
"""The strong bot's deals per decision at most by default (the budget usually stops it first)."""

AnyBot = RandomBot | HeuristicBot
BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot, "easy": EasyBot, "heuristic": HeuristicBot, "normal": HeuristicBot, "strong": StrongBot}
"""The bots by name; ``normal`` and ``heuristic`` are the same bot (``heuristic`` its first name, kept
for stored tables and scripts)."""
LEVELS = ("easy", "normal", "strong")
"""The three levels offered to players, weakest first."""


def make_bot(name: str, rng: random.Random, *, budget_ms: float | None = None,
             playouts: int | None = None) -> AnyBot:
    """A bot by name (:data:`BOTS`) with its own random generator; ``budget_ms`` and ``playouts`` bound
    the strong bot's search (other bots ignore them)."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(sorted(BOTS))}") from None
    if cls is StrongBot:
        return StrongBot(rng, budget_ms=budget_ms, playouts=playouts)
    return cls(rng)
