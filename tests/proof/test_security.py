"""Security: every write endpoint × every role (allowed / 403 / 401); table tokens open their own
table only (pages ``/t/<token>/`` and ``X-Table-Token``); the log-in is rate-limited; no secret or
password appears in logs or exports.

Roles: anonymous; outsider (signed in, no role); other_scorer (scorer of another tournament);
scorer and organizer of the tournament; staff (is_staff, no role in the tournament); table
(anonymous with this match's link token); other_table (anonymous with another match's token).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
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
from tournaments.models import Entry, HandRecord, Match, Player, Stage, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import staff_add
from tournaments.services.stages import stage_create
from tournaments.services.transfer import tournament_export

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "other_scorer", "scorer", "organizer", "staff", "table", "other_table"]
PASSWORD = "pw-for-tests-123"  # tests/tournaments/factories.UserFactory's password


@pytest.fixture
def world():
    organizer = UserFactory(username="sec-organizer")
    scorer = UserFactory(username="sec-scorer")
    other_scorer = UserFactory(username="sec-other-scorer")
    t = make_tournament(owner=organizer, teams=4, require_confirmation=True, name="Security Cup")
    other = make_tournament(owner=UserFactory(username="sec-other-owner"), teams=2, name="Other Cup")
    staff_add(tournament=t, username=scorer.username, role="scorer", actor=Actor(organizer))
    staff_add(tournament=other, username=other_scorer.username, role="scorer", actor=Actor(other.owner))
    draft = make_tournament(owner=organizer, teams=4, start=False, name="Draft Cup")
    staff_add(tournament=draft, username=scorer.username, role="scorer", actor=Actor(organizer))
    swiss = stage_create(tournament=draft, actor=Actor(organizer), format="swiss", rounds=2)
    playing, finished = Match.objects.filter(stage__tournament=t, status="ready").order_by("position")
    hand_record(match_id=playing.pk, outcome=TAKEOVER, version=playing.version, actor=Actor(organizer), dealer=0)
    win_match(finished, 0, Actor(organizer))  # finished, awaiting the losing side's confirmation
    free_player = Player.objects.create(name="自由 Free")
    free_team = TeamFactory()
    users = {"organizer": organizer, "scorer": scorer, "other_scorer": other_scorer,
             "outsider": UserFactory(username="sec-outsider"), "staff": UserFactory(username="sec-staff", is_staff=True)}
    return {"t": t, "other": other, "draft": draft, "swiss": swiss, "playing": playing, "finished": finished,
            "free_player": free_player, "free_team": free_team, "users": users,
            "tokens": {name: Token.objects.create(user=u).key for name, u in users.items()},
            "other_match": Match.objects.get(stage__tournament=other)}


def client_as(world: dict[str, Any], role: str) -> APIClient:
    client = APIClient()
    if role in world["tokens"]:
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens'][role]}")
    elif role == "table":
        client.credentials(HTTP_X_TABLE_TOKEN=Match.objects.get(pk=world["playing"].pk).scorer_token)
    elif role == "other_table":
        client.credentials(HTTP_X_TABLE_TOKEN=world["other_match"].scorer_token)
    return client


def version(m: Match) -> int:
    return Match.objects.get(pk=m.pk).version


def table_for(world: dict[str, Any], role: str, m: Match) -> APIClient:
    """For match-level writes the ``table`` role holds *this* match's token."""
    client = client_as(world, role)
    if role == "table":
        client.credentials(HTTP_X_TABLE_TOKEN=Match.objects.get(pk=m.pk).scorer_token)
    return client


Write = Callable[[dict[str, Any], str], Any]
WRITES: dict[str, tuple[Write, dict[str, int]]] = {}

ANON = {"anonymous": 401, "table": 401, "other_table": 401}


def write(name: str, **expected: int) -> Callable[[Write], Write]:
    def register(fn: Write) -> Write:
        WRITES[name] = (fn, expected)
        return fn

    return register


