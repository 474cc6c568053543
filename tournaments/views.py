"""Pages of the tournaments app: thin views over the services (writes) and selectors (reads).

Public pages answer 404 for a tournament the visitor may not see. Organizer pages send anonymous
visitors to the login page and answer 403 to signed-in users without the role. The scoring page is
reached by a signed-in scorer (``/matches/<id>/score/``) or by a table's secret link (``/t/<token>/``).
Every form works without JavaScript; htmx adds the live parts (polling, the hand preview).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from config.i18n import core_lang
from scoring.errors import ScoringInputError
from scoring.rules import PartnershipRules, scoring_rules, split_options
from tournaments import selectors, services
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.forms import (
    AwardForm,
    CorrectionForm,
    CsvForm,
    HandForm,
    JsonImportForm,
    PairForm,
    QuickPlayerForm,
    QuickTeamForm,
    RedFiveHandForm,
    StaffForm,
    StageForm,
    StartForm,
    TableHandForm,
    TournamentEditForm,
    TournamentForm,
    YongzhouHandForm,
    add_service_errors,
)
from tournaments.labels import hand_saved_message
from tournaments.models import PARTNERSHIP_VARIANTS, Entry, Match, Player, Stage, Tournament
from tournaments.permissions import can_view, is_organizer, is_scorer
from tournaments.selectors import pages
from tournaments.services import hands as hand_services
from tournaments.services import results as result_services
from tournaments.services import setup as setup_services
from tournaments.services import stages as stage_services
from tournaments.services import table_hands as table_services
from tournaments.services import transfer as transfer_services
from tournaments.services.hands import initial_state, score_hand
from variants import Settlement

HTMX_STOP_POLLING = 286


def player_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/player_list.html", {"players": Player.objects.all()})


# --------------------------------------------------------------------------- helpers

def _visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = selectors.tournament_get_for_viewer(pk=pk, user=request.user)
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


def _organizer_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    return tournament


def _roles(request: HttpRequest, tournament: Tournament) -> dict[str, bool]:
    organizer = is_organizer(request.user, tournament)
    return {"is_organizer": organizer, "is_scorer": organizer or is_scorer(request.user, tournament)}


def _remapped(exc: ServiceError, names: dict[str, str]) -> ServiceError:
    return ServiceError({names.get(k, k): v for k, v in exc.field_errors.items()})


# --------------------------------------------------------------------------- public pages

@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournaments_visible(request.user)
    return render(request, "tournaments/tournament_list.html", {"tournaments": tournaments})


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible_tournament(request, pk)
    entries = list(pages.entries_of(tournament).filter(status=Entry.Status.ACTIVE))
    matches = list(Match.objects.filter(stage__tournament=tournament).exclude(status__in=[Match.Status.BYE,
                                                                                           Match.Status.VOID])
                   .values_list("status", flat=True))
    counts = {status: matches.count(status) for status in Match.Status.values}
    stages = pages.stages_of(tournament)
    has_elimination = any(stage.format in pages.ELIMINATION for stage in stages)
    standings = selectors.elimination_standings(tournament) if has_elimination else []
    podium = [row for row in standings if row.place][:4]
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament, "entries": entries, "counts": counts, "match_total": len(matches),
        "podium": podium, "stages": [_stage_summary(stage) for stage in stages],
        "sections": pages.format_sections(tournament, current_only=True), **_roles(request, tournament),
    })


def _stage_summary(stage: Stage) -> dict[str, Any]:
    return {"stage": stage, "rounds_done": stage.rounds.count(),
            "source": stage.source_stage.name if stage.source_stage_id else ""}  # type: ignore[union-attr]


@require_safe
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """Every match, round by round: the bracket of an elimination, the rounds of the other formats."""
    tournament = _visible_tournament(request, pk)
    stages = [{"stage": stage, "columns": pages.bracket_columns(stage)}
              for stage in pages.stages_of(tournament) if stage.format in pages.ELIMINATION]
    sections = pages.format_sections(tournament, current_only=False)
    template = "tournaments/_bracket.html" if request.htmx else "tournaments/bracket.html"
    response = render(request, template, {"tournament": tournament, "stages": stages, "sections": sections,
                                          **_roles(request, tournament)})
    return _stop_polling_when(request, response, tournament.status == Tournament.Status.FINISHED)


def _stop_polling_when(request: HttpRequest, response: HttpResponse, done: bool) -> HttpResponse:
    """htmx stops polling when it receives status 286: nothing changes any more."""
    if done and request.htmx:
        response.status_code = HTMX_STOP_POLLING
    return response


@require_safe
def tournament_tables(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible_tournament(request, pk)
    template = "tournaments/_tables.html" if request.htmx else "tournaments/tables.html"
    return render(request, template, {"tournament": tournament, "tables": pages.tables_with_seats(tournament),
                                      "sections": pages.format_sections(tournament, current_only=True),
                                      **_roles(request, tournament)})


@require_safe
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible_tournament(request, pk)
    template = "tournaments/_standings.html" if request.htmx else "tournaments/standings.html"
    response = render(request, template, {"tournament": tournament, "tables": _standings_tables(tournament)})
    return _stop_polling_when(request, response, tournament.status == Tournament.Status.FINISHED)


def _standings_tables(tournament: Tournament) -> list[dict[str, Any]]:
    """One table per started stage (the latest first); before any stage starts, the entries."""
    out = []
    for table in selectors.tournament_standings(tournament):
        rows = list(table.rows)
        if table.kind == "elimination":
            rounds = {r.number: selectors.round_label(r.name) for r in table.stage.rounds.all()}
            for row in rows:
                row.reached_label = rounds.get(row.reached, "")
            out.append({"stage": table.stage, "kind": table.kind, "rows": rows})
            continue
        out.append({"stage": table.stage, "kind": table.kind, "columns": table.columns, "key": table.key_column, "rows": [
            {"rank": row.rank, "shared": row.shared, "entry": row.entry, "name": row.name, "now": row.now,
             "cells": [(key, row[key]) for key, _label in table.columns]} for row in rows]})
    if not out:
        out.append({"stage": None, "kind": "elimination", "rows": selectors.elimination_standings(tournament)})
    return out


@require_safe
def standings_csv(request: HttpRequest, pk: int, stage: int) -> HttpResponse:
    """One stage's standings as CSV (UTF-8 with a BOM, for spreadsheets)."""
    tournament = _visible_tournament(request, pk)
    stage_row = get_object_or_404(Stage, pk=stage, tournament=tournament)
    table = selectors.stage_standings(stage_row)
    columns = [("rank", _("Rank")), ("name", _("Entry")), *table.columns]
    rows = [{key: (row[key] if hasattr(row, "values") else getattr(row, key, "")) for key, _label in columns}
            for row in table.rows]
    response = HttpResponse(transfer_services.standings_csv(rows, columns), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}-stage-{stage_row.number}.csv"'
    return response


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = selectors.match_detail(pk)
    if match is None or not can_view(request.user, match.stage.tournament):
        raise Http404(_("No such match."))
    tournament = match.stage.tournament
    context = {"tournament": tournament, **_match_context(match), **_roles(request, tournament)}
    template = "tournaments/_match_live.html" if request.htmx else "tournaments/match_detail.html"
    done = match.status == Match.Status.FINISHED and match.confirmed_at is not None
    return _stop_polling_when(request, render(request, template, context), done)


