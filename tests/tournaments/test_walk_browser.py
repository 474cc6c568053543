"""Issue 28 in a real browser: the projector (``/matches/<id>/live/?big=1``) fills a 1280×720 and a
1920×1080 screen without the site's header, menu or footer, no scrollbar and nothing cut off, in both
languages; on a 390 px phone the match page offers its live page and replays, and the refused and missing
pages are the site's own."""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay.bots import make_bot
from gameplay.record import HandFacts, record_to_json, tricks_from_hand
from gameplay.simulate import make_hand, play_out
from scoring.partnership import MatchState
from tests.tournaments.factories import UserFactory, make_tournament
from tournaments.models import Match

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")  # set it to look at the pages
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
C = "/api/v1/matches/{}/trick-entry/"


@pytest.fixture
def table(transactional_db: None) -> dict[str, Any]:
    """A match with hand 1 recorded trick by trick and hand 2 half entered (the live page shows cards)."""
    owner = UserFactory(username="projector-owner")
    tournament = make_tournament(owner=owner, teams=4, name="投影赛 Projector Cup")
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    assert match is not None
    api = APIClient()
    api.force_authenticate(owner)
    h = make_hand("tractor", 5, state=MatchState(levels=("2", "2"), dealer=0, hands_played=1))
    play_out(h, [make_bot("heuristic", random.Random(5 + s)) for s in range(4)])
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2"), tricks_from_hand(h))
    draft = api.post(C.format(match.pk) + "record/", {"record": record}, format="json").json()
    assert api.post(C.format(match.pk) + "finish/", {"version": draft["version"]}, format="json").status_code == 201
    match.refresh_from_db()
    state = MatchState(levels=tuple(match.state["levels"]), dealer=match.state["dealer"], hands_played=1)
    h2 = make_hand("tractor", 9, state=state)
    play_out(h2, [make_bot("heuristic", random.Random(9 + s)) for s in range(4)])
    facts = HandFacts("tractor", dealer=h2.dealer, trump=h2.trump, level=match.state["levels"][h2.dealer % 2])
    partial = record_to_json(facts, tricks_from_hand(h2))
    partial["tricks"] = partial["tricks"][:12]
    answer = api.post(C.format(match.pk) + "record/", {"record": partial}, format="json")
    assert answer.status_code == 201, answer.json()
    return {"match": match, "owner": owner}


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_projector_fills_the_screen_without_the_site_around_it(browser: Any, live_server: Any, table: dict,
                                                                   size: tuple[int, int], locale: str) -> None:
    width, height = size
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{table['match'].pk}/live/?big=1")
    page.wait_for_selector(".live-seat .played")
    assert page.locator(".site-header").count() == 0 and page.locator(".site-footer").count() == 0
    assert page.locator("nav").count() == 0
    size_now = page.evaluate("""() => ({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,
        cut: [...document.querySelectorAll('#live *')].filter(e => { const r = e.getBoundingClientRect();
              return r.width > 0 && (r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.top < -1); }).length,
        seatsClipped: [...document.querySelectorAll('.live-seat')].filter(e => e.scrollHeight > e.clientHeight + 1).length,
        font: parseFloat(getComputedStyle(document.querySelector('.live-seat .on-table')).fontSize),
        text: parseFloat(getComputedStyle(document.querySelector('#live-summary')).fontSize)})""")
    assert size_now["w"] <= width and size_now["h"] <= height, size_now  # no scrollbar
    assert size_now["cut"] == 0 and size_now["seatsClipped"] == 0, size_now  # nothing cut off
    assert size_now["text"] >= height / 40 and size_now["font"] >= height / 15, size_now  # readable across a room
    seats = page.locator(".live-seat")
    assert seats.count() == 4
    # the seats share the screen (waited for: the page redraws them when the socket's first state arrives)
    page.wait_for_function(f"[...document.querySelectorAll('.live-seat')].length === 4 && "
                           f"[...document.querySelectorAll('.live-seat')].every(e => e.getBoundingClientRect().height > {height / 4})",
                           timeout=10_000)
    # measured in one go in the page: a state pushed meanwhile redraws the seats (a box read one by one
    # from Python can belong to a seat element just replaced, and be None)
    boxes = page.evaluate("() => [...document.querySelectorAll('.live-seat')].map(e => e.getBoundingClientRect().height)")
    assert len(boxes) == 4 and all(h > height / 4 for h in boxes), boxes
    summary = page.locator("#live-summary").inner_text()
    if locale.startswith("zh"):
        assert "拖拉机" in summary and "tractor" not in summary
        assert re.search(r"第 \d+ 局", summary) and re.search(r"第 \d+ 轮", page.inner_text("#live-trick"))  # not "轮 8"
    else:
        assert "Tractor" in summary and "tractor ·" not in summary
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/projector-{width}x{height}-{locale}.png")
    context.close()


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_on_a_phone_the_match_page_leads_to_its_live_page_and_replay(browser: Any, live_server: Any, table: dict,
                                                                     locale: str) -> None:
    context = browser.new_context(locale=locale, **PHONE)
    page = context.new_page()
    match = table["match"]
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/match-phone-{locale}.png", full_page=True)
    page.locator("#match-replays a").first.click()
    page.wait_for_url(f"**/matches/{match.pk}/hands/1/replay/")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#match-live-link").click()
    page.wait_for_url(f"**/matches/{match.pk}/live/")
    page.wait_for_selector(".live-seat")
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/live-phone-{locale}.png", full_page=True)
    # refused and missing pages are the site's, in the visitor's language
    page.goto(f"{live_server.url}/matches/99999/")
    heading = page.locator("h1").inner_text()
    assert heading == ("找不到此页面" if locale.startswith("zh") else "Page not found")
    assert page.locator(".site-header").count() == 1
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/404-phone-{locale}.png", full_page=True)
    page.goto(f"{live_server.url}/tournaments/{match.stage.tournament_id}/staff/")
    assert "/accounts/login/" in page.url and "next=" in page.url
    page.fill("input[name=username]", "nobody-28")
    UserFactory(username="nobody-28")
    page.fill("input[name=password]", "pw-for-tests-123")
    page.locator("main button.primary").click()
    page.wait_for_load_state()
    assert page.locator("#refused").count() == 1 and page.locator(".site-header").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/403-phone-{locale}.png", full_page=True)
    context.close()
