"""Leading and following — RULES.md §4: allowed leads, throw check and forced play, following,
yongzhou-300's 见分必打 (must beat when points show) and 不许送分 (no gifting points).

Hands are multisets given as lists of 54 counts (:func:`gameplay.cards.to_counts`); plays are
sequences of card codes. ``prior`` is the list of plays already on the table in this trick, the
lead first (for a failed throw: the forced cards).

>>> from gameplay.rulesets import ruleset
>>> from gameplay.order import Context
>>> from gameplay.cards import to_counts
>>> from gameplay.combos import classify, parse_cards
>>> ctx = Context(ruleset("tractor"), "2", "H")
>>> lead = classify(ctx, parse_cards("S8 S8"))
>>> hand = to_counts(parse_cards("SK SK S3 D4 D5"))
>>> sorted(format_cards(p) for p in legal_follows(ctx, hand, lead))
['SK SK']
>>> is_legal_follow(ctx, hand, lead, parse_cards("SK S3"))
False
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from typing import Any, NamedTuple

from gameplay.cards import CODE_NAMES, SUITS, format_cards
from gameplay.combos import Combo, chains, classify, codes_desc, match_score
from gameplay.errors import IllegalPlay, InvalidCards
from gameplay.multisets import count_submultisets, submultiset_takes, submultisets
from gameplay.order import TRUMP, Context
from gameplay.throws import ThrowCheck, component_beaten, throw_check, throw_forced
from gameplay.tricks import PlayKey, play_key
from variants.seats import en_seat, zh_seat

Counts = Sequence[int]

_submultisets = submultisets  # the name used here and in the tests

SUIT_EN = {0: "diamonds", 1: "clubs", 2: "hearts", 3: "spades", TRUMP: "trumps"}
SUIT_ZH = {0: "方块", 1: "梅花", 2: "红桃", 3: "黑桃", TRUMP: "主牌"}
SHAPE_EN = {"single": "a single", "pair": "a pair", "triple": "a triple", "tractor": "a tractor",
            "throw": "a throw"}
SHAPE_ZH = {"single": "单张", "pair": "对子", "triple": "三张", "tractor": "拖拉机", "throw": "甩牌"}


def _seat_en(seat: int | None) -> str:
    return "The player" if seat is None else en_seat(seat)


def _seat_zh(seat: int | None) -> str:
    return "该玩家" if seat is None else zh_seat(seat)


def _require_held(ctx: Context, hand: Counts, play: Sequence[int], seat: int | None) -> None:
    left = list(hand)
    for c in play:
        if not 0 <= c < 54 or ctx.esuit[c] < 0:
            name = CODE_NAMES[c] if 0 <= c < 54 else str(c)
            raise InvalidCards(f"{name} is not in the {ctx.rules.variant} deck.",
                               f"{name} 不在 {ctx.rules.variant} 的牌中。")
        if left[c] <= 0:
            raise InvalidCards(
                f"{_seat_en(seat)} does not hold {CODE_NAMES[c]} (played {format_cards(play)}).",
                f"{_seat_zh(seat)}手中没有 {CODE_NAMES[c]}（出的是 {format_cards(play)}）。",
            )
        left[c] -= 1


# ---------------------------------------------------------------- leading


def check_lead(ctx: Context, hand: Counts, play: Sequence[int], seat: int | None = None) -> Combo:
    """Verify a lead (held, one suit, a throw only where allowed) and classify it."""
    _require_held(ctx, hand, play, seat)
    combo = classify(ctx, play)
    if combo.is_throw and not ctx.rules.throw_allowed:
        raise IllegalPlay(
            f"{_seat_en(seat)} led {format_cards(play)}, several combinations at once (a throw), "
            f"which {ctx.rules.variant} does not allow: lead a single, a pair, a triple or a tractor.",
            f"{_seat_zh(seat)}首出 {format_cards(play)} 是多个牌型一起出（甩牌），{ctx.rules.variant} 不允许甩牌："
            f"只能出单张、对子、三张或拖拉机。",
        )
    return combo


def can_lead(ctx: Context, hand: Counts, play: Sequence[int]) -> bool:
    try:
        check_lead(ctx, hand, play)
    except (IllegalPlay, InvalidCards):
        return False
    return True


def legal_leads(ctx: Context, hand: Counts, *, include_throws: bool = True) -> Iterator[tuple[int, ...]]:
    """Every distinct legal lead: singles, pairs, triples, tractors — and, where throws are allowed
    and ``include_throws``, every other set of cards of one suit (a throw, checked when played)."""
    sk = ctx.sortkey
    for s in range(TRUMP, -1, -1):
        codes = [c for c in ctx.suit_codes[s] if hand[c]]
        if not codes:
            continue
        if include_throws and ctx.rules.throw_allowed:
            items = [(c, hand[c]) for c in reversed(codes)]
            total = sum(hand[c] for c in codes)
            for size in range(1, total + 1):
                for sub in _submultisets(items, size):
                    yield tuple(sorted(sub, key=lambda c: -sk[c]))
            continue
        for c in reversed(codes):
            for w in range(1, min(hand[c], ctx.max_width) + 1):
                yield (c,) * w
        yield from suit_tractor_leads(ctx, hand, codes)


def suit_tractor_leads(ctx: Context, hand: Counts, codes: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct tractors among ``codes`` (one suit's held codes, weakest first), in the order of
    :func:`legal_leads`: by width, then along each chain, each as a lead (strongest first)."""
    out: list[tuple[int, ...]] = []
    adj = ctx.adj_up
    for w in range(2, ctx.max_width + 1):
        nodes = [c for c in codes if hand[c] >= w]
        if len(nodes) < 2:
            break
        linked = False
        for a in nodes:
            for b in adj[a]:
                if hand[b] >= w:  # adjacent codes are of one suit: b is among the nodes
                    linked = True
                    break
            if linked:
                break
        if not linked:
            continue  # no two adjacent: no tractor of this width
        seen: set[tuple[int, ...]] = set()
        for path in chains(ctx, nodes):
            for i in range(len(path)):
                for j in range(i + 2, len(path) + 1):
                    sl = tuple(path[i:j])
                    if sl not in seen:
                        seen.add(sl)
                        out.append(tuple(c for c in reversed(sl) for _ in range(w)))
    return out


