"""The rooms of tournament matches played online (docs/online.md, "Tournament matches"): a match of an online
stage owns a room of :mod:`online` (``owner_kind="match"``).

:func:`match_room_open` opens the room of a ready match: its seats are the match's players — a team's two
players opposite each other as the team is registered (side 0 in seats 0 and 2, side 1 in 1 and 3), an
individual table's players in the seats of the draw. Nobody holds a seat until the player's private link hands
it over (:mod:`tournaments.services.player_links`). :func:`online_rooms_open` opens the rooms of every ready
online match of a tournament: called where matches become ready (a stage starts, a round is drawn, a match
finishes and the bracket moves on). The room owner's hooks are in :mod:`tournaments.services.online_matches`.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from config.i18n import core_lang
from online import owners
from online import services as online_services
from online.models import Room
from tournaments.errors import ServiceError
from tournaments.models import Match, OnlineSeatChange, Played, Stage, Tournament
from tournaments.services.common import Actor, audit, lock_match, require_organizer

KIND = "match"
"""The rooms' ``owner_kind`` of tournament matches."""
ONLINE = Actor(None, "online")
"""Who records the hands the engine played (the audit's ``via``)."""
OPEN = (Match.Status.READY, Match.Status.PLAYING)


def host_token(match_id: int) -> str:
    """The host token of a match's room (it places bots): derived from the site's secret key, stored nowhere
    (the room keeps its digest); the director's actions derive it again."""
    return salted_hmac("tournaments.online-match", f"match-room:{match_id}", algorithm="sha256").hexdigest()


def match_room(match: Match) -> Room | None:
    """The match's room (the newest), if it has one."""
    return owners.owned_room(KIND, match.pk)


def is_table(match: Match) -> bool:
    return match.stage.format == Stage.Format.TABLE_ROUNDS


def has_players(match: Match) -> bool:
    """Whether the match has its players: both sides, or an individual table's seats."""
    return match.seats.exists() if is_table(match) else match.entry0_id is not None and match.entry1_id is not None


def seat_players(match: Match) -> list[tuple[int, Any]]:
    """(seat, Player) of a match in seat order: a team's players opposite each other as registered; an
    individual table's players as drawn — but a seat the director replaced (``OnlineSeatChange``) is its
    substitute's, or nobody's while a bot plays it."""
    out = registered_players(match)
    changes = {c.seat: c.player for c in OnlineSeatChange.objects.filter(match=match).select_related("player")}
    if changes:
        out = [(seat, changes.get(seat, player)) for seat, player in out]
        out = [(seat, player) for seat, player in out if player is not None]
    return sorted(out, key=lambda pair: pair[0])


def registered_players(match: Match) -> list[tuple[int, Any]]:
    """(seat, Player) of a match as registered or drawn, in seat order (no director's replacement)."""
    if is_table(match):
        out = [(s.seat, s.entry.player) for s in match.seats.select_related("entry__player").order_by("seat")]
    else:
        out = []
        for side in (0, 1):
            entry = match.entry(side)
            if entry is None or entry.team is None:
                continue
            out += [(side, entry.team.player1), (side + 2, entry.team.player2)]
    return sorted(out, key=lambda pair: pair[0])


def spectator_delay(stage: Stage) -> bool:
    """Whether the stage's rooms show their spectators the table one trick behind
    (``Stage.settings["spectator_delay"]``, a boolean; off when absent)."""
    return bool((stage.settings or {}).get("spectator_delay"))


