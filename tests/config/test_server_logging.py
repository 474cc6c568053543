"""The web servers' access logs mask table tokens like Django's logs do: gunicorn reads gunicorn.conf.py
(its MaskedLogger) by default; uvicorn takes config/uvicorn_logging.json as its log config, and under
gunicorn's UvicornWorker it takes gunicorn's masked handlers."""

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
UVICORN_CONFIG = ROOT / "config" / "uvicorn_logging.json"
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


def run_gunicorn(tmp_path: Path, *options: str) -> tuple[str, str]:
    """A real gunicorn started in the project folder as the README says (no ``-c``: it finds
    gunicorn.conf.py) serves a table link, then a venue link with ``?token=`` and a Referer holding an
    invitation link; answers its standard output and error."""
    (tmp_path / "hello_app.py").write_text(HELLO_APP, encoding="utf-8")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "hello_app:app", "--pythonpath", str(tmp_path),
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--no-control-socket", *options],
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
    return out, err


def assert_masked(log: str) -> None:
    assert 'GET /t/***/ HTTP/1.1" 200' in log, log
    assert 'GET /v/***/?token=***&x=1 HTTP/1.1" 200' in log and "/invite/***/" in log, log
    for secret in (TOKEN, VENUE, INVITE):
        assert secret not in log


def test_gunicorn_in_the_project_folder_writes_an_access_log_without_tokens(tmp_path: Path) -> None:
    out, err = run_gunicorn(tmp_path)
    assert_masked(out)
    assert TOKEN not in err


def test_gunicorn_options_still_choose_where_the_log_goes_and_it_stays_masked(tmp_path: Path) -> None:
    access = tmp_path / "access.log"
    out, err = run_gunicorn(tmp_path, "--access-logfile", str(access), "--log-level", "warning")
    assert_masked(access.read_text(encoding="utf-8"))
    assert "GET" not in out and "Booting worker" not in err  # the options win over gunicorn.conf.py


UVICORN_WORKER_SCRIPT = '''
import logging, runpy
from gunicorn.config import Config
cfg = Config()
for name, value in runpy.run_path("gunicorn.conf.py").items():  # as gunicorn reads its config file
    if name in cfg.settings:
        cfg.set(name, value)
log = cfg.logger_class(cfg)
# what uvicorn.workers.UvicornWorker does: uvicorn's loggers get gunicorn's handlers
for name, source in (("uvicorn.error", log.error_log), ("uvicorn.access", log.access_log)):
    logger = logging.getLogger(name)
    logger.handlers, logger.propagate = source.handlers, False
    logger.setLevel(source.level)
logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                                         "/t/{token}/?token={token}", "1.1", 200)
logging.getLogger("uvicorn.error").warning("Invalid HTTP request for /v/{token}/")
'''

UVICORN_SCRIPT = '''
import json, logging.config, sys
logging.config.dictConfig(json.load(open(sys.argv[1])))  # uvicorn --log-config FILE.json does this
logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                                         "/t/{token}/?token={token}", "1.1", 200)
logging.getLogger("uvicorn.error").warning("Invalid HTTP request for /v/{token}/")
'''


@pytest.mark.parametrize("script", [UVICORN_WORKER_SCRIPT, UVICORN_SCRIPT], ids=["under gunicorn", "uvicorn alone"])
def test_uvicorn_access_lines_are_masked(script: str) -> None:
    code = textwrap.dedent(script).replace("{token}", TOKEN)
    done = subprocess.run([sys.executable, "-c", code, str(UVICORN_CONFIG)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert '"GET /t/***/?token=*** HTTP/1.1" 200' in done.stdout, done.stdout
    assert "/v/***/" in done.stderr, done.stderr
    assert TOKEN not in done.stdout + done.stderr


def test_the_uvicorn_config_masks_every_handler() -> None:
    config = json.loads(UVICORN_CONFIG.read_text(encoding="utf-8"))
    assert config["filters"]["mask_secrets"]["()"] == "config.logging_filters.MaskSecretsFilter"
    for name, handler in config["handlers"].items():
        assert "mask_secrets" in handler.get("filters", []), name