def count_legal_leads(ctx: Context, hand: Counts, *, include_throws: bool = True) -> int:
    """Number of distinct legal leads (see :func:`legal_leads`), counted without listing throws."""
    if include_throws and ctx.rules.throw_allowed:
        total = 0
        for s in range(TRUMP + 1):
            prod = 1
            for c in ctx.suit_codes[s]:
                prod *= hand[c] + 1
            total += prod - 1
        return total
    return sum(1 for _ in legal_leads(ctx, hand, include_throws=False))


# ---------------------------------------------------------------- following: base rules


def _holding(ctx: Context, hand: Counts, suit: int) -> dict[int, int]:
    return {c: hand[c] for c in ctx.suit_codes[suit] if hand[c]}


def _describe_need(ctx: Context, lead: Combo, best: tuple[int, ...]) -> tuple[str, str]:
    """Words for what a follower holding ``best`` must show."""
    comps = lead.components
    if len(comps) == 1:
        comp = comps[0]
        if comp.length == 1:
            if best and best[0] == 3:
                return "a triple", "三张"
            return "a pair", "对子"
        unit_en = "triples" if comp.width == 3 else "pairs"
        unit_zh = "三张" if comp.width == 3 else "对子"
        ll = best[0]
        extra = sum(best[1:])
        if ll >= 2:
            en = f"a tractor of {ll} {unit_en}"
            zh = f"{ll}连的拖拉机"
            if extra:
                en += f" and {extra} more pair(s)/triple(s)"
                zh += f"再加{extra}个{unit_zh}"
            return en, zh
        return f"{extra} {unit_en}", f"{extra}个{unit_zh}"
    return ("more of the throw's tractors and pairs", "更多甩牌中的拖拉机和对子")


def follow_fault(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int]) -> tuple[str, Any] | None:
    """Why ``play`` breaks the common following rules, or None: ("count", n), ("held", code),
    ("short", m), ("suit", m) or ("structure", best score). No exception, no message: fast."""
    n = lead.n
    if len(play) != n:
        return ("count", n)
    s = lead.suit
    es = ctx.esuit
    suit_codes = ctx.suit_codes[s]
    if n == 1:  # a single led: a card of the suit is always right; another only when void
        c = play[0]
        if hand[c] < 1 or es[c] < 0:
            return ("held", c)
        if es[c] == s:
            return None
        m = 0
        for c in suit_codes:
            m += hand[c]
        return None if m == 0 else ("short", m) if m == 1 else ("suit", m)
    comps = lead.components
    comp = comps[0]
    if n == 2 and comp.width == 2:  # a pair led: the same answers without the card dict
        a, b = play
        if hand[a] < (2 if a == b else 1) or es[a] < 0:
            return ("held", a)
        if a != b and (hand[b] < 1 or es[b] < 0):
            return ("held", b)
        in_suit = (es[a] == s) + (es[b] == s)
        m = 0
        pair = False
        for c in suit_codes:
            k = hand[c]
            if k:
                m += k
                if k >= 2:
                    pair = True
        if m <= 2:
            return None if in_suit == m else ("short", m)
        if in_suit != 2:
            return ("suit", m)
        return ("structure", (2,)) if a != b and pair else None
    pc: dict[int, int] = {}
    for c in play:
        pc[c] = pc.get(c, 0) + 1
    for c, k in pc.items():
        if hand[c] < k or es[c] < 0:
            return ("held", c)
    in_suit = 0
    for c in play:
        if es[c] == s:
            in_suit += 1
    m = 0
    for c in suit_codes:
        m += hand[c]
    if m <= n:
        return None if in_suit == m else ("short", m)
    if in_suit != n:
        return ("suit", m)
    if comp.width == 1:  # the largest component a single: singles only, no structure to match
        return None
    if len(comps) == 1:
        w = comp.width
        if comp.length == 1:
            if w == 2:
                if play[0] == play[1]:
                    return None
                for c in suit_codes:
                    if hand[c] >= 2:
                        return ("structure", (2,))
                return None
        elif all(k == w for k in pc.values()):
            # exactly a tractor of the lead's size is always best
            nodes = sorted(pc, key=ctx.strength.__getitem__)
            adj = ctx.adj_up
            if all(nodes[i + 1] in adj[nodes[i]] for i in range(len(nodes) - 1)):
                return None
    got = match_score(ctx, lead, pc)
    best = match_score(ctx, lead, _holding(ctx, hand, s))
    return None if got >= best else ("structure", best)


