"""A Celery app for the worker-killed test: the project's app plus one slow task that notes each start.

Run by ``celery -A tests.proof.slow_tasks worker`` in tests/proof/test_faults.py; not imported by the site.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from config.celery_app import app

__all__ = ["app", "slow_marker"]


@app.task(name="proof.slow_marker", acks_late=True)
def slow_marker(path: str, seconds: float) -> int:
    """Append this process's pid to ``path`` (one line per start), sleep, then write ``done``."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"start {os.getpid()}\n")
    time.sleep(seconds)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("done\n")
    return len(Path(path).read_text(encoding="utf-8").splitlines())
