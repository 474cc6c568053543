"""The clean-up is a registry: safety runs its own step and those the apps register from ready(),
and imports nothing of the apps above it."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from safety import cleanup
from tests.test_import_cycles import edges
from tournaments.services.pdf_cache import pdf_store_cleanup
from tournaments.services.print_jobs import print_jobs_cleanup

ABOVE_SAFETY = ("config", "tournaments", "rules_web", "gameplay", "scoring", "variants")


def test_the_tournaments_app_registers_its_steps_from_ready() -> None:
    assert list(cleanup.STEPS)[:1] == ["idempotency_keys"]
    assert cleanup.STEPS["print_jobs"] is print_jobs_cleanup
    assert cleanup.STEPS["pdf_renders"] is pdf_store_cleanup


def test_every_registered_step_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = {"first": lambda: 2, "second": lambda: 0}
    monkeypatch.setattr(cleanup, "STEPS", dict(steps))
    cleanup.register("third", lambda: 5)
    assert cleanup.run_cleanup() == {"first": 2, "second": 0, "third": 5}


def test_a_name_taken_by_another_step_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def step() -> int:
        return 0

    monkeypatch.setattr(cleanup, "STEPS", {})
    cleanup.register("files", step)
    cleanup.register("files", step)  # ready() run twice: harmless
    with pytest.raises(ValueError, match="files"):
        cleanup.register("files", lambda: 1)
    assert cleanup.STEPS == {"files": step}


@pytest.mark.django_db
def test_manage_py_cleanup_runs_every_step() -> None:
    stdout = io.StringIO()
    call_command("cleanup", stdout=stdout)
    out = stdout.getvalue()
    assert all(name in out for name in ("idempotency_keys", "print_jobs", "pdf_renders")), out


def test_safety_imports_nothing_above_it() -> None:
    upward = {name: sorted(t for t in targets if t.split(".")[0] in ABOVE_SAFETY)
              for name, targets in edges().items() if name.split(".")[0] == "safety"}
    assert not {name: found for name, found in upward.items() if found}
