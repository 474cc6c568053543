"""Issue 18: the hand entry path at the floor of its stack — statements per hand, what is locked,
written and looked up; and on PostgreSQL, two matches of one stage recorded at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import uses_postgres
from tests.tournaments.test_hand_entry_answers import RED_FIVE, SHUTOUT, TAKEOVER, knockout, tables, user
from tournaments import selectors
from tournaments.models import Entry, Match
from tournaments.services import Actor
from tournaments.services.common import RECORD_RELATED, lock_match
from tournaments.services.hands import hand_record
from tournaments.services.setup import staff_add
from tournaments.services.table_hands import table_hand_record

pytestmark = pytest.mark.django_db


def api_as(who: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=who)[0].key}")
    return api


@pytest.fixture
def cup() -> dict[str, Any]:
    owner, scorer = user("path-owner"), user("path-scorer")
    tournament = knockout(owner, "Path Cup")
    staff_add(tournament=tournament, actor=Actor(owner), username=scorer.username, role="scorer")
    matches = list(Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position"))
    return {"owner": owner, "scorer": scorer, "matches": matches}


def record(api: APIClient, match: Match, outcome: dict[str, Any], **extra: Any) -> tuple[Any, list[str]]:
    version = Match.objects.get(pk=match.pk).version
    with CaptureQueriesContext(connection) as queries:
        response = api.post(f"/api/v1/matches/{match.pk}/hands/", {"version": version, "outcome": outcome, **extra},
                            format="json")
    # The test's own transaction turns the service's into a savepoint: not a statement of the path
    # (outside a test it is the transaction's BEGIN/COMMIT, which the driver sends and Django does not log).
    return response, [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_normal_hand_costs_at_most_seven_statements(cup: dict[str, Any]) -> None:
    m = cup["matches"][0]
    record(api_as(cup["owner"]), m, TAKEOVER, dealer=0)
    response, sql = record(api_as(cup["scorer"]), m, TAKEOVER)  # a scorer: the role is one query
    assert response.status_code == 201, response.content
    assert len(sql) <= 7, "\n".join(sql)
    # token, lock, "organizer or scorer", entries, hand, match, audit — nothing read twice, no adjustment lookup
    assert sum('"tournaments_match"' in q and "SELECT" in q for q in sql) == 1, sql
    assert not any("tournaments_adjustment" in q for q in sql), sql
    role = [q for q in sql if "tournaments_tournament_scorers" in q or "tournaments_tournament_organizers" in q]
    assert len(role) == 1 and "tournaments_tournament_scorers" in role[0] and "organizers" in role[0], role


def locking(sql: list[str]) -> str:
    """The statement that locks the match (``FOR UPDATE OF`` on PostgreSQL; SQLite locks the file)."""
    (lock,) = [q for q in sql if q.startswith("SELECT") and 'FROM "tournaments_match"' in q]
    return lock


def test_the_lock_joins_stage_tournament_and_round_only_and_the_entries_are_one_small_statement(
        cup: dict[str, Any]) -> None:
    """Ten joined tables made PostgreSQL plan for longer than a second statement for the entries costs:
    the locking statement joins no entry, team or player; the answer's entries are read in one statement
    (after the permission check) and say what the entries' own rows say."""
    m = cup["matches"][0]
    record(api_as(cup["owner"]), m, TAKEOVER, dealer=0)
    response, sql = record(api_as(cup["scorer"]), m, TAKEOVER)
    assert response.status_code == 201, response.content
    lock = locking(sql)
    for table in ("tournaments_stage", "tournaments_tournament", "tournaments_round"):
        assert f'JOIN "{table}"' in lock, lock
    for table in ("tournaments_entry", "tournaments_team", "tournaments_player"):
        assert f'"{table}"' not in lock, lock
    reads = [q for q in sql if q.startswith("SELECT") and 'FROM "tournaments_entry"' in q]
    assert len(reads) == 1 and sql.index(reads[0]) > sql.index(lock), sql
    entries = [Entry.objects.select_related("team", "player").get(pk=pk) for pk in (m.entry0_id, m.entry1_id)]
    assert response.json()["match"]["entries"] == [{"id": e.pk, "name": e.name, "seed": e.seed} for e in entries]


def test_a_refused_hand_reads_no_entries(cup: dict[str, Any]) -> None:
    """403, the input's 400, the figures' 400 (scoring) and 409: the entries are read for a recorded hand only."""
    m = cup["matches"][0]
    owner = api_as(cup["owner"])
    refused = [record(api_as(user("path-stranger")), m, TAKEOVER, dealer=0),
               record(owner, m, TAKEOVER, dealer="north"),
               record(owner, m, {"attackers_points": "x", "kitty_points": 0}, dealer=0)]
    with CaptureQueriesContext(connection) as queries:
        stale = owner.post(f"/api/v1/matches/{m.pk}/hands/",
                           {"version": m.version - 1, "outcome": TAKEOVER, "dealer": 0}, format="json")
    refused.append((stale, [q["sql"] for q in queries.captured_queries]))
    assert [response.status_code for response, _sql in refused] == [403, 400, 400, 409]
    for _response, sql in refused:
        assert not any('FROM "tournaments_entry"' in q for q in sql), sql


