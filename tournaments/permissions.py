"""Who may do what. Organizer: owner, co-organizers and superusers. Scorer: a tournament's scorers
(every table) or whoever holds a table's secret link (that table only). Public: reads public tournaments
that are past their draft (a draft is its organizers' alone)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db.models import Q

from tournaments.models import Match, Tournament


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
    return Tournament.objects.filter(Q(organizers__pk=user.pk) | Q(scorers__pk=user.pk), pk=tournament.pk).exists()


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
