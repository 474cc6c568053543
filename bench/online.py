"""Online play under load: N rooms × 4 real WebSocket clients on loopback against uvicorn (docs/online.md).

    .venv/bin/python bench/online.py --tournament [--teams 64 ...]   # bench/online_tournament_sockets.py
    .venv/bin/python bench/online.py [--rooms 10,50,100,200] [--seconds 20] [--configs one,two]
                                     [--sqlite] [--db NAME] [--redis redis://127.0.0.1:6379/6]
                                     [--profile DIR] [--floor-seconds 5] [--keep] [--think-ms 1500]

Two configurations, each a row of figures per N:

* ``one``: one uvicorn process serving ``bench/online_asgi.py`` (the site's ``config.asgi:application``
  plus a bench-only echo route) on the in-memory channel layer;
* ``two``: two uvicorn processes on two ports with ``CHANNEL_REDIS_URL``; a room's four seats connect
  alternately to the two ports, so every state a play causes crosses processes through Redis.

The database is PostgreSQL (a scratch database ``bench_online_<pid>``, created, migrated and dropped;
``--db`` to name it, ``--keep`` keeps it) or, with ``--sqlite``, a throwaway SQLite file (configuration
``one`` only). The servers run with ``DEBUG=false``, ``ONLINE_BOT_DELAY_MS=0``, ``ONLINE_DEAL_INTERVAL_MS=0``
and no broker (ticks inline: the deal does not wait), fresh for each N (memory and caches start clean).

For each N the rooms are made through the services in this process (``room_create`` + three
``room_join``: four seat tokens), the servers started, the clients connect and ``hello``, then play whole
hands for ``--seconds`` (tractor): each seat acts on its own ``state`` messages only — ``ready``,
declare the first option offered in the declaring round (never during the deal), bury the first cards
of its hand, and play: a lead of its lowest single card, a follow chosen by the engine's
``first_legal_follow`` on its own cards and the trick on the table. Frames stay under the server's 20 a
second per socket. Each seat thinks before each action: ``--think-ms`` on average, uniformly ±50 % (default
1500 ms, a fast table: a tractor hand of about 110 actions in under three minutes; 0 acts at once, a closed
loop in which the latency only measures how many rooms share the CPU). All tables start together: the
warm-up (every table readied, dealt, declared and buried at once, a burst no real room sees together) lasts
until every table has reached its play phase (at most 180 s) and is printed apart; the measured window of
``--seconds`` follows, every action sent in it counted. After the window no new action is sent; in-flight
ones are waited for (10 s).

Printed per N: play latency (send → the new state received by all four seats) p50/p95/p99, accepted
actions per second, server CPU ms per action (``/proc/<pid>/stat``; also the PostgreSQL server's, all its
processes: measure on a quiet machine; Redis and this client process), server RSS per room (after play,
less before the clients connected, ÷ N), lost and doubled actions (each action id answered exactly once on the socket;
each seat's stored ``RoomAction`` ids and the plays in the stored logs equal to what the client sent and
was not refused), and the floor: the same fan-out through the echo route (N groups × 4 sockets, one frame
in flight per group, sent at the same thinking pace, frames of the mean state size) — its p95 and the ratio
p95 / floor p95.

Targets (reported, not asserted): 200 rooms with p95 ≤ 50 ms and ≤ 3× the floor, 0 lost or doubled, in
both configurations. Bounded: ``--seconds`` per step, a 180 s connect limit, a 10 s drain, ``--deadline``
(900 s) overall; every process started is stopped (``finally`` and ``atexit``). 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = "postgres://postgres@127.0.0.1:5432"
TICK = os.sysconf("SC_CLK_TCK")
RATE = 18
"""Frames a socket sends per 1.05 s at most (the server closes a socket sending more than 20 a second)."""
P95_MS, FLOOR_RATIO = 50.0, 3.0
WARMUP_CAP = 180.0
"""Seconds the tables may take to reach their first play phase before the measured window starts anyway."""
THINK_MS = 1500.0
"""A player's mean thinking time before an action: a fast table (a tractor hand of about 110 actions in under
three minutes; people take longer, bots at the table wait ONLINE_BOT_DELAY_MS = 700 ms)."""

_procs: list[subprocess.Popen[bytes]] = []


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    if proc in _procs:
        _procs.remove(proc)


@atexit.register
def _stop_all() -> None:
    for proc in list(_procs):
        stop(proc)


def server_env(database_url: str, redis: str, profile: str) -> dict[str, str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false",
           "DATABASE_URL": database_url, "CHANNEL_REDIS_URL": redis, "CELERY_BROKER_URL": "",
           "CELERY_RESULT_BACKEND": "", "CACHE_URL": "", "LOG_LEVEL": "ERROR", "CONN_MAX_AGE": "60",
           "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "ONLINE_BOT_DELAY_MS": "0", "ONLINE_DEAL_INTERVAL_MS": "0"}
    env.pop("BENCH_PROFILE", None)
    if profile:
        env["BENCH_PROFILE"] = profile
    return env


def start_server(port: int, env: dict[str, str], log: str, script: str = "online_asgi.py") -> subprocess.Popen[bytes]:
    """Start ``bench/<script>`` (an ASGI server taking its port) and wait until it listens; stopped at exit."""
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / script), str(port)], env=env,
                                cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    _procs.append(proc)
    limit = time.monotonic() + 40
    while time.monotonic() < limit:
        if proc.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited ({proc.returncode})")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return proc
        time.sleep(0.1)
    raise RuntimeError(f"the server on port {port} did not start")


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def pg_cpu(db: str) -> float:
    """CPU seconds of the whole PostgreSQL server so far: the postmaster's own and its reaped children's
    (backends that closed: a connection lives ``CONN_MAX_AGE``), plus every live child's. Whatever else the
    server does counts too: measure on a quiet machine."""
    backends = pg_backends(db)
    if not backends:
        return 0.0
    fields = _stat(backends[0])
    master = int(fields[1]) if fields else 0
    own = _stat(master)
    if not own:
        return 0.0
    total = sum(int(own[i]) for i in (11, 12, 13, 14))
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            child = _stat(int(entry.name))
            if child and int(child[1]) == master:
                total += int(child[11]) + int(child[12])
    return total / TICK


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def pg_backends(db: str) -> list[int]:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (db,)).fetchall()
    return [int(r[0]) for r in rows if Path(f"/proc/{r[0]}").exists()]


def redis_pid(url: str) -> int | None:
    import redis

    try:
        pid = int(redis.Redis.from_url(url).info("server")["process_id"])
    except Exception:
        return None
    return pid if Path(f"/proc/{pid}").exists() else None


def recreate_database(name: str, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


# ---------------------------------------------------------------- rooms (services, this process)


def setup_django(database_url: str) -> None:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "false",
                       "DATABASE_URL": database_url, "CHANNEL_REDIS_URL": "", "CELERY_BROKER_URL": "",
                       "LOG_LEVEL": "ERROR"})
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


@dataclass
class RoomPlan:
    code: str
    tokens: list[str]


def make_rooms(n: int, variant: str) -> list[RoomPlan]:
    from django.db import connection

    from online import services

    plans = []
    for i in range(n):
        created = services.room_create(variant=variant, name=f"bench {i} s0", seat=0)
        tokens = [""] * created.room.players
        assert created.seat is not None and created.seat_token is not None
        tokens[created.seat.seat] = created.seat_token
        for s in range(created.room.players):
            if not tokens[s]:
                joined = services.room_join(code=created.room.code, name=f"bench {i} s{s}", seat=s)
                tokens[joined.seat.seat] = joined.token
        plans.append(RoomPlan(created.room.code, tokens))
    connection.close()
    return plans


# ---------------------------------------------------------------- the clients


def quantile(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, round(p * (len(s) - 1)))]


@dataclass
class Pending:
    ident: str
    seat: int
    kind: str
    version: int
    sent: float
    cards: str = ""
    seen: dict[int, float] = field(default_factory=dict)
    measured: bool = False


@dataclass
class Outcome:
    """Per action id: how the socket answered it."""

    seat: int
    kind: str
    cards: str
    answers: int = 0
    accepted: bool = False
    error: str = ""


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.errors: Counter[str] = Counter()
        self.frames = 0
        self.state_bytes = 0
        self.states = 0
        self.closed: Counter[str] = Counter()
        self.doubled_answers = 0
        self.measuring = False
        """Latencies and accepted actions count only in the measured window (after the warm-up)."""
        self.actions = 0
        self.refusals: list[str] = []
        """The first few refusals' reasons (what was sent, what the engine said)."""