# ---- players and teams: signed-in users add; staff edit and delete
SIGNED_IN_ADD = {**ANON, "outsider": 201, "other_scorer": 201, "scorer": 201, "organizer": 201, "staff": 201}
STAFF_EDIT = {**ANON, "outsider": 403, "other_scorer": 403, "scorer": 403, "organizer": 403, "staff": 200}


@write("player create", **SIGNED_IN_ADD)
def _(w, role):
    return client_as(w, role).post("/api/v1/players/", {"name": "新人 Newcomer"}, format="json")


@write("player update", **STAFF_EDIT)
def _(w, role):
    return client_as(w, role).patch(f"/api/v1/players/{w['free_player'].pk}/", {"club": "长沙"}, format="json")


@write("player replace", **STAFF_EDIT)
def _(w, role):
    return client_as(w, role).put(f"/api/v1/players/{w['free_player'].pk}/", {"name": "改名"}, format="json")


@write("player delete", **{**STAFF_EDIT, "staff": 204})
def _(w, role):
    return client_as(w, role).delete(f"/api/v1/players/{w['free_player'].pk}/")


@write("team create", **SIGNED_IN_ADD)
def _(w, role):
    a, b = Player.objects.create(name="甲"), Player.objects.create(name="乙")
    return client_as(w, role).post("/api/v1/teams/", {"name": "甲乙", "player1": a.pk, "player2": b.pk}, format="json")


@write("team update", **STAFF_EDIT)
def _(w, role):
    return client_as(w, role).patch(f"/api/v1/teams/{w['free_team'].pk}/", {"club": "长沙"}, format="json")


@write("team delete", **{**STAFF_EDIT, "staff": 204})
def _(w, role):
    return client_as(w, role).delete(f"/api/v1/teams/{w['free_team'].pk}/")


# ---- tournaments
ORGANIZER_ONLY = {**ANON, "outsider": 403, "other_scorer": 403, "scorer": 403, "staff": 403}
# Writes on a draft: it is invisible to everyone but its own staff, so others get 404 (its existence is
# not revealed); its scorer sees it but may not change it (403).
DRAFT_ONLY = {**ORGANIZER_ONLY, "outsider": 404, "other_scorer": 404, "staff": 404}


@write("tournament create", **SIGNED_IN_ADD)
def _(w, role):
    return client_as(w, role).post("/api/v1/tournaments/", {"name": "新赛 New Cup"}, format="json")


@write("tournament update", **ORGANIZER_ONLY, organizer=200)
def _(w, role):
    return client_as(w, role).patch(f"/api/v1/tournaments/{w['t'].pk}/", {"venue": "长沙"}, format="json")


@write("tournament delete", **DRAFT_ONLY, organizer=204)
def _(w, role):
    return client_as(w, role).delete(f"/api/v1/tournaments/{w['draft'].pk}/")


@write("tournament start", **DRAFT_ONLY, organizer=200)
def _(w, role):
    return client_as(w, role).post(f"/api/v1/tournaments/{w['draft'].pk}/start/", {}, format="json")


@write("tournament status", **ORGANIZER_ONLY, organizer=400)  # 400: matches are still open
def _(w, role):
    return client_as(w, role).post(f"/api/v1/tournaments/{w['t'].pk}/status/", {"status": "finished"}, format="json")


@write("tournament staff", **ORGANIZER_ONLY, organizer=200)
def _(w, role):
    return client_as(w, role).post(f"/api/v1/tournaments/{w['t'].pk}/staff/",
                                   {"username": "sec-outsider", "role": "scorer"}, format="json")


@write("tournament import", **SIGNED_IN_ADD)
def _(w, role):
    return client_as(w, role).post("/api/v1/tournaments/import/", tournament_export(w["t"]), format="json")


@write("import entries", **DRAFT_ONLY, organizer=200)
def _(w, role):
    return client_as(w, role).post(f"/api/v1/tournaments/{w['draft'].pk}/import-entries/",
                                   {"csv": "team,player1,player2\n王李,王小明,李华\n", "preview": False}, format="json")


