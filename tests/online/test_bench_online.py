"""``bench/online.py`` still runs: one room, one uvicorn process, a throwaway SQLite file, a few seconds of
play (the figures themselves are the bench's business, not this test's). About 10 s: not marked slow."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_online_one_room() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "online.py"), "--sqlite", "--configs", "one", "--rooms", "1",
         "--seconds", "4", "--floor-seconds", "1", "--deadline", "120", "--think-ms", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    row = next(ln for ln in done.stdout.splitlines() if ln.startswith("one "))
    assert "lost 0 doubled 0" in row, done.stdout
    plays = re.search(r"n=\s*(\d+)", row)
    assert plays is not None and int(plays.group(1)) > 0, row
    floor = re.search(r"floor p50\s+([\d.]+)", row)
    assert floor is not None, row