class Throttle:
    """Keeps one socket under RATE frames per 1.05 s."""

    def __init__(self) -> None:
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        while True:
            now = time.monotonic()
            while self.sent and now - self.sent[0] >= 1.05:
                self.sent.popleft()
            if len(self.sent) < RATE:
                self.sent.append(now)
                return
            await asyncio.sleep(1.05 - (now - self.sent[0]) + 0.001)


async def connect(port: int, path: str) -> Any:
    from websockets.asyncio.client import connect as ws_connect

    return await ws_connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                            open_timeout=30, max_size=2 ** 22, ping_interval=None)


def pause(think: float, rng: random.Random) -> float:
    """A player's thinking time before an action: ``think`` seconds on average (uniform ±50 %)."""
    return think * rng.uniform(0.5, 1.5) if think > 0 else 0.0


class Table:
    """One room: four seat clients acting on their own ``state`` messages."""

    def __init__(self, plan: RoomPlan, ports: list[int], stats: Stats, think: float = 0.0) -> None:
        self.plan = plan
        self.think = think
        self.rng = random.Random(plan.code)
        self.ports = ports
        self.stats = stats
        self.n = len(plan.tokens)
        self.ws: list[Any] = [None] * self.n
        self.state: list[dict[str, Any] | None] = [None] * self.n
        self.throttle = [Throttle() for _ in range(self.n)]
        self.outstanding: list[Pending | None] = [None] * self.n
        self.acted: list[int] = [-1] * self.n
        self.pending: list[Pending] = []
        self.outcomes: dict[str, Outcome] = {}
        self.accepted_plays: list[list[str]] = [[] for _ in range(self.n)]
        self.retry: list[int] = [0] * self.n
        self.counter = 0
        self.acting = False
        self.greeted: list[asyncio.Event] = [asyncio.Event() for _ in range(self.n)]
        self.ctx: dict[tuple[Any, Any], Any] = {}
        self.rules: Any = None
        self.tasks: list[asyncio.Task[None]] = []
        self.playing = False
        """A state of the play phase has reached a seat: the table is past its start (warm-up)."""

    async def open(self, seat: int) -> None:
        ws = await connect(self.ports[seat % len(self.ports)], f"/ws/play/{self.plan.code}/")
        self.ws[seat] = ws
        self.tasks.append(asyncio.create_task(self.reader(seat)))
        self.tasks.append(asyncio.create_task(self.pinger(seat)))
        await self.throttle[seat].wait()
        await ws.send(json.dumps({"type": "hello", "token": self.plan.tokens[seat]}))

    async def reader(self, seat: int) -> None:
        from websockets.exceptions import ConnectionClosed

        ws = self.ws[seat]
        try:
            async for raw in ws:
                t = time.perf_counter()
                self.stats.frames += 1
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "state":
                    if (frame.get("hand") or {}).get("phase") == "play":
                        self.stats.states += 1
                        self.stats.state_bytes += len(raw)
                    self.on_state(seat, frame, t)
                elif kind == "error":
                    self.on_error(seat, frame)
        except ConnectionClosed as e:
            if e.rcvd is None or e.rcvd.code not in (1000, 1001, 1012):
                self.stats.closed[str(e.rcvd.code if e.rcvd else "none")] += 1

    async def pinger(self, seat: int) -> None:
        """A ``ping`` every 25 s, as the page sends (a seat unseen for 75 s is taken back: bots would play it)."""
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(25 * self.rng.uniform(0.9, 1.0))
                await self.throttle[seat].wait()
                await self.ws[seat].send('{"type": "ping"}')

    def on_state(self, seat: int, frame: dict[str, Any], t: float) -> None:
        v = int(frame["version"])
        prev = self.state[seat]
        if prev is not None and int(prev["version"]) > v:
            return
        self.state[seat] = frame
        self.greeted[seat].set()
        for p in list(self.pending):
            if v > p.version and seat not in p.seen:
                p.seen[seat] = t
                if len(p.seen) == self.n:
                    self.pending.remove(p)
                    if p.measured:
                        self.stats.latency.setdefault(p.kind, []).append((max(p.seen.values()) - p.sent) * 1000)
        if not self.playing and (frame.get("hand") or {}).get("phase") == "play":
            self.playing = True
        mine = self.outstanding[seat]
        if mine is not None and v > mine.version:
            self.answer(mine, accepted=True)
        if self.acting and self.outstanding[seat] is None and v > self.acted[seat]:
            self.decide(seat, frame)

    def answer(self, p: Pending, *, accepted: bool, error: str = "") -> None:
        out = self.outcomes[p.ident]
        out.answers += 1
        if out.answers > 1:
            self.stats.doubled_answers += 1
            return
        out.accepted, out.error = accepted, error
        if accepted and p.measured:
            self.stats.actions += 1
        if accepted and p.kind == "play":
            self.accepted_plays[p.seat].append(p.cards)
            self.retry[p.seat] = 0
        if self.outstanding[p.seat] is p:
            self.outstanding[p.seat] = None

    def on_error(self, seat: int, frame: dict[str, Any]) -> None:
        code = str(frame.get("code"))
        ident = frame.get("id")
        p = self.outstanding[seat]
        self.stats.errors[code] += 1
        if code == "refused" and len(self.stats.refusals) < 5:
            message = frame.get("message") or {}
            sent = f"{p.kind} {p.cards}" if p is not None else "?"
            self.stats.refusals.append(f"seat {seat} {sent!r} at version {p.version if p else '?'}: "
                                       f"{message.get('en') if isinstance(message, dict) else message}")
        if ident is None or ident not in self.outcomes:
            return
        if p is None or p.ident != ident:
            out = self.outcomes[ident]
            if out.accepted and out.answers == 1 and not out.error and out.kind != "play":
                # a concurrent action (ready) taken for accepted on another seat's newer state: its real answer
                out.accepted, out.error = False, code
                return
            out.answers += 1
            self.stats.doubled_answers += 1
            return
        if p in self.pending:
            self.pending.remove(p)
        self.answer(p, accepted=False, error=code)
        state = self.state[seat]
        if code == "refused" and p.kind == "play" and state is not None:
            self.retry[seat] += 1
            self.acted[seat] = -1
            self.decide(seat, state)  # another card (bounded: retry < cards held)
        # "stale": a fresh state follows, and the seat acts on it

    # ------------------------------------------------------------ choices (what the seat's state shows)

    def context(self, state: dict[str, Any]) -> Any:
        from gameplay.config import HandConfig
        from gameplay.order import Context

        hand = state["hand"]
        key = (hand["level"], hand["trump"])
        if key not in self.ctx:
            if self.rules is None:
                room = state["room"]
                self.rules = HandConfig(room["variant"], room["options"], decks=room["decks"],
                                        players=room["players"]).engine_rules()
            self.ctx[key] = Context(self.rules, hand["level"], hand["trump"])
        return self.ctx[key]

    def choose_play(self, seat: int, state: dict[str, Any]) -> str | None:
        from gameplay.cards import format_cards, parse_cards, to_counts
        from gameplay.combos import classify
        from gameplay.legality import first_legal_follow, legal_follows

        hand = state["hand"]
        mine = parse_cards(hand["cards"])
        plays = (hand.get("trick") or {}).get("plays") or []
        k = self.retry[seat]
        if not plays:
            return format_cards([mine[k]]) if k < len(mine) else None
        ctx = self.context(state)
        lead = classify(ctx, parse_cards(plays[0]["cards"]))
        prior = [parse_cards(p["cards"]) for p in plays]
        if k == 0:
            choice = first_legal_follow(ctx, to_counts(mine), lead, prior=prior)
        else:
            choice = next((f for i, f in enumerate(legal_follows(ctx, to_counts(mine), lead, prior=prior)) if i == k),
                          None)
        return None if choice is None else format_cards(choice)

    def decide(self, seat: int, state: dict[str, Any]) -> None:
        actions = {a["type"]: a for a in state["you"]["actions"]}
        hand = state.get("hand") or {}
        to_act = hand.get("to_act") or {}
        fields: dict[str, Any] = {}
        if "ready" in actions:
            kind = "ready"
        elif "rematch" in actions:
            kind = "rematch"
        elif to_act.get("kind") == "deal" or to_act.get("seat") != seat:
            return
        elif "play" in actions:
            if self.retry[seat] > 30:
                return
            cards = self.choose_play(seat, state)
            if cards is None:
                return
            kind, fields = "play", {"cards": cards}
        elif "bury" in actions:
            kind, fields = "bury", {"cards": " ".join(hand["cards"][: int(actions["bury"].get("count", 8))])}
        elif "declare" in actions and actions["declare"]["options"]:
            kind, fields = "declare", {"cards": " ".join(actions["declare"]["options"][0])}
        elif "name_trump" in actions:
            kind, fields = "name_trump", {"suit": actions["name_trump"]["options"][0]}
        elif "bid" in actions and "pass" not in actions:
            kind, fields = "bid", {"amount": actions["bid"]["options"][0]}
        elif "pass" in actions:
            kind = "pass"
        else:
            return
        self.acted[seat] = int(state["version"])
        self.counter += 1
        p = Pending(f"s{seat}-{self.counter}", seat, kind, int(state["version"]), 0.0, fields.get("cards", ""))
        self.outstanding[seat] = p
        self.outcomes[p.ident] = Outcome(seat, kind, p.cards)
        asyncio.get_running_loop().create_task(self.send(p, fields))

    async def send(self, p: Pending, fields: dict[str, Any]) -> None:
        if self.think:
            await asyncio.sleep(pause(self.think, self.rng))
        await self.throttle[p.seat].wait()
        state = self.state[p.seat]
        if state is None or int(state["version"]) != p.version or not self.acting:
            # the table moved on while this socket waited for its frame budget: never sent
            del self.outcomes[p.ident]
            if self.outstanding[p.seat] is p:
                self.outstanding[p.seat] = None
                self.acted[p.seat] = -1
                if state is not None and self.acting:
                    self.decide(p.seat, state)
            return
        p.sent = time.perf_counter()
        p.measured = self.stats.measuring
        self.pending.append(p)
        await self.ws[p.seat].send(json.dumps({"type": p.kind, "id": p.ident, "version": p.version, **fields}))

    def start(self) -> None:
        self.acting = True
        for seat in range(self.n):
            state = self.state[seat]
            if state is not None:
                self.decide(seat, state)

    def unanswered(self) -> int:
        return sum(1 for p in self.outstanding if p is not None)

    async def close(self) -> None:
        for ws in self.ws:
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close()
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class EchoGroup:
    """The floor: four echo sockets of one group, one frame in flight, the sender rotating like turns."""

    def __init__(self, name: str, ports: list[int], size: int, stats: list[float], think: float = 0.0) -> None:
        self.name, self.ports, self.size, self.stats = name, ports, size, stats
        self.think, self.rng = think, random.Random(name)
        self.ws: list[Any] = []
        self.throttle = [Throttle() for _ in range(4)]
        self.seen: dict[int, float] = {}
        self.done = asyncio.Event()

    async def open(self) -> None:
        self.ws = [await connect(self.ports[s % len(self.ports)], f"/ws/bench-echo/{self.name}/") for s in range(4)]

    async def reader(self, seat: int, ident: list[int]) -> None:
        async for raw in self.ws[seat]:
            t = time.perf_counter()
            frame = json.loads(raw)
            if frame.get("id") == ident[0]:
                self.seen[seat] = t
                if len(self.seen) == 4:
                    self.done.set()

    async def run(self, until: float) -> None:
        ident = [0]
        readers = [asyncio.create_task(self.reader(s, ident)) for s in range(4)]
        try:
            turn = 0
            while time.monotonic() < until:
                seat = turn % 4
                if self.think:
                    await asyncio.sleep(pause(self.think, self.rng))
                await self.throttle[seat].wait()
                ident[0] += 1
                self.seen.clear()
                self.done.clear()
                sent = time.perf_counter()
                await self.ws[seat].send(json.dumps({"id": ident[0], "size": self.size}))
                try:
                    await asyncio.wait_for(self.done.wait(), 10)
                except TimeoutError:
                    break
                self.stats.append((max(self.seen.values()) - sent) * 1000)
                turn += 1
        finally:
            for ws in self.ws:
                with contextlib.suppress(Exception):
                    await ws.close()
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)


