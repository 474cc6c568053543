"""How strong the bot levels are, duplicate style (issue 32).

    nice -n 10 .venv/bin/python bench/bots.py                      # 2,000 pairs per measurement, every variant
    nice -n 10 .venv/bin/python bench/bots.py --pairs 200 --only tractor --matchups strong-normal
    nice -n 10 .venv/bin/python bench/bots.py --budget-ms 50 --playouts 8   # the strong bot's bounds
    nice -n 10 .venv/bin/python bench/bots.py --only tractor --matchups strong-normal --confidence 0.5

Each measurement plays the same seeded deals twice with the sides swapped (bot A in the seats of side
0 — partnerships: seats 0 and 2; individual variants: the even seats — then in side 1's), so the luck
of the deal cancels. A pair's score is bot A's mean over its two hands: in tractor and chaodi the
levels its side gained less the levels the other side gained, in red five its seats' mean game points,
in Yongzhou its seats' mean net. The table gives the mean a hand with a 95 % confidence interval
(1.96 standard errors of the pairs' scores) and every bot's decision times (each call asked of it:
declaring, bidding, burying and playing) p50/p95/max in milliseconds.

The deals of pair ``i`` are those of :func:`gameplay.simulate.simulate_hand` (hand seed
``hand_seed(seed, i)``, the deal rotating; Yongzhou's first seat rotating too, not a session's
winner). The strong bot keeps its 200 ms budget here but is capped at 24 deals a decision (its own
default cap is 200, so that the budget rules): printed with the table. Even so a strong pair costs about 6 s of CPU (about 30
searched decisions a hand), so 2,000 strong pairs in four variants take half a day on two cores; the
README says how many pairs each figure had.
Two worker processes at most (``--workers``); run it under ``nice -n 10`` on a shared machine.

A measurement may be gathered over several runs (several sessions: 2,000 strong pairs do not fit in one).
``--first-pair K`` plays pairs K, K+1, …; ``--record FILE`` appends one JSON line per pair played (its
measurement's settings, the pair's index, bot A's score, every decision's time); ``--report FILE …`` plays
nothing and prints the table of everything recorded, a pair counted once per measurement (same variant,
bots, seed, budget, deals cap and confidence) whichever run played it::

    nice -n 10 .venv/bin/python bench/bots.py --only tractor --matchups strong-normal --pairs 400 \
        --first-pair 400 --record bench/results/bots-pairs.jsonl.gz
    .venv/bin/python bench/bots.py --report bench/results/bots-pairs.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import variants  # noqa: E402
from gameplay import bot_search  # noqa: E402
from gameplay.bots import Bot, make_bot  # noqa: E402
from gameplay.simulate import (  # noqa: E402
    DeferredRandom,
    hand_seed,
    independent_config,
    make_hand,
    play_out,
    record,
    seat_bots,
)

VARIANTS = ("tractor", "chaodi", "red-five", "yongzhou-300")
MATCHUPS = ("strong-normal", "normal-easy", "easy-random")


class Timed:
    """A bot whose every decision is timed (``times`` in seconds)."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.uses_observation = bot.uses_observation
        self.asked_when_forced = bot.asked_when_forced
        self.times = times

    def _timed(self, method: str, *args: Any) -> Any:
        t = time.perf_counter()
        out = getattr(self.bot, method)(*args)
        self.times.append(time.perf_counter() - t)
        return out

    def declare(self, *a: Any) -> Any:
        return self._timed("declare", *a)

    def overturn(self, *a: Any) -> Any:
        return self._timed("overturn", *a)

    def insure(self, *a: Any) -> Any:
        return self._timed("insure", *a)

    def bid(self, *a: Any) -> Any:
        return self._timed("bid", *a)

    def name_trump(self, *a: Any) -> Any:
        return self._timed("name_trump", *a)

    def bury(self, *a: Any) -> Any:
        return self._timed("bury", *a)

    def play(self, *a: Any) -> Any:
        return self._timed("play", *a)


