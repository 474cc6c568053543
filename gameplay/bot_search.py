"""The strong bot's card play: determinized Monte Carlo search over what the seat cannot see.

At each play with a choice, :class:`PlaySearch`

1. lists a few candidate plays (:func:`candidates`): the playout bot's own choice first, then for a
   lead the highest and lowest single, the lowest pointless single and the pairs and tractors of
   each suit, for a follow a spread of the legal follows from the weakest to the strongest;
2. deals the unseen cards again (:func:`sample_hidden`), consistently with everything public in the
   observation: each other seat's card count, the suits it showed void in, the cards it showed when
   declaring, overturning or insuring (while it never took the kitty), the kitty's size, and the kitty
   itself where this seat buried it;
3. for each candidate, places that deal at the start of the play phase
   (:func:`gameplay.position.hand_at_position`), replays the tricks so far, plays the candidate and
   plays the hand out with fast playout bots (the heuristic bot in every seat);
4. scores the finished hand in the variant's own terms (:func:`value`): levels gained less levels
   given (the kitty multiplier and last trick included, by the scoring core), plus a small share of
   the point margin to tell apart hands of equal levels; game points in red five; net in Yongzhou;
5. plays the candidate with the best mean over the deals among those that beat the playout bot's
   own choice by more than :data:`CONFIDENCE` standard errors of their differences (:func:`pick`);
   the playout bot's choice otherwise.

Every candidate is played out on the same deals (common random numbers). ``playouts`` deals at most,
and a time budget: a playout starts only while the time spent plus the longest playout so far stays
within the budget (a deal left unfinished is not counted), so a decision takes no longer than its
budget plus one playout's jitter and the choosing before the first playout (well under a
millisecond; a playout takes 0.2–2 ms). A given
seed gives the same decisions when the budget is not reached; when it is, the count of deals depends
on the machine's speed (tests give a small ``playouts`` and a generous budget).

The playouts use the variant's default options and sizes (the observation does not carry a table's
overrides): with overrides the search plays a near relative of the variant, and the rules still judge
every play of the real hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import variants
from gameplay.cards import NCODES
from gameplay.config import HandConfig
from gameplay.events import Bury, Declare, Insure, Overturn, Play, TakeKitty
from gameplay.hand import Hand
from gameplay.legal_plays import LegalPlays
from gameplay.observation import Observation, observe
from gameplay.order import Context
from gameplay.position import hand_at_position
from scoring.partnership import HandResult, MatchState
from scoring.redfive import RedFiveResult

__all__ = ["PlaySearch", "candidates", "sample_hidden", "value"]

Cards = tuple[int, ...]


class PlayoutBot(Protocol):
    """What a playout needs of a bot: its card play on its observation."""

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]: ...


POINT_WEIGHT = 0.01
"""Levels per point of margin in a partnership hand's value (40 points move about one level)."""
MAX_CANDIDATES = 10
"""The most candidate plays a decision compares (the playout bot's own choice among them)."""
CONFIDENCE = 1.0
"""How many standard errors a candidate must beat the playout bot's own choice by to be played."""
MAX_FOLLOWS_LISTED = 400
"""Above this many legal follows the candidates are sampled, not listed."""


# ---------------------------------------------------------------- what is known


def _played_by(obs: Observation) -> tuple[list[list[int]], int | None, int | None]:
    """Per seat, the cards it has put on the table this hand; the first trick's leader; the seat that
    buried last."""
    played: list[list[int]] = [[] for _ in range(obs.players)]
    first: int | None = None
    burier: int | None = None
    for ev in obs.events:
        cls = type(ev)
        if cls is Play:
            assert ev.seat is not None
            if first is None:
                first = ev.seat
            played[ev.seat].extend(ev.on_table)
        elif cls is Bury:
            burier = ev.seat
    return played, first, burier