async def loop_lag(lags: list[float], every: float = 0.01) -> None:
    """How late this client's event loop wakes a 10 ms sleep (ms): the part of a measured latency that is the
    client's own queue, not the server's."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(every)
        lags.append((time.perf_counter() - t - every) * 1000)


async def gather_bounded(coros: list[Any], limit: int = 64) -> None:
    sem = asyncio.Semaphore(limit)

    async def one(c: Any) -> None:
        async with sem:
            await c

    await asyncio.gather(*(one(c) for c in coros))


# ---------------------------------------------------------------- one step: N rooms on fresh servers


@dataclass
class StepResult:
    config: str
    rooms: int
    play: list[float]
    actions: int
    plays: int
    seconds: float
    cpu_server: float
    cpu_db: float
    cpu_redis: float
    cpu_client: float
    rss_before: int
    rss_connected: int
    rss_after: int
    lost: int
    doubled: int
    errors: dict[str, int]
    closed: dict[str, int]
    floor: list[float]
    state_bytes: float
    hands: int
    notes: list[str]
    warmup: float = 0.0
    warm_tables: int = 0


async def echo_floor(ports: list[int], groups: int, seconds: float, size: int, think: float) -> list[float]:
    """The floor's latencies (ms): ``groups`` echo groups of four sockets, a ``size``-byte frame fanned out to
    the four through the same stack and channel layer, the senders thinking ``think`` s, for ``seconds``;
    the processes first warmed up (imports, the database connection, the channel layer)."""
    warm = EchoGroup("warm", ports, 200, [])
    await warm.open()
    await warm.run(time.monotonic() + 0.5)
    floor: list[float] = []
    echo = [EchoGroup(f"g{i}", ports, size, floor, think) for i in range(groups)]
    await asyncio.wait_for(gather_bounded([g.open() for g in echo]), 120)
    until = time.monotonic() + seconds
    await asyncio.gather(*(g.run(until) for g in echo))
    return floor


async def drive(tables: list[Table], ports: list[int], pids: list[int], db: str, redis: str, seconds: float,
                floor_seconds: float, floor_bytes: int, stats: Stats, think: float = 0.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # the floor first, on the idle server (later the server may still work through the game's backlog)
    out["floor"] = await echo_floor(ports, len(tables), floor_seconds, floor_bytes, think)
    await asyncio.sleep(0.5)
    out["rss_before"] = sum(rss_kib(p) for p in pids)
    limit = time.monotonic() + 180
    await asyncio.wait_for(gather_bounded([t.open(s) for t in tables for s in range(t.n)]), 180)
    for t in tables:
        for e in t.greeted:
            await asyncio.wait_for(e.wait(), max(1.0, limit - time.monotonic()))
    out["rss_connected"] = sum(rss_kib(p) for p in pids)
    # the warm-up: every table readies, is dealt, declares and buries at once (a burst no real room sees
    # together); measured from the moment every table is in its play phase
    begun = time.perf_counter()
    for t in tables:
        t.start()
    cap = time.monotonic() + WARMUP_CAP
    while time.monotonic() < cap and not all(t.playing for t in tables):
        await asyncio.sleep(0.05)
    out["warmup"] = time.perf_counter() - begun
    out["warm_tables"] = sum(1 for t in tables if t.playing)
    rpid = redis_pid(redis) if redis else None
    c0 = [cpu_seconds(p) for p in pids]
    db0 = pg_cpu(db) if db else 0.0
    r0 = cpu_seconds(rpid) if rpid else 0.0
    k0 = own_cpu()
    started = time.perf_counter()
    stats.measuring = True
    lags: list[float] = []
    watch = asyncio.create_task(loop_lag(lags))
    await asyncio.sleep(seconds)
    stats.measuring = False
    watch.cancel()
    out["client_lag"] = lags
    for t in tables:
        t.acting = False
    elapsed = time.perf_counter() - started
    out["seconds"] = elapsed
    out["cpu_server"] = sum(cpu_seconds(p) for p in pids) - sum(c0)
    out["cpu_db"] = (pg_cpu(db) - db0) if db else 0.0
    out["cpu_redis"] = (cpu_seconds(rpid) - r0) if rpid else 0.0
    out["cpu_client"] = own_cpu() - k0
    drain = time.monotonic() + 10
    while time.monotonic() < drain and any(t.unanswered() for t in tables):
        await asyncio.sleep(0.05)
    out["rss_after"] = sum(rss_kib(p) for p in pids)
    out["state_bytes"] = int(stats.state_bytes / max(1, stats.states))
    # checked while the seats are still connected: a table whose players all left is played on by bots
    # (托管, at once with ONLINE_BOT_DELAY_MS=0), which would add plays nobody sent
    out["verify"] = await asyncio.to_thread(verify, tables)
    await asyncio.gather(*(t.close() for t in tables))
    return out


def verify(tables: list[Table]) -> tuple[int, int, int, list[str]]:
    """(lost, doubled, hands, notes) from the answers on the sockets and the database's stored actions and logs."""
    from django.db import connection

    from gameplay.cards import parse_cards
    from online.models import RoomAction, RoomHand

    lost = doubled = hands = late = 0
    notes: list[str] = []
    for t in tables:
        stored = Counter(RoomAction.objects.filter(room__code=t.plan.code).values_list("seat", "action_id"))
        for ident, out in t.outcomes.items():
            n = stored.pop((out.seat, ident), 0)
            if out.answers == 0 and n == 0:
                lost += 1
                notes.append(f"{t.plan.code} {ident} {out.kind}: never answered, not stored")
            elif out.answers == 0:
                late += 1  # stored; its new state had not reached the sender when the drain ended
            elif out.answers > 1 or n > 1 or (n == 1 and not out.accepted):
                doubled += 1
                notes.append(f"{t.plan.code} {ident} {out.kind}: answers {out.answers}, stored {n}, {out.error}")
            elif out.accepted and n == 0:
                lost += 1
                notes.append(f"{t.plan.code} {ident} {out.kind}: answered by a new state but not stored")
        if stored:
            doubled += sum(stored.values())
            notes.append(f"{t.plan.code}: stored ids nobody sent {list(stored)[:3]}")
        logged: list[list[tuple[int, ...]]] = [[] for _ in range(t.n)]
        for rh in RoomHand.objects.filter(room__code=t.plan.code).order_by("number"):
            hands += 1 if rh.finished else 0
            for e in rh.log["events"]:
                if e.get("kind") == "play":
                    logged[int(e["seat"])].append(tuple(sorted(parse_cards(e["cards"]))))
        for s in range(t.n):
            sent = [tuple(sorted(parse_cards(c))) for c in t.accepted_plays[s]]
            if sent != logged[s]:
                extra = max(0, len(logged[s]) - len(sent))
                missing = max(0, len(sent) - len(logged[s]))
                doubled += extra
                lost += missing or (0 if extra else 1)
                notes.append(f"{t.plan.code} seat {s}: {len(sent)} plays accepted, {len(logged[s])} in the logs")
    connection.close()
    if late:
        notes.append(f"{late} actions stored whose new state had not reached the sender after the 10 s drain "
                     "(late, not lost)")
    return lost, doubled, hands, notes


