"""Leading and following — RULES.md §4: allowed leads, throw check and forced play, following,
yongzhou-300's 见分必打 (must beat when points show) and 不许送分 (no gifting points), in one import.

The rules live in the modules named by what they own: :mod:`gameplay.leads` (the lead check, the
legal leads), :mod:`gameplay.throws` (the throw check, the forced play), :mod:`gameplay.following`
(the common following rules), :mod:`gameplay.follow_lists` (the follows they allow, listed) and
:mod:`gameplay.point_rules` (yongzhou-300's layer); this module puts them together into the
follow check and the legal follows given the plays already on the table, and names the lot.

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
from itertools import islice

from gameplay.cards import SUITS, format_cards
from gameplay.combos import Combo
from gameplay.errors import IllegalPlay
from gameplay.follow_lists import base_follows
from gameplay.following import check_follow_base, follow_fault
from gameplay.leads import can_lead, check_lead, count_legal_leads, legal_leads, suit_tractor_leads
from gameplay.multisets import count_submultisets
from gameplay.order import Context
from gameplay.play_words import SHAPE_EN, SHAPE_ZH, SUIT_EN, SUIT_ZH, player_en, player_zh, suit_name
from gameplay.point_rules import point_constraints, point_rule_follows, point_rule_ok
from gameplay.throws import ThrowCheck, component_beaten, throw_check, throw_forced

Counts = Sequence[int]


def check_follow(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int], *,
                 prior: Sequence[Sequence[int]] = (), seat: int | None = None) -> None:
    """Verify a follow: raises :class:`IllegalPlay` (naming the rule) or :class:`InvalidCards`."""
    check_follow_base(ctx, hand, lead, play, seat)
    if ctx.extra_rules and prior:
        ex = point_constraints(ctx, hand, lead, prior)
        ok, en, zh = point_rule_ok(ctx, lead, play, ex)
        if not ok:
            example = next((p for p in base_follows(ctx, hand, lead) if point_rule_ok(ctx, lead, p, ex)[0]), None)
            tail_en = f" (for example {format_cards(example)})" if example else ""
            tail_zh = f"（例如 {format_cards(example)}）" if example else ""
            raise IllegalPlay(f"{player_en(seat)} played {format_cards(play)}: {en}{tail_en}.",
                              f"{player_zh(seat)}出了 {format_cards(play)}：{zh}{tail_zh}。")


def is_legal_follow(ctx: Context, hand: Counts, lead: Combo, play: Sequence[int], *,
                    prior: Sequence[Sequence[int]] = ()) -> bool:
    """Whether ``play`` is a legal follow (fast path of :func:`check_follow`)."""
    if follow_fault(ctx, hand, lead, play) is not None:
        return False
    if prior and ctx.extra_rules:
        return point_rule_ok(ctx, lead, play, point_constraints(ctx, hand, lead, prior))[0]
    return True


def legal_follows(ctx: Context, hand: Counts, lead: Combo, *,
                  prior: Sequence[Sequence[int]] = ()) -> Iterator[tuple[int, ...]]:
    """Every distinct legal follow (as a multiset, strongest card first), lazily."""
    if ctx.extra_rules and prior:
        yield from point_rule_follows(ctx, hand, lead, prior)
        return
    yield from base_follows(ctx, hand, lead)


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


__all__ = ["SHAPE_EN", "SHAPE_ZH", "SUITS", "SUIT_EN", "SUIT_ZH", "ThrowCheck", "can_lead", "check_follow",
           "check_follow_base", "check_lead", "component_beaten", "count_legal_follows", "count_legal_leads",
           "count_submultisets", "first_legal_follow", "follow_fault", "is_legal_follow", "legal_follows",
           "legal_leads", "suit_name", "suit_tractor_leads", "throw_check", "throw_forced"]
