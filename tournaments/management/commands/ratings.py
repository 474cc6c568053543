"""``manage.py ratings``: recompute the pools marked dirty (a queued recompute that did not run, a broker
that was down), or with ``--rebuild`` everything from the stored results (docs/ratings.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import RatingPool
from tournaments.services.ratings import ratings_pool_recompute, ratings_rebuild


class Command(BaseCommand):
    help = "Recompute the ratings of the pools marked dirty, or (--rebuild) everything from the stored results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rebuild", action="store_true",
                            help="derive every match's facts again and recompute every pool from the beginning")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        if options["rebuild"]:
            rated = ratings_rebuild()
            self.stdout.write(self.style.SUCCESS(
                f"Ratings rebuilt: {rated} rated matches in {time.perf_counter() - started:.1f} s."))
            return
        replayed = 0
        for pool_id in RatingPool.objects.filter(dirty_at__isnull=False).values_list("pk", flat=True):
            replayed += ratings_pool_recompute(pool_id=pool_id)
        self.stdout.write(self.style.SUCCESS(
            f"Ratings recomputed: {replayed} matches replayed in {time.perf_counter() - started:.1f} s."))
