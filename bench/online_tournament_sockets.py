"""A tournament round played online over real sockets (issue 31): a ``--teams`` online elimination's first
round (``--teams``/2 tables) played by WebSocket bots while the public bracket, standings and tables pages
are polled over HTTP, against uvicorn on a scratch database.

    .venv/bin/python bench/online_tournament_sockets.py                      # 64 teams: 32 tables, 240 s of play
    .venv/bin/python bench/online_tournament_sockets.py --teams 8 --seconds 20 --think-ms 100
    .venv/bin/python bench/online_tournament_sockets.py --configs two         # 2 processes on channels-redis
    .venv/bin/python bench/online_tournament_sockets.py --sqlite --teams 4 --think-ms 0 --seconds 8  # smoke test

1. **Setup** (this process, through the services): a scratch PostgreSQL database ``bench_otour_<pid>``
   (``--db``; ``--sqlite``: a throwaway file), migrated; ``--teams`` teams; an online elimination
   (``hand_limit`` ``--hand-limit``) started, which opens its first-round rooms; a physical copy of it (same
   teams, same bracket) for the totals entry; every player's link made and opened
   (``player_link_open``: the seat token the link would give).
2. **Servers**: ``bench/online_tournament_server.py`` (``bench/online_asgi.py``'s app, the site unchanged, plus
   the timed hook) — config ``one``: one uvicorn process on the in-memory channel layer; ``two``: two processes
   on channels-redis (``--redis``), each room's seats alternating between the ports, the pages too.
3. **Pages, idle**: one poller thread GETs the bracket, standings and tables pages in turn, one request in
   flight, every ``--poll-ms`` (keep-alive; it goes on at once when an answer took longer), for
   ``--idle-seconds`` with the rooms open and their seats claimed but nobody connected (no table live).
   Then the **floor**, as ``bench/online.py`` measures it: one echo group of four sockets a table
   (``bench/online_asgi.py``'s echo route, through the same stack and channel layer), a ``--floor-bytes``
   frame fanned out to the four, the senders thinking as the players do, for ``--floor-seconds``.
4. **Play**: the clients of ``bench/online.py`` (its ``Table``: hello, ready, declare, bury, play; thinking
   ``--think-ms`` ±50 %, pings as the page does) connect to every seat; the *warm-up* lasts until every
   table has reached its play phase (reported apart); then ``--seconds`` of play are measured: play latency
   (send → the new state at all four seats), accepted actions/s, CPU per action (servers, PostgreSQL
   backends, Redis, this process), the page latency (the poller goes on throughout), and the pages' SQL queries in-process
   (Django's test client here; idle, half-way and at the end of the play: the structural "does not grow"
   check).
5. **Recording cost** — measured in the server, where it happens: the room owner's hook
   (``MatchRooms.hand_finished``) is timed around its call, inside the room's write, on the consumers'
   thread, under the live load; after each commit a thread of the *same process* records the same hand by its
   totals (``hand_record`` from the figures, the scorer's path; no engine scoring handed over) on the physical
   copy, timed alike. So both figures come from the same process, database and load at the same moment
   (the in-process ``bench/online_tournament.py`` measures the same ratio on a quiet machine; the totals
   entry's own cost against its floors is ``bench/handentry.py``'s). The hand count is then checked in the
   database: the online event's ``HandRecord`` rows ``entered_via="online"`` with the room's log attached,
   against the rooms' finished hands and the hook's log lines. (On SQLite, the smoke test's, the paired
   totals entry waits for the file's write lock: its figure means nothing there.)
6. **Checks**: lost and doubled actions as ``bench/online.py`` checks them (``verify``: each action id
   answered once on its socket; the stored ``RoomAction`` ids and the logs' plays equal what was sent and
   not refused), while the seats are still connected.

Targets (printed "met"/"not met"; exit status 1 when lost/doubled actions or an unrecorded hand are found):
play p95 ≤ 50 ms and ≤ 3× the floor; the hook's median ≤ 2× the totals entry's median (wall; CPU printed too); the pages' p95
live ≤ 1.5× idle. A tractor hand is about 110 actions: with the default thinking (1500 ms) a table finishes
its first hand after about 3 minutes, hence the 240 s default; with fewer seconds no hand may be recorded.

Bounded: a 180 s connect limit, a 180 s warm-up limit, a 10 s drain, ``--deadline`` (1200 s) overall; every
process started is stopped (``finally`` and ``atexit``). 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.online import (  # noqa: E402
    FLOOR_RATIO,
    PG,
    THINK_MS,
    RoomPlan,
    Stats,
    Table,
    cpu_seconds,
    echo_floor,
    free_port,
    gather_bounded,
    own_cpu,
    pg_backends,
    quantile,
    recreate_database,
    redis_pid,
    server_env,
    setup_django,
    start_server,
    stop,
    verify,
)

P95_MS, RECORD_RATIO, PAGE_RATIO = 50.0, 2.0, 1.5
PAGES = ("tournament-bracket", "tournament-standings", "tournament-tables")


# ---------------------------------------------------------------- the event (services, this process)


@dataclass
class Event:
    online: int
    physical: int
    matches: list[int]
    plans: list[RoomPlan]


def build(teams: int, hand_limit: int) -> Event:
    """The online elimination started (its first-round rooms open), its physical copy, and every player's
    link opened: the seat tokens, per room."""
    from django.db import connection

    from online.models import Room
    from tests.tournaments.factories import TeamFactory, UserFactory
    from tournaments.models import Match, PlayerLink, Team, Tournament
    from tournaments.services import Actor
    from tournaments.services.online_rooms import KIND
    from tournaments.services.player_links import player_link_open, player_links_ensure
    from tournaments.services.setup import entry_add, tournament_create
    from tournaments.services.stages import tournament_start

    owner = UserFactory(username="bench-director")
    squads = [cast(Team, TeamFactory()) for _ in range(teams)]

    def event(name: str, played: str) -> Tournament:
        t = tournament_create(owner=owner, name=name, options={"hand_limit": hand_limit})
        for seed, team in enumerate(squads, start=1):
            entry_add(tournament=t, actor=Actor(owner), team=team, seed=seed)
        tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played=played)
        t.refresh_from_db()
        return t

    online = event("Bench Online Sockets", "online")
    physical = event("Bench Physical Copy", "physical")
    player_links_ensure(tournament=online, actor=Actor(owner))
    seats: dict[str, list[str]] = {}
    for link in PlayerLink.objects.filter(tournament=online).order_by("id"):
        room, seat, token = player_link_open(link=link)
        seats.setdefault(room.code, [""] * room.players)[seat] = token
    plans = [RoomPlan(code, tokens) for code, tokens in sorted(seats.items())]
    assert len(plans) == teams // 2 and all(all(p.tokens) for p in plans), plans
    assert Room.objects.filter(owner_kind=KIND, status=Room.Status.WAITING).count() == teams // 2
    matches = list(Match.objects.filter(stage__tournament=online).values_list("pk", flat=True))
    connection.close()
    return Event(online.pk, physical.pk, matches, plans)


def page_queries(tournament: int) -> dict[str, int]:
    """Each public page's SQL queries, in-process (Django's test client, anonymous)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    client, out = Client(), {}
    for name in PAGES:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse(name, args=[tournament])).status_code == 200
        out[name.split("-")[1]] = len(ctx.captured_queries)
    connection.close()
    return out


