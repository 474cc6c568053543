"""Issue 14 in the tournaments app: CSV injection, names, bad input answered 4xx (never 5xx)."""

from __future__ import annotations

import csv
import io
from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import TeamFactory, make_tournament, win_match
from tournaments.errors import ServiceError
from tournaments.forms import QuickPlayerForm, QuickTeamForm, TournamentForm
from tournaments.models import Match, Player, Team, Tournament
from tournaments.services import Actor
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import stage_create, stage_start
from tournaments.services.transfer import csv_import, csv_preview

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://evil.example/x","click")', "+1", "-1+2", "@SUM(A1:A9)", "\tTab team", "\rCR team"]


def api_for(user: Any) -> APIClient:
    client = APIClient()
    token, _created = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


def test_every_standings_csv_neutralises_formula_names_and_keeps_negative_numbers(organizer: Any) -> None:
    tournament = tournament_create(owner=organizer, name="CSV injection cup", variant="tractor")
    actor = Actor(organizer)
    for seed, name in enumerate(HOSTILE, start=1):
        entry_add(tournament=tournament, actor=actor, team=TeamFactory(name=name), seed=seed)
    stage = stage_create(tournament=tournament, actor=actor, format="swiss", rounds=2,
                         tiebreaks_order=["match_wins", "level_difference"])
    stage_start(stage=stage, actor=actor, random_seed=3)
    for match in Match.objects.filter(stage=stage, status="ready"):
        win_match(match, 0, actor)
    client = Client()
    downloads = {
        "page": client.get(reverse("standings-csv", args=[tournament.pk, stage.pk])),
        "api": APIClient().get(f"/api/v1/stages/{stage.pk}/standings-csv/"),
    }
    for where, response in downloads.items():
        assert response.status_code == 200, where
        table = rows_of(response.content.decode("utf-8"))
        names = {row[1] for row in table[1:]}
        assert names == {"'" + name for name in HOSTILE}, (where, names)
        cells = [cell for row in table[1:] for cell in row if cell]
        for cell in cells:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (where, cell)
        diffs = [int(row[-1]) for row in table[1:]]
        assert min(diffs) < 0 and any(str(d) in (row[-1] for row in table[1:]) for d in diffs if d < 0), where
        negative = [row[-1] for row in table[1:] if row[-1].startswith("-")]
        assert negative and all(cell.lstrip("-").isdigit() for cell in negative), (where, negative)


# --------------------------------------------------------------------------- names

BAD_NAMES = {"bidi": "Alice\u202eexe.txt", "invisible": "\u200b\u200d", "control": "Bob\x00"}


@pytest.mark.parametrize("kind", sorted(BAD_NAMES))
def test_names_refuse_bidi_overrides_invisible_and_control_characters(organizer: Any, kind: str) -> None:
    bad = BAD_NAMES[kind]
    api = api_for(organizer)
    p1, p2 = Player.objects.create(name="甲 A"), Player.objects.create(name="乙 B")
    answers = {
        "player": api.post("/api/v1/players/", {"name": bad}, format="json"),
        "team": api.post("/api/v1/teams/", {"name": bad, "player1": p1.pk, "player2": p2.pk}, format="json"),
        "tournament": api.post("/api/v1/tournaments/", {"name": bad, "variant": "tractor"}, format="json"),
    }
    for what, response in answers.items():
        assert response.status_code == 400, (what, response.content)
        assert "name" in response.json()["errors"], (what, response.json())
    assert not Team.objects.exists() and not Tournament.objects.exists()
    assert not Player.objects.exclude(pk__in=[p1.pk, p2.pk]).exists()
    assert "name" in TournamentForm({"name": bad, "variant": "tractor", "options": "{}"}).errors
    assert "name" in QuickPlayerForm({"name": bad}).errors
    assert "player1" in QuickTeamForm({"player1": bad, "player2": "x"}).errors


def test_csv_import_rows_name_the_line_of_a_bad_name(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=0, start=False)
    text = "team,player1,player2\nGood,A,B\nBad\u202eteam,C,D\n"
    preview = csv_preview(tournament=tournament, data=text)
    assert not preview.ok
    assert preview.rows[0].errors == [] and preview.rows[1].line == 3
    assert any(e.startswith("team:") and "U+202E" in e for e in preview.rows[1].errors), preview.rows[1].errors
    with pytest.raises(ServiceError) as caught:
        csv_import(tournament=tournament, data=text, actor=Actor(organizer))
    assert "line 3" in caught.value.field_errors
    assert not tournament.entries.exists()


def test_csv_import_checks_the_tournament_state_inside_its_lock(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=0, start=False)
    stale = Tournament.objects.get(pk=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    with pytest.raises(ServiceError) as caught:
        csv_import(tournament=stale, data="team,player1,player2\nT,A,B\n", actor=Actor(organizer))
    assert "tournament" in caught.value.field_errors
    assert not tournament.entries.exists()


# --------------------------------------------------------------------------- 4xx, never 5xx

@pytest.mark.parametrize("options", ["fast", [1, 2], 3, True])
def test_options_of_the_wrong_type_are_a_400_naming_options(organizer: Any, options: Any) -> None:
    api = api_for(organizer)
    created = api.post("/api/v1/tournaments/", {"name": "Opt", "variant": "tractor", "options": options},
                       format="json")
    assert created.status_code == 400, created.content
    assert "options" in created.json()["errors"]
    tournament = make_tournament(owner=organizer, teams=0, start=False)
    updated = api.patch(f"/api/v1/tournaments/{tournament.pk}/", {"options": options}, format="json")
    assert updated.status_code == 400, updated.content
    assert "options" in updated.json()["errors"]


@pytest.mark.parametrize("seed", [10**30, -1, 2**63])
def test_a_random_seed_out_of_range_is_a_400_naming_it(organizer: Any, seed: int) -> None:
    api = api_for(organizer)
    tournament = make_tournament(owner=organizer, teams=4, start=False)
    started = api.post(f"/api/v1/tournaments/{tournament.pk}/start/", {"seeding": "random", "random_seed": seed},
                       format="json")
    assert started.status_code == 400 and "random_seed" in started.json()["errors"], started.content
    stage = stage_create(tournament=tournament, actor=Actor(organizer), format="swiss", rounds=1)
    answer = api.post(f"/api/v1/stages/{stage.pk}/start/", {"random_seed": seed}, format="json")
    assert answer.status_code == 400 and "random_seed" in answer.json()["errors"], answer.content
    ok = api.post(f"/api/v1/stages/{stage.pk}/start/", {"random_seed": 2**63 - 1}, format="json")
    assert ok.status_code == 200, ok.content


def test_a_unique_key_taken_by_a_concurrent_create_is_a_409_with_a_code(organizer: Any) -> None:
    api = api_for(organizer)
    tournament = make_tournament(owner=organizer, teams=2, start=False)
    clash = IntegrityError("UNIQUE constraint failed: tournaments_stage.tournament_id, tournaments_stage.number")
    with mock.patch("tournaments.services.stages.stage_create", side_effect=clash):
        answer = api.post("/api/v1/stages/", {"tournament": tournament.pk, "format": "swiss", "rounds": 1},
                          format="json")
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "conflict" and answer.json()["detail"]
