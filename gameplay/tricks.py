"""Winning a trick — RULES.md §4 "Ruffing and winning a trick" and §1 points.

A play can beat the current winner only if it is entirely of the led effective suit, or entirely
trump when a side suit was led, and it *covers* the lead's structure. Such plays compare by the
lead's highest-priority component; among equal plays the first played wins.

>>> from gameplay.rulesets import ruleset
>>> from gameplay.order import Context
>>> from gameplay.combos import classify, parse_cards
>>> ctx = Context(ruleset("tractor"), "2", "H")
>>> lead = classify(ctx, parse_cards("S5 S4 S4"))
>>> plays = [parse_cards(p) for p in ("S5 S4 S4", "H9 H7 H7", "H8 H8 H4")]
>>> trick_winner(ctx, lead, plays), trick_points(ctx, plays)
(2, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gameplay.combos import Combo, covers, highest_tractor_top, unit_nodes
from gameplay.order import TRUMP, Context

PlayKey = tuple[int, int]


def play_key(ctx: Context, lead: Combo, play: Sequence[int]) -> PlayKey | None:
    """Comparable strength of ``play`` against ``lead`` (larger beats), or None for a discard.

    The key is (1 if a ruff of a side-suit lead else 0, strength of the lead's priority component
    as shown by the play). Only keys computed against the same lead compare.
    """
    es = ctx.esuit
    s = lead.suit
    n = len(play)
    if n != lead.n or n == 0:
        return None
    first = es[play[0]]
    if first == s:
        ruff = 0
    elif first == TRUMP and s != TRUMP:
        ruff = 1
    else:
        return None
    st = ctx.strength
    comp = lead.components[0]
    if len(lead.components) == 1 and comp.length == 1:
        c0 = play[0]
        for c in play:
            if c != c0:
                return None
        if es[c0] != first:
            return None
        return (ruff, st[c0])
    for c in play:
        if es[c] != first:
            return None
    counts: dict[int, int] = {}
    for c in play:
        counts[c] = counts.get(c, 0) + 1
    if len(lead.components) == 1:
        # a tractor: the play must be exactly a tractor of the same width and length
        w = comp.width
        if any(k != w for k in counts.values()):
            return None
        nodes = sorted(counts, key=st.__getitem__)
        adj = ctx.adj_up
        if all(nodes[i + 1] in adj[nodes[i]] for i in range(len(nodes) - 1)):
            return (ruff, st[nodes[-1]])
        top = highest_tractor_top(ctx, counts.keys(), comp.length)
        return None if top is None else (ruff, top)
    if comp.length == 1:  # a throw with no tractor: covered when the play holds as many triples and pairs
        n3 = nreq = 0
        for x in lead.components:
            if x.length >= 2:
                break  # a tractor among its components: the general test below
            if x.width >= 2:
                nreq += 1
                if x.width == 3:
                    n3 += 1
        else:
            w = comp.width
            have2 = have3 = 0
            best = -1
            for c, k in counts.items():
                if k >= 2:
                    have2 += 1
                    if k >= 3:
                        have3 += 1
                if k >= w and st[c] > best:
                    best = st[c]
            if nreq and not (have3 >= n3 and have2 - n3 >= nreq - n3):
                return None
            if best >= 0:
                return (ruff, best)
    if not covers(ctx, lead, counts):
        return None
    if comp.length >= 2:
        top = highest_tractor_top(ctx, unit_nodes(counts, comp.width), comp.length)
        return None if top is None else (ruff, top)
    w = comp.width
    best = max([st[c] for c, k in counts.items() if k >= w])
    return (ruff, best)


def trick_winner(ctx: Context, lead: Combo, plays: Sequence[Sequence[int]]) -> int:
    """Index (in play order, 0 = the lead) of the play that wins the trick."""
    best = 0
    best_key = play_key(ctx, lead, plays[0])
    assert best_key is not None, "the lead always covers itself"
    for i in range(1, len(plays)):
        key = play_key(ctx, lead, plays[i])
        if key is not None and key > best_key:
            best, best_key = i, key
    return best


def trick_points(ctx: Context, plays: Iterable[Iterable[int]]) -> int:
    """Points in the cards of a trick (5 = 5, 10 and K = 10; yongzhou-300 LJ = 20, BJ = 30)."""
    pts = ctx.points
    total = 0
    for p in plays:
        for c in p:
            total += pts[c]
    return total


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Outcome of a complete trick: winning seat, index in play order, points."""

    winner_seat: int
    winner_index: int
    points: int


def decide_trick(ctx: Context, lead: Combo, plays: Sequence[Sequence[int]], leader: int = 0) -> TrickResult:
    """Winner and points of a complete trick whose plays are listed from the leader."""
    i = trick_winner(ctx, lead, plays)
    return TrickResult((leader + i) % ctx.rules.players, i, trick_points(ctx, plays))


@dataclass(frozen=True)
class PlayEvent:
    """One play added to a trick (what a hand's event log records)."""

    seat: int
    cards: tuple[int, ...]
    forced: tuple[int, ...] | None = None
    penalty: int = 0

    @property
    def on_table(self) -> tuple[int, ...]:
        """The cards that stay on the table (the forced cards after a failed throw)."""
        return self.forced if self.forced is not None else self.cards
