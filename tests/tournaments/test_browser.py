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


def shut_out(page: Any) -> None:
    """Enter a hand the dealer side wins without conceding a point (♠ trump)."""
    page.locator("label[for=id_trump_0]").click()
    page.fill("#id_attackers_points", "0")
    page.fill("#id_kitty_points", "0")
    page.locator("label[for=id_last_trick_winner_0]").click()


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
    assert page.locator("#tables a.token-link").count() == 4  # four quarter-finals at four tables

    page.get_by_role("link", name="Bracket").first.click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/bracket/$"))
    page.locator("#bm-R1-M1").wait_for()  # the click does not wait for the new page to be drawn
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

    # Nothing that changes the result is preset: the save button waits, and says what is missing.
    assert save.is_disabled() and page.locator("[data-save-gate]").is_visible()
    page.locator("label[for=id_dealer_0]").click()  # seat 0 deals the first hand
    page.locator("label[for=id_trump_1]").click()  # ♥
    page.fill("#id_kitty_points", "0")
    page.locator("label[for=id_last_trick_winner_0]").click()  # the dealer side
    assert save.is_disabled() and page.locator("[data-field=attackers_points]").is_visible()
    # The +5 / −5 steppers change the figure, and the preview follows through htmx.
    page.locator("#field-attackers_points button[data-step='5']").click()
    page.locator("#field-attackers_points button[data-step='5']").click()
    assert page.input_value("#id_attackers_points") == "10"
    page.locator("#preview .preview[data-level-gain='2'][data-gaining-side='0']").wait_for()
    page.locator("#field-attackers_points button[data-step='-10']").click()
    page.locator("#preview .preview[data-level-gain='3']").wait_for()
    assert save.is_enabled() and page.locator("[data-save-gate]").is_hidden()
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/phone-score-preview-zh.png", full_page=True)
    with page.expect_navigation():
        save.click()
    assert HandRecord.objects.filter(match=match).count() == 1

    for number in (2, 3, 4):
        # "Hand 2" or, on this zh-CN phone, "第 2 局"
        assert str(number) in page.locator(".hand-form h2").inner_text().split()
        assert "坐庄" in page.locator("#deal-line").inner_text()  # who deals and who attacks, in words
        shut_out(page)
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


def test_one_swiss_round_from_pairing_to_standings(page: Any, phone_page: Any, live_server: Any) -> None:
    """An organizer adds a Swiss stage to a 4-team tractor tournament and starts it; a scorer on a phone
    records both matches of round 1 until they end; the organizer pairs round 2; the standings show the
    two winners on top with one match point each."""
    from tournaments.models import Stage

    owner = get_user_model().objects.create_user("organizer", password=PASSWORD)
    scorer = get_user_model().objects.create_user("scorer", password=PASSWORD)
    tournament = build_tournament(owner, teams=4, start=False, name="瑞士轮 Swiss Night")
    tournament.scorers.add(scorer)
    base = live_server.url
    log_in(page, base, "organizer")
    page.goto(f"{base}/tournaments/{tournament.pk}/manage/")
    page.locator("#stage-form label[for=id_stage-format_2]").click()  # Swiss
    page.fill("#id_stage-rounds", "2")
    page.fill("#id_stage-tiebreaks", "match_wins, level_difference, buchholz")
    page.get_by_role("button", name="Add the stage").click()
    page.wait_for_load_state()
    stage = Stage.objects.get(tournament=tournament)
    assert stage.format == "swiss" and stage.tiebreaks == ["match_wins", "level_difference", "buchholz"]
    page.get_by_role("button", name="Start this stage").click()
    page.wait_for_load_state()
    assert "started" in page.content()
    matches = list(Match.objects.filter(stage=stage, round__number=1).order_by("position"))
    assert len(matches) == 2 and all(m.status == Match.Status.READY for m in matches)

    phone = phone_page
    log_in(phone, base, "scorer")
    for match in matches:
        phone.goto(f"{base}/matches/{match.pk}/score/")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.locator("label[for=id_dealer_0]").click()  # seat 0 deals: side 0 shuts the attackers out
        for number in (1, 2, 3, 4):
            shut_out(phone)
            if number == 4:
                phone.locator("#preview .preview[data-winner='0']").wait_for()
            with phone.expect_navigation(timeout=30_000):  # a liveness bound: CI's load once took it past 15 s
                phone.locator("#save-hand").click()
        assert phone.locator(".ok-box").is_visible()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.winner_side == 0
    if SCREENSHOTS:
        phone.screenshot(path=f"{SCREENSHOTS}/phone-swiss-finished.png", full_page=True)

    page.goto(f"{base}/tournaments/{tournament.pk}/manage/")
    assert page.locator(f"#stage-{stage.pk} a.outstanding").count() == 0
    page.get_by_role("button", name="Pair round 2").click()
    page.wait_for_load_state()
    assert "Round 2 is paired." in page.content()
    assert Match.objects.filter(stage=stage, round__number=2).count() == 2
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/manage-swiss.png", full_page=True)

    page.get_by_role("link", name="Standings").first.click()
    rows = page.locator(f"#standings-{stage.pk} tbody tr")
    winners = {str(m.entry0_id) for m in matches}
    assert {rows.nth(0).get_attribute("data-entry"), rows.nth(1).get_attribute("data-entry")} == winners
    for index in (0, 1):
        assert rows.nth(index).locator("td.col-match_wins").inner_text() == "1"
        assert rows.nth(index).locator("td.rank").inner_text().startswith("1")
    assert rows.nth(2).locator("td.col-match_wins").inner_text() == "0"
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/standings-swiss.png", full_page=True)


@pytest.mark.parametrize("lang", ["en-US", "zh-CN"])
def test_saving_the_details_keeps_the_dates_in_every_language(browser: Any, live_server: Any, lang: str) -> None:
    """The date pickers hold ISO dates whatever the language, so saving the form (here: switching the
    seats to the winds) keeps the dates; the match page then names seats by the winds."""
    owner = get_user_model().objects.create_user("owner", password=PASSWORD)
    tournament = build_tournament(owner, teams=4)
    context = browser.new_context(locale=lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    try:
        log_in(page, base, "owner")
        page.goto(f"{base}/tournaments/{tournament.pk}/manage/#details")
        assert page.input_value("#details #id_starts_on") == "2026-04-01"
        assert page.input_value("#details #id_ends_on") == "2026-04-02"
        page.locator("#details input[name=seat_names][value=compass]").check(force=True)
        if SCREENSHOTS:
            page.locator("#details").screenshot(path=f"{SCREENSHOTS}/details-{lang}.png")
        page.locator("#details button[type=submit]").click()
        page.wait_for_load_state()
        tournament.refresh_from_db()
        assert str(tournament.starts_on) == "2026-04-01" and str(tournament.ends_on) == "2026-04-02"
        assert tournament.seat_names == "compass"
        match = Match.objects.get(stage__tournament=tournament, key="R1-M1")
        page.goto(f"{base}/matches/{match.pk}/")
        text = page.locator(".match-state").inner_text()
        assert ("East" in text and "West" in text) if lang == "en-US" else ("东家" in text and "西家" in text)
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/match-{lang}.png", full_page=True)
    finally:
        context.close()
