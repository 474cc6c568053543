"""Benchmark of the printables: the standings of a 512-entry tournament and the score sheets of a
128-table round, rendered to PDF with WeasyPrint. Targets: under 5 s and 15 s.

    .venv/bin/python bench/print.py

Uses a throwaway SQLite file in /tmp (never the developer's database) and in-process tasks.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_DIR = tempfile.mkdtemp(prefix="shengji-bench-")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
os.environ["DATABASE_URL"] = f"sqlite:///{DB_DIR}/bench.sqlite3"
os.environ["MEDIA_ROOT"] = f"{DB_DIR}/media"
os.environ["CELERY_BROKER_URL"] = ""
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from tournaments.documents import ScoreSheetsDocument, StandingsDocument, pdf_bytes  # noqa: E402
from tournaments.models import Entry, Match, Player, PrintJob, Round, Team  # noqa: E402
from tournaments.services import Actor, hand_record  # noqa: E402
from tournaments.services.printing import print_job_run  # noqa: E402
from tournaments.services.setup import tournament_create  # noqa: E402
from tournaments.services.stages import tournament_start  # noqa: E402

SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
SURNAMES = "王李张刘陈杨黄赵吴周"
LATIN = ["Zoë", "Ali", "Émile", "Søren", "Ana", "Bob"]


def build(owner, entries: int, name: str, won: int):
    tournament = tournament_create(owner=owner, name=name, variant="tractor")
    players = Player.objects.bulk_create(
        [Player(name=(f"{SURNAMES[i % 10]}小{i}" if i % 3 else f"{LATIN[i % 6]} {i}")) for i in range(2 * entries)])
    teams = Team.objects.bulk_create([Team(name=f"{players[2 * i].name} & {players[2 * i + 1].name}",
                                           player1=players[2 * i], player2=players[2 * i + 1]) for i in range(entries)])
    Entry.objects.bulk_create([Entry(tournament=tournament, team=team, seed=i + 1) for i, team in enumerate(teams)])
    actor = Actor(owner)
    stage = tournament_start(tournament=tournament, actor=actor)
    for match in Match.objects.filter(stage=stage, round__number=1).order_by("position")[:won]:
        for index in range(4):
            match.refresh_from_db()
            hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                        dealer=index % 2 if index == 0 else None)
    tournament.refresh_from_db()
    return tournament, stage


def timed(label: str, document, target: float, *, job: bool = False) -> float:
    start, cpu = time.perf_counter(), time.process_time()
    if job:  # the bulk path: a PrintJob rendered 16 tables a chunk, progress saved, file stored
        record = PrintJob.objects.create(tournament=document.tournament, kind=document.kind,
                                         params={"round": document.round.pk})
        assert print_job_run(job_id=record.pk) == "done"
        record.refresh_from_db()
        pages, size = record.pages, record.file.size
    else:
        pdf, pages = pdf_bytes(document)
        size = len(pdf)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    verdict = "ok" if elapsed < target else "SLOW"
    print(f"{label:<28} {elapsed:6.2f} s wall, {cpu:6.2f} s CPU  ({pages} pages, {size / 1024:.0f} KiB; "
          f"target < {target:g} s: {verdict})")
    return elapsed


def main() -> int:
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench-password-123")
    t0 = time.perf_counter()
    big, big_stage = build(owner, 512, "春季升级赛 512", won=64)
    table_round, _stage = build(owner, 256, "秋季升级赛 256", won=8)
    first_round = Round.objects.get(stage=_stage, number=1)
    print(f"set-up: {time.perf_counter() - t0:.1f} s (throwaway database in {DB_DIR}, removed at the end); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    standings = StandingsDocument(tournament=big, stage=big_stage)
    sheets = ScoreSheetsDocument(tournament=table_round, round=first_round)
    assert len(sheets.units()) == 128, len(sheets.units())
    a = timed("standings, 512 entries", standings, 5)  # the first render: loads fonts too
    b = timed("score sheets, 128 tables", sheets, 15)
    c = timed("the same as a bulk job", sheets, 15, job=True)
    return 0 if a < 5 and b < 15 and c < 15 else 1


if __name__ == "__main__":
    try:
        status = main()
    finally:
        shutil.rmtree(DB_DIR, ignore_errors=True)
    raise SystemExit(status)
