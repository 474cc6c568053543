"""Whole hands counted in machine instructions, today's tree against a git revision.

    python bench/instructions.py REV [--hands 20] [--jobs 2] [--only tractor]

Timings on a shared machine move by a fifth from one run to the next, and not always alike for the
two trees. ``valgrind --tool=callgrind`` counts the instructions the interpreter executes, which for
the same interpreter, code and seeds is the same number every run, whatever else the machine does.
Per variant and bot, each tree plays ``--hands`` seeded hands (``simulate_hands``, the same seeds as
``python -m gameplay.bench --compare``) after two untimed ones, once with and once without those
hands, under callgrind; the difference over the hands is printed per hand, for both trees, with
their ratio. An instruction is not a nanosecond (cache misses and branches differ), so this
supplements the CPU-time figures of ``--compare``; it does not replace them. Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.bench import HAND_VARIANTS, _unpack_revision  # noqa: E402

CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from gameplay.simulate import simulate_hands
variant, bot, seed, count = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
kw = {k: int(v) for k, v in (a.split("=") for a in sys.argv[6:])}
simulate_hands(variant, seed, 10_000, 2, [bot, bot], **kw)  # tables built, code paths taken once
if count:
    simulate_hands(variant, seed, 0, count, [bot, bot], **kw)
"""


def _instructions(tree: Path, variant: str, kw: dict[str, int], bot: str, seed: int, count: int) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONHASHSEED"] = "0"  # str hashes fixed: the same dict probes, the same count, every run
    args = [str(tree), variant, bot, str(seed), str(count), *(f"{k}={v}" for k, v in kw.items())]
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", CHILD, *args], cwd=tree, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {tree} ({variant} {bot}):\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="git revision to compare with (e.g. 4d83d97)")
    parser.add_argument("--hands", type=int, default=20, help="seeded hands per variant and bot")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind runs at once")
    parser.add_argument("--only", help="only the variants whose label starts with this")
    args = parser.parse_args(argv)
    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        raise SystemExit("valgrind is not installed")
    jobs = [(label, variant, kw, bot) for label, variant, kw in HAND_VARIANTS
            if not args.only or label.startswith(args.only) for bot in ("random", "heuristic")]
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as tmp:
        old = Path(tmp) / "tree"
        old.mkdir()
        sha = _unpack_revision(args.rev, old)
        runs = [(tree, job, count) for job in jobs for tree in (ROOT, old) for count in (0, args.hands)]
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            counts = list(pool.map(lambda r: _instructions(r[0], r[1][1], r[1][2], r[1][3], args.seed, r[2]), runs))
    print(f"today's tree ({ROOT}) against {args.rev} ({sha[:10]}): instructions per hand (callgrind), "
          f"{args.hands} seeded hands per variant and bot")
    print(f"{'measure':44}{'today':>12}{args.rev[:9]:>12}{'ratio':>8}")
    for i, (label, _variant, _kw, bot) in enumerate(jobs):
        base_today, today, base_rev, rev = counts[4 * i: 4 * i + 4]
        a, b = (today - base_today) / args.hands, (rev - base_rev) / args.hands
        print(f"{'hands:' + label + ':' + bot:44}{a / 1e3:11.0f}k{b / 1e3:11.0f}k{b / a:7.2f}×")
    print("ratio = revision / today (above 1: today executes fewer instructions per hand).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
