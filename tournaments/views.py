"""Pages of the tournaments app: thin views over the services (writes) and selectors (reads).

Public pages answer 404 for a tournament the visitor may not see. Organizer pages send anonymous
visitors to the login page and answer 403 to signed-in users without the role. The scoring page is
reached by a signed-in scorer (``/matches/<id>/score/``) or by a table's secret link (``/t/<token>/``).
Every form works without JavaScript; htmx adds the live parts (polling, the hand preview).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from config.i18n import core_lang
from scoring.errors import ScoringInputError
from scoring.rules import PartnershipRules, scoring_rules, split_options
from tournaments import page_selectors, selectors, services
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.forms import (
    AwardForm,
    CorrectionForm,
    HandForm,
    QuickPlayerForm,
    QuickTeamForm,
    StaffForm,
    StartForm,
    TournamentEditForm,
    TournamentForm,
    add_service_errors,
)
from tournaments.models import PARTNERSHIP_VARIANTS, Entry, Match, Player, Tournament
from tournaments.permissions import can_view, is_organizer, is_scorer
from tournaments.services import bracket as bracket_services
from tournaments.services import setup as setup_services
from tournaments.services.hands import initial_state, score_hand

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
    entries = list(page_selectors.entries_of(tournament).filter(status=Entry.Status.ACTIVE))
    matches = list(Match.objects.filter(stage__tournament=tournament).values_list("status", flat=True))
    counts = {status: matches.count(status) for status in Match.Status.values}
    standings = selectors.elimination_standings(tournament) if tournament.stages.exists() else []
    podium = [row for row in standings if row.place][:4]
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament, "entries": entries, "counts": counts, "match_total": len(matches),
        "podium": podium, **_roles(request, tournament),
    })


@require_safe
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible_tournament(request, pk)
    stages = [{"stage": stage, "columns": page_selectors.bracket_columns(stage)}
              for stage in page_selectors.stages_of(tournament)]
    template = "tournaments/_bracket.html" if request.htmx else "tournaments/bracket.html"
    response = render(request, template, {"tournament": tournament, "stages": stages, **_roles(request, tournament)})
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
    return render(request, template, {"tournament": tournament, "tables": page_selectors.tables_with_seats(tournament),
                                      **_roles(request, tournament)})


@require_safe
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible_tournament(request, pk)
    rows = selectors.elimination_standings(tournament)
    rounds = {r.number: selectors.round_label(r.name)
              for stage in tournament.stages.all() for r in stage.rounds.all()}
    for row in rows:
        row.reached_label = rounds.get(row.reached, "")  # type: ignore[attr-defined]
    template = "tournaments/_standings.html" if request.htmx else "tournaments/standings.html"
    response = render(request, template, {"tournament": tournament, "rows": rows})
    return _stop_polling_when(request, response, tournament.status == Tournament.Status.FINISHED)


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = selectors.match_detail(pk)
    if match is None or not can_view(request.user, match.stage.tournament):
        raise Http404(_("No such match."))
    tournament = match.stage.tournament
    context = {"tournament": tournament, **_match_context(match), **_roles(request, tournament)}
    template = "tournaments/_match_live.html" if request.htmx else "tournaments/match_detail.html"
    return _stop_polling_when(request, render(request, template, context), match.status == Match.Status.FINISHED)


def _match_context(match: Match) -> dict[str, Any]:
    seats = selectors.seat_names(match)
    preview = selectors.next_dealer_preview(match)
    levels = (match.state or {}).get("levels")
    if not levels and match.stage.tournament.variant in PARTNERSHIP_VARIANTS:
        levels = initial_state(match.stage.tournament, 0)["levels"]
    return {
        "match": match, "seats": seats, "preview": preview, "levels": levels or ["", ""],
        "dealer_name": seats[preview["dealer"]] if preview else "",
        "round_name": selectors.round_label(match.round.name), "hands": page_selectors.hand_rows(match),
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


MANAGE_ACTIONS = ("details", "status", "team", "player", "seeds", "withdraw", "staff", "start", "award")


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
            bracket_services.tournament_start(tournament=tournament, actor=_actor(request), **form.cleaned_data)
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("The tournament has started: the bracket is drawn and the first tables are ready."))
            return _back(tournament, "tables")
    return {"start_form": form}


def _manage_award(request: HttpRequest, tournament: Tournament) -> Any:
    form = AwardForm(request.POST, matches=page_selectors.open_matches(tournament))
    if form.is_valid():
        d = form.cleaned_data
        try:
            bracket_services.match_award(match_id=d["match"], winner_side=d["winner_side"], reason=d["reason"],
                                         kind=d["kind"], actor=_actor(request))
        except ServiceError as exc:
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Result awarded; the bracket has advanced."))
            return _back(tournament, "tables")
    return {"award_form": form}


def _manage_context(request: HttpRequest, tournament: Tournament, bound: dict[str, Any]) -> dict[str, Any]:
    not_started = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    open_matches = page_selectors.open_matches(tournament)
    stage_matches = list(selectors.matches_of(tournament))
    links = [{"match": m, "round": selectors.round_label(m.round.name),
              "score_url": reverse("match-score", args=[m.pk]),
              "token_url": request.build_absolute_uri(reverse("table-link", args=[m.scorer_token]))}
             for m in stage_matches if m.status != Match.Status.PENDING]
    context: dict[str, Any] = {
        "tournament": tournament, "not_started": not_started,
        "entries": list(page_selectors.entries_of(tournament)),
        "details_form": TournamentEditForm(tournament=tournament),
        "team_form": QuickTeamForm(), "player_form": QuickPlayerForm(), "staff_form": StaffForm(),
        "start_form": StartForm(), "award_form": AwardForm(matches=open_matches),
        "open_matches": open_matches, "links": links, "seed_errors": [], "seed_values": {},
        "organizers": list(tournament.organizers.all()), "scorers": list(tournament.scorers.all()),
        "status_moves": [(s, Tournament.Status(s).label) for s in setup_services.STATUS_FLOW.get(tournament.status, ())],
        **_roles(request, tournament),
    }
    context.update(bound)
    for entry in context["entries"]:
        entry.seed_input = context["seed_values"].get(entry.pk, "" if entry.seed is None else entry.seed)
    return context


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
    match = page_selectors.match_for_token(token)
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
    form = HandForm(data, first_hand=not match.hands_played,
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
                    messages.success(request, _summary(done.hand.number, described))
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
        "steps": (-10, -5, 5, 10),
    }
    return render(request, "tournaments/score.html", context)


def _summary(number: int, d: dict[str, Any]) -> str:
    text = _("Hand %(n)s saved.") % {"n": number}
    if d["winner_entry"] is not None:
        return text + " " + _("%(name)s wins the match!") % {"name": d["winner_entry"].name}
    if d["gaining_entry"] is not None and d["level_gain"]:
        text += " " + _("%(name)s +%(gain)s.") % {"name": d["gaining_entry"].name, "gain": d["level_gain"]}
    return text + " " + _("Levels %(a)s : %(b)s; seat %(seat)s (%(name)s) deals next.") % {
        "a": d["levels"][0], "b": d["levels"][1], "seat": d["next_dealer"], "name": d["next_dealer_name"]}


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
