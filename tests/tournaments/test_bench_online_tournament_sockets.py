"""``bench/online_tournament_sockets.py`` still runs: a 4-team online elimination (2 tables) on one uvicorn
process and a throwaway SQLite file, the seats acting at once for a few seconds; its hands are recorded via
online, the hook timed and paired with a totals entry, nothing lost or doubled (the figures themselves are the
bench's business, not this test's; on SQLite the paired totals entry waits for the file's write lock). About
40 s: not marked slow, as ``tests/online/test_bench_online.py``. Twenty seconds of play: a loaded CI machine finished
no hand in six (28 actions a second; a tractor hand is about 110 actions a table)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_online_tournament_sockets_two_tables() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "online_tournament_sockets.py"), "--sqlite", "--teams", "4",
         "--seconds", "20", "--think-ms", "0", "--idle-seconds", "2", "--floor-seconds", "1", "--deadline", "150"],
        cwd=ROOT, capture_output=True, text=True, timeout=200)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "lost 0, doubled 0" in out, out
    plays = re.search(r"play, 2 tables live.*\(n=(\d+)\)", out)
    assert plays is not None and int(plays.group(1)) > 0, out
    hands = re.search(r"recorded via online (\d+) \((\d+) with the room's log\).*the hook ran (\d+)×, (\d+) paired", out)
    assert hands is not None and int(hands.group(1)) > 0, out
    assert hands.group(1) == hands.group(2) == hands.group(3) and int(hands.group(4)) > 0, out
    floor = re.search(r"floor \(a 1700 B frame .*p50 [\d.]+ p95 [\d.]+ ms \(n=(\d+)\); play p95 [\d.]+× the floor", out)
    assert floor is not None and int(floor.group(1)) > 0, out
    assert re.search(r"public pages .*idle p50 [\d.]+ .*live p50 [\d.]+ .*failed 0", out), out
