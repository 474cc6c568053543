"""Trick entry's end and its card picker on a phone (issue 28), in English and 简体中文 (Debian's Chromium
through Playwright): the first tap on a card fills the cards of the seat whose turn it is (no tap in a
text box first; a tap in another box still switches); a complete hand's result and the recorded hand
read in words and small tables, never JSON, with links to the hand's replay and the match; the replay
of a tournament hand fits a phone. The referee page's picker works from the first tap too.
Set SCREENSHOTS_DIR to keep screenshots of the pages."""

from __future__ import annotations

import os
from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay.record import tricks_from_hand
from tests.tournaments.factories import UserFactory, make_tournament
from tests.tournaments.test_trick_entry import plays_json, tractor_hand
from tournaments.models import HandRecord, Match
from tournaments.selectors import seat_names

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(params=["en-US", "zh-CN"])
def phone(browser: Any, request: Any) -> Any:
    context = browser.new_context(locale=request.param, **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.lang = "zh" if request.param.startswith("zh") else "en"
    yield page
    context.close()


def shot(page: Any, name: str) -> None:
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{name}-{page.lang}.png", full_page=True)


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def seat_text(page: Any, seat: int, name: str) -> str:
    return f"{seat + 1}号座位 · {name}" if page.lang == "zh" else f"Seat {seat + 1} · {name}"


def open_entry(page: Any, base: str, match: Match, trump: str) -> None:
    page.goto(f"{base}/t/{match.scorer_token}/")
    page.click("#trick-entry-link")
    page.wait_for_url(f"{base}/table/{match.pk}/tricks/")
    page.wait_for_selector("#facts-panel:not([hidden])")
    page.select_option("#f-dealer", "0")
    page.select_option("#f-trump", trump)
    page.click("#facts-save")
    page.wait_for_selector("#play-panel:not([hidden])")


def test_the_first_tap_on_a_card_fills_the_seat_to_play(phone: Any, live_server: Any) -> None:
    tournament = make_tournament(owner=UserFactory(username="owner"), teams=2)
    match = Match.objects.get(stage__tournament=tournament, status="ready")
    names = seat_names(match)
    h = tractor_hand()
    first = tricks_from_hand(h)[0].plays
    open_entry(phone, live_server.url, match, h.trump or "NT")
    for n, p in enumerate(first[:2], start=1):
        # no tap in a text box: the picker already points at the cards of the seat to play
        assert seat_text(phone, p.seat, names[p.seat]) in phone.inner_text("#card-picker .picker-target")
        codes = p.to_json()["cards"].split()
        for code in codes:
            phone.tap(f'#card-picker button[data-card="{code}"]')
        assert phone.input_value("#play-cards") == " ".join(codes)
        phone.tap("#play-enter")
        phone.wait_for_function(f"document.querySelectorAll('#trick-plays li').length === {n} "
                                "&& document.getElementById('play-cards').value === ''")
    shot(phone, "trick-entry-picker")
    # the engine's messages name cards by code; the page shows their faces (static/js/card-words.js)
    assert phone.evaluate("cardWords('1号座位出了 D3，须跟 SA SA；H10 与 BJ、LJ。ASCII SAD')") == \
        "1号座位出了 ♦3，须跟 ♠A ♠A；♥10 与 大王、小王。ASCII SAD"
    # a tap in another text box switches the target; when it is hidden again the seat to play gets the cards
    phone.tap("#play-failed")
    phone.tap("#play-forced")
    phone.tap('#card-picker button[data-card="SA"]')
    assert phone.input_value("#play-forced") == "SA" and phone.input_value("#play-cards") == ""
    phone.tap("#play-failed")
    phone.tap('#card-picker button[data-card="SK"]')
    assert phone.input_value("#play-cards") == "SK"
    fits(phone)


def test_a_complete_hand_reads_in_words_and_links_to_its_replay(phone: Any, live_server: Any) -> None:
    tournament = make_tournament(owner=UserFactory(username="owner"), teams=2)
    match = Match.objects.get(stage__tournament=tournament, status="ready")
    names = seat_names(match)
    h = tractor_hand()
    tricks = tricks_from_hand(h)
    base = live_server.url
    open_entry(phone, base, match, h.trump or "NT")
    api = APIClient()
    api.credentials(HTTP_X_TABLE_TOKEN=match.scorer_token)
    url = f"/api/v1/matches/{match.pk}/trick-entry/"
    draft = api.get(url).json()
    for n, t in enumerate(tricks, start=1):
        draft = api.put(f"{url}tricks/{n}/", {"version": draft["version"], "plays": plays_json(t)}, format="json").json()
    phone.reload()
    phone.wait_for_selector("#finish-panel:not([hidden])")
    result = phone.inner_text("#derived-outcome")
    zh = phone.lang == "zh"
    assert "{" not in result and "}" not in result and '"' not in result
    assert (f"闲家（{match.entry1.name}）" if zh else f"Attackers ({match.entry1.name})") in result
    assert f"{h.outcome['attackers_points']} {'分' if zh else 'points'}" in result
    assert seat_text(phone, h.tricks[-1][2], names[h.tricks[-1][2]]) in result
    assert ("下一局庄家" if zh else "Next dealer") in result
    assert phone.locator("#derived-outcome table tr").count() >= 5
    assert "{" not in phone.inner_text("#tricks-done") and "SA" not in phone.inner_text("#tricks-done").split()
    shot(phone, "trick-entry-result")
    fits(phone)
    phone.tap("#finish")
    phone.wait_for_selector("#recorded-result")
    recorded = phone.inner_text("#recorded-result")
    assert "{" not in recorded and "}" not in recorded
    assert ("下一局庄家" if zh else "Next dealer") in recorded
    assert phone.inner_text("#trick-status") == ("第 1 局已记录。" if zh else "Hand 1 recorded.")  # not "Hand recorded. #1"
    assert HandRecord.objects.filter(match=match, number=1).exists()
    assert phone.get_attribute("#recorded-match", "href") == f"/matches/{match.pk}/"
    shot(phone, "trick-entry-recorded")
    fits(phone)
    phone.tap("#recorded-replay")
    phone.wait_for_url(f"{base}/matches/{match.pk}/hands/1/replay/")
    phone.wait_for_selector("#replay-stepper:not([hidden])")
    text = phone.inner_text("main") if phone.locator("main").count() else phone.inner_text("body")
    assert ("第1局回放" if zh else "Replay of hand 1") in text
    assert seat_text(phone, 0, names[0]) in text
    assert "{" not in text and "shengji-record" not in text
    shot(phone, "replay")
    phone.click("#replay-stepper [data-step=all]")
    shot(phone, "replay-all")
    fits(phone)
    phone.tap("#replay-back")
    phone.wait_for_url(f"{base}/matches/{match.pk}/")


def test_the_referee_picker_fills_a_field_from_the_first_tap(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/referee/")
    page.wait_for_selector("#card-picker:not([hidden])")
    page.click('#card-picker button[data-card="S9"]')
    assert page.input_value("#id_hand_0") == "S9"  # the first card field, before any tap in a field
    page.click("#id_play_0")
    page.click('#card-picker button[data-card="S9"]')
    page.click('#card-picker button[data-action="undo"]')
    page.click('#card-picker button[data-card="SA"]')
    assert page.input_value("#id_play_0") == "SA" and page.input_value("#id_hand_0") == "S9"