def play_hand(variant: str, seed: int, index: int, bots: Sequence[str], budget_ms: float,
              playouts: int, times: dict[str, list[float]]) -> dict[str, Any]:
    """Hand ``index`` of the run (as ``simulate_hand`` deals it), the bots' decisions timed."""
    hs = hand_seed(seed, index)
    spec = variants.get(variant)
    names = seat_bots(variant, spec.default_players, bots)
    n = len(names)
    conf = ({"start_seat": index % n} if spec.settlement.winner_deals_next
            else independent_config(variant, index, n))
    hand = make_hand(variant, hs, **conf)
    objs: list[Bot] = [Timed(make_bot(name, DeferredRandom(hs * 7 + s), budget_ms=budget_ms, playouts=playouts),
                             times.setdefault(name, [])) for s, name in enumerate(names)]  # type: ignore[misc]
    play_out(hand, objs)
    return record(hand, names[:2] if spec.partnership else names, hs, index)


Pair = tuple[int, float, dict[str, list[float]]]
"""One pair: its index, bot A's score, each bot's decision times (seconds)."""


def run_pairs(job: tuple[str, str, str, int, int, int, float, int]) -> list[Pair]:
    """Pairs ``start`` … ``start + count - 1``, each with bot A's score and its decision times per bot."""
    variant, a, b, seed, start, count, budget_ms, playouts = job
    out: list[Pair] = []
    for i in range(start, start + count):
        times: dict[str, list[float]] = {}
        first = play_hand(variant, seed, i, [a, b], budget_ms, playouts, times)["by_bot"][a]
        second = play_hand(variant, seed, i, [b, a], budget_ms, playouts, times)["by_bot"][a]
        out.append((i, (first + second) / 2, times))
    return out


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def settings_of(variant: str, matchup: str, args: argparse.Namespace) -> dict[str, Any]:
    """What makes pairs of one measurement (a recorded pair is counted with those of the same settings)."""
    return {"variant": variant, "matchup": matchup, "seed": args.seed, "budget_ms": args.budget_ms,
            "playouts": args.playouts, "confidence": args.confidence}


def row(key: dict[str, Any], pairs: list[Pair], seconds: float | None) -> str:
    """The table's line of one measurement."""
    variant, (a, b) = key["variant"], key["matchup"].split("-")
    scores = [score for _i, score, _t in pairs]
    times: dict[str, list[float]] = {}
    for _i, _score, tm in pairs:
        for k, v in tm.items():
            times.setdefault(k, []).extend(v)
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else float("nan")
    unit = variants.get(variant).settlement.score_name
    strong = times.get("strong", [])
    over = sum(t > 1.2 * key["budget_ms"] / 1000 for t in strong)
    timing = "; ".join(f"{k} {percentile(v, .5) * 1000:.2f}/{percentile(v, .95) * 1000:.2f}/{max(v) * 1000:.1f}"
                       for k, v in sorted(times.items()))
    took = f"{seconds:.0f} s" if seconds is not None else f"pairs {spans(sorted(i for i, _s, _t in pairs))}"
    return (f"| {variant} | {a} vs {b} | {len(scores)} | {mean:+.3f} {unit} [{mean - half:+.3f}, {mean + half:+.3f}] "
            f"| {timing}{f' (strong over budget + 20 %: {over} of {len(strong)})' if strong else ''} "
            f"| {took} |")