# A read, but organizers only: anonymous callers get 403 here (PermissionDenied is raised directly).
@write("tournament export (read, organizers only)",
       **{**ORGANIZER_ONLY, "anonymous": 403, "table": 403, "other_table": 403}, organizer=200)
def _(w, role):
    return client_as(w, role).get(f"/api/v1/tournaments/{w['t'].pk}/export/")


# ---- entries and stages
@write("entry create", **ORGANIZER_ONLY, organizer=201)
def _(w, role):
    return client_as(w, role).post("/api/v1/entries/", {"tournament": w["draft"].pk, "team": TeamFactory().pk},
                                   format="json")


@write("entry update", **DRAFT_ONLY, organizer=200)
def _(w, role):
    entry = Entry.objects.filter(tournament=w["draft"]).order_by("seed").first()
    return client_as(w, role).patch(f"/api/v1/entries/{entry.pk}/", {"seed": 9}, format="json")


@write("stage create", **DRAFT_ONLY, organizer=201)
def _(w, role):
    return client_as(w, role).post("/api/v1/stages/", {"tournament": w["draft"].pk, "format": "round_robin"},
                                   format="json")


@write("stage start", **DRAFT_ONLY, organizer=200)
def _(w, role):
    return client_as(w, role).post(f"/api/v1/stages/{w['swiss'].pk}/start/", {"random_seed": 1}, format="json")


@write("stage next-round", **ORGANIZER_ONLY, organizer=400)  # 400: round 1 still has open matches
def _(w, role):
    stage = Stage.objects.get(tournament=w["t"])
    return client_as(w, role).post(f"/api/v1/stages/{stage.pk}/next-round/", {}, format="json")


# ---- matches and hands: scorers, organizers and this table's link
SCORING = {"anonymous": 401, "outsider": 403, "other_scorer": 403, "scorer": 0, "organizer": 0, "staff": 403,
           "table": 0, "other_table": 403}


def scoring(ok: int) -> dict[str, int]:
    return {role: (ok if code == 0 else code) for role, code in SCORING.items()}


@write("hand record", **scoring(201))
def _(w, role):
    m = w["playing"]
    return table_for(w, role, m).post(f"/api/v1/matches/{m.pk}/hands/",
                                      {"version": version(m), "outcome": TAKEOVER}, format="json")


@write("hand correct", **scoring(200))
def _(w, role):
    m = w["playing"]
    return table_for(w, role, m).put(f"/api/v1/matches/{m.pk}/hands/1/",
                                     {"version": version(m), "outcome": SHUTOUT}, format="json")


@write("hand undo", **scoring(200))
def _(w, role):
    m = w["playing"]
    return table_for(w, role, m).post(f"/api/v1/matches/{m.pk}/hands/undo/", {"version": version(m)}, format="json")


@write("match confirm (losing side)", **scoring(200))
def _(w, role):
    m = w["finished"]
    return table_for(w, role, m).post(f"/api/v1/matches/{m.pk}/confirm/", {"side": 1}, format="json")


@write("match time", **{**scoring(403), "organizer": 200, "table": 401, "other_table": 401})
def _(w, role):
    m = w["playing"]
    return table_for(w, role, m).post(f"/api/v1/matches/{m.pk}/time/", {"version": version(m)}, format="json")


@write("match award", **{**scoring(403), "organizer": 200, "table": 401, "other_table": 401})
def _(w, role):
    m = w["playing"]
    return table_for(w, role, m).post(f"/api/v1/matches/{m.pk}/award/", {"winner_side": 0, "reason": "no show"},
                                      format="json")


# ---- trick-by-trick entry: the same roles as recording a hand. The body is empty, so a role that
# passes the permission check gets 400 (the permission check comes first: 401/403 before 400).
TRICK_WRITES = [("POST", "trick-entry/"), ("PUT", "trick-entry/"), ("POST", "trick-entry/plays/"),
                ("POST", "trick-entry/undo/"), ("PUT", "trick-entry/tricks/1/"), ("POST", "trick-entry/finish/"),
                ("POST", "trick-entry/discard/"), ("POST", "trick-entry/record/")]


