"""The referee page in a real browser: cards entered by tapping, a ruling shown (Debian's Chromium)."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page: Any, *cards: str) -> None:
    for card in cards:
        page.locator(f'#card-picker button[data-card="{card}"]').click()


def test_director_taps_the_cards_of_a_trick_and_reads_the_ruling(phone_page: Any, live_server: Any) -> None:
    page = phone_page
    page.goto(live_server.url + "/referee/")
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    page.select_option("#id_level", "10")
    page.select_option("#id_trump", "H")
    assert page.locator("#card-picker").is_visible()
    hands = {0: ["S9", "S8", "S8", "S4", "S4"], 1: ["SJ", "C3", "C4", "C5", "C6"],
             2: ["D3", "D4", "D5", "D6", "D7"], 3: ["SA", "SK", "SK", "C7", "C8"]}
    for seat, cards in hands.items():
        page.locator(f"#id_hand_{seat}").focus()
        tap(page, *cards)
    page.locator("#id_hand_1").focus()
    tap(page, "C2")
    page.locator('#card-picker button[data-action="undo"]').click()
    assert page.locator("#id_hand_1").input_value() == "SJ C3 C4 C5 C6"
    page.locator("#id_play_0").focus()
    tap(page, "S9", "S8", "S8", "S4", "S4")
    page.get_by_role("button", name="Rule on this trick").click()
    page.wait_for_selector("#ruling .result")
    text = page.locator("#ruling").inner_text()
    assert "The throw fails" in text and "S9" in text


def test_director_enters_only_the_led_suit_on_a_phone(phone_page: Any, live_server: Any, tmp_path: Any) -> None:
    """At 390 px: the one-line hint shows, nothing overflows sideways, partial holdings get a ruling."""
    page = phone_page
    page.goto(live_server.url + "/referee/")
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    hint = page.locator("#referee-partial")
    assert hint.is_visible() and "taken as all it holds" in hint.inner_text()
    page.select_option("#id_level", "10")
    page.select_option("#id_trump", "H")
    # only the spades: 0-based seat 1 has one, seat 2 none, seat 3 three
    for seat, cards in {0: ["S9", "S8", "S8", "S4", "S4"], 1: ["SJ"], 3: ["SA", "SK", "SK"]}.items():
        page.locator(f"#id_hand_{seat}").focus()
        tap(page, *cards)
    page.locator("#id_play_0").focus()
    tap(page, "S9", "S8", "S8", "S4", "S4")
    page.get_by_role("button", name="Rule on this trick").click()
    page.wait_for_selector("#ruling .result")
    text = page.locator("#ruling").inner_text()
    assert "The throw fails" in text and "Seat 3 shows no spades, so it is treated as void in spades." in text
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "referee-390.png"), full_page=True)
