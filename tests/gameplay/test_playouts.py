"""Seeded random playouts of whole hands (OpenSpiel ``random_sim_test`` in spirit): every play is
legal, cards are conserved, trick points add up to the points dealt, the hand ends."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from gameplay.cards import deck_codes
from gameplay.config import HandConfig
from gameplay.errors import OutOfTurn
from gameplay.hand import Hand
from gameplay.legality import check_follow, legal_follows, legal_leads
from gameplay.order import Context
from gameplay.position import hand_at_position
from gameplay.rulesets import ruleset
from scoring.partnership import MatchState

BID = 100
"""A red-five contract for the placed hands (scoring needs one)."""
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


def placed(variant: str, kw: dict, level: str | None, trump: str | None, seed: int, leader: int = 0) -> Hand:
    """A seeded deal placed at the play phase of the engine's :class:`Hand` (level and trump given)."""
    rules = ruleset(variant, **kw)
    rng = random.Random(seed)
    deck = deck_codes(rules.decks, rules.removed_ranks)
    rng.shuffle(deck)
    n, size = rules.players, rules.hand_size
    state = MatchState(levels=(level, level), dealer=0, hands_played=1) if level is not None else None
    options = {"target_level": "A"} if level is not None else {}
    config = HandConfig(variant, options, decks=kw.get("decks"), players=kw.get("players"), state=state)
    return hand_at_position(config, [deck[s * size:(s + 1) * size] for s in range(n)], deck[n * size:],
                            trump=trump, dealer=0, leader=leader, contract=BID if variant == "red-five" else None)


@pytest.mark.parametrize(("variant", "kw", "level", "trump"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_invariants(variant: str, kw: dict, level: str | None, trump: str | None, seed: int) -> None:
    """Random leads (throws too) and random legal follows through :meth:`Hand.play`: every seat holds
    as many cards, the trick points add up to the points dealt, the hand ends after ``hand_size`` cards."""
    h = placed(variant, kw, level, trump, seed)
    ctx = h.ctx
    assert ctx is not None
    rng = random.Random(seed)
    n, size = h.n, h.rules.hand_size
    dealt_points = sum(ctx.points[c] for s in range(n) for c in h.seat_cards(s))
    tricks = 0
    assert size == h.nleft[0]
    while not h.finished:
        assert len(set(h.nleft)) == 1, "every seat holds as many cards"
        leader = h.trick_turn
        h.play(leader, choose_lead(rng, ctx, h.hands[leader]))
        for _ in range(1, n):
            seat = h.trick_turn
            assert h.trick_lead is not None
            options = list(islice(legal_follows(ctx, h.hands[seat], h.trick_lead, prior=h.trick_on), 300))
            assert options, "a legal follow always exists"
            play = list(rng.choice(options))
            check_follow(ctx, h.hands[seat], h.trick_lead, play, prior=h.trick_on)
            h.play(seat, play)
        tricks += 1
        assert tricks <= size
    assert sum(h.points) == dealt_points and not any(h.nleft) and len(h.tricks) == tricks


def test_trick_turn_errors() -> None:
    h = placed("tractor", {}, "2", "H", 7, leader=1)
    with pytest.raises(OutOfTurn) as e:
        h.verify_play(0, h.seat_cards(0)[:1])
    assert "Seat 1 played out of turn: seat 2 is to play." in str(e.value)  # 0-based seats 0 and 1
    assert "1号座位没有轮到出牌：现在轮到2号座位。" in e.value.message("zh-hans")
    h.play(1, h.seat_cards(1)[:1])
    assert not h.can_play(3, h.seat_cards(3)[:1]) and h.trick_turn == 2
