"""What the heuristic bot (:mod:`gameplay.bots`, :mod:`gameplay.bot_play`) knows of the cards:
per rule set, level and trump, tables of 54 entries built once (:class:`Tables`: what a card costs,
what leading it low costs, sort keys, each suit's codes in code order and strongest first); the
cards nobody has shown a seat (:func:`unseen_counts`) and the highest of them per suit and width
(:func:`max_unseen`, :func:`thresholds`); sure winners (:func:`is_sure`, :func:`may_be_sure`); the
teams, voids and opponents still to play of a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter, sub
from typing import Any, NamedTuple

import variants
from gameplay.cards import NCODES, deck_codes, to_counts
from gameplay.combos import highest_tractor_top
from gameplay.observation import Observation
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ruleset

__all__ = ["CODES", "Tables", "full_counts", "is_sure", "lowest", "max_unseen", "may_be_sure", "opponents_after",
           "tables", "teams", "thresholds", "unseen_counts", "voids"]

CODES = range(NCODES)


class Tables(NamedTuple):
    """Per-context constants of the heuristic's card play (immutable; one per context)."""

    costs: list[int]
    """What playing each card costs: its rank within its suit, trumps dearer."""
    low: list[int]
    """What leading it low costs, before its suit's length and a partner's void are counted."""
    by_code: tuple[tuple[int, ...], ...]
    """Each effective suit's codes in code order (how the heuristic walks a suit it holds)."""
    counts_of: tuple[Callable[[Sequence[int]], Any], ...]
    """Per effective suit, the counts of its codes (in code order) out of a hand: a cache key."""
    desc: tuple[tuple[int, ...], ...]
    """Each effective suit's codes strongest first (the order of ``legal_follows``)."""
    cheap: list[int]
    """A sort key: cheapest to give first (points count fourfold)."""
    rich: list[int]
    """A sort key: most points first, then cheapest."""
    neg_strength: list[int]
    """A sort key: strongest first."""
    order: tuple[tuple[int, ...], ...]
    """Each effective suit's codes strongest first, equal ones in code order (how a decomposition
    lists singles)."""
    counts_desc: tuple[Callable[[Sequence[int]], Any], ...]
    """Per effective suit, the counts of its codes strongest first (``desc``) out of a hand."""
    by_cheap: tuple[int, ...]
    """Every code by ``cheap``, equal ones in code order: the first held is ``min(held, key=cheap)``."""
    by_rich: tuple[int, ...]
    """Every code by ``rich``, equal ones in code order."""
    suit_by: tuple[tuple[tuple[int, ...], ...], ...]
    """[key][suit]: a suit's codes (``ctx.suit_codes`` order) stably sorted by ``cheap``, ``rich``,
    ``neg_strength``: what a stable sort of the cards held of the suit by that key lists first."""
    others_by: tuple[tuple[tuple[int, ...], ...], ...]
    """[key][suit]: the codes of the other suits (code order) stably sorted by ``cheap``, ``rich``."""


_TABLES: dict[int, tuple[Context, Tables]] = {}


def _getter(codes: tuple[int, ...]) -> Callable[[Sequence[int]], Any]:
    """The counts of ``codes`` out of a hand, as a tuple (``itemgetter`` of two codes or more)."""
    if len(codes) >= 2:
        return itemgetter(*codes)
    return lambda hand: tuple(hand[c] for c in codes)


def tables(ctx: Context) -> Tables:
    """The heuristic's tables of ``ctx`` (built on first use; shared by the contexts of one rule set,
    level and trump, as the tables of :mod:`gameplay.combos` are)."""
    hit = _TABLES.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    key = (ctx.rules, ctx.level, ctx.trump)
    try:
        t = _BY_KEY.get(key)
    except TypeError:  # rules that cannot be hashed: tables for this context alone
        t = _build(ctx)
    if t is None:
        if len(_BY_KEY) > 256:
            _BY_KEY.clear()
        t = _BY_KEY[key] = _build(ctx)
    if len(_TABLES) > 1024:
        _TABLES.clear()
    _TABLES[id(ctx)] = (ctx, t)
    return t


_BY_KEY: dict[object, Tables] = {}


def _build(ctx: Context) -> Tables:
    es, st, pts = ctx.esuit, ctx.strength, ctx.points
    costs = [(st[c] % 32) + (30 if es[c] == TRUMP else 0) for c in CODES]
    low = [(st[c] % 32) + pts[c] * 4 + (40 if es[c] == TRUMP else 0) for c in CODES]
    by_code = tuple(tuple(sorted(ctx.suit_codes[s])) for s in range(TRUMP + 1))
    counts_of = tuple(_getter(codes) for codes in by_code)
    desc = tuple(tuple(reversed(ctx.suit_codes[s])) for s in range(TRUMP + 1))
    order = tuple(tuple(sorted(ctx.suit_codes[s], key=lambda c: (-st[c], c))) for s in range(TRUMP + 1))
    cheap = [pts[c] * 4 + costs[c] for c in CODES]
    rich = [-pts[c] * 1000 + costs[c] for c in CODES]  # (-points, cost) as one number (costs < 1000)
    neg = [-x for x in st]
    suits = range(TRUMP + 1)
    suit_by = tuple(tuple(tuple(sorted(ctx.suit_codes[s], key=key.__getitem__)) for s in suits)
                    for key in (cheap, rich, neg))
    others_by = tuple(tuple(tuple(c for c in sorted(CODES, key=key.__getitem__) if es[c] != s) for s in suits)
                      for key in (cheap, rich))
    return Tables(costs, low, by_code, counts_of, desc, cheap, rich, neg, order,
                  tuple(_getter(codes) for codes in desc), tuple(sorted(CODES, key=cheap.__getitem__)),
                  tuple(sorted(CODES, key=rich.__getitem__)), suit_by, others_by)


