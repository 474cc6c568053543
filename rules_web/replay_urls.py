"""URL of the replay page (``/replay/``).

``urlpatterns`` is built on first access (PEP 562), so importing this module does not import Django.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "urlpatterns":
        from django.urls import path

        from rules_web import replay_views

        patterns = [path("replay/", replay_views.replay_page, name="replay")]
        globals()["urlpatterns"] = patterns
        return patterns
    raise AttributeError(name)
