"""A player's private link on a phone (issue 31, docs/online.md "Tournament matches"): a tournament with an
online stage, a match whose three other seats are bots; the player opens the link on a 390×844 phone in
简体中文, takes the right seat (side 1's second player: seat 4, opposite the partner), plays, loses the
connection (the page closes: the table waits, nobody but bots being there), comes back through the same
link, and the hand finishes and is recorded in the tournament (a ``HandRecord`` entered via ``online``, with
the hand's log). Screenshots in /tmp/shots-online/."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_pages.browser import (
    PHONE,
    ROOT,
    no_overflow,
    serve,
    stored_hand,
    stored_log,
    table,
    version,
)
from tests.online_pages.test_table_variants_browser import LOCALES, Phone, has_cjk, seat_auto, step

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-online")

SETUP = """
import json
from tournaments.models import Match, PlayerLink
from tournaments.services import Actor
from tournaments.services.online_rooms import match_room, match_seat_bot, stage_spectator_delay_set
from tournaments.services.player_links import link_token, player_links_ensure
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start
from tournaments.models import Team, Player
from django.contrib.auth import get_user_model

owner = get_user_model().objects.create_user(username="td", password="x")
t = tournament_create(owner=owner, name="线上杯")
names = ["王芳", "李娜", "张伟", "刘洋", "陈静", "杨勇", "赵磊", "黄敏"]
for seed in range(1, 5):
    p1 = Player.objects.create(name=names[2 * seed - 2])
    p2 = Player.objects.create(name=names[2 * seed - 1])
    team = Team.objects.create(name=f"队{seed}", player1=p1, player2=p2)
    entry_add(tournament=t, actor=Actor(owner), team=team, seed=seed)
tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
player_links_ensure(tournament=t, actor=Actor(owner))
stage_spectator_delay_set(stage=t.stages.get(), actor=Actor(owner), on=True)  # spectators one trick behind
match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
player = match.entry1.team.player2  # side 1's second player: seat 3 (0-based), opposite seat 1
for seat in (0, 1, 2):
    match_seat_bot(match_id=match.pk, seat=seat, actor=Actor(owner))
print(json.dumps({"link": link_token(PlayerLink.objects.get(tournament=t, player=player)), "match": match.pk,
                  "code": match_room(match).code, "player": player.name}))
