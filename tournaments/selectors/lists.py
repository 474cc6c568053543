"""The lists the REST API pages through: players, teams, and the entries, stages and matches of
the tournaments a user may see (``tournament`` narrows them to one)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Entry, Match, Player, Stage, Team
from tournaments.selectors.matches import tournaments_visible


def players_all() -> QuerySet[Player]:
    return Player.objects.all()


def teams_all() -> QuerySet[Team]:
    return Team.objects.select_related("player1", "player2")


def entries_visible(user: Any, tournament: int | None = None) -> QuerySet[Entry]:
    visible = tournaments_visible(user).values("pk")
    qs = Entry.objects.filter(tournament__in=visible).select_related("team", "player")
    if tournament is not None:
        qs = qs.filter(tournament_id=tournament)
    return qs.order_by("tournament_id", "seed", "id")


def stages_visible(user: Any, tournament: int | None = None) -> QuerySet[Stage]:
    visible = tournaments_visible(user).values("pk")
    qs = Stage.objects.filter(tournament__in=visible).prefetch_related("rounds").select_related("tournament")
    if tournament is not None:
        qs = qs.filter(tournament_id=tournament)
    return qs.order_by("tournament_id", "number")


def matches_visible(user: Any, token: str | None = None, tournament: int | None = None) -> QuerySet[Match]:
    """Matches of the visible tournaments, plus the table a link ``token`` opens."""
    visible = tournaments_visible(user).values("pk")
    qs = Match.objects.select_related("round", "stage__tournament", "entry0__team", "entry0__player",
                                      "entry1__team", "entry1__player")
    visible_q = Q(stage__tournament__in=visible)
    if token:
        visible_q |= Q(scorer_token=token)
    qs = qs.filter(visible_q)
    if tournament is not None:
        qs = qs.filter(stage__tournament_id=tournament)
    return qs.order_by("stage_id", "round__number", "position")


def match_with_tournament() -> QuerySet[Match]:
    return Match.objects.select_related("stage__tournament")


def match_with_entries(pk: int) -> Match:
    return Match.objects.select_related("round", "entry0__team", "entry0__player", "entry1__team",
                                        "entry1__player").get(pk=pk)
