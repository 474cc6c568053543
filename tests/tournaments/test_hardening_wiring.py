"""Issue 14 in the tournaments app: contacts and private players stay private; writes are safe to retry."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import PlayerFactory, TeamFactory, UserFactory, make_tournament
from tournaments.models import Entry, HandRecord, Match, Player, Team, Tournament
from tournaments.services import Actor
from tournaments.services.setup import entry_add, staff_add, tournament_create

pytestmark = pytest.mark.django_db

SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


def api_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def listed(client: APIClient, url: str) -> dict[str, dict[str, Any]]:
    response = client.get(url)
    assert response.status_code == 200
    return {row["name"]: row for row in response.json()["results"]}


@pytest.fixture
def people(organizer: Any) -> dict[str, Any]:
    """A private tournament of ``organizer`` (team 私密队: 秘甲, 秘乙) and someone else's public one
    (team 公开队: 公甲, 公乙); every player has a contact."""
    private = tournament_create(owner=organizer, name="Private cup", variant="tractor", is_public=False)
    hidden = TeamFactory(name="私密队", player1=PlayerFactory(name="秘甲", contact="+86 138 0000 0001"),
                         player2=PlayerFactory(name="秘乙", contact="secret@example.com"))
    entry_add(tournament=private, actor=Actor(organizer), team=hidden)
    other = UserFactory(username="public_owner")
    public = tournament_create(owner=other, name="Public cup", variant="tractor")
    shown = TeamFactory(name="公开队", player1=PlayerFactory(name="公甲", contact="+86 139 0000 0002"),
                        player2=PlayerFactory(name="公乙", contact="public@example.com"))
    entry_add(tournament=public, actor=Actor(other), team=shown)
    # Past its draft (drafts are seen by their own staff only): open for registration.
    Tournament.objects.filter(pk=public.pk).update(status=Tournament.Status.REGISTRATION)
    public.refresh_from_db()
    return {"private": private, "public": public, "other": other}


def test_contacts_and_private_players_are_hidden_from_others(people: dict[str, Any], organizer: Any,
                                                             outsider: Any) -> None:
    scorer = UserFactory(username="private_scorer")
    staff_add(tournament=people["private"], username="private_scorer", role="scorer", actor=Actor(organizer))
    for who in (None, outsider):
        players = listed(api_for(who), "/api/v1/players/")
        assert "秘甲" not in players and "秘乙" not in players, who
        assert players["公甲"]["contact"] == "" and players["公乙"]["contact"] == "", who
        assert "私密队" not in listed(api_for(who), "/api/v1/teams/") and "公开队" in listed(api_for(who), "/api/v1/teams/")
        hidden = Player.objects.get(name="秘甲")
        assert api_for(who).get(f"/api/v1/players/{hidden.pk}/").status_code == 404
        assert api_for(who).get(f"/api/v1/teams/{Team.objects.get(name='私密队').pk}/").status_code == 404
    # the organizer sees their players' contacts, not those of a tournament they do not organize
    players = listed(api_for(organizer), "/api/v1/players/")
    assert players["秘甲"]["contact"] == "+86 138 0000 0001" and players["公甲"]["contact"] == ""
    # a scorer of the private tournament sees its players listed, but no contacts
    players = listed(api_for(scorer), "/api/v1/players/")
    assert "秘甲" in players and players["秘甲"]["contact"] == ""
    staff = UserFactory(username="site_staff", is_staff=True)
    players = listed(api_for(staff), "/api/v1/players/")
    assert players["秘乙"]["contact"] == "secret@example.com" and players["公乙"]["contact"] == "public@example.com"
    page = Client().get(reverse("player-list")).content.decode()
    assert "公甲" in page and "秘甲" not in page
    for contact in ("+86 139 0000 0002", "public@example.com", "secret@example.com"):
        assert contact not in page


def test_a_player_in_a_public_and_a_private_tournament_stays_listed(people: dict[str, Any], organizer: Any) -> None:
    player = Player.objects.get(name="秘甲")
    team = TeamFactory(name="混合队", player1=player, player2=PlayerFactory(name="路人"))
    entry_add(tournament=people["public"], actor=Actor(people["other"]), team=team)
    players = listed(api_for(), "/api/v1/players/")
    assert "秘甲" in players and players["秘甲"]["contact"] == "" and "秘乙" not in players
    # now the public tournament's owner organizes a tournament 秘甲 is in: they see the contact
    assert listed(api_for(people["other"]), "/api/v1/players/")["秘甲"]["contact"] == "+86 138 0000 0001"


# --------------------------------------------------------------------------- safe retries

def test_an_api_write_sent_twice_with_one_key_is_done_once(organizer: Any) -> None:
    api = api_for(organizer)
    key = str(uuid.uuid4())
    first = api.post("/api/v1/players/", {"name": "重试 Retry"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = api.post("/api/v1/players/", {"name": "重试 Retry"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Player.objects.filter(name="重试 Retry").count() == 1
    other = api.post("/api/v1/players/", {"name": "别的 Other"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


@pytest.mark.parametrize("url, body", [
    ("/api/v1/tournaments/", {"name": "Twice cup", "variant": "tractor"}),
    ("/api/v1/stages/", None),
    ("/api/v1/entries/", None),
])
def test_every_write_viewset_replays_a_repeated_key(organizer: Any, url: str, body: Any) -> None:
    api = api_for(organizer)
    tournament = make_tournament(owner=organizer, teams=0, start=False)
    if url == "/api/v1/stages/":
        body = {"tournament": tournament.pk, "format": "swiss", "rounds": 1}
    if url == "/api/v1/entries/":
        body = {"tournament": tournament.pk, "team": TeamFactory().pk}
    key = str(uuid.uuid4())
    answers = [api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201], answers[0].content
    assert answers[1]["Idempotent-Replayed"] == "true" and answers[1].json()["id"] == answers[0].json()["id"]


def test_hand_entry_over_the_api_and_the_table_link_is_done_once_per_key(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=4)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    api = api_for()
    key = str(uuid.uuid4())
    body = {"version": match.version, "outcome": SHUTOUT, "dealer": 0}
    answers = [api.post(f"/api/v1/matches/{match.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY=key,
                        HTTP_X_TABLE_TOKEN=match.scorer_token) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[1]["Idempotent-Replayed"] == "true" and HandRecord.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    client = Client()
    url = reverse("table-link", args=[match.scorer_token])
    form = {"action": "record", "version": match.version, "trump": "H", "attackers_points": 0, "kitty_points": 0,
            "last_trick_winner": "dealer", "last_trick_largest": 1, "idempotency_key": str(uuid.uuid4())}
    first, second = client.post(url, form), client.post(url, form)
    assert first.status_code == second.status_code == 302 and second["Idempotent-Replayed"] == "true"
    assert HandRecord.objects.filter(match=match).count() == 2


def test_a_double_submitted_manage_form_adds_one_team(client: Client, organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=0, start=False)
    client.force_login(organizer)
    url = reverse("tournament-manage", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert page.count('name="idempotency_key"') >= 5 and "Idempotency-Key" in page
    form = {"action": "team", "player1": "甲", "player2": "乙", "idempotency_key": str(uuid.uuid4())}
    answers = [client.post(url, form) for _ in range(2)]
    assert answers[0].status_code == answers[1].status_code == 302 and answers[1]["Idempotent-Replayed"] == "true"
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_the_score_page_has_a_key_per_form_and_previews_are_not_refused(client: Client, organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=4)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    client.force_login(organizer)
    url = reverse("match-score", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'name="idempotency_key"' in page
    key = str(uuid.uuid4())
    for points in (5, 10, 15):  # htmx sends the form's key with each preview
        preview = client.post(url, {"action": "preview", "version": match.version, "dealer": 0, "trump": "H",
                                    "attackers_points": points, "kitty_points": 0, "last_trick_winner": "dealer",
                                    "last_trick_largest": 1}, HTTP_IDEMPOTENCY_KEY=key, HTTP_HX_REQUEST="true")
        assert preview.status_code == 200
    assert not HandRecord.objects.filter(match=match).exists()
    assert Tournament.objects.filter(pk=tournament.pk).exists()


# --------------------------------------------------------------------------- results stay final

def test_a_table_link_cannot_undo_or_correct_a_final_result_but_an_organizer_can(organizer: Any) -> None:
    from tests.tournaments.factories import win_match

    tournament = make_tournament(owner=organizer, teams=4)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    win_match(match, 0, Actor(organizer))
    match.refresh_from_db()
    assert match.confirmed_at is not None  # no confirmation needed: final when finished
    token = {"HTTP_X_TABLE_TOKEN": match.scorer_token}
    api = api_for()
    undo = api.post(f"/api/v1/matches/{match.pk}/hands/undo/", {"version": match.version}, format="json", **token)
    assert undo.status_code == 403 and "organizer" in undo.json()["detail"]
    correct = api.put(f"/api/v1/matches/{match.pk}/hands/1/", {"version": match.version, "outcome": SHUTOUT},
                      format="json", **token)
    assert correct.status_code == 403
    page = Client().post(reverse("table-link", args=[match.scorer_token]),
                         {"action": "undo", "version": match.version}, follow=True)
    assert page.status_code == 200 and "only an organizer" in page.content.decode()
    assert HandRecord.objects.filter(match=match).count() == 4
    done = api_for(organizer).post(f"/api/v1/matches/{match.pk}/hands/undo/", {"version": match.version},
                                   format="json")
    assert done.status_code == 200 and HandRecord.objects.filter(match=match).count() == 3


def test_a_table_link_still_corrects_an_open_match(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=4)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    api = api_for()
    token = {"HTTP_X_TABLE_TOKEN": match.scorer_token}
    first = api.post(f"/api/v1/matches/{match.pk}/hands/", {"version": match.version, "outcome": SHUTOUT,
                                                             "dealer": 0}, format="json", **token)
    assert first.status_code == 201
    version = first.json()["match"]["version"]
    assert api.post(f"/api/v1/matches/{match.pk}/hands/undo/", {"version": version}, format="json",
                    **token).status_code == 200


# --------------------------------------------------------------------------- table tokens out of URLs

def test_the_table_link_moves_its_token_into_the_session(organizer: Any, caplog: Any, settings: Any) -> None:
    import logging

    tournament = make_tournament(owner=organizer, teams=4)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    token = match.scorer_token
    client = Client()
    with caplog.at_level(logging.DEBUG):
        opened = client.get(reverse("table-link", args=[token]))
        assert opened.status_code == 302 and opened["Location"] == reverse("table-session", args=[match.pk])
        page = client.get(opened["Location"])
        assert page.status_code == 200 and token not in page.content.decode()
        form = {"action": "record", "version": match.version, "dealer": 0, "trump": "H", "attackers_points": 0,
                "kitty_points": 0, "last_trick_winner": "dealer", "last_trick_largest": 1}
        saved = client.post(opened["Location"], form)
        assert saved.status_code == 302 and token not in saved["Location"]
        assert token not in client.get(saved["Location"]).content.decode()
    assert HandRecord.objects.get(match=match).entered_via == "token"
    assert not any(token in record.getMessage() for record in caplog.records)
    # without the grant (another browser), the token-free page is not found
    assert Client().get(reverse("table-session", args=[match.pk])).status_code == 404
    # a new link token ends the grant
    Match.objects.filter(pk=match.pk).update(scorer_token="a-new-token-for-this-table-0001")
    assert client.get(reverse("table-session", args=[match.pk])).status_code == 404
    # grants are short-lived
    settings.TABLE_GRANT_HOURS = 0
    fresh = Client()
    fresh.get(reverse("table-link", args=["a-new-token-for-this-table-0001"]))
    assert fresh.get(reverse("table-session", args=[match.pk])).status_code == 404


def test_the_losing_side_confirms_through_the_session(organizer: Any) -> None:
    from tests.tournaments.factories import win_match

    tournament = make_tournament(owner=organizer, teams=4, require_confirmation=True)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    win_match(match, 0, Actor(organizer))
    client = Client()
    page = client.get(reverse("table-link", args=[match.scorer_token]), follow=True).content.decode()
    confirm_url = reverse("table-session-confirm", args=[match.pk, 1])
    assert confirm_url in page and match.scorer_token not in page
    done = client.post(confirm_url)
    assert done.status_code == 302 and done["Location"] == reverse("table-session", args=[match.pk])
    match.refresh_from_db()
    assert match.confirmed_at is not None
    assert Client().get(reverse("table-session-confirm", args=[match.pk, 1])).status_code == 404
