"""Simulation: seeded runs, the summary, the ``simulate`` command, and Celery fan-out via a real worker."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from gameplay.simulate import DeferredRandom, simulate_hand, simulate_hands, simulate_match, summarize


def test_runs_are_reproducible_and_independent_of_chunking() -> None:
    whole = simulate_hands("tractor", 3, 0, 6, ["heuristic", "random"])
    parts = simulate_hands("tractor", 3, 0, 2, ["heuristic", "random"]) + simulate_hands(
        "tractor", 3, 2, 4, ["heuristic", "random"])
    assert whole == parts
    assert simulate_hand("red-five", 3, 1, ["random"]) == simulate_hand("red-five", 3, 1, ["random"])


_DRAWS = {
    "randrange": lambda r: r.randrange(1000), "random": lambda r: r.random(), "choice": lambda r: r.choice("abcdefg"),
    "sample": lambda r: r.sample(range(40), 5), "shuffle": lambda r: (x := list(range(20)), r.shuffle(x), x)[2],
    "getstate": lambda r: r.getstate(), "getrandbits": lambda r: r.getrandbits(70), "gauss": lambda r: r.gauss(),
}


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.sampled_from(sorted(_DRAWS)), min_size=1, max_size=12))
def test_a_deferred_generator_draws_what_a_seeded_one_does(seed: int, draws: list[str]) -> None:
    deferred, seeded = DeferredRandom(seed), random.Random(seed)
    assert type(deferred) is DeferredRandom  # not seeded until drawn from
    assert [_DRAWS[d](deferred) for d in draws] == [_DRAWS[d](seeded) for d in draws]
    assert type(deferred) is random.Random


def test_summary_lines_per_variant() -> None:
    for variant, kw in (("tractor", {}), ("red-five", {"decks": 3}), ("yongzhou-300", {"players": 3})):
        recs = simulate_hands(variant, 1, 0, 4, ["heuristic", "random"], **kw)
        text = "\n".join(summarize(variant, recs, 0.5).lines())
        assert "4 hands" in text and "average tricks" in text and "heuristic" in text


def test_match_runs_to_a_winner() -> None:
    m = simulate_match("tractor", 1, 0, ["heuristic", "random"])
    assert m["winner"] in (0, 1) and m["hands"] >= 3 and m["levels"] is not None


def test_command_prints_the_summary_in_process(tmp_path: Path, settings: Any) -> None:
    """Without a broker ``--jobs`` runs in-process (CI sets a broker: this test takes it away)."""
    settings.CELERY_BROKER_URL = None
    out, err = io.StringIO(), io.StringIO()
    log = tmp_path / "hands.jsonl"
    call_command("simulate", "--variant", "tractor", "--hands", "12", "--seed", "7", "--bots", "heuristic,random",
                 "--jobs", "3", "--log", str(log), stdout=out, stderr=err)
    text = out.getvalue()
    assert "run in-process" in text and "12 hands" in text and "level changes" in text
    assert "/s)" in text and "12/12" in err.getvalue()
    lines = log.read_text("utf-8").splitlines()
    assert len(lines) == 12
    from gameplay.notation import replay

    assert replay(json.loads(lines[0])).finished


def test_command_match_and_errors() -> None:
    out = io.StringIO()
    call_command("simulate", "--variant", "tractor", "--hands", "2", "--match", "--no-progress", stdout=out)
    assert "hands per match: mean" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("simulate", "--variant", "red-five", "--hands", "2", "--match", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("simulate", "--bots", "clever", "--hands", "2", stdout=io.StringIO())


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_fan_out_through_a_real_worker(celery_worker: Any) -> None:
    from config.celery_app import app

    assert app.conf.task_always_eager is False
    out = io.StringIO()
    call_command("simulate", "--variant", "red-five", "--hands", "8", "--seed", "5", "--bots", "heuristic,random",
                 "--jobs", "2", "--no-progress", stdout=out)
    text = out.getvalue()
    assert "2 Celery tasks" in text and "8 hands" in text
    local = simulate_hands("red-five", 5, 0, 8, ["heuristic", "random"])
    from rules_web.tasks import simulate_chunk

    remote = simulate_chunk.delay("red-five", 5, 8, ["heuristic", "random"]).get(timeout=60)
    assert remote["records"] == json.loads(json.dumps(local))


def test_the_simulation_task_keeps_its_registered_name() -> None:
    """Workers find the task by name: ``gameplay.simulate_chunk`` stays, wherever its module lives."""
    from config.celery_app import app

    app.loader.import_default_modules()  # Celery's autodiscovery over INSTALLED_APPS
    assert app.tasks["gameplay.simulate_chunk"].__module__ == "rules_web.tasks"


def test_bench_hands_smoke(tmp_path: Path) -> None:
    """``python -m gameplay.bench hands`` runs (figures are not asserted)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    deals = root / "bench" / "deals.json"
    args = [sys.executable, "-m", "gameplay.bench", "--count", "3"]
    small = tmp_path / "deals.json"
    small.write_text(json.dumps({"deals": json.loads(deals.read_text("utf-8"))["deals"][:3]}), "utf-8")
    args += ["--deals", str(small)]
    out = subprocess.run([*args, "hands", "--hands", "3", "--play-deals", "3"], cwd=root, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "tractor" in out.stdout and "heuristic" in out.stdout and "yongzhou-300 3 players" in out.stdout
