"""Whole heuristic hands with today's bot against the former one (issue 17), in-process, interleaved.

    .venv/bin/python bench/bot_reference.py                      # 30 hands per variant, 3 rounds
    .venv/bin/python bench/bot_reference.py --hands 20 --rounds 1 --only tractor --bot today
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/bot_reference.py --hands 20 --rounds 1 --only tractor --bot reference

The same seeded heuristic-against-heuristic hands (seed 7) are played with the heuristic bot of
``gameplay.bots`` and with the former code kept as ``tests/gameplay/reference_bot.py`` (the
bookkeeping is the same tree's in both), rounds alternating, the garbage collector off while timing;
it prints the best CPU µs per hand of each and their ratio, and fails if the records differ (they
must not: the two bots decide alike). With ``--bot`` only one of them plays (for an instruction
count under valgrind, which does not depend on the machine's load: run it with 0 hands to subtract
the start-up).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gameplay import simulate  # noqa: E402
from tests.gameplay.reference_bot import HeuristicBot as ReferenceBot  # noqa: E402


class Case(TypedDict, total=False):
    """The table of a case (simulate_hands' keyword arguments)."""

    decks: int
    players: int


CASES: list[tuple[str, Case]] = [
    ("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
    ("yongzhou-300", {"players": 4}), ("yongzhou-300", {"players": 3})]
MAKE_BOT = simulate.make_bot


def use(which: str) -> None:
    """Make ``simulate`` build today's heuristic bot or the reference."""
    def make(name: str, rng: random.Random) -> Any:
        if name == "heuristic" and which == "reference":
            return ReferenceBot(rng)
        return MAKE_BOT(name, rng)
    simulate.make_bot = make  # type: ignore[assignment]


def run(which: str, variant: str, kw: Case, hands: int) -> tuple[float, list[dict[str, Any]]]:
    use(which)
    gc.disable()
    try:
        t0 = time.process_time()
        recs = simulate.simulate_hands(variant, 7, 0, hands, ["heuristic", "heuristic"], **kw)
        return time.process_time() - t0, recs
    finally:
        gc.enable()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="variants (e.g. tractor,red-five3,yongzhou-3004)")
    ap.add_argument("--bot", choices=("today", "reference"), default=None, help="play with this bot only")
    args = ap.parse_args()
    only = [x for x in args.only.split(",") if x]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    failed = False
    for variant, kw in CASES:
        label = variant + "".join(str(v) for v in kw.values())
        if only and label not in only and variant not in only:
            continue
        simulate.simulate_hands(variant, 7, 0, 1, ["heuristic", "heuristic"], **kw)  # warm up
        bots = [args.bot] if args.bot else ["reference", "today"]
        best: dict[str, float] = {}
        recs: dict[str, list[dict[str, Any]]] = {}
        for _ in range(args.rounds):
            for which in bots:
                dt, recs[which] = run(which, variant, kw, args.hands)
                best[which] = min(best.get(which, float("inf")), dt)
        if args.hands == 0:
            continue
        cells = "  ".join(f"{w} {best[w] / args.hands * 1e6:8.0f} µs" for w in bots)
        ratio = f"  {best['reference'] / best['today']:.2f}×" if len(bots) == 2 else ""
        same = len(bots) == 1 or recs["reference"] == recs["today"]
        failed |= not same
        print(f"{label:16} {cells}{ratio}{'' if same else '  RECORDS DIFFER'}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
