"""The ASGI lifespan of the site (``config/asgi.py``): when a server process starts, online play takes up
what a process that died left behind, before any client connects (docs/online.md, "Durable").

On the embedded default (no broker: in-process timers) the startup records the server's event loop for
the timers (:func:`online.scheduling.remember_loop`), takes back the sockets a dead process still counted
(:func:`online.presence.process_started`) and arms the stored deadlines again (:func:`online.scheduling.rearm`):
a table of bots killed mid-hand plays on by itself. With a broker both do nothing (the periodic
``online.sweep`` does it). Servers without the lifespan protocol (daphne's ``runserver``) do the same on
the first WebSocket connection (``online.consumers``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async

__all__ = ["lifespan", "startup"]

log = logging.getLogger(__name__)


async def startup() -> None:
    from online import presence, scheduling

    scheduling.remember_loop(asyncio.get_running_loop())
    await database_sync_to_async(presence.process_started)()
    await database_sync_to_async(scheduling.rearm)()


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI lifespan application: :func:`startup` on ``lifespan.startup`` (a failure is logged, never
    keeps the server from serving)."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await startup()
            except Exception:
                log.exception("online play's startup failed (stored deadlines wait for the first connection)")
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
