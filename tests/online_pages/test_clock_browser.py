"""The countdown trusts the server, not the phone's clock (docs/online.md, ``clock.remaining_ms``): a phone
in Chinese at 390×844 whose date is minutes off (an init script shifts ``Date``, as a phone set by hand
would be) plays a tractor table with a 30 s clock and three bot seats; on its turn the page shows the
seconds really left (about 30, counting down), not 0 (seven minutes fast) nor 450 (seven minutes slow).
Screenshot: /tmp/shots-online/clock-skewed-zh.png."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_pages.browser import PHONE, no_overflow, serve, table, version, wait_version_after

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-online")
SKEW = """(() => {
  const skew = %d, RealDate = Date, realNow = Date.now.bind(Date);
  class SkewedDate extends RealDate {
    constructor(...a) { if (a.length === 0) super(realNow() + skew); else super(...a); }
    static now() { return realNow() + skew; }
  }
  window.Date = SkewedDate;
})();"""


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with serve(tmp_path_factory.mktemp("clock"), bot_delay_ms=20, deal_interval_ms=2) as server:
        yield server


def seconds_shown(page: Any) -> int:
    text = page.locator(".ot-turn [data-clock]").inner_text()
    found = re.search(r"\d+", text)
    assert found, text
    return int(found.group())


@pytest.mark.parametrize("skew_minutes", [7, -7])
def test_a_phone_with_a_wrong_clock_shows_the_seconds_left(browser: Any, asgi_server: dict[str, Any],
                                                           skew_minutes: int) -> None:
    base = asgi_server["base"]
    SHOTS.mkdir(exist_ok=True)
    ctx = browser.new_context(locale="zh-CN", **PHONE)
    ctx.add_init_script(SKEW % (skew_minutes * 60_000))
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/play/?variant=tractor")
        assert abs(page.evaluate("Date.now()") / 1000 - time.time() - skew_minutes * 60) < 5  # the phone is off
        page.check("input[name=variant][value=tractor]")
        page.select_option("select[name=seat]", "0")
        page.check("input[name=clock][value='30']")
        page.fill("input[name=name]", "小明")
        page.click("#create-room")
        page.wait_for_selector(".ot-seat.me")
        for s in (1, 2, 3):
            before = version(page)
            page.click(f"[data-key=bot-h-{s}]")
            wait_version_after(page, before)
        page.click("[data-key=ready]")
        page.wait_for_selector(".ot-turn [data-clock]")  # this phone's clocked turn (after the deal)
        assert table(page).get_attribute("data-turn") == "me"
        first = seconds_shown(page)
        assert 27 <= first <= 30, first  # not 0 (the phone is fast) nor ~450 (slow)
        page.wait_for_function(f"""() => {{ const c = document.querySelector('.ot-turn [data-clock]');
                                    return c && Number(c.textContent.match(/\\d+/)[0]) < {first}; }}""",
                               timeout=3_000)  # it counts down, second by second
        assert first - 2 <= seconds_shown(page) < first
        assert "秒" in page.locator(".ot-turn [data-clock]").inner_text()
        if skew_minutes > 0:
            page.screenshot(path=str(SHOTS / "clock-skewed-zh.png"), full_page=True)
        no_overflow(page)
        assert not errors, errors
    finally:
        ctx.close()
