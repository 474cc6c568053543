"""Seeded simulation of whole hands and matches with bots, and their summary — pure Python.

Every hand is reproducible from (variant, seed, index, bots): hand ``i`` of a run with seed ``s`` uses
``hand_seed(s, i)``, so a run split into chunks (Celery tasks) gives the same hands as one run.

``--bots a,b``: in partnership variants side 0 (seats 0, 2) plays ``a`` and side 1 ``b``; in the
individual variants seat ``i`` plays ``bots[i % len(bots)]``. Independent hands of a partnership
variant are played at level 2 for both sides with the deal rotating (hand ``i`` is dealt by seat
``i % 4``), so that both bots defend and attack equally often. ``yongzhou-300`` hands come in sessions
of :data:`YONGZHOU_SESSION` hands, as at a table (RULES.md §6.4): the first hand of a session is dealt
from seat 0, each later one from the last hand's winner (a tie drawn, see ``Hand``); a chunk that starts
inside a session plays the session's earlier hands again to know who deals.

>>> rec = simulate_hand("tractor", 7, 0, ["heuristic", "random"])
>>> rec["variant"], rec["tricks"] > 0, sum(rec["points"]) + rec["outcome"]["kitty_points"]
('tractor', True, 200)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import variants
from gameplay.bots import Bot, make_bot
from gameplay.cards import BJ, LJ, code_rank
from gameplay.config import HandConfig
from gameplay.hand import Hand
from gameplay.observation import observe
from scoring.partnership import HandResult, MatchState
from scoring.redfive import RedFiveResult
from scoring.yongzhou import YongzhouResult

__all__ = ["Summary", "bot_turn", "hand_seed", "play_out", "simulate_hand", "simulate_hands", "simulate_match",
           "simulate_matches", "summarize"]

YONGZHOU_SESSION = 8
"""Hands per yongzhou-300 session in runs of independent hands (the winner deals the next hand)."""


class DeferredRandom(random.Random):
    """``random.Random(seed)``, seeded when first drawn from: a heuristic bot seldom draws, and
    seeding four generators a hand costs more than a trick. Once seeded it is a plain
    ``random.Random`` (its class is switched), drawing the very same numbers."""

    def __init__(self, seed: int) -> None:  # no seeding here: that is the point
        self._deferred = seed
        self.gauss_next = None

    def _start(self) -> None:
        """Seed, once (a method bound before the switch may still be called: it lands here again)."""
        if "_deferred" in self.__dict__:
            self.__class__ = random.Random  # type: ignore[assignment]
            self.seed(self.__dict__.pop("_deferred"))

    def random(self) -> float:
        DeferredRandom._start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        DeferredRandom._start(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        DeferredRandom._start(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        DeferredRandom._start(self)
        random.Random.setstate(self, state)


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand ``index`` of a run seeded ``seed``."""
    return (seed * 1_000_003 + index) & 0xFFFFFFFF


def seat_bots(variant: str, players: int, bots: Sequence[str]) -> list[str]:
    if variants.get(variant).partnership:
        return [bots[s % 2] if len(bots) > 1 else bots[0] for s in range(players)]
    return [bots[s % len(bots)] for s in range(players)]


def _decl_cards(hand: Hand, seat: int) -> tuple[bool, ...]:
    """Per card code, whether a newly dealt card can open a new declaration for ``seat``: a joker or a
    level card of the rank ``seat`` declares with (fixed for the hand: :meth:`Hand.decl_level`)."""
    level = hand.decl_level(seat)
    table = _DECL_CARDS.get(level)
    if table is None:
        table = _DECL_CARDS[level] = tuple(c in (LJ, BJ) or (level is not None and c < 52 and code_rank(c) == level)
                                           for c in range(54))
    return table


_DECL_CARDS: dict[int | None, tuple[bool, ...]] = {}