def step(config: str, n: int, args: argparse.Namespace, database_url: str, db: str, profile_dir: str,
         tmp: str) -> StepResult:
    plans = make_rooms(n, args.variant)
    redis = args.redis if config == "two" else ""
    ports = [free_port() for _ in range(2 if config == "two" else 1)]
    logs = [str(Path(tmp) / f"server-{config}-{n}-{i}.log") for i in range(len(ports))]
    procs = []
    try:
        for i, port in enumerate(ports):
            prof = str(Path(profile_dir) / f"{config}-{n}-p{i}.txt") if profile_dir else ""
            procs.append(start_server(port, server_env(database_url, redis, prof), logs[i]))
        stats = Stats()

        async def main() -> tuple[list[Table], dict[str, Any]]:
            think = args.think_ms / 1000
            tables = [Table(p, ports, stats, think) for p in plans]
            return tables, await drive(tables, ports, [p.pid for p in procs], db, redis, args.seconds,
                                       args.floor_seconds, args.floor_bytes, stats, think)

        _tables, out = asyncio.run(main())
    finally:
        for proc in procs:
            stop(proc)
    lost, doubled, hands, notes = out["verify"]
    lag = out.get("client_lag") or []
    if lag:
        notes.append(f"client loop lag p50 {quantile(lag, 0.5):.1f} p95 {quantile(lag, 0.95):.1f} "
                     f"p99 {quantile(lag, 0.99):.1f} ms (a 10 ms sleep woken late)")
    notes += [f"refused: {r}" for r in stats.refusals]
    for log in logs:
        text = Path(log).read_text(errors="replace") if Path(log).exists() else ""
        if "Traceback" in text:
            last = [ln for ln in text.splitlines() if ln.strip()][-1]
            notes.append(f"{text.count('Traceback')} tracebacks in a server's log, the last ending: {last[:160]}")
    plays = stats.latency.get("play", [])
    actions = stats.actions
    return StepResult(config, n, plays, actions, len(plays), out["seconds"], out["cpu_server"], out["cpu_db"],
                      out["cpu_redis"], out["cpu_client"], out["rss_before"], out["rss_connected"], out["rss_after"],
                      lost, doubled + stats.doubled_answers, dict(stats.errors), dict(stats.closed), out["floor"],
                      out["state_bytes"], hands, notes, out["warmup"], out["warm_tables"])


