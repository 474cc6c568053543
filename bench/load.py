"""Load benchmark: N concurrent scorers recording hands over HTTP against gunicorn on PostgreSQL.

    .venv/bin/python bench/load.py [--scorers 32] [--hands 25] [--readers 8] [--reads 400] [--workers 4]
                                   [--think 0] [--db shengji_bench] [--keep] [--pdf-visitors 0]
                                   [--worker [--broker redis://127.0.0.1:6379/0]]

It creates a scratch database (``--db``, dropped and re-created; PostgreSQL at 127.0.0.1:5432, user
postgres), migrates it, builds a running tournament with one match per scorer, gives each scorer a
user, an API token and its own match, starts gunicorn on a free loopback port (127.0.0.1 only),
and then:

1. hand entry: every scorer POSTs ``--hands`` hands to its match (``/api/v1/matches/{id}/hands/``,
   version from the previous answer; ``--think`` seconds between hands on average, with a random start
   within one think time), all released together;
2. standings: ``--readers`` clients GET the standings page and the standings API ``--reads`` times in all.

With ``--pdf-visitors N``, N anonymous visitors reload the standings PDF during step 1. With
``--worker``, the site gets a Redis broker (``--broker``; results in the next database number) and a
Celery worker (1 process, ``nice -n 10``) renders the visitors' PDFs; without it there is no broker and
the renders run in a background thread of a gunicorn worker. Stored renders go to a temporary
``MEDIA_ROOT``, removed at the end.

It prints p50/p95/p99 latency, throughput and errors for each, stops gunicorn (and the worker) and
drops the database (unless ``--keep``). Bounded: at most scorers × hands + reads requests, and a 300 s overall limit.
Target: hand entry p95 ≤ 50 ms at 32 concurrent scorers, 0 errors.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "postgres://postgres@127.0.0.1:5432"
DEADLINE = 300.0
OUTCOME = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}  # no level


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recreate_database(name: str, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def environment(db: str, media: str, broker: str = "", cache_url: str = "") -> dict[str, str]:
    results = ""
    if broker:
        base, _sep, number = broker.rpartition("/")
        results = f"{base}/{int(number or 0) + 1}"
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false",
            "DATABASE_URL": f"{PG}/{db}", "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": results,
            "MEDIA_ROOT": media, "CACHE_URL": cache_url, "LOG_LEVEL": "ERROR",
            "SECRET_KEY": secrets.token_urlsafe(40), "CONN_MAX_AGE": "60", "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # each PDF visitor has an address of its own (the rate limit is per address)
            "TRUSTED_PROXY_HEADER": "X-Forwarded-For"}


class ScorerPlan(TypedDict):
    """One scorer's match, its version and the scorer's API token."""

    match: int
    version: int
    token: str


class World(TypedDict):
    tournament: int
    stage: int
    scorers: list[ScorerPlan]


def build(scorers: int) -> World:
    """A running tractor knockout with one ready match per scorer; each scorer a token of its own."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.models import Entry, Match, Player, Team
    from tournaments.services import Actor
    from tournaments.services.setup import staff_add, tournament_create
    from tournaments.services.stages import tournament_start

    User = get_user_model()
    owner = User.objects.create_user("bench-owner", password=secrets.token_urlsafe(12))
    t = tournament_create(owner=owner, name="压力测试 Load Cup", variant="tractor")
    size = 2 * scorers
    players = Player.objects.bulk_create([Player(name=f"选手 {i}") for i in range(2 * size)])
    teams = Team.objects.bulk_create([Team(name=f"队 {i}", player1=players[2 * i], player2=players[2 * i + 1])
                                      for i in range(size)])
    Entry.objects.bulk_create([Entry(tournament=t, team=team, seed=i + 1) for i, team in enumerate(teams)])
    tournament_start(tournament=t, actor=Actor(owner))
    matches = list(Match.objects.filter(stage__tournament=t, status="ready").order_by("position"))[:scorers]
    assert len(matches) == scorers, len(matches)
    plan: list[ScorerPlan] = []
    for i, m in enumerate(matches):
        user = User.objects.create_user(f"scorer{i}", password=secrets.token_urlsafe(12))
        staff_add(tournament=t, username=user.username, role="scorer", actor=Actor(owner))
        plan.append({"match": m.pk, "version": m.version, "token": Token.objects.create(user=user).key})
    return {"tournament": t.pk, "stage": t.stages.get().pk, "scorers": plan}


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.limited = 0  # answers refused by a rate limit (429)
        self.preparing = 0  # "being prepared" answers (202: no render yet)
        self.ages: list[int] = []  # the Age of the stored renders served

    def add(self, ms: float, error: str | None) -> None:
        with self.lock:
            self.ms.append(ms)
            if error:
                self.errors[error] = self.errors.get(error, 0) + 1

    def line(self, label: str, seconds: float) -> str:
        ms = sorted(self.ms)
        if not ms:
            return f"{label}: no requests"

        def q(p: float) -> float:
            return ms[min(len(ms) - 1, round(p * (len(ms) - 1)))]

        errors = sum(self.errors.values())
        return (f"{label:<34} n={len(ms):5d}  p50 {q(0.50):6.1f} ms  p95 {q(0.95):6.1f} ms  p99 {q(0.99):6.1f} ms  "
                f"mean {statistics.fmean(ms):6.1f} ms  {len(ms) / seconds:6.1f} req/s  errors {errors}"
                + (f" {self.errors}" if errors else ""))


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
            forwarded_for: str | None = None, header: str = "") -> Any:
    """(status, body, milliseconds), and the value of ``header`` after them when one is asked for."""
    headers = {"Accept": "application/json"}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        status = response.status
        value = response.getheader(header) if header else None
    finally:
        conn.close()
    ms = (time.perf_counter() - started) * 1000
    return (status, payload, ms, value) if header else (status, payload, ms)


