"""``python manage.py simulate``: seeded bot-vs-bot hands or matches, with a summary.

    python manage.py simulate --variant tractor --hands 1000 --seed 7 --bots heuristic,random \
        [--jobs N] [--log hands.jsonl] [--match]

``--bots`` takes the levels ``easy``, ``normal`` (``heuristic``) and ``strong``, and ``random``
(docs/bots.md); the strong bot searches each card play for up to 200 ms.

With a broker (``CELERY_BROKER_URL``) and ``--jobs N`` the run is split into N Celery tasks run by
workers and gathered; otherwise it runs in this process. The hands are the same either way.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

import variants
from gameplay.rulesets import VARIANTS
from gameplay.simulate import ProgressBar, simulate_hands, simulate_matches, summarize


class Command(BaseCommand):
    help = "Simulate seeded hands (or whole matches) between bots and print a summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", choices=VARIANTS, default="tractor")
        parser.add_argument("--hands", type=int, default=1000, help="hands to play (matches with --match)")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--bots", default="heuristic,random",
                            help="comma-separated bots: side 0, side 1 (partnerships) or seat i → bots[i %% n]; "
                                 "easy, normal (also called heuristic), strong (200 ms a card play) or random")
        parser.add_argument("--decks", type=int, default=None, help="red-five: 2 or 3")
        parser.add_argument("--players", type=int, default=None, help="yongzhou-300: 3 or 4")
        parser.add_argument("--jobs", type=int, default=1, help="split into N Celery tasks when a broker is set")
        parser.add_argument("--log", default=None, help="write every hand's log as JSON lines to this file")
        parser.add_argument("--match", action="store_true", help='simulate whole "first past J" matches')
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        from gameplay.bots import BOTS

        variant: str = opts["variant"]
        count: int = opts["hands"]
        if count < 1:
            raise CommandError("--hands must be at least 1")
        bots = [b.strip() for b in opts["bots"].split(",") if b.strip()]
        unknown = [b for b in bots if b not in BOTS]
        if not bots or unknown:
            raise CommandError(f"unknown bot(s) {', '.join(unknown) or '(none)'}: use {', '.join(sorted(BOTS))}")
        match = bool(opts["match"])
        if match and not variants.get(variant).partnership:
            raise CommandError("--match needs a partnership variant (tractor or chaodi)")
        keep_log = opts["log"] is not None
        jobs = max(1, int(opts["jobs"]))
        t0 = time.perf_counter()
        bar = None if opts["no_progress"] else ProgressBar(count, getattr(self.stderr, "_out", sys.stderr))
        kw = {"decks": opts["decks"], "players": opts["players"]}
        from gameplay.errors import GameplayError
        from gameplay.rulesets import ruleset

        try:
            ruleset(variant, decks=opts["decks"], players=opts["players"])
        except GameplayError as exc:
            raise CommandError(str(exc)) from exc
        if jobs > 1 and getattr(settings, "CELERY_BROKER_URL", None):
            records = self._fan_out(variant, opts["seed"], count, bots, jobs, match, keep_log, kw, bar)
            where = f"{jobs} Celery tasks"
        else:
            if match:
                records = simulate_matches(variant, opts["seed"], 0, count, bots, progress=bar)
            else:
                records = simulate_hands(variant, opts["seed"], 0, count, bots, keep_log=keep_log, progress=bar,
                                         **kw)
            where = "in-process"
        seconds = time.perf_counter() - t0
        if keep_log:
            with open(opts["log"], "w", encoding="utf-8") as fh:
                for r in records:
                    if "log" in r:
                        fh.write(json.dumps(r["log"], ensure_ascii=False, separators=(",", ":")) + "\n")
        summary = summarize(variant, records, seconds, matches=match, decks=opts["decks"], players=opts["players"])
        self.stdout.write(f"bots: {', '.join(bots)}; seed {opts['seed']}; run {where}")
        for line in summary.lines():
            self.stdout.write(line)

    def _fan_out(self, variant: str, seed: int, count: int, bots: list[str], jobs: int, match: bool,
                 keep_log: bool, kw: dict[str, Any], bar: ProgressBar | None) -> list[dict[str, Any]]:
        from celery import group

        from config.health import check_broker
        from rules_web.tasks import simulate_chunk

        broker = check_broker()
        if not broker["ok"]:
            raise CommandError(f"The Celery broker is unreachable ({broker.get('error')}); nothing was simulated. "
                               "Start the broker and a worker, or run without --jobs to simulate in-process.")
        size = -(-count // jobs)
        sigs = []
        for start in range(0, count, size):
            n = min(size, count - start)
            sigs.append(simulate_chunk.s(variant, seed, n, bots, start=start, decks=kw["decks"],
                                         players=kw["players"], match=match, keep_log=keep_log))
        try:
            result = group(sigs).apply_async(retry=False)
            chunks = result.get(timeout=30 * 60, propagate=True)
        except Exception as exc:  # broker or result store gone mid-run, a worker error, a time-out
            raise CommandError(f"The simulation on Celery workers failed: {type(exc).__name__}: {exc}. "
                               "Check the broker and the workers, or run without --jobs.") from exc
        records: list[dict[str, Any]] = []
        for chunk in sorted(chunks, key=lambda c: c["start"]):
            records.extend(chunk["records"])
            if bar is not None:
                bar(chunk["count"])
        return records