def recorded(event: Event) -> dict[str, int]:
    """What the database holds of the hands played: recorded online (with the room's log), the rooms' finished
    hands, and anything else recorded in the online event."""
    from django.db import connection

    from online.models import RoomHand
    from tournaments.models import HandRecord
    from tournaments.services.online_rooms import KIND

    hands = HandRecord.objects.filter(match__stage__tournament_id=event.online)
    online = hands.filter(entered_via=HandRecord.Via.ONLINE)
    out = {"online": online.count(), "with_log": sum(1 for log in online.values_list("trick_log", flat=True)
                                                     if isinstance(log, dict) and "online" in log),
           "other": hands.exclude(entered_via=HandRecord.Via.ONLINE).count(),
           "room_hands": RoomHand.objects.filter(room__owner_kind=KIND, room__owner_id__in=event.matches,
                                                 finished=True).count(),
           "copy": HandRecord.objects.filter(match__stage__tournament_id=event.physical).count()}
    connection.close()
    return out


# ---------------------------------------------------------------- the page poller


class Poller(threading.Thread):
    """One request in flight, one every ``every`` seconds, the pages in turn (the ports too); each sample is
    tagged with the phase current when it was sent."""

    def __init__(self, ports: list[int], paths: list[str], every: float) -> None:
        super().__init__(name="bench-pages", daemon=True)
        self.ports, self.paths, self.every = ports, paths, every
        self.phase = "idle"
        self.samples: list[tuple[str, str, float, int]] = []  # (phase, path, ms, status)
        self.halt = threading.Event()

    def run(self) -> None:
        conns: dict[int, http.client.HTTPConnection] = {}
        i, due = 0, time.monotonic()
        while not self.halt.wait(max(0.0, due - time.monotonic())):
            port, path = self.ports[i % len(self.ports)], self.paths[i % len(self.paths)]
            i += 1
            due = max(due + self.every, time.monotonic())
            phase, t0 = self.phase, time.perf_counter()
            try:
                conn = conns.get(port) or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conns[port] = conn
                conn.request("GET", path)
                answer = conn.getresponse()
                answer.read()
                status = answer.status
            except (OSError, http.client.HTTPException):
                status = 0
                broken = conns.pop(port, None)
                if broken is not None:
                    broken.close()
            self.samples.append((phase, path, (time.perf_counter() - t0) * 1000, status))
        for conn in conns.values():
            conn.close()

    def ms(self, phase: str) -> list[float]:
        return [ms for p, _, ms, status in self.samples if p == phase and status == 200]

    def failed(self) -> int:
        return sum(1 for _, _, _, status in self.samples if status != 200)


