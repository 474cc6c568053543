"""The no-show rule of online stages (docs/online.md, "Tournament matches"): a stage may say "wait N minutes
after a match's room opened, then a bot plays each seat nobody took" or "… then the side with an absent
player forfeits" (both sides absent: the higher seed goes on, as at check-in). Stored in
``Stage.settings["no_show"]`` (``{"minutes": N, "action": "bot"|"forfeit"}``); individual tables always use
bots (a table has no side to forfeit).

:func:`online_no_shows` applies the rule to every room that waited long enough: the periodic task
``tournaments.online_no_shows`` (with a broker), the director's "Apply the no-show rule now" button, or a
management call. Each decision is an audited service call made on the organizers' behalf (``via="online"``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from online.models import Room, Seat
from tournaments.errors import ServiceError
from tournaments.models import Match, Stage, Tournament
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.online_rooms import KIND, is_table, seat_bot_for
from tournaments.services.results import match_award

ACTIONS = ("bot", "forfeit")


def no_show_rule(stage: Stage) -> tuple[int, str] | None:
    """The stage's rule: (minutes, action), or None."""
    rule = (stage.settings or {}).get("no_show")
    if not isinstance(rule, dict) or rule.get("action") not in ACTIONS:
        return None
    try:
        return max(0, int(rule.get("minutes", 0))), str(rule["action"])
    except (TypeError, ValueError):
        return None


def stage_no_show_set(*, stage: Stage, actor: Actor, minutes: Any, action: str | None) -> Stage:
    """Set (``action`` "bot" or "forfeit", after ``minutes`` 0–240) or clear (``action`` None) the rule."""
    require_organizer(actor, stage.tournament)
    if action is not None:
        if action not in ACTIONS:
            raise ServiceError.one("action", _("After the wait, a bot plays the seat or the side forfeits."))
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 240:
            raise ServiceError.one("minutes", _("Wait 0 to 240 minutes."))
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        settings = dict(stage.settings or {})
        if action is None:
            settings.pop("no_show", None)
        else:
            settings["no_show"] = {"minutes": minutes, "action": action}
        stage.settings = settings
        stage.save(update_fields=["settings", "updated_at"])
        audit(actor=actor, action="stage.no_show", tournament=stage.tournament, target=f"stage:{stage.pk}",
              data={"minutes": minutes, "action": action})
        return stage


def _absent(room: Room) -> list[int]:
    return [s.seat for s in Seat.objects.filter(room=room, bot__isnull=True, token_digest="").order_by("seat")]


def _apply(match: Match, room: Room, action: str, minutes: int) -> str:
    """Apply the rule to one waiting room; what was done ("" nothing)."""
    absent = _absent(room)
    if not absent:
        return ""
    tournament: Tournament = match.stage.tournament
    actor = Actor(tournament.owner, "online")
    if action == "bot" or is_table(match):
        for seat in absent:
            seat_bot_for(match=match, room=room, seat=seat, bot="normal")
        done = "bot"
    else:
        sides = {seat % 2 for seat in absent}
        winner = 0 if sides == {0, 1} else 1 - sides.pop()
        match_award(match_id=match.pk, winner_side=winner, kind="forfeit", actor=actor,
                    reason=_("No-show: not at the online table %(n)s minutes after it opened.") % {"n": minutes})
        done = "forfeit"
    audit(actor=actor, action="match.no_show", tournament=tournament, target=f"match:{match.pk}",
          data={"room": room.code, "seats": absent, "action": done, "minutes": minutes})
    return done


def online_no_shows(*, tournament: Tournament | None = None, now: datetime | None = None) -> list[tuple[int, str]]:
    """Apply the no-show rule to every waiting room of an online match whose wait is over (of one
    tournament, or all); the (match id, "bot"|"forfeit") decisions made."""
    now = now or timezone.now()
    rooms = Room.objects.filter(owner_kind=KIND, status=Room.Status.WAITING)
    matches = {m.pk: m for m in Match.objects.filter(pk__in=rooms.values("owner_id"), status__in=(
        Match.Status.READY, Match.Status.PLAYING)).select_related("stage__tournament__owner")}
    done: list[tuple[int, str]] = []
    for room in rooms.order_by("id"):
        match = matches.get(int(room.owner_id or 0))
        if match is None or (tournament is not None and match.stage.tournament_id != tournament.pk):
            continue
        rule = no_show_rule(match.stage)
        if rule is None or room.created_at + timedelta(minutes=rule[0]) > now:
            continue
        what = _apply(match, room, rule[1], rule[0])
        if what:
            done.append((match.pk, what))
    return done