def spans(indices: list[int]) -> str:
    """``0–399, 800–999``: the (sorted) pair indices, as ranges."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def measure(variant: str, matchup: str, args: argparse.Namespace) -> str:
    a, b = matchup.split("-")
    chunk = max(1, min(25, args.pairs // (4 * args.workers) or 1))
    end = args.first_pair + args.pairs
    jobs = [(variant, a, b, args.seed, s, min(chunk, end - s), args.budget_ms, args.playouts)
            for s in range(args.first_pair, end, chunk)]
    t0 = time.perf_counter()
    key = settings_of(variant, matchup, args)
    pairs: list[Pair] = []

    def keep(done: list[Pair]) -> None:
        """A chunk's pairs, recorded as it comes back (a run stopped half-way keeps what it played)."""
        pairs.extend(done)
        if args.record:
            with opened(args.record, "at") as f:
                for i, score, tm in done:
                    f.write(json.dumps({**key, "pair": i, "score": score,
                                        "times_ms": {k: [round(t * 1000, 2) for t in v] for k, v in tm.items()}})
                            + "\n")

    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for done in pool.imap_unordered(run_pairs, jobs):
                keep(done)
    else:
        for job in jobs:
            keep(run_pairs(job))
    return row(key, pairs, time.perf_counter() - t0)


def opened(path: str, mode: str) -> IO[str]:
    """A records file, gzip-compressed when its name ends in ``.gz`` (appending adds a gzip member)."""
    if path.endswith(".gz"):
        return cast(IO[str], gzip.open(path, mode, encoding="utf-8"))
    return open(path, mode, encoding="utf-8")


def report(paths: list[str]) -> list[str]:
    """The table of every recorded pair, one line per measurement; a pair index recorded twice for the same
    measurement is counted once (the first record)."""
    measurements: dict[str, dict[int, Pair]] = {}
    keys: dict[str, dict[str, Any]] = {}
    for path in paths:
        with opened(path, "rt") as f:
            for line in f:
                if not line.strip():
                    continue
                rec = json.loads(line)
                key = {k: rec[k] for k in ("variant", "matchup", "seed", "budget_ms", "playouts", "confidence")}
                name = json.dumps(key, sort_keys=True)
                keys[name] = key
                times = {k: [t / 1000 for t in v] for k, v in rec["times_ms"].items()}
                measurements.setdefault(name, {}).setdefault(int(rec["pair"]), (int(rec["pair"]), rec["score"], times))
    return [row(keys[name], list(pairs.values()), None) for name, pairs in measurements.items()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pairs", type=int, default=2000, help="hand pairs per measurement (default 2,000)")
    p.add_argument("--only", nargs="*", choices=VARIANTS, default=list(VARIANTS))
    p.add_argument("--matchups", nargs="*", choices=MATCHUPS, default=list(MATCHUPS))
    p.add_argument("--seed", type=int, default=32)
    p.add_argument("--budget-ms", type=float, default=200.0, help="the strong bot's time per decision (default 200)")
    p.add_argument("--playouts", type=int, default=24, help="the strong bot's deals per decision at most (default 24)")
    p.add_argument("--confidence", type=float, default=bot_search.CONFIDENCE,
                   help=f"standard errors a search candidate must win by (default {bot_search.CONFIDENCE:g})")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (2 at most)")
    p.add_argument("--first-pair", type=int, default=0, help="the first pair's index (default 0)")
    p.add_argument("--record", metavar="FILE", help="append each pair played to FILE (JSON lines)")
    p.add_argument("--report", metavar="FILE", nargs="+", help="play nothing: the table of the pairs in FILE …")
    args = p.parse_args(argv)
    if args.report:
        print("| variant | A vs B | pairs | A's mean a hand [95 % CI] | decision ms p50/p95/max | pairs recorded |")
        print("|---|---|---|---|---|---|")
        for line in report(args.report):
            print(line)
        return 0
    args.workers = max(1, min(2, args.workers))
    bot_search.CONFIDENCE = args.confidence  # read by each search the workers (forked) make
    print(f"bots, duplicate pairs (seed {args.seed}); strong bot: {args.budget_ms:g} ms and at most "
          f"{args.playouts} deals a decision, confidence {args.confidence:g}; {args.workers} worker(s); load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| variant | A vs B | pairs | A's mean a hand [95 % CI] | decision ms p50/p95/max | time |")
    print("|---|---|---|---|---|---|")
    for variant in args.only:
        for matchup in args.matchups:
            print(measure(variant, matchup, args), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
