"""A tournament's results stamp: a short hash that changes whenever anything a document shows
changes (a hand, a result, a correction, an entry, a stage, the tournament's details)."""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, Sum

from tournaments.models import Adjustment, Entry, Match, Stage, Tournament


def results_stamp(tournament: Tournament | None) -> str:
    """Every write to a match raises its ``version``, so the sum of versions moves with each hand,
    undo, correction or confirmation; the other figures cover entries, stages and awards."""
    if tournament is None:
        return "none"
    figures = [
        Tournament.objects.filter(pk=tournament.pk).values_list("updated_at", flat=True).first(),
        Match.objects.filter(stage__tournament=tournament).aggregate(n=Count("id"), v=Sum("version"),
                                                                     t=Max("updated_at")),
        Entry.objects.filter(tournament=tournament).aggregate(n=Count("id"), t=Max("updated_at")),
        Stage.objects.filter(tournament=tournament).aggregate(n=Count("id"), t=Max("updated_at")),
        Adjustment.objects.filter(tournament=tournament).aggregate(n=Count("id"), t=Max("updated_at")),
    ]
    return hashlib.sha256(repr(figures).encode()).hexdigest()[:32]
