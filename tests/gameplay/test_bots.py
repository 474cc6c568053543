"""Bots: they see only their observation and the legal actions; the heuristic bot plays sensibly and
beats the random bot clearly."""

from __future__ import annotations

import random

import pytest

from gameplay.bot_cards import is_sure
from gameplay.bots import HeuristicBot, RandomBot, make_bot
from gameplay.config import HandConfig
from gameplay.hand import Hand
from gameplay.observation import Observation
from gameplay.order import TRUMP
from gameplay.simulate import hand_seed, independent_config, make_hand, play_out, seat_bots, simulate_hands

CASES = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
         ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]


class Spy:
    """Wraps a bot and records what it is given."""

    def __init__(self, inner: RandomBot | HeuristicBot) -> None:
        self.inner = inner
        self.name = inner.name
        self.uses_observation = True
        self.asked_when_forced = inner.asked_when_forced
        self.seen: list[object] = []

    def __getattr__(self, name: str):
        fn = getattr(self.inner, name)

        def wrapped(*args):
            self.seen.extend(args)
            return fn(*args)

        return wrapped


def test_bots_receive_only_observations_and_legal_actions() -> None:
    hand = Hand(HandConfig("tractor"), seed=9)
    spies = [Spy(make_bot("heuristic", random.Random(s))) for s in range(4)]
    play_out(hand, spies)  # type: ignore[arg-type]
    for seat, spy in enumerate(spies):
        obs = [x for x in spy.seen if isinstance(x, Observation)]
        assert obs and all(o.seat == seat for o in obs)
        assert not any(isinstance(x, Hand) for x in spy.seen)
        # the observation holds this seat's cards only, and the kitty only for whoever buried it
        assert all(o.kitty is None or hand.buried_by == seat or o.phase != "play" for o in obs)


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", random.Random(1))


def test_heuristic_buries_side_cards_without_points_when_it_can() -> None:
    for seed in range(30):
        hand = make_hand("tractor", hand_seed(1, seed), **independent_config("tractor", seed, 4))
        play_out(hand, [make_bot("heuristic", random.Random(s)) for s in range(4)])
        ctx = hand.ctx
        bury = next(e for e in hand.log if e.kind == "bury")
        holding = [e for e in hand.log if e.kind == "take_kitty"][-1]
        assert holding.seat == bury.seat
        assert all(ctx.esuit[c] != TRUMP for c in bury.cards) or seed < 0
        points = sum(ctx.points[c] for c in bury.cards)
        assert points <= 25


@pytest.mark.parametrize(("variant", "kw"), CASES[:2])
def test_heuristic_throws_only_when_nothing_unseen_can_beat(variant: str, kw: dict) -> None:
    throws = 0
    for i in range(120):
        hand = make_hand(variant, hand_seed(2, i), **kw, **independent_config(variant, i, 4))
        play_out(hand, [make_bot("heuristic", random.Random(i + s)) for s in range(4)])
        for e in hand.log:
            if e.kind == "play" and len(set(e.cards)) > 1 and hand.ctx is not None:
                throws += 1
                assert e.forced is None, f"hand {i}: a heuristic throw failed: {e}"
    assert throws > 20


@pytest.mark.parametrize(("variant", "kw"), CASES, ids=[f"{v}-{'-'.join(map(str, k.values()))}" for v, k in CASES])
def test_heuristic_beats_random_clearly(variant: str, kw: dict) -> None:
    recs = simulate_hands(variant, 11, 0, 150, ["heuristic", "random"], **kw)
    acc: dict[str, list[float]] = {}
    for r in recs:
        for k, v in r["by_bot"].items():
            acc.setdefault(k, []).append(v)
    h = sum(acc["heuristic"]) / len(acc["heuristic"])
    rnd = sum(acc["random"]) / len(acc["random"])
    if variant in ("tractor", "chaodi"):
        assert h > 1.0 and rnd < -1.0  # levels per hand, heuristic side minus random side
    elif variant == "red-five":
        assert h - rnd > 2.0  # game points per seat and hand
    else:
        assert h - rnd > (5 if kw["players"] == 4 else 10)  # net points per seat and hand


def test_random_bot_is_uniform_enough_over_follows() -> None:
    """Sampling without listing: every legal follow of a short-suited hand is reachable."""
    hand = Hand(HandConfig("tractor"), seed=4)
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    names = seat_bots("tractor", 4, ["random"])
    assert names == ["random"] * 4
    play_out(hand, bots)
    assert hand.finished


def _safe(variant: str, level: str, trump: str, comp: str, unseen: str) -> bool:
    """Whether the heuristic bot counts the component ``comp`` a sure part of a throw, given what is unseen."""
    from gameplay.cards import parse_cards, to_counts
    from gameplay.combos import decompose

    from .helpers import make_ctx

    ctx = make_ctx(variant, level, trump)
    (c,) = decompose(ctx, parse_cards(comp))
    return is_sure(ctx, c.top, c.width, c.length, c.suit, to_counts(parse_cards(unseen)))


def test_heuristic_throw_safety_follows_the_throw_rule() -> None:
    """RULES §4: any unseen higher card threatens a single, also one that may be held as a pair; pairs
    fear higher pairs; chaodi: `LJ LJ 主级 主级` is no tractor, so it cannot beat a 2拖."""
    assert not _safe("tractor", "2", "H", "SK", "SA SA")
    assert not _safe("tractor", "2", "H", "SK SK", "SA SA")
    assert _safe("tractor", "2", "H", "SK SK", "SA SQ SQ")
    assert _safe("chaodi", "5", "H", "H2 H2 S2 S2", "LJ LJ H5 H5 HA")
    assert not _safe("chaodi", "5", "H", "H2 H2 S2 S2", "H5 H5 C5 C5")
