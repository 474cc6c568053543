"""``bench/bots.py`` gathers a measurement over several runs: ``--first-pair`` and ``--record`` append each pair
played, ``--report`` prints the table of everything recorded with each pair counted once (issue 32: 2,000
strong pairs do not fit in one session)."""

from __future__ import annotations

import gzip
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import bots  # noqa: E402

ARGS = ["--only", "tractor", "--matchups", "easy-random", "--workers", "1"]


def test_runs_recorded_apart_report_as_one_measurement(tmp_path: Path, capsys: Any) -> None:
    record = tmp_path / "pairs.jsonl.gz"  # compressed, appended run after run
    assert bots.main([*ARGS, "--pairs", "2", "--record", str(record)]) == 0
    first = capsys.readouterr().out
    assert re.search(r"\| tractor \| easy vs random \| 2 \|", first), first
    # the next run overlaps pair 1: it is recorded again, and counted once
    assert bots.main([*ARGS, "--pairs", "3", "--first-pair", "1", "--record", str(record)]) == 0
    capsys.readouterr()
    lines = [json.loads(x) for x in gzip.decompress(record.read_bytes()).decode().splitlines()]
    assert [x["pair"] for x in lines] == [0, 1, 1, 2, 3]
    assert lines[1]["score"] == lines[2]["score"]  # the same seeded deals: the same pair
    assert all(x["times_ms"]["easy"] and x["times_ms"]["random"] for x in lines)
    assert bots.main(["--report", str(record)]) == 0
    out = capsys.readouterr().out
    rows = [x for x in out.splitlines() if x.startswith("| tractor |")]
    assert len(rows) == 1, out
    unique = {x["pair"]: x["score"] for x in reversed(lines)}
    mean = statistics.fmean(unique.values())
    assert f"| 4 | {mean:+.3f} level margin" in rows[0] and "pairs 0–3" in rows[0], rows[0]
    # another setting (a seed) is another measurement
    assert bots.main([*ARGS, "--pairs", "1", "--seed", "5", "--record", str(record)]) == 0
    capsys.readouterr()
    assert bots.main(["--report", str(record)]) == 0
    assert len([x for x in capsys.readouterr().out.splitlines() if x.startswith("| tractor |")]) == 2
