"""A tournament's results stamp: a short hash that changes whenever anything a document shows
changes (a hand, a result, a correction, an entry, a stage, the tournament's details)."""

from __future__ import annotations

import hashlib
import secrets
import time

from django.core.cache import cache
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


# --------------------------------------------------------------------------- the live pages' change stamp

def changes_key(tournament_id: int) -> str:
    return f"tournament-changes:{tournament_id}"


def changes_stamp(tournament_id: int) -> str:
    """The tournament's change stamp, from Django's cache alone (no database query): an opaque string
    that :func:`tournaments.services.common.touch_tournament` replaces after every committed write. A
    tournament with no stamp yet (a fresh cache) gets one, so every process answers the same from now on."""
    key = changes_key(tournament_id)
    stamp = cache.get(key)
    if stamp is None:
        cache.add(key, new_stamp(), timeout=None)
        stamp = cache.get(key) or ""
    return str(stamp)


def new_stamp() -> str:
    return f"{time.time_ns():x}{secrets.token_hex(2)}"