def _is_individual(match: Match) -> bool:
    return match.stage.format == Stage.Format.TABLE_ROUNDS


def _confirmation(match: Match) -> dict[str, Any]:
    """Whether the result waits for confirmation, and by whom (the losing side; either side after a draw)."""
    awaiting = match.status == Match.Status.FINISHED and match.confirmed_at is None
    losing = None if match.is_draw or match.winner_side is None else 1 - match.winner_side
    return {"awaiting": awaiting, "losing_side": losing,
            "losing_entry": match.entry(losing) if losing is not None else None}


def _limit_info(match: Match) -> dict[str, Any] | None:
    """A partnership match with a hand limit (fixed deal, 把数制): hands played of the limit, and the side
    that has won because the trailing side cannot catch up in the hands left."""
    rules = _rules(match.stage.tournament)
    if rules is None or rules.hand_limit is None:
        return None
    hands = list(match.hands.all())
    last = (hands[-1].result or {}) if hands else {}
    decided = last.get("decided")
    return {"limit": rules.hand_limit, "played": match.hands_played, "decided": decided,
            "decided_entry": match.entry(decided) if decided is not None else None,
            "drawn": bool(last.get("match_drawn")), "tie": rules.hand_limit_tie}


def _match_context(match: Match) -> dict[str, Any]:
    common = {"match": match, "round_name": selectors.round_label(match.round.name), "confirm": _confirmation(match)}
    if _is_individual(match):
        return {**common, "individual": True, "table_seats": pages.table_seats(match),
                "hands": pages.individual_hand_rows(match), "hands_planned": match.stage.hands_per_table,
                "red_five": match.stage.tournament.spec.settlement is Settlement.RED_FIVE}
    seats = selectors.seat_names(match)
    preview = selectors.next_dealer_preview(match)
    levels = (match.state or {}).get("levels")
    if not levels and match.stage.tournament.variant in PARTNERSHIP_VARIANTS:
        levels = initial_state(match.stage.tournament, 0)["levels"]
    return {
        **common, "seats": seats, "preview": preview, "levels": levels or ["", ""],
        "dealer_name": seats[preview["dealer"]] if preview else "", "hands": pages.hand_rows(match),
        "limit": _limit_info(match),
        "sides": [{"number": side, "entry": match.entry(side), "seats": (seats[side], seats[side + 2]),
                   "level": (levels or ["", ""])[side], "won": match.winner_side == side} for side in (0, 1)],
    }