def _trick_write(method: str, tail: str) -> Write:
    def call(w: dict[str, Any], role: str) -> Any:
        m = w["playing"]
        client = table_for(w, role, m)
        return getattr(client, method.lower())(f"/api/v1/matches/{m.pk}/{tail}", {}, format="json")

    return call


for _method, _tail in TRICK_WRITES:
    write(f"trick entry {_method} {_tail}", **scoring(400))(_trick_write(_method, _tail))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(WRITES))
def test_every_write_for_every_role(world, name, role):
    fn, expected = WRITES[name]
    response = fn(world, role)
    assert response.status_code == expected[role], (name, role, response.content[:300])
    if response.status_code >= 400:
        assert response.json().get("detail"), response.content[:300]
    if response.status_code in (401, 403):
        # Nothing was written by a refused request.
        assert not HandRecord.objects.filter(match=world["playing"], number__gt=1).exists()


def test_every_write_endpoint_of_the_schema_is_in_the_matrix():
    """A new write endpoint without a row in the matrix above fails here."""
    import schemathesis

    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
    writes = sorted({(op.method.upper(), op.path) for op in (r.ok() for r in schema.get_all_operations())
                     if op.method.upper() in {"POST", "PUT", "PATCH", "DELETE"}})
    covered = {
        ("POST", "/api/v1/players/"), ("PATCH", "/api/v1/players/{id}/"), ("PUT", "/api/v1/players/{id}/"),
        ("DELETE", "/api/v1/players/{id}/"), ("POST", "/api/v1/teams/"), ("PATCH", "/api/v1/teams/{id}/"),
        ("DELETE", "/api/v1/teams/{id}/"), ("POST", "/api/v1/tournaments/"), ("PATCH", "/api/v1/tournaments/{id}/"),
        ("DELETE", "/api/v1/tournaments/{id}/"), ("POST", "/api/v1/tournaments/{id}/start/"),
        ("POST", "/api/v1/tournaments/{id}/status/"), ("POST", "/api/v1/tournaments/{id}/staff/"),
        ("POST", "/api/v1/tournaments/import/"), ("POST", "/api/v1/tournaments/{id}/import-entries/"),
        ("POST", "/api/v1/entries/"), ("PATCH", "/api/v1/entries/{id}/"), ("POST", "/api/v1/stages/"),
        ("POST", "/api/v1/stages/{id}/start/"), ("POST", "/api/v1/stages/{id}/next-round/"),
        ("POST", "/api/v1/matches/{id}/hands/"), ("PUT", "/api/v1/matches/{id}/hands/{number}/"),
        ("POST", "/api/v1/matches/{id}/hands/undo/"), ("POST", "/api/v1/matches/{id}/confirm/"),
        ("POST", "/api/v1/matches/{id}/time/"), ("POST", "/api/v1/matches/{id}/award/"),
        # PUT twins of PATCH (same permission code path), and the open endpoints (no login by design):
        ("PUT", "/api/v1/teams/{id}/"), ("PUT", "/api/v1/tournaments/{id}/"), ("PUT", "/api/v1/entries/{id}/"),
        ("POST", "/api/v1/referee/trick"), ("POST", "/api/v1/scoring/hand"), ("POST", "/api/v1/auth/token/"),
        *(((method, "/api/v1/matches/{id}/" + tail.replace("tricks/1/", "tricks/{number}/"))
           for method, tail in TRICK_WRITES)),
    }
    missing = [w for w in writes if w not in covered]
    assert not missing, f"write endpoints with no role test: {missing}"


# --------------------------------------------------------------------------- table tokens


