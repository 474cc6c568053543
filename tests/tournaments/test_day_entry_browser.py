"""Tournament day in a real browser (Debian's Chromium through Playwright): a live page follows a hand saved
on another page within 2 s; a correction shows its before/after table and asks for the confirmation."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.test_browser import log_in, shut_out
from tests.tournaments.test_pages import PASSWORD, SHUTOUT, build_tournament
from tournaments.models import HandRecord, Match
from tournaments.services import Actor, hand_record

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_saved_on_one_page_shows_on_the_other_within_two_seconds(page: Any, phone_page: Any,
                                                                        live_server: Any) -> None:
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    tournament = build_tournament(owner, teams=4)
    match = Match.objects.get(stage__tournament=tournament, key="R1-M1")
    base = live_server.url
    page.goto(f"{base}/matches/{match.pk}/")  # a spectator's match page
    log_in(phone_page, base, "owner")
    phone_page.goto(f"{base}/matches/{match.pk}/score/")
    phone_page.locator("label[for=id_dealer_0]").click()
    shut_out(phone_page)
    phone_page.locator("#preview .preview").wait_for()
    with phone_page.expect_navigation():
        phone_page.locator("#save-hand").click()
    saved = time.monotonic()
    assert HandRecord.objects.filter(match=match).count() == 1
    page.wait_for_function("document.querySelector('#match-live').innerText.includes('1 hand played')",
                           timeout=2_000)
    assert time.monotonic() - saved < 2.5
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/live-match-updated.png", full_page=True)


def test_a_correction_shows_every_later_hand_and_asks_to_confirm_them(page: Any, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    tournament = build_tournament(owner, teams=4)
    match = Match.objects.get(stage__tournament=tournament, key="R1-M1")
    for index in range(3):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner),
                    dealer=0 if index == 0 else None, trump="S")
    base = live_server.url
    log_in(page, base, "owner")
    page.goto(f"{base}/matches/{match.pk}/score/?hand=1")
    page.fill("#id_c-attackers_points", "120")
    page.locator("#correction-preview").click()
    page.wait_for_load_state()
    assert page.locator("#correction-effect tbody tr").count() == 3
    assert page.locator("#correction-effect tr.side-changed").count() == 2
    if SCREENSHOTS:
        page.locator("#correct").screenshot(path=f"{SCREENSHOTS}/correction-effect-en.png")
    page.locator("#correction-save").click()
    page.wait_for_load_state()
    assert page.locator("#correction-errors").is_visible()  # not confirmed: nothing saved
    assert HandRecord.objects.get(match=match, number=1).outcome["attackers_points"] == 0
    page.locator("#confirm-later").check()
    with page.expect_navigation():
        page.locator("#correction-save").click()
    assert "Hand 1 corrected" in page.content()
    assert HandRecord.objects.get(match=match, number=1).outcome["attackers_points"] == 120
    if SCREENSHOTS:
        zh = page.context.browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
        phone = zh.new_page()
        log_in(phone, base, "owner")
        phone.goto(f"{base}/matches/{match.pk}/score/?hand=2")
        phone.fill("#id_c-attackers_points", "120")
        phone.locator("#correction-preview").click()
        phone.wait_for_load_state()
        phone.locator("#correct").screenshot(path=f"{SCREENSHOTS}/correction-effect-zh.png")
        zh.close()
