"""The server of ``bench/online_tournament_sockets.py``: ``bench/online_asgi.py``'s application (the site,
unchanged, plus its echo route) under uvicorn, with the tournament room owner's hook timed where it runs.

    python bench/online_tournament_server.py PORT

Environment (besides the site's): ``BENCH_RECORD_LOG`` (a file: one JSON line per finished hand) and
``BENCH_TOTALS_TOURNAMENT`` (the id of a physical copy of the online event: same teams, same bracket).

* **The hook.** ``tournaments.services.online_matches.MatchRooms.hand_finished`` is registered again for the
  kind ``"match"`` wrapped in a timer (``time.perf_counter`` and ``time.thread_time``): the wall and the CPU
  time of recording the hand (``hand_record`` with the engine's scoring, the trick log, the audit, the next
  rooms), inside the room's write, on the thread that runs the consumers.
* **The totals entry, paired.** After that write commits, a thread of the same process records the same hand
  (figures, dealer, trump) by its totals (``hand_record`` without the engine's scoring, as a scorer's entry
  does) on the matching match of the physical copy, timed alike: same process, same database, same load.

Each line: ``{"match", "hand", "hook_ms", "hook_cpu_ms", "totals_ms", "totals_cpu_ms", "error"}`` (the totals'
fields null when the copy refused the hand).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

from bench.online_asgi import application  # django.setup() happens there


class Recorder:
    """The hook's timings and the paired totals entries, written as JSON lines."""

    def __init__(self, path: str, physical_id: int) -> None:
        self.path = path
        self.physical_id = physical_id
        self.jobs: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, name="bench-totals", daemon=True)
        self.thread.start()

    def write(self, line: dict[str, Any]) -> None:
        with self.lock, open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    def run(self) -> None:
        from django.db import connection

        while True:
            job = self.jobs.get()
            if job is None:
                break
            try:
                job.update(self.totals(int(job["match"]), int(job["hand"])))
            except Exception as exc:  # the figure is then missing, and why is said
                job["error"] = f"{type(exc).__name__}: {exc}"[:200]
            self.write(job)
        connection.close()

    def totals(self, match_id: int, number: int) -> dict[str, Any]:
        from tournaments.models import HandRecord, Match
        from tournaments.services import Actor, hand_record

        online = HandRecord.objects.select_related("match").get(match_id=match_id, number=number)
        copy = Match.objects.select_related("stage__tournament__owner").get(
            stage__tournament_id=self.physical_id, key=online.match.key)
        actor = Actor(copy.stage.tournament.owner)  # the organizer enters it, as online_tournament.py does
        wall, cpu = time.perf_counter(), time.thread_time()
        hand_record(match_id=copy.pk, outcome=online.outcome, version=copy.version, actor=actor,
                    dealer=online.dealer if number == 1 else None, trump=online.trump)
        return {"totals_ms": (time.perf_counter() - wall) * 1000, "totals_cpu_ms": (time.thread_time() - cpu) * 1000}


def install(path: str, physical_id: int) -> Recorder:
    from django.db import transaction

    from online import owners
    from tournaments.models import HandRecord
    from tournaments.services.online_matches import MatchRooms
    from tournaments.services.online_rooms import KIND

    recorder = Recorder(path, physical_id)

    class Timed(MatchRooms):
        def hand_finished(self, owner_id: int, room: Any, row: Any, hand: Any) -> bool | None:
            wall, cpu = time.perf_counter(), time.thread_time()
            over = super().hand_finished(owner_id, room, row, hand)
            job: dict[str, Any] = {"match": owner_id, "room": room.code, "room_hand": row.number,
                                   "hook_ms": (time.perf_counter() - wall) * 1000,
                                   "hook_cpu_ms": (time.thread_time() - cpu) * 1000,
                                   "totals_ms": None, "totals_cpu_ms": None, "error": ""}
            number = HandRecord.objects.filter(match_id=owner_id).order_by("-number").values_list(
                "number", flat=True).first()
            job["hand"] = number
            if number is None:  # not recorded (the match refused it): said, not timed against totals
                job["error"] = "not recorded"
                recorder.write(job)
            else:
                transaction.on_commit(lambda: recorder.jobs.put(job))
            return over

    owners.register(KIND, Timed())
    return recorder


def main() -> None:
    import uvicorn

    port = int(sys.argv[1])
    recorder = install(os.environ["BENCH_RECORD_LOG"], int(os.environ["BENCH_TOTALS_TOURNAMENT"]))
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        from config.workers import UVICORN  # production's settings: frames uncompressed

        uvicorn.run(application, host="127.0.0.1", port=port, log_level="warning", lifespan="on", ws="auto", **UVICORN)
    finally:
        recorder.jobs.put(None)
        recorder.thread.join(10)


if __name__ == "__main__":
    main()