_FULL: dict[tuple[str, int, int], tuple[int, ...]] = {}
_TEAMS: dict[tuple[str, int, int | None], tuple[int, ...]] = {}


def full_counts(obs: Observation) -> tuple[int, ...]:
    """The counts of every card of the hand's decks."""
    key = (obs.variant, obs.players, obs.decks)
    full = _FULL.get(key)
    if full is None:
        rs = ruleset(obs.variant, decks=key[2],
                     players=obs.players if variants.get(obs.variant).variable_players else None)
        full = tuple(to_counts(deck_codes(rs.decks, rs.removed_ranks)))
        _FULL[key] = full
    return full


def teams(obs: Observation) -> tuple[int, ...]:
    """``obs.team(seat)`` of every seat (it depends on the variant, the seats and the dealer)."""
    key = (obs.variant, obs.players, obs.dealer)
    t = _TEAMS.get(key)
    if t is None:
        t = _TEAMS[key] = tuple(obs.team(s) for s in range(obs.players))
    return t


def voids(team: tuple[int, ...], seat: int, void: tuple[frozenset[int], ...]) -> tuple[set[int], set[int]]:
    """The suits some opponent of ``seat`` is void in, and those its partners are void in."""
    me = team[seat]
    opp: set[int] = set()
    partner: set[int] = set()
    for other, v in enumerate(void):
        if v:
            if team[other] != me:
                opp |= v
            elif other != seat:
                partner |= v
    return opp, partner


def lowest(t: Tables, suit: int, counts: Sequence[int]) -> tuple[int, int]:
    """(cost, card) of the cheapest card of ``suit`` to lead low, ``counts`` its cards' counts in code
    order (the first in code order of equal costs), before the suit's length and voids count."""
    low = t.low
    pick_cost, pick = 0, -1
    for c, k in zip(t.by_code[suit], counts, strict=True):
        if k:
            cost = low[c] + (6 if k >= 2 else 0)
            if pick < 0 or cost < pick_cost:
                pick_cost, pick = cost, c
    return pick_cost, pick


_AFTER: dict[tuple[tuple[int, ...], int, int], list[int]] = {}


def opponents_after(team: tuple[int, ...], seat: int, played: int) -> list[int]:
    """The seats of another team than ``seat``'s still to play after it, ``played`` plays on the table
    (do not change the list: it is shared)."""
    key = (team, seat, played)
    out = _AFTER.get(key)
    if out is None:
        players = len(team)
        out = _AFTER[key] = [s for s in ((seat + i) % players for i in range(1, players - played))
                             if team[s] != team[seat]]
    return out


def unseen_counts(obs: Observation) -> list[int]:
    """Per code, the cards nobody has shown this seat: the decks less what was played, what it
    holds, the kitty it buried and the cards on the table."""
    elsewhere = obs.elsewhere
    un = list(elsewhere) if elsewhere else list(map(sub, map(sub, full_counts(obs), obs.played), obs.hand))
    kitty = obs.kitty
    if kitty:
        for c in kitty:
            un[c] -= 1
    for _, cards in obs.trick:
        for c in cards:
            un[c] -= 1
    return un


def max_unseen(ctx: Context, unseen: Sequence[int], suit: int, width: int) -> int:
    """The strength of the highest card of ``suit`` unseen at least ``width`` times, or -1."""
    st = ctx.strength
    for c in tables(ctx).desc[suit]:
        if unseen[c] >= width:
            return st[c]
    return -1


def thresholds(ctx: Context, desc: Sequence[int], unseen: Sequence[int]) -> list[int]:
    """:func:`max_unseen` of a suit (its codes ``desc``, strongest first) for every width
    0…``ctx.max_width`` (one scan)."""
    st = ctx.strength
    top = ctx.max_width
    out = [-1] * (top + 1)
    found = 0
    for c in desc:
        u = unseen[c]
        if u > found:
            if u > top:
                u = top
            for w in range(found + 1, u + 1):
                out[w] = st[c]
            found = u
            if found == top:
                break
    out[0] = out[1]
    return out


def may_be_sure(ctx: Context, codes: Sequence[int], counts: Sequence[int], hand: Sequence[int],
                thr: Sequence[int]) -> bool:
    """Whether some component of the cards ``counts`` of ``codes`` may be sure (a superset of the
    components :meth:`gameplay.bot_play.PlayChooser._lead` finds sure): a card held ``k`` times at least as strong as the
    highest card unseen ``k`` times (a single, pair or triple), or two cards held twice that are adjacent
    (a tractor, judged by :func:`is_sure`)."""
    st, adj = ctx.strength, ctx.adj_up
    top = len(thr) - 1
    for c, k in zip(codes, counts, strict=True):
        if k:
            if st[c] >= thr[k if k < top else top]:
                return True
            if k >= 2:
                for b in adj[c]:
                    if hand[b] >= 2:
                        return True
    return False


def is_sure(ctx: Context, top: int, width: int, length: int, suit: int, unseen: Sequence[int]) -> bool:
    """Whether no unseen cards of ``suit`` can beat a component (``top``, ``width``, ``length``)."""
    if length >= 2:
        nodes = [c for c in ctx.suit_codes[suit] if unseen[c] >= width]
        best = highest_tractor_top(ctx, nodes, length)
        return best is None or best <= top
    return max_unseen(ctx, unseen, suit, width) <= top
