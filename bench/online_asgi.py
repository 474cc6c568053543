"""The ASGI server of ``bench/online.py``: the site (``config.asgi:application``, unchanged) plus one
bench-only WebSocket route, ``ws/bench-echo/<group>/``, that measures the floor.

The echo consumer has the product consumer's base class (Channels' sync ``JsonWebsocketConsumer``: every
frame goes through the same thread hop) and the same fan-out: a frame ``{"id", "size"}`` from one socket
is group-sent through the channel layer (in memory, or Redis with ``CHANNEL_REDIS_URL``) to the group's
sockets, each of which is sent a JSON frame of about ``size`` bytes — what a play does, without the
database and the engine. Every other scope goes to the site.

Run as a script it serves that on uvicorn (one process, 127.0.0.1 only) with production's settings
(``config/workers.py``: WebSocket frames uncompressed)::

    python bench/online_asgi.py PORT

``BENCH_DEFLATE=1`` turns permessage-deflate back on (uvicorn's default), ``BENCH_SWITCH_MS=N`` sets the
interpreter's switch interval: for comparing runs.

With ``BENCH_PROFILE=/path/report.txt`` a sampling profiler (a thread reading every thread's Python stack
every ``BENCH_PROFILE_MS`` ms, default 5) and a per-connection SQL counter run, and the report is written
when the process exits (SIGTERM, SIGINT): busy share per thread, top functions by self and by inclusive
samples, top SQL statements by time.
"""

from __future__ import annotations

import atexit
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from channels.routing import ProtocolTypeRouter

from config.asgi import application as site  # django.setup() happens there

ECHO_PREFIX = "/ws/bench-echo/"
MAX_ECHO = 64 * 1024


class EchoConsumer(JsonWebsocketConsumer):
    """One socket of an echo group: a frame from any member is fanned out to all of them."""

    def connect(self) -> None:
        self.group = "bench-echo-" + re.sub(r"[^A-Za-z0-9]", "", self.scope["path"][len(ECHO_PREFIX):])[:40]
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def receive_json(self, content: Any, **kwargs: Any) -> None:
        size = min(int(content.get("size", 0)), MAX_ECHO)
        async_to_sync(self.channel_layer.group_send)(
            self.group, {"type": "echo.out", "id": content.get("id"), "size": size})

    def echo_out(self, event: dict[str, Any]) -> None:
        self.send_json({"type": "echo", "id": event["id"], "pad": "x" * max(0, int(event["size"]) - 40)})

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)


_echo = EchoConsumer.as_asgi()


async def _websocket(scope: Any, receive: Any, send: Any) -> None:
    if scope["path"].startswith(ECHO_PREFIX):
        await _echo(scope, receive, send)
    else:
        await site(scope, receive, send)


# the site's lifespan as in production (config/asgi.py): each server process takes up online play as it
# starts, before any client connects. Without it the first socket a process accepted did so, and with two
# servers and no broker the later one took back the counts of sockets the other had already accepted:
# a seat taken for gone, played by a bot (托管), which the bench counted as doubled plays.
application = ProtocolTypeRouter({"http": site, "websocket": _websocket, "lifespan": site})


# ---------------------------------------------------------------- profiling (BENCH_PROFILE)

IDLE = {("threading.py", "wait"), ("concurrent/futures/thread.py", "_worker"), ("selectors.py", "select"),
        ("asyncio/runners.py", "run"), ("asyncio/base_events.py", "run_forever"), ("queue.py", "get"),
        ("uvicorn/server.py", "run"), ("uvicorn/main.py", "run"), ("bench/online_asgi.py", "main")}
"""Leaf frames of a thread that waits for work (uvloop's loop is C: its idle main thread shows ``run``)."""


