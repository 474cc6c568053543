"""Who may see which players and teams, and whose contacts (phone, e-mail).

* A player or team is listed publicly unless every tournament it appears in is private; then only
  those who may see one of those tournaments (its organizers and scorers) and staff see it.
* A player's contact is shown to staff and to the organizers of a tournament the player is in
  (as a player or as one of a team's two players) — never to anyone else, in the API or the pages.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Entry, Player, Team, Tournament
from tournaments.selectors.matches import tournaments_visible


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def _players_in(tournaments: QuerySet[Tournament]) -> Q:
    entries = Entry.objects.filter(tournament__in=tournaments.values("pk"))
    return (Q(pk__in=entries.filter(player__isnull=False).values("player_id"))
            | Q(pk__in=entries.filter(team__isnull=False).values("team__player1_id"))
            | Q(pk__in=entries.filter(team__isnull=False).values("team__player2_id")))


def _teams_in(tournaments: QuerySet[Tournament]) -> Q:
    return Q(pk__in=Entry.objects.filter(tournament__in=tournaments.values("pk"), team__isnull=False)
             .values("team_id"))


def players_visible(user: Any) -> QuerySet[Player]:
    """Players this user may see listed: all but those only in private tournaments they cannot see."""
    qs = Player.objects.all()
    if _is_staff(user):
        return qs
    private = Tournament.objects.filter(is_public=False)
    return qs.filter(~_players_in(private) | _players_in(tournaments_visible(user)))


def teams_visible(user: Any) -> QuerySet[Team]:
    """Teams this user may see listed (the same rule as :func:`players_visible`)."""
    qs = Team.objects.select_related("player1", "player2")
    if _is_staff(user):
        return qs
    private = Tournament.objects.filter(is_public=False)
    return qs.filter(~_teams_in(private) | _teams_in(tournaments_visible(user)))


def contact_player_ids(user: Any) -> set[int] | None:
    """Ids of the players whose contact ``user`` may see; None means every player (staff)."""
    if _is_staff(user):
        return None
    if not getattr(user, "is_authenticated", False):
        return set()
    organized = Tournament.objects.filter(Q(owner=user) | Q(organizers=user))
    return set(Player.objects.filter(_players_in(organized)).values_list("pk", flat=True))


def can_see_contact(request: Any, player: Player) -> bool:
    """Whether this request's user may see the player's contact (the allowed ids are worked out once
    per request)."""
    if request is None:
        return False
    if not hasattr(request, "_contact_player_ids"):
        request._contact_player_ids = contact_player_ids(getattr(request, "user", None))
    allowed: set[int] | None = request._contact_player_ids
    return allowed is None or player.pk in allowed


def player_data(data: dict[str, Any], player: Player, request: Any) -> dict[str, Any]:
    """A player's serialized data with ``contact`` emptied for those who may not see it."""
    if "contact" in data and not can_see_contact(request, player):
        data["contact"] = ""
    return data
