"""One answer for a hand written through the API (tournaments.apis.hands.hand_answer): recorded or
corrected, a partnership match or an individual table, it says what the serializers say of the stored
rows — the match as it stands after the write, with its entries and seats."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.renderers import JSONRenderer

from tests.tournaments.factories import SHUTOUT, TAKEOVER, make_tournament
from tests.tournaments.test_api import client_for, first_match
from tests.tournaments.test_pages import make_user
from tests.tournaments.test_table_corrections import played
from tournaments.apis.hands import HandSerializer
from tournaments.apis.serializers import MatchSerializer
from tournaments.models import HandRecord, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return make_user("hand_answer_owner")


def as_stored(match_id: int, number: int) -> dict[str, Any]:
    """What the serializers answer for the stored match and hand, as JSON would carry it."""
    match = Match.objects.get(pk=match_id)
    hand = HandRecord.objects.get(match=match, number=number)
    return json.loads(JSONRenderer().render({"hand": HandSerializer(hand).data, "match": MatchSerializer(match).data}))


def test_a_recorded_and_a_corrected_hand_answer_as_the_serializers_do(organizer: Any) -> None:
    match = first_match(make_tournament(owner=organizer, teams=2))
    api = client_for(organizer)
    recorded = api.post(f"/api/v1/matches/{match.pk}/hands/", {"version": match.version, "outcome": SHUTOUT,
                                                                "dealer": 0}, format="json")
    assert recorded.status_code == 201
    assert {k: recorded.json()[k] for k in ("hand", "match")} == as_stored(match.pk, 1)
    corrected = api.put(f"/api/v1/matches/{match.pk}/hands/1/", {"version": recorded.json()["match"]["version"],
                                                                 "outcome": TAKEOVER}, format="json")
    assert corrected.status_code == 200
    body = corrected.json()
    assert {k: body[k] for k in ("hand", "match")} == as_stored(match.pk, 1)
    assert body["match"]["version"] > recorded.json()["match"]["version"] and body["warnings"] == []


def test_an_individual_tables_correction_answers_with_its_seats(owner: Any) -> None:
    table = played(owner, "red-five", hands=2)
    outcome = {**HandRecord.objects.get(match=table, number=1).outcome, "dealer_points": 60}
    answer = client_for(owner).put(f"/api/v1/matches/{table.pk}/hands/1/", {"version": table.version,
                                                                             "outcome": outcome}, format="json")
    assert answer.status_code == 200, answer.json()
    assert {k: answer.json()[k] for k in ("hand", "match")} == as_stored(table.pk, 1)
    assert len(answer.json()["match"]["seats"]) == 4