"""


def setup_event(db: Path) -> dict[str, Any]:
    """The tournament made in the server's database (its own process, the server's settings)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "CELERY_BROKER_URL": "", "CHANNEL_REDIS_URL": ""}
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=env, timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def query(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        return list(con.execute(sql, args).fetchall())


def seat_connected(db: Path, code: str, seat: int) -> int:
    return int(query(db, "SELECT s.connected FROM online_seat s JOIN online_room r ON r.id = s.room_id "
                         "WHERE r.code = ? AND s.seat = ?", code, seat)[0][0])


def room_version(db: Path, code: str) -> int:
    return int(query(db, "SELECT version FROM online_room WHERE code = ?", code)[0][0])


def wait_until(check: Any, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting: {what}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    SHOTS.mkdir(exist_ok=True)
    with serve(tmp_path_factory.mktemp("player-link"), bot_delay_ms=10, deal_interval_ms=2) as running:
        yield running


def take_seat(p: Phone, url: str) -> Any:
    """Open the private link, tap "Go to my table": the room's page at the player's seat."""
    page = p.open(url)
    assert has_cjk(page.locator("main").inner_text())
    page.click("#take-seat")
    page.wait_for_selector(".ot-seat.me")
    return page


def test_a_players_link_on_a_phone_joins_plays_drops_returns_and_the_hand_is_recorded(
        browser: Any, server: dict[str, Any]) -> None:
    base, db = server["base"], server["db"]
    event = setup_event(db)
    code, url = event["code"], f"{base}/p/{event['link']}/"
    started = time.monotonic()
    phone = Phone("zh", event["player"], browser.new_context(locale=LOCALES["zh"], **PHONE))
    watcher = browser.new_context(locale=LOCALES["zh"], **PHONE)
    try:
        link_page = phone.open(url)
        text = link_page.locator("main").inner_text()
        assert "进入我的牌桌" in link_page.locator("#take-seat").inner_text() and event["player"] in text, text
        link_page.screenshot(path=str(SHOTS / "player-link-zh.png"), full_page=True)
        no_overflow(link_page)
        link_page.close()
        page = take_seat(phone, url)
        assert table(page).get_attribute("data-seat") == "3" and f"/play/{code}/" in page.url
        phone.seat = 3
        assert event["player"] in page.locator(".ot-seat.me").inner_text()
        assert page.locator("#online-full").count() == 1 and not page.locator("#online-full").is_visible()
        assert not page.locator("#join-seat").count()  # an owned room: no join form, who plays hidden once seated
        page.click("[data-key=ready]")
        # a spectator's phone: who plays, no join form; the table one trick behind (every frame kept)
        seen: list[dict[str, Any]] = []
        watch = watcher.new_page()
        watch.on("websocket", lambda ws: ws.on("framereceived", lambda payload: seen.append(json.loads(payload))))
        watch.goto(f"{base}/play/{code}/")
        players = watch.locator("#online-players")
        players.wait_for()
        assert "对局选手" in watch.locator("#online-full").inner_text() and not watch.locator("#join-seat").count()
        assert event["player"] in players.inner_text()
        watch.locator(".ot-delayed").wait_for()  # the stage shows its tables one trick behind
        assert watch.locator(".ot-delayed").inner_text() == "观众延迟一墩观看此牌桌。"
        watch.wait_for_function("Number(document.getElementById('online-table').dataset.version) >= 0")
        watch.screenshot(path=str(SHOTS / "player-link-watch-zh.png"), full_page=True)
        no_overflow(watch)
        rng = random.Random(31)
        plays = 0
        dropped = returned = False
        while time.monotonic() < started + 60:
            if phone.page.locator(".ot-result").count():
                break
            if version(phone.page) < room_version(db, code):  # the page has not caught up yet: it will
                time.sleep(0.01)
                continue
            kind = step(phone, db, code, rng)
            plays += kind == "play"
            if plays == 3 and not dropped:
                phone.page.screenshot(path=str(SHOTS / "player-link-table-zh.png"), full_page=True)
                no_overflow(phone.page)
                phone.page.close()  # the connection is lost
                dropped = True
                wait_until(lambda: seat_connected(db, code, 3) == 0, 10, "the seat shown disconnected")
                # the bots play on to the player's turn; then the table waits for the player (no 托管:
                # nobody but bots is at the table, so nothing is played for the absent seat)
                wait_until(lambda: stored_hand(db, code).to_act() == ("play", 3), 10, "the player's turn")
                assert not seat_auto(db, code, 3)
                page = take_seat(phone, url)  # back through the same link
                returned = True
                assert table(page).get_attribute("data-seat") == "3"
                assert seat_connected(db, code, 3) == 1
            time.sleep(0.01)
        else:
            raise AssertionError(f"the hand did not end in time ({plays} plays)")
        assert dropped and returned and plays >= 6
        log = stored_log(db, code)
        assert not seat_auto(db, code, 3)  # never 托管: the player played the seat's turns
        rows = query(db, "SELECT h.entered_via, h.trick_log FROM tournaments_handrecord h WHERE h.match_id = ?",
                     event["match"])
        assert len(rows) == 1 and rows[0][0] == "online"
        assert json.loads(rows[0][1])["events"] == log["events"]  # the hand's own log attached
        assert query(db, "SELECT status FROM tournaments_match WHERE id = ?", event["match"])[0][0] in (
            "playing", "finished")
        result = phone.page.locator(".ot-result")
        assert has_cjk(result.inner_text())
        phone.page.screenshot(path=str(SHOTS / "player-link-end-zh.png"), full_page=True)
        no_overflow(phone.page)
        assert not phone.errors
        # the spectator never saw a play of the trick being played; the hand whole once over
        watch.wait_for_function("document.querySelector('#online-table .ot-result') !== null")
        states = [f for f in seen if f.get("type") == "state" and f.get("hand")]
        playing = [f["hand"] for f in states if f["hand"]["phase"] == "play"]
        assert len(playing) > 20 and all(not h["trick"]["plays"] and "cards" not in h for h in playing)
        assert any(h["delayed"] for h in playing) and states[-1]["hand"]["result"]["hands"]
        # the tournament over, the same link has expired: a page that says so, no seat to take
        with sqlite3.connect(str(db), timeout=10) as con:
            con.execute("UPDATE tournaments_tournament SET status = 'finished' WHERE id = (SELECT s.tournament_id "
                        "FROM tournaments_match m JOIN tournaments_stage s ON s.id = m.stage_id WHERE m.id = ?)",
                        (event["match"],))
        over = phone.open(url)
        assert over.locator("#player-link").get_attribute("data-state") == "expired"
        assert "本赛事已结束" in over.locator("#player-link-message").inner_text()
        assert not over.locator("#take-seat").count()
        over.screenshot(path=str(SHOTS / "player-link-expired-zh.png"), full_page=True)
        no_overflow(over)
    finally:
        phone.context.close()
        watcher.close()
    print(f"player link on a phone: {time.monotonic() - started:.1f} s, {plays} plays")