def play_out(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Drive ``hand`` to the end with one bot per seat (each sees only its observation)."""
    stops: list[tuple[bool, ...]] | None = None  # per seat, the cards that may open a declaration
    while True:
        kind, seat = hand.to_act()
        if kind == "deal":
            if stops is None:
                stops = [_decl_cards(hand, s) for s in range(hand.n)]
            ev = hand.deal_until(stops)  # until a card that may open a declaration, or the deal ends
            s = ev.seat
            assert s is not None
            if hand.phase == "deal" and not hand.offers:
                opts = hand.legal_declarations(s)
                if opts:
                    choice = bots[s].declare(hand.observation(s), opts)
                    if choice:
                        hand.declare(s, choice)
            continue
        if kind == "scored":
            return hand
        assert seat is not None
        bot = bots[seat]
        if kind == "play":
            legal_plays, play = hand.legal_plays, hand.play
            while True:  # the whole play phase: the seat to play is the trick's turn
                bot = bots[seat]
                legal = legal_plays(seat)
                forced = None if bot.asked_when_forced else legal.forced()
                play(seat, forced if forced is not None else
                     bot.play(observe(hand, seat) if bot.uses_observation else None, legal))
                if hand.phase != "play":
                    break
                seat = hand.trick_turn
        else:
            bot_turn(hand, bot, kind, seat)


def bot_turn(hand: Hand, bot: Bot, kind: str, seat: int, *, default_trump: bool = False) -> None:
    """``seat``'s turn of kind ``kind`` (``hand.to_act()``, not the deal) decided by ``bot`` on its own
    observation, as :func:`play_out` plays it — also for online tables' bot seats and 托管.
    ``default_trump``: name the variant's default trump instead of asking (a clock ran out, seed 002)."""
    if kind == "play":
        legal = hand.legal_plays(seat)
        forced = None if bot.asked_when_forced else legal.forced()
        hand.play(seat, forced if forced is not None else
                  bot.play(observe(hand, seat) if bot.uses_observation else None, legal))
    elif kind == "declare":
        opts = hand.legal_declarations(seat)
        choice = bot.declare(hand.observation(seat), opts) if opts else None
        if choice:
            hand.declare(seat, choice)
        else:
            hand.pass_(seat)
    elif kind == "bid":
        b = bot.bid(hand.observation(seat), hand.legal_bids(seat))
        if b is None:
            hand.pass_(seat)
        else:
            hand.bid(seat, b)
    elif kind == "name_trump":
        hand.name_trump(seat, None if default_trump else bot.name_trump(hand.observation(seat)))
    elif kind == "bury":
        insurances = hand.legal_insurances(seat)  # chaodi 定主: offered before the dealer buries
        if insurances:
            pair = bot.insure(hand.observation(seat), insurances)
            if pair:
                hand.insure(seat, pair)
        hand.bury(seat, bot.bury(hand.observation(seat), hand.rules.kitty_size))
    elif kind == "overturn":
        choice = bot.overturn(hand.observation(seat), hand.legal_overturns(seat))
        if choice:
            hand.overturn(seat, choice)
        else:
            hand.pass_(seat)
    else:
        raise ValueError(f"a bot takes no turn of kind {kind!r}")

def make_hand(variant: str, seed: int, *, decks: int | None = None, players: int | None = None,
              options: dict[str, Any] | None = None, state: MatchState | None = None,
              start_seat: int | None = None, first_bidder: int | None = None) -> Hand:
    config = HandConfig(variant, options or {}, decks=decks, players=players, state=state,
                        start_seat=start_seat, first_bidder=first_bidder)
    return Hand(config, rng=random.Random(seed))


def independent_config(variant: str, index: int, players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """State and seats of hand ``index`` of a run of independent hands (deal rotating; red five's first
    bidder rotating too, unless ``options`` ask for a random one)."""
    spec = variants.get(variant)
    if spec.partnership:
        first = spec.first_level_name
        assert first is not None
        return {"state": MatchState(levels=(first, first), dealer=index % 4, hands_played=1)}
    if spec.declaring.bids:
        if (options or {}).get("first_bidder") == "random":
            return {}  # drawn by the hand, and kept in its log's config
        return {"first_bidder": index % players}
    return {"start_seat": index % players}


def record(hand: Hand, bots: Sequence[str], seed: int, index: int) -> dict[str, Any]:
    """A JSON-ready summary of a finished hand: outcome, result, and the score per bot."""
    res = hand.result
    rec: dict[str, Any] = {"variant": hand.variant, "seed": seed, "index": index, "dealer": hand.dealer,
                           "start_seat": hand.start_seat,
                           "trump": hand.trump, "level": hand.level, "tricks": len(hand.tricks),
                           "redeals": hand.redeals, "outcome": hand.outcome, "bots": list(bots),
                           "points": list(hand.points)}
    by_bot: dict[str, list[float]] = {}
    if isinstance(res, HandResult):
        gains = [0, 0]
        if res.gaining_side is not None:
            gains[res.gaining_side] = res.level_gain
        rec.update(attackers_total=res.attackers_total, level_gain=res.level_gain, gaining_side=res.gaining_side,
                   dealer_side=res.dealer_side, deal_changes=res.deal_changes)
        team_points = [sum(p for s, p in enumerate(hand.points) if s % 2 == side) for side in (0, 1)]
        rec["team_points"] = team_points
        rec["levels"] = gains
        for side in (0, 1):
            by_bot.setdefault(bots[side], []).append(gains[side] - gains[1 - side])
    elif isinstance(res, RedFiveResult):
        rec.update(dealer_final=res.dealer_final, game_points=list(res.game_points))
        rec["team_points"] = list(res.game_points)
        for s, g in enumerate(res.game_points):
            by_bot.setdefault(bots[s], []).append(g)
    elif isinstance(res, YongzhouResult):
        rec["net"] = list(res.net)
        rec["next_dealer"] = res.next_dealer
        rec["team_points"] = list(res.net)
        for s, g in enumerate(res.net):
            by_bot.setdefault(bots[s], []).append(g)
    rec["by_bot"] = {k: sum(v) / len(v) for k, v in by_bot.items()}
    return rec


def simulate_hand(variant: str, seed: int, index: int, bots: Sequence[str], *, decks: int | None = None,
                  players: int | None = None, options: dict[str, Any] | None = None,
                  keep_log: bool = False, start_seat: int | None = None) -> dict[str, Any]:
    """Play hand ``index`` of a run seeded ``seed`` and return its record (``log`` added on request).

    ``start_seat`` (yongzhou-300): the seat dealt to first — the last hand's winner; None: the first
    hand of a session (seat 0) or, inside a session, found by playing the session's earlier hands."""
    hs = hand_seed(seed, index)
    n = players or 4
    names = seat_bots(variant, n, bots)
    conf = independent_config(variant, index, n, options)
    if variants.get(variant).settlement.winner_deals_next:  # sessions: the winner deals next
        if start_seat is None:
            start_seat = 0
            for i in range(index - index % YONGZHOU_SESSION, index):
                start_seat = simulate_hand(variant, seed, i, bots, decks=decks, players=players, options=options,
                                           start_seat=start_seat)["next_dealer"]
        conf = {"start_seat": start_seat}
    hand = make_hand(variant, hs, decks=decks, players=players, options=options, **conf)
    bot_objs = [make_bot(name, DeferredRandom(hs * 7 + s)) for s, name in enumerate(names)]
    play_out(hand, bot_objs)
    rec = record(hand, names[:2] if variants.get(variant).partnership else names, hs, index)
    if keep_log:
        rec["log"] = hand.to_json()
    return rec


def simulate_hands(variant: str, seed: int, start: int, count: int, bots: Sequence[str], *,
                   decks: int | None = None, players: int | None = None, options: dict[str, Any] | None = None,
                   keep_log: bool = False, progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(start, start + count):
        seat = None
        if variants.get(variant).settlement.winner_deals_next and out and i % YONGZHOU_SESSION:
            seat = int(out[-1]["next_dealer"])  # the last hand's winner deals
        out.append(simulate_hand(variant, seed, i, bots, decks=decks, players=players, options=options,
                                 keep_log=keep_log, start_seat=seat))
        if progress is not None:
            progress(1)
    return out


def simulate_match(variant: str, seed: int, index: int, bots: Sequence[str], *,
                   options: dict[str, Any] | None = None, max_hands: int = 400) -> dict[str, Any]:
    """A whole "first past J" (chaodi: A) match from the first hand (争庄) to the winner."""
    if not variants.get(variant).partnership:
        raise ValueError(f"{variant} has no matches between two partnerships: use tractor or chaodi")
    ms = hand_seed(seed, index)
    rng = random.Random(ms)
    state: MatchState | None = None
    hands = 0
    redeals = 0
    winner = None
    bot_objs = [make_bot(bots[s % 2] if len(bots) > 1 else bots[0], DeferredRandom(ms * 7 + s)) for s in range(4)]
    while hands < max_hands:
        hand = Hand(HandConfig(variant, options or {}, state=state), rng=random.Random(rng.getrandbits(32)))
        play_out(hand, bot_objs)
        hands += 1
        redeals += hand.redeals
        state = hand.new_state
        assert state is not None and isinstance(hand.result, HandResult)
        if hand.result.match_winner is not None:
            winner = hand.result.match_winner
            break
    return {"variant": variant, "index": index, "seed": ms, "hands": hands, "winner": winner,
            "bots": [bots[0], bots[1] if len(bots) > 1 else bots[0]],
            "winner_bot": None if winner is None else (bots[winner] if len(bots) > 1 else bots[0]),
            "levels": list(state.levels) if state else None, "redeals": redeals}


def simulate_matches(variant: str, seed: int, start: int, count: int, bots: Sequence[str], *,
                     options: dict[str, Any] | None = None,
                     progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    out = []
    for i in range(start, start + count):
        out.append(simulate_match(variant, seed, i, bots, options=options))
        if progress is not None:
            progress(1)
    return out


# ---------------------------------------------------------------- summary


@dataclass
class Summary:
    """Aggregated figures of a run (``lines()`` prints them)."""

    variant: str
    count: int
    seconds: float
    records: list[dict[str, Any]] = field(repr=False, default_factory=list)
    matches: bool = False
    label: str = ""

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else float("inf")

    def by_bot(self) -> dict[str, float]:
        acc: dict[str, list[float]] = {}
        for r in self.records:
            for k, v in r.get("by_bot", {}).items():
                acc.setdefault(k, []).append(v)
        return {k: sum(v) / len(v) for k, v in acc.items()}

    def lines(self) -> list[str]:
        recs = self.records
        out = [f"{self.label or self.variant}: {self.count} {'matches' if self.matches else 'hands'} in {self.seconds:.1f} s "
               f"({self.per_second:.1f}/s)"]
        if not recs:
            return out
        if self.matches:
            hs = [r["hands"] for r in recs]
            wins = Counter(r["winner"] for r in recs)
            bots = recs[0]["bots"]
            out.append(f"hands per match: mean {statistics.mean(hs):.1f}, median {statistics.median(hs):g}, "
                       f"min {min(hs)}, max {max(hs)}")
            out.append("match wins: " + ", ".join(f"side {side} ({bots[side]}) {wins[side]}" for side in (0, 1))
                       + (f", unfinished {wins[None]}" if wins[None] else ""))
            return out
        out.append(f"average tricks per hand: {statistics.mean(r['tricks'] for r in recs):.2f}; "
                   f"redeals: {sum(r['redeals'] for r in recs)}")
        if variants.get(self.variant).partnership:
            totals = [r["attackers_total"] for r in recs]
            out.append(f"attackers' total: mean {statistics.mean(totals):.1f}, median {statistics.median(totals):g}")
            out.append("distribution: " + _histogram(totals, 20))
            changes = Counter((r["gaining_side"], r["level_gain"]) for r in recs)
            parts = []
            for (side, gain), k in sorted(changes.items(), key=lambda x: (str(x[0][0]), x[0][1])):
                who = "none" if side is None else f"side {side} ({r0(recs, side)})"
                parts.append(f"{who} +{gain}: {k}")
            out.append("level changes: " + "; ".join(parts))
            lv = [0, 0]
            for r in recs:
                lv[0] += r["levels"][0]
                lv[1] += r["levels"][1]
            out.append(f"levels gained: side 0 ({r0(recs, 0)}) {lv[0]}, side 1 ({r0(recs, 1)}) {lv[1]}; "
                       f"margin per hand {(lv[0] - lv[1]) / len(recs):+.3f}")
        elif variants.get(self.variant).settlement.contract:
            finals = [r["dealer_final"] for r in recs]
            out.append(f"dealer's final: mean {statistics.mean(finals):.1f}; distribution: {_histogram(finals, 20)}")
            bids = [r["outcome"]["bid"] for r in recs]
            out.append(f"bids: mean {statistics.mean(bids):.1f}")
        else:
            pts = [p for r in recs for p in r["points"]]
            out.append(f"points per seat: mean {statistics.mean(pts):.1f}; distribution: {_histogram(pts, 25)}")
        out.append("mean score per bot and hand (" + variants.get(self.variant).settlement.score_name
                   + "): " + ", ".join(f"{k} {v:+.3f}" for k, v in sorted(self.by_bot().items())))
        return out


def r0(recs: list[dict[str, Any]], side: int) -> str:
    bots = recs[0]["bots"]
    return bots[side] if len(bots) > side else bots[0]


def _histogram(values: Iterable[int], width: int) -> str:
    c = Counter((v // width) * width for v in values)
    return " ".join(f"{k}–{k + width - 5}:{c[k]}" for k in sorted(c))


def summarize(variant: str, records: list[dict[str, Any]], seconds: float, *, matches: bool = False,
              decks: int | None = None, players: int | None = None) -> Summary:
    spec = variants.get(variant)
    size = spec.size_label(decks or spec.default_decks, players or spec.default_players)
    label = variant if size is None else f"{variant} ({size[0]})"
    return Summary(variant, len(records), seconds, records, matches, label)


class ProgressBar:
    """A plain-text progress bar on a stream (stderr)."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.stream = stream or sys.stderr
        self.width = width
        self.t0 = time.perf_counter()
        self._last = 0.0

    def __call__(self, k: int = 1) -> None:
        self.done += k
        now = time.perf_counter()
        if now - self._last < 0.2 and self.done < self.total:
            return
        self._last = now
        frac = self.done / self.total
        bar = "#" * int(frac * self.width)
        rate = self.done / max(now - self.t0, 1e-9)
        self.stream.write(f"\r[{bar:<{self.width}}] {self.done}/{self.total} {rate:.0f}/s")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
