"""A real restart (docs/online.md, "Durable, exactly once"): the site on uvicorn in its own process on a
file SQLite database, killed with SIGKILL mid-hand and started again on the same database.

* Four WebSocket clients (the ``websockets`` library, as a phone's socket would) play part of a tractor
  hand through the protocol (moves from the engine as a test oracle on the stored log); the server is
  killed; a new process on the same database; each client says ``hello`` again with its seat token and
  gets exactly the state it had (version, its cards, the trick, its actions); the hand goes on to its end,
  every action stored once, and the stored log replays (``notation.replay``) to the result the seats see.
* A table of four bots, killed mid-hand, plays on when the server starts again with no client at all (the
  lifespan startup re-arms the stored deadline: ``online/lifespan.py``).

The server's channel layer is the one the environment names (``CHANNEL_REDIS_URL``: CI's Redis run).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from gameplay.cards import CODE_NAMES
from gameplay.events import Deal, Play, Redeal, Shuffle
from gameplay.notation import replay
from online.tables import hand_from_log
from tests.online.helpers import oracle_move

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests/online_pages/asgi_server.py"
_ids = itertools.count()

# A room made in a process of its own on the server's database; ticks are not run there (scheduling is a
# no-op): the server's startup arms the stored deadline (the bot table's first deal).
SETUP = r"""
import json, sys
import django
django.setup()
from online import scheduling, services
scheduling.schedule = lambda *a, **k: None
bots = sys.argv[1] == "bots"
if bots:
    made = services.room_create(variant="tractor")
    version = made.room.version
    for seat in range(4):
        version = services.seat_bot(code=made.room.code, host_token=made.host_token, seat=seat, bot="random",
                                    action_id=f"bot{seat}", version=version).version
    print(json.dumps({"code": made.room.code, "tokens": []}))
else:
    made = services.room_create(variant="tractor", name="Ann", seat=0)
    tokens = [made.seat_token] + [services.room_join(code=made.room.code, name=n, seat=s).token
                                  for s, n in ((1, "Bo"), (2, "Cy"), (3, "Di"))]
    print(json.dumps({"code": made.room.code, "tokens": tokens}))
"""


class Server:
    """uvicorn serving ``config.asgi:application`` on a migrated file SQLite database; started, killed
    (SIGKILL) and started again on the same database."""

    def __init__(self, folder: Path, *, bot_delay_ms: int, deal_interval_ms: int) -> None:
        self.db = folder / "restart.sqlite3"
        self.logfile = folder / "restart.log"
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.db}",
                    "DJANGO_SETTINGS_MODULE": "config.settings.test", "CELERY_BROKER_URL": "",
                    "ONLINE_BOT_DELAY_MS": str(bot_delay_ms), "ONLINE_DEAL_INTERVAL_MS": str(deal_interval_ms),
                    "CHANNEL_REDIS_URL": os.environ.get("CHANNEL_REDIS_URL", "")}
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True,
                       timeout=120)
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""

    def setup(self, kind: str) -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-c", SETUP, kind], cwd=ROOT, env=self.env, check=True,
                             timeout=60, capture_output=True, text=True).stdout
        return dict(json.loads(out.strip().splitlines()[-1]))

    def start(self) -> None:
        with socket_port() as port:
            pass
        log = open(self.logfile, "a")  # the child holds it
        self.proc = subprocess.Popen([sys.executable, str(SERVER), str(port)], cwd=ROOT, env=self.env,
                                     stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.base = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{self.base}/healthz", timeout=1)
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the ASGI server did not start: " + self.logfile.read_text())

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        assert self.proc.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a graceful shutdown still waiting on sockets: the test is over
                self.proc.kill()
                self.proc.wait(timeout=10)

    def url(self, code: str) -> str:
        return f"ws://{self.base}/ws/play/{code}/"

    # ------------------------------------------------------------ the stored room, read from the file

    def row(self, code: str, number: int = 0) -> tuple[int, str, dict[str, Any] | None, bool]:
        """(room version, room status, the stored log of hand ``number`` — 0: the latest —, whether that hand
        is finished)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10) as con:
            version, status, pk = con.execute("SELECT version, status, id FROM online_room WHERE code = ?",
                                              (code,)).fetchone()
            hand = con.execute("SELECT log, finished FROM online_roomhand WHERE room_id = ? AND (? = 0 OR number = ?)"
                               " ORDER BY number DESC LIMIT 1", (pk, number, number)).fetchone()
        return version, status, (json.loads(hand[0]) if hand else None), bool(hand[1]) if hand else False

    def auto_seats(self, code: str) -> int:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10) as con:
            return int(con.execute("SELECT COUNT(*) FROM online_seat s JOIN online_room r ON r.id = s.room_id "
                                   "WHERE r.code = ? AND s.auto", (code,)).fetchone()[0])


