"""A finished hand's page on a phone in Chinese (390×844): the room's hand stepped through trick by trick
(the site's replay stepper), the seats named by the room, no sideways scrolling, and the hand opens on
``/replay/``. Screenshots: /tmp/shots-online/hand-zh*.png."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_pages.browser import PHONE, ROOT, no_overflow, serve

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-online")
# A red five room of one hand and four bot seats played inline in a process of its own on the server's database (no bot delay,
# no deal pace), then two seats made people's (named) as if they had played them; prints the room's code and hand 1's trick count.
SETUP = r"""
import json
import django
django.setup()
from gameplay.notation import replay
from online import services
from online.models import RoomHand, Seat
made = services.room_create(variant="red-five", seating="choice", hands=1)
version = made.room.version
for seat in range(4):
    version = services.seat_bot(code=made.room.code, host_token=made.host_token, seat=seat, bot="random",
                                action_id=f"b{seat}", version=version).version
Seat.objects.filter(room=made.room, seat=0).update(name="小明", bot=None)
Seat.objects.filter(room=made.room, seat=2).update(name="Ann", bot=None)
row = RoomHand.objects.get(room=made.room, number=1)
print(json.dumps({"code": made.room.code, "tricks": len(replay(row.log).tricks)}))
"""


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with serve(tmp_path_factory.mktemp("hand")) as server:
        yield server


def test_a_finished_hand_steps_trick_by_trick_on_a_phone(browser: Any, asgi_server: dict[str, Any]) -> None:
    SHOTS.mkdir(exist_ok=True)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{asgi_server['db']}", "DJANGO_SETTINGS_MODULE":
           "config.settings.test", "ONLINE_BOT_DELAY_MS": "0", "ONLINE_DEAL_INTERVAL_MS": "0",
           "CELERY_BROKER_URL": "", "CHANNEL_REDIS_URL": ""}
    out = subprocess.run([sys.executable, "-c", SETUP], cwd=ROOT, env=env, check=True, timeout=60,
                         capture_output=True, text=True).stdout
    made = json.loads(out.strip().splitlines()[-1])
    code, count = made["code"], made["tricks"]
    ctx = browser.new_context(locale="zh-CN", **PHONE)
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{asgi_server['base']}/play/{code}/hands/1/")
        assert page.locator("h1").inner_text() == "第1局回放"
        assert page.locator(".crumbs a").first.get_attribute("href") == f"/play/{code}/"
        assert page.locator("#replay-back").is_visible() and page.locator("#replay-live").is_hidden()
        seats = page.locator(".replay-seat h3").all_inner_texts()
        assert seats[0].startswith("1号座位 · 小明") and seats[2].startswith("3号座位 · Ann"), seats
        assert seats[1].startswith("2号座位 · 机器人"), seats
        stepper = page.locator("#replay-stepper")
        assert stepper.is_visible()
        label = stepper.locator(".step-label")
        tricks = page.locator(".replay-trick")
        assert tricks.count() == count
        assert label.inner_text() == f"墩 1 / {count}" or label.inner_text().endswith(f"1 / {count}")
        assert page.locator(".replay-trick:visible").count() == 1 and tricks.nth(0).is_visible()
        page.screenshot(path=str(SHOTS / "hand-zh.png"), full_page=True)
        no_overflow(page)
        stepper.locator("[data-step=next]").click()
        assert label.inner_text().endswith(f"2 / {count}")
        assert tricks.nth(1).is_visible() and tricks.nth(0).is_hidden()
        assert "赢" in tricks.nth(1).inner_text() or "★" in tricks.nth(1).inner_text()
        stepper.locator("[data-step=last]").click()
        assert label.inner_text().endswith(f"{count} / {count}") and tricks.nth(count - 1).is_visible()
        assert stepper.locator("[data-step=next]").is_disabled()
        page.keyboard.press("Home")
        assert label.inner_text().endswith(f"1 / {count}")
        stepper.locator("[data-step=all]").click()
        assert page.locator(".replay-trick:visible").count() == count
        assert page.locator(".replay-explanation li").count() >= 1  # the result in words
        page.locator(".replay-stepper").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "hand-zh-stepper.png"))
        no_overflow(page)
        page.click("#open-replay")  # the finished hand opens on /replay/
        page.wait_for_url("**/replay/")
        assert page.locator(".replay-trick").count() == count
        assert not errors, errors
    finally:
        ctx.close()
