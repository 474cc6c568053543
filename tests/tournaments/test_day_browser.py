"""Tournament day in a real browser (issue 15): the demo event on a 390 px phone — standings,
tournament page and tab bar fit, the bracket draws connectors and clips no column — the home page
leads to the tournaments, and the calculator works without JavaScript."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.demo import DEMO_RED_FIVE, DEMO_SWISS, DEMO_TOURNAMENT
from tournaments.models import Tournament

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")  # set it to look at the pages
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def demo(transactional_db: None) -> dict[str, Tournament]:
    call_command("load_demo", verbosity=0)
    return {"open": Tournament.objects.get(name=DEMO_TOURNAMENT), "swiss": Tournament.objects.get(name=DEMO_SWISS),
            "red": Tournament.objects.get(name=DEMO_RED_FIVE)}


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
        page.screenshot(path=f"{SCREENSHOTS}/{name}-{page.lang}.png", full_page=True)


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_standings_and_tournament_page_fit_a_phone(phone: Any, live_server: Any, demo: dict[str, Tournament]) -> None:
    base = live_server.url
    for key in ("open", "swiss", "red"):
        phone.goto(f"{base}/tournaments/{demo[key].pk}/standings/")
        shot(phone, f"standings-{key}")
        fits(phone)
    phone.goto(f"{base}/tournaments/{demo['open'].pk}/")
    shot(phone, "tournament")
    fits(phone)
    phone.goto(f"{base}/tournaments/{demo['open'].pk}/bracket/")
    shot(phone, "bracket")
    fits(phone)


BRACKET_GEOMETRY = """() => {
  const box = document.querySelector('.bracket-scroll');
  const inner = box.getBoundingClientRect();
  const rounds = [...box.querySelectorAll('.bracket-round')].map(r => {
    const b = r.getBoundingClientRect();
    const cells = [...r.querySelectorAll('.bm')].map(m => m.getBoundingClientRect());
    return {left: b.left - inner.left + box.scrollLeft, right: b.right - inner.left + box.scrollLeft,
            third: r.classList.contains('third-place'),
            cellsRight: Math.max(...cells.map(c => c.right - inner.left + box.scrollLeft)),
            cellsBottom: Math.max(...cells.map(c => c.bottom - inner.top + box.scrollTop))};
  });
  return {scrollWidth: box.scrollWidth, scrollHeight: box.scrollHeight, rounds,
          connectors: box.querySelectorAll('.connector').length,
          between: [...box.querySelectorAll('.connector-out')].map(c => c.getBoundingClientRect().width)};
}"""


@pytest.mark.parametrize("viewport", [PHONE, {"viewport": {"width": 1280, "height": 900}}], ids=["phone", "desktop"])
def test_the_bracket_draws_connectors_and_clips_no_column(browser: Any, live_server: Any, demo: dict[str, Tournament],
                                                          viewport: dict[str, Any]) -> None:
    context = browser.new_context(locale="en-US", **viewport)
    page = context.new_page()
    page.lang = "en-" + ("phone" if viewport is PHONE else "desktop")
    page.goto(f"{live_server.url}/tournaments/{demo['open'].pk}/bracket/")
    shot(page, "bracket")
    fits(page) if viewport is PHONE else None
    geometry = page.evaluate(BRACKET_GEOMETRY)
    rounds = geometry["rounds"]
    assert len(rounds) == 5 and rounds[-1]["third"]  # R16, QF, SF, final, third place
    for r in rounds:  # every column, the third-place match's included, lies inside the scrollable box
        assert r["left"] >= 0 and r["right"] <= geometry["scrollWidth"] + 0.5, r
        assert r["cellsRight"] <= geometry["scrollWidth"] + 0.5 and r["cellsBottom"] <= geometry["scrollHeight"] + 0.5, r
    # 8 + 4 + 2 matches lead on into the next round: an out-line, a vertical and an in-line each side.
    assert page.locator(".connector-out").count() == 14
    assert page.locator(".connector-in").count() == 7
    assert page.locator(".connector-down").count() == 7 and page.locator(".connector-up").count() == 7
    assert all(width > 4 for width in geometry["between"])
    assert page.locator(".third-place .connector").count() == 0
    context.close()


def test_the_tab_bar_and_standings_key_cells_fit_a_phone(phone: Any, live_server: Any,
                                                         demo: dict[str, Tournament]) -> None:
    phone.goto(f"{live_server.url}/tournaments/{demo['open'].pk}/standings/")
    tabs = phone.locator("nav.tabs a")
    assert tabs.count() == 4
    tops = set()
    for i in range(tabs.count()):
        box = tabs.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, tabs.nth(i).inner_text()
        tops.add(round(box["y"]))
    assert len(tops) == 1, "the four tabs share one line"
    live = phone.locator("tr", has=phone.locator(".live")).first  # a team in a match now
    for cell in ("rank", "name", "key", "now"):
        box = live.locator(f"td.cell-{cell}").bounding_box()
        assert box is not None and box["width"] > 0 and box["x"] + box["width"] <= 390, cell
    assert ":" in live.locator("td.cell-now").inner_text()  # the current levels, e.g. "2 : 9"
    phone.goto(f"{live_server.url}/tournaments/{demo['swiss'].pk}/standings/")
    row = phone.locator("table.stage-table tbody tr").first
    for cell in ("rank", "name", "key"):
        box = row.locator(f"td.cell-{cell}").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, cell


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_calculator_works_without_javascript(browser: Any, live_server: Any, locale: str) -> None:
    context = browser.new_context(locale=locale, java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.lang = "zh" if locale.startswith("zh") else "en"
    page.goto(f"{live_server.url}/calculator/")
    assert page.locator("#calculator [name=level_0]").input_value() == "2"  # tractor starts at 2
    page.select_option("#variant-chooser [name=variant]", "chaodi")
    page.locator("#show-variant").click()  # no script: the button reloads the form for the variant
    page.wait_for_url("**/calculator/?variant=chaodi*")
    assert page.locator("#calculator [name=level_0]").input_value() == "3"  # chaodi starts at 3
    assert page.locator("#calculator [name=a_failures_0]").count() == 1
    assert page.locator("#calculator [name=bid]").count() == 0
    page.fill("#calculator [name=attackers_points]", "35")
    page.fill("#calculator [name=kitty_points]", "10")
    page.select_option("#calculator [name=last_trick_winner]", "attackers")
    page.fill("#calculator [name=last_trick_largest]", "2")
    page.locator("#calculator button[type=submit]").click()
    page.wait_for_load_state()
    result = page.locator("#result").inner_text()
    expected = "第 1 方升 1 级：3 → 4。" if page.lang == "zh" else "Side 1 goes up 1 level: 3 → 4."
    assert expected in result
    for word in ("True", "None", "kitty_bonus", "gaining_side"):
        assert word not in result
    assert page.locator("#result table tbody tr").count() == 2
    fits(page)
    shot(page, "calculator-nojs")
    context.close()


def test_the_calculator_switches_variant_at_once_with_javascript(page: Any, live_server: Any) -> None:
    page.lang = "en"
    page.goto(f"{live_server.url}/calculator/")
    assert page.locator("#show-variant").is_hidden()
    page.select_option("#variant-chooser [name=variant]", "red-five")
    page.wait_for_url("**/calculator/?variant=red-five*")
    assert page.locator("#calculator [name=bid]").count() == 1 and page.locator("#calculator [name=level_0]").count() == 0
    page.fill("#calculator [name=bid]", "120")
    page.fill("#calculator [name=dealer_points]", "100")
    page.fill("#calculator [name=kitty_points]", "20")
    page.check("#calculator [name=dealer_won_last_trick]")
    page.locator("#calculator button[type=submit]").click()
    page.locator("#result table").wait_for()
    assert "The dealer (seat 1) gets" in page.locator("#result").inner_text()
    shot(page, "calculator-red-five")


def test_the_home_page_leads_to_the_running_tournaments(phone: Any, live_server: Any,
                                                        demo: dict[str, Tournament]) -> None:
    from tournaments.services.setup import tournament_create

    tournament_create(owner=demo["open"].owner, name="草稿 Secret Draft")
    phone.goto(f"{live_server.url}/")
    links = phone.locator(".tournament-links a")
    assert links.count() == 3
    assert "Secret Draft" not in phone.content()
    shot(phone, "home")
    fits(phone)
    phone.locator(".tournament-links a", has_text="Demo Open").click()
    phone.wait_for_url(f"**/tournaments/{demo['open'].pk}/")