def pdf_visitor(port: int, tournament: int, index: int, stats: Stats, done: threading.Event,
                stop_at: float) -> None:
    """An anonymous visitor (its own address via the trusted header when set) reloading the standings PDF."""
    while not done.is_set() and time.monotonic() < stop_at:
        try:
            status, _body, ms, age = request(port, "GET", f"/tournaments/{tournament}/print/standings.pdf",
                                             forwarded_for=f"198.51.100.{index + 1}", header="Age")
        except OSError as exc:
            stats.add(0.0, type(exc).__name__)
            continue
        if status == 429:
            with stats.lock:
                stats.limited += 1
            time.sleep(1.0)  # a browser would show the message; the visitor reloads a second later
        elif status == 202:
            with stats.lock:
                stats.preparing += 1
            time.sleep(1.0)  # the page reloads itself after Retry-After; sooner here
        else:
            if age:
                with stats.lock:
                    stats.ages.append(int(age))
            stats.add(ms, None if status == 200 else str(status))


def scorer(port: int, plan: ScorerPlan, hands: int, think: float, barrier: threading.Barrier, stats: Stats,
           stop_at: float) -> None:
    version = plan["version"]
    rng = random.Random(plan["match"])
    barrier.wait()
    if think:  # scorers do not finish their hands in lock-step: a random start within one think time
        time.sleep(rng.uniform(0, think))
    for n in range(hands):
        if time.monotonic() > stop_at:
            return
        body = {"version": version, "outcome": OUTCOME, "dealer": 0 if n == 0 else None}
        try:
            status, payload, ms = request(port, "POST", f"/api/v1/matches/{plan['match']}/hands/", body, plan["token"])
        except OSError as exc:
            stats.add(0.0, type(exc).__name__)
            continue
        if status == 201:
            version = json.loads(payload)["match"]["version"]
            stats.add(ms, None)
        else:
            stats.add(ms, str(status))
        if think:
            time.sleep(rng.uniform(0.5, 1.5) * think)


def reader(port: int, paths: list[str], count: int, barrier: threading.Barrier, stats: dict[str, Stats],
           stop_at: float) -> None:
    barrier.wait()
    for i in range(count):
        if time.monotonic() > stop_at:
            return
        path = paths[i % len(paths)]
        try:
            status, _payload, ms = request(port, "GET", path)
        except OSError as exc:
            stats[path].add(0.0, type(exc).__name__)
            continue
        stats[path].add(ms, None if status == 200 else str(status))


