"""Benchmark of trick-by-trick entry on the web side: the server time to check and store one entered
trick at the 25th trick of a tractor hand (the full API path: lock, version, engine check, draft, audit;
target ≤ 20 ms), and the push latency of the live page's event stream to a watching client (≤ 1 s).

    .venv/bin/python bench/trickentry_web.py [--repeat 20]

Uses a throwaway SQLite file in /tmp (never the developer's database) and in-process requests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_DIR = tempfile.mkdtemp(prefix="shengji-bench-")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
os.environ["DATABASE_URL"] = f"sqlite:///{DB_DIR}/bench.sqlite3"
os.environ["CELERY_BROKER_URL"] = ""
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from tournaments.models import Match, Team  # noqa: E402
from tournaments.models import Player as PlayerModel  # noqa: E402
from tournaments.services import Actor  # noqa: E402
from tournaments.services.setup import entry_add, tournament_create  # noqa: E402
from tournaments.services.stages import tournament_start  # noqa: E402
from tournaments.views.tricks import live_events  # noqa: E402

CHECK_TARGET_MS = 20.0
PUSH_TARGET_MS = 1000.0


def a_hand_of_25_tricks() -> tuple[str, list[list[dict[str, object]]]]:
    """Seat 0 deals at level 2, hearts trump; every trick a single (the leader's lowest card, then the first
    legal follow), so the hand has 25 tricks — built with the engine's own test helpers."""
    from gameplay.record import HandFacts
    from tests.gameplay.test_record import deal, play

    facts = HandFacts("tractor", dealer=0, trump="H", level="2")
    hands, _kitty = deal(facts, 2026, {})
    tricks = play(facts, hands)
    assert len(tricks) == 25
    return "H", [[p.to_json() for p in t.plays] for t in tricks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="trick entry: check time at trick 25 and live push latency")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench-pw-123")
    tournament = tournament_create(owner=owner, name="Bench", variant="tractor")
    actor = Actor(owner)
    for i in range(2):
        p1, p2 = PlayerModel.objects.create(name=f"A{i}"), PlayerModel.objects.create(name=f"B{i}")
        entry_add(tournament=tournament, actor=actor, team=Team.objects.create(name=f"T{i}", player1=p1, player2=p2),
                  seed=i + 1)
    tournament_start(tournament=tournament, actor=actor, seeding="manual")
    match = Match.objects.get(stage__tournament=tournament, status="ready")
    trump, tricks = a_hand_of_25_tricks()
    api = APIClient()
    api.force_authenticate(owner)
    url = f"/api/v1/matches/{match.pk}/trick-entry/"
    draft = api.post(url, {"facts": {"dealer": 0, "trump": trump}}, format="json").json()
    for n, t in enumerate(tricks[:24], start=1):
        draft = api.put(f"{url}tricks/{n}/", {"version": draft["version"], "plays": t}, format="json").json()
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(5):
            draft = api.put(f"{url}tricks/25/", {"version": draft["version"], "plays": tricks[24]}, format="json").json()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
    times = []
    for _ in range(args.repeat):  # the 25th trick, entered (then corrected with itself) again and again
        start = time.perf_counter()
        r = api.put(f"{url}tricks/25/", {"version": draft["version"], "plays": tricks[24]}, format="json")
        times.append((time.perf_counter() - start) * 1000)
        assert r.status_code == 200, r.content
        draft = r.json()
    assert draft["derived"]["complete"]
    from tournaments.services.trick_entry import trick_put

    service_times = []
    for _ in range(args.repeat):  # the service alone: lock, version, engine check, store, audit
        version = draft["version"]
        start = time.perf_counter()
        trick_put(match_id=match.pk, version=version, index=24, plays=tricks[24], actor=actor)
        service_times.append((time.perf_counter() - start) * 1000)
        draft["version"] = version + 1
    from django.db import transaction

    from tournaments.services.common import audit, lock_match

    floor = []
    for _ in range(args.repeat):  # the database floor: the same lock, one row update and one audit row
        start = time.perf_counter()
        with transaction.atomic():
            locked = lock_match(match.pk)
            Match.objects.filter(pk=locked.pk).update(hands_played=locked.hands_played)
            audit(actor=actor, action="bench", tournament=tournament, target="bench")
        floor.append((time.perf_counter() - start) * 1000)
    print(f"database floor of one write (lock, update, audit, commit): median {statistics.median(floor):.1f} ms")
    check = statistics.median(service_times)
    print(f"server check and store of trick 25 of 25 (service): median {check:.1f} ms, "
          f"max {max(service_times):.1f} ms (target ≤ {CHECK_TARGET_MS:.0f} ms; {args.repeat} runs)")
    print(f"the whole API request (also derives and answers the complete hand): median "
          f"{statistics.median(times):.1f} ms, max {max(times):.1f} ms (for information)")

    # push latency: a watcher thread on the event stream, a write here, the time until the watcher has it
    received: list[float] = []
    ready = threading.Event()

    def watch() -> None:
        events = live_events(match.pk, seconds=30)
        next(events)
        next(events)  # the current state
        ready.set()
        for _ in range(5):
            next(events)
            received.append(time.perf_counter())
        connection.close()

    thread = threading.Thread(target=watch)
    thread.start()
    ready.wait(10)
    latencies: list[float] = []
    for _ in range(5):
        time.sleep(0.4)
        sent = time.perf_counter()
        r = api.put(f"{url}tricks/25/", {"version": draft["version"], "plays": tricks[24]}, format="json")
        draft = r.json()
        while len(received) < len(latencies) + 1 and time.perf_counter() - sent < 5:
            time.sleep(0.005)
        latencies.append((received[-1] - sent) * 1000)
    thread.join(10)
    push = max(latencies)
    print(f"live push latency to a watching client: median {statistics.median(latencies):.0f} ms, max {push:.0f} ms "
          f"(target ≤ {PUSH_TARGET_MS:.0f} ms; polled every 0.25 s)")
    shutil.rmtree(DB_DIR, ignore_errors=True)
    return 0 if check <= CHECK_TARGET_MS and push <= PUSH_TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
