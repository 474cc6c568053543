"""The tournaments REST API: lifecycle, hand recording (201 / 400 / 409), and roles × writes."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import (
    SHUTOUT,
    TAKEOVER,
    TeamFactory,
    UserFactory,
    make_tournament,
    win_match,
)
from tournaments.models import AuditEntry, Entry, HandRecord, Match, Player, Team, Tournament
from tournaments.services import Actor
from tournaments.services.setup import staff_add

pytestmark = pytest.mark.django_db


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def first_match(t: Tournament) -> Match:
    return Match.objects.filter(stage__tournament=t, status="ready").order_by("position").first()


def test_full_lifecycle_through_the_api(organizer):
    api = client_for(organizer)
    players = [api.post("/api/v1/players/", {"name": name, "club": "长沙"}, format="json").json()["id"]
               for name in ["王小明", "李华", "Zoë Dubois", "Ali Hassan"]]
    teams = [api.post("/api/v1/teams/", {"name": n, "player1": a, "player2": b}, format="json")
             for n, a, b in [("王李", players[0], players[1]), ("Zoë & Ali", players[2], players[3])]]
    assert [r.status_code for r in teams] == [201, 201]
    assert teams[0].json()["player_names"] == ["王小明", "李华"]
    response = api.post("/api/v1/tournaments/", {"name": "湖南公开赛", "variant": "tractor"}, format="json")
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for seed, team in enumerate(teams, start=1):
        r = api.post("/api/v1/entries/", {"tournament": tid, "team": team.json()["id"], "seed": seed}, format="json")
        assert r.status_code == 201, r.json()
    r = api.post(f"/api/v1/tournaments/{tid}/start/", {"seeding": "manual"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "running"
    match = api.get(f"/api/v1/matches/?tournament={tid}").json()["results"][0]
    assert [e["name"] for e in match["entries"]] == ["王李", "Zoë & Ali"]
    version = match["version"]
    for index in range(4):
        body = {"version": version, "outcome": SHUTOUT, "dealer": 0 if index == 0 else None, "trump": "S"}
        r = api.post(f"/api/v1/matches/{match['id']}/hands/", body, format="json")
        assert r.status_code == 201, r.json()
        version = r.json()["match"]["version"]
    data = r.json()
    assert data["result"]["match_winner"] == 0
    assert data["match"]["status"] == "finished" and data["match"]["winner_side"] == 0
    standings = api.get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert standings[0]["name"] == "王李" and standings[0]["place"] == "1" and standings[0]["rank"] == 1
    assert standings[1]["name"] == "Zoë & Ali" and standings[1]["rank"] == 2
    bracket = api.get(f"/api/v1/tournaments/{tid}/bracket/").json()
    assert bracket[0]["rounds"][0]["matches"][0]["winner_side"] == 0
    hands = api.get(f"/api/v1/matches/{match['id']}/hands/").json()
    assert [h["number"] for h in hands] == [1, 2, 3, 4] and hands[0]["entered_by"] == "organizer"


def test_recording_answers_the_result_and_new_state_like_the_scoring_api(organizer):
    t = make_tournament(owner=organizer, teams=2)
    m = first_match(t)
    outcome = {"attackers_points": 35, "kitty_points": 10, "last_trick": {"winner": "attackers", "largest": 2}}
    r = client_for(organizer).post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": outcome,
                                                                     "dealer": 0}, format="json")
    assert r.status_code == 201
    scored = APIClient().post("/api/v1/scoring/hand", {"variant": "tractor", "state": {"levels": ["2", "2"], "dealer": 0},
                                                       "outcome": outcome}, format="json").json()
    assert r.json()["result"] == scored
    assert r.json()["match"]["state"] == scored["state"]


def test_stale_version_is_409_with_the_current_state_and_nothing_lost(organizer):
    t = make_tournament(owner=organizer, teams=2)
    m = first_match(t)
    api = client_for(organizer)
    first = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": SHUTOUT, "dealer": 0},
                     format="json")
    assert first.status_code == 201
    second = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": TAKEOVER}, format="json")
    assert second.status_code == 409
    body = second.json()
    assert body["code"] == "stale_version" and body["detail"]
    assert body["current"]["hands_played"] == 1 and body["current"]["version"] == first.json()["match"]["version"]
    assert HandRecord.objects.filter(match=m).count() == 1


def test_bad_figures_are_400_with_a_message_per_field(organizer):
    m = first_match(make_tournament(owner=organizer, teams=2))
    bad = {"attackers_points": 205, "kitty_points": 7, "last_trick": {"winner": "nobody", "largest": 1}}
    r = client_for(organizer).post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": bad,
                                                                     "dealer": 0}, format="json")
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert {"outcome.kitty_points", "outcome.last_trick.winner"} <= set(errors)
    assert all(errors[k] and all(isinstance(x, str) and x for x in errors[k]) for k in errors)
    r = client_for(organizer).post(f"/api/v1/matches/{m.pk}/hands/", {"outcome": SHUTOUT}, format="json")
    assert r.status_code == 400 and "version" in r.json()["errors"]
    assert not HandRecord.objects.exists()


def test_messages_follow_the_request_language(organizer):
    m = first_match(make_tournament(owner=organizer, teams=2))
    bad = {"attackers_points": 33, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
    r = client_for(organizer).post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": bad,
                                                                     "dealer": 0}, format="json",
                                   HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert r.status_code == 400
    assert "5" in r.json()["errors"]["outcome.attackers_points"][0]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in r.json()["errors"]["outcome.attackers_points"][0])


def test_correct_and_undo_through_the_api(organizer):
    t = make_tournament(owner=organizer, teams=2)
    m = first_match(t)
    api = client_for(organizer)
    v = api.post(f"/api/v1/matches/{m.pk}/hands/", {"version": m.version, "outcome": SHUTOUT, "dealer": 0},
                 format="json").json()["match"]["version"]
    r = api.put(f"/api/v1/matches/{m.pk}/hands/1/", {"version": v, "outcome": TAKEOVER}, format="json")
    assert r.status_code == 200 and r.json()["match"]["state"]["dealer"] == 1
    r2 = api.post(f"/api/v1/matches/{m.pk}/hands/undo/", {"version": r.json()["match"]["version"]}, format="json")
    assert r2.status_code == 200 and r2.json()["hands_played"] == 0
    r3 = api.put(f"/api/v1/matches/{m.pk}/hands/5/", {"version": r2.json()["version"], "outcome": TAKEOVER},
                 format="json")
    assert r3.status_code == 400 and "number" in r3.json()["errors"]


def test_forced_correction_through_the_api_is_organizer_only(organizer):
    scorer = UserFactory(username="scorer")
    t = make_tournament(owner=organizer, teams=4)
    staff_add(tournament=t, username="scorer", role="scorer", actor=Actor(organizer))
    semi1, semi2 = Match.objects.filter(stage__tournament=t, round__number=1).order_by("position")
    win_match(semi1, 0, Actor(scorer))
    win_match(semi2, 0, Actor(scorer))
    final = Match.objects.get(pk=semi1.next_match_id)
    client_for(scorer).post(f"/api/v1/matches/{final.pk}/hands/", {"version": final.version, "outcome": SHUTOUT,
                                                                   "dealer": 0}, format="json")
    semi1.refresh_from_db()
    body = {"version": semi1.version, "outcome": TAKEOVER}
    refused = client_for(scorer).put(f"/api/v1/matches/{semi1.pk}/hands/4/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "correction_refused"
    assert refused.json()["affected"] == [final.key]
    forbidden = client_for(scorer).put(f"/api/v1/matches/{semi1.pk}/hands/4/", {**body, "force": True}, format="json")
    assert forbidden.status_code == 403
    forced = client_for(organizer).put(f"/api/v1/matches/{semi1.pk}/hands/4/", {**body, "force": True}, format="json")
    assert forced.status_code == 200 and forced.json()["warnings"]


# --------------------------------------------------------------------------- roles × writes


@pytest.fixture
def world(organizer):
    scorer = UserFactory(username="scorer")
    other_scorer = UserFactory(username="other-scorer")
    t = make_tournament(owner=organizer, teams=4)
    other = make_tournament(owner=UserFactory(username="other-owner"), teams=2)
    staff_add(tournament=t, username="scorer", role="scorer", actor=Actor(organizer))
    staff_add(tournament=other, username="other-scorer", role="scorer", actor=Actor(other.owner))
    return {"t": t, "other": other, "organizer": organizer, "scorer": scorer, "other_scorer": other_scorer,
            "outsider": UserFactory(username="outsider")}


def hand_body(m: Match) -> dict[str, Any]:
    m.refresh_from_db()
    return {"version": m.version, "outcome": SHUTOUT, "dealer": 0 if m.hands_played == 0 else None}


ROLES = ["anonymous", "outsider", "other_scorer", "scorer", "organizer"]
# role → expected status for each write on tournament t
EXPECTED = {
    "record hand": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 201, "organizer": 201},
    "start": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 400},
    "status": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 400},  # open matches
    "staff": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 200},
    "award": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 200},
    "update": {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 200},
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", list(EXPECTED))
def test_each_role_for_each_write(world, role, write):
    t = world["t"]
    api = client_for(None if role == "anonymous" else world[role])
    m = first_match(t)
    if write == "record hand":
        r = api.post(f"/api/v1/matches/{m.pk}/hands/", hand_body(m), format="json")
    elif write == "start":
        r = api.post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    elif write == "status":
        r = api.post(f"/api/v1/tournaments/{t.pk}/status/", {"status": "finished"}, format="json")
    elif write == "staff":
        r = api.post(f"/api/v1/tournaments/{t.pk}/staff/", {"username": "outsider", "role": "scorer"}, format="json")
    elif write == "award":
        r = api.post(f"/api/v1/matches/{m.pk}/award/", {"winner_side": 0, "reason": "no show"}, format="json")
    else:
        r = api.patch(f"/api/v1/tournaments/{t.pk}/", {"venue": "长沙"}, format="json")
    assert r.status_code == EXPECTED[write][role], r.content
    assert r.json().get("detail") or r.status_code < 400 or r.json().get("errors")


def test_table_token_opens_its_own_table_only(world):
    t = world["t"]
    m1, m2 = Match.objects.filter(stage__tournament=t, status="ready").order_by("position")
    anon = APIClient()
    ok = anon.post(f"/api/v1/matches/{m1.pk}/hands/", hand_body(m1), format="json", HTTP_X_TABLE_TOKEN=m1.scorer_token)
    assert ok.status_code == 201
    assert HandRecord.objects.get(match=m1).entered_via == "token"
    wrong = anon.post(f"/api/v1/matches/{m2.pk}/hands/", hand_body(m2), format="json", HTTP_X_TABLE_TOKEN=m1.scorer_token)
    assert wrong.status_code == 403
    award = anon.post(f"/api/v1/matches/{m1.pk}/award/", {"winner_side": 0, "reason": "x"}, format="json",
                      HTTP_X_TABLE_TOKEN=m1.scorer_token)
    assert award.status_code == 401


def test_private_tournament_is_invisible_to_the_public_api(organizer):
    t = make_tournament(owner=organizer, teams=2, is_public=False)
    assert APIClient().get(f"/api/v1/tournaments/{t.pk}/").status_code == 404
    assert APIClient().get(f"/api/v1/matches/?tournament={t.pk}").json()["results"] == []
    assert client_for(organizer).get(f"/api/v1/tournaments/{t.pk}/").status_code == 200


def test_players_and_teams_writes_need_sign_in_and_staff_to_edit(organizer):
    anon = APIClient()
    assert anon.post("/api/v1/players/", {"name": "x"}, format="json").status_code == 401
    created = client_for(organizer).post("/api/v1/players/", {"name": "陈静"}, format="json")
    assert created.status_code == 201
    pid = created.json()["id"]
    assert client_for(organizer).patch(f"/api/v1/players/{pid}/", {"club": "x"}, format="json").status_code == 403
    staff = UserFactory(username="staff", is_staff=True)
    assert client_for(staff).patch(f"/api/v1/players/{pid}/", {"club": "x"}, format="json").status_code == 200
    blank = client_for(organizer).post("/api/v1/players/", {"name": "   "}, format="json")
    assert blank.status_code == 400 and "name" in blank.json()["errors"]
    team = TeamFactory()
    same = client_for(organizer).post("/api/v1/teams/", {"name": "t", "player1": team.player1_id,
                                                         "player2": team.player1_id}, format="json")
    assert same.status_code == 400 and "player2" in same.json()["errors"]


def test_player_team_and_tournament_edits_and_deletes_go_through_services_with_audit_entries(organizer):
    """Staff edits and deletes of players and teams, and an organizer deleting a draft tournament, each
    leave an audit entry naming who did it and what changed."""
    staff = UserFactory(username="staff-audit", is_staff=True)
    api = client_for(staff)
    team = TeamFactory()
    pid = api.post("/api/v1/players/", {"name": "李雷"}, format="json").json()["id"]
    assert api.patch(f"/api/v1/players/{pid}/", {"club": "北京", "name": "  李  雷 "}, format="json").status_code == 200
    player = Player.objects.get(pk=pid)
    assert (player.club, player.name) == ("北京", "李 雷")
    edit = AuditEntry.objects.get(action="player.update", target=f"player:{pid}")
    assert edit.actor == staff and edit.via == "api" and edit.data == {"club": "北京", "name": "李 雷"}
    assert api.delete(f"/api/v1/players/{pid}/").status_code == 204
    assert not Player.objects.filter(pk=pid).exists()
    assert AuditEntry.objects.get(action="player.delete", target=f"player:{pid}").data == {"name": "李 雷"}
    # A player in a team cannot go: 400 on ``id``, and nothing is logged.
    refused = api.delete(f"/api/v1/players/{team.player1_id}/")
    assert refused.status_code == 400 and "id" in refused.json()["errors"]
    assert not AuditEntry.objects.filter(action="player.delete", target=f"player:{team.player1_id}").exists()

    assert api.patch(f"/api/v1/teams/{team.pk}/", {"rating": 1500}, format="json").status_code == 200
    assert Team.objects.get(pk=team.pk).rating == 1500
    assert AuditEntry.objects.get(action="team.update", target=f"team:{team.pk}").data == {"rating": "1500"}
    name = team.name
    assert api.delete(f"/api/v1/teams/{team.pk}/").status_code == 204
    assert AuditEntry.objects.get(action="team.delete", target=f"team:{team.pk}").data == {"name": name}

    draft = make_tournament(owner=organizer, teams=2, start=False)
    assert client_for(organizer).delete(f"/api/v1/tournaments/{draft.pk}/").status_code == 204
    gone = AuditEntry.objects.get(action="tournament.delete", target=f"tournament:{draft.pk}")
    assert gone.actor == organizer and gone.tournament is None and gone.data == {"name": draft.name}
    running = make_tournament(owner=organizer, teams=2)
    refused = client_for(organizer).delete(f"/api/v1/tournaments/{running.pk}/")
    assert refused.status_code == 400 and "status" in refused.json()["errors"]
    assert Tournament.objects.filter(pk=running.pk).exists()


def test_formats_through_the_api(organizer):
    """A Swiss stage: create, start, record, pair the next round, read the standings and their CSV."""
    api = client_for(organizer)
    t = make_tournament(owner=organizer, teams=4, start=False)
    stage = api.post("/api/v1/stages/", {"tournament": t.pk, "format": "swiss", "rounds": 2,
                                         "tiebreaks": ["match_wins", "level_difference", "buchholz"]}, format="json")
    assert stage.status_code == 201, stage.json()
    sid = stage.json()["id"]
    assert api.post(f"/api/v1/stages/{sid}/start/", {"random_seed": 4}, format="json").status_code == 200
    refused = api.post(f"/api/v1/stages/{sid}/next-round/", {}, format="json")
    assert refused.status_code == 400 and "stage" in refused.json()["errors"]
    for m in Match.objects.filter(stage_id=sid, status="ready"):
        win_match(m, 0, Actor(organizer))
    assert api.post(f"/api/v1/stages/{sid}/next-round/", {}, format="json").status_code == 200
    table = api.get(f"/api/v1/stages/{sid}/standings/").json()
    assert table["kind"] == "matches"
    assert [c["key"] for c in table["columns"]][-3:] == ["match_wins", "level_difference", "buchholz"]
    assert table["rows"][0]["values"]["match_wins"] == 1
    csv_text = api.get(f"/api/v1/stages/{sid}/standings-csv/").content.decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("Rank,Name")
    assert api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()[0]["values"]["match_wins"] == 1


def test_export_import_and_csv_entries_through_the_api(organizer):
    api = client_for(organizer)
    t = make_tournament(owner=organizer, teams=2)
    doc = api.get(f"/api/v1/tournaments/{t.pk}/export/").json()
    assert doc["format"] == "shengji-tournament"
    assert client_for(UserFactory(username="x")).get(f"/api/v1/tournaments/{t.pk}/export/").status_code == 403
    created = api.post("/api/v1/tournaments/import/", doc, format="json")
    assert created.status_code == 201 and created.json()["name"] == t.name
    fresh = api.post("/api/v1/tournaments/", {"name": "CSV Cup"}, format="json").json()
    csv_text = "team,player1,player2\n王李,王小明,李华\n坏,甲,\n"
    url = f"/api/v1/tournaments/{fresh['id']}/import-entries/"
    preview = api.post(url, {"csv": csv_text, "preview": True}, format="json").json()
    assert preview["mode"] == "preview" and preview["imported"] == 0
    assert preview["ok"] is False and preview["rows"][1]["errors"]
    bad = api.post(url, {"csv": csv_text}, format="json")  # no preview asked: a real import, refused whole
    assert bad.status_code == 400 and "line 3" in bad.json()["errors"]
    good_csv = "team,player1,player2\n王李,王小明,李华\n"
    checked = api.post(f"{url}?preview=1", {"csv": good_csv}, format="json").json()
    assert checked["mode"] == "preview" and checked["ok"] and Entry.objects.filter(tournament=fresh["id"]).count() == 0
    good = api.post(url, {"csv": good_csv}, format="json")
    assert good.status_code == 200 and good.json()["ok"]
    assert good.json()["mode"] == "import" and good.json()["imported"] == 1
    assert Entry.objects.filter(tournament=fresh["id"]).count() == 1


def test_confirm_and_time_through_the_api(organizer):
    api = client_for(organizer)
    t = make_tournament(owner=organizer, teams=2, start=False)
    t.require_confirmation = True
    t.save()
    from tournaments.services.stages import tournament_start

    tournament_start(tournament=t, actor=Actor(organizer))
    m = first_match(t)
    win_match(m, 0, Actor(organizer))
    anon = APIClient()
    refused = anon.post(f"/api/v1/matches/{m.pk}/confirm/", {"side": 0}, format="json",
                        HTTP_X_TABLE_TOKEN=m.scorer_token)
    assert refused.status_code == 403
    ok = anon.post(f"/api/v1/matches/{m.pk}/confirm/", {"side": 1}, format="json", HTTP_X_TABLE_TOKEN=m.scorer_token)
    assert ok.status_code == 200 and ok.json()["confirmed"] is True
    t2 = make_tournament(owner=organizer, teams=2, name="T2")
    m2 = first_match(t2)
    api.post(f"/api/v1/matches/{m2.pk}/hands/", {"version": m2.version, "outcome": SHUTOUT, "dealer": 0}, format="json")
    m2.refresh_from_db()
    called = api.post(f"/api/v1/matches/{m2.pk}/time/", {"version": m2.version}, format="json")
    assert called.status_code == 200 and called.json()["winner_side"] == 0 and called.json()["time_called_at"]


@pytest.mark.parametrize("path", ["matches", "entries", "stages"])
@pytest.mark.parametrize("value", ["²", "١٢", "12a", "-1"])
def test_a_tournament_filter_that_is_not_an_ascii_whole_number_is_a_400_naming_it(path, value):
    """Unicode digits ("²", Arabic-Indic) pass str.isdigit() but not int(): a 400, never a 500."""
    r = APIClient().get(f"/api/v1/{path}/", {"tournament": value})
    assert r.status_code == 400 and "tournament" in r.json().get("errors", r.json()), r.content
    assert APIClient().get("/api/v1/tournaments/²/").status_code == 404
