"""Leading — RULES.md §4: the check of a lead (the cards held, one suit, a throw only where the
variant allows throws) and the listing and counting of every legal lead. :func:`require_held`, the
check that the cards are held and in the deck, serves following too (:mod:`gameplay.following`).

Hands are multisets given as lists of 54 counts (:func:`gameplay.cards.to_counts`); plays are
sequences of card codes. The throw check of a throw lead is :mod:`gameplay.throws`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gameplay.cards import CODE_NAMES, format_cards
from gameplay.combos import Combo, chains, classify
from gameplay.errors import IllegalPlay, InvalidCards
from gameplay.multisets import submultisets
from gameplay.order import TRUMP, Context
from gameplay.play_words import player_en, player_zh

Counts = Sequence[int]


def require_held(ctx: Context, hand: Counts, play: Sequence[int], seat: int | None) -> None:
    """Raise :class:`InvalidCards` unless every card of ``play`` is in the deck and held by ``hand``."""
    left = list(hand)
    for c in play:
        if not 0 <= c < 54 or ctx.esuit[c] < 0:
            name = CODE_NAMES[c] if 0 <= c < 54 else str(c)
            raise InvalidCards(f"{name} is not in the {ctx.rules.variant} deck.",
                               f"{name} 不在 {ctx.rules.variant} 的牌中。")
        if left[c] <= 0:
            raise InvalidCards(
                f"{player_en(seat)} does not hold {CODE_NAMES[c]} (played {format_cards(play)}).",
                f"{player_zh(seat)}手中没有 {CODE_NAMES[c]}（出的是 {format_cards(play)}）。",
            )
        left[c] -= 1



def check_lead(ctx: Context, hand: Counts, play: Sequence[int], seat: int | None = None) -> Combo:
    """Verify a lead (held, one suit, a throw only where allowed) and classify it."""
    require_held(ctx, hand, play, seat)
    combo = classify(ctx, play)
    if combo.is_throw and not ctx.rules.throw_allowed:
        raise IllegalPlay(
            f"{player_en(seat)} led {format_cards(play)}, several combinations at once (a throw), "
            f"which {ctx.rules.variant} does not allow: lead a single, a pair, a triple or a tractor.",
            f"{player_zh(seat)}首出 {format_cards(play)} 是多个牌型一起出（甩牌），{ctx.rules.variant} 不允许甩牌："
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
                for sub in submultisets(items, size):
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
