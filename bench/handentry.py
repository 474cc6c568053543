"""Hand entry against the floor of its own stack (issue 18), in-process, one run, interleaved.

    .venv/bin/python bench/handentry.py --database sqlite      # a throwaway SQLite file
    .venv/bin/python bench/handentry.py --database postgres    # scratch database bench_handentry_<pid>, dropped
    .venv/bin/python bench/handentry.py --rounds 300

Three operations, taken in turn in every round so a busy machine weighs on all three alike:

1. hand entry: ``POST /api/v1/matches/{id}/hands/`` (token auth, a scorer who is not the owner, the
   version from the previous answer; the attackers take the deal over, so the match never ends);
2. the GET floor: ``GET /api/v1/players/{id}/`` with the same token (one small object);
3. the locked-write floor: one transaction that locks a match row (``FOR UPDATE OF`` it), updates it
   and inserts an audit entry, through the ORM.

Requests go through Django's whole stack (middleware, DRF, the serializers) with the test client, no
HTTP server. It prints the median and p95 of each, the ratios of the medians, and the load average;
goals: hand entry ≤ 3× the GET floor and ≤ 2× the locked-write floor. Exit status 1 if missed.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "postgres://postgres@127.0.0.1:5432"
OUTCOME = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(rounds: int) -> dict[str, list[float]]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from tests.tournaments.test_hand_entry_answers import knockout, user
    from tournaments.models import AuditEntry, Match, Player
    from tournaments.services import Actor
    from tournaments.services.setup import staff_add

    call_command("migrate", verbosity=0)
    owner, scorer = user("bench-owner"), user("bench-scorer")
    cup = knockout(owner, "Bench Cup")
    staff_add(tournament=cup, actor=Actor(owner), username=scorer.username, role="scorer")
    match, other = Match.objects.filter(stage__tournament=cup, status="ready").order_by("position")[:2]
    player = Player.objects.first()
    assert player is not None
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=scorer).key}")
    url = f"/api/v1/matches/{match.pk}/hands/"
    version = match.version
    dealer: int | None = 0

    def hand() -> None:
        nonlocal version, dealer
        body = {"version": version, "outcome": OUTCOME, **({"dealer": dealer} if dealer is not None else {})}
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 201, response.content[:300]
        version, dealer = response.json()["match"]["version"], None

    def get() -> None:
        response = client.get(f"/api/v1/players/{player.pk}/")
        assert response.status_code == 200, response.content[:300]

    def locked_write() -> None:
        with transaction.atomic():
            list(Match.objects.select_for_update(of=("self",)).filter(pk=other.pk).values_list("version", flat=True))
            Match.objects.filter(pk=other.pk).update(version=F("version") + 1)
            AuditEntry.objects.create(tournament=cup, via="bench", action="bench.write", target=f"match:{other.pk}")

    operations = {"hand entry": hand, "GET one object": get, "locked write": locked_write}
    times: dict[str, list[float]] = {name: [] for name in operations}
    for _warm in range(10):
        for operation in operations.values():
            operation()
    for _ in range(rounds):
        for name, operation in operations.items():
            start = time.perf_counter()
            operation()
            times[name].append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false", "LOG_LEVEL": "ERROR",
                       "CELERY_BROKER_URL": "", "SECRET_KEY": secrets.token_urlsafe(40),
                       "ALLOWED_HOSTS": "testserver,127.0.0.1"})
    scratch = None
    folder = tempfile.TemporaryDirectory(prefix="bench-handentry-")
    if args.database == "postgres":
        scratch = f"bench_handentry_{os.getpid()}"
        pg_admin(f'CREATE DATABASE "{scratch}"')
        os.environ["DATABASE_URL"] = f"{PG}/{scratch}"
        os.environ["CONN_MAX_AGE"] = "60"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder.name}/bench.sqlite3"
    try:
        times = run(args.rounds)
    finally:
        if scratch is not None:
            from django.db import connections

            connections.close_all()
            pg_admin(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        folder.cleanup()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.database}, {args.rounds} rounds interleaved, in-process; load average {load} on "
          f"{os.cpu_count()} CPUs")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"  {name:16} median {medians[name]:7.2f} ms   p95 {percentile(values, 0.95):7.2f} ms")
    to_get = medians["hand entry"] / medians["GET one object"]
    to_write = medians["hand entry"] / medians["locked write"]
    ok = to_get <= 3 and to_write <= 2
    print(f"  hand entry / GET floor {to_get:.2f}× (goal ≤ 3×); / locked-write floor {to_write:.2f}× (goal ≤ 2×): "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
