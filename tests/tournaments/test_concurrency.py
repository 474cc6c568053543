"""Two scorers on one match at once (PostgreSQL): one wins, the other gets 409, nothing is lost."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tests.conftest import uses_postgres
from tests.tournaments.factories import SHUTOUT, TAKEOVER, make_tournament
from tournaments.errors import StaleVersion
from tournaments.models import HandRecord, Match
from tournaments.services import Actor, hand_record

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not uses_postgres(), reason="row locks need PostgreSQL; CI runs this on PostgreSQL"),
]


def race(calls: list[Any]) -> list[Any]:
    """Run the calls in threads released together; answer each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Any) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # recorded for the assertions
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_scorers_same_match_same_version_one_wins_one_is_stale(organizer):
    t = make_tournament(owner=organizer, teams=2)
    match = Match.objects.get(stage__tournament=t)
    actor = Actor(organizer)
    for _ in range(5):
        match.refresh_from_db()
        version = match.version
        dealer = 0 if match.hands_played == 0 else None
        results = race([
            lambda v=version, d=dealer: hand_record(match_id=match.pk, outcome=TAKEOVER, version=v, actor=actor, dealer=d),
            lambda v=version, d=dealer: hand_record(match_id=match.pk, outcome=TAKEOVER, version=v, actor=actor, dealer=d),
        ])
        stale = [r for r in results if isinstance(r, StaleVersion)]
        done = [r for r in results if not isinstance(r, Exception)]
        assert len(done) == 1 and len(stale) == 1, results
    numbers = list(HandRecord.objects.filter(match=match).order_by("number").values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5]
    match.refresh_from_db()
    assert match.hands_played == 5


def test_eight_scorers_on_four_matches_lose_nothing(organizer):
    t = make_tournament(owner=organizer, teams=8)
    matches = list(Match.objects.filter(stage__tournament=t, status="ready"))
    actor = Actor(organizer)
    calls = []
    for m in matches:
        for _ in range(2):
            calls.append(lambda m=m: hand_record(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=actor, dealer=0))
    results = race(calls)
    assert sum(not isinstance(r, Exception) for r in results) == 4
    assert all(isinstance(r, StaleVersion) for r in results if isinstance(r, Exception))
    for m in matches:
        assert HandRecord.objects.filter(match=m).count() == 1
