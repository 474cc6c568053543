"""The engine's fast paths give exactly what the general search gives (issue 17).

Each fast path (per-suit tables in ``decompose``, the exact-run shortcut before the tractor search,
the pair and exact-tractor shortcuts in ``classify``, 2-combinations for a pair lead when no pair is
held, the early exit for a single in ``component_beaten``, the iterative sub-multiset enumeration, the
single-lead shortcut of ``LegalPlays.sample``) is compared with the general code on many
seeded hands of every variant, including the K–3 wrap at A and three decks (triples).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameplay.bot_follow import first
from gameplay.cards import deck_codes, to_counts
from gameplay.combos import (
    Combo,
    _decompose_general,
    _exact_run,
    _throw_scores,
    chains,
    classify,
    covers,
    decompose,
    decompose_held,
    decompose_suit,
    highest_tractor_top,
    match_score,
    unit_nodes,
)
from gameplay.follow_lists import base_follows
from gameplay.legal_plays import LegalPlays
from gameplay.legality import (
    component_beaten,
    legal_leads,
)
from gameplay.multisets import submultisets
from gameplay.multisets import submultisets_recursive as _submultisets_recursive
from gameplay.order import TRUMP, Context
from gameplay.rulesets import RuleSet, ruleset
from gameplay.tricks import play_key

RULES = [ruleset("tractor"), ruleset("chaodi"), ruleset("red-five"), ruleset("red-five", decks=3),
         ruleset("yongzhou-300"), ruleset("yongzhou-300", players=3)]


def _contexts(rules: RuleSet, rng: random.Random) -> Iterator[Context]:
    levels = list(rules.levels) if rules.has_levels else [None]
    trumps: list[str | None] = ["S", "H", "C", "D"] + ([] if rules.variant == "red-five" else [None])
    for level in ([14] if 14 in levels else []) + rng.sample(levels, min(3, len(levels))):
        for trump in trumps:
            yield Context(rules, level, trump)


def _hands(rules: RuleSet, rng: random.Random, count: int) -> Iterator[list[int]]:
    deck = deck_codes(rules.decks, rules.removed_ranks)
    for _ in range(count):
        rng.shuffle(deck)
        yield deck[:rules.hand_size]


def _general_classify(ctx: Context, codes: list[int]) -> Combo:
    s = ctx.esuit[codes[0]]
    comps = tuple(decompose_suit(ctx, dict(Counter(codes)), s))
    shape = comps[0].shape if len(comps) == 1 else "throw"
    return Combo(s, shape, comps, tuple(sorted(codes, key=lambda c: -ctx.sortkey[c])))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_decompose_matches_the_general_decomposition(rules: RuleSet) -> None:
    rng = random.Random(17)
    seen_tractor = False
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 12):
            got = decompose(ctx, hand)
            assert got == _decompose_general(ctx, hand), (ctx.level, ctx.trump, hand)
            seen_tractor = seen_tractor or any(c.is_tractor for c in got)
    assert seen_tractor


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_classify_fast_paths_match_the_search(rules: RuleSet) -> None:
    rng = random.Random(18)
    shapes: Counter[str] = Counter()
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 4):
            counts = to_counts(hand)
            leads = [list(p) for p in legal_leads(ctx, counts, include_throws=False)]
            # and some same-suit multisets where every card is held equally often (runs or not)
            for s in range(5):
                wide = [c for c in ctx.suit_codes[s] if counts[c] >= 2]
                for k in range(2, len(wide) + 1):
                    leads.append([c for c in rng.sample(wide, k) for _ in range(2)])
            for codes in leads:
                rng.shuffle(codes)
                got = classify(ctx, codes)
                assert got == _general_classify(ctx, codes), (ctx.level, ctx.trump, codes)
                assert got.n == len(codes)
                shapes[got.shape] += 1
    assert shapes["tractor"] and shapes["pair"] and shapes["throw"]


def test_exact_run_is_the_only_chain() -> None:
    """Where ``_exact_run`` answers, the search finds that one chain and no other — also with the
    K–3 wrap (tractor-like rules at A), where a full cycle must go to the search."""
    rng = random.Random(19)
    answered = 0
    for rules in RULES:
        for ctx in _contexts(rules, rng):
            for s in range(5):
                codes = list(ctx.suit_codes[s])
                if len(codes) < 2:
                    continue
                # whole suits (with the wrap a cycle: not one run) and random subsets
                samples = [codes, codes[1:], *(rng.sample(codes, rng.randint(2, min(6, len(codes))))
                                               for _ in range(30))]
                for nodes in samples:
                    run = _exact_run(ctx, nodes)
                    if run is not None:
                        answered += 1
                        assert chains(ctx, nodes) == [run]
    assert answered > 50
    wrap = Context(ruleset("chaodi"), "A", "H")
    plain = [c for c in wrap.suit_codes[3] if wrap.tier[c] >= 0]
    assert _exact_run(wrap, plain) is None  # S3…SK with SK→S3: a cycle, left to the search
    cards = [c for c in plain for _ in range(2)]
    assert decompose(wrap, cards) == _decompose_general(wrap, cards)
    assert classify(wrap, cards) == _general_classify(wrap, cards)


@pytest.mark.parametrize("rules", RULES[:3], ids=lambda r: r.variant)
def test_pair_lead_without_pairs_follows_in_the_same_order(rules: RuleSet) -> None:
    rng = random.Random(20)
    checked = 0
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 6):
            counts = to_counts(hand)
            for s in range(5):
                held = [c for c in ctx.suit_codes[s] if counts[c]]
                pairs = [c for c in held if counts[c] >= 2]
                if len(held) < 3 or pairs:
                    continue
                other = [c for c in ctx.suit_codes[s] if not counts[c]]
                if not other:
                    continue
                lead = classify(ctx, [other[0], other[0]])
                holding = [(c, counts[c]) for c in reversed(ctx.suit_codes[s]) if counts[c]]
                assert list(base_follows(ctx, counts, lead)) == [tuple(x) for x in submultisets(holding, 2)]
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_component_beaten_single_matches_the_scan(rules: RuleSet) -> None:
    rng = random.Random(21)
    answers: Counter[bool] = Counter()
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 3):
            counts = to_counts(hand)
            for comp in decompose(ctx, hand):
                if comp.length != 1:
                    continue
                expected = any(ctx.strength[c] > comp.top for c in ctx.suit_codes[comp.suit]
                               if counts[c] >= comp.width)
                assert component_beaten(ctx, comp, counts) is expected
                answers[expected] += 1
    assert answers[True] and answers[False]


def test_iterative_submultisets_match_the_recursion() -> None:
    rng = random.Random(5)
    seen = 0
    for _ in range(3000):
        n = rng.randrange(0, 8)
        items = [(rng.randrange(54), rng.randrange(1, 4)) for _ in range(n)]
        size, start = rng.randrange(0, 12), rng.randrange(0, n + 1)
        got = list(submultisets(items, size, start))
        assert got == list(_submultisets_recursive(items, size, start))
        assert len({id(x) for x in got}) == len(got)  # fresh lists: callers may keep them
        seen += len(got)
    assert seen > 10_000


def _single_sampling_reference(lp: LegalPlays, rng: random.Random) -> tuple[int, ...]:
    """What ``sample`` drew for a follow before the single-lead shortcut: through the list."""
    short = lp._short()
    if short is not None:
        suit, others, fill = short
        from gameplay.legal_plays import _sample_submultiset
        return tuple(suit + _sample_submultiset(rng, others, fill))
    plays = lp.follows()
    return plays[rng.randrange(len(plays))]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_single_follow_sampling_draws_as_the_list(rules: RuleSet) -> None:
    rng = random.Random(8)
    drawn = voids = 0
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 4):
            counts = to_counts(hand)
            for lead_code in sorted(set(hand))[:6]:
                lead = classify(ctx, [lead_code])
                seed = rng.randrange(1 << 30)
                fast = LegalPlays(ctx, counts, lead, [(lead_code,)]).sample(random.Random(seed))
                ref = _single_sampling_reference(LegalPlays(ctx, counts, lead, [(lead_code,)]), random.Random(seed))
                assert fast == ref
                drawn += 1
        deck = deck_codes(rules.decks, rules.removed_ranks)
        for _ in range(20):  # short hands: voids and lone cards of the led suit
            counts = to_counts(rng.sample(deck, 5))
            lead_code = rng.choice(deck)
            lead = classify(ctx, [lead_code])
            seed = rng.randrange(1 << 30)
            a, b = random.Random(seed), random.Random(seed)
            fast = LegalPlays(ctx, counts, lead, [(lead_code,)]).sample(a)
            assert fast == _single_sampling_reference(LegalPlays(ctx, counts, lead, [(lead_code,)]), b)
            assert a.random() == b.random()  # the same draws were made
            voids += not any(counts[c] for c in ctx.suit_codes[lead.suit])
    assert drawn > 50 and voids > 5


def _filtered_follows(ctx: Context, counts: list[int], lead: Combo) -> list[tuple[int, ...]]:
    """The plain definition: every sub-multiset of the led suit's cards whose score is the holding's."""
    holding = [(c, counts[c]) for c in reversed(ctx.suit_codes[lead.suit]) if counts[c]]
    best = match_score(ctx, lead, dict(holding))
    return [tuple(sub) for sub in submultisets(holding, lead.n) if match_score(ctx, lead, dict(Counter(sub))) == best]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_structured_follows_are_the_filtered_sub_multisets_in_order(rules: RuleSet) -> None:
    """Tractor, triple and throw leads: the pruned walk lists the follows of the plain filter, same order."""
    rng = random.Random(23)
    shapes: Counter[str] = Counter()
    deck = deck_codes(rules.decks, rules.removed_ranks)
    for ctx in _contexts(rules, rng):
        for _ in range(40):
            rng.shuffle(deck)
            leader, follower = deck[:rules.hand_size], to_counts(deck[rules.hand_size:2 * rules.hand_size])
            comps = decompose(ctx, leader)
            for s in range(5):
                mine = [c for c in comps if c.suit == s]
                wide = [c for c in mine if c.width >= 2]
                leads = [[c] for c in wide if c.length >= 2 or c.width == 3]
                if len(wide) >= 1 and len(mine) >= 2 and rules.throw_allowed:
                    leads.append(mine[: rng.randint(2, len(mine))])
                for parts in leads:
                    lead = classify(ctx, [x for c in parts for x in c.codes])
                    if sum(follower[c] for c in ctx.suit_codes[s]) <= lead.n:
                        continue
                    assert list(base_follows(ctx, follower, lead)) == _filtered_follows(ctx, follower, lead)
                    shapes[lead.shape] += 1
    assert sum(shapes.values()) > 5, shapes


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_decompose_held_is_decompose_suit_of_the_held_cards(rules: RuleSet) -> None:
    """The bot's list-based decomposition of one suit gives decompose_suit's components in its order."""
    rng = random.Random(29)
    checked = 0
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, 5):
            counts = to_counts(hand)
            for s in range(5):
                codes = sorted(ctx.suit_codes[s])
                expect = decompose_suit(ctx, {c: counts[c] for c in codes if counts[c]}, s)
                assert decompose_held(ctx, counts, codes, s) == expect
                checked += any(c.width >= 2 for c in expect)
    assert checked > 20


@given(st.lists(st.integers(0, 3), min_size=54, max_size=54), st.permutations(range(54)), st.integers(0, 60))
def test_first_cards_are_the_simple_formula(counts: list[int], codes: list[int], k: int) -> None:
    """``bot_follow.first`` (zero counts skipped, early return) against its one-line definition."""
    want: list[int] = []
    for c in codes:
        want += [c] * counts[c]
    assert first(codes, counts, k) == tuple(want[:k])


def _random_throws(rules: RuleSet, rng: random.Random, hands: int, most: int) -> Iterator[tuple[Context, int, Combo]]:
    """Throws (two components or more) of up to ``most`` random cards held of one suit, per context
    and dealt hand: (context, effective suit, the classified throw)."""
    for ctx in _contexts(rules, rng):
        for hand in _hands(rules, rng, hands):
            for s in range(TRUMP + 1):
                held = [c for c in hand if ctx.esuit[c] == s]
                if len(held) >= 3:
                    lead = classify(ctx, rng.sample(held, rng.randint(2, min(len(held), most))))
                    if len(lead.components) >= 2:
                        yield ctx, s, lead


def _play_key_general(ctx: Context, lead: Combo, play: list[int]) -> tuple[int, int] | None:
    """``play_key`` of a throw by the general test only (``covers``, then the priority component)."""
    es, st = ctx.esuit, ctx.strength
    if len(play) != lead.n:
        return None
    first = es[play[0]]
    ruff = 0 if first == lead.suit else 1 if first == TRUMP and lead.suit != TRUMP else None
    if ruff is None or any(es[c] != first for c in play):
        return None
    counts = dict(Counter(play))
    if not covers(ctx, lead, counts):
        return None
    comp = lead.components[0]
    if comp.length >= 2:
        top = highest_tractor_top(ctx, unit_nodes(counts, comp.width), comp.length)
        return None if top is None else (ruff, top)
    return (ruff, max(st[c] for c, k in counts.items() if k >= comp.width))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_throw_keys_match_the_general_cover_test(rules: RuleSet) -> None:
    """``play_key`` of throws without a tractor (pairs, triples and singles counted in one pass)
    against ``covers``: throws of the suit's cards held, answered by random plays of the led suit
    and of trumps, and by the cards of other throws."""
    rng = random.Random(23)
    throws = covered = 0
    deck = deck_codes(rules.decks, rules.removed_ranks)
    for ctx, s, lead in _random_throws(rules, rng, 10, 8):
        throws += 1
        for pool in (s, TRUMP):
            cards = [c for c in deck if ctx.esuit[c] == pool]
            for _ in range(6):
                if len(cards) < lead.n:
                    break
                play = rng.sample(cards, lead.n)
                want = _play_key_general(ctx, lead, play)
                assert play_key(ctx, lead, play) == want, (lead, play)
                covered += want is not None
        assert play_key(ctx, lead, list(lead.codes)) == _play_key_general(ctx, lead, list(lead.codes))
    assert throws > 50 and covered > 20, (throws, covered)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.variant}-{r.decks}-{r.players}")
def test_pair_throw_scores_match_the_search(rules: RuleSet) -> None:
    """``match_score`` of a throw of pairs and singles (counted, not searched) against the maximum
    of ``_throw_scores`` over random holdings of the led suit."""
    rng = random.Random(29)
    deck = deck_codes(rules.decks, rules.removed_ranks)
    seen = 0
    for ctx, s, lead in _random_throws(rules, rng, 8, 9):
        wide = [c for c in lead.components if c.width >= 2]
        if not all(c.width == 2 and c.length == 1 for c in wide):
            continue
        suit = [c for c in deck if ctx.esuit[c] == s]
        for _ in range(5):
            counts = dict(Counter(rng.sample(suit, min(len(suit), rng.randint(1, 12)))))
            want = max(_throw_scores(ctx, wide, dict(counts)), default=()) or ()
            assert match_score(ctx, lead, counts) == want, (lead, counts)
            seen += bool(wide)
    assert seen > 30, seen
