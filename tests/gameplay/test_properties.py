"""Property tests (hypothesis): order consistency, legal follows exist, generation == check, points."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.cards import code_rank, deck_codes, to_counts
from gameplay.combos import classify
from gameplay.errors import IllegalPlay
from gameplay.legality import (
    check_follow,
    check_lead,
    count_legal_follows,
    is_legal_follow,
    legal_follows,
    legal_leads,
    throw_check,
)
from gameplay.multisets import submultisets
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ruleset
from gameplay.tricks import play_key, trick_points

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

VARIANTS = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
            ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]


def random_context(rng: random.Random, which: int) -> Context:
    variant, kw = VARIANTS[which]
    rules = ruleset(variant, **kw)
    level = rng.choice(rules.levels) if rules.has_levels else None
    trumps: list[str | None] = ["S", "H", "C", "D"] + ([] if variant == "red-five" else [None])
    return Context(rules, level, rng.choice(trumps))


def deal(rng: random.Random, ctx: Context, size: int, concentrate: bool = True) -> list[list[int]]:
    """Small hands; with ``concentrate`` the deck is reduced to two effective suits so structure shows."""
    deck = deck_codes(ctx.rules.decks, ctx.rules.removed_ranks)
    if concentrate:
        suits = rng.sample(range(5), 2)
        deck = [c for c in deck if ctx.esuit[c] in suits]
    rng.shuffle(deck)
    n = ctx.rules.players
    size = min(size, len(deck) // n)
    return [deck[i * size:(i + 1) * size] for i in range(n)]


def random_lead(rng: random.Random, ctx: Context, hand: list[int]):
    leads = list(legal_leads(ctx, to_counts(hand), include_throws=False))
    multi = [p for p in leads if len(p) > 1]
    if ctx.rules.throw_allowed and rng.random() < 0.3:
        s = ctx.esuit[rng.choice(hand)]
        suit_cards = [c for c in hand if ctx.esuit[c] == s]
        k = rng.randint(1, len(suit_cards))
        return classify(ctx, rng.sample(suit_cards, k))
    pick = rng.choice(multi) if multi and rng.random() < 0.6 else rng.choice(leads)
    return classify(ctx, list(pick))


@SETTINGS
@given(st.integers(0, 5), st.randoms(use_true_random=False))
def test_order_is_a_consistent_total_preorder_with_tiers(which: int, rng: random.Random) -> None:
    ctx = random_context(rng, which)
    codes = [c for c in range(54) if ctx.esuit[c] >= 0]
    assert len(codes) == (54 if ctx.rules.variant != "yongzhou-300" else 42)
    for a in codes:
        for b in codes:
            r = ctx.compare(a, b)
            ea, eb = ctx.esuit[a], ctx.esuit[b]
            if ea != eb and TRUMP not in (ea, eb):
                assert r is None
                continue
            assert r == -ctx.compare(b, a)
            if ea == TRUMP and eb != TRUMP:
                assert r == 1
            if ea == eb:
                assert (r == 0) == (ctx.tier[a] == ctx.tier[b])
                assert (r == 1) == (ctx.tier[a] > ctx.tier[b])
                assert (ctx.sortkey[a] < ctx.sortkey[b]) or r >= 0
    for s in range(5):
        # tiers partition the effective suit; adjacency only goes one tier up (or wraps K→lowest)
        seen = [c for t in ctx.tiers[s] for c in t]
        assert sorted(seen) == sorted(c for c in codes if ctx.esuit[c] == s)
        for c in seen:
            for d in ctx.adj_up[c]:
                assert ctx.esuit[d] == s
                assert ctx.tier[d] == ctx.tier[c] + 1 or (code_rank(c) == 13 and ctx.level == 14)


@SETTINGS
@given(st.integers(0, 5), st.randoms(use_true_random=False), st.integers(3, 12))
def test_a_legal_follow_always_exists(which: int, rng: random.Random, size: int) -> None:
    ctx = random_context(rng, which)
    hands = deal(rng, ctx, size, concentrate=rng.random() < 0.7)
    lc = random_lead(rng, ctx, hands[0])
    n = ctx.rules.players
    tc = throw_check(ctx, lc, {s: to_counts(hands[s]) for s in range(1, n)}, 0)
    if tc.failed:
        lc = tc.forced
    table = [list(lc.codes)]
    for seat in range(1, n):
        counts = to_counts(hands[seat])
        follow = next(legal_follows(ctx, counts, lc, prior=table), None)
        assert follow is not None
        check_follow(ctx, counts, lc, follow, prior=table)
        table.append(list(follow))
    keys = [play_key(ctx, lc, p) for p in table]
    assert keys[0] is not None


@SETTINGS
@given(st.integers(0, 5), st.randoms(use_true_random=False), st.integers(2, 9))
def test_generated_follows_equal_the_plays_the_check_accepts(which: int, rng: random.Random, size: int) -> None:
    """On small hands: every generated follow passes the check, every accepted play is generated."""
    ctx = random_context(rng, which)
    hands = deal(rng, ctx, size)
    lc = random_lead(rng, ctx, hands[0])
    counts = to_counts(hands[1])
    prior = [list(lc.codes)] if rng.random() < 0.5 else [list(lc.codes), list(hands[2][: lc.n])]
    if len(hands[2]) < lc.n:
        prior = prior[:1]
    generated = list(legal_follows(ctx, counts, lc, prior=prior))
    assert len(generated) == len(set(generated))
    gen = {tuple(sorted(p)) for p in generated}
    items = [(c, counts[c]) for c in range(54) if counts[c]]
    if lc.n > sum(counts):
        return
    accepted = set()
    for sub in submultisets(items, lc.n):
        if is_legal_follow(ctx, counts, lc, sub, prior=prior):
            accepted.add(tuple(sorted(sub)))
        else:
            try:
                check_follow(ctx, counts, lc, sub, prior=prior)
            except IllegalPlay as e:
                assert e.message("en") and e.message("zh-hans")
            else:
                raise AssertionError("check_follow accepted a play is_legal_follow refused")
    assert gen == accepted
    assert count_legal_follows(ctx, counts, lc, prior=prior) == len(gen)


@SETTINGS
@given(st.integers(0, 5), st.randoms(use_true_random=False), st.integers(1, 7))
def test_generated_leads_pass_the_lead_check(which: int, rng: random.Random, size: int) -> None:
    ctx = random_context(rng, which)
    hand = deal(rng, ctx, size)[0]
    counts = to_counts(hand)
    leads = list(legal_leads(ctx, counts))
    assert len(leads) == len(set(tuple(sorted(p)) for p in leads))
    for p in leads:
        check_lead(ctx, counts, p)
    # every one-suit subset that is a single component is generated
    for k in range(1, min(len(hand), 4) + 1):
        for sub in combinations(sorted(hand), k):
            c = None
            try:
                c = check_lead(ctx, counts, sub)
            except IllegalPlay:
                continue
            assert tuple(sorted(sub)) in {tuple(sorted(p)) for p in leads}, c


@SETTINGS
@given(st.integers(0, 5), st.randoms(use_true_random=False))
def test_trick_points_are_the_sum_of_point_cards(which: int, rng: random.Random) -> None:
    ctx = random_context(rng, which)
    hands = deal(rng, ctx, 6, concentrate=False)
    yz = ctx.rules.variant == "yongzhou-300"

    def value(c: int) -> int:
        if c >= 52:
            return (20 if c == 52 else 30) if yz else 0
        return {5: 5, 10: 10, 13: 10}.get(code_rank(c), 0)

    assert trick_points(ctx, hands) == sum(value(c) for h in hands for c in h)
    assert trick_points(ctx, hands) % 5 == 0


def _oracle_yongzhou(ctx: Context, counts: list[int], lc, prior: list[list[int]]) -> set[tuple[int, ...]]:
    """见分必打 / 不许送分 straight from RULES.md §4, by brute force over every play of the hand."""
    from gameplay.legality import follow_fault

    items = [(c, counts[c]) for c in range(54) if counts[c]]
    base = [tuple(sorted(p)) for p in submultisets(items, lc.n) if follow_fault(ctx, counts, lc, p) is None]
    current = play_key(ctx, lc, prior[0])
    for p in prior[1:]:
        k = play_key(ctx, lc, p)
        if k is not None and k > current:
            current = k
    shown = any(ctx.points[c] for p in prior for c in p)
    keys = {p: play_key(ctx, lc, p) for p in base}
    beating = [p for p in base if keys[p] is not None and keys[p] > current]

    def sig(p: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((ctx.points[c] for c in p if ctx.points[c]), reverse=True))

    if shown and beating:
        top = max(keys[p] for p in beating)
        if lc.suit != TRUMP and top[0] == 0:
            return {p for p in beating if keys[p] == top}
        return set(beating)
    discards = [p for p in base if p not in beating]
    if beating:
        return set(beating) | {p for p in discards if not sig(p)}
    low = min(sig(p) for p in discards)
    return {p for p in discards if sig(p) == low}


@SETTINGS
@given(st.integers(4, 5), st.randoms(use_true_random=False), st.integers(2, 8))
def test_yongzhou_rules_match_a_brute_force_oracle(which: int, rng: random.Random, size: int) -> None:
    ctx = random_context(rng, which)
    hands = deal(rng, ctx, size, concentrate=rng.random() < 0.6)
    lc = random_lead(rng, ctx, hands[0])
    prior = [list(lc.codes)]
    for seat in range(2, ctx.rules.players):
        if rng.random() < 0.5 and len(hands[seat]) >= lc.n:
            prior.append(rng.sample(hands[seat], lc.n))
    counts = to_counts(hands[1])
    if sum(counts) < lc.n:
        return
    got = {tuple(sorted(p)) for p in legal_follows(ctx, counts, lc, prior=prior)}
    assert got == _oracle_yongzhou(ctx, counts, lc, prior)
