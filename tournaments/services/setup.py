"""Setting a tournament up: players, teams, the tournament, its entries, its staff, its status."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

import variants
from tournaments.errors import ServiceError
from tournaments.models import Club, Entry, Match, Player, Team, Tournament, Variant
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.options import options_validate
from tournaments.services.ratings import ratings_after_commit, ratings_forget
from tournaments.services.transfer import entry_check_in

STATUS_FLOW: dict[str, set[str]] = {
    Tournament.Status.DRAFT: {Tournament.Status.REGISTRATION},
    Tournament.Status.REGISTRATION: {Tournament.Status.DRAFT},
    Tournament.Status.RUNNING: {Tournament.Status.FINISHED},
    Tournament.Status.FINISHED: set(),
}


def _clean_name(value: Any, field: str = "name", max_length: int = 100) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ServiceError.one(field, _("A name is required."))
    value = " ".join(value.split())
    if len(value) > max_length:
        raise ServiceError.one(field, _("At most %(n)s characters.") % {"n": max_length})
    return value


def player_create(*, name: Any, club: str = "", contact: str = "", rating: int | None = None,
                  is_private: bool = False, actor: Actor) -> Player:
    """A new player; ``is_private`` keeps them off the public ladders and rating pages."""
    with transaction.atomic():
        player = Player.objects.create(name=_clean_name(name), club=(club or "").strip(),
                                       contact=(contact or "").strip(), rating=rating, is_private=bool(is_private))
        audit(actor=actor, action="player.create", tournament=None, target=f"player:{player.pk}",
              data={"name": player.name})
        return player


def team_create(*, name: Any, player1: Player, player2: Player, club: str = "", rating: int | None = None,
                actor: Actor) -> Team:
    if player1.pk == player2.pk:
        raise ServiceError.one("player2", _("A team needs two different players."))
    with transaction.atomic():
        team = Team.objects.create(name=_clean_name(name), player1=player1, player2=player2,
                                   club=(club or "").strip(), rating=rating)
        audit(actor=actor, action="team.create", tournament=None, target=f"team:{team.pk}",
              data={"name": team.name, "players": [player1.pk, player2.pk]})
        return team


MAX_SEED = 2**31 - 1  # the largest seed the database column holds


def tournament_create(*, owner: Any, name: Any, variant: str = "tractor", options: Mapping[str, Any] | None = None,
                      decks: int = 2, players_per_table: int = 4, starts_on: dt.date | None = None,
                      ends_on: dt.date | None = None, venue: str = "", is_public: bool = True,
                      require_confirmation: bool = False, seat_names: str = "numbers", club: Club | None = None,
                      rate_awarded: bool = False) -> Tournament:
    if variant not in Variant.values:
        raise ServiceError.one("variant", _("Unknown variant; choose one of %(v)s.") % {"v": ", ".join(Variant.values)})
    spec = variants.get(variant)
    if decks not in (2, 3) or decks not in spec.decks:
        raise ServiceError.one("decks", _("Only red five may be played with 3 decks; otherwise 2."))
    if players_per_table not in (3, 4) or players_per_table not in spec.players:
        raise ServiceError.one("players_per_table", _("Only Yongzhou 300 may be played with 3 players; otherwise 4."))
    if starts_on and ends_on and ends_on < starts_on:
        raise ServiceError.one("ends_on", _("The tournament cannot end before it starts."))
    _check_seat_names(seat_names)
    options = options_validate(variant=variant, options=options, decks=decks, players=players_per_table)
    actor = Actor(owner)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            owner=owner, name=_clean_name(name, max_length=200), variant=variant, options=options, decks=decks,
            players_per_table=players_per_table, starts_on=starts_on, ends_on=ends_on, venue=(venue or "").strip(),
            is_public=is_public, require_confirmation=require_confirmation, seat_names=seat_names, club=club,
            rate_awarded=bool(rate_awarded),
        )
        audit(actor=actor, action="tournament.create", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={"name": tournament.name, "variant": variant, "options": options})
        return tournament



def player_update(*, player: Player, actor: Actor, **changes: Any) -> Player:
    """Change a player's name, club, contact, rating or privacy (the API lets staff do it)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if "name" in changes:
            changes["name"] = _clean_name(changes["name"])
        for key, value in changes.items():
            setattr(player, key, value)
        player.save()
        audit(actor=actor, action="player.update", tournament=None, target=f"player:{player.pk}",
              data={k: str(v) for k, v in changes.items()})
        return player


def player_delete(*, player: Player, actor: Actor) -> None:
    """Delete a player who is in no team and no entry (else a ServiceError on ``id``)."""
    with transaction.atomic():
        pk, name = player.pk, player.name
        try:
            with transaction.atomic():
                player.delete()
        except ProtectedError as exc:
            raise ServiceError.one("id", _("This player is in a team or an entry.")) from exc
        audit(actor=actor, action="player.delete", tournament=None, target=f"player:{pk}", data={"name": name})


