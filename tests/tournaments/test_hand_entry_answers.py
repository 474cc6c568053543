"""Issue 18: the answers of ``POST /api/v1/matches/{id}/hands/`` stay what they were before the hand
entry path was cut down (lock of the match row only, permission on the locked row, answer built from
the locked row without a re-read).

``golden/hand_entry_answers.json`` was captured from the code before the change (``GOLDEN_WRITE=1``
rewrites it — only do that on purpose). Volatile values are normalised: timestamps become ``"<ts>"``,
database ids become the match key, the stage or the entry name they stand for.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.models import Entry, Match, Stage, Team, Tournament
from tournaments.services import Actor
from tournaments.services.setup import entry_add, player_create, staff_add, tournament_create
from tournaments.services.stages import stage_create, stage_start, tournament_start

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden" / "hand_entry_answers.json"
SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
TAKEOVER = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
RED_FIVE = {"dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
            "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]}
YONGZHOU = {"points": [20, 130, 150]}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)")


def user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="pw-for-tests-123")


def api_for(who: Any | None = None, token: str | None = None) -> APIClient:
    api = APIClient()
    if who is not None:
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=who)[0].key}")
    elif token is not None:
        api.credentials(HTTP_X_TABLE_TOKEN=token)
    return api


def knockout(owner: Any, name: str, *, public: bool = True) -> Tournament:
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name=name, variant="tractor")
    for seed in range(1, 5):
        p1 = player_create(name=f"{name} P{seed}a", actor=actor)
        p2 = player_create(name=f"{name} P{seed}b", actor=actor)
        team = Team.objects.create(name=f"{name} 队{seed}", player1=p1, player2=p2)
        entry_add(tournament=tournament, actor=actor, team=team, seed=seed)
    tournament_start(tournament=tournament, actor=actor, seeding="manual")
    if not public:
        Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    tournament.refresh_from_db()
    return tournament


def tables(owner: Any, variant: str, players: int) -> Match:
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name=f"个人赛 {variant}", variant=variant)
    for i in range(players):
        entry_add(tournament=tournament, player=player_create(name=f"{variant} 选手{i}", rating=1500 - i, actor=actor),
                  actor=actor)
    stage = stage_create(tournament=tournament, actor=actor, format="table_rounds", rounds=2, hands_per_table=2)
    stage_start(stage=stage, actor=actor, random_seed=4)
    return Match.objects.filter(stage=stage, section="table").earliest("round__number", "position")


def first_match(tournament: Tournament) -> Match:
    return Match.objects.filter(stage__tournament=tournament, status="ready").earliest("position")


def normalise(value: Any, key: str = "") -> Any:
    """Timestamps → "<ts>"; ids → what they stand for (match key, stage, entry name)."""
    if isinstance(value, dict):
        return {k: normalise(v, k) for k, v in value.items()}
    if isinstance(value, list):
        if key == "entries":
            return [None if e is None else {**normalise({k: v for k, v in e.items() if k != "id"}),
                                            "id": Entry.objects.get(pk=e["id"]).name} for e in value]
        if key == "seats":
            return [{**s, "entry": Entry.objects.get(pk=s["entry"]).name} for s in value]
        return [normalise(v) for v in value]
    if value is None:
        return None
    if key.endswith("_at"):  # the format is kept: only an ISO-8601 time in the zone becomes "<ts>"
        return "<ts>" if isinstance(value, str) and TIMESTAMP.fullmatch(value) else value
    if key in ("id", "next_match", "loser_next_match") and isinstance(value, int):
        return "match " + Match.objects.get(pk=value).key
    if key == "stage" and isinstance(value, int):
        stage = Stage.objects.get(pk=value)
        return f"stage {stage.tournament.name} {stage.format}"
    return value


def post(api: APIClient, match_id: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post(f"/api/v1/matches/{match_id}/hands/", body, format="json")
    return {"status": response.status_code, "body": normalise(response.json())}


def version_of(match: Match) -> int:
    return Match.objects.get(pk=match.pk).version


def answers() -> dict[str, Any]:
    """Every case, in one fixed order (ids and names are the same in every run)."""
    owner, scorer, outsider = user("golden-owner"), user("golden-scorer"), user("golden-outsider")
    cup = knockout(owner, "Golden Cup")
    staff_add(tournament=cup, actor=Actor(owner), username=scorer.username, role="scorer")
    hidden = knockout(owner, "Hidden Cup", public=False)
    m = first_match(cup)
    out: dict[str, Any] = {}
    out["first hand (organizer)"] = post(api_for(owner), m.pk, {"version": m.version, "outcome": TAKEOVER,
                                                                 "dealer": 0, "trump": "h"})
    out["normal hand (scorer)"] = post(api_for(scorer), m.pk, {"version": version_of(m), "outcome": TAKEOVER})
    out["normal hand (table link)"] = post(api_for(token=m.scorer_token), m.pk,
                                           {"version": version_of(m), "outcome": TAKEOVER, "trump": None})
    out["400 bad figures"] = post(api_for(owner), m.pk, {"version": version_of(m),
                                                         "outcome": {"attackers_points": "x", "kitty_points": 0}})
    out["400 wrong dealer"] = post(api_for(owner), m.pk, {"version": version_of(m), "outcome": TAKEOVER, "dealer": 1})
    out["dealer named, as the rules say"] = post(api_for(owner), m.pk, {"version": version_of(m), "outcome": TAKEOVER,
                                                                        "dealer": 3})
    out["400 no version"] = post(api_for(owner), m.pk, {"outcome": TAKEOVER})
    out["401 anonymous"] = post(APIClient(), m.pk, {"version": version_of(m), "outcome": TAKEOVER})
    out["403 outsider"] = post(api_for(outsider), m.pk, {"version": version_of(m), "outcome": TAKEOVER})
    out["403 wrong token"] = post(api_for(token="not-the-token"), m.pk, {"version": version_of(m), "outcome": TAKEOVER})
    out["404 private"] = post(api_for(outsider), first_match(hidden).pk, {"version": 1, "outcome": TAKEOVER})
    out["404 no such match"] = post(api_for(owner), 999999, {"version": 1, "outcome": TAKEOVER})
    out["404 not a number"] = post(api_for(owner), "12x", {"version": 1, "outcome": TAKEOVER})
    out["409 stale"] = post(api_for(owner), m.pk, {"version": version_of(m) - 1, "outcome": TAKEOVER})
    for n in range(1, 5):  # shut out until the dealer side wins (2→5→8→J→won)
        out[f"shutout {n}"] = post(api_for(owner), m.pk, {"version": version_of(m), "outcome": SHUTOUT})
    out["400 finished"] = post(api_for(owner), m.pk, {"version": version_of(m), "outcome": SHUTOUT})
    pending = Match.objects.filter(stage__tournament=cup, status="pending").first()
    assert pending is not None
    out["400 not ready"] = post(api_for(owner), pending.pk, {"version": pending.version, "outcome": SHUTOUT})
    red = tables(owner, "red-five", 4)
    out["red five hand 1"] = post(api_for(token=red.scorer_token), red.pk, {"version": red.version, "outcome": RED_FIVE})
    out["red five 400"] = post(api_for(token=red.scorer_token), red.pk,
                               {"version": version_of(red), "outcome": {**RED_FIVE, "bid": 7}})
    out["red five dealer twice"] = post(api_for(owner), red.pk, {"version": version_of(red), "outcome": RED_FIVE,
                                                                 "dealer": 2})
    out["red five hand 2 (finishes)"] = post(api_for(owner), red.pk, {"version": version_of(red), "outcome": RED_FIVE})
    yong = tables(owner, "yongzhou-300", 3)
    out["yongzhou hand 1"] = post(api_for(token=yong.scorer_token), yong.pk,
                                  {"version": yong.version, "outcome": YONGZHOU})
    out["yongzhou tie without draw"] = post(api_for(owner), yong.pk, {"version": version_of(yong),
                                                                      "outcome": {"points": [100, 100, 100]}})
    out["yongzhou hand 2 (finishes)"] = post(api_for(owner), yong.pk, {"version": version_of(yong),
                                                                       "outcome": {"points": [150, 130, 20]}})
    return out


def test_hand_entry_answers_are_those_of_before_the_change() -> None:
    got = json.loads(json.dumps(answers(), ensure_ascii=False))
    if os.environ.get("GOLDEN_WRITE"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert set(got) == set(expected)
    for case, answer in expected.items():
        assert got[case] == answer, case
