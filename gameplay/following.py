"""Following, the rules common to all variants — RULES.md §4: as many cards as the lead, the led suit
first (all of it when short), then as much of the lead's structure (pairs, triples, tractors) as the
hand allows. :func:`follow_fault` says why a follow breaks them (fast, no message);
:func:`check_follow_base` raises with the rule in words. Listing the follows is
:mod:`gameplay.follow_lists`; yongzhou-300's extra rules are :mod:`gameplay.point_rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameplay.cards import format_cards
from gameplay.combos import Combo, match_score
from gameplay.errors import IllegalPlay
from gameplay.follow_lists import base_follows
from gameplay.leads import require_held
from gameplay.order import Context
from gameplay.play_words import SHAPE_EN, SHAPE_ZH, SUIT_EN, SUIT_ZH, player_en, player_zh

Counts = Sequence[int]


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
            f"{player_en(seat)} played {len(play)} card(s) to a lead of {n}: every player plays as many cards as the lead.",
            f"{player_zh(seat)}出了{len(play)}张牌，但首家出了{n}张：跟牌张数必须与首家相同。",
        )
    if kind == "held":
        require_held(ctx, hand, play, seat)
    if kind == "short":
        raise IllegalPlay(
            f"{player_en(seat)} played {format_cards(play)} but holds {data} card(s) of {SUIT_EN[s]}: "
            f"a player short of the led suit must play all of them first.",
            f"{player_zh(seat)}出了 {format_cards(play)}，但手中有{data}张{SUIT_ZH[s]}：所出花色不够时必须先全部跟出。",
        )
    if kind == "suit":
        raise IllegalPlay(
            f"{player_en(seat)} played {format_cards(play)} but holds {data} card(s) of {SUIT_EN[s]}: "
            f"must follow suit with {n} card(s) of {SUIT_EN[s]}.",
            f"{player_zh(seat)}出了 {format_cards(play)}，但手中有{data}张{SUIT_ZH[s]}：必须跟出{n}张{SUIT_ZH[s]}。",
        )
    need_en, need_zh = _describe_need(ctx, lead, data)
    shape_en, shape_zh = SHAPE_EN[lead.shape], SHAPE_ZH[lead.shape]
    example = next(base_follows(ctx, hand, lead), None)
    ex = format_cards(example) if example else ""
    if lead.is_throw:
        holds_en = f"the hand can show more of the throw's tractors and pairs in {SUIT_EN[s]}"
        holds_zh = f"手中的{SUIT_ZH[s]}能跟出更多甩牌中的拖拉机和对子"
    else:
        holds_en = f"the hand holds {need_en} of {SUIT_EN[s]}"
        holds_zh = f"手中有{SUIT_ZH[s]}{need_zh}"
    raise IllegalPlay(
        f"{player_en(seat)} played {format_cards(play)} to {shape_en} of {SUIT_EN[s]}, but {holds_en}: "
        f"the follower must match the lead's structure as far as the hand allows (for example {ex}).",
        f"{player_zh(seat)}出了 {format_cards(play)}，首家出的是{SUIT_ZH[s]}{shape_zh}，而{holds_zh}："
        f"跟牌必须尽可能跟出首家的牌型（例如 {ex}）。",
    )
