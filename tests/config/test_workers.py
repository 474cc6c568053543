"""The production worker (``-k config.workers.Worker``, README) serves WebSocket frames uncompressed: a client that
offers permessage-deflate is answered without it, where gunicorn's plain uvicorn worker would take it up."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

from config.workers import UVICORN, Worker
from tests.config.test_server_logging import ROOT, free_port

ECHO_APP = '''
async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            await send({"type": message["type"] + ".complete"})
            if message["type"] == "lifespan.shutdown":
                return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": message["text"]})
'''


def extensions_under(tmp_path: Path, worker: str) -> str | None:
    """Start gunicorn in the project folder with ``worker`` serving an echo app; connect offering
    permessage-deflate (the client's default), send a state-sized frame; answer the handshake's
    ``Sec-WebSocket-Extensions`` (the frame must come back whole either way)."""
    (tmp_path / "echo_app.py").write_text(ECHO_APP, encoding="utf-8")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "echo_app:app", "--pythonpath", str(tmp_path), "-k", worker,
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--no-control-socket", "--access-logfile", "/dev/null"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                ws = connect(f"ws://127.0.0.1:{port}/ws/", compression="deflate", open_timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("gunicorn did not answer")
                time.sleep(0.2)
        with ws:
            offered = ws.request.headers.get("Sec-WebSocket-Extensions") if ws.request else None
            assert offered is not None and "permessage-deflate" in offered  # the client did offer it
            answered = ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
            text = '{"type": "state", "hand": ' + '"♠A ♥10 "' * 150 + "}"
            ws.send(text)
            echoed = ws.recv(timeout=10)
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert echoed == text
    return answered


def test_the_sites_worker_declines_permessage_deflate(tmp_path: Path) -> None:
    answered = extensions_under(tmp_path, "config.workers.Worker")
    assert answered is None


def test_the_plain_uvicorn_worker_would_take_it_up(tmp_path: Path) -> None:
    """What the site's worker changes: without it the server compresses every frame."""
    answered = extensions_under(tmp_path, "uvicorn_worker.UvicornWorker")
    assert answered is not None and "permessage-deflate" in answered


def test_the_worker_keeps_the_uvicorn_workers_loop_and_http_choices() -> None:
    assert Worker.CONFIG_KWARGS["ws_per_message_deflate"] is False and UVICORN["ws_per_message_deflate"] is False
    assert Worker.CONFIG_KWARGS["loop"] == "auto" and Worker.CONFIG_KWARGS["http"] == "auto"
