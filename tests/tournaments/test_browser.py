"""The tournament pages in a real browser (Debian's Chromium through Playwright): an organizer creates and
starts an 8-team tournament; a scorer on a phone records hands until a match ends; the bracket advances
and the standings refresh themselves."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.test_pages import PASSWORD, SHUTOUT, build_tournament
from tournaments.models import HandRecord, Match, Tournament
from tournaments.services import Actor, hand_record

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")  # set it to look at the pages
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.press("#id_password", "Enter")
    page.wait_for_url(f"{base}/")


def test_an_organizer_creates_an_eight_team_tournament_and_starts_it(page: Any, live_server: Any) -> None:
    get_user_model().objects.create_user("organizer", password=PASSWORD)
    base = live_server.url
    log_in(page, base, "organizer")
    page.get_by_role("link", name="Tournaments", exact=True).click()
    page.get_by_role("link", name="New tournament").click()
    page.fill("#id_name", "俱乐部杯 Club Cup")
    page.select_option("#id_variant", "tractor")
    page.fill("#id_venue", "Hall 2")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/manage/$"))
    assert "Tournament “俱乐部杯 Club Cup” created." in page.content()

    for i in range(1, 9):
        page.fill("#id_player1", f"赵{i}")
        page.fill("#id_player2", f"钱{i}")
        page.fill("#id_seed", str(i))
        page.get_by_role("button", name="Add the team").click()
        page.wait_for_load_state()
        assert f"Team “赵{i} / 钱{i}” entered." in page.content()
    tournament = Tournament.objects.get(name="俱乐部杯 Club Cup")
    assert tournament.entries.count() == 8

    page.locator("#start label", has_text="manual").click()
    page.get_by_role("button", name="Start the tournament").click()
    page.wait_for_load_state()
    assert "The tournament has started" in page.content()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert page.locator("#tables input.token-link").count() == 4  # four quarter-finals at four tables

    page.get_by_role("link", name="Bracket").first.click()
    assert page.locator(".bracket-round").count() == 3
    first = page.locator("#bm-R1-M1")
    assert "赵1 / 钱1" in first.inner_text() and "赵8 / 钱8" in first.inner_text()


def test_a_scorer_on_a_phone_records_hands_until_the_match_ends(phone_page: Any, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    scorer = get_user_model().objects.create_user("scorer", password=PASSWORD)
    tournament = build_tournament(owner, teams=8, third_place=False)
    tournament.scorers.add(scorer)
    match = Match.objects.get(stage__tournament=tournament, key="R1-M1")
    page = phone_page
    base = live_server.url
    log_in(page, base, "scorer")
    page.goto(f"{base}/matches/{match.pk}/score/")
    # Nothing overflows sideways on a 390 px wide screen, and the save button is a big target.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save = page.locator("#save-hand")
    assert save.bounding_box()["height"] >= 56

    page.locator("label[for=id_dealer_0]").click()  # seat 0 deals the first hand
    page.locator("label[for=id_trump_1]").click()  # ♥
    # The +5 / −5 steppers change the figure, and the preview follows through htmx.
    page.locator("#field-attackers_points button[data-step='5']").click()
    page.locator("#field-attackers_points button[data-step='5']").click()
    assert page.input_value("#id_attackers_points") == "10"
    page.locator("#preview .preview[data-level-gain='2'][data-gaining-side='0']").wait_for()
    page.locator("#field-attackers_points button[data-step='-10']").click()
    page.locator("#preview .preview[data-level-gain='3']").wait_for()
    with page.expect_navigation():
        save.click()
    assert HandRecord.objects.filter(match=match).count() == 1

    for number in (2, 3, 4):
        # "Hand 2" or, on this zh-CN phone, "第 2 局"
        assert str(number) in page.locator(".hand-form h2").inner_text().split()
        page.locator("label[for=id_trump_0]").click()
        if number == 4:
            page.locator("#preview .preview[data-winner='0']").wait_for()
        with page.expect_navigation():
            page.locator("#save-hand").click()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == 0
    assert page.locator(".ok-box").is_visible()
    assert page.locator("#hand-form").count() == 0
    assert page.locator("table.hands tbody tr").count() == 4
    assert all(h.entered_by == scorer for h in HandRecord.objects.filter(match=match))
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/phone-score-finished.png", full_page=True)


def test_the_bracket_advances_and_the_standings_refresh_themselves(page: Any, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    tournament = build_tournament(owner, teams=8, third_place=False)
    match = Match.objects.get(stage__tournament=tournament, key="R1-M1")
    winner = match.entry0
    base = live_server.url
    page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    row = page.locator(f"tr[data-entry='{winner.pk}']")
    assert row.locator("td.wins").inner_text() == "0"  # no win yet
    actor = Actor(owner)
    for index in range(4):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                    dealer=0 if index == 0 else None)
    # The standings page polls every 10 s: the winner's row changes without a reload.
    page.wait_for_function(
        f"document.querySelector(\"tr[data-entry='{winner.pk}'] td.wins\").innerText === '1'",
        timeout=15_000)
    assert page.locator("tbody tr").first.get_attribute("data-entry") == str(winner.pk)
    page.goto(f"{base}/tournaments/{tournament.pk}/bracket/")
    semi = page.locator("#bm-R2-M1")
    assert winner.name in semi.inner_text()
    assert "✔" in page.locator("#bm-R1-M1 .bm-slot.won").inner_text()
