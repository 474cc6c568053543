"""Who may do what. Organizer: owner, co-organizers and superusers. Scorer: a tournament's scorers
(every table) or whoever holds a table's secret link (that table only). Public: reads public tournaments
that are past their draft (a draft is its organizers' alone)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import connection

from tournaments.models import Match, Tournament


def _staff_role_sql() -> str:
    """"Organizer or scorer" as one plain statement over the two membership tables: no join with the
    tournament and no ORM compilation on the hand-entry path (issue 18)."""
    quote = connection.ops.quote_name
    parts = []
    for through in (Tournament.organizers.through, Tournament.scorers.through):
        meta = through._meta
        tournament, user = meta.get_field("tournament").column, meta.get_field("user").column
        parts.append(f"SELECT 1 FROM {quote(meta.db_table)} WHERE {quote(tournament)} = %s AND {quote(user)} = %s")
    return " UNION ALL ".join(parts) + " LIMIT 1"


def is_organizer(user: Any, tournament: Tournament) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return tournament.organizers.filter(pk=user.pk).exists()


def is_scorer(user: Any, tournament: Tournament) -> bool:
    """An organizer or a scorer of the tournament: one query at most ("organizer or scorer" together)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    with connection.cursor() as cursor:
        cursor.execute(_staff_role_sql(), [tournament.pk, user.pk, tournament.pk, user.pk])
        return cursor.fetchone() is not None


def token_matches(match: Match, token: str | None) -> bool:
    return bool(token) and secrets.compare_digest(str(token), match.scorer_token)


def can_score_match(user: Any, match: Match, token: str | None = None) -> bool:
    return token_matches(match, token) or is_scorer(user, match.stage.tournament)


def can_view(user: Any, tournament: Tournament) -> bool:
    """Drafts are seen by the tournament's own staff only (organizers and scorers: an invited scorer
    sees the event being prepared); a public tournament past its draft by everyone; a private one by
    its staff."""
    if tournament.status == Tournament.Status.DRAFT:
        return is_scorer(user, tournament)
    return tournament.is_public or is_scorer(user, tournament)
