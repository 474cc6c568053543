"""Seats as players say them (1–4 or the winds, per tournament) and sides by their team names, on pages,
printed sheets and messages; the API keeps 0-based seats."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.test_pages import SHUTOUT, build_tournament, first_match, make_user
from tournaments import documents as docs
from tournaments.labels import seat_label, seat_short, side_label
from tournaments.models import Match, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import tournament_update

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lang", "naming", "labels", "short"), [
    ("en", "numbers", ["seat 1", "seat 2", "seat 3", "seat 4"], ["1", "2", "3", "4"]),
    ("zh-hans", "numbers", ["1号座位", "2号座位", "3号座位", "4号座位"], ["1", "2", "3", "4"]),
    ("en", "compass", ["East", "South", "West", "North"], ["E", "S", "W", "N"]),
    ("zh-hans", "compass", ["东家", "南家", "西家", "北家"], ["东", "南", "西", "北"]),
])
def test_seat_labels_by_language_and_naming(lang: str, naming: str, labels: list[str], short: list[str]) -> None:
    tournament = Tournament(seat_names=naming)
    with translation.override(lang):
        assert [seat_label(tournament, s) for s in range(4)] == labels
        assert [seat_short(tournament, s) for s in range(4)] == short
        assert seat_label(tournament, None) == "—"


def test_sides_are_named_by_their_teams(owner: Any) -> None:
    match = first_match(build_tournament(owner))
    assert side_label(match, 0) == match.entry0.name and side_label(match, 1) == match.entry1.name
    empty = Match(entry0=None, entry1=None)
    with translation.override("en"):
        assert side_label(empty, 1) == "side 2"


@pytest.fixture
def owner() -> Any:
    return make_user("owner")


def compass_match(owner: Any) -> Match:
    tournament = build_tournament(owner)
    tournament_update(tournament=tournament, actor=Actor(owner), seat_names="compass")
    match = first_match(tournament)
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=1)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize(("lang", "dealer", "seats"), [
    ("en", "North (", ["East · ", "West · ", "South · ", "North · "]),
    ("zh-hans", "北家（", ["东家 · ", "西家 · ", "南家 · ", "北家 · "]),
])
def test_the_match_page_names_seats_by_the_winds(client: Client, owner: Any, lang: str, dealer: str,
                                                 seats: list[str]) -> None:
    match = compass_match(owner)
    client.force_login(owner)
    html = client.get(reverse("match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    # 0-based seat 1 (South) dealt and kept the deal: its partner, 0-based seat 3 (North), deals next.
    assert dealer in html or dealer.replace("（", " (") in html
    for label in seats:
        assert label in html
    assert match.entry1.name in html and "Side 0" not in html and "seat 0" not in html


def test_the_hand_saved_message_and_the_api_keep_their_own_numbers(client: Client, owner: Any) -> None:
    match = compass_match(owner)
    client.force_login(owner)
    response = client.post(reverse("match-score", args=[match.pk]), {
        "version": match.version, "trump": "S", "attackers_points": 0, "kitty_points": 0,
        "last_trick_winner": "dealer", "last_trick_largest": 1}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    text = response.content.decode()
    assert "Hand 2 saved." in text and "South (" in text and "deals next" in text  # North kept the deal
    data = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert data["state"]["dealer"] == 1  # the API keeps 0-based seats


def test_the_score_sheet_names_seats_by_the_winds(owner: Any) -> None:
    match = compass_match(owner)
    tournament = match.stage.tournament
    with translation.override("en"):
        document = docs.ScoreSheetsDocument(tournament=tournament, round=match.round, base_url="https://x.example")
        pdf, _pages = docs.pdf_bytes(document)
    from tests.tournaments.test_documents import pdf_text

    text, _images = pdf_text(pdf)
    compact = re.sub(r"\s+", "", text)
    assert "East:" in compact and "North:" in compact and "Seat0" not in compact
    assert "Partnerssitoppositeeachother:EastwithWest,SouthwithNorth." in compact