def line(r: StepResult) -> str:
    per = max(1, r.actions)
    p95, f95 = quantile(r.play, 0.95), quantile(r.floor, 0.95)
    return (f"{r.config:<4} {r.rooms:4d} rooms  play p50 {quantile(r.play, .5):6.1f}  p95 {p95:6.1f}  "
            f"p99 {quantile(r.play, .99):6.1f} ms  n={len(r.play):6d}  {r.actions / r.seconds:6.1f} actions/s  "
            f"CPU ms/action: server {r.cpu_server * 1000 / per:5.2f} db {r.cpu_db * 1000 / per:5.2f} "
            f"redis {r.cpu_redis * 1000 / per:5.2f} client {r.cpu_client * 1000 / per:5.2f}  "
            f"RSS/room {(r.rss_after - r.rss_before) / r.rooms:6.0f} KiB (connected "
            f"{(r.rss_connected - r.rss_before) / r.rooms:5.0f})  lost {r.lost} doubled {r.doubled}  "
            f"floor p50 {quantile(r.floor, .5):5.1f} p95 {f95:5.1f} ms (states {r.state_bytes} B)  ratio {p95 / f95:5.1f}×  "
            f"hands {r.hands}  warm-up {r.warmup:5.1f} s ({r.warm_tables}/{r.rooms} tables playing)")


