"""Bot-vs-bot playouts of 1,000 seeded hands per variant (OpenSpiel ``random_sim_test`` in spirit):
every card dealt once, every play legal by the referee, trick points plus the kitty add up to the deck's
points, the hand ends, and the replay of its log reproduces it."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import make_bot
from gameplay.simulate import hand_seed, independent_config, make_hand, play_out, seat_bots

from .hand_helpers import check_hand

CASES = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
         ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]
HANDS = 1000


@pytest.mark.parametrize(("variant", "kw"), CASES, ids=[f"{v}-{'-'.join(map(str, k.values()))}" for v, k in CASES])
def test_thousand_seeded_hands(variant: str, kw: dict) -> None:
    players = kw.get("players", 4)
    ends = 0
    for i in range(HANDS):
        seed = hand_seed(20261130, i)
        pair = ["random", "random"] if i % 3 else ["heuristic", "random"]
        names = seat_bots(variant, players, pair)
        hand = make_hand(variant, seed, **kw, **independent_config(variant, i, players))
        play_out(hand, [make_bot(n, random.Random(seed + s)) for s, n in enumerate(names)])
        check_hand(hand, referee=i % 20 == 0, replay_it=i % 4 == 0)
        ends += hand.finished
    assert ends == HANDS


def test_first_hands_with_redeals_and_whole_matches() -> None:
    """First hands (争庄, redeal when nobody declares) and matches to the end, both variants."""
    from gameplay.simulate import simulate_match

    for variant in ("tractor", "chaodi"):
        for i in range(3):
            m = simulate_match(variant, 5, i, ["heuristic", "random"])
            assert m["winner"] in (0, 1) and m["hands"] >= 1
