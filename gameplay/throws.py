"""Throws (甩牌) — RULES.md §4: whether a throw stands against the other hands, and the component it is
forced to when it does not. :mod:`gameplay.legality` re-exports these names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gameplay.combos import Combo, Component, highest_tractor_top, new_combo
from gameplay.order import Context

Counts = Sequence[int]

__all__ = ["ThrowCheck", "component_beaten", "throw_check", "throw_forced"]


@dataclass(frozen=True, slots=True)
class ThrowCheck:
    """Result of checking a throw against the other hands."""

    failed: bool
    forced: Combo | None
    beaten_by: int | None
    failing: tuple[Component, ...]
    beaters: Mapping[int, tuple[int, ...]]
    returned: int
    penalty: int


def component_beaten(ctx: Context, comp: Component, counts: Counts) -> bool:
    """Whether a hand holds, in the component's suit, a same-shape combination strictly higher
    (RULES §4): for a single any higher card, also one held as part of a pair or tractor; for a
    pair (triple) a higher pair (triple); for a tractor a higher tractor at least as long."""
    st = ctx.strength
    w = comp.width
    if comp.length == 1:
        mine = comp.top
        for c in ctx.suit_codes[comp.suit]:
            if st[c] > mine and counts[c] >= w:
                return True
        return False
    codes = [c for c in ctx.suit_codes[comp.suit] if counts[c] >= w]
    top = highest_tractor_top(ctx, codes, comp.length)
    return top is not None and top > comp.top


def throw_check(ctx: Context, combo: Combo, hands: Mapping[int, Counts], leader: int) -> ThrowCheck:
    """Check a throw against every other seat's hand (partners included).

    On failure the forced component follows ``rules.throw_forced``: by default ("lowest_card") the
    lowest failing component — its highest card lowest, then fewer cards, then first in suit order
    ♦ ♣ ♥ ♠ (RULES §4; seed 003 "必须出欲联出的牌中的最小牌"); with "fewest_cards" the failing
    component with the fewest cards, the lowest of those. ``beaten_by`` is the first seat after the
    leader, in play order, that can beat the forced component.
    """
    if not combo.is_throw:
        return ThrowCheck(False, None, None, (), {}, 0, 0)
    players = ctx.rules.players
    order = [x for x in ((leader + i) % players for i in range(1, players)) if x in hands]
    failing: list[Component] = []
    beaters: dict[int, tuple[int, ...]] = {}
    st = ctx.strength
    desc = ctx.suit_desc[combo.suit]
    tops: dict[int, list[int]] = {}  # width -> per seat in order, the strongest unit of that width held (-1: none)
    for idx, comp in enumerate(combo.components):
        if comp.length == 1:  # a unit is beaten by a higher unit as wide: compare with the strongest held
            w = comp.width
            best = tops.get(w)
            if best is None:
                best = tops[w] = []
                for x in order:
                    h = hands[x]
                    top = -1
                    for c in desc:  # strongest first: the first held is the strongest
                        if h[c] >= w:
                            top = st[c]
                            break
                    best.append(top)
            mine = comp.top
            seats = tuple([x for x, b in zip(order, best, strict=True) if b > mine])
        else:
            seats = tuple([x for x in order if component_beaten(ctx, comp, hands[x])])
        if seats:
            failing.append(comp)
            beaters[idx] = seats
    if not failing:
        return ThrowCheck(False, None, None, (), {}, 0, 0)
    forced = _forced_of(ctx, failing)
    idx = combo.components.index(forced)
    forced_combo = Combo(combo.suit, forced.shape, (forced,), forced.codes)
    returned = combo.n - forced.size
    return ThrowCheck(True, forced_combo, beaters[idx][0], tuple(failing), beaters, returned,
                      returned * ctx.rules.throw_penalty)


def _forced_of(ctx: Context, failing: list[Component]) -> Component:
    """The failing component a throw is forced to (``rules.throw_forced``, see :func:`throw_check`)."""
    if len(failing) == 1:
        return failing[0]
    # the first least by (top, size) or (size, top), ties broken by the lowest card (as one min() by
    # the three keys: the lowest card is looked at only among the tied)
    by_top = ctx.rules.throw_forced == "lowest_card"
    keys = [(c[3], c[1] * c[2]) if by_top else (c[1] * c[2], c[3]) for c in failing]
    least = min(keys)
    tied = [c for c, k in zip(failing, keys, strict=True) if k == least]
    if len(tied) == 1:
        return tied[0]
    low = ctx.sortkey.__getitem__
    return min(tied, key=lambda c: min(map(low, c.codes)))


def throw_forced(ctx: Context, combo: Combo, others: Sequence[Counts]) -> tuple[Combo, int] | None:
    """What :func:`throw_check` decides for the hand's play, and nothing more: None when the throw
    stands, else the forced combination and the penalty (``others``: the other seats' hands). A
    unit fails when the strongest unit as wide that any other seat holds is higher, found from the top
    of the suit down (``tests/gameplay/test_fast_paths.py`` compares it with :func:`throw_check`)."""
    if len(combo.components) < 2:
        return None
    st = ctx.strength
    desc = ctx.suit_desc[combo.suit]
    tops: dict[int, int] = {}  # width -> the strongest unit of that width another seat holds (-1: none)
    failing: list[Component] = []
    for comp in combo.components:
        if comp.length == 1:
            w = comp.width
            top = tops.get(w)
            if top is None:
                top = -1
                for c in desc:
                    for h in others:
                        if h[c] >= w:
                            top = st[c]
                            break
                    if top >= 0:
                        break
                tops[w] = top
            if top > comp.top:
                failing.append(comp)
        else:
            for h in others:
                if component_beaten(ctx, comp, h):
                    failing.append(comp)
                    break
    if not failing:
        return None
    forced = _forced_of(ctx, failing)
    return (new_combo(combo.suit, forced.shape, (forced,), forced.codes),
              (combo.n - forced.size) * ctx.rules.throw_penalty)