def main() -> int:
    if "--tournament" in sys.argv[1:]:  # issue 31's form: a tournament round over sockets (its own options)
        script = str(ROOT / "bench" / "online_tournament_sockets.py")  # it imports this module: run it, not import
        os.execv(sys.executable, [sys.executable, script, *(a for a in sys.argv[1:] if a != "--tournament")])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", default="10,50,100,200", help="comma-separated numbers of rooms (default 10,50,100,200)")
    ap.add_argument("--seconds", type=float, default=20.0, help="play time per step (cap), default 20")
    ap.add_argument("--floor-seconds", type=float, default=5.0, help="echo time per step, default 5")
    ap.add_argument("--floor-bytes", type=int, default=1400,
                    help="echo frame size (default 1400; then the mean state size of the previous step)")
    ap.add_argument("--configs", default="one,two", help="one (1 process, in memory), two (2 processes, Redis)")
    ap.add_argument("--sqlite", action="store_true", help="a throwaway SQLite file instead of PostgreSQL (one only)")
    ap.add_argument("--db", default=f"bench_online_{os.getpid()}", help="PostgreSQL scratch database")
    ap.add_argument("--keep", action="store_true", help="keep the scratch database")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/6", help="the channel layer of configuration two")
    ap.add_argument("--variant", default="tractor")
    ap.add_argument("--think-ms", type=float, default=THINK_MS,
                    help=f"a player's mean thinking time before each action (default {THINK_MS:.0f}; 0: at once)")
    ap.add_argument("--profile", default="", help="folder: each server writes a sampling profile there")
    ap.add_argument("--deadline", type=float, default=900.0, help="overall time limit in seconds")
    args = ap.parse_args()
    rooms = [int(x) for x in args.rooms.split(",") if x.strip()]
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    if any(c not in ("one", "two") for c in configs) or (args.sqlite and "two" in configs):
        ap.error("--configs: one and/or two; --sqlite only with --configs one")
    if not all(0 < n <= 1000 for n in rooms) or not 0 < args.seconds <= 600 or not 0 <= args.think_ms <= 60_000:
        ap.error("1–1000 rooms, 1–600 seconds, 0–60000 ms of thinking")
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="bench-online-")
    db = "" if args.sqlite else args.db
    database_url = f"sqlite:///{tmp}/bench.sqlite3" if args.sqlite else f"{PG}/{db}"
    results: list[StepResult] = []
    try:
        if db:
            recreate_database(db)
        setup_django(database_url)
        print(f"database: {'SQLite ' + tmp if args.sqlite else 'PostgreSQL ' + db}; thinking {args.think_ms:.0f} ms "
              f"a move (±50 %); load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs", flush=True)
        for config in configs:
            for n in rooms:
                if time.monotonic() - began > args.deadline:
                    print(f"deadline reached: {config} {n} rooms skipped", flush=True)
                    continue
                r = step(config, n, args, database_url, db, args.profile, tmp)
                results.append(r)
                if r.state_bytes > 0:
                    args.floor_bytes = r.state_bytes
                print(line(r), flush=True)
                for note in r.notes[:10]:
                    print("    " + note)
                if r.errors or r.closed:
                    print(f"    errors {r.errors} closed {r.closed}")
    finally:
        _stop_all()
        from django.db import connections

        connections.close_all()
        if db and not args.keep:
            recreate_database(db, drop_only=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("targets (200 rooms: p95 ≤ 50 ms and ≤ 3× the floor, 0 lost or doubled):")
    for config in configs:
        r2 = next((r for r in results if r.config == config and r.rooms == 200), None)
        if r2 is None:
            print(f"  {config}: not measured at 200 rooms")
            continue
        p95, f95 = quantile(r2.play, 0.95), quantile(r2.floor, 0.95)
        ok = p95 <= P95_MS and p95 <= FLOOR_RATIO * f95 and r2.lost == 0 and r2.doubled == 0
        print(f"  {config}: p95 {p95:.1f} ms, {p95 / f95:.1f}× the floor, lost {r2.lost}, doubled {r2.doubled}: "
              f"{'met' if ok else 'not met'}")
    bad = any(r.lost or r.doubled for r in results)
    return 1 if bad or not results else 0


if __name__ == "__main__":
    sys.exit(main())
