"""config/collector.py: the serving process freezes its loaded code out of the collector's walks once."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from config import collector


@pytest.fixture
def fresh_collector() -> Iterator[None]:
    """The process's collector as Python left it, and back afterwards (the freeze is process-wide)."""
    frozen = gc.get_freeze_count()
    threshold = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    if frozen:
        gc.freeze()


def test_tune_freezes_the_loaded_site_and_raises_the_first_threshold(fresh_collector: None, settings) -> None:
    settings.GC_GEN0_THRESHOLD = 12_345
    assert collector.tune() is True
    assert gc.get_threshold() == (12_345, 10, 10)
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the site's code: tens of thousands of functions, types, dicts
    assert collector.tune() is False  # once per process: nothing more is frozen
    assert gc.get_freeze_count() <= frozen  # (frozen objects are still freed when nothing refers to them)


def test_tune_with_threshold_zero_leaves_python_s_collector(fresh_collector: None, settings) -> None:
    settings.GC_GEN0_THRESHOLD = 0
    assert collector.tune() is False
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
