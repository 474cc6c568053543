"""Seeded random playouts of whole hands (OpenSpiel ``random_sim_test`` in spirit): every play is
legal, cards are conserved, trick points add up to the points dealt, the hand ends."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from gameplay.cards import deck_codes, to_counts
from gameplay.combos import classify
from gameplay.errors import OutOfTurn, WrongPhase
from gameplay.legality import check_follow, legal_follows, legal_leads
from gameplay.order import Context
from gameplay.rulesets import ruleset
from gameplay.trick_state import Trick

from .helpers import cards, hand, make_ctx

CASES = [("tractor", {}, "7", "S"), ("tractor", {}, "K", None), ("chaodi", {}, "A", "H"),
         ("red-five", {"decks": 2}, None, "D"), ("red-five", {"decks": 3}, None, "H"),
         ("yongzhou-300", {"players": 4}, None, "C"), ("yongzhou-300", {"players": 3}, None, None)]


def choose_lead(rng: random.Random, ctx: Context, counts: list[int]) -> list[int]:
    if ctx.rules.throw_allowed and rng.random() < 0.25:
        held = [c for c in range(54) for _ in range(counts[c])]
        s = ctx.esuit[rng.choice(held)]
        suit = [c for c in held if ctx.esuit[c] == s]
        return rng.sample(suit, rng.randint(1, min(len(suit), 6)))
    leads = list(legal_leads(ctx, counts, include_throws=False))
    return list(rng.choice(leads))


@pytest.mark.parametrize(("variant", "kw", "level", "trump"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_invariants(variant: str, kw: dict, level: str | None, trump: str | None, seed: int) -> None:
    rules = ruleset(variant, **kw)
    ctx = Context(rules, level, trump)
    rng = random.Random(seed)
    deck = deck_codes(rules.decks, rules.removed_ranks)
    rng.shuffle(deck)
    n, size = rules.players, rules.hand_size
    hands = {s: to_counts(deck[s * size:(s + 1) * size]) for s in range(n)}
    dealt_points = sum(ctx.points[c] for c in deck[: n * size])
    won = dict.fromkeys(range(n), 0)
    leader, tricks = 0, 0
    while any(sum(h) for h in hands.values()):
        assert len({sum(h) for h in hands.values()}) == 1, "every seat holds as many cards"
        trick = Trick(ctx, leader)
        lead_cards = choose_lead(rng, ctx, hands[leader])
        ev = trick.play(leader, hands[leader], lead_cards, hands=hands)
        table = [list(ev.on_table)]
        for i in range(1, n):
            seat = (leader + i) % n
            assert trick.lead is not None
            options = list(islice(legal_follows(ctx, hands[seat], trick.lead, prior=table), 300))
            assert options, "a legal follow always exists"
            play = list(rng.choice(options))
            check_follow(ctx, hands[seat], trick.lead, play, prior=table)
            trick.play(seat, hands[seat], play)
            table.append(play)
        for e in trick.events:
            for c in e.on_table:
                hands[e.seat][c] -= 1
                assert hands[e.seat][c] >= 0
        winner = trick.winner_seat()
        won[winner] += trick.points()
        leader = winner
        tricks += 1
        assert tricks <= size
    assert sum(won.values()) == dealt_points


def test_trick_turn_and_phase_errors() -> None:
    ctx = make_ctx("tractor", "2", "H")
    t = Trick(ctx, leader=1)
    with pytest.raises(OutOfTurn) as e:
        t.verify_play(0, hand("S3"), cards("S3"))
    assert "Seat 1 played out of turn: seat 2 is to play." in str(e.value)  # 0-based seats 0 and 1
    assert "1号座位没有轮到出牌：现在轮到2号座位。" in e.value.message("zh-hans")
    t.play(1, hand("S4"), cards("S4"))
    assert not t.can_play(3, hand("S5"), cards("S5")) and t.can_play(2, hand("S5"), cards("S5"))
    for seat, c in ((2, "S5"), (3, "S6"), (0, "S7")):
        t.play(seat, hand(c), cards(c))
    with pytest.raises(WrongPhase):
        t.verify_play(1, hand("S8"), cards("S8"))
    assert t.winner_seat() == 0 and t.points() == 5
    assert classify(ctx, cards("S4")).shape == "single"