def team_update(*, team: Team, actor: Actor, **changes: Any) -> Team:
    """Change a team's name, players, club or rating (the API lets staff do it)."""
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        if "name" in changes:
            changes["name"] = _clean_name(changes["name"])
        for key, value in changes.items():
            setattr(team, key, value)
        if team.player1_id == team.player2_id:
            raise ServiceError.one("player2", _("A team needs two different players."))
        team.save()
        audit(actor=actor, action="team.update", tournament=None, target=f"team:{team.pk}",
              data={k: str(getattr(v, "pk", v)) for k, v in changes.items()})
        return team


def team_delete(*, team: Team, actor: Actor) -> None:
    """Delete a team (its entries go with it, as the database says)."""
    with transaction.atomic():
        pk, name = team.pk, team.name
        team.delete()
        audit(actor=actor, action="team.delete", tournament=None, target=f"team:{pk}", data={"name": name})

EDITABLE = ("name", "venue", "starts_on", "ends_on", "is_public", "options", "require_confirmation", "seat_names",
            "club", "rate_awarded")
RATED_AS = ("club", "rate_awarded")  # what decides how the tournament's results count for the ratings


def _check_seat_names(value: str) -> None:
    if value not in Tournament.SeatNames.values:
        raise ServiceError.one("seat_names", _("Seats are named by numbers or by winds: choose one of %(v)s.")
                               % {"v": ", ".join(Tournament.SeatNames.values)})


def _access_changed(tournament_id: int) -> None:
    """After the commit: the tournament's live watchers check again whether they may watch
    (``live_push.push_access``; docs/tournaments.md, "Live pages")."""
    from tournaments.services.live_push import push_access

    transaction.on_commit(lambda: push_access(tournament_id))


def tournament_update(*, tournament: Tournament, actor: Actor, **changes: Any) -> Tournament:
    require_organizer(actor, tournament)
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise ServiceError({k: [_("This field cannot be changed here.")] for k in sorted(unknown)})
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if "options" in changes and tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            raise ServiceError.one("options", _("Rule options cannot change once the tournament has started."))
        if "name" in changes:
            changes["name"] = _clean_name(changes["name"], max_length=200)
        if "seat_names" in changes:
            _check_seat_names(changes["seat_names"])
        if "options" in changes:
            changes["options"] = options_validate(variant=tournament.variant, options=changes["options"],
                                                  decks=tournament.decks, players=tournament.players_per_table)
        starts = changes.get("starts_on", tournament.starts_on)
        ends = changes.get("ends_on", tournament.ends_on)
        if starts and ends and ends < starts:
            raise ServiceError.one("ends_on", _("The tournament cannot end before it starts."))
        rated_as = [getattr(tournament, key) for key in RATED_AS]
        was_public = tournament.is_public
        for key, value in changes.items():
            setattr(tournament, key, value)
        tournament.save()
        if was_public and not tournament.is_public:  # made private: the public's live watchers are closed
            _access_changed(tournament.pk)
        audit(actor=actor, action="tournament.update", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={k: str(v) for k, v in changes.items()})
        if rated_as != [getattr(tournament, key) for key in RATED_AS]:
            ratings_after_commit(Match.objects.filter(stage__tournament=tournament).values_list("pk", flat=True))
        return tournament


