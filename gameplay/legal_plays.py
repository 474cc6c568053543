"""The legal plays of one seat at its turn (what bots and the UI get): listed, counted and sampled
uniformly, without listing every play when there are very many."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import compress

from gameplay.cards import NCODES
from gameplay.combos import Combo
from gameplay.legality import (
    can_lead,
    count_legal_leads,
    count_submultisets,
    is_legal_follow,
    legal_follows,
    legal_leads,
    suit_tractor_leads,
)
from gameplay.order import TRUMP, Context


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
            row[s] = sum(nxt[s - k if s > k else 0:s + 1])  # nxt[s - t] for t = 0 … min(k, s)
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


def _sample_lead(ctx: Context, counts: Sequence[int], rng: random.Random) -> tuple[int, ...]:
    """``leads[rng.randrange(len(leads))]`` of ``leads = list(legal_leads(ctx, counts, include_throws=False))``
    (same draw, same play) without listing the units: per suit its units are counted and only its
    tractors listed."""
    mw = ctx.max_width
    parts = []
    total = 0
    for s in range(TRUMP, -1, -1):
        codes = [c for c in ctx.suit_codes[s] if counts[c]]
        if not codes:
            continue
        units = len(codes)  # one single per card, and as many wider units as the copies held allow
        wide = False
        for c in codes:
            k = counts[c]
            if k > 1:
                units += (k if k < mw else mw) - 1
                wide = True
        tractors = suit_tractor_leads(ctx, counts, codes) if wide else ()
        parts.append((codes, units, tractors))
        total += units + len(tractors)
    r = rng.randrange(total)
    for codes, units, tractors in parts:
        if r < units:
            for c in reversed(codes):
                k = counts[c]
                k = k if k < mw else mw
                if r < k:
                    return (c,) * (r + 1)
                r -= k
        r -= units
        if r < len(tractors):
            return tractors[r]
        r -= len(tractors)
    raise AssertionError("no lead")


class LegalPlays:
    """The legal plays of one seat at its turn in the play phase (what bots and the UI get)."""

    __slots__ = ("_given", "_list", "_m", "counts", "ctx", "lead", "left", "prior")

    def __init__(self, ctx: Context, counts: Sequence[int], lead: Combo | None,
                 prior: Sequence[Sequence[int]], left: int = -1) -> None:
        self.ctx = ctx
        self.counts = counts
        self.lead = lead
        self.prior = prior
        self.left = left  # the cards the seat holds, if the caller knows (-1: not given)
        self._m = -1  # the cards of the led suit held, once forced() counted them
        self._list: list[tuple[int, ...]] | None = None
        self._given: tuple[int, ...] | None = None

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
        if ctx.extra_rules and self.prior:
            return None
        s = lead.suit
        es = ctx.esuit
        counts = self.counts
        suit_codes = ctx.suit_codes[s]
        m = 0
        for c in suit_codes:
            m += counts[c]
        if m > lead.n:
            return None
        suit = [c for c in suit_codes for _ in range(counts[c])]
        others = [(c, counts[c]) for c in compress(range(NCODES), counts) if es[c] != s]
        return suit, others, lead.n - len(suit)

    def count(self) -> int:
        if self.lead is None:
            return count_legal_leads(self.ctx, self.counts, include_throws=self.ctx.rules.throw_allowed)
        short = self._short()
        if short is not None:
            return count_submultisets([k for _, k in short[1]], short[2])
        return len(self.follows())

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal play (leads: throws included where allowed), without listing
        every play when there are very many."""
        ctx = self.ctx
        counts = self.counts
        if self.lead is None:
            if not ctx.rules.throw_allowed:
                given = self._given = _sample_lead(ctx, counts, rng)
                return given
            totals = []
            for codes in ctx.suit_codes:  # sub-multisets of a suit: the product of (count + 1), less the empty one
                p = 1
                for c in codes:
                    k = counts[c]
                    if k:
                        p *= k + 1
                totals.append(p - 1)
            r = rng.randrange(sum(totals))
            for s in range(TRUMP + 1):
                if r < totals[s]:
                    x = r + 1  # mixed-radix index of a non-empty sub-multiset
                    out: list[int] = []
                    for c in ctx.suit_codes[s]:
                        k = counts[c]
                        if k:  # a card not held is a digit of radix 1, always 0
                            x, take = divmod(x, k + 1)
                            if take:
                                out += [c] * take
                    play = self._given = tuple(out)
                    return play
                r -= totals[s]
            raise AssertionError("no lead")
        lead = self.lead
        if lead.n == 1 and self._list is None and not (self.prior and ctx.extra_rules):
            # a single led: the suit's distinct cards held, in the order of legal_follows (strongest first)
            holding = [c for c in ctx.suit_desc[lead.suit] if counts[c]]
            if len(holding) > 1 or (holding and counts[holding[0]] > 1):  # not short of the suit
                play = self._given = (holding[rng.randrange(len(holding))],)
                return play
            if holding:  # the suit's one card, which must be played (no draw, as the list has one play)
                play = self._given = (holding[0],)
                return play
            # void: any card, drawn among the distinct codes held in code order (as the short-of-suit list)
            held = list(compress(range(NCODES), counts))
            play = self._given = (held[rng.randrange(len(held))],)
            return play
        short = self._short()
        if short is not None:
            suit, others, fill = short
            play = self._given = tuple(suit + _sample_submultiset(rng, others, fill))
            return play
        plays = self.follows()
        return plays[rng.randrange(len(plays))]

    def forced(self) -> tuple[int, ...] | None:
        """The one legal play, handed out as legal, when there is no choice: the seat's last card (a
        lead or a follow, when ``left`` is 1), or, following, all the cards of the led suit when the
        seat holds exactly as many as were led (in the suit's code order, each as often as held; not
        under 见分必打/不许送分, yongzhou-300). None otherwise."""
        lead = self.lead
        if self.left == 1 and (lead is None or lead.n == 1):
            # each play an annotated name of its own: a tuple object, which mypyc would otherwise keep
            # as a fixed-length struct and box anew for the attribute and for the return
            last: tuple[int, ...] = (self.counts.index(1),)
            self._given = last
            return last
        if lead is None:
            return None
        if self.ctx.extra_rules:
            return None
        counts = self.counts
        codes = self.ctx.suit_codes[lead.suit]
        m = 0
        for c in codes:
            m += counts[c]
        self._m = m
        if m != lead.n:
            return None
        if m == 1:
            for c in codes:
                if counts[c]:
                    one: tuple[int, ...] = (c,)
                    self._given = one
                    return one
        out: list[int] = []
        for c in codes:
            k = counts[c]
            if k:
                out += [c] * k
        play = self._given = tuple(out)
        return play

    def single(self, code: int) -> tuple[int, ...]:
        """``(code,)``: a single this seat may lead or follow a single with (held; of the led suit, or
        the seat holds none of it; no yongzhou rule after the first play) is handed out as legal, so the
        hand does not check it again. Any other single is returned as a plain play, which the hand
        checks (and refuses if it breaks a rule)."""
        play: tuple[int, ...] = (code,)  # a tuple object (mypyc: not a fixed-length struct, boxed anew on return)
        counts = self.counts
        if not 0 <= code < NCODES or counts[code] < 1:
            return play
        lead = self.lead
        if lead is not None:
            ctx = self.ctx
            if lead.n != 1 or (self.prior and ctx.extra_rules):
                return play
            s = lead.suit
            if ctx.esuit[code] != s:
                m = self._m
                if m > 0:
                    return play  # not void in the led suit: the hand refuses it
                if m < 0:  # not counted yet
                    for c in ctx.suit_codes[s]:
                        if counts[c]:
                            return play
        self._given = play
        return play

    def gave(self, cards: object) -> bool:
        """Whether ``cards`` is one of the very objects this instance handed out as legal (a play of
        :meth:`sample` or an item of :meth:`follows`): the hand then need not check it again."""
        if cards is self._given:
            return True
        plays = self._list
        if plays is not None:
            for p in plays:
                if p is cards:
                    return True
        return False

    def is_legal(self, cards: Sequence[int]) -> bool:
        if self.lead is None:
            return can_lead(self.ctx, self.counts, cards)
        return is_legal_follow(self.ctx, self.counts, self.lead, cards, prior=self.prior)
