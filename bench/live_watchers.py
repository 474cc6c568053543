"""Live-page watchers: what N open live pages cost the server, and how fast one change reaches them all.

    .venv/bin/python bench/live_watchers.py [--watchers 500] [--sse 200] [--idle 5] [--redis URL]

It migrates a scratch SQLite file in a temporary directory, builds a running tournament there, and starts
the site's ASGI application (``config.asgi``) under uvicorn on a free loopback port (127.0.0.1 only, one
process; the in-memory channel layer, or channels-redis with ``--redis redis://127.0.0.1:6379/13``). Then:

1. WebSockets: ``--watchers`` sockets on ``ws/live/tournaments/<id>/`` (the standings, tables and bracket
   pages' push), each waiting for its first message; the server's threads, memory (RSS) and CPU time over
   ``--idle`` quiet seconds before and after; then one hand recorded through the REST API (the table's
   token), and the time from sending it until each watcher got the new stamp: p50 / p95 / max.
2. With ``--sse N`` (0: skip), the same with N Server-Sent Events streams of the match's live table
   (``/matches/<id>/live/stream/``, the fallback, which checks the table every 0.25 s per stream) and
   one more hand.

It prints the figures, stops the server and removes the directory; it exits 1 when the WebSocket p95 is
over 1 s or the server gained a thread a watcher. Bounded: a fixed number of sockets
and two writes, a 180 s overall limit; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEADLINE = 180.0
OUTCOME = {"attackers_points": 85, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
SEED = """
import json, sys
sys.path.insert(0, ".")
import django
django.setup()
from django.contrib.auth import get_user_model
from tournaments.models import Match
from tournaments.services import Actor
from tournaments.services.setup import entry_add, player_create, team_create, tournament_create
from tournaments.services.stages import tournament_start
owner = get_user_model().objects.create_user("bench_owner", password="bench-password")
actor = Actor(owner)
t = tournament_create(owner=owner, name="Bench Cup", variant="tractor", is_public=True)
for i in range(1, 5):
    p1 = player_create(name=f"A{i}", club="", actor=actor)
    p2 = player_create(name=f"B{i}", club="", actor=actor)
    entry_add(tournament=t, team=team_create(name=f"Team {i}", player1=p1, player2=p2, actor=actor), seed=i,
              actor=actor)
