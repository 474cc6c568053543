"""The live pages update through their WebSockets, in a real browser on a live ASGI server.

pytest-django's ``live_server`` is WSGI (no WebSockets), so this module starts online play's
``tests/online_pages/asgi_server.py`` (uvicorn: pages, static files and WebSockets in one process) on a
free loopback port, on a file SQLite database it migrates and seeds itself (``DATABASE_URL``). A phone
at the table writes through the REST API of that server with the table's token, as the trick-entry page
does; the live table and the standings page change without a reload, and neither falls back to its
polling (no request to the stream or to the stamp endpoint).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.factories import SHUTOUT

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests/online_pages/asgi_server.py"
SEED = """
import json, sys
sys.path.insert(0, ".")
import django
django.setup()
from tests.tournaments.test_pages import build_tournament, first_match, make_user
t = build_tournament(make_user("live_owner"))
m = first_match(t)
print(json.dumps({"t": t.pk, "match": m.pk, "token": m.scorer_token}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("live") / "live.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "CELERY_BROKER_URL": "", "CHANNEL_REDIS_URL": "", "CACHE_URL": ""}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    seeded = subprocess.run([sys.executable, "-c", SEED], cwd=ROOT, env=env, check=True, timeout=120,
                            capture_output=True, text=True)
    ids = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    log = open(db.with_suffix(".log"), "w")  # closed below
    proc = subprocess.Popen([sys.executable, str(SERVER), str(port)], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the ASGI server did not start: " + db.with_suffix(".log").read_text())
        yield {"base": base, **ids}
    finally:
        proc.terminate()  # an open Server-Sent Events stream can hold uvicorn's graceful stop: then kill it
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def api(server: dict[str, Any], path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A request of the table's phone: the REST API with the table's token (POST when there is a body)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server["base"] + path, data=data,
                                     headers={"Content-Type": "application/json", "X-Table-Token": server["token"]})
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
    return dict(json.loads(text)) if text else {}


def test_the_live_table_and_the_standings_follow_through_the_socket(browser: Any, server: dict[str, Any]) -> None:
    context = browser.new_context(locale="zh-CN")
    try:
        requests: list[str] = []
        context.on("request", lambda r: requests.append(r.url))
        table, standings = context.new_page(), context.new_page()
        for p in (table, standings):
            p.set_default_timeout(15_000)
        match, tricks = server["match"], f"/api/v1/matches/{server['match']}/trick-entry/"
        table.goto(f"{server['base']}/matches/{match}/live/")
        standings.goto(f"{server['base']}/tournaments/{server['t']}/standings/")
        table.wait_for_function("document.getElementById('live').dataset.live === 'push'")
        standings.wait_for_function("document.getElementById('live-changes').dataset.live === 'push'")
        standings.evaluate("window.changes = 0; document.body.addEventListener('tournament-changed', "
                           "function () { window.changes += 1; })")
        assert "等待" in table.locator("#live-trick").inner_text()  # no hand being entered yet
        # the phone starts a hand and plays the first card: the big screen shows it without a reload
        draft = api(server, tricks, {"facts": {"dealer": 0, "trump": "S"}})
        table.wait_for_function("document.getElementById('live-trick').textContent.indexOf('第 1 轮') >= 0")
        draft = api(server, tricks + "plays/", {"version": draft["version"], "play": {"seat": 0, "cards": "SA"}})
        table.locator(".live-seat[data-seat='0'] .on-table").filter(has_text="♠A").wait_for()
        assert "to-play" in (table.locator(".live-seat[data-seat='1']").get_attribute("class") or "")
        standings.wait_for_function("window.changes >= 2")  # every write told the standings page too
        # the draft thrown away, the hand recorded by its totals: the standings fetch themselves again
        api(server, tricks + "discard/", {"version": draft["version"]})
        table.wait_for_function("document.getElementById('live-trick').textContent.indexOf('等待') >= 0")
        before = standings.evaluate("window.changes")
        fetched = len([u for u in requests if "/standings/" in u])
        version = api(server, f"/api/v1/matches/{match}/")["version"]
        api(server, f"/api/v1/matches/{match}/hands/", {"version": version, "outcome": SHUTOUT, "dealer": 0})
        standings.wait_for_function(f"window.changes > {before}")
        deadline = time.monotonic() + 10
        while len([u for u in requests if "/standings/" in u]) <= fetched and time.monotonic() < deadline:
            standings.wait_for_timeout(100)
        assert len([u for u in requests if "/standings/" in u]) > fetched  # htmx fetched the fragment
        table.wait_for_function("document.getElementById('live').dataset.version.indexOf('/0') > 0 && "
                                "document.getElementById('live-summary').textContent.indexOf(': 1') >= 0")
        # everything came by the sockets: neither fallback was asked
        assert not [u for u in requests if "/live/stream/" in u or "/changes?" in u], requests
    finally:
        context.close()


def test_without_websockets_the_pages_fall_back_to_the_stream_and_the_stamp(browser: Any,
                                                                            server: dict[str, Any]) -> None:
    context = browser.new_context(locale="en-US")
    context.add_init_script("delete window.WebSocket; window.WebSocket = undefined;")
    try:
        table, standings = context.new_page(), context.new_page()
        for p in (table, standings):
            p.set_default_timeout(15_000)
        match = server["match"]
        with table.expect_request(lambda r: "/live/stream/" in r.url):
            table.goto(f"{server['base']}/matches/{match}/live/")
        with standings.expect_request(lambda r: "/changes?" in r.url):
            standings.goto(f"{server['base']}/tournaments/{server['t']}/standings/")
        standings.evaluate("window.changes = 0; document.body.addEventListener('tournament-changed', "
                           "function () { window.changes += 1; })")
        hands = int(api(server, f"/api/v1/matches/{match}/")["hands_played"])
        # the first hand names its dealer; after one (the other test, when it ran first on this worker's
        # server) the match knows it
        facts = {"trump": "H"} if hands else {"dealer": 0, "trump": "H"}
        draft = api(server, f"/api/v1/matches/{match}/trick-entry/", {"facts": facts})
        table.wait_for_function("document.getElementById('live-trick').textContent.indexOf('Trick 1') >= 0")
        standings.wait_for_function("window.changes >= 1")
        api(server, f"/api/v1/matches/{match}/trick-entry/discard/", {"version": draft["version"]})
        table.wait_for_function("document.getElementById('live-trick').textContent.indexOf('Waiting') >= 0")
    finally:
        context.close()