def _pinned(obs: Observation, played: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per seat, the cards it showed (declaring, overturning, insuring) and has not played since, when it
    never took the kitty (it holds them still: it could not have buried them)."""
    shown: list[list[int]] = [[0] * NCODES for _ in range(obs.players)]
    took: set[int] = set()
    for ev in obs.events:
        cls = type(ev)
        if cls is TakeKitty and ev.seat is not None:
            took.add(ev.seat)
        elif (cls is Declare or cls is Overturn or cls is Insure) and ev.seat is not None:
            row = [0] * NCODES
            for c in ev.cards:
                row[c] += 1
            mine = shown[ev.seat]
            for c in range(NCODES):  # the most copies shown at once (a reinforcement shows them again)
                if row[c] > mine[c]:
                    mine[c] = row[c]
    out: list[list[int]] = [[] for _ in range(obs.players)]
    for s in range(obs.players):
        if s == obs.seat or s in took:
            continue
        gone = [0] * NCODES
        for c in played[s]:
            gone[c] += 1
        for c in range(NCODES):
            out[s].extend([c] * max(0, shown[s][c] - gone[c]))
    return out


def sample_hidden(obs: Observation, rng: random.Random, kitty_size: int,
                  played: Sequence[Sequence[int]] | None = None) -> tuple[list[list[int]], list[int]]:
    """The other seats' cards and the kitty drawn at random among the deals that agree with ``obs``
    (play phase): per seat exactly its count of cards, none of a suit it showed void in, the cards it
    showed and still holds; the kitty as this seat buried it, else ``kitty_size`` cards. Own seat: its hand.

    The cards are placed most constrained first, each to a place drawn in proportion to the room left;
    after three dead ends each card is placed only where the cards left still fit.
    """
    ctx = obs.ctx
    assert ctx is not None and obs.elsewhere
    n, me = obs.players, obs.seat
    if played is None:
        played = _played_by(obs)[0]
    pins = _pinned(obs, played)
    pool = list(obs.elsewhere)
    kitty_known = obs.kitty is not None
    if obs.kitty is not None:
        for c in obs.kitty:
            pool[c] -= 1
    for s in range(n):
        kept = []
        for c in pins[s]:
            if pool[c] > 0:  # else the copy shown is the one in this hand or played by another seat
                pool[c] -= 1
                kept.append(c)
        pins[s] = kept
    room0 = [0 if s == me else obs.cards_left[s] - len(pins[s]) for s in range(n)] + [0 if kitty_known else kitty_size]
    if min(room0) < 0:  # the pins do not fit (cannot happen with a consistent log): forget them
        pins = [[] for _ in range(n)]
        pool = list(obs.elsewhere)
        if obs.kitty is not None:
            for c in obs.kitty:
                pool[c] -= 1
        room0 = [0 if s == me else obs.cards_left[s] for s in range(n)] + [0 if kitty_known else kitty_size]
    cards = [c for c in range(NCODES) for _ in range(pool[c])]
    es = ctx.esuit
    allowed = [[p for p in range(n + 1) if room0[p] and (p == n or suit not in obs.voids[p])] for suit in range(5)]
    dest: list[list[int]] | None = None
    for _ in range(3):  # most deals place at once; a tight end game falls back to the checked placing
        dest = _place_quickly(cards, es, allowed, room0, rng)
        if dest is not None:
            break
    if dest is None:
        dest = _place_checked(cards, es, allowed, room0, rng)
    hands = [list(pins[s]) + dest[s] for s in range(n)]
    hands[me] = [c for c in range(NCODES) for _ in range(obs.hand[c])]
    kitty = list(obs.kitty) if obs.kitty is not None else dest[n]
    return hands, kitty


def _place_quickly(cards: list[int], es: Sequence[int], allowed: list[list[int]], room0: list[int],
                   rng: random.Random) -> list[list[int]] | None:
    """Cards placed most constrained first, each where it may go in proportion to the room left;
    None at a dead end."""
    rng.shuffle(cards)
    order = sorted(cards, key=lambda c: len(allowed[es[c]]))
    room = list(room0)
    dest: list[list[int]] = [[] for _ in room0]
    for c in order:
        places = [p for p in allowed[es[c]] if room[p]]
        total = sum(room[p] for p in places)
        if not total:
            return None
        r = rng.randrange(total)
        for p in places:
            r -= room[p]
            if r < 0:
                break
        dest[p].append(c)
        room[p] -= 1
    return dest


def _place_checked(cards: list[int], es: Sequence[int], allowed: list[list[int]], room0: list[int],
                   rng: random.Random) -> list[list[int]]:
    """Like :func:`_place_quickly`, but a place is taken only if the cards left still fit (Hall's
    condition over every set of suits: their cards need no more room than the places they may go)."""
    need = [0] * 32
    cap = [0] * 32
    per_suit = [0] * 5
    for c in cards:
        per_suit[es[c]] += 1
    reach = [0] * 32  # the places a set of suits may go to, as a bit mask
    for mask in range(1, 32):
        for suit in range(5):
            if mask >> suit & 1:
                need[mask] += per_suit[suit]
                for p in allowed[suit]:
                    reach[mask] |= 1 << p
        cap[mask] = sum(room0[p] for p in range(len(room0)) if reach[mask] >> p & 1)
    if any(need[m] > cap[m] for m in range(1, 32)):  # the voids cannot all hold (never with a true log)
        allowed = [[p for p in range(len(room0)) if room0[p]] for _ in range(5)]
        return _place_checked(cards, es, allowed, room0, rng)
    rng.shuffle(cards)
    room = list(room0)
    dest: list[list[int]] = [[] for _ in room0]
    for c in cards:
        suit = es[c]
        places = [p for p in allowed[suit] if room[p]]
        while True:
            total = sum(room[p] for p in places)
            r = rng.randrange(total)
            for p in places:
                r -= room[p]
                if r < 0:
                    break
            if all(need[m] - (m >> suit & 1) <= cap[m] - (reach[m] >> p & 1) for m in range(1, 32)):
                break
            places.remove(p)
        for m in range(1, 32):
            need[m] -= m >> suit & 1
            cap[m] -= reach[m] >> p & 1
        dest[p].append(c)
        room[p] -= 1
    return dest


# ---------------------------------------------------------------- candidates


def _spread(plays: list[Cards], ctx: Context, keep: int) -> list[Cards]:
    """``keep`` plays spread from the weakest to the strongest (by strength, then points)."""
    if len(plays) <= keep:
        return plays
    key = sorted(plays, key=lambda p: (sum(ctx.strength[c] for c in p), sum(ctx.points[c] for c in p)))
    step = (len(key) - 1) / (keep - 1)
    return [key[round(i * step)] for i in range(keep)]


def candidates(obs: Observation, legal: LegalPlays, first: Sequence[int], rng: random.Random) -> list[Cards]:
    """The plays the search compares: ``first`` (the playout bot's choice), then a few others."""
    ctx = obs.ctx
    assert ctx is not None
    out: list[Cards] = [tuple(sorted(first))]
    if legal.lead is None:
        by_suit: dict[int, list[Cards]] = {}
        for p in legal.leads(include_throws=False):
            by_suit.setdefault(ctx.esuit[p[0]], []).append(tuple(sorted(p)))
        for plays in by_suit.values():
            singles = sorted((p for p in plays if len(p) == 1), key=lambda p: ctx.strength[p[0]])
            wide = sorted((p for p in plays if len(p) > 1), key=lambda p: (len(p), ctx.strength[p[0]]))
            pick: list[Cards] = []
            if singles:
                pick += [singles[-1], singles[0]]
                plain = [p for p in singles if not ctx.points[p[0]]]
                if plain:
                    pick.append(plain[0])
            if wide:
                pick += [wide[0], wide[-1]]
            out += pick
    else:
        if legal.count() <= MAX_FOLLOWS_LISTED:
            plays = [tuple(sorted(p)) for p in legal.follows()]
        else:
            plays = [tuple(sorted(legal.sample(rng))) for _ in range(3 * MAX_CANDIDATES)]
        out += _spread(sorted(set(plays)), ctx, MAX_CANDIDATES)
    seen: set[Cards] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    if len(unique) > MAX_CANDIDATES:
        unique = unique[:1] + _spread(unique[1:], ctx, MAX_CANDIDATES - 1)
    return unique


# ---------------------------------------------------------------- playouts


def value(hand: Hand, seat: int) -> float:
    """A finished hand's worth to ``seat``, in its variant's own terms (see the module docstring)."""
    res = hand.result
    if isinstance(res, HandResult):
        side = seat % 2
        gain = 0 if res.gaining_side is None else res.level_gain if res.gaining_side == side else -res.level_gain
        mine = sum(p for s, p in enumerate(hand.points) if s % 2 == side)
        return gain + POINT_WEIGHT * (2 * mine - sum(hand.points))
    if isinstance(res, RedFiveResult):
        return float(res.game_points[seat])
    assert res is not None
    return float(res.net[seat])  # type: ignore[union-attr]


def _config(obs: Observation) -> HandConfig:
    spec = variants.get(obs.variant)
    state = None
    if spec.partnership:
        assert obs.level is not None and obs.dealer is not None
        state = MatchState(levels=(obs.level, obs.level), dealer=obs.dealer, hands_played=1)
    return HandConfig(obs.variant, {}, decks=obs.decks, players=obs.players, state=state)


def pick(values: Sequence[Sequence[float]], confidence: float) -> int:
    """The candidate to play, by its values on the same deals (``values[0]``: the playout bot's own
    choice): the best mean among those better than the first by more than ``confidence`` standard
    errors of their differences on each deal; the first when none is, or when fewer than two deals
    were played (one deal has no spread to judge by)."""
    base = values[0]
    k = len(base)
    if k < 2:
        return 0
    best, best_mean = 0, 0.0
    for i in range(1, len(values)):
        diffs = [v - b for v, b in zip(values[i], base, strict=True)]
        mean = sum(diffs) / k
        if mean <= best_mean:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        if mean > confidence * (var / k) ** 0.5:
            best, best_mean = i, mean
    return best


class PlaySearch:
    """Determinized Monte Carlo over the play (see the module docstring). ``make_playout_bot`` gives
    the fast bot that plays every seat in the playouts."""

    def __init__(self, rng: random.Random, make_playout_bot: Callable[[random.Random], PlayoutBot], *,
                 budget_ms: float = 200.0, playouts: int = 64, confidence: float | None = None) -> None:
        self.rng = rng
        self.budget = budget_ms / 1000.0
        self.playouts = playouts
        self.confidence = CONFIDENCE if confidence is None else confidence
        self.clock: Callable[[], float] = time.perf_counter
        """What the budget is measured by (tests may give another clock)."""
        self.bots = [make_playout_bot(random.Random(rng.getrandbits(32))) for _ in range(8)]
        self.last_deals = 0
        """How many deals the last decision played out (for benchmarks and tests)."""

    def choose(self, obs: Observation, legal: LegalPlays, first: Sequence[int]) -> Sequence[int]:
        """The best of the candidates by the mean value of their playouts; ``first`` when alone."""
        t0 = self.clock()
        self.last_deals = 0
        cands = candidates(obs, legal, first, self.rng)
        if len(cands) < 2:
            return first
        config = _config(obs)
        kitty_size = config.engine_rules().kitty_size
        played, leader, burier = _played_by(obs)
        if leader is None:
            leader = obs.leader
        plays = [ev for ev in obs.events if type(ev) is Play]
        values: list[list[float]] = [[] for _ in cands]
        deals = 0
        slowest = 0.0  # the longest playout so far: none starts unless it would end within the budget
        clock, budget = self.clock, self.budget
        while deals < self.playouts:
            if clock() - t0 + slowest > budget:
                break
            hidden, kitty = sample_hidden(obs, self.rng, kitty_size, played)
            for s in range(obs.players):
                hidden[s].extend(played[s])
            seed = self.rng.getrandbits(32)
            row: list[float] = []
            for cand in cands:
                start = clock()
                if start - t0 + slowest > budget:
                    break  # this deal is left unfinished and not counted
                h = hand_at_position(config, hidden, kitty, trump=obs.trump, dealer=obs.dealer, leader=leader,
                                     buried_by=burier, contract=obs.bid)
                for ev in plays:
                    assert ev.seat is not None
                    h.place(ev.seat, ev.cards, ev.forced)  # type: ignore[attr-defined]
                h.legal_plays(obs.seat)
                h.play(obs.seat, cand)
                self._play_out(h, seed)
                row.append(value(h, obs.seat))
                slowest = max(slowest, clock() - start)
            if len(row) < len(cands):
                break
            for i, v in enumerate(row):
                values[i].append(v)
            deals += 1
        self.last_deals = deals
        if not deals:
            return first
        return cands[pick(values, self.confidence)]

    def _play_out(self, h: Hand, seed: int) -> None:
        """Play ``h`` to its end with the playout bots (each seat its own; the same seed for every candidate)."""
        bots = self.bots
        for b in bots[:h.n]:
            b.rng.seed(seed)  # type: ignore[attr-defined]
        legal_plays, play = h.legal_plays, h.play
        while h.phase == "play":
            seat = h.trick_turn
            legal = legal_plays(seat)
            forced = legal.forced()
            play(seat, forced if forced is not None else bots[seat].play(observe(h, seat), legal))

