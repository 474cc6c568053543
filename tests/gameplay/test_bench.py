"""``python -m gameplay.bench --compare REV``: today's tree against a git revision, same workload.

Figures are printed, never asserted (the machine is shared); these tests check that both trees run,
in their own interpreters, and that the table carries both columns, the ratio and the floor.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from gameplay import bench

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--compare", "HEAD", "--sample", "3", "--rounds", "2", "--passes", "1", "--hands", "1", "--tractor-only"]


def _run(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gameplay.bench", *ARGS, *extra], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_the_benchmark_deals_are_in_the_repository() -> None:
    assert bench.DEFAULT_DEALS == ROOT / "bench" / "deals.json"
    deals = json.loads(bench.DEFAULT_DEALS.read_text("utf-8"))["deals"]
    assert len(deals) == 1000 and all(len(d["hands"]) == 4 for d in deals)
    assert all(len(h.split()) == 25 for d in deals for h in d["hands"])


def test_compare_head_prints_both_columns_and_their_ratio() -> None:
    out = _run()
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "against HEAD" in lines[0] and "median of 2 interleaved rounds" in lines[0]
    header = next(line for line in lines if line.startswith("measure"))
    assert header.split() == ["measure", "today", "HEAD", "ratio", "today", "HEAD", "ratio", "×floor"]
    rows = {}
    for line in lines:
        m = re.match(r"^(\S+) \((\d+)\)\s+(.*)$", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), m.group(3).split())
    for measure, count in (("floor", 12), ("decompose", 12), ("classify", 3), ("check", 9), ("decide", 3),
                           ("hands:tractor:random", 1), ("hands:tractor:heuristic", 1)):
        n, cells = rows[measure]
        assert n == count, measure
        assert len(cells) == 7 and cells[2].endswith("×") and cells[5].endswith("×"), (measure, cells)
        assert float(cells[0]) > 0 and float(cells[1]) > 0 and float(cells[3]) > 0 and float(cells[4]) > 0
    assert float(rows["floor"][1][6]) == 1.0
    # HEAD and today's tree play the same rules: the same hands and the same follow answers
    assert "whole-hand results identical: yes; follow answers identical: yes" in out.stdout


def test_compare_json_has_every_round_of_both_trees() -> None:
    out = _run("--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert re.fullmatch(r"[0-9a-f]{40}", data["revision"])
    assert [len(data["rounds"][side]) for side in ("today", "rev")] == [2, 2]
    assert Path(data["rounds"]["today"][0]["tree"]) == ROOT
    assert Path(data["rounds"]["rev"][0]["tree"]) != ROOT
    for side in ("today", "rev"):
        med = data["median"][side]
        assert set(med) >= {"floor", "decompose", "classify", "classify:single", "check", "decide",
                            "hands:tractor:random", "hands:tractor:heuristic"}
        assert all(med[k]["cpu"] >= 0 and med[k]["wall"] > 0 for k in med)
    assert data["same"] == {"digest": True, "check_answers": True}
