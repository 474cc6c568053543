"""Whole hands and matches in real browsers (docs/online.md, "A match"), on phones at 390×844:

* Yongzhou 300 with 3 players (docs/rules.md: 2 decks without the 3s, 4s and 6s, 28 cards each, no kitty):
  a Chinese and an English phone and a bot seat play a hand to its end by tapping (offers and overturns
  where the deal stops for them, every play), three seats round the table, the result every page shows
  as the stored log replays it.
* A red five match of two hands: a Chinese phone with three bot seats; the phone's clock runs out once
  (托管: a bot plays for it), it readies for the second hand, the match ends with its totals, and the
  rematch is offered, taken, and a new match's first hand is dealt.

Bots act after a short delay and the deal is fast, to keep each test short. Screenshots in
/tmp/shots-online/.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameplay.notation import replay
from scoring.api import explain_hand_request
from tests.online_pages.browser import (
    PHONE,
    no_overflow,
    serve,
    stored_log,
    table,
    version,
    wait_version_after,
)
from tests.online_pages.test_table_variants_browser import LANGS, LOCALES, Phone, dealt_hands, step

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-online")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    SHOTS.mkdir(exist_ok=True)
    with serve(tmp_path_factory.mktemp("match"), bot_delay_ms=10, deal_interval_ms=2) as running:
        yield running


def create_room(p: Phone, base: str, variant: str, *, players: int | None = None, hands: int | None = None,
                clock: int | None = None) -> str:
    page = p.open(f"{base}/play/?variant={variant}")
    page.check(f"input[name=variant][value='{variant}']")
    if players is not None:
        page.select_option("select[name=players]", str(players))
    if hands is not None:
        page.fill("input[name=hands]", str(hands))
    if clock is not None:
        page.check(f"input[name=clock][value='{clock}']")
    if page.locator("select[name=seat]").is_visible():
        page.select_option("select[name=seat]", "0")
    page.fill("input[name=name]", p.name)
    page.click("#create-room")
    page.wait_for_selector(".ot-seat.me")
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


def join(p: Phone, base: str, code: str) -> None:
    page = p.open(f"{base}/play/{code}/")
    page.fill("input[name=name]", p.name)
    page.click("#join-seat")
    page.wait_for_selector(".ot-seat.me")


def bots_for_empty_seats(host: Phone) -> None:
    page = host.page
    while page.locator("[data-key^=bot-h-]").count():
        before = version(page)
        page.locator("[data-key^=bot-h-]").first.click()
        wait_version_after(page, before)


def test_yongzhou_with_three_players_plays_a_hand_to_its_end(browser: Any, server: dict[str, Any]) -> None:
    base, db = server["base"], server["db"]
    started = time.monotonic()
    phones = [Phone("zh", "小明", browser.new_context(locale=LOCALES["zh"], **PHONE)),
              Phone("en", "Ann", browser.new_context(locale=LOCALES["en"], **PHONE))]
    try:
        code = create_room(phones[0], base, "yongzhou-300", players=3)
        join(phones[1], base, code)
        bots_for_empty_seats(phones[0])
        for p in phones:
            p.seat = int(table(p.page).get_attribute("data-seat") or -1)
            assert p.page.locator(".ot-seat").count() == 3  # three seats round the table
        assert len({p.seat for p in phones}) == 2 and -1 not in {p.seat for p in phones}
        for p in phones:
            p.page.click("[data-key=ready]")
        rng = random.Random(300)
        done: list[str] = []
        shot = False
        while time.monotonic() < started + 40:
            if all(p.page.locator(".ot-result").count() for p in phones):
                break
            for p in phones:
                kind = step(p, db, code, rng)
                if kind:
                    done.append(kind)
                if kind == "play" and not shot and done.count("play") >= 7:
                    shot = True
                    p.page.screenshot(path=str(SHOTS / f"yongzhou-3-mid-{p.tag}.png"), full_page=True)
                    no_overflow(p.page)
            time.sleep(0.01)
        else:
            raise AssertionError(f"the hand did not end in time: {done[-5:]}")
        finished = replay(stored_log(db, code))
        assert finished.finished and finished.n == 3
        assert dealt_hands(finished) == [28, 28, 28] and not finished.kitty  # 84 cards, 3 players, no kitty
        assert sum(finished.hands[s][c] for s in range(3) for c in range(len(finished.hands[s]))) == 0  # all played
        body = finished.score_request()
        for p in phones:
            lines = p.page.locator(".ot-result .ot-explanation li").all_inner_texts()
            assert lines == explain_hand_request(body, LANGS[p.tag])["explanation"], (p.tag, lines)
            p.page.screenshot(path=str(SHOTS / f"yongzhou-3-end-{p.tag}.png"), full_page=True)
            no_overflow(p.page)
        assert done.count("play") >= 2 * len(finished.tricks) - 2  # both phones played to (nearly) every trick
        assert not [e for p in phones for e in p.errors]
    finally:
        for p in phones:
            p.context.close()
    print(f"yongzhou-300, 3 players: {time.monotonic() - started:.1f} s, {len(done)} taps")


def test_a_match_of_two_hands_then_a_rematch(browser: Any, server: dict[str, Any]) -> None:
    base, db = server["base"], server["db"]
    started = time.monotonic()
    phone = Phone("zh", "小明", browser.new_context(locale=LOCALES["zh"], **PHONE))
    states: list[dict[str, Any]] = []

    def frames(ws: Any) -> None:
        def got(payload: Any) -> None:
            frame = json.loads(payload)
            if frame.get("type") == "state":
                states.append(frame)
        ws.on("framereceived", got)

    try:
        phone.context.on("page", lambda pg: pg.on("websocket", frames))
        code = create_room(phone, base, "red-five", hands=2, clock=15)
        with sqlite3.connect(str(db), timeout=10) as con:  # 5 s, the least a room allows (the form's least is 15)
            con.execute("UPDATE online_room SET clock = 5 WHERE code = ?", (code,))
        page = phone.page
        bots_for_empty_seats(phone)
        page.click("[data-key=ready]")
        # the phone does not act: its clock runs out once, then a bot plays for it (托管) to the match's end;
        # between hands it is ready again (the button, when offered)
        page.wait_for_selector(".ot-seat.me .ot-badge.auto", timeout=15_000)
        while time.monotonic() < started + 40:
            if table(page).get_attribute("data-status") == "finished":
                break
            ready = page.locator("[data-key=ready]")
            if ready.count():
                try:
                    ready.click(timeout=1_000)
                except Exception:  # the table moved on meanwhile
                    pass
            time.sleep(0.05)
        else:
            raise AssertionError("the match did not end in time")
        numbers = {s["hand"]["number"] for s in states if s["hand"]}
        assert {1, 2} <= numbers  # the page was sent both hands of the match
        last = states[-1]
        assert last["room"]["status"] == "finished" and last["room"]["match"]["hands_played"] == 2
        assert [h["number"] for h in last["room"]["hands"]] == [1, 2]
        totals = last["room"]["match"]["totals"]
        # the match's totals by seat: the sum of the two scored hands' game points (all four may be 0: two hands
        # can cancel out, so the sum is what is checked, not that a total is non-zero)
        with sqlite3.connect(str(db), timeout=10) as con:
            stored = con.execute("SELECT h.number, h.result FROM online_roomhand h JOIN online_room r ON h.room_id = r.id"
                                 " WHERE r.code = ? AND h.finished ORDER BY h.number", (code,)).fetchall()
        assert [n for n, _ in stored] == [1, 2]
        points = [json.loads(result)["response"]["game_points"] for _, result in stored]
        assert totals == [sum(int(p[seat]) for p in points) for seat in range(4)]
        board = page.locator(".ot-board")
        assert board.is_visible() and "2 / 2" in board.inner_text()  # hands played, of the match's two
        rematch = page.locator("[data-key=rematch]")
        assert rematch.is_visible()
        page.screenshot(path=str(SHOTS / "match-over-zh.png"), full_page=True)
        no_overflow(page)
        before = version(page)
        rematch.click()  # taken
        wait_version_after(page, before)
        page.wait_for_selector("[data-key=ready]")
        assert table(page).get_attribute("data-status") in ("waiting", "playing")
        page.click("[data-key=ready]")
        page.wait_for_function("""() => { const t = document.getElementById('online-table');
                                  return t.dataset.status === 'playing' && t.dataset.phase; }""")
        again = states[-1]
        assert again["room"]["match"]["number"] == 2 and again["room"]["match"]["hands_played"] == 0
        assert again["hand"] is not None and again["hand"]["number"] == 3  # the room's third hand, the new match's first
        assert not page.locator(".ot-seat.me .ot-badge.auto").count()  # the player is back: no 托管
        page.screenshot(path=str(SHOTS / "rematch-zh.png"), full_page=True)
        assert not phone.errors, phone.errors
    finally:
        phone.context.close()
    print(f"red five match and rematch: {time.monotonic() - started:.1f} s")
