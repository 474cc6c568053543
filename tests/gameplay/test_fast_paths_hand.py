"""The whole-hand fast paths of issue 17 (step 3) give exactly what the general code gives.

Each is compared with the code it stands in for, at every turn of seeded random hands of every variant:
the yongzhou follows decided with each key computed once (a single led: without generators) against
filtering the base follows with ``point_rule_ok``; ``throw_forced`` (what ``Hand.play`` asks) against
``throw_check``; the lead drawn without listing the units against a draw from ``legal_leads``; the
observation built positionally against the keyword constructor; ``deal_until`` against card-by-card
dealing; ``follow_fault``'s single and pair shortcuts against the function as it was before them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.cards import deck_codes
from gameplay.combos import Combo, Component, classify, decompose, match_score
from gameplay.follow_lists import base_follows
from gameplay.hand import Hand
from gameplay.legal_plays import LegalPlays, _sample_lead
from gameplay.legality import (
    follow_fault,
    legal_follows,
    legal_leads,
)
from gameplay.observation import Observation
from gameplay.order import TRUMP, Context
from gameplay.point_rules import point_constraints, point_rule_ok
from gameplay.rulesets import ruleset
from gameplay.simulate import independent_config, make_hand
from gameplay.throws import _forced_of, throw_check, throw_forced

VARIANTS = [("tractor", {}), ("chaodi", {}), ("red-five", {}), ("red-five", {"decks": 3}),
            ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]
IDS = ["tractor", "chaodi", "red-five-2", "red-five-3", "yongzhou-4", "yongzhou-3"]


def _turns(variant: str, kw: dict[str, int], seed: int) -> Iterator[tuple[Hand, int, LegalPlays]]:
    """Every play turn of a seeded hand played with random plays (declaring: the first option or pass)."""
    players = kw.get("players", 4)
    conf = independent_config(variant, seed % players, players)
    if variant == "yongzhou-300":
        conf = {"start_seat": seed % players}
    hand = make_hand(variant, seed, **kw, **conf)
    rng = random.Random(seed)
    while True:
        kind, seat = hand.to_act()
        if kind == "scored":
            return
        if kind == "deal":
            hand.deal()
        elif kind == "play":
            assert seat is not None
            legal = hand.legal_plays(seat)
            yield hand, seat, legal
            hand.play(seat, legal.sample(rng))
        elif kind in ("declare", "overturn"):
            assert seat is not None
            opts = hand.legal_declarations(seat) if kind == "declare" else hand.legal_overturns(seat)
            if opts and rng.random() < 0.5:
                (hand.declare if kind == "declare" else hand.overturn)(seat, opts[0])
            else:
                hand.pass_(seat)
        elif kind == "bid":
            assert seat is not None
            bids = hand.legal_bids(seat)
            if bids and rng.random() < 0.3:
                hand.bid(seat, bids[0])
            else:
                hand.pass_(seat)
        elif kind == "name_trump":
            assert seat is not None
            hand.name_trump(seat, "S")
        elif kind == "bury":
            assert seat is not None
            cards = [c for c in range(54) for _ in range(hand.hands[seat][c])]
            hand.bury(seat, rng.sample(cards, hand.rules.kitty_size))


@pytest.mark.parametrize("players", [4, 3])
def test_yongzhou_follows_match_the_filtered_base_follows(players: int) -> None:
    seen = {"single": 0, "other": 0}
    for seed in range(30):
        for _hand, _seat, legal in _turns("yongzhou-300", {"players": players}, seed):
            if legal.lead is None or not legal.prior:
                continue
            ctx, counts, lead, prior = legal.ctx, legal.counts, legal.lead, legal.prior
            ex = point_constraints(ctx, counts, lead, prior)
            want = [p for p in base_follows(ctx, counts, lead) if point_rule_ok(ctx, lead, p, ex)[0]]
            assert list(legal_follows(ctx, counts, lead, prior=prior)) == want
            seen["single" if lead.n == 1 else "other"] += 1
    assert seen["single"] > 100 and seen["other"] > 10


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_throw_forced_is_what_throw_check_decides(variant: str, kw: dict[str, int]) -> None:
    rng = random.Random(5)
    checked = failed = 0
    for seed in range(8):
        for hand, seat, legal in _turns(variant, kw, seed):
            if legal.lead is not None:
                continue
            ctx = legal.ctx
            for _ in range(4):  # throws drawn at random from the leader's suits, whether allowed or not
                s = rng.randrange(5)
                held = [c for c in ctx.suit_codes[s] for _ in range(legal.counts[c])]
                if len(held) < 2:
                    continue
                combo = classify(ctx, rng.sample(held, rng.randrange(2, len(held) + 1)))
                others = {x: hand.hands[x] for x in range(hand.n) if x != seat}
                tc = throw_check(ctx, combo, others, seat)
                got = throw_forced(ctx, combo, list(others.values()))
                want = (tc.forced, tc.penalty) if tc.failed else None
                assert got == want
                checked += combo.is_throw
                failed += got is not None
    assert checked > 50 and failed > 10


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_lead_draw_matches_a_draw_from_the_listed_leads(variant: str, kw: dict[str, int]) -> None:
    leads = 0
    for seed in range(6):
        for _hand, _seat, legal in _turns(variant, kw, seed):
            if legal.lead is not None:
                continue
            listed = list(legal_leads(legal.ctx, legal.counts, include_throws=False))
            for k in range(3):
                a, b = random.Random(seed * 31 + k), random.Random(seed * 31 + k)
                assert _sample_lead(legal.ctx, legal.counts, a) == listed[b.randrange(len(listed))]
            leads += 1
    assert leads > 50


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_observation_fields_are_in_their_places(variant: str, kw: dict[str, int]) -> None:
    for hand, seat, _legal in _turns(variant, kw, 3):
        obs = hand.observation(seat)
        fields = obs._asdict()
        assert Observation(**fields) == obs
        assert fields["hand"] == tuple(hand.hands[seat]) and fields["events"] == tuple(hand.public_log)
        assert fields["cards_left"] == tuple(hand.nleft) and fields["tricks_played"] == len(hand.tricks)
        assert fields["winning"] == hand.trick_best_seat and fields["bid"] == hand.contract
        assert fields["trick"] == tuple((e.seat, e.on_table) for e in hand.trick_plays)
        assert fields["trick_points"] == (sum(hand.ctx.points[c] for e in hand.trick_plays for c in e.on_table)
                                          if hand.phase == "play" else 0)
        full = Counter(hand.deck)
        assert fields["elsewhere"] == tuple(full[c] - hand.played[c] - hand.hands[seat][c] for c in range(54))


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_deal_until_deals_as_card_by_card(variant: str, kw: dict[str, int]) -> None:
    for seed in range(4):
        one = make_hand(variant, seed, **kw)
        many = make_hand(variant, seed, **kw)
        stops = [[c % 7 == seed for c in range(54)] for _ in range(one.n)]
        while many.phase == "deal" and not many.offers:
            ev = many.deal_until(stops)
            while True:
                mine = one.deal()
                if one.phase != "deal" or one.offers or stops[mine.seat or 0][mine.cards[0]]:
                    break
            assert mine == ev and one.log == many.log and one.public_log == many.public_log
            assert (one.dealt, one.nleft, one.hands, one.phase) == (many.dealt, many.nleft, many.hands, many.phase)
        assert one.phase == many.phase and one.hands == many.hands


def test_tractor_declarations_prefiltered_as_judged() -> None:
    """Tractor offers no single once trump is declared and only joker pairs once a pair stands: exactly
    the candidates ``judge`` accepts among all of them."""
    from gameplay.declaring.base import DeclaringProtocol
    from gameplay.errors import GameplayError

    declared = 0
    for seed in range(40):
        hand = make_hand("tractor", seed, **independent_config("tractor", seed % 4, 4))
        rng = random.Random(seed)
        while hand.phase == "deal" and not hand.offers:
            seat = hand.deal().seat
            assert seat is not None
            level = hand.decl_level(seat)
            assert level is not None
            every = []
            for cs in DeclaringProtocol.candidate_cards(hand.protocol, seat, level, overturn=False):
                try:
                    hand.protocol.judge(seat, tuple(sorted(cs)))
                except GameplayError:
                    continue
                every.append(tuple(sorted(cs)))
            if hand.phase != "deal":
                break
            opts = hand.legal_declarations(seat)
            assert opts == every
            if opts and rng.random() < 0.3:
                hand.declare(seat, opts[-1])
                declared += 1
    assert declared > 20


def test_new_play_is_the_play_event() -> None:
    from gameplay.events import Play, new_play

    for seat, cards in [(0, (5,)), (3, (52, 52, 53)), (1, ())]:
        fast, plain = new_play(seat, cards), Play(seat, cards)
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert type(fast) is Play and fast.forced is None and fast.penalty == 0
        assert fast.to_json() == plain.to_json() and fast.on_table == cards
    fast, plain = new_play(2, (1, 2, 3), (1,), 20), Play(2, (1, 2, 3), (1,), 20)  # a failed throw
    assert fast == plain and repr(fast) == repr(plain) and fast.to_json() == plain.to_json() and fast.on_table == (1,)


def test_new_trick_is_the_trick_event() -> None:
    from gameplay.events import Trick, new_trick

    for seat, points in [(0, 0), (3, 25), (1, 100)]:
        fast, plain = new_trick(seat, points), Trick(seat, (), points)
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert type(fast) is Trick and fast.to_json() == plain.to_json()


def _follow_fault_reference(ctx: Context, hand: list[int], lead: Combo, play: list[int]) -> tuple[str, Any] | None:
    """``follow_fault`` before its single and pair shortcuts (issue 17, step 3): the reference."""
    n = lead.n
    if len(play) != n:
        return ("count", n)
    pc: dict[int, int]
    if n == 1:
        c = play[0]
        if hand[c] < 1 or ctx.esuit[c] < 0:
            return ("held", c)
        pc = {c: 1}
    else:
        pc = {}
        for c in play:
            pc[c] = pc.get(c, 0) + 1
        for c, k in pc.items():
            if hand[c] < k or ctx.esuit[c] < 0:
                return ("held", c)
    s = lead.suit
    es = ctx.esuit
    in_suit = 0
    for c in play:
        if es[c] == s:
            in_suit += 1
    suit_codes = ctx.suit_codes[s]
    m = 0
    for c in suit_codes:
        m += hand[c]
    if m <= n:
        return None if in_suit == m else ("short", m)
    if in_suit != n:
        return ("suit", m)
    comps = lead.components
    comp = comps[0]
    if len(comps) == 1:
        w = comp.width
        if w == 1:
            return None
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
    best = match_score(ctx, lead, {c: hand[c] for c in ctx.suit_codes[s] if hand[c]})
    return None if got >= best else ("structure", best)


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_follow_fault_matches_the_reference(variant: str, kw: dict[str, int]) -> None:
    rng = random.Random(11)
    kinds: Counter[str] = Counter()
    for seed in range(5):
        for _hand, _seat, legal in _turns(variant, kw, seed):
            if legal.lead is None:
                continue
            ctx, counts, lead = legal.ctx, list(legal.counts), legal.lead
            held = [c for c in range(54) for _ in range(counts[c])]
            plays = [list(p) for p in legal.follows()[:3]]
            plays += [rng.sample(held, min(lead.n, len(held))) for _ in range(4)]
            plays.append([rng.randrange(54) for _ in range(lead.n)])  # cards not held
            for play in plays:
                got = follow_fault(ctx, counts, lead, play)
                assert got == _follow_fault_reference(ctx, counts, lead, play), (lead.codes, play)
                kinds[got[0] if got else "ok"] += 1
    assert len(kinds) >= 4, kinds


def test_new_combo_is_the_combo() -> None:
    from gameplay.combos import Component, new_combo

    comp = Component(2, 2, 2, 70, (30, 30, 29, 29))
    for args in [(2, "tractor", (comp,), comp.codes), (4, "single", (Component(4, 1, 1, 140, (53,)),), (53,))]:
        fast, plain = new_combo(*args), Combo(*args)
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert type(fast) is Combo and fast.n == plain.n == len(args[3])


@pytest.mark.parametrize("how", ["lowest_card", "fewest_cards"])
def test_forced_component_is_the_first_least_by_the_three_keys(how: str) -> None:
    """``throws._forced_of`` (ties on top and size broken among the tied only) against one ``min`` by
    (top, size, lowest card) — or (size, top, lowest card) with ``fewest_cards`` — over the failing
    components of random throws, ties of equal strength included (off-suit level cards are equal)."""
    rs = ruleset("tractor", {"throw_forced": how})
    rng = random.Random(3)
    tied = 0
    for _ in range(300):
        ctx = Context(rs, "5", rng.choice("SHCD"))
        deck = deck_codes(rs.decks, rs.removed_ranks)
        rng.shuffle(deck)
        suit = rng.choice((TRUMP, TRUMP, TRUMP, 0, 1, 2, 3))  # trumps: equal level cards
        comps = [c for c in decompose(ctx, deck[:50]) if c.suit == suit]
        if len(comps) < 2:
            continue
        failing = rng.sample(comps, rng.randrange(2, len(comps) + 1))

        def key(c: Component, low: Any = ctx.sortkey.__getitem__) -> tuple[int, int, int]:
            first, second = (c.top, c.size) if how == "lowest_card" else (c.size, c.top)
            return first, second, min(map(low, c.codes))

        assert _forced_of(ctx, failing) is min(failing, key=key)
        tied += len({(c.top, c.size) for c in failing}) < len(failing)
    assert tied > 10


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_a_forced_follow_is_the_only_legal_follow(variant: str, kw: dict[str, int]) -> None:
    """``LegalPlays.forced`` (what the runner plays for a heuristic bot without asking it): exactly when
    the seat holds its last card (a lead or a follow), or holds as many cards of the led suit as were
    led (not under yongzhou's rules): the one play ``legal_leads``/``legal_follows`` lists, handed out
    as legal."""
    seen = last = last_follows = 0
    for seed in range(8):
        for _, _, legal in _turns(variant, kw, seed):
            forced = legal.forced()
            lead = legal.lead
            one = sum(legal.counts) == 1
            assert legal.left == sum(legal.counts)
            if lead is None:
                assert (forced is not None) == one
                if forced is not None:
                    last += 1
                    assert list(legal.leads()) == [forced] and legal.gave(forced)
                continue
            held = sum(legal.counts[c] for c in legal.ctx.suit_codes[lead.suit])
            yongzhou = legal.ctx.rules.must_beat_on_points or legal.ctx.rules.no_gifting_points
            assert (forced is not None) == (one or (held == lead.n and not yongzhou))
            if forced is not None:
                seen += 1
                last += one
                last_follows += one
                assert [sorted(p) for p in legal.follows()] == [sorted(forced)]
                assert legal.gave(forced)
    assert last >= 8, last  # each hand's last trick: the leader and every follower
    if variant == "yongzhou-300":
        assert seen == last_follows
    else:
        assert seen > 8 + last_follows, seen


def test_the_last_card_is_forced_only_as_a_single() -> None:
    """One card left against a lead of more cards (no such trick arises in play): not forced."""
    ctx = Context(ruleset("tractor"), "5", "S")
    counts = [0] * 54
    counts[3] = 1
    pair = classify(ctx, [5, 5])
    assert LegalPlays(ctx, counts, pair, [(5, 5)], 1).forced() is None
    assert LegalPlays(ctx, counts, None, [], 1).forced() == (3,)
    assert LegalPlays(ctx, counts, None, []).forced() is None  # the count not given: no shortcut


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=IDS)
def test_single_hands_out_only_legal_follows_after_forced_counted(variant: str, kw: dict[str, int]) -> None:
    """``LegalPlays.single`` reuses the led suit's count that ``forced`` made: a single of another
    suit is handed out exactly when the seat is void in the led suit, as without the count."""
    checked = void = 0
    for seed in range(6):
        for hand, seat, legal in _turns(variant, kw, seed):
            lead = legal.lead
            if lead is None or lead.n != 1:
                continue
            counted = LegalPlays(legal.ctx, legal.counts, lead, legal.prior, legal.left)
            counted.forced()
            for c in range(54):
                if not legal.counts[c]:
                    continue
                fresh = LegalPlays(legal.ctx, legal.counts, lead, legal.prior, legal.left)
                a, b = counted.single(c), fresh.single(c)
                assert counted.gave(a) == fresh.gave(b)
                if fresh.gave(b):
                    assert hand.can_play(seat, (c,))
                checked += 1
            void += not any(legal.counts[c] for c in legal.ctx.suit_codes[lead.suit])
    assert checked > 200 and void > 5, (checked, void)
