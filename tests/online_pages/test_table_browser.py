"""The table in real browsers on a live ASGI server (pages, static files and WebSockets in one process).

pytest-django's ``live_server`` is WSGI, so this module starts ``tests/online_pages/asgi_server.py``
(uvicorn) on a free loopback port, on a file SQLite database it migrates itself (``DATABASE_URL``); the
test reads the stored hand log from that file to pick legal plays (the engine is the oracle). Two phones,
one in Chinese and one in English, play a tractor hand with two bot seats the host gave: everyone
ready, the humans tap cards and the action button, a refused play shows the server's message in the
page's language, a reload mid-hand restores the same view, and the hand ends with its result and replay
link. Screenshots at 390×844 go to /tmp/shots-online/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_pages.browser import (
    PHONE,
    legal_play,
    no_overflow,
    serve,
    stored_hand,
    table,
    tap_cards,
    version,
    wait_version_after,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-online")


@pytest.fixture(scope="module")
def asgi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with serve(tmp_path_factory.mktemp("online")) as server:
        yield server


def take_turn(page: Any, db: Path, code: str, seat: int) -> bool:
    """If it is this page's turn: pass a declaring round, bury the first cards, or play a legal play."""
    if table(page).get_attribute("data-turn") != "me":
        return False
    before = version(page)
    phase = table(page).get_attribute("data-phase")
    if page.locator("[data-key=pass]").count():
        page.click("[data-key=pass]")
    elif phase == "kitty":
        main = page.locator("[data-key=main]")
        count = int(main.get_attribute("data-count") or 0)
        cards = page.locator(".ot-hand .ot-card")
        for i in range(count):
            cards.nth(i).click()
        main.click()
    elif phase == "play":
        if stored_hand(db, code).to_act() != ("play", seat):
            return False  # the page has not yet heard that the table moved on (a bot played this seat meanwhile)
        tap_cards(page, legal_play(db, code, seat))
        main = page.locator("[data-key=main]")
        assert main.is_enabled()
        main.click()
    else:
        return False
    wait_version_after(page, before)
    return True


