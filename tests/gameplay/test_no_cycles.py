"""Whole hands leave no reference cycles (issue 17): a finished hand, its log and the bots' caches are
freed by reference counting when the last reference goes, not at the garbage collector's next run —
cyclic garbage made every collection walk each hand's objects and kept their memory cold.

The recursive walks (``combos.chains``, ``follow_lists._structured_follows``) are module functions, not
closures (a recursive closure refers to itself through its cell), and a scored hand's declaring
protocol refers back to it weakly (in pure Python: the compiled build's classes take no weak
reference, so there the collector frees each hand, as it did before)."""

from __future__ import annotations

import gc
import random
import weakref
from collections import Counter
from collections.abc import Iterator

import pytest

from gameplay.bots import make_bot
from gameplay.combos import chains, classify
from gameplay.hand import Hand
from gameplay.legality import legal_follows
from gameplay.order import Context
from gameplay.rulesets import ruleset
from gameplay.simulate import make_hand, play_out, simulate_hand

COMPILED = not Hand.__weakrefoffset__  # mypyc's native classes take no weak reference: the cycle stays
needs_weakref = pytest.mark.skipif(COMPILED, reason="the compiled Hand keeps its protocol's cycle (no weak references)")

CASES = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
         ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    """What the collector finds unreachable while the test runs (kept, not freed)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@needs_weakref
@pytest.mark.parametrize(("variant", "kw"), CASES, ids=[f"{v}-{'-'.join(map(str, k.values()))}" for v, k in CASES])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_whole_hands_leave_no_cyclic_garbage(saved_garbage: list[object], variant: str, kw: dict[str, int],
                                             bot: str) -> None:
    for i in range(6):
        simulate_hand(variant, 5, i, [bot, bot], keep_log=True, **kw)
    gc.collect()
    kinds = Counter(type(o).__name__ for o in saved_garbage)
    assert not saved_garbage, f"cyclic garbage after whole hands: {kinds.most_common(8)}"


@needs_weakref
def test_a_scored_hand_is_freed_when_dropped_and_still_answers() -> None:
    hand = make_hand("tractor", 3)
    play_out(hand, [make_bot("heuristic", random.Random(s)) for s in range(4)])
    assert hand.finished
    assert hand.legal_declarations(0) == []  # the protocol, now holding the hand weakly, still reads it
    assert hand.protocol.hand.phase == "scored"
    gone = weakref.ref(hand)
    was = gc.isenabled()
    gc.disable()
    try:
        del hand
        assert gone() is None  # freed at once, without the collector
    finally:
        if was:
            gc.enable()


CTX = Context(ruleset("tractor"), "5", "S")  # made before the test: the compiled build's context leaves cycles


def test_the_recursive_walks_leave_no_cycle(saved_garbage: list[object]) -> None:
    ctx = CTX
    assert chains(ctx, [12, 11, 10, 9])  # adjacent cards of one suit: a path to walk
    lead = classify(ctx, [12, 12, 11, 11])
    counts = [0] * 54
    for c in (12, 12, 11, 10, 10, 9, 9, 8, 7):
        counts[c] += 1
    assert list(legal_follows(ctx, counts, lead, prior=[(12, 12, 11, 11)]))
    gc.collect()
    assert not saved_garbage, Counter(type(o).__name__ for o in saved_garbage).most_common(8)
