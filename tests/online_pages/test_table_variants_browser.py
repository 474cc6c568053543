"""Every variant at the table in real browsers: four phones (two in Chinese, two in English, 390×844) join
one room by its link and play a whole hand of tractor, chaodi, red five and Yongzhou 300 by tapping in the
page — declarations while the cards arrive (or in a declaring round), red five's bids and the suit named,
chaodi's 定主 and 炒底 where offered, the kitty buried, every play — with the stored log and the engine as
the oracle of legal moves (``tests/online_pages/browser.py``). In each hand: a refused play shows the
engine's reason in the phone's language and changes nothing; one phone closes the room and opens its link
again mid-hand (the seat token stays in ``localStorage``) and finds the same cards and turn; a fifth
phone that chose "Just watch" sees no seat's cards while the hand runs (neither in its page nor in any
frame it is sent) and every hand at the end; the log replays to the result every page shows. A room with
a clock: a player who does not act is played by a bot (托管, the ``auto`` badge on the other phones) until
they act again. Screenshots go to /tmp/shots-variants/.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gameplay.bots import make_bot
from gameplay.cards import CODE_NAMES
from gameplay.errors import GameplayError
from gameplay.events import Deal, Redeal, Shuffle
from gameplay.notation import replay
from scoring.api import explain_hand_request
from tests.online_pages.browser import (
    PHONE,
    hand_cards,
    legal_play,
    no_overflow,
    serve,
    stored_hand,
    stored_log,
    table,
    tap_cards,
    version,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots-variants")
VARIANTS = ("tractor", "chaodi", "red-five", "yongzhou-300")
PEOPLE = (("zh", "小明"), ("en", "Ann"), ("zh", "小红"), ("en", "Bob"))
LOCALES = {"zh": "zh-CN", "en": "en-US"}
LANGS = {"zh": "zh-hans", "en": "en"}
BOT_DELAY_MS = 1500
"""A bot's (and 托管's) delay: long enough for a timed-out player to tap a play before the bot does."""
DEAL_INTERVAL_MS = 120
"""The deal's pace: a phone can tap a declaration while the cards arrive."""


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    SHOTS.mkdir(exist_ok=True)
    with serve(tmp_path_factory.mktemp("variants"), bot_delay_ms=BOT_DELAY_MS,
               deal_interval_ms=DEAL_INTERVAL_MS) as running:
        yield running


@dataclass
class Phone:
    """One person's phone: a browser context (its localStorage keeps the seat token) and its page."""

    tag: str
    name: str
    context: Any
    page: Any = None
    seat: int = -1
    declared: bool = False
    bid: bool = False
    insured: bool = False
    overturned: bool = False
    refused: str = ""
    errors: list[str] = field(default_factory=list)

    def open(self, url: str) -> Any:
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        return self.page


@dataclass
class Watcher:
    """A fifth phone that chose "Just watch": its page and every frame its socket was sent."""

    context: Any
    page: Any
    frames: list[str] = field(default_factory=list)


def click(page: Any, target: Any, before: int) -> bool:
    """Tap ``target`` and wait until the table moves on; a refusal here is a test failure (the oracle
    chose a legal move). False if the button went away before the tap (the table moved meanwhile)."""
    try:
        target.click(timeout=3_000)
    except Exception:  # the offer went away (another state): the caller looks again
        return False
    page.wait_for_function(
        """v => { const t = document.getElementById('online-table'), e = t.querySelector('.ot-error');
                  return Number(t.dataset.version) > v || (e && !e.hidden); }""", arg=before, timeout=10_000)
    error = page.locator(".ot-error")
    assert not error.is_visible(), error.inner_text()
    return True


def bury_choice(db: Path, code: str, seat: int, rng: random.Random) -> list[str]:
    """The cards a bot would bury for ``seat`` now (the oracle on the stored log)."""
    hand = stored_hand(db, code)
    assert hand.to_act() == ("bury", seat), (hand.to_act(), seat)
    bot = make_bot("random", rng)
    return [CODE_NAMES[c] for c in bot.bury(hand.observation(seat), hand.rules.kitty_size)]


