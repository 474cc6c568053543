"""2, 8 and 32 scorers at once (PostgreSQL): recording, correcting and undoing hands on the same
match and on different matches, each thread writing with the version it read.

Every round all threads read their match, wait at a barrier, then write through the services
(hand_record / hand_correct / hand_undo). Afterwards the database must tell exactly the story of the
writes that succeeded: per match, the accepted writes carry consecutive versions (no two accepted on
one version: no lost update), replaying them in version order gives exactly the stored hands, hand
numbers are 1..n with no gap or duplicate, hands_played == n, the cached state and each hand's result
equal what scoring computes from the figures, and there is one audit entry per accepted write. Every
refused write is a StaleVersion. A last test removes the row lock and shows these checks catch it.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import uses_postgres
from tests.tournaments.factories import UserFactory, make_tournament
from tournaments.errors import StaleVersion
from tournaments.models import AuditEntry, HandRecord, Match
from tournaments.services import Actor, hand_correct, hand_record, hand_undo, replay_hands

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not uses_postgres(), reason="row locks (SELECT … FOR UPDATE) need PostgreSQL; SQLite "
                       "serialises every writer, so there is no race to prove; CI runs this on PostgreSQL"),
]

ROUNDS = 4


def figures(points: int) -> dict[str, Any]:
    """Tractor figures that move at most one level: a match never ends within the test's writes."""
    return {"attackers_points": points, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


POINTS = [40, 60, 80, 85, 90, 95]


@dataclass
class Write:
    match_id: int
    version: int  # the version the thread read and sent
    op: str  # record | correct | undo
    number: int | None = None
    outcome: dict[str, Any] | None = None
    dealer: int | None = None
    error: BaseException | None = None


@dataclass
class Log:
    writes: list[Write] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, write: Write) -> None:
        with self.lock:
            self.writes.append(write)


def scorer_thread(index: int, match_id: int, actor: Actor, barrier: threading.Barrier, log: Log,
                  seed: int) -> None:
    rng = random.Random(seed * 1000 + index)
    try:
        for _round in range(ROUNDS):
            match = Match.objects.get(pk=match_id)  # what this scorer sees on its phone
            hands = match.hands_played
            op = "record" if hands == 0 else rng.choice(["record", "record", "correct", "undo"])
            write = Write(match_id, match.version, op, outcome=figures(rng.choice(POINTS)))
            if op == "record" and hands == 0:
                write.dealer = rng.randrange(4)
            if op == "correct":
                write.number = rng.randint(1, hands)
            barrier.wait(timeout=60)
            try:
                if op == "record":
                    hand_record(match_id=match_id, outcome=write.outcome, version=write.version, actor=actor,
                                dealer=write.dealer)
                elif op == "correct":
                    hand_correct(match_id=match_id, number=write.number, outcome=write.outcome,
                                 version=write.version, actor=actor)
                else:
                    hand_undo(match_id=match_id, version=write.version, actor=actor)
            except Exception as exc:  # kept for the checks: only StaleVersion is acceptable
                write.error = exc
            log.add(write)
    finally:
        connection.close()


