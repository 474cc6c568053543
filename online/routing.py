"""The WebSocket routes (docs/online.md): ``ws/play/<code>/`` is a room's table."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
