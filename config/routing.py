"""Every WebSocket route of the site, for ``config/asgi.py``: the live pages of tournaments
(``ws/live/…``, docs/tournaments.md "Live pages") and online play's tables (``ws/play/…``, docs/online.md)."""

from __future__ import annotations

from typing import Any

from online.routing import websocket_urlpatterns as online_patterns
from tournaments.routing import websocket_urlpatterns as tournament_patterns

websocket_urlpatterns: list[Any] = [*tournament_patterns, *online_patterns]
