"""The whole test session: the engine's compiled build (``make compiled``, docs/engine.md), if one is in place.

A stale build stops the session before it starts, naming the modules: Python imports an extension
module before the ``.py`` file beside it, so the tests would run the old code. A current build is
tested as it is; its modules are left out of ``--doctest-modules`` (pytest would import the ``.py``
file beside the extension module it imported, and doctest finds no example in compiled functions).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("build_compiled", ROOT / "scripts" / "build_compiled.py")
assert _spec is not None and _spec.loader is not None
build_compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_compiled)

COMPILED = {ROOT / m for m in build_compiled.compiled_modules()}


def pytest_configure(config: pytest.Config) -> None:
    stale = build_compiled.stale_modules()
    if stale:
        raise pytest.UsageError(build_compiled.stale_message(stale))


def pytest_report_header(config: pytest.Config) -> str | None:
    if not COMPILED:
        return None
    return (f"compiled build in place: {len(COMPILED)} engine modules run compiled, their doctests left out "
            "(`make clean-compiled` for pure Python)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    return True if collection_path in COMPILED else None