def _key(code: Any) -> str:
    path = code.co_filename
    for marker in ("site-packages/", "/lib/python3.11/", "/work/main/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{path}:{code.co_name}"


class Sampler:
    """Every ``interval`` seconds: each other thread's stack, counted by self (leaf) and inclusive function;
    the report is rewritten to ``path`` every 3 s (a process killed at the end keeps its last one)."""

    def __init__(self, interval: float, path: str = "") -> None:
        self.interval = interval
        self.path = path
        self.self_: Counter[str] = Counter()
        self.incl: Counter[str] = Counter()
        self.busy: Counter[str] = Counter()
        self.seen: Counter[str] = Counter()
        self.samples = 0
        self.busy_samples = 0
        self.stop = threading.Event()
        self.sql_n: Counter[str] = Counter()
        self.sql_s: dict[str, float] = {}
        self.sql_lock = threading.Lock()
        self.gc_started = 0.0
        self.gc_pauses: list[list[float]] = [[], [], []]  # ms per collection, by generation
        self.gc_collected = [0, 0, 0]

    def gc_callback(self, phase: str, info: dict[str, int]) -> None:
        """``gc.callbacks``: how long each collection held the interpreter, by generation."""
        if phase == "start":
            self.gc_started = time.perf_counter()
        elif self.gc_started:
            generation = info["generation"]
            self.gc_pauses[generation].append((time.perf_counter() - self.gc_started) * 1000)
            self.gc_collected[generation] += info["collected"]

    def run(self) -> None:
        me = threading.get_ident()
        names: dict[int, str] = {}
        last = time.monotonic()
        while not self.stop.wait(self.interval):
            if self.path and time.monotonic() - last > 3:
                last = time.monotonic()
                Path(self.path).write_text(self.report(), encoding="utf-8")
            if len(names) != threading.active_count():
                names = {t.ident or 0: t.name for t in threading.enumerate()}
            for ident, frame in sys._current_frames().items():
                if ident == me:
                    continue
                leaf = _key(frame.f_code)
                name = re.sub(r"\d+", "#", names.get(ident, "?"))
                self.seen[name] += 1
                if any(leaf.endswith(f"{f}:{fn}") for f, fn in IDLE):
                    continue
                self.busy[name] += 1
                self.busy_samples += 1
                self.self_[leaf] += 1
                keys: set[str] = set()
                f: Any = frame
                while f is not None:
                    keys.add(_key(f.f_code))
                    f = f.f_back
                self.incl.update(keys)
            self.samples += 1

    def sql(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - start
            text = re.sub(r"\s+", " ", re.sub(r"'[^']*'|\b\d+\b", "?", sql))[:150]
            with self.sql_lock:
                self.sql_n[text] += 1
                self.sql_s[text] = self.sql_s.get(text, 0.0) + took

    def census(self) -> str:
        """The interpreter's tracked objects by type, most common first (what the collector walks)."""
        import gc

        objects = gc.get_objects()
        kinds = Counter(type(o).__qualname__ for o in objects)
        lines = [f"census: {len(objects)} tracked objects; by generation {gc.get_count()}"]
        lines += [f"  {n:9d}  {kind}" for kind, n in kinds.most_common(30)]
        return "\n".join(lines) + "\n"

    def report(self) -> str:
        busy = max(1, self.busy_samples)
        out = [f"samples {self.samples} every {self.interval * 1000:.0f} ms; busy thread-samples {self.busy_samples}",
               "threads (busy share of their samples):"]
        out += [f"  {name:<40} {self.busy[name] / n:6.1%} of {n}" for name, n in self.seen.most_common()]
        out.append("top functions, inclusive (share of busy samples):")
        out += [f"  {n / busy:6.1%}  {k}" for k, n in self.incl.most_common(45)]
        out.append("top functions, self (leaf Python frame):")
        out += [f"  {n / busy:6.1%}  {k}" for k, n in self.self_.most_common(30)]
        import gc

        out.append(f"gc: {len(gc.get_objects())} tracked objects now, {gc.get_freeze_count()} frozen, "
                   f"thresholds {gc.get_threshold()}")
        for generation, pauses in enumerate(self.gc_pauses):
            if pauses:
                ranked = sorted(pauses)
                out.append(f"  generation {generation}: {len(ranked)} collections, {sum(ranked):.0f} ms in all, "
                           f"p50 {ranked[len(ranked) // 2]:.1f} p95 {ranked[int(len(ranked) * 0.95)]:.1f} "
                           f"max {ranked[-1]:.1f} ms, {self.gc_collected[generation]} objects freed")
        total = sum(self.sql_s.values())
        out.append(f"SQL: {sum(self.sql_n.values())} statements, {total:.2f} s in all; top by time:")
        out += [f"  {self.sql_s[k]:7.2f} s {self.sql_n[k]:7d}×  {k}" for k in sorted(self.sql_s, key=self.sql_s.__getitem__, reverse=True)[:25]]
        return "\n".join(out) + "\n"


def _profile(path: str) -> None:
    from django.db.backends.signals import connection_created

    sampler = Sampler(int(os.environ.get("BENCH_PROFILE_MS", "5")) / 1000, path)

    def wrap(sender: Any, connection: Any, **kwargs: Any) -> None:
        if sampler.sql not in connection.execute_wrappers:
            connection.execute_wrappers.append(sampler.sql)

    connection_created.connect(wrap, weak=False)
    import gc

    gc.callbacks.append(sampler.gc_callback)
    threading.Thread(target=sampler.run, name="bench-sampler", daemon=True).start()
    census_at = float(os.environ.get("BENCH_CENSUS_AT", "0"))
    if census_at:  # seconds after start: the heap in the middle of play
        def census() -> None:
            time.sleep(census_at)
            Path(path + ".census").write_text(sampler.census(), encoding="utf-8")

        threading.Thread(target=census, name="bench-census", daemon=True).start()

    def write() -> None:
        sampler.stop.set()
        Path(path).write_text(sampler.report(), encoding="utf-8")

    atexit.register(write)


def main() -> None:
    import uvicorn

    port = int(sys.argv[1])
    if os.environ.get("BENCH_PROFILE"):
        _profile(os.environ["BENCH_PROFILE"])
    # uvicorn re-raises the signal that stopped it with the handler found at start: exit normally (atexit runs)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    if os.environ.get("BENCH_SWITCH_MS"):
        sys.setswitchinterval(float(os.environ["BENCH_SWITCH_MS"]) / 1000)
    from config.workers import UVICORN

    settings = dict(UVICORN)  # as production's worker (config/workers.py); BENCH_DEFLATE=1: compressed frames
    if os.environ.get("BENCH_DEFLATE") == "1":
        settings["ws_per_message_deflate"] = True
    uvicorn.run(application, host="127.0.0.1", port=port, log_level="warning", lifespan="on", ws="auto", **settings)


if __name__ == "__main__":
    main()
