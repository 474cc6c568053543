"""Public pages: players, tournaments, bracket, tables, standings (and their CSV), a match.

Public pages answer 404 for a tournament the visitor may not see."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments import selectors
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.permissions import can_view
from tournaments.selectors import pages, ratings
from tournaments.selectors.stamps import changes_stamp
from tournaments.services import transfer as transfer_services
from tournaments.services.online_rooms import match_room
from tournaments.views.common import (
    HtmxHttpRequest,
    match_context,
    roles,
    stop_polling_when,
    visible_tournament,
)


def player_list(request: HttpRequest) -> HttpResponse:
    """Players listed publicly: never one marked private (docs/ratings.md), but for staff."""
    return render(request, "tournaments/player_list.html", {"players": ratings.players_shown(request.user)})


# --------------------------------------------------------------------------- public pages

@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournaments_visible(request.user)
    return render(request, "tournaments/tournament_list.html", {"tournaments": tournaments})


@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
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
        "podium": podium, "has_bracket": has_elimination, "stages": [_stage_summary(stage) for stage in stages],
        "sections": pages.format_sections(tournament, current_only=True), **roles(request, tournament),
    })


def _stage_summary(stage: Stage) -> dict[str, Any]:
    return {"stage": stage, "rounds_done": stage.rounds.count(),
            "source": str(stage.source_stage) if stage.source_stage_id else ""}


@require_safe
def tournament_bracket(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every match, round by round: the bracket of an elimination, the rounds of the other formats."""
    tournament = visible_tournament(request, pk)
    stages = [{"stage": stage, "columns": pages.bracket_columns(stage)}
              for stage in pages.stages_of(tournament) if stage.format in pages.ELIMINATION]
    sections = pages.format_sections(tournament, current_only=False)
    template = "tournaments/_bracket.html" if request.htmx else "tournaments/bracket.html"
    response = render(request, template, {"tournament": tournament, "stages": stages, "sections": sections,
                                          **roles(request, tournament)})
    return stop_polling_when(request, response, tournament.status == Tournament.Status.FINISHED)


@require_safe
def tournament_changes(request: HttpRequest, pk: int) -> HttpResponse:
    """Whether anything of the tournament changed since the stamp ``since``, answered from the cache alone
    (no database query: the live pages ask it every second): 204 while it is the same, else the new
    stamp as JSON. It says nothing but that something changed; the fragments then fetched check who may see them."""
    stamp = changes_stamp(pk)
    if request.GET.get("since", "") == stamp:
        response = HttpResponse(status=204)
    else:
        response = JsonResponse({"stamp": stamp})
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def tournament_tables(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    template = "tournaments/_tables.html" if request.htmx else "tournaments/tables.html"
    return render(request, template, {"tournament": tournament, "tables": pages.tables_with_seats(tournament),
                                      "sections": pages.format_sections(tournament, current_only=True),
                                      **roles(request, tournament)})


@require_safe
def tournament_standings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    template = "tournaments/_standings.html" if request.htmx else "tournaments/standings.html"
    response = render(request, template, {"tournament": tournament, "tables": _standings_tables(tournament)})
    return stop_polling_when(request, response, tournament.status == Tournament.Status.FINISHED)


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
    tournament = visible_tournament(request, pk)
    stage_row = get_object_or_404(Stage, pk=stage, tournament=tournament)
    table = selectors.stage_standings(stage_row)
    columns = [("rank", _("Rank")), ("name", _("Entry")), *table.columns]
    rows = [{key: (row[key] if hasattr(row, "values") else getattr(row, key, "")) for key, _label in columns}
            for row in table.rows]
    response = HttpResponse(transfer_services.standings_csv(rows, columns), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}-stage-{stage_row.number}.csv"'
    return response


@require_safe
def match_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = selectors.match_detail(pk)
    if match is None or not can_view(request.user, match.stage.tournament):
        raise Http404(_("No such match."))
    tournament = match.stage.tournament
    context = {"tournament": tournament, **match_context(match), **roles(request, tournament)}
    if not request.htmx and match.is_online:
        context["online_room"] = match_room(match)  # watched live at its online table (public events only)
    template = "tournaments/_match_live.html" if request.htmx else "tournaments/match_detail.html"
    done = match.status == Match.Status.FINISHED and match.confirmed_at is not None
    return stop_polling_when(request, render(request, template, context), done)