def test_a_table_page_opens_its_own_table_only(world):
    m = Match.objects.get(pk=world["playing"].pk)
    other = Match.objects.get(pk=world["finished"].pk)
    page = Client().get(f"/t/{m.scorer_token}/", follow=True)  # on to /table/<id>/, the token in the session
    assert page.status_code == 200 and page.redirect_chain == [(f"/table/{m.pk}/", 302)]
    html = page.content.decode()
    assert m.scorer_token not in html
    assert Client().get(f"/table/{other.pk}/").status_code == 404  # no grant for another table
    assert m.entry0.name in html and m.entry1.name in html
    assert other.entry0.name not in html and other.entry1.name not in html
    assert other.scorer_token not in html and world["other_match"].scorer_token not in html
    wrong = m.scorer_token[:-1] + ("y" if m.scorer_token.endswith("x") else "x")
    assert Client().get(f"/t/{wrong}/").status_code == 404
    assert Client().get("/t/not-a-token/").status_code == 404


def test_a_table_page_writes_its_own_match_only(world):
    """Posting the scoring form on /t/<token>/ records on that token's match and nowhere else; the
    page's POST cannot be pointed at another match, and a wrong token is a 404 that writes nothing."""
    m = Match.objects.get(pk=world["playing"].pk)
    others = {x.pk: x.hands_played for x in Match.objects.exclude(pk=m.pk)}
    form = {"action": "record", "version": m.version, "trump": "NT", "attackers_points": 85, "kitty_points": 0,
            "last_trick_winner": "dealer", "last_trick_largest": 1, "match": world["finished"].pk,
            "match_id": world["finished"].pk}
    r = Client().post(f"/t/{m.scorer_token}/", form)
    assert r.status_code in (200, 302), r.status_code
    assert Match.objects.get(pk=m.pk).hands_played == 2, "the hand was not recorded on the token's match"
    assert {x.pk: x.hands_played for x in Match.objects.exclude(pk=m.pk)} == others
    assert Client().post("/t/no-such-token/", form).status_code == 404
    assert Match.objects.get(pk=m.pk).hands_played == 2


def test_a_table_token_reads_and_writes_only_its_match(world):
    private = make_tournament(owner=world["users"]["organizer"], teams=4, is_public=False, name="Private Cup")
    mine, theirs = Match.objects.filter(stage__tournament=private, status="ready").order_by("position")
    anon = APIClient()
    anon.credentials(HTTP_X_TABLE_TOKEN=mine.scorer_token)
    listed = anon.get(f"/api/v1/matches/?tournament={private.pk}").json()["results"]
    assert [m["id"] for m in listed] == [mine.pk]
    assert anon.get(f"/api/v1/matches/{theirs.pk}/").status_code == 404
    assert anon.get(f"/api/v1/tournaments/{private.pk}/").status_code == 404
    assert anon.post(f"/api/v1/matches/{theirs.pk}/hands/", {"version": theirs.version, "outcome": SHUTOUT,
                                                             "dealer": 0}, format="json").status_code == 404
    ok = anon.post(f"/api/v1/matches/{mine.pk}/hands/", {"version": mine.version, "outcome": SHUTOUT, "dealer": 0},
                   format="json")
    assert ok.status_code == 201
    assert not HandRecord.objects.filter(match=theirs).exists()
    # ?token= works like the header, and only for its own match.
    assert APIClient().get(f"/api/v1/matches/{mine.pk}/?token={mine.scorer_token}").status_code == 200
    assert APIClient().get(f"/api/v1/matches/{theirs.pk}/?token={mine.scorer_token}").status_code == 404
    # The match's answer to a token holder never shows another table's token.
    assert theirs.scorer_token not in str(ok.content)


# --------------------------------------------------------------------------- log-in rate limit


def test_login_page_locks_out_after_five_failures_even_with_the_right_password():
    get_user_model().objects.create_user("victim", password="the right password 42")
    attacker = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(5):
        attacker.post("/accounts/login/", {"username": "victim", "password": "guess"})
    blocked = attacker.post("/accounts/login/", {"username": "victim", "password": "the right password 42"})
    assert blocked.status_code in (403, 429)
    assert "_auth_user_id" not in attacker.session
    text = blocked.content.decode()
    assert "Too many" in text or "locked" in text.lower() or "稍后" in text
    # The same user from another address still gets in (the lock is per username and address).
    assert Client(REMOTE_ADDR="198.51.100.7").post(
        "/accounts/login/", {"username": "victim", "password": "the right password 42"}).status_code == 302


