"""Hand entry against the floor of its own stack (issue 18), in-process, one run, interleaved.

    .venv/bin/python bench/handentry.py --database sqlite      # a throwaway SQLite file
    .venv/bin/python bench/handentry.py --database postgres    # scratch database bench_handentry_<pid>, dropped
    .venv/bin/python bench/handentry.py --rounds 300

Four operations, taken in turn in every round so a busy machine weighs on all of them alike:

1. hand entry: ``POST /api/v1/matches/{id}/hands/`` (token auth, a scorer who is not the owner, the
   version from the previous answer; the attackers take the deal over, so the match never ends);
2. the GET floor: ``GET /api/v1/players/{id}/`` with the same token (one small object);
3. the locked-write floor on the same stack (issue 18's definition): ``POST`` with the same token to a
   minimal DRF view of this run only (``bench_urlconf``: the project's URLs plus one route, nothing added
   to the product's), with the project's middleware, authentication, parsers and idempotency mixin, that
   in one transaction locks another match's row (``FOR UPDATE OF`` it), updates it and inserts an audit
   entry;
4. the locked-write floor through the ORM only: the same transaction without any request around it (a
   stricter floor, reported for comparison).

Requests go through Django's whole stack (middleware, DRF, the serializers) with the test client, no
HTTP server. It prints the median and p95 of each, the ratios of the medians and of the p95s, the
median of the per-round ratios ("paired": one round's operations ran back to back, under the same
load), and the load average; goals, on the ratio of the medians: hand entry ≤ 3× the GET floor and
≤ 2× the same-stack locked-write floor (exit status 1 if missed); the ORM-only ratio is printed too.
The same-stack route comes first in the run's URLconf (resolved at once, a little cheaper than the
API router's routes: a stricter floor).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def bench_urlconf(view: Callable[..., Any]) -> str:
    """A URLconf for this run only: the project's, plus the same-stack locked-write floor's route."""
    import types

    from django.urls import path

    from config import urls

    module = types.ModuleType("bench_handentry_urls")
    module.__dict__.update({"urlpatterns": [path("api/v1/bench/locked-write/", view), *urls.urlpatterns]},
                           **{name: getattr(urls, name) for name in ("handler400", "handler404", "handler500")})
    sys.modules[module.__name__] = module
    return module.__name__


def run(rounds: int) -> dict[str, list[float]]:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F
    from django.test import Client, override_settings
    from rest_framework.authtoken.models import Token
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from safety.idempotency import IdempotentAPIMixin
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

    def write() -> int:
        """Lock (``FOR UPDATE OF`` the match), ``UPDATE``, ``INSERT``: the least a recorded hand does."""
        with transaction.atomic():
            version = Match.objects.select_for_update(of=("self",)).values_list("version", flat=True).get(pk=other.pk)
            Match.objects.filter(pk=other.pk).update(version=F("version") + 1)
            AuditEntry.objects.create(tournament=cup, via="bench", action="bench.write", target=f"match:{other.pk}")
        return version + 1

    class LockedWrite(IdempotentAPIMixin, APIView):
        def post(self, request: Request) -> Response:
            return Response({"version": write(), "read": bool(request.data)}, status=201)

    def locked_write_request() -> None:
        response = client.post("/api/v1/bench/locked-write/", json.dumps({"version": version}),
                               content_type="application/json")
        assert response.status_code == 201, response.content[:300]

    operations = {"hand entry": hand, "GET one object": get, "locked write, same stack": locked_write_request,
                  "locked write, ORM only": write}
    times: dict[str, list[float]] = {name: [] for name in operations}
    with override_settings(ROOT_URLCONF=bench_urlconf(LockedWrite.as_view())):
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
    p95 = {name: percentile(values, 0.95) for name, values in times.items()}
    for name in times:
        print(f"  {name:26} median {medians[name]:7.2f} ms   p95 {p95[name]:7.2f} ms")
    floors = ("GET one object", "locked write, same stack", "locked write, ORM only")
    ratios = {floor: (medians["hand entry"] / medians[floor], p95["hand entry"] / p95[floor]) for floor in floors}
    # The same round's operations ran back to back, under the same load: the median of their ratios.
    paired = {floor: statistics.median(h / f for h, f in zip(times["hand entry"], times[floor], strict=True))
              for floor in floors}
    goals = {"GET one object": 3.0, "locked write, same stack": 2.0}
    for floor, (median, high) in ratios.items():
        goal = f"goal ≤ {goals[floor]:.0f}×: {'met' if median <= goals[floor] else 'NOT met'}" if floor in goals \
            else "for comparison, no goal"
        print(f"  hand entry / {floor:26} {median:5.2f}× median, {high:5.2f}× p95, {paired[floor]:5.2f}× paired "
              f"({goal})")
    return 0 if all(ratios[floor][0] <= goal for floor, goal in goals.items()) else 1


if __name__ == "__main__":
    sys.exit(main())