# --------------------------------------------------------------------------- organizer pages

@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may create a tournament; they become its owner (as in the API)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = setup_services.tournament_create(owner=request.user, **form.cleaned_data)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Tournament “%(name)s” created. Now add the teams.") % {"name": tournament.name})
            return redirect("tournament-manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


MANAGE_ACTIONS = ("details", "status", "team", "player", "seeds", "withdraw", "staff", "start", "award",
                  "stage_create", "stage_start", "swiss_pair", "table_draw", "checkin", "csv_preview", "csv_import",
                  "call_time", "confirm")


@login_required
@require_http_methods(["GET", "POST"])
def tournament_manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organizer_tournament(request, pk)
    bound: dict[str, Any] = {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in MANAGE_ACTIONS:
            messages.error(request, _("Unknown action."))
            return redirect("tournament-manage", pk=pk)
        handler = globals()[f"_manage_{action}"]
        try:
            answer = handler(request, tournament)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        if isinstance(answer, HttpResponse):
            return answer
        bound = answer
        tournament.refresh_from_db()
    return render(request, "tournaments/manage.html", _manage_context(request, tournament, bound))


def _back(tournament: Tournament, anchor: str = "") -> HttpResponseRedirect:
    url = reverse("tournament-manage", args=[tournament.pk])
    return HttpResponseRedirect(f"{url}#{anchor}" if anchor else url)


def _actor(request: HttpRequest) -> services.Actor:
    return services.Actor(request.user, "login")


def _manage_details(request: HttpRequest, tournament: Tournament) -> Any:
    form = TournamentEditForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            setup_services.tournament_update(tournament=tournament, actor=_actor(request), **form.changes())
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Details saved."))
            return _back(tournament)
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
                             % {"name": stage.name})
            return _back(tournament, "stages")
    return {"stage_form": form}


def _manage_stage_start(request: HttpRequest, tournament: Tournament) -> Any:
    stage = _posted_stage(request, tournament)
    try:
        stage_services.stage_start(stage=stage, actor=_actor(request))
    except ServiceError as exc:
        _error_messages(request, exc)
        return _back(tournament, "stages")
    messages.success(request, _("Stage “%(name)s” started: the first tables are ready.") % {"name": stage.name})
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
        if done.winner_side is not None:
            messages.success(request, _("Time called at %(key)s: %(name)s wins.") % {"key": done.key,
                                                                                      "name": done.winner.name})
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


def _manage_context(request: HttpRequest, tournament: Tournament, bound: dict[str, Any]) -> dict[str, Any]:
    not_started = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    open_matches = pages.open_matches(tournament)
    stage_matches = list(selectors.matches_of(tournament))
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
        "open_matches": open_matches, "links": links, "seed_errors": [], "seed_values": {},
        "organizers": list(tournament.organizers.all()), "scorers": list(tournament.scorers.all()),
        "status_moves": [(s, Tournament.Status(s).label) for s in setup_services.STATUS_FLOW.get(tournament.status, ())],
        **_roles(request, tournament),
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
        "source": stage.source_stage.name if stage.source_stage_id else "",  # type: ignore[union-attr]
    }


