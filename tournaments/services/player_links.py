"""Players' private links (``/p/<token>/``, in the spirit of Tabbycat's private URLs; docs/online.md,
"Tournament matches"): each player of a tournament gets one; it opens the player's current online match at
the player's seat, or says what is next. No account is needed: the link is the key.

The token is an HMAC of the link's ``nonce`` under the site's secret key (the organizer can copy it again);
only its SHA-256 is stored and looked up. Revoking keeps the row (the old link then says it was revoked);
reissuing revokes and adds a new row. Opening the link hands the player the room's seat token
(``online.owners.seat_claim``: a new token each time — the newest device plays, an older one is told).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from online import owners
from online.models import Room
from tournaments.errors import ServiceError
from tournaments.models import Entry, Match, Player, PlayerLink, Tournament
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.online_rooms import (
    KIND,
    OPEN,
    has_players,
    match_room,
    match_room_open,
    seat_players,
)
from tournaments.services.staff import token_hash

TOKEN = re.compile(r"^[0-9a-f]{64}$")


def link_token(link: PlayerLink) -> str:
    """The link's secret (derived again from its nonce)."""
    return salted_hmac("tournaments.player-link", f"player-link:{link.nonce}", algorithm="sha256").hexdigest()


def _new_link(tournament: Tournament, player: Player) -> PlayerLink:
    link = PlayerLink(tournament=tournament, player=player)
    link.token_hash = token_hash(link_token(link))
    link.save()
    return link


def player_link_for_player(*, tournament: Tournament, player: Player) -> PlayerLink:
    """The player's live link in the tournament, made now if they have none (a director's substitute)."""
    link = PlayerLink.objects.filter(tournament=tournament, player=player, revoked_at__isnull=True).first()
    return link if link is not None else _new_link(tournament, player)


def tournament_players(tournament: Tournament) -> list[Player]:
    """The players of the tournament's active entries (a team's two players, or the entry's player), by name."""
    players: dict[int, Player] = {}
    for entry in tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("team__player1",
                                                                                       "team__player2", "player"):
        for player in ((entry.team.player1, entry.team.player2) if entry.team else (entry.player,)):
            if player is not None:
                players[player.pk] = player
    return sorted(players.values(), key=lambda p: (p.name, p.pk))


def player_links_ensure(*, tournament: Tournament, actor: Actor) -> int:
    """Give every player of the tournament a live link if they have none; the number of links made."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).exists()
        have = set(PlayerLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
                   .values_list("player_id", flat=True))
        made = [_new_link(tournament, p) for p in tournament_players(tournament) if p.pk not in have]
        if made:
            audit(actor=actor, action="player_links.create", tournament=tournament,
                  target=f"tournament:{tournament.pk}", data={"players": [link.player_id for link in made]})
        return len(made)


def _live_link(tournament: Tournament, link_id: int) -> PlayerLink:
    link = (PlayerLink.objects.select_for_update().filter(pk=link_id, tournament=tournament).first())
    if link is None or link.revoked_at is not None:
        raise ServiceError.one("link", _("There is no such live player link in this tournament."))
    return link


def player_link_revoke(*, tournament: Tournament, link_id: int, actor: Actor) -> PlayerLink:
    """Revoke a player's link: opening it then says it was revoked, and writes nothing."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        link = _live_link(tournament, link_id)
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit(actor=actor, action="player_link.revoke", tournament=tournament, target=f"player:{link.player_id}")
        return link


def player_link_reissue(*, tournament: Tournament, link_id: int, actor: Actor) -> PlayerLink:
    """Revoke a player's link and give the player a new one (a lost phone, a link shared by mistake)."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        old = _live_link(tournament, link_id)
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
        link = _new_link(tournament, old.player)
        if old.user_id is not None:  # the player's account stays linked
            PlayerLink.objects.filter(pk=link.pk).update(user=old.user_id)
            link.user_id = old.user_id
        audit(actor=actor, action="player_link.reissue", tournament=tournament, target=f"player:{link.player_id}")
        return link


def player_link_for_token(token: str) -> PlayerLink | None:
    """The link of ``token`` (revoked ones too), or None for a malformed or unknown token."""
    if not isinstance(token, str) or not TOKEN.match(token):
        return None
    return (PlayerLink.objects.select_related("tournament", "player")
            .filter(token_hash=token_hash(token)).first())


def link_expired(link: PlayerLink) -> bool:
    """A link expires with its tournament: once it is finished the link opens no table (it says so). A
    tournament reopened by a correction makes its links live again."""
    return link.tournament.status == Tournament.Status.FINISHED


@dataclass(frozen=True)
class Next:
    """What a player's link shows: the online match to play now (``match``, ``seat``, ``room``), or the
    player's open match played at the tables (``match``, ``physical``), or nothing (``match`` None)."""

    match: Match | None = None
    seat: int | None = None
    room: Room | None = None
    physical: bool = False