tournament_start(tournament=t, actor=actor, seeding="manual", third_place=False)
m = Match.objects.filter(stage__tournament=t, status="ready").order_by("table").first()
print(json.dumps({"t": t.pk, "match": m.pk, "token": m.scorer_token}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_figures(pid: int) -> dict[str, float]:
    """Threads, resident memory (MiB) and CPU seconds (user + system) of a process, from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return {"threads": float(fields["Threads"].strip()), "rss": int(fields["VmRSS"].split()[0]) / 1024,
            "cpu": (int(stat[11]) + int(stat[12])) / ticks}


def api(base: str, token: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json", "X-Table-Token": token})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return dict(json.loads(text)) if text else {}


def record_hand(base: str, ids: dict[str, Any]) -> float:
    """Record one hand through the REST API; the monotonic time it was sent."""
    match = ids["match"]
    now = api(base, ids["token"], f"/api/v1/matches/{match}/")
    body: dict[str, Any] = {"version": now["version"], "outcome": OUTCOME}
    if not now["hands_played"]:
        body["dealer"] = 0  # the first hand says who deals; the match knows it afterwards
    sent = time.monotonic()
    api(base, ids["token"], f"/api/v1/matches/{match}/hands/", body)
    return sent


def spread(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"p50 {statistics.median(ms):.0f} ms · p95 {p95:.0f} ms · max {ms[-1]:.0f} ms"


async def idle_cpu(pid: int, seconds: float) -> float:
    before = process_figures(pid)["cpu"]
    await asyncio.sleep(seconds)
    return process_figures(pid)["cpu"] - before


async def websocket_watchers(base: str, pid: int, ids: dict[str, Any], n: int, idle: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    url = base.replace("http://", "ws://") + f"/ws/live/tournaments/{ids['t']}/"
    quiet = await idle_cpu(pid, idle)
    before = process_figures(pid)
    sockets = []
    for start in range(0, n, 50):  # in batches of 50: the accept queue stays short
        batch = await asyncio.gather(*[connect(url, origin=base, open_timeout=30)  # type: ignore[arg-type]
                                       for _ in range(start, min(n, start + 50))])
        await asyncio.gather(*[ws.recv() for ws in batch])  # the first message: the stamp now
        sockets.extend(batch)
    after = process_figures(pid)
    watched = await idle_cpu(pid, idle)
    got: list[float] = []

    async def wait(ws: Any) -> None:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        assert message["type"] == "changed", message
        got.append(time.monotonic())

    waiting = [asyncio.ensure_future(wait(ws)) for ws in sockets]
    sent = await asyncio.to_thread(record_hand, base, ids)
    await asyncio.gather(*waiting)
    for ws in sockets:
        await ws.close()
    return {"before": before, "after": after, "idle_cpu": (quiet, watched), "latency": [t - sent for t in got]}


async def sse_watchers(base: str, pid: int, ids: dict[str, Any], n: int, idle: float) -> dict[str, Any]:
    host, port = base.removeprefix("http://").split(":")
    path = f"/matches/{ids['match']}/live/stream/"
    quiet = await idle_cpu(pid, idle)
    before = process_figures(pid)
    streams: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def event(reader: asyncio.StreamReader) -> None:
        while not (await reader.readline()).startswith(b"event: state"):
            pass

    for start in range(0, n, 50):
        batch = await asyncio.gather(*[asyncio.open_connection(host, int(port)) for _ in range(start, min(n, start + 50))])
        for _, writer in batch:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await asyncio.gather(*[asyncio.wait_for(event(reader), 60) for reader, _ in batch])  # the state now
        streams.extend(batch)
    after = process_figures(pid)
    watched = await idle_cpu(pid, idle)
    got: list[float] = []

    async def wait(reader: asyncio.StreamReader) -> None:
        await asyncio.wait_for(event(reader), 60)
        got.append(time.monotonic())

    waiting = [asyncio.ensure_future(wait(reader)) for reader, _ in streams]
    sent = await asyncio.to_thread(record_hand, base, ids)
    await asyncio.gather(*waiting)
    for _, writer in streams:
        writer.close()
    return {"before": before, "after": after, "idle_cpu": (quiet, watched), "latency": [t - sent for t in got]}


def report(label: str, n: int, figures: dict[str, Any], idle: float) -> None:
    b, a = figures["before"], figures["after"]
    quiet, watched = figures["idle_cpu"]
    print(f"{label}, {n} watchers: threads {b['threads']:.0f} → {a['threads']:.0f} · "
          f"RSS {b['rss']:.0f} → {a['rss']:.0f} MiB (+{(a['rss'] - b['rss']) * 1024 / n:.0f} KiB a watcher) · "
          f"CPU over {idle:.0f} quiet s {quiet:.2f} → {watched:.2f} s")
    print(f"    one hand recorded → all {len(figures['latency'])} told: {spread(figures['latency'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--sse", type=int, default=200, help="Server-Sent Events streams to compare (0: none)")
    parser.add_argument("--idle", type=float, default=5.0, help="quiet seconds over which CPU time is read")
    parser.add_argument("--redis", default="", help="a channels-redis layer (redis://127.0.0.1:6379/13) instead of memory")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{work / 'live.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "config.settings.test", "CELERY_BROKER_URL": "", "CHANNEL_REDIS_URL": args.redis,
           "CACHE_URL": ""}
    proc = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
        seeded = subprocess.run([sys.executable, "-c", SEED], cwd=ROOT, env=env, check=True, timeout=120,
                                capture_output=True, text=True)
        ids = json.loads(seeded.stdout.strip().splitlines()[-1])
        port = free_port()
        log = work / "server.log"
        with open(log, "w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                                     "--port", str(port), "--lifespan", "off", "--log-level", "warning",
                                     "--backlog", "4096", "--ws-per-message-deflate", "false"],  # as production
                                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the ASGI server did not start: " + log.read_text())
        layer = "channels-redis layer" if args.redis else "in-memory channel layer"
        print(f"uvicorn, 1 process, {layer}, SQLite; {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.1f}")

        async def run() -> bool:
            assert proc is not None
            ws = await websocket_watchers(base, proc.pid, ids, args.watchers, args.idle)
            report("WebSocket ws/live/tournaments/<id>/", args.watchers, ws, args.idle)
            if args.sse:
                sse = await sse_watchers(base, proc.pid, ids, args.sse, args.idle)
                report("Server-Sent Events /matches/<id>/live/stream/", args.sse, sse, args.idle)
            # targets: every watcher told within 1 s (p95), no thread per watcher
            p95 = sorted(ws["latency"])[min(len(ws["latency"]) - 1, round(0.95 * (len(ws["latency"]) - 1)))]
            return p95 <= 1.0 and ws["after"]["threads"] - ws["before"]["threads"] <= 4

        try:
            met = asyncio.run(asyncio.wait_for(run(), DEADLINE))
            print("targets (WebSocket p95 ≤ 1 s, no thread a watcher):", "met" if met else "MISSED")
            if not met:
                raise SystemExit(1)
        except Exception:
            print("the server's log ends:\n" + "\n".join(log.read_text().splitlines()[-30:]), file=sys.stderr)
            raise
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # open streams hold uvicorn's graceful stop
                proc.kill()
                proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
