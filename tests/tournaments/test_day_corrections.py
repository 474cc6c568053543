"""Corrections you can see: a before/after table of every later hand before saving, a confirmation when the
deal moves to the other side in later hands, and plain words when the match is already over."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_pages import SHUTOUT, build_tournament, first_match, login, make_user, win
from tournaments.models import HandRecord, Match, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.corrections import correction_preview

pytestmark = pytest.mark.django_db

TAKEOVER = {**SHUTOUT, "attackers_points": 120}  # the attackers take the deal


@pytest.fixture
def owner() -> Any:
    return make_user("correct_owner")


@pytest.fixture
def three_hands(owner: Any) -> Match:
    """Side 0 deals and shuts the attackers out three times (seats 0, 2, 0 deal)."""
    match = first_match(build_tournament(owner))
    for index in range(3):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner),
                    dealer=0 if index == 0 else None, trump="S")
    match.refresh_from_db()
    return match


def correct_post(match: Match, number: int, points: int, **extra: Any) -> dict[str, Any]:
    return {"action": "correct", "c-number": number, "c-version": match.version, "c-trump": "S",
            "c-attackers_points": points, "c-kitty_points": 0, "c-last_trick_winner": "dealer", **extra}


def snapshot(match: Match) -> list[tuple[Any, ...]]:
    return [(h.number, h.dealer, h.outcome, h.result) for h in HandRecord.objects.filter(match=match).order_by("number")]


def test_the_preview_replays_without_writing_and_names_the_later_hands_that_change_side(three_hands: Match) -> None:
    match = three_hands
    before, version = snapshot(match), match.version
    effect = correction_preview(match, 1, TAKEOVER)
    assert snapshot(match) == before and Match.objects.get(pk=match.pk).version == version
    assert [row.number for row in effect.rows] == [1, 2, 3]
    first, second, third = effect.rows
    assert (first.before.dealer, first.after.dealer) == (0, 0) and not first.side_changed
    assert first.before.levels == ("5", "2") and first.after.levels[0] == "2" and first.after.gaining_side == 1
    assert (second.before.dealer % 2, second.after.dealer % 2) == (0, 1) and second.side_changed
    assert (second.before.attacking_side, second.after.attacking_side) == (1, 0)
    assert third.side_changed and effect.later_sides_changed == [2, 3]
    # A correction that keeps the deal where it was changes levels, not sides.
    mild = correction_preview(match, 1, {**SHUTOUT, "attackers_points": 40})
    assert mild.later_sides_changed == [] and mild.rows[0].after.level_gain == 1 and mild.rows[1].changed


def test_the_page_shows_the_table_then_needs_the_confirmation(client: Client, three_hands: Match,
                                                              owner: Any) -> None:
    match = three_hands
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    html = client.get(url + "?hand=1").content.decode()
    assert 'value="correct_preview"' in html and 'id="correction-save"' not in html
    before = snapshot(match)
    html = client.post(url, correct_post(match, 1, 120, action="correct_preview")).content.decode()
    assert 'id="correction-effect"' in html and 'id="correction-save"' in html
    assert html.count('data-side-changed="1"') == 2 and 'id="effect-2"' in html and 'id="effect-3"' in html
    assert "In later hands (2, 3) the deal moves to the other side" in html and 'name="confirm_later"' in html
    assert snapshot(match) == before
    # Saving without the confirmation is refused with the reason, and writes nothing.
    html = client.post(url, correct_post(match, 1, 120)).content.decode()
    assert "confirm that their figures still hold" in html and snapshot(match) == before
    response = client.post(url, correct_post(match, 1, 120, confirm_later="1"), follow=True)
    assert "Hand 1 corrected" in response.content.decode()
    assert [h.dealer % 2 for h in HandRecord.objects.filter(match=match).order_by("number")] == [0, 1, 1]


def test_a_correction_that_keeps_the_sides_saves_without_the_confirmation(client: Client, three_hands: Match,
                                                                          owner: Any) -> None:
    match = three_hands
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    html = client.post(url, correct_post(match, 1, 40, action="correct_preview")).content.decode()
    assert "The later hands keep their dealers and attacking sides." in html
    assert 'name="confirm_later"' not in html
    assert "Hand 1 corrected" in client.post(url, correct_post(match, 1, 40), follow=True).content.decode()


def test_in_chinese_the_table_and_the_warning(client: Client, three_hands: Match, owner: Any) -> None:
    match = three_hands
    login(client, owner)
    client.cookies["django_language"] = "zh-hans"
    html = client.post(reverse("match-score", args=[match.pk]),
                       correct_post(match, 1, 120, action="correct_preview")).content.decode()
    assert "更正前后对比" in html and "之后的第 2, 3 局庄家换到了另一方" in html


def test_undo_and_correction_of_a_finished_match_say_so(client: Client, owner: Any) -> None:
    tournament: Tournament = build_tournament(owner)
    match = first_match(tournament)
    win(match, 0, Actor(owner))
    match.refresh_from_db()
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    html = client.get(url + "?hand=2").content.decode()
    assert 'id="correct-finished"' in html and f"This match is over: {match.entry0.name} won it." in html
    assert 'id="undo-finished"' in html and "undoing its last hand reopens it" in html
    client.cookies["django_language"] = "zh-hans"
    html = client.get(url + "?hand=2").content.decode()
    assert "本场对局已结束" in html
