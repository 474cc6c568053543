"""The losing side confirms a result on a phone, in a real browser, through the table link's session path
(issue 28): the table link opens the token-free table page, "we are …" opens the confirmation, and one
press of "confirm" saves — for a visitor with the link and for a signed-in organizer, in both languages.
The winning side's attempt is refused with a page that says why."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import make_tournament, win_match
from tournaments.models import Match
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
THANKS = {"en-US": "the result is confirmed", "zh-CN": "结果已确认"}


def finished_match(organizer: Any) -> Match:
    tournament = make_tournament(owner=organizer, teams=4, require_confirmation=True)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    assert match is not None
    return win_match(match, 0, Actor(organizer))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("who", ["table-link", "signed-in"])
def test_the_losing_side_confirms_on_a_phone(browser: Any, live_server: Any, organizer: Any, locale: str,
                                            who: str) -> None:
    match = finished_match(organizer)
    context = browser.new_context(locale=locale, **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        if who == "signed-in":
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=username]", "organizer")
            page.fill("input[name=password]", "pw-for-tests-123")
            page.locator("form button[type=submit], form input[type=submit]").last.click()
            page.wait_for_load_state()
        page.goto(f"{live_server.url}/t/{match.scorer_token}/")
        assert match.scorer_token not in page.url  # the link hands over to the token-free table page
        page.click("a[data-side='1']")
        page.wait_for_selector("#confirm-result")
        assert f"/table/{match.pk}/confirm/1/" in page.url
        page.click("#confirm-result")
        page.wait_for_load_state()
        assert THANKS[locale] in page.inner_text("body").lower()
        assert "Idempotency-Key" not in page.inner_text("body")
        match.refresh_from_db()
        assert match.confirmed_at is not None
        # the winning side cannot confirm its own win: a page of the site says so, nothing saved twice
        page.goto(f"{live_server.url}/table/{match.pk}/confirm/0/")
        assert page.locator(".site-header").count() == 1
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_winning_side_is_refused_with_a_styled_page(browser: Any, live_server: Any, organizer: Any,
                                                       locale: str) -> None:
    match = finished_match(organizer)
    context = browser.new_context(locale=locale, **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/t/{match.scorer_token}/")
        page.goto(f"{live_server.url}/table/{match.pk}/confirm/0/")
        page.click("#confirm-result")
        page.wait_for_selector("#confirm-error")
        assert page.locator(".site-header").count() == 1
        assert page.inner_text("#confirm-error").strip()
        match.refresh_from_db()
        assert match.confirmed_at is None
    finally:
        context.close()
