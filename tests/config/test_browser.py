"""The skeleton in a real browser (Debian's Chromium through Playwright)."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phone_visitor_switches_language_and_opens_the_menu(phone_page: Any, live_server: Any) -> None:
    page = phone_page
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    # On a phone the menu is folded behind the ☰ toggle.
    assert not page.get_by_role("link", name="Calculator", exact=True).is_visible()
    page.locator("label.nav-toggle-label").click()
    assert page.get_by_role("link", name="Calculator", exact=True).is_visible()
    page.get_by_role("button", name="简体中文").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert "登录" in page.content()


def test_desktop_visitor_logs_in(page: Any, live_server: Any, django_user_model: Any) -> None:
    django_user_model.objects.create_user("organizer", password="a long enough password")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "a long enough password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_role("button", name="Log out (organizer)").is_visible()
