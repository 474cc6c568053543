"""The engine core imports no Django (STYLE.md: dependencies point one way)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORE = ["gameplay", "gameplay.cards", "gameplay.errors", "gameplay.rulesets", "gameplay.order", "gameplay.combos",
        "gameplay.legality", "gameplay.tricks", "gameplay.referee", "gameplay.bench"]


def test_core_modules_import_without_django() -> None:
    code = (
        "import os, sys\n"
        "os.environ.pop('DJANGO_SETTINGS_MODULE', None)\n"
        f"for m in {CORE!r}: __import__(m)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_bench_runs_on_a_few_deals(tmp_path: Path) -> None:
    """Smoke test of ``python -m gameplay.bench`` on three deals (figures are not asserted)."""
    import json

    root = Path(__file__).resolve().parents[2]
    deals = json.loads((root.parent / "shared/bench/deals.json").read_text("utf-8")) if (
        root.parent / "shared/bench/deals.json").exists() else None
    path = tmp_path / "deals.json"
    if deals is None:
        deals = {"deals": [{"trump": "H", "level": "2", "hands": [
            "SA SK SQ SJ S10 S9 S8", "HA HK HQ HJ H10 H9 H8", "CA CK CQ CJ C10 C9 C8", "DA DK DQ DJ D10 D9 D8"]}]}
    path.write_text(json.dumps({"deals": deals["deals"][:3]}), "utf-8")
    out = subprocess.run([sys.executable, "-m", "gameplay.bench", "--deals", str(path), "--count", "3"],
                         cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tractor" in out.stdout and "yongzhou-300 3 players" in out.stdout