def run_threads(threads: list[threading.Thread]) -> float:
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(DEADLINE)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorers", type=int, default=32)
    parser.add_argument("--hands", type=int, default=25, help="hands per scorer")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a scorer waits between hands (uniform ±50%%; 0: back to back)")
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--reads", type=int, default=400, help="standings requests in all")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--db", "--database", dest="db", default="shengji_bench",
                        help="the scratch PostgreSQL database (dropped and re-created)")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--pdf-visitors", type=int, default=0,
                        help="anonymous visitors fetching the standings PDF in a loop while the scorers enter hands")
    parser.add_argument("--worker", action="store_true",
                        help="a Redis broker and a Celery worker (nice 10) for the PDF renders (default: no broker)")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/0",
                        help="the broker with --worker (results in the next database number)")
    parser.add_argument("--cache-url", default="",
                        help="a shared Redis cache for the web processes (CACHE_URL; emptied first), as in production")
    args = parser.parse_args()
    assert args.db.replace("_", "").isalnum(), "a plain database name, please"

    media = tempfile.mkdtemp(prefix="bench-media-")
    env = environment(args.db, media, args.broker if args.worker else "", args.cache_url)
    os.environ.update(env)
    recreate_database(args.db)
    if args.cache_url:
        import redis

        redis.Redis.from_url(args.cache_url).flushdb()  # no rate-limit counts left by an earlier run
    gunicorn = worker = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        t0 = time.perf_counter()
        world = build(args.scorers)
        print(f"set-up: database {args.db}, {args.scorers} matches and scorers in {time.perf_counter() - t0:.1f} s; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        port = args.port or free_port()
        gunicorn = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application", "--workers", str(args.workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
            cwd=ROOT, env=env, start_new_session=True)
        for _ in range(100):
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("gunicorn did not start")
        if args.worker:
            worker = subprocess.Popen(
                ["nice", "-n", "10", str(Path(sys.executable).parent / "celery"), "-A", "config.celery_app", "worker",
                 "--concurrency", "1", "--pool", "prefork", "--loglevel", "WARNING", "--without-gossip",
                 "--without-mingle", "--without-heartbeat", "-n", f"bench-{os.getpid()}@%h"],
                cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL)
            from config.celery_app import app  # the worker's start-up is not measured: wait for its answer

            for _ in range(60):
                if app.control.ping(timeout=1.0):
                    break
            else:
                raise SystemExit("the Celery worker did not answer")
        # Warm every worker (imports, first connections) before measuring.
        for _ in range(4 * args.workers):
            request(port, "GET", f"/tournaments/{world['tournament']}/standings/")
            request(port, "GET", f"/api/v1/tournaments/{world['tournament']}/standings/")
        stop_at = time.monotonic() + DEADLINE

        hand_stats = Stats()
        barrier = threading.Barrier(args.scorers)
        pdf_stats, pdf_done = Stats(), threading.Event()
        pdf_threads = [threading.Thread(target=pdf_visitor, args=(port, world["tournament"], index, pdf_stats,
                                                                  pdf_done, stop_at), daemon=True)
                       for index in range(args.pdf_visitors)]
        for thread in pdf_threads:
            thread.start()
        seconds = run_threads([threading.Thread(target=scorer, args=(port, plan, args.hands, args.think, barrier,
                                                                     hand_stats, stop_at))
                               for plan in world["scorers"]])
        pdf_done.set()
        for thread in pdf_threads:
            thread.join()
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        renders = "a Celery worker (nice 10) on " + args.broker if args.worker else "a thread, no broker"
        print(f"gunicorn {args.workers} workers on 127.0.0.1:{port}; PostgreSQL; think time {args.think:g} s; "
              + (f"visitors' PDF renders: {renders}; " if args.pdf_visitors else "")
              + (f"shared cache {args.cache_url}; " if args.cache_url else "")
              + f"load average {load} on {os.cpu_count()} CPUs (absolute figures depend on it: compare ratios)")
        print(hand_stats.line(f"hand entry, {args.scorers} scorers"
                              + (f", {args.pdf_visitors} anonymous PDF visitors" if args.pdf_visitors else ""),
                              seconds))
        if args.pdf_visitors:
            answered = len(pdf_stats.ms)
            ages = sorted(pdf_stats.ages)
            print(f"standings PDF, {args.pdf_visitors} visitors: {answered} answers "
                  f"({pdf_stats.limited} refused with 429, {pdf_stats.preparing} 'being prepared' 202), "
                  f"errors {dict(pdf_stats.errors)}"
                  + (f"; Age of the renders served: median {ages[len(ages) // 2]} s, max {ages[-1]} s" if ages else ""))
            print(pdf_stats.line("standings PDF answers", seconds))

        paths = [f"/tournaments/{world['tournament']}/standings/", f"/api/v1/tournaments/{world['tournament']}/standings/"]
        read_stats = {p: Stats() for p in paths}
        barrier = threading.Barrier(args.readers)
        per = max(1, args.reads // args.readers)
        seconds = run_threads([threading.Thread(target=reader, args=(port, paths, per, barrier, read_stats, stop_at))
                               for _ in range(args.readers)])
        print(read_stats[paths[0]].line(f"standings page, {args.readers} readers", seconds))
        print(read_stats[paths[1]].line(f"standings API, {args.readers} readers", seconds))
        ok = not hand_stats.errors and not any(s.errors for s in read_stats.values())
        ms = sorted(hand_stats.ms)
        p95 = ms[round(0.95 * (len(ms) - 1))] if ms else float("inf")
        print(f"target hand entry p95 ≤ 50 ms, 0 errors: {'met' if ok and p95 <= 50 else 'NOT met'}")
        return 0 if ok else 1
    finally:
        for process in (worker, gunicorn):
            if process is not None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            recreate_database(args.db, drop_only=True)
        shutil.rmtree(media, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
