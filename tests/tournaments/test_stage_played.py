"""Where a stage is played (issue 31): ``physical`` by default or ``online``; set when the stage is created
(the start form, the stage form, the API) and switched on the manage page until the stage is finished."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import TeamFactory, make_tournament
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Match, Stage
from tournaments.services import Actor
from tournaments.services.setup import entry_add
from tournaments.services.stages import stage_create, stage_played_set, tournament_start

pytestmark = pytest.mark.django_db


def test_stages_are_physical_unless_said(organizer):
    t = make_tournament(owner=organizer)
    stage = t.stages.get()
    assert stage.played == "physical"
    match = stage.matches.filter(status=Match.Status.READY).first()
    assert match is not None and not match.is_online


def test_an_online_elimination_and_a_match_override(organizer):
    t = make_tournament(owner=organizer, start=False)
    stage = tournament_start(tournament=t, actor=Actor(organizer), played="online")
    assert stage.played == "online"
    match = stage.matches.filter(status=Match.Status.READY).first()
    assert match.is_online
    match.played = "physical"  # one match of an online stage played at a table
    assert not match.is_online
    assert AuditEntry.objects.filter(action="tournament.start", data__played="online").exists()


def test_refused_values_and_finished_stages(organizer):
    t = make_tournament(owner=organizer, start=False)
    with pytest.raises(ServiceError) as exc:
        stage_create(tournament=t, actor=Actor(organizer), format="swiss", rounds=3, played="moon")
    assert "played" in exc.value.field_errors
    stage = stage_create(tournament=t, actor=Actor(organizer), format="swiss", rounds=3, played="online")
    assert stage_played_set(stage=stage, played="physical", actor=Actor(organizer)).played == "physical"
    audit = AuditEntry.objects.get(action="stage.played")
    assert audit.data == {"before": "online", "after": "physical"}
    Stage.objects.filter(pk=stage.pk).update(status="finished")
    with pytest.raises(ServiceError) as exc:
        stage_played_set(stage=stage, played="online", actor=Actor(organizer))
    assert "played" in exc.value.field_errors


def test_the_stage_form_and_the_switch_on_the_manage_page(client, organizer):
    t = make_tournament(owner=organizer, start=False)
    client.force_login(organizer)
    url = reverse("tournament-manage", args=[t.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert 'name="stage-played"' in page.content.decode()
    client.post(url, {"action": "stage_create", "stage-format": "swiss", "stage-rounds": "3",
                      "stage-played": "online"})
    stage = t.stages.get()
    assert stage.played == "online"
    html = client.get(url).content.decode()
    assert 'data-played="online"' in html
    client.post(url, {"action": "stage_played", "stage": stage.pk, "played": "physical"})
    stage.refresh_from_db()
    assert stage.played == "physical"


def test_the_api_field(organizer):
    t = make_tournament(owner=organizer, start=False)
    for _ in range(2):
        entry_add(tournament=t, actor=Actor(organizer), team=TeamFactory())
    api = APIClient()
    api.force_authenticate(organizer)
    made = api.post("/api/v1/stages/", {"tournament": t.pk, "format": "round_robin", "played": "online"},
                    format="json")
    assert made.status_code == 201, made.content
    assert made.json()["played"] == "online"
    bad = api.post("/api/v1/stages/", {"tournament": t.pk, "format": "round_robin", "played": "moon"}, format="json")
    assert bad.status_code == 400 and "played" in bad.json().get("errors", bad.json())
