"""Corrections for individual tables (issue 29): red five and Yongzhou tables get the partnership matches'
correction page — reached from each hand of the table's hand log ("Correct" / "更正"), the hand's figures in
the form, a before/after preview of that hand and every later one, then the save that recomputes the
totals. A final result is not corrected from a table link (only an organizer may: commit 0dfbb21)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.test_pages import login, make_user
from tests.tournaments.test_pages_formats import individual, table_of
from tournaments.labels import seat_player
from tournaments.models import HandRecord, Match, Tournament
from tournaments.selectors import pages
from tournaments.services import Actor
from tournaments.services.corrections import table_correction_preview
from tournaments.services.table_hands import table_hand_record

pytestmark = pytest.mark.django_db

RED_FIVE = [  # three hands: dealer, bid, trump, trick points, kitty, last trick
    {"dealer": 0, "bid": 120, "trump": "S", "dealer_points": 130, "kitty_points": 10, "dealer_won_last_trick": True,
     "red_fives": []},
    {"dealer": 1, "bid": 100, "trump": "H", "dealer_points": 60, "kitty_points": 0, "dealer_won_last_trick": False,
     "red_fives": []},
    {"dealer": 2, "bid": 110, "trump": "C", "dealer_points": 115, "kitty_points": 5, "dealer_won_last_trick": True,
     "red_fives": []},
]
YONGZHOU = [{"points": [120, 100, 80], "declarer": 0}, {"points": [90, 150, 60], "declarer": 1},
            {"points": [100, 100, 100], "declarer": 2, "tie_break": 2}]


def played(owner: Any, variant: str, *, hands: int = 3, figures: list[dict[str, Any]] | None = None,
           **options: Any) -> Match:
    _tournament, stage = individual(owner, variant, 4 if variant == "red-five" else 3, hands=hands)
    if options:
        Tournament.objects.filter(pk=stage.tournament_id).update(**options)
    match = table_of(stage)
    for outcome in figures or (RED_FIVE if variant == "red-five" else YONGZHOU)[:hands]:
        match.refresh_from_db()
        table_hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=Actor(owner))
    match.refresh_from_db()
    return match


def red_post(match: Match, number: int, action: str = "correct", **figures: Any) -> dict[str, Any]:
    stored = HandRecord.objects.get(match=match, number=number).outcome
    data = {"action": action, "c-number": number, "c-version": match.version, "c-dealer": stored["dealer"],
            "c-bid": stored["bid"], "c-trump": stored["trump"], "c-dealer_points": stored["dealer_points"],
            "c-kitty_points": stored["kitty_points"],
            "c-dealer_won_last_trick": "yes" if stored["dealer_won_last_trick"] else "no"}
    data.update({f"c-{k}": v for k, v in figures.items()})
    return data


def snapshot(match: Match) -> list[tuple[Any, ...]]:
    return [(h.number, h.dealer, h.outcome, h.result) for h in HandRecord.objects.filter(match=match).order_by("number")]


@pytest.fixture
def owner() -> Any:
    return make_user("table_correct_owner")


@pytest.mark.parametrize(("language", "words"), [
    ("en", {"title": "Correct hand 2", "link": ">Correct<", "effect": "Before and after the correction",
            "saved": "Hand 1 corrected; the table&#x27;s totals were recomputed."}),
    ("zh-hans", {"title": "更正第 2 局", "link": ">更正<", "effect": "更正前后对比", "saved": "第 1 局已更正"}),
])
def test_the_red_five_correction_page(client: Client, owner: Any, language: str, words: dict[str, str]) -> None:
    match = played(owner, "red-five")
    tournament = match.stage.tournament
    client.cookies["django_language"] = language
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    page = client.get(url).content.decode()
    for number in (1, 2, 3):  # every row of the hand log links to its correction
        assert f"?hand={number}#correct" in page
    assert words["link"] in page
    html = client.get(url + "?hand=2").content.decode()
    assert 'id="correct"' in html and words["title"] in html and 'id="correction-save"' not in html
    # the form holds hand 2's figures: dealer seat 2 (index 1), bid 100, ♥, 60 points, no last trick
    assert 'name="c-number" value="2"' in html and 'name="c-bid" value="100"' in html
    assert 'name="c-dealer_points" value="60"' in html and 'name="c-kitty_points" value="0"' in html
    form = html.split('id="correct"')[1].split("</form>")[0]
    checked = dict(re.findall(r'name="c-([a-z_]+)" value="([^"]*)"[^>]*\bchecked', form))
    assert checked == {"dealer": "1", "trump": "H", "dealer_won_last_trick": "no"}, checked
    names = {seat["seat"]: seat["name"] for seat in pages.table_seats(match)}
    assert f"2 · {names[1]}</label>" in form  # the dealer choice: the seat as people count it, and the player

    # preview: hand 1's dealer made only 100 of the bid 120: hands 1–3 before and after, nothing written
    before, version, totals = snapshot(match), match.version, list(match.state["totals"])
    preview = client.post(url, red_post(match, 1, dealer_points=100, action="correct_preview")).content.decode()
    assert 'id="correction-effect"' in preview and words["effect"] in preview and 'id="correction-save"' in preview
    for number in (1, 2, 3):
        assert f'id="effect-{number}"' in preview
    effect = table_correction_preview(match, 1, {**RED_FIVE[0], "dealer_points": 100})
    first = effect.rows[0]
    assert first.changed and first.before.values != first.after.values
    assert f"{first.before.values[0]} → <strong>{first.after.values[0]}</strong>" in preview
    assert effect.rows[-1].after.totals != effect.rows[-1].before.totals
    assert [row.after.values for row in effect.rows[1:]] == [row.before.values for row in effect.rows[1:]]
    with translation.override(language):
        seat_one = seat_player(tournament, 0, names[0])  # "Seat 1 · name" / "1号座位 · name"
    assert seat_one in preview.split('id="correction-effect"')[1]
    assert snapshot(match) == before and Match.objects.get(pk=match.pk).version == version

    # save: the totals are recomputed
    saved = client.post(url, red_post(match, 1, dealer_points=100), follow=True)
    assert saved.status_code == 200 and words["saved"] in saved.content.decode()
    match.refresh_from_db()
    assert match.version == version + 1 and match.hands_played == 3
    assert match.state["totals"] == list(effect.totals_after) != totals
    assert HandRecord.objects.get(match=match, number=1).outcome["dealer_points"] == 100


def test_the_yongzhou_preview_shows_later_hands_dealt_from_another_seat(client: Client, owner: Any) -> None:
    match = played(owner, "yongzhou-300")
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    html = client.get(url + "?hand=1").content.decode()
    assert 'name="c-points_0" value="120"' in html and 'name="c-points_2" value="80"' in html
    # seat 2 (index 1) now wins hand 1: hand 2 is dealt to first from there
    data = {"action": "correct_preview", "c-number": 1, "c-version": match.version, "c-points_0": 100,
            "c-points_1": 120, "c-points_2": 80, "c-declarer": 0}
    preview = client.post(url, data).content.decode()
    assert 'id="correction-effect"' in preview and 'id="effect-dealers"' in preview
    effect = table_correction_preview(match, 1, {"points": [100, 120, 80], "declarer": 0})
    assert effect.later_dealers_changed == [2] and effect.rows[1].after.dealer == 1
    saved = client.post(url, {**data, "action": "correct"})
    assert saved.status_code == 302
    match.refresh_from_db()
    assert match.state["totals"] == list(effect.totals_after)
    assert HandRecord.objects.get(match=match, number=2).dealer == 1


def test_the_figures_errors_show_on_the_correction_form(client: Client, owner: Any) -> None:
    match = played(owner, "yongzhou-300")
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    before = snapshot(match)
    html = client.post(url, {"action": "correct_preview", "c-number": 1, "c-version": match.version,
                             "c-points_0": 100, "c-points_1": 100, "c-points_2": 50, "c-declarer": 0}).content.decode()
    assert 'id="correct"' in html and 'id="correction-save"' not in html and "300" in html
    assert snapshot(match) == before


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_final_result_is_not_corrected_from_the_table_link(owner: Any, language: str) -> None:
    match = played(owner, "red-five", hands=2, require_confirmation=False)
    assert match.status == Match.Status.FINISHED and match.confirmed_at is not None
    client = Client()
    client.cookies["django_language"] = language
    page = client.get(f"/t/{match.scorer_token}/", follow=True).content.decode()
    assert "?hand=1#correct" not in page and 'id="result-final"' in page
    session_url = reverse("table-session", args=[match.pk])
    assert 'id="correct"' not in client.get(session_url + "?hand=1").content.decode()
    before = snapshot(match)
    for action in ("correct_preview", "correct"):  # refused: the site's 403, or (anonymous) its log-in page
        refused = client.post(session_url, red_post(match, 1, action, dealer_points=100))
        assert refused.status_code == 403 or (refused.status_code == 302
                                              and refused["Location"].startswith("/accounts/login/")), refused
        assert 'id="correction-effect"' not in refused.content.decode()
    assert snapshot(match) == before
    # the organizer, signed in, still can
    organizer = Client()
    login(organizer, owner)
    own = organizer.get(reverse("match-score", args=[match.pk])).content.decode()
    assert "?hand=1#correct" in own
    assert organizer.post(reverse("match-score", args=[match.pk]), red_post(match, 1, dealer_points=100)).status_code == 302
    assert HandRecord.objects.get(match=match, number=1).outcome["dealer_points"] == 100


def test_a_table_link_corrects_while_the_result_is_open(owner: Any) -> None:
    match = played(owner, "red-five", hands=3, figures=RED_FIVE[:2])  # two of three hands: still playing
    client = Client()
    page = client.get(f"/t/{match.scorer_token}/", follow=True).content.decode()
    assert "?hand=2#correct" in page
    url = reverse("table-session", args=[match.pk])
    assert client.post(url, red_post(match, 2, dealer_points=70)).status_code == 302
    assert HandRecord.objects.get(match=match, number=2).outcome["dealer_points"] == 70


def test_an_individual_tables_hand_entered_trick_by_trick_links_to_its_replay(client: Client, owner: Any) -> None:
    """Issue 28: every match links to its replays — on a red-five table's hand log as on a partnership match's."""
    match = played(owner, "red-five", hands=2)
    HandRecord.objects.filter(match=match, number=2).update(trick_log={"format": "shengji-record/1"})
    login(client, owner)
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    rows = {n: re.search(rf'<tr id="hand-{n}".*?</tr>', html, re.S) for n in (1, 2)}
    assert rows[1] is not None and rows[2] is not None
    assert f'href="{reverse("hand-replay", args=[match.pk, 2])}"' in rows[2].group(0)  # in the hand's own row
    assert "hand-replay" not in rows[1].group(0) and "/replay/" not in rows[1].group(0)  # by its totals: no tricks