@login_required
@require_safe
def tournament_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as a JSON download (organizers: it holds the players' contacts)."""
    tournament = _organizer_tournament(request, pk)
    data = transfer_services.tournament_export(tournament)
    body = json.dumps(data, ensure_ascii=False, indent=1, cls=DjangoJSONEncoder)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
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


# --------------------------------------------------------------------------- scoring at the table

@login_required
@require_http_methods(["GET", "POST"])
def match_score(request: HttpRequest, pk: int) -> HttpResponse:
    match = selectors.match_detail(pk)
    if match is None:
        raise Http404(_("No such match."))
    if not is_scorer(request.user, match.stage.tournament):
        raise PermissionDenied(_("You are not a scorer of this tournament."))
    return _score(request, match, services.Actor(request.user, "login"), reverse("match-score", args=[pk]))


@require_http_methods(["GET", "POST"])
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    match = pages.match_for_token(token)
    if match is None:
        raise Http404(_("No such table link."))
    user = request.user if request.user.is_authenticated else None
    return _score(request, match, services.Actor(user, "token"), reverse("table-link", args=[token]))


def _rules(tournament: Tournament) -> PartnershipRules | None:
    scoring_part, _rest = split_options(tournament.options or {})
    rules = scoring_rules(tournament.variant, scoring_part, lang=core_lang())
    return rules if isinstance(rules, PartnershipRules) else None


def _ask_a_tricks(rules: PartnershipRules | None, state: dict[str, Any] | None, dealer: int | None) -> bool:
    if rules is None or not rules.a_pass_conditions or not state or dealer is None:
        return False
    return state["levels"][dealer % 2] == rules.top_level


def _hand_form(match: Match, rules: PartnershipRules | None, data: QueryDict | None = None) -> HandForm:
    state = match.state or None
    form = HandForm(data, first_hand=not match.hands_played, tournament=match.stage.tournament,
                    ask_a_tricks=_ask_a_tricks(rules, state, state and state.get("dealer")),
                    throw_penalties=bool(rules and rules.throw_penalties),
                    initial={"version": match.version, "attackers_points": 0, "kitty_points": 0,
                             "last_trick_winner": "dealer", "last_trick_largest": 1, "trump": ""})
    if "dealer" in form.fields:
        seats = selectors.seat_names(match)
        form.fields["dealer"].choices = [(seat, f"{seat} · {seats[seat]}") for seat in range(4)]
    return form


def _correction_form(request: HttpRequest, match: Match, rules: PartnershipRules | None, number: int,
                     data: QueryDict | None = None) -> CorrectionForm | None:
    hands = list(match.hands.all())
    if not 1 <= number <= len(hands):
        return None
    hand = hands[number - 1]
    before = (hands[number - 2].result or {}).get("state") if number > 1 else None
    if before is None:
        before = initial_state(match.stage.tournament, hand.dealer)
    initial = {**CorrectionForm.initial_from(hand.outcome, hand.trump), "version": match.version, "number": number}
    return CorrectionForm(data, prefix="c", initial=initial, allow_force=is_organizer(request.user, match.stage.tournament),
                          ask_a_tricks=_ask_a_tricks(rules, before, hand.dealer) or "a_first_trick" in hand.outcome,
                          throw_penalties=bool(rules and rules.throw_penalties))


def _preview(match: Match, form: HandForm) -> dict[str, Any] | None:
    """The result the hand would have, computed on the current state without writing."""
    tournament = match.stage.tournament
    if match.hands_played:
        state = dict(match.state)
    else:
        state = initial_state(tournament, form.cleaned_data["dealer"])
    try:
        result = score_hand(tournament, state, form.outcome())
    except ScoringInputError as exc:
        add_service_errors(form, exc.field_errors, HandForm.ALIASES)
        return None
    return _describe(match, result, int(state["dealer"]))


def _describe(match: Match, result: dict[str, Any], dealer: int) -> dict[str, Any]:
    seats = selectors.seat_names(match)
    new_state = result.get("state") or {}
    next_dealer = new_state.get("dealer")
    gaining = result.get("gaining_side")
    winner = result.get("match_winner")
    return {
        "result": result, "dealer": dealer, "dealer_side": dealer % 2,
        "gaining_entry": match.entry(gaining) if gaining is not None else None, "gaining_side": gaining,
        "level_gain": result.get("level_gain"), "attackers_total": result.get("attackers_total"),
        "deal_changes": result.get("deal_changes"), "levels": new_state.get("levels") or ["", ""],
        "next_dealer": next_dealer, "next_dealer_name": seats[next_dealer] if next_dealer is not None else "",
        "winner_side": winner, "winner_entry": match.entry(winner) if winner is not None else None,
    }


def _score(request: HttpRequest, match: Match, actor: services.Actor, base_url: str) -> HttpResponse:
    tournament = match.stage.tournament
    seen = request.GET.get("seen", "")
    if request.method == "GET" and request.htmx and seen.isdigit():
        # The page asks every few seconds whether someone else changed the match meanwhile.
        if int(seen) == match.version:
            return HttpResponse(status=204)
        return render(request, "tournaments/_score_changed.html", {"base_url": base_url})
    if _is_individual(match):
        return _score_table(request, match, actor, base_url)
    rules = _rules(tournament) if tournament.variant in PARTNERSHIP_VARIANTS else None
    form = _hand_form(match, rules)
    correction: CorrectionForm | None = None
    preview: dict[str, Any] | None = None
    stale = False
    refused = ""
    if request.GET.get("hand", "").isdigit():
        correction = _correction_form(request, match, rules, int(request.GET["hand"]))
    if request.method == "POST":
        action = request.POST.get("action", "record")
        if action == "undo":
            return _undo(request, match, actor, base_url)
        if action == "preview":
            form = _hand_form(match, rules, request.POST)
            if form.is_valid():
                preview = _preview(match, form)
            if request.htmx:
                return render(request, "tournaments/_score_preview.html", {"preview": preview, "form": form,
                                                                           "match": match})
        elif action == "correct":
            number = request.POST.get("c-number", "")
            correction = _correction_form(request, match, rules, int(number) if number.isdigit() else 0, request.POST)
            if correction is None:
                messages.error(request, _("There is no such hand to correct."))
                return redirect(base_url)
            if correction.is_valid():
                d = correction.cleaned_data
                try:
                    done = services.hand_correct(match_id=match.pk, number=d["number"], outcome=correction.outcome(),
                                                 version=d["version"], actor=actor, force=d.get("force", False),
                                                 trump=d["trump"])
                except ServiceError as exc:
                    add_service_errors(correction, exc.field_errors, HandForm.ALIASES)
                except StaleVersion:
                    stale = True
                except CorrectionRefused as exc:
                    refused = str(exc)
                except NotAllowed as exc:
                    raise PermissionDenied(str(exc)) from exc
                else:
                    messages.success(request, _("Hand %(n)s corrected; the match was recomputed.") % {"n": d["number"]})
                    for warning in done.warnings:
                        messages.warning(request, warning)
                    return redirect(base_url)
        else:
            form = _hand_form(match, rules, request.POST)
            if form.is_valid():
                d = form.cleaned_data
                try:
                    done = services.hand_record(match_id=match.pk, outcome=form.outcome(), version=d["version"],
                                                actor=actor, dealer=d.get("dealer"), trump=d["trump"])
                except ServiceError as exc:
                    add_service_errors(form, exc.field_errors, HandForm.ALIASES)
                except StaleVersion:
                    stale = True
                except NotAllowed as exc:
                    raise PermissionDenied(str(exc)) from exc
                else:
                    described = _describe(done.match, done.result, done.hand.dealer)
                    messages.success(request, hand_saved_message(done.match, done.hand.number, described))
                    return redirect(base_url)
        if stale:
            # Show the fresh state; keep the figures typed so far, against the new version.
            match = selectors.match_detail(match.pk) or match
            data = request.POST.copy()
            data["version"] = data["c-version"] = str(match.version)
            if action == "correct" and correction is not None:
                number = correction.initial.get("number", 0)
                correction = _correction_form(request, match, rules, number, data)
                if correction is not None:
                    correction.is_valid()
            elif match.status != Match.Status.FINISHED:
                form = _hand_form(match, rules, data)
                form.is_valid()
    context = {
        "tournament": tournament, **_match_context(match), "form": form, "correction": correction,
        "preview": preview, "stale": stale, "refused": refused, "base_url": base_url,
        "finished": match.status == Match.Status.FINISHED,
        "playable": match.status in (Match.Status.READY, Match.Status.PLAYING)
        and tournament.status == Tournament.Status.RUNNING,
        "allow_force": is_organizer(request.user, tournament), "first_hand": not match.hands_played,
        "steps": (-10, -5, 5, 10), "token": match.scorer_token,
    }
    return render(request, "tournaments/score.html", context)


def _undo(request: HttpRequest, match: Match, actor: services.Actor, base_url: str) -> HttpResponse:
    version = request.POST.get("version", "")
    try:
        services.hand_undo(match_id=match.pk, version=int(version) if version.isdigit() else version, actor=actor,
                           force=bool(request.POST.get("force")) and is_organizer(request.user, match.stage.tournament))
    except ServiceError as exc:
        for errors in exc.field_errors.values():
            for message in errors:
                messages.error(request, message)
    except StaleVersion:
        messages.error(request, _("Someone else recorded a hand first: nothing was undone. Check the history below."))
    except CorrectionRefused as exc:
        messages.error(request, str(exc))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    else:
        messages.success(request, _("The last hand was undone."))
    return redirect(base_url)


# --------------------------------------------------------------------------- individual tables (red five, Yongzhou)

def _table_form(match: Match, data: QueryDict | None = None) -> TableHandForm:
    tournament = match.stage.tournament
    seats = [(row["seat"], row["name"]) for row in pages.table_seats(match)]
    initial: dict[str, Any] = {"version": match.version}
    # No seat is preselected: the dealer (red five: who won the bid) and the declarer are tapped every hand.
    if tournament.spec.settlement is Settlement.RED_FIVE:
        initial.update(dealer_points=0, kitty_points=0, dealer_won_last_trick="no")
        return RedFiveHandForm(data, seats=seats, decks=tournament.decks, initial=initial, tournament=tournament)
    initial.update({f"points_{seat}": 0 for seat, _name in seats})
    return YongzhouHandForm(data, seats=seats, initial=initial, tournament=tournament)


def _table_preview(match: Match, form: TableHandForm) -> dict[str, Any] | None:
    """What the hand would give each seat, computed through scoring without writing."""
    from scoring.api import score_hand_request

    try:
        result = score_hand_request(table_services.table_hand_payload(match, form.outcome()), lang=core_lang())
    except ScoringInputError as exc:
        form.add_service_errors(exc.field_errors)
        return None
    return _describe_table(match, result)


def _describe_table(match: Match, result: dict[str, Any]) -> dict[str, Any]:
    values = result["game_points"] if "game_points" in result else result.get("net") or []
    seats = pages.table_seats(match)
    rows = [{**seat, "value": values[seat["seat"]] if seat["seat"] < len(values) else 0,
             "after": seat["total"] + (values[seat["seat"]] if seat["seat"] < len(values) else 0)} for seat in seats]
    next_dealer = result.get("next_dealer")
    names = {seat["seat"]: seat["name"] for seat in seats}
    return {"result": result, "rows": rows, "dealer_final": result.get("dealer_final"),
            "next_dealer": next_dealer, "next_dealer_name": names.get(next_dealer, ""),
            "last_hand": match.hands_played + 1 >= (match.stage.hands_per_table or 0)}


def _score_table(request: HttpRequest, match: Match, actor: services.Actor, base_url: str) -> HttpResponse:
    """The scoring page of an individual table: one hand's figures, the preview, one-tap save."""
    tournament = match.stage.tournament
    form = _table_form(match)
    preview: dict[str, Any] | None = None
    stale = False
    if request.method == "POST":
        action = request.POST.get("action", "record")
        if action == "undo":
            version = request.POST.get("version", "")
            try:
                table_services.table_hand_undo(match_id=match.pk, actor=actor,
                                                version=int(version) if version.isdigit() else version)
            except ServiceError as exc:
                for errors in exc.field_errors.values():
                    for message in errors:
                        messages.error(request, message)
            except StaleVersion:
                messages.error(request, _("Someone else recorded a hand first: nothing was undone."))
            else:
                messages.success(request, _("The last hand was undone."))
            return redirect(base_url)
        form = _table_form(match, request.POST)
        if action == "preview":
            if form.is_valid():
                preview = _table_preview(match, form)
            if request.htmx:
                return render(request, "tournaments/_table_preview.html", {"preview": preview, "form": form})
        elif form.is_valid():
            try:
                done = table_services.table_hand_record(match_id=match.pk, outcome=form.outcome(),
                                                         version=form.cleaned_data["version"], actor=actor)
            except ServiceError as exc:
                form.add_service_errors(exc.field_errors)
            except StaleVersion:
                stale = True
            except NotAllowed as exc:
                raise PermissionDenied(str(exc)) from exc
            else:
                text = _("Hand %(n)s saved.") % {"n": done.hand.number}
                if done.match.status == Match.Status.FINISHED:
                    text += " " + _("The table has played all its hands.")
                messages.success(request, text)
                return redirect(base_url)
        if stale:
            match = selectors.match_detail(match.pk) or match
            data = request.POST.copy()
            data["version"] = str(match.version)
            form = _table_form(match, data)
            form.is_valid()
    context = {
        "tournament": tournament, **_match_context(match), "form": form, "preview": preview, "stale": stale,
        "base_url": base_url, "finished": match.status == Match.Status.FINISHED,
        "playable": match.status in (Match.Status.READY, Match.Status.PLAYING)
        and tournament.status == Tournament.Status.RUNNING,
        "steps": (-10, -5, 5, 10), "token": match.scorer_token,
    }
    return render(request, "tournaments/score_table.html", context)


# --------------------------------------------------------------------------- confirmation at the table

@require_http_methods(["GET", "POST"])
def table_confirm(request: HttpRequest, token: str, side: int) -> HttpResponse:
    """The losing side confirms the result with the table's link (the service refuses the winning side)."""
    match = pages.match_for_token(token)
    if match is None or side not in (0, 1) or _is_individual(match):
        raise Http404(_("No such table link."))
    base_url = reverse("table-link", args=[token])
    error = ""
    status = 200
    if request.method == "POST":
        user = request.user if request.user.is_authenticated else None
        try:
            hand_services.match_confirm(match_id=match.pk, actor=services.Actor(user, "token"), side=side)
        except NotAllowed as exc:
            error, status = str(exc), 403
        except ServiceError as exc:
            error, status = " ".join(m for errors in exc.field_errors.values() for m in errors), 400
        else:
            messages.success(request, _("Thank you: the result is confirmed."))
            return redirect(base_url)
    tournament = match.stage.tournament
    context = {"tournament": tournament, **_match_context(match), "side": side, "entry": match.entry(side),
               "error": error, "base_url": base_url}
    return render(request, "tournaments/confirm.html", context, status=status)
