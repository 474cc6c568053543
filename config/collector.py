"""The serving process's garbage collector (``config/asgi.py``), tuned for live tables.

Python's cyclic collector walks every tracked object of the generations it collects, holding the
interpreter's lock: in a process serving 200 tables (about 300,000 objects: most of them the code of Django,
the engine and the site) a full collection stopped every table for 200–300 ms, and one came every ten
seconds or so, because each action's new table state outlives the young generations. bench/online.py at
200 rooms measured play latency p50/p95 of 59–82/183–351 ms with Python's defaults against 24/99 ms with
this tuning. Two measures, once per process, when the site is loaded:

* everything loaded at start (the modules, their functions and types, the URL patterns) is moved to the
  permanent generation (``gc.freeze()``): collections no longer walk it. Those objects are still freed by
  reference counting; only a reference cycle among them would never be collected, and the code of a
  process is not garbage;
* the youngest generation is collected after ``GC_GEN0_THRESHOLD`` allocations (Python's default is 700):
  an action's temporary objects die before a collection sees them, so fewer reach the older generations and
  full collections become rare.

``GC_GEN0_THRESHOLD=0`` leaves Python's collector as it is.
"""

from __future__ import annotations

import gc

from django.conf import settings

__all__ = ["tune"]


def tune() -> bool:
    """Load the site's code, freeze it out of the collector's walks and raise the first threshold; answers
    whether anything was changed (once per process)."""
    threshold = int(getattr(settings, "GC_GEN0_THRESHOLD", 0))
    if threshold <= 0 or gc.get_freeze_count():
        return False
    from django.urls import get_resolver

    import online.consumers  # noqa: F401  (the table's code: the services, the engine, the variants)

    get_resolver().url_patterns  # noqa: B018  (imports every view module behind the URLs)
    gc.collect()
    gc.freeze()
    _first, second, third = gc.get_threshold()
    gc.set_threshold(threshold, second, third)
    return True