def player_matches(link: PlayerLink) -> list[Match]:
    """The player's open matches (ready or playing) in the link's tournament, in playing order."""
    player = link.player
    mine = (Q(entry0__team__player1=player) | Q(entry0__team__player2=player) | Q(entry0__player=player)
            | Q(entry1__team__player1=player) | Q(entry1__team__player2=player) | Q(entry1__player=player)
            | Q(seats__entry__player=player) | Q(online_seat_changes__player=player))
    return list(Match.objects.filter(mine, stage__tournament=link.tournament, status__in=OPEN)
                .select_related("stage__tournament", "round", "entry0__team", "entry1__team").distinct()
                .order_by("stage__number", "round__number", "position"))


def player_next(link: PlayerLink) -> Next:
    """What the player plays now (an online match first), read only."""
    others: list[Match] = []
    for match in player_matches(link):
        if match.is_online and has_players(match):
            seat = next((s for s, p in seat_players(match) if p.pk == link.player_id), None)
            if seat is not None:
                return Next(match=match, seat=seat, room=match_room(match))
            continue  # the director gave the player's seat to a substitute or a bot
        others.append(match)
    return Next(match=others[0], physical=True) if others else Next()


def player_link_open(*, link: PlayerLink) -> tuple[Room, int, str]:
    """The player takes their seat in their current online match (its room opened if it has none): the
    room, the seat and a new seat token (the newest device plays). Raises ServiceError when the link is
    revoked or the player has no online match to play now."""
    if link.revoked_at is not None:
        raise ServiceError.one("link", _("This link was revoked by the organizers."))
    if link_expired(link):
        raise ServiceError.one("link", _("This tournament is over: its links no longer open a table."))
    now = player_next(link)
    if now.match is None or now.seat is None or now.physical:
        raise ServiceError.one("match", _("You have no online match to play now."))
    room = now.room if now.room is not None and now.room.status != Room.Status.FINISHED else \
        match_room_open(match_id=now.match.pk)
    token = owners.seat_claim(code=room.code, kind=KIND, owner_id=now.match.pk, seat=now.seat,
                              name=link.player.name)
    return room, now.seat, token


def player_link_account(*, link: PlayerLink, user: Any) -> PlayerLink:
    """The player, signed in, links their account to their player in this tournament: from then on the
    account's "My matches" page opens the player's matches without the link. Refused for a revoked link,
    another account already linked, or an account already linked to another player of the tournament."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError.one("user", _("Sign in first."))
    with transaction.atomic():
        link = PlayerLink.objects.select_for_update().select_related("tournament", "player").get(pk=link.pk)
        if link.revoked_at is not None:
            raise ServiceError.one("link", _("This link was revoked by the organizers."))
        if link.user_id not in (None, user.pk):
            raise ServiceError.one("user", _("Another account is already linked to this player."))
        other = (PlayerLink.objects.filter(tournament=link.tournament, user=user, revoked_at__isnull=True)
                 .exclude(player=link.player).exists())
        if other:
            raise ServiceError.one("user", _("Your account is already linked to another player of this tournament."))
        if link.user_id is None:
            link.user = user
            link.save(update_fields=["user"])
            audit(actor=Actor(user, "login"), action="player_link.account", tournament=link.tournament,
                  target=f"player:{link.player_id}")
        return link


def account_links(user: Any) -> list[PlayerLink]:
    """The live links of the players an account is linked to (running tournaments first)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(PlayerLink.objects.filter(user=user, revoked_at__isnull=True)
                .select_related("tournament", "player").order_by("-tournament__starts_on", "-tournament_id"))