def test_the_scoring_page_service_holds_the_players_it_names_before_the_commit(cup: dict[str, Any]) -> None:
    """The scoring page and the table link record through ``hand_record``: the lock joins stage and
    tournament only, the entries come with their teams' players in one statement inside the
    transaction, and the page's message after the commit reads nothing more."""
    m = cup["matches"][0]
    with CaptureQueriesContext(connection) as queries:
        done = hand_record(match_id=m.pk, outcome=TAKEOVER, version=m.version, actor=Actor(cup["owner"]), dealer=0)
    sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert '"tournaments_entry"' not in locking(sql), sql
    assert sum(q.startswith("SELECT") and 'FROM "tournaments_entry"' in q for q in sql) == 1, sql
    with CaptureQueriesContext(connection) as after:
        names = selectors.seat_names(done.match)
        sides = [done.match.entry(side).name for side in (0, 1)]  # type: ignore[union-attr]
    assert not after.captured_queries, after.captured_queries
    assert names[0] == done.match.entry0.team.player1.name and names[1] == done.match.entry1.team.player1.name
    assert sides == [Entry.objects.get(pk=m.entry0_id).name, Entry.objects.get(pk=m.entry1_id).name]


def test_the_individual_table_page_service_locks_without_the_entries(cup: dict[str, Any]) -> None:
    table = tables(cup["owner"], "red-five", 4)
    with CaptureQueriesContext(connection) as queries:
        done = table_hand_record(match_id=table.pk, outcome=RED_FIVE, version=table.version,
                                 actor=Actor(cup["owner"]))
    sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert done.hand.number == 1 and '"tournaments_entry"' not in locking(sql), sql
    assert len(sql) <= 4, "\n".join(sql)  # lock, hand, match, audit


def test_the_owner_and_the_table_link_need_no_role_query(cup: dict[str, Any]) -> None:
    m = cup["matches"][0]
    first, sql = record(api_as(cup["owner"]), m, TAKEOVER, dealer=0)
    assert first.status_code == 201 and not any("_scorers" in q or "_organizers" in q for q in sql), sql
    link = APIClient()
    link.credentials(HTTP_X_TABLE_TOKEN=m.scorer_token)
    response, sql = record(link, m, TAKEOVER)
    assert response.status_code == 201 and len(sql) <= 5, sql  # no token table either


def test_the_match_update_writes_only_the_fields_that_change(cup: dict[str, Any]) -> None:
    m = cup["matches"][0]
    record(api_as(cup["owner"]), m, TAKEOVER, dealer=0)
    _response, sql = record(api_as(cup["owner"]), m, TAKEOVER)
    update = [q for q in sql if q.startswith('UPDATE "tournaments_match"')]
    assert len(update) == 1, sql
    written = update[0].split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    for column in ("state", "hands_played", "version", "updated_at"):
        assert f'"{column}"' in written, written
    for column in ("scorer_token", "key", "entry0_id", "next_match_id", "started_at", "winner_side", "status"):
        assert f'"{column}"' not in written, written  # unchanged by a second, non-finishing hand


def test_a_finishing_hand_still_advances_the_bracket(cup: dict[str, Any]) -> None:
    m = cup["matches"][0]
    record(api_as(cup["owner"]), m, SHUTOUT, dealer=0)
    for _ in range(3):
        response, _sql = record(api_as(cup["owner"]), m, SHUTOUT)
    assert response.json()["match"]["status"] == "finished"
    final = Match.objects.get(pk=m.pk).next_match
    assert final is not None and final.entry0_id == Match.objects.get(pk=m.pk).entry0_id


def test_a_table_hand_takes_the_same_path(cup: dict[str, Any]) -> None:
    table = tables(cup["owner"], "red-five", 4)
    link = APIClient()
    link.credentials(HTTP_X_TABLE_TOKEN=table.scorer_token)
    response, sql = record(link, table, RED_FIVE)
    assert response.status_code == 201, response.content
    assert [s["seat"] for s in response.json()["match"]["seats"]] == [0, 1, 2, 3]
    assert len(sql) <= 6, "\n".join(sql)  # lock, hand, match, audit, seats (read before the commit)
    assert not any("tournaments_adjustment" in q for q in sql)


def test_a_replayed_idempotency_key_still_replays(cup: dict[str, Any]) -> None:
    m = cup["matches"][0]
    api = api_as(cup["owner"])
    body = {"version": m.version, "outcome": TAKEOVER, "dealer": 0}
    first = api.post(f"/api/v1/matches/{m.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    again = api.post(f"/api/v1/matches/{m.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Match.objects.get(pk=m.pk).hands.count() == 1


@pytest.mark.postgres
@pytest.mark.skipif(not uses_postgres(), reason="row locks: PostgreSQL only (SQLite locks the whole file)")
@pytest.mark.django_db(transaction=True)
def test_two_matches_of_one_stage_are_recorded_at_once_on_postgres(cup: dict[str, Any]) -> None:
    """While one match's hand holds its lock, a second connection locks another match of the same stage,
    and the stage and tournament rows, with NOWAIT; the held match itself is refused."""
    import psycopg
    from psycopg import errors

    first, second = cup["matches"][0], cup["matches"][1]
    s = connection.settings_dict
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock_match(first.pk, RECORD_RELATED)
        assert 'FOR UPDATE OF "tournaments_match"' in queries.captured_queries[-1]["sql"]
        with psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"],
                             dbname=s["NAME"]) as other:
            sql, params = (Match.objects.select_for_update(of=("self",), nowait=True).select_related(*RECORD_RELATED)
                           .filter(pk=second.pk).query.sql_with_params())
            assert other.execute(sql, params).fetchone()[0] == second.pk  # the other match: at once
            other.execute("SELECT 1 FROM tournaments_stage WHERE id = %s FOR UPDATE NOWAIT", [locked.stage_id])
            other.execute("SELECT 1 FROM tournaments_tournament WHERE id = %s FOR UPDATE NOWAIT",
                          [locked.stage.tournament_id])
            other.rollback()
            with pytest.raises(errors.LockNotAvailable):
                other.execute("SELECT 1 FROM tournaments_match WHERE id = %s FOR UPDATE NOWAIT", [first.pk])