def stage_spectator_delay_set(*, stage: Stage, actor: Actor, on: bool) -> Stage:
    """Show the stage's online tables to their spectators one trick behind, or live (``on`` False): the
    stage's setting (the rooms opened from now on) and its rooms still playing; audited."""
    require_organizer(actor, stage.tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        settings = dict(stage.settings or {})
        if on:
            settings["spectator_delay"] = True
        else:
            settings.pop("spectator_delay", None)
        stage.settings = settings
        stage.save(update_fields=["settings", "updated_at"])
        codes = owners.spectator_delay_set(kind=KIND, owner_ids=list(stage.matches.values_list("pk", flat=True)), on=on)
        audit(actor=actor, action="stage.spectator_delay", tournament=stage.tournament, target=f"stage:{stage.pk}",
              data={"on": on, "rooms": codes})
    return stage


def match_room_open(*, match_id: int, actor: Actor = ONLINE) -> Room:
    """The room of an online match that is ready or playing (opened now if it has none, or its room's match
    is over while the match goes on); raises ServiceError for a match that is not online or not open."""
    with transaction.atomic():
        match = lock_match(match_id)
        tournament: Tournament = match.stage.tournament
        if not match.is_online:
            raise ServiceError.one("match", _("This match is played at the tables, not online."))
        if match.status not in OPEN or not has_players(match):
            raise ServiceError.one("match", _("This match is not ready to be played."))
        room = match_room(match)
        if room is not None and room.status != Room.Status.FINISHED:
            return room
        spec = tournament.spec
        table = is_table(match)
        players = int((match.state or {}).get("players") or tournament.players_per_table) if table else None
        created = online_services.room_create(
            variant=tournament.variant, options=dict(tournament.options or {}),
            decks=tournament.decks if len(spec.decks) > 1 else None, players=players if len(spec.players) > 1 else None,
            hands=(match.stage.hands_per_table or online_services.INDIVIDUAL_HANDS) - match.hands_played if table else None)
        names = [""] * created.room.players
        for seat, player in seat_players(match):
            if seat < len(names):
                names[seat] = player.name
        # a seat the director gave to a bot stays the bot's in the match's next room (a correction reopened it),
        # under the name of the player it plays for
        bots = list(OnlineSeatChange.objects.filter(match=match).exclude(bot="").order_by("seat"))
        for seat, player in registered_players(match) if bots else []:
            if seat < len(names) and not names[seat]:
                names[seat] = player.name
        room = owners.room_own(room=created.room, kind=KIND, owner_id=match.pk, host_token=host_token(match.pk),
                               names=names, spectator_delay=spectator_delay(match.stage))
        for change in bots:
            if change.seat < room.players:
                seat_bot_for(match=match, room=room, seat=change.seat, bot=change.bot)
        audit(actor=actor, action="match.room", tournament=tournament, target=f"match:{match.pk}",
              data={"room": room.code})
        return room


def online_rooms_open(*, tournament: Tournament) -> list[Room]:
    """Open the rooms of every ready online match of the tournament that has none (or whose room's match is
    over while the match goes on); the rooms opened."""
    opened: list[Room] = []
    if tournament.status != Tournament.Status.RUNNING:
        return opened
    online = Q(played=Played.ONLINE) | Q(played="", stage__played=Played.ONLINE)
    seated = Q(section="table") | Q(entry0__isnull=False, entry1__isnull=False)
    ids = list(Match.objects.filter(online, seated, stage__tournament=tournament, status__in=OPEN)
               .order_by("stage__number", "round__number", "position").values_list("pk", flat=True))
    newest: dict[int, str] = {}  # each match's newest room's status (one query, whatever the number of tables)
    for owner_id, status in (Room.objects.filter(owner_kind=KIND, owner_id__in=ids).order_by("id")
                             .values_list("owner_id", "status")):
        newest[int(owner_id or 0)] = status
    for match_id in ids:
        if newest.get(match_id) in (None, Room.Status.FINISHED):
            opened.append(match_room_open(match_id=match_id))
    return opened


def match_seat_bot(*, match_id: int, seat: int, actor: Actor, bot: str | None = "normal") -> Room:
    """A director gives a seat of an online match's waiting room to a bot (a player who does not come), or
    takes it back (``bot`` None). Only a seat no player holds; audited."""
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    require_organizer(actor, match.stage.tournament)
    room = match_room(match)
    if room is None or room.status != Room.Status.WAITING:
        raise ServiceError.one("seat", _("Seats are given to bots only while the table waits for its players."))
    seat_bot_for(match=match, room=room, seat=seat, bot=bot)
    audit(actor=actor, action="match.seat_bot", tournament=match.stage.tournament, target=f"match:{match.pk}",
          data={"room": room.code, "seat": seat, "bot": bot})
    room.refresh_from_db()
    return room


def seat_bot_for(*, match: Match, room: Room, seat: int, bot: str | None) -> None:
    """The room's host (the match) gives ``seat`` to a bot (None: takes it back); raises ServiceError with
    the room's refusal (a player's seat, the match started)."""
    room.refresh_from_db()
    try:
        online_services.seat_bot(code=room.code, host_token=host_token(match.pk), seat=seat, bot=bot,
                                 action_id=f"director-{room.version}-{seat}", version=room.version)
    except online_services.OnlineError as exc:
        raise ServiceError.one("seat", exc.message[core_lang()]) from None


def release_paused_table(match_id: int) -> None:
    """After commit, when a director decided a match (time called, an award) while its online table was
    paused: the table resumes, so the hand in progress plays out and the room ends (a hand of a decided
    match is not recorded: online_matches.py). Without it the room stayed paused for good."""

    def release() -> None:
        match = Match.objects.filter(pk=match_id).first()
        room = match_room(match) if match is not None else None
        if room is not None and room.paused and room.status != Room.Status.FINISHED:
            online_services.room_pause(code=room.code, host_token=host_token(match_id), paused=False)

    transaction.on_commit(release)