class socket_port:
    """A free loopback port (bound, then released for the server)."""

    def __enter__(self) -> int:
        import socket

        self.s = socket.socket()
        self.s.bind(("127.0.0.1", 0))
        return int(self.s.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.s.close()


class Seat:
    """One player's socket: a reader task keeps the latest state."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat, self.token = seat, token
        self.state: dict[str, Any] | None = None
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.errors: list[dict[str, Any]] = []

    async def connect(self, url: str) -> dict[str, Any]:
        self.state = None
        self.ws = await websockets.connect(url, open_timeout=10, origin=Origin(url.replace("ws://", "http://").split("/ws/")[0]))
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        first = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        assert first["type"] == "state", first
        self.state = first
        self.reader = asyncio.create_task(self.read())
        return first

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                f = json.loads(raw)
                if f["type"] == "state":
                    self.state = f
                elif f["type"] == "error":
                    self.errors.append(f)
        except websockets.ConnectionClosed:
            pass

    async def send(self, kind: str, **fields: Any) -> None:
        assert self.state is not None
        await self.ws.send(json.dumps({"type": kind, "id": f"r{next(_ids)}", "version": self.state["version"],
                                       **fields}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


async def until(cond: Any, timeout: float = 15, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what or cond}")


async def settled(server: Server, code: str, seats: list[Seat]) -> tuple[int, dict[str, Any] | None, bool]:
    """Wait until every seat has seen the stored version; (version, stored log, finished)."""
    def check() -> tuple[int, dict[str, Any] | None, bool] | None:
        version, _status, log, finished = server.row(code)
        if all(s.state is not None and s.state["version"] == version for s in seats):
            return version, log, finished
        return None
    return await until(check, what="every seat at the stored version")  # type: ignore[no-any-return]


async def step(server: Server, code: str, seats: list[Seat], rng: random.Random, sent: list[str]) -> bool:
    """One move of the seat to act (the engine's oracle on the stored log; ``sent`` records it), or wait out
    a deal round. Returns False once the hand is over."""
    version, log, finished = await settled(server, code, seats)
    if finished:
        return False
    assert log is not None
    hand = hand_from_log(log)
    kind, _seat = hand.to_act()
    if kind == "deal":
        await until(lambda: server.row(code)[0] > version, what="the next deal round")
        return True
    seat, action, fields = oracle_move(hand, rng)
    await seats[seat].send(action, **fields)
    sent.append(action)
    await until(lambda: server.row(code)[0] > version or seats[seat].errors, what=f"seat {seat}'s {action}")
    assert not seats[seat].errors, seats[seat].errors
    return True


def cards_of(hand: Any, seat: int) -> list[str]:
    return sorted(CODE_NAMES[c] for c in range(len(hand.hands[seat])) for _ in range(hand.hands[seat][c]))


@pytest.fixture
def server(tmp_path: Path) -> Any:
    srv = Server(tmp_path, bot_delay_ms=20, deal_interval_ms=2)
    yield srv
    srv.stop()


def test_killed_mid_hand_four_players_lose_nothing(server: Server) -> None:
    asyncio.run(_four_players(server))


async def _four_players(server: Server) -> None:
    made = server.setup("people")
    code = made["code"]
    server.start()
    seats = [Seat(i, t) for i, t in enumerate(made["tokens"])]
    for s in seats:
        await s.connect(server.url(code))
    for s in seats:
        await s.send("ready")
    await until(lambda: server.row(code)[2] is not None, what="the deal")
    rng = random.Random(3)
    sent: list[str] = []
    while True:  # into the play phase: two tricks and a card or two on the table
        version, log, _ = await settled(server, code, seats)
        assert log is not None
        hand = hand_from_log(log)
        if hand.phase == "play" and len(hand.tricks) >= 2 and 1 <= len(hand.observation(0).trick) <= 3:
            break
        assert await step(server, code, seats, rng, sent)
    before = {s.seat: s.state for s in seats}
    stored_before = hand_from_log(log)

    server.kill()  # SIGKILL: nothing closes, nothing flushes
    for s in seats:
        await asyncio.wait_for(s.reader, 10)  # type: ignore[arg-type]  # every socket sees its end
    assert server.row(code)[0] == version  # every accepted action was stored before anyone was told

    server.start()  # a new process on the same database
    for s in seats:
        again = await s.connect(server.url(code))
        was = before[s.seat]
        assert was is not None
        assert again["version"] == was["version"] == version
        assert again["hand"] == was["hand"]  # its cards, the trick, points, who acts: the same view
        assert again["you"] == was["you"]
        assert again["clock"] == was["clock"]
        assert sorted(again["hand"]["cards"]) == cards_of(stored_before, s.seat)  # the stored log's view
    plays = again["hand"]["trick"]["plays"]
    assert [(p["seat"], Counter(p["cards"])) for p in plays] == [
        (seat, Counter(CODE_NAMES[c] for c in cards)) for seat, cards in stored_before.observation(0).trick]
    public = stored_before.observation(0)  # the rest of what the seats see, as the stored log has it
    kind, turn = stored_before.to_act()
    assert again["hand"]["to_act"] == {"kind": kind, "seat": turn}
    assert again["hand"]["points"] == list(public.points) and again["hand"]["counts"] == list(public.cards_left)
    assert again["hand"]["phase"] == stored_before.phase and again["hand"]["trump"] == stored_before.trump
    await settled(server, code, seats)
    assert server.row(code)[0] == version  # nobody's turn was taken by a bot while the players came back

    while await step(server, code, seats, rng, sent):
        pass
    version, log, finished = await settled(server, code, seats)
    assert finished and log is not None
    done = replay(log)  # the stored log replays to the end
    actions = [e for e in done.log if e.is_action and not isinstance(e, Deal)]
    assert len(actions) == len(sent) and server.auto_seats(code) == 0  # each action the players sent, once
    assert sum(isinstance(e, Play) for e in actions) == sent.count("play")
    start = max(i for i, e in enumerate(done.log) if isinstance(e, (Shuffle, Redeal)))
    dealt = [Counter(CODE_NAMES[c] for e in done.log[start:] if isinstance(e, Deal) and e.seat == seat
                     for c in e.cards) for seat in range(4)]
    for s in seats:
        assert s.state is not None and s.state["hand"]["phase"] == "scored"
        result = s.state["hand"]["result"]
        assert result["outcome"] == json.loads(json.dumps(done.outcome))  # what every seat sees: the replay's
        assert [Counter(h) for h in result["hands"]] == dealt
    for s in seats:
        await s.close()


def test_a_bot_table_killed_mid_hand_plays_on_with_no_client(tmp_path: Path) -> None:
    server = Server(tmp_path, bot_delay_ms=15, deal_interval_ms=2)
    try:
        code = server.setup("bots")["code"]
        assert server.row(code)[0] > 0 and server.row(code)[2] is not None  # dealt, nothing played yet
        server.start()  # the startup arms the stored deadline: the table plays with nobody connected

        def mid_hand() -> bool:
            log = server.row(code)[2]
            return log is not None and sum(e["kind"] == "play" for e in log["events"]) >= 12
        asyncio.run(until(mid_hand, timeout=40, what="a dozen plays"))
        server.kill()
        version, status, log, finished = server.row(code)
        assert status == "playing" and log is not None and not finished
        stored = hand_from_log(log)  # the stored log replays as far as it went
        assert not stored.finished and stored.phase == "play"
        time.sleep(0.3)  # the dead server does nothing: the stored room stays where it was
        assert server.row(code)[0] == version

        server.start()  # no client: the lifespan startup re-arms the stored deadline

        def hand_over() -> bool:
            return server.row(code, 1)[3]
        asyncio.run(until(hand_over, timeout=60, what="the hand played to its end"))
        after = server.row(code, 1)[2]
        assert after is not None and replay(after).finished  # the whole stored log replays
        assert after["events"][: len(log["events"])] == log["events"]  # what was stored before the kill stays
    finally:
        server.stop()
