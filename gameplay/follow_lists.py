"""The follows the common rules allow (:mod:`gameplay.following`), listed: every distinct follow as a
multiset, strongest card first, in the order of :func:`gameplay.multisets.submultisets` — without
walking every sub-multiset where the lead has a structure to match (:func:`_structured_follows`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import NamedTuple

from gameplay.combos import Combo, codes_desc, match_score
from gameplay.multisets import submultiset_takes, submultisets
from gameplay.order import Context

Counts = Sequence[int]


def base_follows(ctx: Context, hand: Counts, lead: Combo) -> Iterator[tuple[int, ...]]:
    """Every distinct follow of ``lead`` the common rules allow (no 见分必打 / 不许送分), lazily."""
    n = lead.n
    s = lead.suit
    suit_codes = ctx.suit_codes[s]
    holding = [(c, hand[c]) for c in reversed(suit_codes) if hand[c]]
    m = sum([k for _, k in holding])
    if m <= n:
        base = [c for c, k in holding for _ in range(k)]
        es = ctx.esuit
        others = [(c, hand[c]) for c in codes_desc(ctx) if hand[c] and es[c] != s and es[c] >= 0]
        for sub in submultisets(others, n - m):
            yield tuple(base + sub)
        return
    comps = lead.components
    comp = comps[0]
    if len(comps) == 1 and comp.width == 1:
        for c, _ in holding:
            yield (c,)
        return
    if len(comps) == 1 and comp.length == 1 and comp.width == 2:
        pairs = [(c, c) for c, k in holding if k >= 2]
        if pairs:
            yield from pairs
            return
        # no pair held: every card once, so the sub-multisets are the 2-combinations, same order
        yield from combinations([c for c, _ in holding], 2)
        return
    yield from _structured_follows(ctx, lead, holding, n)


def _structured_follows(ctx: Context, lead: Combo, holding: list[tuple[int, int]], n: int) -> list[tuple[int, ...]]:
    """The follows of ``n`` cards of the led suit out of ``holding`` (strongest first) that show as
    much of the lead's structure as the holding can (the score of :func:`match_score`), in the order
    of :func:`submultisets`.

    A score counts only cards taken twice or more (pairs, triples, tractors), so it depends only on
    how many of each card held more than once a follow takes: each such way (a key) is scored once,
    and the walk over the sub-multisets enters only branches that lead to a key with the best score."""
    best = match_score(ctx, lead, dict(holding))
    codes = [c for c, _ in holding]
    caps = [k for _, k in holding]
    size = len(caps)
    multi = [i for i in range(size) if caps[i] >= 2]
    ones = sum(1 for k in caps if k == 1)
    # every key a follow can have (at most n cards, the rest singles held once), scored
    good: set[tuple[int, ...]] = set()
    for take in submultiset_takes([caps[i] for i in multi] + [ones], n):
        key = tuple(take[:-1])
        score = match_score(ctx, lead, {codes[i]: x for i, x in zip(multi, key, strict=True) if x})
        if score == best:
            good.add(key)
    prefixes = {key[:j] for key in good for j in range(len(key) + 1)}
    left_after = [0] * (size + 1)  # cards held from item i on
    for i in range(size - 1, -1, -1):
        left_after[i] = left_after[i + 1] + caps[i]
    out: list[tuple[int, ...]] = []
    _walk_follows(0, n, (), _FollowWalk(caps, codes, left_after, prefixes, good, len(multi), [], out))
    return out


class _FollowWalk(NamedTuple):
    """What :func:`_walk_follows` reads (and the two lists it fills) for :func:`_structured_follows`."""

    caps: list[int]
    codes: list[int]
    left_after: list[int]
    prefixes: set[tuple[int, ...]]
    good: set[tuple[int, ...]]
    nmulti: int
    cards: list[int]
    out: list[tuple[int, ...]]


def _walk_follows(i: int, need: int, key: tuple[int, ...], w: _FollowWalk) -> None:
    """The walk of :func:`_structured_follows` from item ``i`` on (a module function, not a closure:
    a recursive closure is a reference cycle, which only the garbage collector frees)."""
    if need == 0:
        rest = key + (0,) * (w.nmulti - len(key))
        if rest in w.good:
            w.out.append(tuple(w.cards))
        return
    if w.left_after[i] < need:
        return
    k = w.caps[i]
    top = k if k < need else need
    cards = w.cards
    if k >= 2:
        for take in range(top, -1, -1):
            nxt = (*key, take)
            if nxt in w.prefixes:
                cards.extend([w.codes[i]] * take)
                _walk_follows(i + 1, need - take, nxt, w)
                if take:
                    del cards[-take:]
    else:
        cards.append(w.codes[i])
        _walk_follows(i + 1, need - 1, key, w)
        cards.pop()
        _walk_follows(i + 1, need, key, w)
