"""yongzhou-300's extra following rules — RULES.md §4: 见分必打 (when points show in the trick and
the follower can beat the current winner, it must; in a side suit with the strongest such play) and
不许送分 (no point cards discarded while there is another choice, lowest values first). They apply
over the common rules (:mod:`gameplay.following`), given the plays already on the table (``prior``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gameplay.combos import Combo, codes_desc
from gameplay.follow_lists import base_follows
from gameplay.multisets import submultisets
from gameplay.order import TRUMP, Context
from gameplay.tricks import PlayKey, play_key

Counts = Sequence[int]


def _current_best(ctx: Context, lead: Combo, prior: Sequence[Sequence[int]]) -> PlayKey:
    best = play_key(ctx, lead, prior[0]) if prior else None
    if best is None:
        best = play_key(ctx, lead, lead.codes)
    assert best is not None
    for p in prior[1:]:
        k = play_key(ctx, lead, p)
        if k is not None and k > best:
            best = k
    return best


def _point_sig(ctx: Context, play: Sequence[int]) -> tuple[int, ...]:
    pts = ctx.points
    return tuple(sorted((pts[c] for c in play if pts[c]), reverse=True))


@dataclass
class PointConstraints:
    """What the extra rules ask of one follower (:func:`point_constraints`)."""

    must_beat: bool
    beat_key: PlayKey | None  # required exact key (strongest in side suit), or None
    discard_sig: tuple[int, ...] | None  # required point signature of a discard; None: no discard allowed
    current: PlayKey


def point_constraints(ctx: Context, hand: Counts, lead: Combo, prior: Sequence[Sequence[int]],
                      keyed: list[tuple[tuple[int, ...], PlayKey | None]] | None = None) -> PointConstraints:
    """What 见分必打 / 不许送分 ask of this follower, given the plays on the table (``prior``).
    ``keyed``: the base follows with their keys, when the caller has them (same answer, less work)."""
    rules = ctx.rules
    current = _current_best(ctx, lead, prior)
    pts = ctx.points
    shown = any(pts[c] for p in prior for c in p)
    beat_keys: list[PlayKey] = []
    discard_sigs: list[tuple[int, ...]] = []
    s = lead.suit
    n = lead.n
    m = sum(hand[c] for c in ctx.suit_codes[s])
    scan_all = m >= n
    if not scan_all:
        # Short of the led suit: only an all-trump play (void in a side suit) can beat, and the
        # cheapest discard is the suit cards plus the lowest-point other cards.
        if m == 0 and s != TRUMP:
            trumps = [(c, hand[c]) for c in reversed(ctx.suit_codes[TRUMP]) if hand[c]]
            for sub in submultisets(trumps, n):
                k = play_key(ctx, lead, sub)
                if k is not None and k > current:
                    beat_keys.append(k)
        held = [c for c in range(54) for _ in range(hand[c])]
        suit_cards = [c for c in held if ctx.esuit[c] == s]
        rest = sorted((c for c in held if ctx.esuit[c] != s), key=pts.__getitem__)
        cheapest = suit_cards + rest[: n - m]
        k = play_key(ctx, lead, cheapest)
        if k is not None and k > current:
            scan_all = True  # the cheapest discard would beat: fall back to the full scan
            beat_keys = []
        else:
            discard_sigs.append(_point_sig(ctx, cheapest))
    if scan_all:
        for p, k in keyed if keyed is not None else ((p, play_key(ctx, lead, p)) for p in base_follows(ctx, hand, lead)):
            if k is not None and k > current:
                beat_keys.append(k)
            else:
                discard_sigs.append(_point_sig(ctx, p))
    can_beat = bool(beat_keys)
    must_beat = rules.must_beat_on_points and shown and can_beat
    beat_key = None
    if must_beat and rules.must_beat_strength == "strongest_in_side_suit" and lead.suit != TRUMP:
        top = max(beat_keys)
        if top[0] == 0:
            beat_key = top
    sig: tuple[int, ...] | None = None
    if not must_beat:
        if not rules.no_gifting_points:
            sig = None
        elif discard_sigs:
            low = min(discard_sigs)
            sig = low if (not can_beat or not low) else (() if () in discard_sigs else None)
    return PointConstraints(must_beat, beat_key, sig, current)


def point_rule_ok(ctx: Context, lead: Combo, play: Sequence[int], ex: PointConstraints) -> tuple[bool, str, str]:
    """Whether ``play`` (a base follow) meets ``ex``; if not, the rule broken in English and Chinese."""
    k = play_key(ctx, lead, play)
    beats = k is not None and k > ex.current
    if ex.must_beat:
        if not beats:
            return (False, "points are showing in this trick and the player can beat the current winner, so must "
                           "beat (见分必打)", "本轮已见分，且能大过当前最大的牌，必须大牌（见分必打）")
        if ex.beat_key is not None and k != ex.beat_key:
            return (False, "when beating in the led side suit under 见分必打, the player must play the strongest "
                           "such play (e.g. the A: 逢5必出A)", "见分必打时用所出副牌花色大牌必须出最大的（逢5必出A）")
        return (True, "", "")
    if beats or not ctx.rules.no_gifting_points:
        return (True, "", "")
    sig = _point_sig(ctx, play)
    if ex.discard_sig is None:
        if sig:
            return (False, "the player can beat, so a discard may not carry points (不许送分: 能大牌就不能垫分)",
                    "能大牌就不能垫分（不许送分）")
        return (True, "", "")
    if sig != ex.discard_sig:
        return (False, "a discard may carry point cards only when there is no other choice, lowest values first "
                       "(不许送分)", "垫牌时只有别无选择才能垫分，且必须先垫小分（不许送分）")
    return (True, "", "")


def point_rule_follows(ctx: Context, hand: Counts, lead: Combo, prior: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The base follows that 见分必打 / 不许送分 allow, each play's key computed once (the answers of
    :func:`point_rule_ok`, which ``tests/gameplay/test_fast_paths.py`` compares)."""
    if lead.n == 1:
        return _single_point_rule_follows(ctx, hand, lead, prior)
    keyed = [(p, play_key(ctx, lead, p)) for p in base_follows(ctx, hand, lead)]
    ex = point_constraints(ctx, hand, lead, prior, keyed)
    current = ex.current
    must, beat_key, sig0 = ex.must_beat, ex.beat_key, ex.discard_sig
    gifting_ok = not ctx.rules.no_gifting_points
    pts = ctx.points
    out = []
    for p, k in keyed:
        beats = k is not None and k > current
        if must:
            if beats and (beat_key is None or k == beat_key):
                out.append(p)
            continue
        if beats or gifting_ok:
            out.append(p)
            continue
        if len(p) == 1:
            v = pts[p[0]]
            sig: tuple[int, ...] = (v,) if v else ()
        else:
            sig = _point_sig(ctx, p)
        if (not sig) if sig0 is None else sig == sig0:
            out.append(p)
    return out