def run_scorers(assignments: list[int], actor: Actor, seed: int) -> Log:
    barrier = threading.Barrier(len(assignments))
    log = Log()
    threads = [threading.Thread(target=scorer_thread, args=(i, m, actor, barrier, log, seed), daemon=True)
               for i, m in enumerate(assignments)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a scorer thread hung"
    return log


def check_story(match_id: int, start_version: int, writes: list[Write], start_audits: int) -> list[str]:
    """Everything that is wrong with this match after the race (an empty list when all is right)."""
    problems: list[str] = []
    accepted = sorted((w for w in writes if w.error is None), key=lambda w: w.version)
    for w in writes:
        if w.error is not None and not isinstance(w.error, StaleVersion):
            problems.append(f"a write failed with {type(w.error).__name__}: {w.error}")
    versions = [w.version for w in accepted]
    if versions != list(range(start_version, start_version + len(accepted))):
        problems.append(f"accepted writes were not one per version (lost update): {versions}")
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    if match.version != start_version + len(accepted):
        problems.append(f"version {match.version} after {len(accepted)} accepted writes from {start_version}")
    # Replay the accepted writes in version order: the model of what must be stored.
    model: list[dict[str, Any]] = []
    first_dealer: int | None = None
    for w in accepted:
        if w.op == "record":
            if not model:
                first_dealer = w.dealer
            model.append(w.outcome or {})
        elif w.op == "correct":
            assert w.number is not None
            if not 1 <= w.number <= len(model):
                problems.append(f"a correction of hand {w.number} was accepted with {len(model)} hands")
                continue
            model[w.number - 1] = w.outcome or {}
        else:
            if not model:
                problems.append("an undo was accepted with no hand")
                continue
            model.pop()
    hands = list(HandRecord.objects.filter(match_id=match_id).order_by("number"))
    numbers = [h.number for h in hands]
    if numbers != list(range(1, len(hands) + 1)):
        problems.append(f"hand numbers are not 1..n: {numbers}")
    if [h.outcome for h in hands] != model:
        problems.append(f"stored figures {[h.outcome for h in hands]} differ from the accepted writes {model}")
    if match.hands_played != len(hands):
        problems.append(f"hands_played {match.hands_played} but {len(hands)} hand records")
    if hands:
        replay = replay_hands(match.stage.tournament, hands[0].dealer, [h.outcome for h in hands])
        if model and first_dealer is not None and hands[0].dealer != first_dealer:
            problems.append(f"first dealer {hands[0].dealer}, recorded as {first_dealer}")
        if match.state != replay.state:
            problems.append(f"half-written: match state {match.state} but the hands give {replay.state}")
        if [h.result for h in hands] != replay.results:
            problems.append("half-written: a hand's stored result differs from scoring")
        if [h.dealer for h in hands] != replay.dealers:
            problems.append("half-written: stored dealers differ from the replay")
    elif match.state:
        problems.append(f"no hands but a state {match.state}")
    audits = AuditEntry.objects.filter(target=f"match:{match_id}", action__startswith="hand.").count()
    if audits - start_audits != len(accepted):
        problems.append(f"{audits - start_audits} audit entries for {len(accepted)} accepted writes")
    return problems


def race_and_check(scorers: int, matches_wanted: int, seed: int) -> tuple[int, int]:
    owner = UserFactory(username=f"owner-{scorers}-{matches_wanted}")
    teams = max(2, 2 * matches_wanted)
    t = make_tournament(owner=owner, teams=teams)
    matches = list(Match.objects.filter(stage__tournament=t, status="ready").order_by("position"))[:matches_wanted]
    assert len(matches) == matches_wanted
    assignments = [matches[i % len(matches)].pk for i in range(scorers)]
    start = {m.pk: (m.version, AuditEntry.objects.filter(target=f"match:{m.pk}").count()) for m in matches}
    log = run_scorers(assignments, Actor(owner), seed)
    assert len(log.writes) == scorers * ROUNDS
    problems: list[str] = []
    for m in matches:
        problems += check_story(m.pk, start[m.pk][0], [w for w in log.writes if w.match_id == m.pk], start[m.pk][1])
    assert not problems, "\n".join(problems)
    accepted = sum(w.error is None for w in log.writes)
    stale = sum(isinstance(w.error, StaleVersion) for w in log.writes)
    return accepted, stale


@pytest.mark.parametrize("scorers", [2, 8, 32])
def test_scorers_on_the_same_match(scorers):
    accepted, stale = race_and_check(scorers, 1, seed=scorers)
    # One write per round wins on a single match; all the others were stale and wrote nothing.
    assert accepted == ROUNDS
    assert stale == scorers * ROUNDS - ROUNDS


@pytest.mark.parametrize("scorers", [2, 8, 32])
def test_scorers_on_different_matches(scorers):
    """Half as many matches as scorers (two scorers a table), 32 scorers on 16 matches at once."""
    matches = max(1, scorers // 2) if scorers > 2 else 2
    accepted, stale = race_and_check(scorers, matches, seed=100 + scorers)
    # Each match takes exactly one write a round; the rest are stale.
    assert accepted == matches * ROUNDS
    assert stale == scorers * ROUNDS - accepted


def test_the_checks_catch_a_missing_row_lock(monkeypatch):
    """With SELECT … FOR UPDATE removed (and a pause after the version check to widen the window), the
    same race breaks the invariants: this is what the lock prevents, and the checks above would see it."""
    import tournaments.services.hands as hands_module

    def lock_without_for_update(match_id: int) -> Match:
        return Match.objects.select_related("stage__tournament").get(pk=match_id)

    real_check = hands_module.check_version

    def slow_check(match: Match, version: Any) -> None:
        real_check(match, version)
        time.sleep(0.2)

    monkeypatch.setattr(hands_module, "lock_match", lock_without_for_update)
    monkeypatch.setattr(hands_module, "check_version", slow_check)
    owner = UserFactory(username="owner-nolock")
    t = make_tournament(owner=owner, teams=2)
    match = Match.objects.get(stage__tournament=t)
    start_version = match.version
    log = run_scorers([match.pk] * 8, Actor(owner), seed=7)
    problems = check_story(match.pk, start_version, log.writes, 0)
    assert problems, "without the row lock the race should have broken an invariant"


# --------------------------------------------------------------------------- through HTTP


def test_stale_writes_through_the_api_answer_409():
    """Eight scorers POST the same version to one match over the API at once: one 201, seven 409
    (code stale_version, with the current match), and exactly one hand stored."""
    owner = UserFactory(username="owner-http")
    t = make_tournament(owner=owner, teams=2)
    match = Match.objects.get(stage__tournament=t)
    key = Token.objects.create(user=owner).key
    barrier = threading.Barrier(8)
    answers: list[Any] = [None] * 8

    def post(i: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
            body = {"version": match.version, "outcome": figures(85), "dealer": 0}
            barrier.wait(timeout=30)
            answers[i] = client.post(f"/api/v1/matches/{match.pk}/hands/", body, format="json")
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,), daemon=True) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] + [409] * 7, codes
    for a in answers:
        if a.status_code == 409:
            body = a.json()
            assert body["code"] == "stale_version" and body["detail"]
            assert body["current"]["version"] == match.version + 1 and body["current"]["hands_played"] == 1
    assert HandRecord.objects.filter(match=match).count() == 1
