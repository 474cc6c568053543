"""Scale benchmark: the standings page and API of a 512-team tournament with 10,000 recorded hands,
against a 64-team one with 1,250 — time and number of SQL queries at both sizes.

    .venv/bin/python bench/scale.py [--db shengji_scale] [--keep] [--sqlite]

A scratch PostgreSQL database (127.0.0.1:5432, user postgres; dropped and re-created) unless
``--sqlite``. Hands are bulk-created with the results scoring computes (one replay, reused), and the
match rows get the matching state, hands_played and version, so the data is what the services would
have stored; a quarter of the first-round matches are then won through ``hand_record`` so the bracket
advances as it does for real. Requests go through Django's test client in-process, with
``CaptureQueriesContext`` counting queries. Target: ≤ 150 ms, and a query count that does not grow
with the tournament's size.
"""

from __future__ import annotations

import argparse
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
TAKEOVER = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}


def recreate_database(name: str, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def build(owner, teams: int, hands: int, name: str):
    from tournaments.models import Entry, HandRecord, Match, Player, Team
    from tournaments.services import Actor, hand_record, replay_hands
    from tournaments.services.setup import tournament_create
    from tournaments.services.stages import tournament_start

    t = tournament_create(owner=owner, name=name, variant="tractor")
    players = Player.objects.bulk_create([Player(name=f"选手 {name} {i}") for i in range(2 * teams)])
    team_rows = Team.objects.bulk_create([Team(name=f"队 {i}", player1=players[2 * i], player2=players[2 * i + 1])
                                          for i in range(teams)])
    Entry.objects.bulk_create([Entry(tournament=t, team=team, seed=i + 1) for i, team in enumerate(team_rows)])
    actor = Actor(owner)
    tournament_start(tournament=t, actor=actor)
    t.refresh_from_db()
    first = list(Match.objects.filter(stage__tournament=t, round__number=1, status="ready").order_by("position"))
    to_win = first[: len(first) // 4]
    per_match = -(-hands // len(first))  # at least ``hands`` in all
    bulk = per_match - 4  # the winners get their last 4 hands through hand_record
    replay = replay_hands(t, 0, [TAKEOVER] * per_match)
    rows = []
    for m in first:
        n = bulk if m in to_win else per_match
        rows += [HandRecord(match=m, number=k + 1, dealer=replay.dealers[k], outcome=TAKEOVER,
                            result=replay.results[k], entered_via="system") for k in range(n)]
        m.state = (replay_hands(t, 0, [TAKEOVER] * n).state if m in to_win else replay.state)
        m.hands_played, m.status, m.version = n, Match.Status.PLAYING, m.version + n
    HandRecord.objects.bulk_create(rows, batch_size=2000)
    Match.objects.bulk_update(first, ["state", "hands_played", "status", "version"], batch_size=500)
    for m in to_win:  # the dealer side shuts the attackers out until it passes J: the bracket advances
        for _ in range(4):
            m.refresh_from_db()
            hand_record(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=actor)
    return t, HandRecord.objects.filter(match__stage__tournament=t).count()


def measure(client, url: str, runs: int = 7) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url).status_code == 200, url  # warm-up
    times = []
    queries = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        queries = len(captured)
    return statistics.median(times), max(times), queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="shengji_scale")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--sqlite", action="store_true", help="a throwaway SQLite file instead of PostgreSQL")
    args = parser.parse_args()
    assert args.db.replace("_", "").isalnum()
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false", "CELERY_BROKER_URL": "",
                       "LOG_LEVEL": "ERROR", "SECRET_KEY": secrets.token_urlsafe(40)})
    if args.sqlite:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='shengji-scale-')}/scale.sqlite3"
    else:
        os.environ["DATABASE_URL"] = f"{PG}/{args.db}"
        recreate_database(args.db)
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections
        from django.test import Client

        call_command("migrate", verbosity=0)
        owner = get_user_model().objects.create_user("scale-owner", password=secrets.token_urlsafe(12))
        client = Client()
        rows = []
        for teams, hands in ((64, 1250), (512, 10000)):
            t0 = time.perf_counter()
            t, stored = build(owner, teams, hands, f"规模 Scale {teams}")
            built = time.perf_counter() - t0
            stage = t.stages.get()
            for label, url in [("standings page", f"/tournaments/{t.pk}/standings/"),
                               ("standings page (htmx part)", f"/tournaments/{t.pk}/standings/"),
                               ("standings API", f"/api/v1/tournaments/{t.pk}/standings/"),
                               ("stage standings API", f"/api/v1/stages/{stage.pk}/standings/"),
                               ("stage standings CSV", f"/api/v1/stages/{stage.pk}/standings-csv/"),
                               ("tournament page", f"/tournaments/{t.pk}/"),
                               ("bracket page", f"/tournaments/{t.pk}/bracket/"),
                               ("bracket API", f"/api/v1/tournaments/{t.pk}/bracket/")]:
                if "htmx" in label:
                    client.defaults["HTTP_HX_REQUEST"] = "true"
                median, worst, queries = measure(client, url)
                client.defaults.pop("HTTP_HX_REQUEST", None)
                rows.append((teams, stored, label, median, worst, queries))
            print(f"built {teams} teams, {stored} hands in {built:.1f} s")
        vendor = connections["default"].vendor
        print(f"\n{vendor}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}; median of 7 after a warm-up")
        print(f"{'teams':>5} {'hands':>6}  {'what':<28} {'median':>9} {'worst':>9} {'queries':>7}")
        for teams, stored, label, median, worst, queries in rows:
            print(f"{teams:>5} {stored:>6}  {label:<28} {median:7.1f} ms {worst:7.1f} ms {queries:>7}")
        by: dict[str, dict[int, tuple[float, int]]] = {}  # label → teams → (median ms, queries)
        for teams, _stored, label, median, _worst, queries in rows:
            by.setdefault(label, {})[teams] = (median, queries)
        standings = [label for label in by if "standings" in label]
        grows = [label for label in standings if by[label][512][1] > by[label][64][1]]
        slow = [label for label in standings if by[label][512][0] > 150]
        others = [f"{label} ({by[label][64][1]} → {by[label][512][1]} queries, {by[label][512][0]:.0f} ms)"
                  for label in by if label not in standings
                  and (by[label][512][1] > by[label][64][1] or by[label][512][0] > 150)]
        print(f"\nstandings: query count grows with size: {', '.join(grows) or 'no'}; over 150 ms at 512 teams: "
              f"{', '.join(slow) or 'none'}")
        print(f"other pages growing or over 150 ms: {'; '.join(others) or 'none'}")
        connections.close_all()
        return 1 if grows or slow else 0
    finally:
        if not args.sqlite and not args.keep:
            recreate_database(args.db, drop_only=True)


if __name__ == "__main__":
    raise SystemExit(main())
