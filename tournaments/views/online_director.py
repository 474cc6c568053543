"""The director's page of online play, ``/tournaments/<pk>/online/`` (organizers only; docs/online.md,
"Tournament matches"): every open online match with its room's state — waiting for whom, the hand being
played, levels or totals, the clock, each seat's player, bot, readiness and connection; a link to watch the
table; a seat nobody holds given to a bot (a player who does not come); a table paused and resumed, a seat
replaced mid-match by a bot or by a substitute player (through the substitute's private link) — each an
audited service call (``tournaments.services.online_director``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import selectors
from tournaments.errors import NotAllowed, ServiceError, StaleVersion
from tournaments.models import Match, Stage, Tournament
from tournaments.permissions import is_organizer
from tournaments.selectors.online_tables import online_tables, table_full_view
from tournaments.services.common import Actor
from tournaments.services.hands import match_call_time
from tournaments.services.online_director import (
    online_seat_to_bot,
    online_seat_to_player,
    online_table_pause,
    online_table_resume,
)
from tournaments.services.online_noshow import no_show_rule, online_no_shows, stage_no_show_set
from tournaments.services.online_rooms import match_seat_bot, spectator_delay, stage_spectator_delay_set
from tournaments.services.player_links import tournament_players

DIRECTOR_ACTIONS = ("table_pause", "table_resume", "seat_to_bot", "seat_to_player")


def _number(value: object) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return -1



def _say_errors(request: HttpRequest, exc: ServiceError) -> None:
    """Each of a refused service call's problems as a message on the page."""
    for problems in exc.field_errors.values():
        for problem in problems:
            messages.error(request, problem)

@require_http_methods(["GET", "HEAD", "POST"])
def online_director(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    if request.method == "POST" and request.POST.get("action") in ("no_show", "no_show_now"):
        return _no_show_post(request, tournament)
    if request.method == "POST" and request.POST.get("action") == "spectator_delay":
        return _spectator_delay_post(request, tournament)
    if request.method == "POST" and request.POST.get("action") == "call_time":
        return _call_time_post(request, tournament)
    if request.method == "POST" and request.POST.get("action") in DIRECTOR_ACTIONS:
        return _director_post(request, tournament)
    if request.method == "POST":
        match = get_object_or_404(Match, pk=_number(request.POST.get("match")), stage__tournament=tournament)
        bot = None if request.POST.get("action") == "seat_free" else "normal"
        try:
            match_seat_bot(match_id=match.pk, seat=_number(request.POST.get("seat")), bot=bot,
                           actor=Actor(request.user, "login"))
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        except ServiceError as exc:
            _say_errors(request, exc)
        else:
            messages.success(request, _("Seat given to a bot.") if bot else _("The seat waits for its player again."))
        return HttpResponseRedirect(f"{request.path}#match-{match.pk}")
    tables = online_tables(tournament)
    rows = [{"table": t, "round": selectors.round_label(t.match.round.name)} for t in tables]
    stages = [{"stage": stage, "rule": no_show_rule(stage), "delay": spectator_delay(stage)}
              for stage in tournament.stages.exclude(status=Stage.Status.FINISHED).order_by("number")]
    return render(request, "tournaments/online_director.html", {
        "tournament": tournament, "is_organizer": True, "is_scorer": True, "rows": rows, "stages": stages,
        "players": tournament_players(tournament)})


def _no_show_post(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Set a stage's no-show rule, or apply the rules now."""
    actor = Actor(request.user, "login")
    if request.POST.get("action") == "no_show_now":
        done = online_no_shows(tournament=tournament)
        messages.success(request, _("No-show rule applied: %(n)d matches.") % {"n": len(done)})
        return HttpResponseRedirect(f"{request.path}#online-tables")
    stage = get_object_or_404(Stage, pk=_number(request.POST.get("stage")), tournament=tournament)
    action = request.POST.get("rule") or None
    try:
        stage_no_show_set(stage=stage, actor=actor, minutes=_number(request.POST.get("minutes")) if action else None,
                          action=action)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except ServiceError as exc:
        _say_errors(request, exc)
    else:
        messages.success(request, _("The no-show rule is saved."))
    return HttpResponseRedirect(f"{request.path}#no-show")


def _spectator_delay_post(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A stage's tables shown to spectators one trick behind, or live."""
    stage = get_object_or_404(Stage, pk=_number(request.POST.get("stage")), tournament=tournament)
    on = request.POST.get("delay") == "1"
    try:
        stage_spectator_delay_set(stage=stage, actor=Actor(request.user, "login"), on=on)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    messages.success(request, _("Spectators now see this stage's tables one trick behind.") if on
                     else _("Spectators now see this stage's tables live."))
    return HttpResponseRedirect(f"{request.path}#spectators")


@require_http_methods(["GET", "HEAD"])
def online_table_full(request: HttpRequest, pk: int, match_id: int) -> HttpResponse:
    """A director opens an online table with every hand visible (organizers only; ``?format=json`` gives the
    same as JSON). Everyone else is refused (403), whatever they know of the match."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    match = get_object_or_404(Match.objects.select_related("round"), pk=match_id, stage__tournament=tournament)
    view = table_full_view(match)
    if view is None:
        raise Http404(_("This match has no online table."))
    if request.GET.get("format") == "json":
        return JsonResponse(view, json_dumps_params={"ensure_ascii": False})
    return render(request, "tournaments/online_table_full.html", {
        "tournament": tournament, "is_organizer": True, "is_scorer": True, "match": match, "view": view,
        "round": selectors.round_label(match.round.name)})


def _call_time_post(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Call time on an online match (``match_call_time``: the side ahead wins; the hand being played at the
    table is then not recorded, and the room ends with it)."""
    match = get_object_or_404(Match, pk=_number(request.POST.get("match")), stage__tournament=tournament)
    try:
        match_call_time(match_id=match.pk, version=_number(request.POST.get("version")),
                        actor=Actor(request.user, "login"))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except StaleVersion:
        messages.error(request, _("The match moved on meanwhile: look again and call time again."))
    except ServiceError as exc:
        _say_errors(request, exc)
    else:
        messages.success(request, _("Time called: the match is decided by the levels."))
    return HttpResponseRedirect(f"{request.path}#match-{match.pk}")


def _director_post(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Pause or resume a match's table; give a seat to a bot or to a substitute player, mid-match."""
    match = get_object_or_404(Match, pk=_number(request.POST.get("match")), stage__tournament=tournament)
    action, actor, seat = request.POST.get("action"), Actor(request.user, "login"), _number(request.POST.get("seat"))
    try:
        if action == "table_pause":
            online_table_pause(match_id=match.pk, actor=actor)
            done = _("The table is paused: no action is accepted and no clock runs.")
        elif action == "table_resume":
            online_table_resume(match_id=match.pk, actor=actor)
            done = _("The table plays on.")
        elif action == "seat_to_bot":
            online_seat_to_bot(match_id=match.pk, seat=seat, actor=actor)
            done = _("A bot now plays this seat.")
        else:
            chosen = request.POST.get("player") or ""
            _room, link, token = online_seat_to_player(
                match_id=match.pk, seat=seat, actor=actor, player_id=_number(chosen) if chosen else None,
                name=request.POST.get("name") or "")
            url = request.build_absolute_uri(reverse("player-link", args=[token]))
            done = _("%(name)s now plays this seat: give them their link %(url)s") % {"name": link.player.name,
                                                                                    "url": url}
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except ServiceError as exc:
        _say_errors(request, exc)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(f"{request.path}#match-{match.pk}")
