"""The ASGI server's settings for this site, and gunicorn's worker class that applies them (README, production).

**WebSocket frames are sent uncompressed** (``ws_per_message_deflate`` off). uvicorn offers permessage-deflate by
default: every frame a socket sends or receives goes through its own zlib stream. A table's state is about
1.7 KB of JSON sent to four seats an action, so compressing it saves little on the wire; but each zlib call
lets go of the interpreter's lock, and while the table threads (``online/threads.py``) are busy the event
loop then waits for it back, up to the switch interval, several times an action. Measured on 200 rooms
(``bench/online.py``, one process, the same hour, alternating): p50 11.8 and 19.4 ms without against 15.0 and
32.8 ms with, and the server's memory a room 125 KiB against 270 KiB (each socket's two zlib streams).
The tournaments' live pages take the same setting; their frames are small.

``gunicorn config.asgi:application -k config.workers.Worker``; uvicorn alone: ``--ws-per-message-deflate false``.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker

__all__ = ["UVICORN", "Worker"]

UVICORN: dict[str, Any] = {"ws_per_message_deflate": False}
"""uvicorn's settings for the site (``uvicorn.Config`` keyword arguments) beyond its defaults."""


class Worker(UvicornWorker):
    """gunicorn's uvicorn worker with the site's settings (:data:`UVICORN`)."""

    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, **UVICORN}
