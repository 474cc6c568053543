"""Organizer pages: create, manage (one handler per posted action), export and import a tournament.

Organizer pages send anonymous visitors to the login page and answer 403 to signed-in users
without the role."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from safety.idempotency import idempotent_page
from tournaments import selectors, services
from tournaments.errors import NotAllowed, ServiceError, StaleVersion
from tournaments.forms import (
    AwardForm,
    CsvForm,
    JsonImportForm,
    PairForm,
    QuickPlayerForm,
    QuickTeamForm,
    StaffForm,
    StageForm,
    StartForm,
    TournamentEditForm,
    TournamentForm,
    add_service_errors,
)
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.selectors import pages
from tournaments.selectors import venue as venue_selectors
from tournaments.services import hands as hand_services
from tournaments.services import results as result_services
from tournaments.services import setup as setup_services
from tournaments.services import stages as stage_services
from tournaments.services import transfer as transfer_services
from tournaments.services import venue as venue_services
from tournaments.views.common import (
    organizer_tournament,
    roles,
)


def _remapped(exc: ServiceError, names: dict[str, str]) -> ServiceError:
    return ServiceError({names.get(k, k): v for k, v in exc.field_errors.items()})


# --------------------------------------------------------------------------- organizer pages

@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may create a tournament; they become its owner (as in the API)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = setup_services.tournament_create(owner=request.user, **form.cleaned_data)
        except ServiceError as exc:
            add_service_errors(form, form.add_option_errors(exc.field_errors))
        else:
            messages.success(request, _("Tournament “%(name)s” created. Now add the teams.") % {"name": tournament.name})
            return redirect("tournament-manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page(read_only_actions=("csv_preview",))
def tournament_manage(request: HttpRequest, pk: int, part: str = "day") -> HttpResponse:
    """The organizer's page in two parts (issue 28): ``/manage/`` holds what is done on the day (check-in,
    starting stages, tables and their links, confirmations, printing), ``/manage/settings/`` the rest
    (CSV import, awards, staff, export, details). Both take every action; a form answered with its
    errors is shown on the part that holds it."""
    tournament = organizer_tournament(request, pk)
    bound: dict[str, Any] = {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        handler = MANAGE_HANDLERS.get(action)
        if handler is None:
            messages.error(request, _("Unknown action."))
            return redirect("tournament-manage", pk=pk)
        try:
            answer = handler(request, tournament)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        if isinstance(answer, HttpResponse):
            return answer
        bound = answer
        part = "settings" if action in SETTINGS_ACTIONS else "day"
        tournament.refresh_from_db()
    context = _manage_context(request, tournament, bound)
    context["part"] = part
    return render(request, "tournaments/manage.html", context)


SETTINGS_ACTIONS = frozenset({"details", "staff", "award", "csv_preview", "csv_import"})
"""The actions whose forms are on the settings part of the manage page."""
SETTINGS_ANCHORS = frozenset({"details", "staff", "award", "csv", "transfer"})


def _back(tournament: Tournament, anchor: str = "") -> HttpResponseRedirect:
    name = "tournament-manage-settings" if anchor in SETTINGS_ANCHORS else "tournament-manage"
    url = reverse(name, args=[tournament.pk])
    return HttpResponseRedirect(f"{url}#{anchor}" if anchor else url)


def _actor(request: HttpRequest) -> services.Actor:
    return services.Actor(request.user, "login")


def _manage_details(request: HttpRequest, tournament: Tournament) -> Any:
    form = TournamentEditForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            setup_services.tournament_update(tournament=tournament, actor=_actor(request), **form.changes())
        except ServiceError as exc:
            add_service_errors(form, form.add_option_errors(exc.field_errors))
        else:
            messages.success(request, _("Details saved."))
            return _back(tournament, "details")
    return {"details_form": form}


def _manage_status(request: HttpRequest, tournament: Tournament) -> Any:
    try:
        setup_services.tournament_set_status(tournament=tournament, status=request.POST.get("status", ""),
                                             actor=_actor(request))
    except ServiceError as exc:
        for errors in exc.field_errors.values():
            for message in errors:
                messages.error(request, message)
    else:
        messages.success(request, _("Status changed."))
    return _back(tournament)


def _manage_team(request: HttpRequest, tournament: Tournament) -> Any:
    form = QuickTeamForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        actor = _actor(request)
        try:
            with transaction.atomic():
                try:
                    p1 = setup_services.player_create(name=d["player1"], club=d["club"], actor=actor)
                except ServiceError as exc:
                    raise _remapped(exc, {"name": "player1"}) from exc
                try:
                    p2 = setup_services.player_create(name=d["player2"], club=d["club"], actor=actor)
                except ServiceError as exc:
                    raise _remapped(exc, {"name": "player2"}) from exc
                team = setup_services.team_create(name=d["name"] or f"{p1.name} / {p2.name}", player1=p1, player2=p2,
                                                  club=d["club"], rating=d["rating"], actor=actor)
                setup_services.entry_add(tournament=tournament, team=team, seed=d["seed"], actor=actor)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Team “%(name)s” entered.") % {"name": team.name})
            return _back(tournament, "entries")
    return {"team_form": form}


def _manage_player(request: HttpRequest, tournament: Tournament) -> Any:
    form = QuickPlayerForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        actor = _actor(request)
        try:
            with transaction.atomic():
                player = setup_services.player_create(name=d["name"], club=d["club"], rating=d["rating"], actor=actor)
                setup_services.entry_add(tournament=tournament, player=player, seed=d["seed"], actor=actor)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Player “%(name)s” entered.") % {"name": player.name})
            return _back(tournament, "entries")
    return {"player_form": form}


def _manage_seeds(request: HttpRequest, tournament: Tournament) -> Any:
    seeds: dict[int, int | None] = {}
    errors: list[str] = []
    for entry in tournament.entries.filter(status=Entry.Status.ACTIVE):
        raw = request.POST.get(f"seed_{entry.pk}", "").strip()
        if not raw:
            seeds[entry.pk] = None
        elif raw.isdigit() and int(raw) >= 1:
            seeds[entry.pk] = int(raw)
        else:
            errors.append(_("%(name)s: a seed is a whole number from 1.") % {"name": entry.name})
    if not errors:
        try:
            setup_services.entries_seed(tournament=tournament, seeds=seeds, actor=_actor(request))
        except ServiceError as exc:
            errors = [m for messages_ in exc.field_errors.values() for m in messages_]
        else:
            messages.success(request, _("Seeds saved."))
            return _back(tournament, "entries")
    return {"seed_errors": errors, "seed_values": {k: request.POST.get(f"seed_{k}", "") for k in seeds}}


def _manage_withdraw(request: HttpRequest, tournament: Tournament) -> Any:
    entry = get_object_or_404(Entry, pk=request.POST.get("entry") or 0, tournament=tournament)
    try:
        setup_services.entry_withdraw(entry=entry, actor=_actor(request))
    except ServiceError as exc:
        for errors in exc.field_errors.values():
            for message in errors:
                messages.error(request, message)
    else:
        messages.success(request, _("“%(name)s” withdrawn.") % {"name": entry.name})
    return _back(tournament, "entries")


def _manage_staff(request: HttpRequest, tournament: Tournament) -> Any:
    form = StaffForm(request.POST)
    if form.is_valid():
        try:
            user = setup_services.staff_add(tournament=tournament, actor=_actor(request), **form.cleaned_data)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("%(user)s added.") % {"user": user.get_username()})
            return _back(tournament, "staff")
    return {"staff_form": form}


def _manage_start(request: HttpRequest, tournament: Tournament) -> Any:
    form = StartForm(request.POST)
    if form.is_valid():
        try:
            stage_services.tournament_start(tournament=tournament, actor=_actor(request), **form.cleaned_data)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("The tournament has started: the bracket is drawn and the first tables are ready."))
            return _back(tournament, "tables")
    return {"start_form": form}


def _manage_award(request: HttpRequest, tournament: Tournament) -> Any:
    form = AwardForm(request.POST, matches=pages.open_matches(tournament))
    if form.is_valid():
        d = form.cleaned_data
        try:
            result_services.match_award(match_id=d["match"], winner_side=d["winner_side"], reason=d["reason"],
                                         kind=d["kind"], actor=_actor(request))
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Result awarded; the bracket has advanced."))
            return _back(tournament, "tables")
    return {"award_form": form}


def _error_messages(request: HttpRequest, exc: ServiceError) -> None:
    for errors in exc.field_errors.values():
        for message in errors:
            messages.error(request, message)


def _posted_stage(request: HttpRequest, tournament: Tournament) -> Stage:
    return get_object_or_404(Stage, pk=request.POST.get("stage") or 0, tournament=tournament)


def _posted_match(request: HttpRequest, tournament: Tournament) -> Match:
    return get_object_or_404(Match, pk=request.POST.get("match") or 0, stage__tournament=tournament)


def _manage_stage_create(request: HttpRequest, tournament: Tournament) -> Any:
    form = StageForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            stage = stage_services.stage_create(tournament=tournament, actor=_actor(request), **form.service_kwargs())
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Stage “%(name)s” added. Start it when the entries are ready.")
                             % {"name": str(stage)})  # a stage without a name: its format
            return _back(tournament, "stages")
    return {"stage_form": form}


def _manage_stage_start(request: HttpRequest, tournament: Tournament) -> Any:
    stage = _posted_stage(request, tournament)
    try:
        stage_services.stage_start(stage=stage, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
        return _back(tournament, "stages")
    messages.success(request, _("Stage “%(name)s” started: the first tables are ready.") % {"name": str(stage)})
    return _back(tournament, f"stage-{stage.pk}")


def _manage_stage_played(request: HttpRequest, tournament: Tournament) -> Any:
    stage = _posted_stage(request, tournament)
    try:
        stage = stage_services.stage_played_set(stage=stage, played=request.POST.get("played", ""), actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        messages.success(request, _("Stage “%(name)s” is played %(where)s.")
                         % {"name": str(stage), "where": stage.get_played_display()})
    return _back(tournament, f"stage-{stage.pk}")


def _manage_swiss_pair(request: HttpRequest, tournament: Tournament) -> Any:
    return _next_round(request, tournament, stage_services.swiss_next_round, _("Round %(n)s is paired."))


def _manage_table_draw(request: HttpRequest, tournament: Tournament) -> Any:
    return _next_round(request, tournament, stage_services.table_round_draw, _("Round %(n)s is drawn."))


def _next_round(request: HttpRequest, tournament: Tournament, service: Any, done: str) -> Any:
    """Pair (Swiss) or draw (table rounds) the next round; refused while results are outstanding
    unless the organizer overrides. A refusal is shown in the stage's panel, next to the override."""
    stage = _posted_stage(request, tournament)
    form = PairForm(request.POST)
    form.is_valid()
    try:
        rnd = service(stage=stage, actor=_actor(request), override=bool(form.cleaned_data.get("override")))
    except ServiceError as exc:
        return {"round_errors": {stage.pk: [m for errors in exc.field_errors.values() for m in errors]}}
    messages.success(request, done % {"n": rnd.number})
    return _back(tournament, f"stage-{stage.pk}")


