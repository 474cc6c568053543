"""Every variant's hand form previews in a real browser (issue 28): on a phone, as a scorer types (htmx)
and with the form's own "Preview" button (a plain post, as without JavaScript) — never a server error.
The red-five figures are the issue's own: dealer, bid 120, ♠, 130 points, kitty 10."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import make_tournament
from tests.tournaments.test_pages_formats import individual, table_of
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
FIGURES: dict[str, dict[str, str]] = {
    "tractor": {"dealer": "0", "trump": "S", "attackers_points": "85", "kitty_points": "0",
                "last_trick_winner": "dealer"},
    "chaodi": {"dealer": "0", "trump": "H", "attackers_points": "40", "kitty_points": "0",
               "last_trick_winner": "dealer"},
    "red-five": {"dealer": "0", "bid": "120", "trump": "S", "dealer_points": "130", "kitty_points": "10",
                 "dealer_won_last_trick": "yes"},
    "yongzhou-300": {"declarer": "0", "points_0": "120", "points_1": "100", "points_2": "80"},
}


def table_to_score(organizer: Any, variant: str) -> Match:
    if variant in ("tractor", "chaodi"):
        tournament = make_tournament(owner=organizer, variant=variant)
        match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
        assert match is not None
        return match
    _tournament, stage = individual(organizer, variant, 4 if variant == "red-five" else 3)
    return table_of(stage)


def fill(page: Any, figures: dict[str, str]) -> None:
    for name, value in figures.items():
        field = page.locator(f"[name='{name}']")
        kind = field.first.get_attribute("type") or field.first.evaluate("e => e.tagName.toLowerCase()")
        if kind == "radio":
            page.locator(f"input[name='{name}'][value='{value}']").check(force=True)
        elif kind == "select":
            field.select_option(value)
        else:
            field.fill(value)
            field.dispatch_event("change")


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
@pytest.mark.parametrize("variant", list(FIGURES))
def test_every_variants_form_previews(browser: Any, live_server: Any, organizer: Any, variant: str,
                                      locale: str) -> None:
    match = table_to_score(organizer, variant)
    context = browser.new_context(locale=locale, **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    failures: list[str] = []
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "organizer")
        page.fill("input[name=password]", "pw-for-tests-123")
        page.locator("form button[type=submit], form input[type=submit]").last.click()
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/matches/{match.pk}/score/")
        fill(page, FIGURES[variant])
        page.wait_for_selector("#preview .preview")  # the live preview, as the scorer types
        live = page.inner_text("#preview")
        assert live.strip() and "{" not in live
        page.click("button[name=action][value=preview]")  # the form's own button: a full-page post
        page.wait_for_load_state()
        page.wait_for_selector("#preview .preview")
        assert "{" not in page.inner_text("#preview")
        assert not failures, failures
        match.refresh_from_db()
        assert match.hands_played == 0  # a preview saves nothing
    finally:
        context.close()
