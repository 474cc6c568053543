"""The web servers' access logs mask table tokens like Django's logs do: gunicorn reads gunicorn.conf.py
(and through it config/server_logging.json) by default; uvicorn takes the same JSON as its log config."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "config" / "server_logging.json"
TOKEN, VENUE, INVITE = "Zq9-secretTableToken_42", "VenueSecret77", "InviteSecret88"

HELLO_APP = '''
def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_config_masks_every_handler_and_both_access_loggers() -> None:
    config = json.loads(CONFIG.read_text(encoding="utf-8"))
    assert config["filters"]["mask_secrets"]["()"] == "config.logging_filters.MaskSecretsFilter"
    for name, handler in config["handlers"].items():
        assert "mask_secrets" in handler.get("filters", []), name
    for name in ("gunicorn.access", "uvicorn.access"):
        assert config["loggers"][name]["handlers"] and config["loggers"][name]["propagate"] is False


def test_gunicorn_started_in_the_project_folder_writes_an_access_log_without_tokens(tmp_path: Path) -> None:
    """A real gunicorn, started as the README says (no ``-c``: it finds gunicorn.conf.py), serves a
    table link, a venue link with ``?token=`` and a Referer holding an invitation link."""
    (tmp_path / "hello_app.py").write_text(HELLO_APP, encoding="utf-8")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "hello_app:app", "--pythonpath", str(tmp_path),
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--no-control-socket"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{TOKEN}/", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("gunicorn did not answer")
                time.sleep(0.2)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v/{VENUE}/?token={TOKEN}&x=1",
                                         headers={"Referer": f"https://scores.example.org/invite/{INVITE}/"})
        urllib.request.urlopen(request, timeout=5).read()
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
    assert "GET /t/***/ HTTP/1.1\" 200" in out, out + err
    assert "GET /v/***/?token=***&x=1 HTTP/1.1\" 200" in out and "/invite/***/" in out, out
    for secret in (TOKEN, VENUE, INVITE):
        assert secret not in out + err


UVICORN_SCRIPT = '''
import json, logging, logging.config, sys
logging.config.dictConfig(json.load(open(sys.argv[1])))
args = ("127.0.0.1:5000", "GET", "/t/{token}/?token={token}", "1.1", 200)
# uvicorn's own access line: uvicorn.protocols.http logs it so
logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', *args)
# gunicorn -k uvicorn.workers.UvicornWorker: uvicorn's loggers get gunicorn's handlers
access = logging.getLogger("uvicorn.access")
access.filters.clear()
access.handlers = logging.getLogger("gunicorn.access").handlers
access.info('%s - "%s %s HTTP/%s" %d', *args)
logging.getLogger("uvicorn.error").warning("Invalid HTTP request for /v/{token}/")
'''


def test_uvicorn_with_the_same_log_config_masks_its_access_lines() -> None:
    script = textwrap.dedent(UVICORN_SCRIPT).replace("{token}", TOKEN)
    done = subprocess.run([sys.executable, "-c", script, str(CONFIG)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all('"GET /t/***/?token=*** HTTP/1.1" 200' in line for line in lines), lines
    assert "/v/***/" in done.stderr
    assert TOKEN not in done.stdout + done.stderr
