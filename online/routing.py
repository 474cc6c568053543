"""The WebSocket routes (docs/online.md): ``ws/play/<code>/`` is a room's table."""

from __future__ import annotations

import asyncio
from typing import Any

from django.urls import re_path

from online import scheduling
from online.consumers import TableConsumer


class _RememberLoop:
    """Records the server's event loop for the in-process timers (:func:`online.scheduling.remember_loop`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        scheduling.remember_loop(asyncio.get_running_loop())
        return await self.app(scope, receive, send)


websocket_urlpatterns: list[Any] = [
    re_path(r"^ws/play/(?P<code>[A-Za-z0-9]{4,12})/$", _RememberLoop(TableConsumer.as_asgi())),
]