def _manage_checkin(request: HttpRequest, tournament: Tournament) -> Any:
    entry = get_object_or_404(Entry, pk=request.POST.get("entry") or 0, tournament=tournament)
    present = request.POST.get("present") == "1"
    try:
        transfer_services.entry_check_in(entry=entry, present=present, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        text = _("“%(name)s” checked in.") if present else _("“%(name)s” marked absent.")
        messages.success(request, text % {"name": entry.name})
    return _back(tournament, "entries")


def _manage_csv_preview(request: HttpRequest, tournament: Tournament) -> Any:
    """Step 1 of the CSV import: show every row and its errors. Nothing is written."""
    form = CsvForm(request.POST, request.FILES)
    if form.is_valid():
        data = form.cleaned_data["data"]
        try:
            preview = transfer_services.csv_preview(tournament=tournament, data=data)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
            return {"csv_form": form, "csv_preview": preview, "csv_text": text}
    return {"csv_form": form}


def _manage_csv_import(request: HttpRequest, tournament: Tournament) -> Any:
    """Step 2: import the previewed text — every row or none."""
    text = request.POST.get("csv_data", "")
    try:
        done = transfer_services.csv_import(tournament=tournament, data=text, actor=_actor(request))
    except ServiceError as exc:
        preview = None
        try:
            preview = transfer_services.csv_preview(tournament=tournament, data=text)
        except ServiceError:
            pass
        form = CsvForm({"text": text})
        form.is_valid()
        for path, errors in exc.field_errors.items():
            for message in errors:
                form.add_error("text", f"{path}: {message}" if path.startswith("line") else message)
        return {"csv_form": form, "csv_preview": preview, "csv_text": text}
    messages.success(request, _("%(n)s entries imported.") % {"n": len(done.rows)})
    return _back(tournament, "entries")


def _manage_call_time(request: HttpRequest, tournament: Tournament) -> Any:
    match = _posted_match(request, tournament)
    version = request.POST.get("version", "")
    try:
        done = hand_services.match_call_time(match_id=match.pk, version=int(version) if version.isdigit() else version,
                                             actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    except StaleVersion:
        messages.error(request, _("The match changed meanwhile (a hand was recorded): nothing was done. Try again."))
    else:
        winner = done.winner
        if winner is not None:
            messages.success(request, _("Time called at %(key)s: %(name)s wins.") % {"key": done.key,
                                                                                      "name": winner.name})
        elif done.is_draw:
            messages.success(request, _("Time called at %(key)s: the match is drawn.") % {"key": done.key})
        else:
            messages.success(request, _("Time called at %(key)s.") % {"key": done.key})
    return _back(tournament, "tables")


def _manage_confirm(request: HttpRequest, tournament: Tournament) -> Any:
    match = _posted_match(request, tournament)
    try:
        hand_services.match_confirm(match_id=match.pk, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        messages.success(request, _("The result of %(key)s is confirmed.") % {"key": match.key})
    return _back(tournament, "confirm")


def _posted_number(request: HttpRequest, name: str) -> int | None:
    """The posted whole number ``name``; None when it is missing or not a whole number."""
    value = request.POST.get(name, "").strip()
    return int(value) if value.isdigit() else None


def _no_such_table(request: HttpRequest, tournament: Tournament) -> Any:
    """A posted table that is not a number (the page posts only its tables' numbers)."""
    messages.error(request, _("There is no table %(n)s in this tournament.") % {"n": request.POST.get("table", "")})
    return _back(tournament, "venue-tables")


def _manage_venue_tables(request: HttpRequest, tournament: Tournament) -> Any:
    """Links for tables 1..N ahead of the first round (cards printed once for the day)."""
    try:
        # not a whole number: 0, which the service refuses with its message (1 to MAX_TABLES)
        made = venue_services.venue_tables_add(tournament=tournament, count=_posted_number(request, "count") or 0,
                                               actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        messages.success(request, _("%(n)s new table links.") % {"n": len(made)})
    return _back(tournament, "venue-tables")


def _manage_venue_revoke(request: HttpRequest, tournament: Tournament) -> Any:
    number = _posted_number(request, "table")
    if number is None:
        return _no_such_table(request, tournament)
    try:
        venue_services.venue_table_revoke(tournament=tournament, number=number, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        messages.success(request, _("The link of table %(n)s is revoked: it no longer opens the table.")
                         % {"n": number})
    return _back(tournament, "venue-tables")


def _manage_venue_reissue(request: HttpRequest, tournament: Tournament) -> Any:
    number = _posted_number(request, "table")
    if number is None:
        return _no_such_table(request, tournament)
    try:
        venue_services.venue_table_reissue(tournament=tournament, number=number, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
    else:
        messages.success(request, _("Table %(n)s has a new link: print its card again.") % {"n": number})
    return _back(tournament, "venue-tables")


# The manage page's posted ``action`` → its handler (an unknown action is refused).
MANAGE_HANDLERS: dict[str, Callable[[HttpRequest, Tournament], Any]] = {
    "details": _manage_details,
    "status": _manage_status,
    "team": _manage_team,
    "player": _manage_player,
    "seeds": _manage_seeds,
    "withdraw": _manage_withdraw,
    "staff": _manage_staff,
    "start": _manage_start,
    "award": _manage_award,
    "stage_create": _manage_stage_create,
    "stage_start": _manage_stage_start,
    "stage_played": _manage_stage_played,
    "swiss_pair": _manage_swiss_pair,
    "table_draw": _manage_table_draw,
    "checkin": _manage_checkin,
    "csv_preview": _manage_csv_preview,
    "csv_import": _manage_csv_import,
    "call_time": _manage_call_time,
    "confirm": _manage_confirm,
    "venue_tables": _manage_venue_tables,
    "venue_revoke": _manage_venue_revoke,
    "venue_reissue": _manage_venue_reissue,
}


def _manage_context(request: HttpRequest, tournament: Tournament, bound: dict[str, Any]) -> dict[str, Any]:
    not_started = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    open_matches = pages.open_matches(tournament)
    stage_matches = list(selectors.matches_of(tournament))
    links: list[dict[str, Any]]  # the template's rows (their values differ in type)
    links = [{"match": m, "round": selectors.round_label(m.round.name),
              "score_url": reverse("match-score", args=[m.pk]),
              "token_url": request.build_absolute_uri(reverse("table-link", args=[m.scorer_token])),
              "call_time": tournament.is_partnership and m.status == Match.Status.PLAYING and m.hands_played > 0
              and m.time_called_at is None}
             for m in stage_matches if m.status not in (Match.Status.PENDING, Match.Status.BYE, Match.Status.VOID)]
    stages = pages.stages_of(tournament)
    entries = list(pages.entries_of(tournament))
    context: dict[str, Any] = {
        "tournament": tournament, "not_started": not_started,
        "entries": entries,
        "checked_in": sum(1 for e in entries if e.checked_in_at and e.status == Entry.Status.ACTIVE),
        "details_form": TournamentEditForm(tournament=tournament),
        "team_form": QuickTeamForm(), "player_form": QuickPlayerForm(), "staff_form": StaffForm(),
        "start_form": StartForm(), "award_form": AwardForm(matches=open_matches),
        "stage_form": StageForm(tournament=tournament), "csv_form": CsvForm(),
        "csv_preview": None, "csv_text": "", "round_errors": {},
        "show_start": not_started and tournament.is_partnership and not stages,
        "awaiting": pages.awaiting_confirmation(tournament),
        "open_matches": open_matches, "links": links,
        "links_open": [link for link in links if link["match"].status != Match.Status.FINISHED],
        "links_done": [link for link in links if link["match"].status == Match.Status.FINISHED],
        "venue_tables": [{"row": row, "url": request.build_absolute_uri(reverse("venue-link", args=[row.live.token]))
                          if row.live else ""} for row in venue_selectors.venue_tables_of(tournament)], "seed_errors": [], "seed_values": {},
        "organizers": list(tournament.organizers.all()), "scorers": list(tournament.scorers.all()),
        "status_moves": [(s, Tournament.Status(s).label) for s in setup_services.STATUS_FLOW.get(tournament.status, ())],
        **roles(request, tournament),
    }
    context.update(bound)
    context["stages"] = [_stage_panel(stage, stages, context["round_errors"].get(stage.pk, [])) for stage in stages]
    for entry in context["entries"]:
        entry.seed_input = context["seed_values"].get(entry.pk, "" if entry.seed is None else entry.seed)
    return context


def _stage_panel(stage: Stage, stages: list[Stage], errors: list[str]) -> dict[str, Any]:
    """What the manage page shows and offers for one stage."""
    rounds_done = stage.rounds.count()
    running = stage.status == Stage.Status.RUNNING
    more_rounds = stage.rounds_planned is None or rounds_done < stage.rounds_planned
    earlier_open = any(s.number < stage.number and s.status != Stage.Status.FINISHED for s in stages)
    return {
        "stage": stage, "rounds_done": rounds_done, "errors": errors,
        "can_start": stage.status == Stage.Status.PENDING and not earlier_open,
        "can_pair": running and stage.format == Stage.Format.SWISS and more_rounds,
        "can_draw": running and stage.format == Stage.Format.TABLE_ROUNDS and more_rounds,
        "outstanding": selectors.outstanding(stage) if running else [],
        "source": str(stage.source_stage) if stage.source_stage_id else "",
    }


@login_required
@require_safe
def tournament_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as a JSON download (organizers: it holds the players' contacts)."""
    tournament = organizer_tournament(request, pk)
    data = transfer_services.tournament_export(tournament)
    body = json.dumps(data, ensure_ascii=False, indent=1, cls=DjangoJSONEncoder)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page
def tournament_import(request: HttpRequest) -> HttpResponse:
    """A tournament exported here (or elsewhere) comes back as a new tournament owned by the importer."""
    form = JsonImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = transfer_services.tournament_import(data=form.cleaned_data["file"], owner=request.user)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Tournament “%(name)s” imported.") % {"name": tournament.name})
            return redirect("tournament-manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_import.html", {"form": form})