def refused_play(page: Any, db: Path, code: str, seat: int) -> str:
    """Tap a play the engine refuses (one card too many), send it: the message shows, nothing changes."""
    legal = legal_play(db, code, seat)
    hand_before = page.locator(".ot-hand .ot-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    extra = next(n for n in hand_before if hand_before.count(n) > legal.count(n))
    tap_cards(page, [*legal, extra])
    main = page.locator("[data-key=main]")
    label = main.inner_text()
    before = version(page)
    main.click()
    error = page.locator(".ot-error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert version(page) == before
    assert page.locator(".ot-hand .ot-card").evaluate_all("bs => bs.map(b => b.dataset.card)") == hand_before
    assert page.locator(".ot-card[aria-pressed=true]").count() == len(legal) + 1  # the selection stays
    assert main.inner_text() == label
    page.click("[data-key=clear]")
    return str(text)


def explain_failure(db: Path, pages: dict[str, Any]) -> None:
    """On a failure: each page's view and the stored table, printed (pytest shows them) with screenshots."""
    import sqlite3

    for tag, p in pages.items():
        p.screenshot(path=str(SHOTS / f"failed-{tag}.png"), full_page=True)
        if not p.locator("#online-table").count():  # e.g. the replay page: the table's view is not there
            print(tag, p.url)
            continue
        print(tag, table(p).evaluate("e => [e.dataset.version, e.dataset.turn, e.dataset.phase, e.dataset.status]"),
              p.locator(".ot-actions").evaluate("e => e.outerHTML"))
    with sqlite3.connect(db) as con:
        print("room", con.execute("select version, status, deadline_kind, deadline_seat from online_room").fetchall())
        print("seats", con.execute("select seat, ready, bot, connected, auto from online_seat").fetchall())


def test_two_phones_and_two_bots_play_a_hand(browser: Any, asgi_server: dict[str, Any]) -> None:
    base, db = asgi_server["base"], asgi_server["db"]
    SHOTS.mkdir(exist_ok=True)
    started = time.monotonic()
    zh_ctx = browser.new_context(locale="zh-CN", **PHONE)
    en_ctx = browser.new_context(locale="en-US", **PHONE)
    try:
        zh, en = zh_ctx.new_page(), en_ctx.new_page()
        for p in (zh, en):
            p.set_default_timeout(15_000)
        errors: list[str] = []
        for p in (zh, en):
            p.on("pageerror", lambda e: errors.append(str(e)))

        # the host (Chinese phone) opens a tractor table in seat 1
        zh.goto(base + "/")
        zh.click("#home-play")
        assert zh.locator("h1").inner_text().startswith("在线打牌")
        zh.screenshot(path=str(SHOTS / "create-zh.png"), full_page=True)
        zh.check("input[name=variant][value=tractor]")
        zh.select_option("select[name=seat]", "0")
        zh.fill("input[name=name]", "小明")
        zh.click("#create-room")
        zh.wait_for_selector(".ot-seat.me")
        code = zh.url.rstrip("/").rsplit("/", 1)[1]
        assert "#" not in zh.url and zh.evaluate(f"localStorage.getItem('online-seat-{code}')")
        assert zh.locator("#room-link").inner_text().endswith(f"/play/{code}/")
        zh.screenshot(path=str(SHOTS / "room-zh.png"), full_page=True)

        # the English phone opens the link and sits across (seat 3)
        en.goto(f"{base}/play/{code}/")
        assert en.locator("#online-join").is_visible()
        en.fill("input[name=name]", "Ann")
        en.check("input[name=seat][value='2']")
        en.click("#join-seat")
        en.wait_for_selector(".ot-seat.me")
        assert en.locator("#online-join").is_hidden()
        assert en.locator(".ot-host").count() == 0  # only the host places bots

        # the host gives seats 2 and 4 to bots; everyone is ready
        for s in (1, 3):
            before = version(zh)
            zh.click(f"[data-key=bot-h-{s}]")
            wait_version_after(zh, before)
        assert zh.locator(".ot-badge.bot").count() == 2
        for p in (zh, en):
            p.click("[data-key=ready]")
        zh.wait_for_selector(".ot-card")
        en.wait_for_selector(".ot-card")
        # cards are buttons a screen reader reads: "红桃 2" / "2 of hearts"
        zh_label = zh.locator(".ot-card").first.get_attribute("aria-label") or ""
        en_label = en.locator(".ot-card").first.get_attribute("aria-label") or ""
        assert any(s in zh_label for s in ("黑桃", "红桃", "梅花", "方块", "王")), zh_label
        assert " of " in en_label or "joker" in en_label, en_label

        refused = {"zh": "", "en": ""}
        reloaded = False
        shots = set()
        seats = {"zh": 0, "en": 2}
        deadline = started + 150  # a liveness bound, not a speed check (a loaded machine is slow)
        while time.monotonic() < deadline:
            if zh.locator(".ot-result").count() and en.locator(".ot-result").count():
                break
            for tag, p in (("zh", zh), ("en", en)):
                turn = table(p).get_attribute("data-turn") == "me"
                phase = table(p).get_attribute("data-phase")
                if turn and phase == "play":
                    if tag not in shots:
                        shots.add(tag)
                        p.screenshot(path=str(SHOTS / f"table-{tag}.png"), full_page=True)
                        no_overflow(p)
                    if not refused[tag] and stored_hand(db, code).to_act() == ("play", seats[tag]):
                        refused[tag] = refused_play(p, db, code, seats[tag])
                        if tag == "en":
                            p.screenshot(path=str(SHOTS / "refused-en.png"), full_page=True)
                if turn:
                    take_turn(p, db, code, seats[tag])
                if tag == "en" and not reloaded and phase == "play" and p.locator(".ot-seat .ot-play").count() >= 2:
                    cards = p.locator(".ot-hand .ot-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
                    plays = p.locator(".ot-felt").inner_text()
                    p.reload()
                    p.wait_for_selector(".ot-seat.me")
                    p.wait_for_function("document.getElementById('online-table').dataset.version")
                    if p.locator(".ot-felt").inner_text() == plays:  # nobody moved meanwhile
                        assert p.locator(".ot-hand .ot-card").evaluate_all(
                            "bs => bs.map(b => b.dataset.card)") == cards
                    assert p.locator(".ot-hand .ot-card").count() > 0
                    reloaded = True
            time.sleep(0.03)
        else:
            raise AssertionError("the hand did not end in time")

        assert refused["zh"] and any("\u4e00" <= ch <= "\u9fff" for ch in refused["zh"]), refused
        assert refused["en"] and not any("\u4e00" <= ch <= "\u9fff" for ch in refused["en"]), refused
        assert reloaded
        for tag, p in (("zh", zh), ("en", en)):
            result = p.locator(".ot-result")
            assert result.locator("li").count() >= 1  # the result in words
            p.screenshot(path=str(SHOTS / f"result-{tag}.png"), full_page=True)
            no_overflow(p)
        assert "结果" in zh.locator(".ot-result h2").inner_text()
        assert en.locator(".ot-result h2").inner_text() == "Result"
        replay = en.locator(".ot-replay")
        assert replay.inner_text() == "Replay of hand 1"
        en.click(".ot-replay")
        en.wait_for_selector("#replay-stepper:not([hidden])")  # the hand stepped through trick by trick
        # one step per trick of the stored hand (fewer than 25 when someone led pairs, tractors or throws)
        assert en.locator(".replay-trick").count() == len(stored_hand(db, code).tricks) > 1
        assert not errors, errors
    except BaseException:
        print("page errors", errors)
        explain_failure(db, {"zh": zh, "en": en})
        raise
    finally:
        zh_ctx.close()
        en_ctx.close()
