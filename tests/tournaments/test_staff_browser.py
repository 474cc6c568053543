"""Staff invitations in a real browser: the organizer makes a link and copies it; the invited person opens it on a
phone (简体中文, 390 px), chooses a user name and a password and lands on the tournament."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.test_browser import log_in
from tests.tournaments.test_pages import PASSWORD, build_tournament
from tournaments.models import Invitation
from tournaments.permissions import is_scorer

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")  # set it to look at the pages
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Any, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def test_an_organizer_invites_a_scorer_who_accepts_on_a_phone(page: Any, phone_page: Any, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("organizer", password=PASSWORD)
    tournament = build_tournament(owner, teams=4, start=False)
    base = live_server.url
    log_in(page, base, "organizer")
    page.goto(f"{base}/tournaments/{tournament.pk}/manage/settings/")
    page.locator("#invite-staff").click()
    page.wait_for_url(re.compile(r"/staff/$"))
    page.locator("#invite label", has_text="scorer").click()
    page.locator("#make-invitation").click()
    page.wait_for_load_state()
    assert "Invitation link for a scorer made" in page.content()
    link = page.locator(".invitation a.token-link").first.get_attribute("href")
    assert re.fullmatch(rf"{re.escape(base)}/invite/[0-9a-f]{{64}}/", link)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator(".invitation .copy-link").first.click()
    page.wait_for_function("document.querySelector('.invitation .copy-link').textContent === 'Copied'")
    shot(page, "staff-en")

    phone = phone_page
    phone.goto(link)
    assert "你受邀以" in phone.content()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "invite-zh-phone")
    phone.fill("#id_username", "韩梅梅")
    phone.fill("#id_password", "short")
    phone.fill("#id_password2", "short")
    phone.locator("#accept").click()
    phone.wait_for_load_state()
    assert "密码太短" in phone.locator("#field-password .errorlist").inner_text()  # the validator says why, in Chinese
    shot(phone, "invite-zh-phone-error")
    phone.fill("#id_password", "lantern-river-47 mooncake")
    phone.fill("#id_password2", "lantern-river-47 mooncake")
    phone.locator("#accept").click()
    phone.wait_for_url(f"{base}/tournaments/{tournament.pk}/")
    assert "欢迎，韩梅梅" in phone.content()
    assert is_scorer(get_user_model().objects.get(username="韩梅梅"), tournament)
    shot(phone, "invite-zh-phone-landed")

    phone.goto(link)  # the link worked once
    assert phone.locator("#invite-state").get_attribute("data-state") == "accepted"
    shot(phone, "invite-zh-phone-used")
    page.reload()
    assert "No pending invitations." in page.content() and "韩梅梅" in page.content()
    assert Invitation.objects.get().accepted_by.username == "韩梅梅"


def test_the_staff_page_on_a_phone_in_chinese_does_not_overflow(phone_page: Any, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("organizer", password=PASSWORD)
    tournament = build_tournament(owner, teams=4, start=False)
    base = live_server.url
    log_in(phone_page, base, "organizer")
    phone_page.goto(f"{base}/tournaments/{tournament.pk}/staff/")
    phone_page.locator("#make-invitation").click()
    phone_page.wait_for_load_state()
    assert "复制链接" in phone_page.content()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone_page, "staff-zh-phone")
    phone_page.get_by_role("button", name="撤回链接").click()
    phone_page.wait_for_load_state()
    assert "邀请链接已撤回" in phone_page.content()
    assert Invitation.objects.get().revoked_at is not None