def step(p: Phone, db: Path, code: str, rng: random.Random) -> str:
    """One tap-through action of this phone if its page offers one; returns its kind ("" if none)."""
    page = p.page
    t = table(page)
    phase = t.get_attribute("data-phase")
    before = version(page)
    if t.get_attribute("data-turn") != "me":
        declare = page.locator("[data-key^='declare-']")
        if phase == "deal" and not p.declared and declare.count():
            p.declared = True  # a declaration while the cards arrive (stale if a round came first: fine)
            try:
                declare.first.click(timeout=1_000)
            except Exception:
                return ""
            return "declare"
        return ""
    main = page.locator("[data-key=main]")
    if main.count() and main.get_attribute("data-count"):  # the kitty: 定主 first where offered, then bury
        insure = page.locator("[data-key^='insure-']")
        if insure.count() and not p.insured:
            p.insured = True
            return "insure" if click(page, insure.first, before) else ""
        tap_cards(page, bury_choice(db, code, p.seat, rng))
        assert main.is_enabled()
        return "bury" if click(page, main, before) else ""
    if main.count():
        tap_cards(page, legal_play(db, code, p.seat))
        assert main.is_enabled()
        return "play" if click(page, main, before) else ""
    trump = page.locator("[data-key^='trump-']")
    if trump.count():
        return "name_trump" if click(page, trump.nth(rng.randrange(trump.count())), before) else ""
    bid, pass_ = page.locator("[data-key=bid]"), page.locator("[data-key=pass]")
    if bid.count() and (not p.bid or not pass_.count()):
        p.bid = True
        return "bid" if click(page, bid, before) else ""
    for kind, flag in (("declare", "declared"), ("overturn", "overturned")):
        options = page.locator(f"[data-key^='{kind}-']")
        if options.count() and not getattr(p, flag):  # once per phone, then pass
            setattr(p, flag, True)
            return kind if click(page, options.first, before) else ""
    if pass_.count():
        return "pass" if click(page, pass_, before) else ""
    return ""


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)(?![A-Za-z0-9])")
JOKERS = {"zh": {"BJ": "大王", "LJ": "小王"}, "en": {"BJ": "Big joker", "LJ": "Little joker"}}


def card_faces(text: str, tag: str) -> str:
    """What static/js/card-words.js makes of an engine message: "D3" → "♦3", jokers by the page's words."""
    suits = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
    return CARD_CODE.sub(lambda m: JOKERS[tag].get(m.group(0)) or suits[m.group(0)[0]] + m.group(0)[1:], text)


def refuse_a_play(p: Phone, db: Path, code: str, variant: str) -> bool:
    """On this phone's turn to play: tap one card the engine refuses and send it. The page shows the
    engine's reason in the phone's language; the version, the cards and the selection stay. False when
    every single card is a legal play now (leading: try on a later turn)."""
    page = p.page
    hand = stored_hand(db, code)
    assert hand.to_act() == ("play", p.seat)
    reason = None
    for c in sorted(set(hand.seat_cards(p.seat))):
        try:
            hand.verify_play(p.seat, [c])
        except GameplayError as e:
            reason, card = e, c
            break
    if reason is None:
        return False
    before, cards = version(page), hand_cards(page)
    tap_cards(page, [CODE_NAMES[card]])
    page.locator("[data-key=main]").click()
    error = page.locator(".ot-error")
    error.wait_for(state="visible")
    text = error.inner_text().strip()
    expected = card_faces(reason.message(LANGS[p.tag]).strip(), p.tag)
    assert text == expected, (text, expected)
    assert not CARD_CODE.search(text), text  # cards as people read them ("♦3"), never as codes ("D3")
    other = card_faces(reason.message(LANGS["en" if p.tag == "zh" else "zh"]).strip(), p.tag)
    # Chinese on a Chinese phone; English on an English one (a rule's Chinese name in brackets aside)
    assert text != other and (has_cjk(text) if p.tag == "zh" else not has_cjk(re.sub(r"\([^)]*\)", "", text))), text
    assert version(page) == before and hand_cards(page) == cards
    assert page.locator(".ot-card[aria-pressed=true]").count() == 1  # the selection stays
    page.screenshot(path=str(SHOTS / f"{variant}-refused-{p.tag}.png"), full_page=True)
    page.click("[data-key=clear]")
    p.refused = text
    return True


def open_watcher(browser: Any, base: str, code: str) -> Watcher:
    context = browser.new_context(locale="en-US", **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    watcher = Watcher(context, page)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: watcher.frames.append(str(payload))))
    page.goto(f"{base}/play/{code}/")
    page.click("#watch")  # "Just watch" while a seat is still free
    assert page.locator("#online-join").is_hidden()
    page.wait_for_selector(".ot-watching")
    return watcher