def check_follow_base(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int],
                      seat: int | None = None) -> None:
    """The following rules common to all variants (suit, then structure). Raises IllegalPlay."""
    fault = follow_fault(ctx, hand, lead, play)
    if fault is None:
        return
    kind, data = fault
    n = lead.n
    s = lead.suit
    if kind == "count":
        raise IllegalPlay(
            f"{_seat_en(seat)} played {len(play)} card(s) to a lead of {n}: every player plays as many cards as the lead.",
            f"{_seat_zh(seat)}出了{len(play)}张牌，但首家出了{n}张：跟牌张数必须与首家相同。",
        )
    if kind == "held":
        _require_held(ctx, hand, play, seat)
    if kind == "short":
        raise IllegalPlay(
            f"{_seat_en(seat)} played {format_cards(play)} but holds {data} card(s) of {SUIT_EN[s]}: "
            f"a player short of the led suit must play all of them first.",
            f"{_seat_zh(seat)}出了 {format_cards(play)}，但手中有{data}张{SUIT_ZH[s]}：所出花色不够时必须先全部跟出。",
        )
    if kind == "suit":
        raise IllegalPlay(
            f"{_seat_en(seat)} played {format_cards(play)} but holds {data} card(s) of {SUIT_EN[s]}: "
            f"must follow suit with {n} card(s) of {SUIT_EN[s]}.",
            f"{_seat_zh(seat)}出了 {format_cards(play)}，但手中有{data}张{SUIT_ZH[s]}：必须跟出{n}张{SUIT_ZH[s]}。",
        )
    need_en, need_zh = _describe_need(ctx, lead, data)
    shape_en, shape_zh = SHAPE_EN[lead.shape], SHAPE_ZH[lead.shape]
    example = next(_base_follows(ctx, hand, lead), None)
    ex = format_cards(example) if example else ""
    if lead.is_throw:
        holds_en = f"the hand can show more of the throw's tractors and pairs in {SUIT_EN[s]}"
        holds_zh = f"手中的{SUIT_ZH[s]}能跟出更多甩牌中的拖拉机和对子"
    else:
        holds_en = f"the hand holds {need_en} of {SUIT_EN[s]}"
        holds_zh = f"手中有{SUIT_ZH[s]}{need_zh}"
    raise IllegalPlay(
        f"{_seat_en(seat)} played {format_cards(play)} to {shape_en} of {SUIT_EN[s]}, but {holds_en}: "
        f"the follower must match the lead's structure as far as the hand allows (for example {ex}).",
        f"{_seat_zh(seat)}出了 {format_cards(play)}，首家出的是{SUIT_ZH[s]}{shape_zh}，而{holds_zh}："
        f"跟牌必须尽可能跟出首家的牌型（例如 {ex}）。",
    )


def _base_follows(ctx: Context, hand: Counts, lead: Combo) -> Iterator[tuple[int, ...]]:
    n = lead.n
    s = lead.suit
    suit_codes = ctx.suit_codes[s]
    holding = [(c, hand[c]) for c in reversed(suit_codes) if hand[c]]
    m = sum([k for _, k in holding])
    if m <= n:
        base = [c for c, k in holding for _ in range(k)]
        es = ctx.esuit
        others = [(c, hand[c]) for c in codes_desc(ctx) if hand[c] and es[c] != s and es[c] >= 0]
        for sub in _submultisets(others, n - m):
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


# ---------------------------------------------------------------- yongzhou-300 layer


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
class _Extra:
    must_beat: bool
    beat_key: PlayKey | None  # required exact key (strongest in side suit), or None
    discard_sig: tuple[int, ...] | None  # required point signature of a discard; None: no discard allowed
    current: PlayKey