def _single_point_rule_follows(ctx: Context, hand: Counts, lead: Combo,
                               prior: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """:func:`point_rule_follows` for a single led, step by step the same decisions without generators: the
    base follows are the suit's distinct cards strongest first (or, void, every other distinct card)."""
    s, es, st, pts = lead.suit, ctx.esuit, ctx.strength, ctx.points
    rules = ctx.rules
    current = _current_best(ctx, lead, prior)
    shown = False
    for p in prior:
        for c in p:
            if pts[c]:
                shown = True
                break
    held = [c for c in reversed(ctx.suit_codes[s]) if hand[c]]
    side = s != TRUMP
    beat_keys: list[PlayKey] = []
    sigs: list[tuple[int, ...]] = []
    if held:  # m ≥ 1: the suit's distinct cards (one card: itself), every key (0, strength)
        keyed: list[tuple[int, PlayKey | None]] = [(c, (0, st[c])) for c in held]
        scan = True
    else:  # void: every other distinct card strongest first; a trump ruffs a side suit
        keyed = [(c, (1, st[c]) if side and es[c] == TRUMP else None) for c in codes_desc(ctx)
                 if hand[c] and es[c] >= 0]
        if side:
            for c in ctx.suit_codes[TRUMP]:
                if hand[c] and (1, st[c]) > current:
                    beat_keys.append((1, st[c]))
        low = -1  # the cheapest discard: the first card in code order with the fewest points
        for c in range(54):
            if hand[c] and (low < 0 or pts[c] < pts[low]):
                low = c
        k = (1, st[low]) if side and es[low] == TRUMP else None
        scan = k is not None and k > current
        if scan:
            beat_keys = []
        else:
            sigs.append((pts[low],) if pts[low] else ())
    if scan:
        for c, k in keyed:
            if k is not None and k > current:
                beat_keys.append(k)
            else:
                sigs.append((pts[c],) if pts[c] else ())
    can_beat = bool(beat_keys)
    must = rules.must_beat_on_points and shown and can_beat
    beat_key = None
    if must and rules.must_beat_strength == "strongest_in_side_suit" and side:
        top = max(beat_keys)
        if top[0] == 0:
            beat_key = top
    sig0: tuple[int, ...] | None = None
    if not must and rules.no_gifting_points and sigs:
        lo = min(sigs)
        sig0 = lo if (not can_beat or not lo) else (() if () in sigs else None)
    gifting_ok = not rules.no_gifting_points
    out: list[tuple[int, ...]] = []
    for c, k in keyed:
        beats = k is not None and k > current
        if must:
            if beats and (beat_key is None or k == beat_key):
                out.append((c,))
        elif beats or gifting_ok:
            out.append((c,))
        else:
            v = pts[c]
            if (not v) if sig0 is None else ((v,) if v else ()) == sig0:
                out.append((c,))
    return out
