"""The heuristic bot decides exactly as before its speed work (issue 17): over seeded hands of every
variant, today's bot and the reference (``reference_bot.py``, the former code) are asked every question
side by side — same observation, same legal actions, same random state — and must give the same
answer and leave their random generators in the same state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from gameplay.bot_follow import pair_throw_follows
from gameplay.bots import HeuristicBot, make_bot
from gameplay.cards import deck_codes, to_counts
from gameplay.combos import Component, classify, decompose
from gameplay.legality import legal_follows
from gameplay.order import Context
from gameplay.rulesets import ruleset
from gameplay.simulate import hand_seed, independent_config, make_hand, play_out
from scoring.partnership import MatchState

from .reference_bot import HeuristicBot as ReferenceBot

CASES = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
         ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]
HANDS = 150


class Twin:
    """A heuristic seat asking both bots; any difference fails the test at once. It is asked for
    forced follows too, and checks that today's bot plays just what ``LegalPlays.forced`` gives (what
    the runner plays for it without asking)."""

    name = "heuristic"
    uses_observation = True
    asked_when_forced = True

    def __init__(self, seed: int) -> None:
        self.new = HeuristicBot(random.Random(seed))
        self.ref = ReferenceBot(random.Random(seed))
        self.asked: dict[str, int] = {}

    def _ask(self, method: str, *args: Any) -> Any:
        want = getattr(self.ref, method)(*args)
        got = getattr(self.new, method)(*args)
        same = (list(got) == list(want)) if isinstance(want, (list, tuple)) else got == want
        assert same, f"{method}: today's bot chose {got}, the reference {want}"
        assert self.new.rng.getstate() == self.ref.rng.getstate(), f"{method}: the random states differ"
        self.asked[method] = self.asked.get(method, 0) + 1
        return got

    def declare(self, *args: Any) -> Any:
        return self._ask("declare", *args)

    def overturn(self, *args: Any) -> Any:
        return self._ask("overturn", *args)

    def insure(self, *args: Any) -> Any:
        return self._ask("insure", *args)

    def bid(self, *args: Any) -> Any:
        return self._ask("bid", *args)

    def name_trump(self, *args: Any) -> Any:
        return self._ask("name_trump", *args)

    def bury(self, *args: Any) -> Any:
        return self._ask("bury", *args)

    def play(self, *args: Any) -> Sequence[int]:
        got = self._ask("play", *args)
        forced = args[1].forced()
        if forced is not None:
            assert tuple(got) == forced, f"a forced follow: the bot chose {got}, the runner would play {forced}"
            self.asked["forced"] = self.asked.get("forced", 0) + 1
        return got


def play_twins(variant: str, kw: dict[str, Any], seed: int, index: int, *, against_random: bool,
               state: MatchState | None = None) -> dict[str, int]:
    n = kw.get("players", 4)
    hs = hand_seed(seed, index)
    conf: dict[str, Any] = independent_config(variant, index, n)
    if state is not None:
        conf = {"state": state}
    hand = make_hand(variant, hs, **kw, **conf)
    seats: list[Any] = [make_bot("random", random.Random(hs * 7 + s)) if against_random and s % 2
                        else Twin(hs * 7 + s) for s in range(n)]
    play_out(hand, seats)
    assert hand.finished
    asked: dict[str, int] = {}
    for b in seats:
        for k, v in getattr(b, "asked", {}).items():
            asked[k] = asked.get(k, 0) + v
    return asked


@pytest.mark.parametrize(("variant", "kw"), CASES, ids=[f"{v}-{'-'.join(map(str, k.values()))}" for v, k in CASES])
def test_same_decisions_as_the_reference(variant: str, kw: dict[str, Any]) -> None:
    """Heuristic against heuristic and against random: every declaration, bid, burial and play agrees."""
    asked: dict[str, int] = {}
    for i in range(HANDS):
        for k, v in play_twins(variant, kw, 17, i, against_random=bool(i % 2)).items():
            asked[k] = asked.get(k, 0) + v
    assert asked["play"] > HANDS * 20
    if variant != "yongzhou-300":  # no forced follows under 见分必打/不许送分: the bot is asked
        assert asked["forced"] > HANDS


@pytest.mark.parametrize(("variant", "level"), [("chaodi", "A"), ("chaodi", "K"), ("tractor", "10")])
def test_same_decisions_at_high_levels(variant: str, level: str) -> None:
    """Chaodi at A (the dealer side shows an A in the first and the last trick) and near the top."""
    for i in range(40):
        state = MatchState(levels=(level, level), dealer=i % 4, hands_played=1)
        play_twins(variant, {}, 29, i, against_random=bool(i % 2), state=state)


@pytest.mark.parametrize("variant", ["tractor", "chaodi", "red-five"])
def test_pair_throw_follows_are_the_legal_follows(variant: str) -> None:
    """The bot's listing of the follows of a throw of pairs and singles is ``legal_follows`` exactly
    (same plays, same order) wherever it answers; elsewhere it declines (None)."""
    rs = ruleset(variant)
    rng = random.Random(5)
    answered = 0
    for _ in range(400):
        ctx = Context(rs, "5" if rs.has_levels else None, rng.choice("SHCD"))
        deck = deck_codes(rs.decks, rs.removed_ranks)
        rng.shuffle(deck)
        leader, follower = deck[:25], deck[25:50]
        by_suit: dict[int, list[Component]] = {}
        for comp in decompose(ctx, leader):
            if comp.length == 1:
                by_suit.setdefault(comp.suit, []).append(comp)
        comps = max(by_suit.values(), key=len)
        picked = rng.sample(comps, min(len(comps), rng.randint(1, 3)))
        lead = classify(ctx, [c for comp in picked for c in comp.codes])
        counts = to_counts(follower)
        got = pair_throw_follows(ctx, counts, lead)
        if got is not None:
            answered += 1
            assert got == list(legal_follows(ctx, counts, lead))
    assert answered > 100