def test_token_endpoint_locks_out_after_five_failures():
    get_user_model().objects.create_user("api-victim", password="the right password 42")
    attacker = APIClient(REMOTE_ADDR="203.0.113.10")
    for _ in range(5):
        attacker.post("/api/v1/auth/token/", {"username": "api-victim", "password": "guess"}, format="json")
    blocked = attacker.post("/api/v1/auth/token/", {"username": "api-victim", "password": "the right password 42"},
                            format="json")
    assert blocked.status_code in (403, 429) and blocked.json()["detail"]
    assert "token" not in blocked.json()


# --------------------------------------------------------------------------- no secrets in logs or exports


class Capture(logging.Handler):
    """Every record as the project's formatter writes it (config/settings/base.py LOGGING), plus its args."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{self.format(record)} {record.args!r}")


def secrets_of(world: dict[str, Any]) -> list[str]:
    User = get_user_model()
    hashes = [h.split("$")[-1] for h in User.objects.values_list("password", flat=True) if h]
    return [PASSWORD, "the right password 42", *world["tokens"].values(),
            *Match.objects.values_list("scorer_token", flat=True), *[h for h in hashes if len(h) >= 16]]


def test_no_secret_in_the_logs_of_logins_and_api_use(world):
    get_user_model().objects.create_user("logger", password="the right password 42")
    handler = Capture()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        c = Client(REMOTE_ADDR="192.0.2.1")
        c.post("/accounts/login/", {"username": "logger", "password": "wrong password 1"})
        c.post("/accounts/login/", {"username": "logger", "password": "the right password 42"})
        APIClient().post("/api/v1/auth/token/", {"username": "logger", "password": "the right password 42"},
                         format="json")
        api = client_as(world, "organizer")
        api.get(f"/api/v1/tournaments/{world['t'].pk}/export/")
        api.post(f"/api/v1/matches/{world['playing'].pk}/hands/", {"version": 0, "outcome": {}}, format="json")
        table = client_as(world, "table")
        table.post(f"/api/v1/matches/{world['playing'].pk}/hands/", {"version": 0, "outcome": {}}, format="json")
        m = world["playing"]
        APIClient().post(f"/api/v1/matches/{m.pk}/hands/?token={m.scorer_token}", {"version": 0}, format="json")
        Client().get(f"/t/{m.scorer_token}/")
        Client().get("/t/no-such-table-link/")  # 404: logged as "Not Found" with its path
        # A refused or stale form on the table page (logged as a 4xx with the page's path).
        Client().post(f"/t/{m.scorer_token}/", {"version": "0", "attackers_points": "7"})
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    text = "\n".join(handler.lines)
    assert handler.lines, "nothing was logged: the capture is not working"
    leaked = [s for s in secrets_of(world) if s in text]
    where = [line[:200].replace(s, s[:4] + "…") for s in leaked for line in handler.lines if s in line]
    assert not leaked, "secrets in the logs:\n" + "\n".join(where)


def test_no_secret_in_exports(world):
    api = client_as(world, "organizer")
    t = world["t"]
    exported = api.get(f"/api/v1/tournaments/{t.pk}/export/").content.decode()
    stage = Stage.objects.get(tournament=t)
    csvs = [api.get(f"/api/v1/stages/{stage.pk}/standings-csv/").content.decode("utf-8-sig"),
            Client().get(f"/tournaments/{t.pk}/standings/{stage.pk}/csv/").content.decode("utf-8-sig")]
    for name, text in [("JSON export", exported), ("API standings CSV", csvs[0]), ("page standings CSV", csvs[1])]:
        leaked = [s for s in secrets_of(world) if s in text]
        assert not leaked, f"{name} contains secrets {[s[:6] + '…' for s in leaked]}"
        for word in ("scorer_token", "password", "pbkdf2", "md5$", "argon2"):
            assert word not in text, f"{name} contains {word!r}"
    assert Tournament.objects.filter(pk=t.pk).exists()