def tournament_delete(*, tournament: Tournament, actor: Actor) -> None:
    """Delete a draft tournament. Its own audit log goes with it, so the deletion is logged without one."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status != Tournament.Status.DRAFT:
            raise ServiceError.one("status", _("Only a draft tournament can be deleted."))
        pk, name = tournament.pk, tournament.name
        ratings_forget(match_ids=Match.objects.filter(stage__tournament=tournament).values_list("pk", flat=True))
        tournament.delete()
        audit(actor=actor, action="tournament.delete", tournament=None, target=f"tournament:{pk}",
              data={"name": name})


def tournament_set_status(*, tournament: Tournament, status: str, actor: Actor) -> Tournament:
    """Draft ⇄ registration, running → finished. Starting is :func:`tournament_start`."""
    require_organizer(actor, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if status not in STATUS_FLOW.get(tournament.status, set()):
            raise ServiceError.one("status", _("A tournament cannot go from %(a)s to %(b)s here.")
                                   % {"a": tournament.status, "b": status})
        if status == Tournament.Status.FINISHED:
            open_matches = Match.objects.filter(stage__tournament=tournament).exclude(
                status__in=[Match.Status.FINISHED, Match.Status.VOID]).count()
            if open_matches:
                raise ServiceError.one("status", _("%(n)s match(es) are not finished: finish or award them first.")
                                       % {"n": open_matches})
        old = tournament.status
        tournament.status = status
        tournament.save(update_fields=["status", "updated_at"])
        if status == Tournament.Status.DRAFT:  # a draft is its staff's only: the others' live watchers are closed
            _access_changed(tournament.pk)
        audit(actor=actor, action="tournament.status", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={"from": old, "to": status})
        return tournament


def staff_add(*, tournament: Tournament, username: str, role: str, actor: Actor) -> Any:
    """Add a co-organizer (``role="organizer"``) or a scorer (``role="scorer"``) by user name."""
    require_organizer(actor, tournament)
    if role not in ("organizer", "scorer"):
        raise ServiceError.one("role", _("The role is organizer or scorer."))
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ServiceError.one("username", _("No user has this name."))
    with transaction.atomic():
        (tournament.organizers if role == "organizer" else tournament.scorers).add(user)
        audit(actor=actor, action=f"staff.{role}.add", tournament=tournament, target=f"user:{user.pk}",
              data={"username": user.get_username()})
    return user


def entry_add(*, tournament: Tournament, actor: Actor, team: Team | None = None, player: Player | None = None,
              seed: int | None = None) -> Entry:
    require_organizer(actor, tournament)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise ServiceError.one("tournament", _("Entries can be added only before the tournament starts."))
    if tournament.is_partnership and (team is None or player is not None):
        raise ServiceError.one("team", _("This variant is played by teams of two: enter a team."))
    if not tournament.is_partnership and (player is None or team is not None):
        raise ServiceError.one("player", _("This variant is played individually: enter a player."))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= MAX_SEED):
        raise ServiceError.one("seed", _("A seed is a whole number from 1."))
    try:
        with transaction.atomic():
            entry = Entry.objects.create(tournament=tournament, team=team, player=player, seed=seed)
            audit(actor=actor, action="entry.add", tournament=tournament, target=f"entry:{entry.pk}",
                  data={"name": entry.name, "seed": seed})
    except IntegrityError as exc:
        text = str(exc)
        if "seed" in text:
            raise ServiceError.one("seed", _("Another entry already has this seed.")) from exc
        raise ServiceError.one("team" if team else "player", _("Already entered in this tournament.")) from exc
    return entry


def entries_seed(*, tournament: Tournament, seeds: Mapping[int, int | None], actor: Actor) -> None:
    """Set the seeds of several entries at once (entry id → seed, or None to clear)."""
    require_organizer(actor, tournament)
    values = [s for s in seeds.values() if s is not None]
    if any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_SEED for s in values):
        raise ServiceError.one("seeds", _("A seed is a whole number from 1."))  # checked first: lists are unhashable
    if len(values) != len(set(values)):
        raise ServiceError.one("seeds", _("Two entries cannot share a seed."))
    with transaction.atomic():
        entries = {e.pk: e for e in tournament.entries.select_for_update()}
        missing = [pk for pk in seeds if pk not in entries]
        if missing:
            raise ServiceError.one("seeds", _("Not entries of this tournament: %(ids)s") % {"ids": missing})
        tournament.entries.filter(pk__in=list(seeds)).update(seed=None)
        for pk, seed in seeds.items():
            if seed is not None:
                Entry.objects.filter(pk=pk).update(seed=seed)
        audit(actor=actor, action="entries.seed", tournament=tournament, target=f"tournament:{tournament.pk}",
              data={str(k): v for k, v in seeds.items()})


def entry_withdraw(*, entry: Entry, actor: Actor) -> Entry:
    require_organizer(actor, entry.tournament)
    if entry.tournament.status != Tournament.Status.DRAFT and entry.tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError.one("entry", _("Once the tournament runs, record a forfeit instead of withdrawing."))
    with transaction.atomic():
        entry.status = Entry.Status.WITHDRAWN
        entry.seed = None
        entry.save(update_fields=["status", "seed", "updated_at"])
        audit(actor=actor, action="entry.withdraw", tournament=entry.tournament, target=f"entry:{entry.pk}")
    return entry


def entry_update(*, entry: Entry, actor: Actor, changes: Mapping[str, Any]) -> Entry:
    """The API's PATCH of an entry, in order: check-in (``checked_in``), ``seed``, then ``status``
    (only withdrawing); each change is its own write, as when made one by one."""
    if "checked_in" in changes:
        if not isinstance(changes["checked_in"], bool):
            raise ServiceError.one("checked_in", _("Must be true or false."))
        entry_check_in(entry=entry, present=changes["checked_in"], actor=actor)
    if "seed" in changes:
        entries_seed(tournament=entry.tournament, actor=actor, seeds={entry.pk: changes["seed"]})
    if changes.get("status") == Entry.Status.WITHDRAWN:
        entry_withdraw(entry=entry, actor=actor)
    elif "status" in changes and changes["status"] != entry.status:
        raise ServiceError.one("status", _("An entry can only be withdrawn."))
    return entry
