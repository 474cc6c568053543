"""Recorded hands at individual tables through the API: the dealer named twice, and a yongzhou tie."""

from __future__ import annotations

import pytest

from tests.tournaments.test_api import client_for
from tests.tournaments.test_formats import individual
from tournaments.models import HandRecord, Match
from tournaments.services.stages import stage_create, stage_start

pytestmark = pytest.mark.django_db

RED_FIVE = {"dealer": 2, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
            "dealer_won_last_trick": True}


def table(organizer, variant: str) -> Match:
    t, actor = individual(organizer, variant, 4)
    stage = stage_create(tournament=t, actor=actor, format="table_rounds", rounds=1, hands_per_table=2)
    stage_start(stage=stage, actor=actor, random_seed=2)
    return Match.objects.get(stage=stage)


def test_red_five_dealer_named_twice_with_different_seats_is_400(organizer):
    m = table(organizer, "red-five")
    api = client_for(organizer)
    r = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "dealer": 1, "outcome": RED_FIVE},
                 format="json")
    assert r.status_code == 400 and list(r.json()["errors"]) == ["dealer"]
    assert "outcome.dealer" in r.json()["errors"]["dealer"][0]
    assert not HandRecord.objects.exists()
    r = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "dealer": 2, "outcome": RED_FIVE},
                 format="json")
    assert r.status_code == 201 and r.json()["hand"]["dealer"] == 2


def test_yongzhou_tie_needs_tie_break_at_a_table(organizer):
    m = table(organizer, "yongzhou-300")
    api = client_for(organizer)
    tied = {"points": [45, 105, 45, 105]}
    r = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": tied}, format="json")
    assert r.status_code == 400 and "outcome.tie_break" in r.json()["errors"]
    r = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": {**tied, "tie_break": 3}},
                 format="json")
    assert r.status_code == 201 and r.json()["result"]["next_dealer"] == 3