def open_room(browser: Any, base: str, variant: str, *, clock: int | None = None,
              watch: bool = False) -> tuple[str, list[Phone], Watcher | None]:
    """The first phone opens a table of ``variant`` (by the "Play" form) and takes a seat; the others open
    its link and sit down (seat by seat where the room lets players choose); with ``watch`` a fifth phone
    opens the link and chooses to watch before the last seat is taken."""
    phones = [Phone(tag, name, browser.new_context(locale=LOCALES[tag], **PHONE)) for tag, name in PEOPLE]
    host = phones[0].open(f"{base}/play/?variant={variant}")
    host.check(f"input[name=variant][value='{variant}']")
    if host.locator("select[name=seat]").is_visible():
        host.select_option("select[name=seat]", "0")
    if clock is not None:
        host.check(f"input[name=clock][value='{clock}']")
    host.fill("input[name=name]", phones[0].name)
    host.click("#create-room")
    host.wait_for_selector(".ot-seat.me")
    code = host.url.rstrip("/").rsplit("/", 1)[1]
    watcher = None
    for i, p in enumerate(phones[1:], start=1):
        if watch and i == len(phones) - 1:
            watcher = open_watcher(browser, base, code)
        page = p.open(f"{base}/play/{code}/")
        page.fill("input[name=name]", p.name)
        seat = page.locator(f"input[name=seat][value='{i}']")
        if seat.count():
            seat.check()
        page.click("#join-seat")
        page.wait_for_selector(".ot-seat.me")
    for p in phones:
        p.seat = int(table(p.page).get_attribute("data-seat") or -1)
    assert sorted(p.seat for p in phones) == [0, 1, 2, 3]
    return code, phones, watcher


def ready_all(phones: list[Phone]) -> None:
    for p in phones:
        p.page.click("[data-key=ready]")
    for p in phones:
        p.page.wait_for_function("document.getElementById('online-table').dataset.phase")


def reconnect(p: Phone, others: list[Phone], base: str, code: str) -> None:
    """Close this phone's page (its socket goes), then open the room's link again in the same context: the
    stored seat token brings back the same seat, cards and turn."""
    cards, turn, before = hand_cards(p.page), p.page.locator(".ot-turn").inner_text(), version(p.page)
    p.page.close()
    for o in others:  # the others see the seat go offline
        o.page.wait_for_selector(f".ot-seat[data-seat='{p.seat}'] .ot-dot:not(.on)", timeout=5_000)
    page = p.open(f"{base}/play/{code}/")
    page.wait_for_selector(".ot-seat.me")
    assert page.locator("#online-join").is_hidden()
    assert int(table(page).get_attribute("data-seat") or -1) == p.seat
    assert version(page) == before  # nobody moved meanwhile
    assert hand_cards(page) == cards
    assert page.locator(".ot-turn").inner_text() == turn
    for o in others:
        o.page.wait_for_selector(f".ot-seat[data-seat='{p.seat}'] .ot-dot.on", timeout=5_000)


PUBLIC_CHIPS = ".ot-play, .ot-calls, .ot-last, .ot-extra > .ot-kitty"
"""Where a spectator may see cards during the hand: plays on the table, declarations, the last trick,
chaodi's kitty shown to everyone."""


def watcher_sees_no_cards(watcher: Watcher) -> bool:
    """While the hand runs, the spectator's page has no card buttons, no hands and no card outside the
    public places (read at one instant). False if the hand had ended already (nothing checked)."""
    seen = watcher.page.evaluate(f"""() => {{
        const root = document.getElementById('online-table');
        return {{result: !!root.querySelector('.ot-result'), cards: root.querySelectorAll('.ot-card').length,
                 hands: root.querySelectorAll('.ot-all-hands').length,
                 private: [...root.querySelectorAll('.ot-chip')].filter(e => !e.closest({json.dumps(PUBLIC_CHIPS)})).length,
                 public: root.querySelectorAll('.ot-chip').length}}; }}""")
    if seen["result"]:
        return False
    assert seen["cards"] == seen["hands"] == seen["private"] == 0, seen
    return True


def watcher_frames_private(watcher: Watcher) -> int:
    """No state frame the spectator was sent shows any cards or kitty before the hand's result."""
    n = 0
    for raw in watcher.frames:
        frame = json.loads(raw)
        hand = frame.get("hand") if frame.get("type") == "state" else None
        if hand and not hand.get("result"):
            assert "cards" not in hand and "kitty" not in hand, sorted(hand)
            n += 1
    return n


