"""Helpers of the browser tests of online play (``test_*browser*.py``): a live ASGI server in its own
process (``asgi_server.py``: uvicorn on a migrated file SQLite database, since pytest-django's
``live_server`` has no WebSockets), the stored hand log read from that file (the engine, as a test oracle,
picks legal moves from it), and the table's attributes and card buttons as the page shows them."""

from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gameplay.cards import CODE_NAMES

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(folder: Path, *, bot_delay_ms: int = 20, deal_interval_ms: int = 2) -> Iterator[dict[str, Any]]:
    """The site on uvicorn (its own process) on a new file SQLite database in ``folder``, migrated first;
    yields ``{"base": url, "db": path}``. The bot delay and the deal's pace are the server's environment
    (``ONLINE_BOT_DELAY_MS``, ``ONLINE_DEAL_INTERVAL_MS``)."""
    db = folder / "online.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "ONLINE_BOT_DELAY_MS": str(bot_delay_ms), "ONLINE_DEAL_INTERVAL_MS": str(deal_interval_ms),
           "CELERY_BROKER_URL": "", "CHANNEL_REDIS_URL": ""}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    port = free_port()
    log = open(db.with_suffix(".log"), "w")  # closed below
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests/online_pages/asgi_server.py"), str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
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
        yield {"base": base, "db": db}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a graceful shutdown still waiting on sockets: the test is over
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def stored_log(db: Path, code: str) -> dict[str, Any]:
    """The stored log of the room's latest hand."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        row = con.execute("SELECT h.log FROM online_roomhand h JOIN online_room r ON r.id = h.room_id "
                          "WHERE r.code = ? ORDER BY h.number DESC LIMIT 1", (code,)).fetchone()
    return dict(json.loads(row[0]))


def stored_hand(db: Path, code: str) -> Any:
    """The room's latest hand as the engine has it now (rebuilt from the stored log)."""
    from online.services import hand_from_log

    return hand_from_log(stored_log(db, code))


def legal_play(db: Path, code: str, seat: int) -> list[str]:
    """A legal play for ``seat`` now, from the stored log (the engine decides, as the server will)."""
    hand = stored_hand(db, code)
    assert hand.phase == "play" and hand.to_act() == ("play", seat), (hand.phase, hand.to_act(), seat)
    return [CODE_NAMES[c] for c in hand.legal_plays(seat).sample(random.Random(seat))]


def table(page: Any) -> Any:
    return page.locator("#online-table")


def version(page: Any) -> int:
    return int(table(page).get_attribute("data-version") or -1)


def wait_version_after(page: Any, before: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('online-table').dataset.version) > {before}")


def hand_cards(page: Any) -> list[str]:
    """The card names of the page's card buttons, in order."""
    return list(page.locator(".ot-hand .ot-card").evaluate_all("bs => bs.map(b => b.dataset.card)"))


def tap_cards(page: Any, names: list[str]) -> None:
    """Tap one card button per name (two copies of a card: two buttons)."""
    used: set[str] = set()
    for name in names:
        buttons = page.locator(f".ot-hand .ot-card[data-card='{name}']")
        for i in range(buttons.count()):
            b = buttons.nth(i)
            key = b.get_attribute("data-key")
            if key not in used and b.get_attribute("aria-pressed") == "false":
                used.add(key)
                b.click()
                break
        else:
            raise AssertionError(f"no card {name} to tap")


def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