# ---------------------------------------------------------------- the run


class DbCpu:
    """CPU of the scratch database's backends over a window, sampled every second: a backend that starts in
    the window (the servers reconnect every ``CONN_MAX_AGE`` = 60 s) counts from 0, one that ends up to its
    last sample (``bench/online.py`` reads the backends alive at the start only, which misses those)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def sample(self, start: bool = False) -> None:
        for pid in pg_backends(self.db) if self.db else []:
            cpu = cpu_seconds(pid)
            self.first.setdefault(pid, cpu if start else 0.0)
            self.last[pid] = max(cpu, self.last.get(pid, 0.0))

    async def run(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            await asyncio.to_thread(self.sample)

    async def stop(self, task: asyncio.Task[None]) -> float:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.to_thread(self.sample)
        return sum(self.last[p] - self.first[p] for p in self.first)


@dataclass
class Figures:
    warmup_s: float = 0.0
    warmup_latency: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0
    play: list[float] = field(default_factory=list)
    actions: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    lost: int = 0
    doubled: int = 0
    hands: int = 0
    notes: list[str] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    queries: dict[str, dict[str, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    page_cpu_ms: float = float("nan")


def accepted(tables: list[Table]) -> int:
    return sum(1 for t in tables for o in t.outcomes.values() if o.accepted)


async def warm_up(tables: list[Table], poller: Poller, stats: Stats, figures: Figures) -> None:
    """Connect every seat, hello, start the bots; done when every table has reached its play phase (the
    readies, deal, declarations and burials of all tables at once: a burst no real round sees together)."""
    began = time.monotonic()
    await asyncio.wait_for(gather_bounded([t.open(s) for t in tables for s in range(t.n)]), 180)
    for t in tables:
        for e in t.greeted:
            await asyncio.wait_for(e.wait(), max(1.0, began + 180 - time.monotonic()))
    poller.phase = "warmup"
    measuring(stats, True)
    for t in tables:
        t.start()
    while not all(any(((s or {}).get("hand") or {}).get("phase") == "play" for s in t.state) for t in tables):
        if time.monotonic() - began > 180:
            raise RuntimeError("warm-up: not every table reached its play phase within 180 s")
        await asyncio.sleep(0.05)
    figures.warmup_s = time.monotonic() - began
    figures.warmup_latency, stats.latency = stats.latency, {}


def measuring(stats: Stats, on: bool) -> None:
    """``Stats.measuring`` of ``bench/online.py`` (latencies counted only while it is on, where it exists; on
    a ``Stats`` without it every latency counts and this does nothing)."""
    stats.__dict__["measuring"] = on


async def measure(tables: list[Table], pids: list[int], db: str, redis: str, seconds: float, poller: Poller,
                  event: Event, stats: Stats, figures: Figures) -> None:
    """The measured play: ``seconds`` with every table live, then the drain and the checks."""
    rpid = redis_pid(redis) if redis else None
    dbcpu = DbCpu(db)
    await asyncio.to_thread(dbcpu.sample, True)
    sampler = asyncio.create_task(dbcpu.run())
    c0 = [cpu_seconds(p) for p in pids]
    r0, k0, a0 = (cpu_seconds(rpid) if rpid else 0.0), own_cpu(), accepted(tables)
    poller.phase = "live"
    started = time.perf_counter()
    await asyncio.sleep(seconds / 2)
    figures.queries["live"] = await asyncio.to_thread(page_queries, event.online)
    await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - started)))
    measuring(stats, False)
    for t in tables:
        t.acting = False
    poller.phase = "drain"
    figures.seconds = time.perf_counter() - started
    figures.actions = accepted(tables) - a0
    figures.cpu = {"server": sum(cpu_seconds(p) for p in pids) - sum(c0),
                   "db": await dbcpu.stop(sampler),
                   "redis": (cpu_seconds(rpid) - r0) if rpid else 0.0, "client": own_cpu() - k0}
    figures.play = list(stats.latency.get("play", []))
    figures.queries["end"] = await asyncio.to_thread(page_queries, event.online)
    drain = time.monotonic() + 10
    while time.monotonic() < drain and any(t.unanswered() for t in tables):
        await asyncio.sleep(0.05)
    figures.play = list(stats.latency.get("play", []))
    lost, doubled, hands, notes = await asyncio.to_thread(verify, tables)
    figures.lost, figures.doubled, figures.hands = lost, doubled + stats.doubled_answers, hands
    figures.notes += notes
    figures.errors = dict(stats.errors)


async def drive(args: argparse.Namespace, event: Event, ports: list[int], pids: list[int], db: str, redis: str,
                poller: Poller) -> Figures:
    figures, stats = Figures(), Stats()
    tables = [Table(p, ports, stats, args.think_ms / 1000) for p in event.plans]
    try:
        c0, n0 = sum(cpu_seconds(p) for p in pids), len(poller.samples)
        await asyncio.sleep(args.idle_seconds / 2)
        figures.queries["idle"] = await asyncio.to_thread(page_queries, event.online)
        await asyncio.sleep(args.idle_seconds / 2)
        served = len(poller.samples) - n0  # the servers' CPU per page while idle: the pages' share of it live
        figures.page_cpu_ms = (sum(cpu_seconds(p) for p in pids) - c0) * 1000 / max(1, served)
        # the floor as bench/online.py measures it, with the pages polled and no table live yet
        figures.floor = await echo_floor(ports, len(tables), args.floor_seconds, args.floor_bytes,
                                         args.think_ms / 1000)
        await warm_up(tables, poller, stats, figures)
        await measure(tables, pids, db, redis, args.seconds, poller, event, stats, figures)
    finally:
        poller.halt.set()
        await asyncio.gather(*(t.close() for t in tables))
    return figures


def hook_log(paths: list[str]) -> list[dict[str, Any]]:
    lines = []
    for path in paths:
        if Path(path).exists():
            lines += [json.loads(ln) for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip()]
    return lines


def serve_and_play(args: argparse.Namespace, event: Event, database_url: str, db: str, tmp: str,
                   remaining: float) -> tuple[Figures, Poller, list[dict[str, Any]], list[str]]:
    from django.urls import reverse

    redis = args.redis if args.configs == "two" else ""
    ports = [free_port() for _ in range(2 if args.configs == "two" else 1)]
    logs = [str(Path(tmp) / f"server-{i}.log") for i in range(len(ports))]
    records = [str(Path(tmp) / f"record-{i}.jsonl") for i in range(len(ports))]
    key = secrets.token_urlsafe(40)
    procs: list[subprocess.Popen[bytes]] = []
    poller = Poller(ports, [reverse(name, args=[event.online]) for name in PAGES], args.poll_ms / 1000)
    try:
        for i, port in enumerate(ports):
            env = {**server_env(database_url, redis, ""), "SECRET_KEY": key, "BENCH_RECORD_LOG": records[i],
                   "BENCH_TOTALS_TOURNAMENT": str(event.physical)}
            procs.append(start_server(port, env, logs[i], script="online_tournament_server.py"))
        for path in poller.paths:  # warm each process's pages once (imports, templates, connections), untimed
            for port in ports:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", path)
                conn.getresponse().read()
                conn.close()
        poller.start()
        figures = asyncio.run(asyncio.wait_for(
            drive(args, event, ports, [p.pid for p in procs], db, redis, poller), remaining))
    finally:
        poller.halt.set()
        for proc in procs:
            stop(proc)
    notes = []
    for log in logs:
        text = Path(log).read_text(errors="replace") if Path(log).exists() else ""
        if "Traceback" in text:
            last = [ln for ln in text.splitlines() if ln.strip()][-1]
            notes.append(f"{text.count('Traceback')} tracebacks in a server's log, the last ending: {last[:160]}")
    return figures, poller, hook_log(records), notes


# ---------------------------------------------------------------- the report


def median(xs: list[float]) -> float:
    return quantile(xs, 0.5)


def verdict(ok: bool) -> str:
    return "met" if ok else "not met"


def report(args: argparse.Namespace, event: Event, f: Figures, poller: Poller, hooks: list[dict[str, Any]],
           db_hands: dict[str, int]) -> bool:
    """Print the figures; True when nothing was lost, doubled or left unrecorded."""
    per = max(1, f.actions)
    warm = sorted(f.warmup_latency.items())
    print(f"warm-up (connect, hello, ready, deal, declare, bury at every table): {f.warmup_s:.1f} s; latency there: "
          + ", ".join(f"{k} p50 {median(v):.0f} ms (n={len(v)})" for k, v in warm))
    p95 = quantile(f.play, 0.95)
    print(f"play, {len(event.plans)} tables live, {f.seconds:.0f} s: p50 {median(f.play):.1f}  p95 {p95:.1f}  "
          f"p99 {quantile(f.play, 0.99):.1f} ms (n={len(f.play)}); {f.actions / max(f.seconds, 1e-9):.1f} actions/s; "
          "CPU ms/action: " + " ".join(f"{k} {v * 1000 / per:.2f}" for k, v in f.cpu.items()))
    pages_live = len(poller.ms("live"))
    net = (f.cpu.get("server", 0.0) * 1000 - pages_live * f.page_cpu_ms) / per
    f95 = quantile(f.floor, 0.95) if f.floor else float("nan")
    print(f"  floor (a {args.floor_bytes} B frame to four sockets through the same stack, {len(event.plans)} groups, "
          f"{args.floor_seconds:.0f} s): p50 {median(f.floor):.1f} p95 {f95:.1f} ms (n={len(f.floor)}); "
          f"play p95 {p95 / f95:.1f}× the floor")
    print(f"  the servers' CPU includes the page polling: {f.page_cpu_ms:.1f} ms a page when idle × {pages_live} "
          f"pages live → about {net:.2f} ms an action without them")
    print(f"  lost {f.lost}, doubled {f.doubled}; socket errors {f.errors or 'none'}")
    for note in f.notes[:10]:
        print("    " + note)
    idle, live = poller.ms("idle"), poller.ms("live")
    page_ratio = quantile(live, 0.95) / quantile(idle, 0.95) if idle and live else float("nan")
    print(f"public pages (bracket, standings, tables in turn, every {args.poll_ms:.0f} ms): idle p50 "
          f"{median(idle):.1f} p95 {quantile(idle, 0.95):.1f} ms (n={len(idle)}); live p50 {median(live):.1f} "
          f"p95 {quantile(live, 0.95):.1f} ms (n={len(live)}); warm-up p50 {median(poller.ms('warmup')):.1f} ms; "
          f"live/idle p95 {page_ratio:.2f}×, p50 {median(live) / median(idle) if idle and live else float('nan'):.2f}×;"
          f" failed {poller.failed()}")
    print(f"  SQL queries per page in-process: idle {f.queries.get('idle')} · live, half-way "
          f"{f.queries.get('live')} · at the end ({db_hands['online']} hands recorded) {f.queries.get('end')}")
    timed = [h for h in hooks if h.get("totals_ms") is not None]
    hook_ms, totals_ms = [h["hook_ms"] for h in timed], [h["totals_ms"] for h in timed]
    hook_cpu, totals_cpu = [h["hook_cpu_ms"] for h in timed], [h["totals_cpu_ms"] for h in timed]
    ratio = median(hook_ms) / median(totals_ms) if timed else float("nan")
    paired = median([a / b for a, b in zip(hook_ms, totals_ms, strict=True) if b > 0]) if timed else float("nan")
    print(f"hands: {f.hands} finished in the rooms (logs), {db_hands['room_hands']} in the database; recorded "
          f"via online {db_hands['online']} ({db_hands['with_log']} with the room's log), otherwise "
          f"{db_hands['other']}; the hook ran {len(hooks)}×, {len(timed)} paired with a totals entry "
          f"({db_hands['copy']} in the copy); errors: {[h['error'] for h in hooks if h.get('error')][:3] or 'none'}")
    print(f"recording (server, under load): hook median {median(hook_ms):.1f} ms (p95 {quantile(hook_ms, 0.95):.1f},"
          f" CPU {median(hook_cpu):.1f}) · totals entry median {median(totals_ms):.1f} ms (p95 "
          f"{quantile(totals_ms, 0.95):.1f}, CPU {median(totals_cpu):.1f}) · ratio {ratio:.2f}× (paired "
          f"{paired:.2f}×, CPU {median(hook_cpu) / median(totals_cpu) if timed else float('nan'):.2f}×)")
    print("targets:")
    print(f"  play p95 ≤ {P95_MS:.0f} ms: {p95:.1f} ms — {verdict(p95 <= P95_MS)}; ≤ {FLOOR_RATIO:.0f}× the floor: "
          f"{p95 / f95:.1f}× — {verdict(p95 <= FLOOR_RATIO * f95)}; 0 lost or doubled — "
          f"{verdict(f.lost == 0 and f.doubled == 0)}")
    print(f"  hand recording ≤ {RECORD_RATIO:.0f}× the totals entry: {ratio:.2f}× — "
          + (verdict(ratio <= RECORD_RATIO) if timed else "not measured (no hand finished: more --seconds)"))
    print(f"  public pages live/idle p95 ≤ {PAGE_RATIO}×: {page_ratio:.2f}× — {verdict(page_ratio <= PAGE_RATIO)}")
    unrecorded = db_hands["online"] != db_hands["room_hands"] or db_hands["with_log"] != db_hands["online"] \
        or db_hands["other"] > 0 or len(hooks) != db_hands["online"]
    if unrecorded:
        print("  hands: the rooms' finished hands, the online records and the hook's calls differ")
    return f.lost == 0 and f.doubled == 0 and not unrecorded


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--teams", type=int, default=64, help="a power of two, 4 to 256 (default 64: 32 tables)")
    ap.add_argument("--seconds", type=float, default=240.0, help="measured play once every table is live (240)")
    ap.add_argument("--idle-seconds", type=float, default=15.0, help="pages polled before any table is live (15)")
    ap.add_argument("--think-ms", type=float, default=THINK_MS, help=f"mean thinking a move (default {THINK_MS:.0f})")
    ap.add_argument("--floor-seconds", type=float, default=15.0, help="the echo floor's time (default 15)")
    ap.add_argument("--floor-bytes", type=int, default=1700, help="the echo frame's size (default 1700: a state)")
    ap.add_argument("--poll-ms", type=float, default=250.0, help="one page request every … ms (default 250)")
    ap.add_argument("--hand-limit", type=int, default=3, help="the event's hand_limit (default 3)")
    ap.add_argument("--configs", choices=("one", "two"), default="one", help="one process, or two on Redis")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/7", help="the channel layer of config two (db 7)")
    ap.add_argument("--sqlite", action="store_true", help="a throwaway SQLite file (config one only)")
    ap.add_argument("--db", default=f"bench_otour_{os.getpid()}", help="PostgreSQL scratch database")
    ap.add_argument("--keep", action="store_true", help="keep the scratch database")
    ap.add_argument("--deadline", type=float, default=1200.0, help="overall time limit in seconds (1200)")
    args = ap.parse_args(argv)
    if args.teams not in (4, 8, 16, 32, 64, 128, 256) or not 0 < args.seconds <= 1800 \
            or not 0 <= args.think_ms <= 60_000 or not 20 <= args.poll_ms <= 60_000 or args.idle_seconds < 1:
        ap.error("teams a power of two 4–256; 0–1800 s; 0–60000 ms thinking; poll 20–60000 ms; idle ≥ 1 s")
    if args.sqlite and args.configs == "two":
        ap.error("--sqlite only with --configs one")
    began = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="bench-otour-")
    db = "" if args.sqlite else args.db
    database_url = f"sqlite:///{tmp}/bench.sqlite3" if args.sqlite else f"{PG}/{db}"
    os.environ.update({"SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "testserver,127.0.0.1"})
    try:
        if db:
            recreate_database(db)
        setup_django(database_url)
        event = build(args.teams, args.hand_limit)
        print(f"{'SQLite' if args.sqlite else 'PostgreSQL ' + db}, config {args.configs}: {args.teams} teams online "
              f"(hand_limit {args.hand_limit}), {len(event.plans)} first-round tables; thinking {args.think_ms:.0f} "
              f"ms ±50 %; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs "
              f"(setup {time.monotonic() - began:.0f} s)", flush=True)
        figures, poller, hooks, notes = serve_and_play(args, event, database_url, db, tmp,
                                                       args.deadline - (time.monotonic() - began))
        figures.notes += notes
        db_hands = recorded(event)
        ok = report(args, event, figures, poller, hooks, db_hands)
    finally:  # servers are stopped where they were started, and at exit by bench/online.py
        from django.db import connections

        connections.close_all()
        if db and not args.keep:
            recreate_database(db, drop_only=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
