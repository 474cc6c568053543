"""Measure one source tree's rules engine on a fixed workload; print the figures as JSON.

    python bench/engine_driver.py --tree DIR --workload FILE [--passes 3]

Used by ``python -m gameplay.bench --compare REV`` to time today's tree and an older revision
(unpacked with ``git archive``) on the same work, each in its own interpreter. The tree's
``gameplay`` package is imported from ``--tree`` by path, and only through functions every
revision since the benchmark began has (``decompose``, ``classify``, ``is_legal_follow``,
``decide_trick``, ``simulate_hands``), so an old revision needs no ``--json`` mode of its own.

The workload file (written by ``gameplay.bench``) holds card strings, not codes: deals (level,
trump, four hands), leads, follows to check and complete tricks to decide, and the whole hands to
play (variant, options, bots, seed, count). Each measure is timed over all its items, the best of
``--passes`` passes after an untimed warm-up pass, with the garbage collector paused while timing,
on both the wall clock and this process's CPU clock; figures are µs per item (whole hands: µs per
hand, the best of ``--passes`` passes over the same seeded hands, the garbage collector running).
``digest`` is a hash of the whole-hand results, to compare trees.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any


def _best(fn: Any, count: int, passes: int, min_pass: float = 0.02) -> dict[str, float]:
    """Best of ``passes`` timed passes after one untimed warm-up pass (caches filled, code paths
    taken once), with the garbage collector paused while timing: otherwise a collection lands in
    some passes and not others, and a tree that allocates more pays for the other's garbage too.

    As :mod:`timeit`'s autorange does, a pass repeats ``fn`` until it runs at least ``min_pass``
    seconds (the repeat count fixed from the warm-up pass): a measure of a few dozen items (the 23
    tractor leads) is otherwise a pass of a tenth of a millisecond, dominated by the first touch of
    its data after the collection. ``reps`` in the result says how often ``fn`` ran per pass."""
    wall = cpu = float("inf")
    pc, pt = time.perf_counter, time.process_time
    w0 = pc()
    fn()
    once = pc() - w0
    reps = max(1, min(1000, int(min_pass / once) + 1)) if once < min_pass else 1
    for _ in range(passes):
        gc.collect()
        gc.disable()
        try:
            w0, c0 = pc(), pt()
            for _ in range(reps):
                fn()
            w, c = pc() - w0, pt() - c0
        finally:
            gc.enable()
        wall, cpu = min(wall, w), min(cpu, c)
    n = max(count, 1) * reps
    return {"wall": wall * 1e6 / n, "cpu": cpu * 1e6 / n, "n": count, "reps": reps}


def run(tree: Path, workload: dict[str, Any], passes: int) -> dict[str, Any]:
    sys.path.insert(0, str(tree))
    import gameplay
    from gameplay.cards import parse_cards, to_counts
    from gameplay.combos import classify, decompose
    from gameplay.legality import is_legal_follow
    from gameplay.order import Context
    from gameplay.rulesets import ruleset
    from gameplay.tricks import decide_trick

    where = Path(gameplay.__file__).resolve()
    if tree.resolve() not in where.parents:
        raise SystemExit(f"gameplay imported from {where}, not from {tree}")
    rules = ruleset("tractor")
    ctxs = []
    hands: list[list[int]] = []
    for d in workload["deals"]:
        ctxs.append(Context(rules, d["level"], d["trump"]))
        hands.extend(parse_cards(h) for h in d["hands"])
    out: dict[str, Any] = {"tree": str(tree)}

    def floor() -> None:
        for h in hands:
            sorted(h)

    out["floor"] = _best(floor, len(hands), passes)
    hctx = [ctxs[i // 4] for i in range(len(hands))]

    def decomp() -> None:
        for ctx, h in zip(hctx, hands, strict=True):
            decompose(ctx, h)

    out["decompose"] = _best(decomp, len(hands), passes)

    leads = [(ctxs[x["deal"]], parse_cards(x["cards"]), x["shape"]) for x in workload["leads"]]
    for shape in (None, "single", "pair", "tractor", "throw"):
        items = [(c, cards) for c, cards, s in leads if shape is None or s == shape]

        def cls(items: list[Any] = items) -> None:
            for ctx, cards in items:
                classify(ctx, cards)

        out["classify" if shape is None else f"classify:{shape}"] = _best(cls, len(items), passes)

    follows = []
    for x in workload["follows"]:
        ctx = ctxs[x["deal"]]
        follows.append((ctx, to_counts(parse_cards(x["hand"])), classify(ctx, parse_cards(x["lead"])),
                        parse_cards(x["play"]), [parse_cards(p) for p in x["prior"]]))

    def check() -> None:
        for ctx, counts, lead, play, prior in follows:
            is_legal_follow(ctx, counts, lead, play, prior=prior)

    out["check"] = _best(check, len(follows), passes)
    out["check_answers"] = hashlib.sha256(repr([is_legal_follow(c, h, ld, p, prior=pr)
                                                for c, h, ld, p, pr in follows]).encode()).hexdigest()[:16]

    tricks = []
    for x in workload["tricks"]:
        ctx = ctxs[x["deal"]]
        tricks.append((ctx, classify(ctx, parse_cards(x["lead"])), [parse_cards(p) for p in x["table"]],
                       x["leader"]))

    def decide() -> None:
        for ctx, lead, table, leader in tricks:
            decide_trick(ctx, lead, table, leader)

    out["decide"] = _best(decide, len(tricks), passes)

    from gameplay.simulate import simulate_hands

    digest = hashlib.sha256()
    for job in workload["hands"]:
        wall = cpu = float("inf")
        for _ in range(passes):  # the same seeded hands each pass: the best pass is the least disturbed
            w0, c0 = time.perf_counter(), time.process_time()
            recs = simulate_hands(job["variant"], job["seed"], 0, job["count"], job["bots"], **job["kw"])
            wall, cpu = min(wall, time.perf_counter() - w0), min(cpu, time.process_time() - c0)
        n = max(job["count"], 1)
        out[f"hands:{job['label']}:{job['bots'][0]}"] = {"wall": wall * 1e6 / n, "cpu": cpu * 1e6 / n,
                                                         "n": job["count"]}
        digest.update(repr(recs).encode())
    out["digest"] = digest.hexdigest()[:16]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", required=True, help="root of the source tree to import gameplay from")
    parser.add_argument("--workload", required=True, help="workload JSON written by gameplay.bench")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    workload = json.loads(Path(args.workload).read_text(encoding="utf-8"))
    print(json.dumps(run(Path(args.tree), workload, args.passes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