def dealt_hands(hand: Any) -> list[int]:
    """How many cards each seat was dealt (the last deck of the hand)."""
    start = max(i for i, e in enumerate(hand.log) if isinstance(e, (Shuffle, Redeal)))
    counts = [0] * hand.n
    for e in hand.log[start:]:
        if isinstance(e, Deal) and e.seat is not None:
            counts[e.seat] += len(e.cards)
    return counts


def stored_outcome(db: Path, code: str) -> Any:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        row = con.execute("SELECT h.outcome, h.finished FROM online_roomhand h JOIN online_room r ON r.id = h.room_id "
                          "WHERE r.code = ? ORDER BY h.number DESC LIMIT 1", (code,)).fetchone()
    assert row[1]
    return json.loads(row[0])


def seat_auto(db: Path, code: str, seat: int) -> bool:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
        row = con.execute("SELECT s.auto FROM online_seat s JOIN online_room r ON r.id = s.room_id "
                          "WHERE r.code = ? AND s.seat = ?", (code, seat)).fetchone()
    return bool(row[0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_four_phones_play_a_whole_hand(browser: Any, server: dict[str, Any], variant: str) -> None:
    base, db = server["base"], server["db"]
    started = time.monotonic()
    at = VARIANTS.index(variant)
    code, phones, watcher = open_room(browser, base, variant, watch=True)
    assert watcher is not None
    contexts = [p.context for p in phones] + [watcher.context]
    try:
        ready_all(phones)
        zh = next(p for p in phones if p.tag == "zh")
        en = next(p for p in phones if p.tag == "en")
        refusers = {phones[at % 2].seat, phones[at % 2 + 1].seat}  # one zh phone and one en phone
        rejoiner = phones[1 + at % 3]
        rng = random.Random(variant)
        done: list[str] = []
        rejoined = False
        while time.monotonic() < started + 180:  # a liveness bound, not a speed check
            if all(p.page.locator(".ot-result").count() for p in phones):
                break
            for p in phones:
                if (p.seat in refusers and not p.refused and table(p.page).get_attribute("data-turn") == "me"
                        and table(p.page).get_attribute("data-phase") == "play"):
                    refuse_a_play(p, db, code, variant)
                kind = step(p, db, code, rng)
                if not kind:
                    continue
                done.append(kind)
                plays = done.count("play")
                if kind == "play" and plays == 4 * 3 + 2:  # mid-hand pictures (two plays on the table)
                    for q in (zh, en):
                        q.page.screenshot(path=str(SHOTS / f"{variant}-mid-{q.tag}.png"), full_page=True)
                        no_overflow(q.page)
                    for page in (zh.page, en.page, watcher.page):  # no "null"/"undefined" for a pass, a missing field
                        words = page.locator("#online-table").inner_text()
                        assert "null" not in words and "undefined" not in words, words
                    watcher.page.screenshot(path=str(SHOTS / f"{variant}-mid-watch.png"), full_page=True)
                    assert watcher_sees_no_cards(watcher)
                if kind == "play" and plays >= 4 * 5 + 1 and not rejoined and \
                        table(rejoiner.page).get_attribute("data-turn") != "me":
                    reconnect(rejoiner, [q for q in phones if q is not rejoiner], base, code)
                    rejoined = True
                if kind == "play" and plays % 10 == 0:
                    watcher_sees_no_cards(watcher)
            time.sleep(0.02)
        else:
            raise AssertionError(f"the {variant} hand did not end in time: {done[-5:]}")
        took = time.monotonic() - started

        # the result on every page, as the stored log replays it
        finished = replay(stored_log(db, code))
        assert finished.finished
        assert stored_outcome(db, code) == json.loads(json.dumps(finished.outcome))
        body = finished.score_request()
        for p in phones:
            lines = p.page.locator(".ot-result .ot-explanation li").all_inner_texts()
            assert lines == explain_hand_request(body, LANGS[p.tag])["explanation"], (p.tag, lines)
            assert p.page.locator(".ot-replay").count() == 1
        for q in (zh, en):
            q.page.click(".ot-all-hands summary")
            q.page.screenshot(path=str(SHOTS / f"{variant}-end-{q.tag}.png"), full_page=True)
            no_overflow(q.page)
        assert "结果" in zh.page.locator(".ot-result h2").inner_text()
        assert en.page.locator(".ot-result h2").inner_text() == "Result"

        # the spectator: nothing private while the hand ran, every hand at its end
        page = watcher.page
        page.wait_for_selector(".ot-result")
        assert watcher_frames_private(watcher) > 20
        page.click(".ot-all-hands summary")
        lines = page.locator(".ot-all-hands p")
        dealt = dealt_hands(finished)
        for s in range(4):
            assert lines.nth(s).locator(".ot-chip").count() == dealt[s], (s, dealt)
        assert lines.count() == 4 + (1 if finished.kitty else 0)  # the kitty's line where there is one
        assert page.locator(".ot-card").count() == 0
        page.screenshot(path=str(SHOTS / f"{variant}-end-watch.png"), full_page=True)

        assert all(p.refused for p in phones if p.seat in refusers), [p.refused for p in phones]
        assert rejoined
        assert "play" in done, done
        if variant in ("tractor", "chaodi"):
            assert "bury" in done
        if variant == "red-five":
            assert {"bid", "name_trump", "bury"} <= set(done), done
        errors = [e for p in phones for e in p.errors]
        assert not errors, errors
        print(f"{variant}: {took:.1f} s, {len(done)} actions: "
              f"{ {k: done.count(k) for k in sorted(set(done))} }")
    finally:
        for c in contexts:
            c.close()


def test_a_clock_runs_out_a_bot_plays_and_the_player_takes_over_again(browser: Any, server: dict[str, Any]) -> None:
    """A room with a clock (the form's shortest, then 5 s — the least a room allows — set on the stored room): one phone does not play;
    when its clock runs out a bot plays for it and the others see the 托管 badge; it plays again (before
    the bot's delay) and the badge goes."""
    base, db = server["base"], server["db"]
    started = time.monotonic()
    code, phones, _ = open_room(browser, base, "tractor", clock=15)
    try:
        with sqlite3.connect(str(db), timeout=10) as con:
            con.execute("UPDATE online_room SET clock = 5 WHERE code = ?", (code,))
        ready_all(phones)
        idle = phones[1]
        others = [p for p in phones if p is not idle]
        rng = random.Random(3)
        state = "play"  # play → idle (its clock runs) → auto (a bot plays for it) → back (it played again)
        while time.monotonic() < started + 150 and state != "back":  # a liveness bound, not a speed check
            turn = table(idle.page).get_attribute("data-turn") == "me"
            playing = turn and table(idle.page).get_attribute("data-phase") == "play"
            if state == "play" and playing:
                state = "idle"
                assert idle.page.locator(".ot-turn [data-clock]").count() == 1  # its countdown
                for o in others:
                    o.page.wait_for_selector(f".ot-seat[data-seat='{idle.seat}'] .ot-clock", timeout=3_000)
                idle.page.screenshot(path=str(SHOTS / "clock-en.png"), full_page=True)
                for o in others:  # 5 s later a bot has played for it: 托管
                    o.page.wait_for_selector(f".ot-seat[data-seat='{idle.seat}'] .ot-badge.auto", timeout=8_000)
                others[0].page.screenshot(path=str(SHOTS / "auto-zh.png"), full_page=True)
                idle.page.wait_for_selector(".ot-seat.me .ot-badge.auto")
                state = "auto"
            elif state == "play" or playing:  # before its first play; then its turns while 托管
                if step(idle, db, code, rng) == "play" and state == "auto" and not seat_auto(db, code, idle.seat):
                    state = "back"
                    break
            for o in others:
                step(o, db, code, rng)
            time.sleep(0.01)
        if state != "back":  # say where the table stood (pytest prints it with the failure)
            for p in phones:
                print(p.seat, table(p.page).evaluate("e => [e.dataset.version, e.dataset.turn, e.dataset.phase]"))
            with sqlite3.connect(str(db), timeout=10) as con:
                print("room", con.execute("SELECT version, status, deadline_kind, deadline_seat FROM online_room "
                                          "WHERE code = ?", (code,)).fetchall())
                print("seats", con.execute("SELECT seat, ready, bot, connected, auto FROM online_seat").fetchall())
        assert state == "back", state
        for o in others:
            o.page.wait_for_selector(f".ot-seat[data-seat='{idle.seat}'] .ot-badge.auto", state="detached",
                                     timeout=5_000)
        assert idle.page.locator(".ot-badge.auto").count() == 0
        others[0].page.screenshot(path=str(SHOTS / "auto-cleared-zh.png"), full_page=True)
        assert not [e for p in phones for e in p.errors]
    finally:
        for p in phones:
            p.context.close()
