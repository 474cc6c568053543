"""A red-five table corrected on a phone (issue 29): through the table's link, "更正" on a hand of the hand
log opens the form with that hand's figures, "查看影响" shows the hand and the later one before and after,
and saving recomputes the totals — no server error, nothing wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.test_table_corrections import RED_FIVE, played
from tournaments.models import HandRecord, Match
from tournaments.services.corrections import table_correction_preview

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_red_five_hand_is_corrected_on_a_phone(browser: Any, live_server: Any, organizer: Any) -> None:
    match = played(organizer, "red-five", hands=3, figures=RED_FIVE[:2])  # still playing: the link may correct
    expected = table_correction_preview(match, 1, {**RED_FIVE[0], "dealer_points": 100}).totals_after
    context = browser.new_context(locale="zh-CN", **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    failures: list[str] = []
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    try:
        page.goto(f"{live_server.url}/t/{match.scorer_token}/")
        page.locator("#hand-1 a", has_text="更正").click()
        page.wait_for_selector("#correct")
        assert "更正第 1 局" in page.inner_text("#correct")
        assert page.input_value("[name='c-dealer_points']") == "130"
        assert page.input_value("[name='c-bid']") == "120"
        page.fill("[name='c-dealer_points']", "100")
        page.click("#correction-preview")
        page.wait_for_selector("#correction-effect")
        effect = page.inner_text("#correction-effect")
        assert "更正前后对比" in effect and "→" in effect
        assert page.locator("#effect-1").count() == 1 and page.locator("#effect-2").count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # the before/after table fits the phone
        page.click("#correction-save")
        page.wait_for_selector(".messages, [role=status], .alert", state="attached")
        assert "第 1 局已更正" in page.content()
        assert not failures, failures
    finally:
        context.close()
    match = Match.objects.get(pk=match.pk)
    assert match.state["totals"] == list(expected)
    assert HandRecord.objects.get(match=match, number=1).outcome["dealer_points"] == 100
