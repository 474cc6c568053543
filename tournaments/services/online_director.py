"""The director's hand on an online match being played (docs/online.md, "Tournament matches"): pause and resume
its table, give a seat to a bot or to a substitute player (who takes it through their private link) — mid-hand
too. Each is an audited service call, organizers only; a finished match (or one whose table is over) is
refused with a clear message and nothing is written.

The room's writes (``online.services.room_pause`` / ``seat_replace``) lock the room row first; the match row
is only read here, never locked before the room (the room owner's hooks lock the match while the room is held:
docs/online.md, "The owner hook")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.i18n import core_lang
from online import services as online_services
from online.models import Room
from tournaments.errors import ServiceError
from tournaments.models import Match, OnlineSeatChange, Player, PlayerLink, Tournament
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.online_rooms import host_token, match_room, seat_players
from tournaments.services.player_links import link_token, player_link_for_player

__all__ = ["online_seat_to_bot", "online_seat_to_player", "online_table_pause", "online_table_resume"]


def _table(match_id: int, actor: Actor) -> tuple[Match, Tournament, Room]:
    """The match and its room, for an organizer; refused for a match that is over or has no table playing."""
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    tournament: Tournament = match.stage.tournament
    require_organizer(actor, tournament)
    if match.status in (Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID):
        raise ServiceError.one("match", _("This match is finished: its table can no longer be changed."))
    if not match.is_online:
        raise ServiceError.one("match", _("This match is played at the tables, not online."))
    room = match_room(match)
    if room is None or room.status == Room.Status.FINISHED:
        raise ServiceError.one("match", _("This match has no online table in play."))
    return match, tournament, room


def _refused(exc: online_services.OnlineError) -> ServiceError:
    return ServiceError.one("match" if exc.field is None else exc.field, exc.message[core_lang()])


def _pause(match_id: int, actor: Actor, paused: bool) -> Room:
    match, tournament, room = _table(match_id, actor)
    with transaction.atomic():
        try:
            answer = online_services.room_pause(code=room.code, host_token=host_token(match.pk), paused=paused)
        except online_services.OnlineError as exc:
            raise _refused(exc) from None
        if not answer.repeated:
            audit(actor=actor, action="match.table_pause" if paused else "match.table_resume", tournament=tournament,
                  target=f"match:{match.pk}", data={"room": room.code})
    room.refresh_from_db()
    return room


def online_table_pause(*, match_id: int, actor: Actor) -> Room:
    """Pause the match's table: no action is accepted, no clock runs, no bot moves (audited ``match.table_pause``)."""
    return _pause(match_id, actor, True)


def online_table_resume(*, match_id: int, actor: Actor) -> Room:
    """Resume the match's table: the seat to act gets its whole clock again (audited ``match.table_resume``)."""
    return _pause(match_id, actor, False)


def _seat_holder(match: Match, seat: int) -> Any:
    return next((p for s, p in seat_players(match) if s == seat), None)


def online_seat_to_bot(*, match_id: int, seat: int, actor: Actor, bot: str = "normal") -> Room:
    """A bot plays ``seat`` from now on (mid-hand too: it plays the seat's next turn); the player's device no
    longer plays it and the player's link no longer opens it. Audited ``match.seat_replace``."""
    match, tournament, room = _table(match_id, actor)
    with transaction.atomic():
        before = _seat_holder(match, seat)
        try:
            online_services.seat_replace(code=room.code, host_token=host_token(match.pk), seat=seat, bot=bot)
        except online_services.OnlineError as exc:
            raise _refused(exc) from None
        OnlineSeatChange.objects.update_or_create(match=match, seat=seat, defaults={"player": None, "bot": bot})
        audit(actor=actor, action="match.seat_replace", tournament=tournament, target=f"match:{match.pk}",
              data={"room": room.code, "seat": seat, "bot": bot, "replaced": before.pk if before else None})
    room.refresh_from_db()
    return room


def online_seat_to_player(*, match_id: int, seat: int, actor: Actor, player_id: int | None = None,
                          name: str = "") -> tuple[Room, PlayerLink, str]:
    """A substitute plays ``seat`` from now on: an existing ``player_id``, or a new player named ``name``. The
    seat's earlier device no longer plays; the substitute gets it by opening their private link (made if they
    have none: returned with its token). Audited ``match.seat_replace``."""
    match, tournament, room = _table(match_id, actor)
    with transaction.atomic():
        if player_id is not None:
            player = Player.objects.filter(pk=player_id).first()
            if player is None:
                raise ServiceError.one("player", _("There is no such player."))
        else:
            name = (name or "").strip()
            if not name or len(name) > 100:
                raise ServiceError.one("name", _("Give the substitute's name (1 to 100 characters)."))
            player = Player(name=name)
            try:
                player.full_clean(validate_constraints=False)
            except ValidationError as exc:
                raise ServiceError.one("name", " ".join(exc.messages)) from None
            player.save()
        before = _seat_holder(match, seat)
        try:
            online_services.seat_replace(code=room.code, host_token=host_token(match.pk), seat=seat, bot=None,
                                         name=player.name)
        except online_services.OnlineError as exc:
            raise _refused(exc) from None
        OnlineSeatChange.objects.update_or_create(match=match, seat=seat, defaults={"player": player, "bot": ""})
        link = player_link_for_player(tournament=tournament, player=player)
        audit(actor=actor, action="match.seat_replace", tournament=tournament, target=f"match:{match.pk}",
              data={"room": room.code, "seat": seat, "player": player.pk, "replaced": before.pk if before else None})
    room.refresh_from_db()
    return room, link, link_token(link)
