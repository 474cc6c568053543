"""Trick-by-trick entry in a real browser on a phone viewport (Debian's Chromium through Playwright):
a scorer with the table link enters the facts and the first trick of a real hand by tapping cards, the
rest arrives through the API, the page (reloaded: the draft lives on the server) shows the derived result
and records the hand; the replay page steps through it with the arrow keys."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay.record import tricks_from_hand
from tests.tournaments.factories import UserFactory, make_tournament
from tests.tournaments.test_trick_entry import plays_json, tractor_hand
from tournaments.models import HandRecord, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorer_enters_tricks_on_a_phone_and_records_the_hand(phone_page: Any, live_server: Any) -> None:
    owner = UserFactory(username="owner")
    tournament = make_tournament(owner=owner, teams=2)
    match = Match.objects.get(stage__tournament=tournament, status="ready")
    h = tractor_hand()
    tricks = tricks_from_hand(h)
    page = phone_page
    base = live_server.url
    page.goto(f"{base}/t/{match.scorer_token}/")
    page.click("#trick-entry-link")
    page.wait_for_url(f"{base}/table/{match.pk}/tricks/")  # the link landed on the token-free page
    page.wait_for_selector("#facts-panel:not([hidden])")
    page.select_option("#f-dealer", "0")
    page.select_option("#f-trump", h.trump or "NT")
    page.click("#facts-save")
    page.wait_for_selector("#play-panel:not([hidden])")
    for n, p in enumerate(tricks[0].plays, start=1):
        # seats as people read them: the 0-based seat p.seat is "Seat {p.seat + 1}" / "{p.seat + 1}号座位"
        assert re.search(rf"(^|\D){p.seat + 1}(\D|$)", page.inner_text("#to-play")), page.inner_text("#to-play")
        page.click("#play-cards")
        for code in p.to_json()["cards"].split():
            page.click(f'#card-picker button[data-card="{code}"]')
        page.click("#play-enter")
        page.wait_for_function(f"document.querySelectorAll('#trick-plays li').length === {n % 4} "
                               f"&& document.getElementById('play-cards').value === ''")
    assert page.locator("#tricks-done li").count() == 1  # the engine named the winner
    api = APIClient()
    api.credentials(HTTP_X_TABLE_TOKEN=match.scorer_token)
    url = f"/api/v1/matches/{match.pk}/trick-entry/"
    draft = api.get(url).json()
    for n, t in enumerate(tricks[1:], start=2):
        draft = api.put(f"{url}tricks/{n}/", {"version": draft["version"], "plays": plays_json(t)}, format="json").json()
    page.reload()  # the draft survives a reload
    page.wait_for_selector("#finish-panel:not([hidden])")
    assert page.locator("#tricks-done li").count() == len(h.tricks)
    result = page.inner_text("#derived-outcome")  # in words, not JSON
    assert f"{h.outcome['attackers_points']} 分" in result and "{" not in result
    page.click("#finish")
    page.wait_for_selector("#recorded-result")
    hand = HandRecord.objects.get(match=match, number=1)
    assert hand.outcome == h.outcome and hand.trick_log is not None and hand.entered_via == "token"
    page.goto(f"{base}/matches/{match.pk}/hands/1/replay/")
    page.wait_for_selector("#replay-stepper:not([hidden])")
    assert page.locator(".replay-trick:not([hidden])").count() == 1
    page.keyboard.press("ArrowRight")
    assert page.locator("#trick-2:not([hidden])").count() == 1 and page.locator("#trick-1").is_hidden()
    page.keyboard.press("End")
    assert page.locator(f"#trick-{len(h.tricks)}").is_visible()
