"""The rating pages in a real browser (issue 33): on a 390×844 phone in 简体中文 the ladder and a player's
page fit the width, the chart's labels stay readable, and in print the chart is drawn in black. The
results are entered through the services with real commits, so the ratings come from the after-commit
hook as they do on the site."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import UserFactory, make_tournament, win_match
from tournaments.models import Match, PlayerRating
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = """() => document.documentElement.scrollWidth"""
LABELS = """() => [...document.querySelectorAll('#rating-chart text')].map(t => t.getBoundingClientRect().height)"""


def test_ladder_and_player_page_on_a_phone_in_chinese_and_in_print(phone_page: Any, live_server: Any) -> None:
    owner = UserFactory()
    tournament = make_tournament(owner=owner, teams=4, name="周赛 第1周")
    for match in Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position"):
        win_match(match, 0, Actor(owner))
    final = Match.objects.get(stage__tournament=tournament, status="ready")
    win_match(final, 1, Actor(owner))
    assert PlayerRating.objects.filter(pool__club__isnull=True).count() == 8  # the hook rated every result
    best = PlayerRating.objects.filter(pool__club__isnull=True).order_by("-display").first()
    assert best is not None

    phone_page.goto(f"{live_server.url}/ratings/")
    assert phone_page.locator("h1").inner_text().startswith("等级分")
    assert phone_page.locator("#ladder tbody tr").count() == 8
    assert phone_page.evaluate(WIDTH) <= 390

    phone_page.locator(f"#ladder a[href^='/ratings/players/{best.player_id}/']").click()
    phone_page.wait_for_selector("#rating-chart svg")
    assert phone_page.evaluate(WIDTH) <= 390
    box = phone_page.locator("#rating-chart svg").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    heights = phone_page.evaluate(LABELS)
    assert heights and min(heights) >= 9  # px: the axis labels are read, not guessed
    assert phone_page.locator("#recent-matches tbody tr").count() == best.matches
    assert "最近对局" in phone_page.content()

    phone_page.emulate_media(media="print")
    stroke = phone_page.evaluate("() => getComputedStyle(document.querySelector('#rating-chart .line')).stroke")
    assert stroke == "rgb(0, 0, 0)"