def _extra_constraints(ctx: Context, hand: Counts, lead: Combo, prior: Sequence[Sequence[int]],
                       keyed: list[tuple[tuple[int, ...], PlayKey | None]] | None = None) -> _Extra:
    """``keyed``: the base follows with their keys, when the caller has them (same answer, less work)."""
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
            for sub in _submultisets(trumps, n):
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
        for p, k in keyed if keyed is not None else ((p, play_key(ctx, lead, p)) for p in _base_follows(ctx, hand, lead)):
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
    return _Extra(must_beat, beat_key, sig, current)


def _extra_ok(ctx: Context, lead: Combo, play: Sequence[int], ex: _Extra) -> tuple[bool, str, str]:
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


# ---------------------------------------------------------------- following: public API


def check_follow(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int], *,
                 prior: Sequence[Sequence[int]] = (), seat: int | None = None) -> None:
    """Verify a follow: raises :class:`IllegalPlay` (naming the rule) or :class:`InvalidCards`."""
    check_follow_base(ctx, hand, lead, play, seat)
    if ctx.extra_rules and prior:
        ex = _extra_constraints(ctx, hand, lead, prior)
        ok, en, zh = _extra_ok(ctx, lead, play, ex)
        if not ok:
            example = next((p for p in _base_follows(ctx, hand, lead) if _extra_ok(ctx, lead, p, ex)[0]), None)
            tail_en = f" (for example {format_cards(example)})" if example else ""
            tail_zh = f"（例如 {format_cards(example)}）" if example else ""
            raise IllegalPlay(f"{_seat_en(seat)} played {format_cards(play)}: {en}{tail_en}.",
                              f"{_seat_zh(seat)}出了 {format_cards(play)}：{zh}{tail_zh}。")


def is_legal_follow(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int], *,
                    prior: Sequence[Sequence[int]] = ()) -> bool:
    """Whether ``play`` is a legal follow (fast path of :func:`check_follow`)."""
    if follow_fault(ctx, hand, lead, play) is not None:
        return False
    if prior and ctx.extra_rules:
        return _extra_ok(ctx, lead, play, _extra_constraints(ctx, hand, lead, prior))[0]
    return True


def _extra_follows(ctx: Context, hand: Counts, lead: Combo, prior: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The base follows that 见分必打 / 不许送分 allow, each play's key computed once (the answers of
    :func:`_extra_ok`, which ``tests/gameplay/test_fast_paths.py`` compares)."""
    if lead.n == 1:
        return _single_extra_follows(ctx, hand, lead, prior)
    keyed = [(p, play_key(ctx, lead, p)) for p in _base_follows(ctx, hand, lead)]
    ex = _extra_constraints(ctx, hand, lead, prior, keyed)
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


def _single_extra_follows(ctx: Context, hand: Counts, lead: Combo,
                          prior: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """:func:`_extra_follows` for a single led, step by step the same decisions without generators: the
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


def legal_follows(ctx: Context, hand: Counts, lead: Combo, *,
                  prior: Sequence[Sequence[int]] = ()) -> Iterator[tuple[int, ...]]:
    """Every distinct legal follow (as a multiset, strongest card first), lazily."""
    if ctx.extra_rules and prior:
        yield from _extra_follows(ctx, hand, lead, prior)
        return
    yield from _base_follows(ctx, hand, lead)


def count_legal_follows(ctx: Context, hand: Counts, lead: Combo, *,
                        prior: Sequence[Sequence[int]] = ()) -> int:
    """Number of distinct legal follows; counted by formula where the follower is short of the suit."""
    if not (ctx.extra_rules and prior):
        s = lead.suit
        m = sum(hand[c] for c in ctx.suit_codes[s])
        if m <= lead.n:
            others = [hand[c] for c in range(54) if hand[c] and ctx.esuit[c] != s and ctx.esuit[c] >= 0]
            return count_submultisets(others, lead.n - m)
    return sum(1 for _ in legal_follows(ctx, hand, lead, prior=prior))


def first_legal_follow(ctx: Context, hand: Counts, lead: Combo, *,
                       prior: Sequence[Sequence[int]] = ()) -> tuple[int, ...] | None:
    return next(islice(legal_follows(ctx, hand, lead, prior=prior), 1), None)


def suit_name(suit: int, lang: str = "en") -> str:
    return SUIT_ZH[suit] if lang.startswith("zh") else SUIT_EN[suit]


__all__ = ["SUITS", "ThrowCheck", "can_lead", "check_follow", "check_follow_base", "check_lead",
           "component_beaten", "count_legal_follows", "count_legal_leads", "first_legal_follow",
           "is_legal_follow", "legal_follows", "legal_leads", "suit_name", "suit_tractor_leads", "throw_check",
           "throw_forced"]
