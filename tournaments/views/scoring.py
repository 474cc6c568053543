"""Scoring at the table: reached by a signed-in scorer (``/matches/<id>/score/``) or by a table's
secret link (``/t/<token>/``); the hand form with its preview, corrections, undo, individual tables,
confirmation. Every form works without JavaScript; htmx adds the live parts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.i18n import core_lang
from safety.idempotency import idempotent_page
from scoring.errors import ScoringInputError
from scoring.rules import PartnershipRules
from tournaments import selectors, services
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.forms import (
    CorrectionForm,
    HandForm,
    RedFiveHandForm,
    TableHandForm,
    YongzhouHandForm,
    add_service_errors,
    form_field,
)
from tournaments.labels import hand_saved_message, seat_player, seat_players
from tournaments.models import PARTNERSHIP_VARIANTS, Match, Tournament
from tournaments.permissions import can_score_match, is_organizer, is_scorer
from tournaments.selectors import pages
from tournaments.services import hands as hand_services
from tournaments.services import table_hands as table_services
from tournaments.services.corrections import (
    CorrectionPreview,
    TableCorrectionPreview,
    correction_preview,
    table_correction_preview,
)
from tournaments.services.figures import Figures
from tournaments.services.hands import initial_state, score_hand
from tournaments.views.common import (
    HtmxHttpRequest,
    is_individual,
    match_context,
    partnership_rules,
)
from tournaments.views.table_grants import grant_table, granted_match

# --------------------------------------------------------------------------- scoring at the table

@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page(read_only_actions=("preview", "correct_preview"))
def match_score(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = selectors.match_detail(pk)
    if match is None:
        raise Http404(_("No such match."))
    if not is_scorer(request.user, match.stage.tournament):
        raise PermissionDenied(_("You are not a scorer of this tournament."))
    return _score(request, match, services.Actor(request.user, "login"), reverse("match-score", args=[pk]))


@require_http_methods(["GET", "POST"])
@idempotent_page(read_only_actions=("preview", "correct_preview"))
def table_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    match = pages.match_for_token(token)
    if match is None:
        raise Http404(_("No such table link."))
    if request.method == "GET" and not request.htmx:  # the grant goes into the session; no token in later URLs
        return grant_table(request, match)
    user = request.user if request.user.is_authenticated else None
    return _score(request, match, services.Actor(user, "token"), reverse("table-link", args=[token]))


def _ask_a_tricks(rules: PartnershipRules | None, state: dict[str, Any] | None, dealer: int | None) -> bool:
    if rules is None or not rules.a_pass_conditions or not state or dealer is None:
        return False
    return state["levels"][dealer % 2] == rules.top_level


def _hand_form(match: Match, rules: PartnershipRules | None, data: QueryDict | None = None) -> HandForm:
    state = match.state or None
    form = HandForm(data, first_hand=not match.hands_played, tournament=match.stage.tournament,
                    ask_a_tricks=_ask_a_tricks(rules, state, state and state.get("dealer")),
                    throw_penalties=bool(rules and rules.throw_penalties),
                    initial={"version": match.version})  # nothing that changes the result is preset
    if "dealer" in form.fields:
        form_field(form, "dealer", forms.ChoiceField).choices = list(enumerate(seat_players(match.stage.tournament,
                                                                    selectors.seat_names(match))))
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
        result = score_hand(tournament, state, Figures.parsed(tournament.variant, form.outcome(), core_lang()).typed(
            tournament.variant, core_lang()))
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
        "result": result, "dealer": dealer, "dealer_side": dealer % 2, "attacking_side": 1 - dealer % 2,
        "dealer_name": seats[dealer],
        "gaining_entry": match.entry(gaining) if gaining is not None else None, "gaining_side": gaining,
        "level_gain": result.get("level_gain"), "attackers_total": result.get("attackers_total"),
        "deal_changes": result.get("deal_changes"), "levels": new_state.get("levels") or ["", ""],
        "next_dealer": next_dealer, "next_dealer_name": seats[next_dealer] if next_dealer is not None else "",
        "winner_side": winner, "winner_entry": match.entry(winner) if winner is not None else None,
    }


@dataclass
class _ScorePage:
    """What the score page shows besides the match: the hand form, a correction being made and its
    effect, a preview, whether the match changed meanwhile, a correction refused."""

    form: HandForm
    correction: CorrectionForm | None = None
    correction_effect: CorrectionPreview | None = None
    preview: dict[str, Any] | None = None
    stale: bool = False
    refused: str = ""


def _score(request: HtmxHttpRequest, match: Match, actor: services.Actor, base_url: str) -> HttpResponse:
    tournament = match.stage.tournament
    seen = request.GET.get("seen", "")
    if request.method == "GET" and request.htmx and seen.isdigit():
        # The page asks every few seconds whether someone else changed the match meanwhile.
        if int(seen) == match.version:
            return HttpResponse(status=204)
        return render(request, "tournaments/_score_changed.html", {"base_url": base_url})
    if is_individual(match):
        return _score_table(request, match, actor, base_url)
    rules = partnership_rules(tournament) if tournament.variant in PARTNERSHIP_VARIANTS else None
    page = _ScorePage(_hand_form(match, rules))
    rewritable = hand_services.result_is_open(match, actor)
    if request.GET.get("hand", "").isdigit() and rewritable:
        page.correction = _correction_form(request, match, rules, int(request.GET["hand"]))
    if request.method == "POST":
        action = request.POST.get("action", "record")
        if action == "undo":
            return _undo(request, match, actor, base_url)
        if action == "preview":
            page.form = _hand_form(match, rules, request.POST)
            if page.form.is_valid():
                page.preview = _preview(match, page.form)
            if request.htmx:
                return render(request, "tournaments/_score_preview.html",
                              {"preview": page.preview, "form": page.form, "match": match})
            response = None
        elif action in ("correct", "correct_preview"):
            response = _post_correction(request, match, actor, rules, base_url, action, page)
        else:
            response = _post_hand(request, match, actor, rules, base_url, page)
        if response is not None:
            return response
        if page.stale:
            match = _keep_typed_figures(request, match, rules, action, page)
    context = {
        "tournament": tournament, **match_context(match), "form": page.form, "correction": page.correction,
        "preview": page.preview, "stale": page.stale, "refused": page.refused, "base_url": base_url,
        "correction_effect": page.correction_effect,
        "confirm_later": bool(request.POST.get("confirm_later")) if request.method == "POST" else False,
        "finished": match.status == Match.Status.FINISHED,
        "playable": match.status in (Match.Status.READY, Match.Status.PLAYING)
        and tournament.status == Tournament.Status.RUNNING,
        "allow_force": is_organizer(request.user, tournament), "first_hand": not match.hands_played,
        "steps": (-10, -5, 5, 10), "token": match.scorer_token, "deal": _deal(match),
        "rewritable": rewritable,
    }
    return render(request, "tournaments/score.html", context)


def _post_correction(request: HttpRequest, match: Match, actor: services.Actor, rules: PartnershipRules | None,
                     base_url: str, action: str, page: _ScorePage) -> HttpResponse | None:
    """A correction of an earlier hand: its before/after preview, a confirmation asked when the deal
    moves in later hands, else saved (a redirect); None to show the page again."""
    number = request.POST.get("c-number", "")
    correction = _correction_form(request, match, rules, int(number) if number.isdigit() else 0, request.POST)
    page.correction = correction
    if correction is None:
        messages.error(request, _("There is no such hand to correct."))
        return redirect(base_url)
    if not correction.is_valid():
        return None
    d = correction.cleaned_data
    effect = page.correction_effect = _correction_effect(match, correction)
    if action == "correct_preview" or effect is None:
        return None  # show the before/after table (or the figures' errors) and the save button
    if effect.later_sides_changed and not request.POST.get("confirm_later"):
        correction.add_error(None, _(
            "The deal moves to the other side in later hands (%(hands)s): confirm that their figures "
            "still hold, or cancel and correct those hands too.")
            % {"hands": ", ".join(str(n) for n in effect.later_sides_changed)})
        return None
    try:
        done = services.hand_correct(match_id=match.pk, number=d["number"],
                                     outcome=correction.outcome(), version=d["version"], actor=actor,
                                     force=d.get("force", False), trump=correction.trump_code())
    except ServiceError as exc:
        add_service_errors(correction, exc.field_errors, HandForm.ALIASES)
    except StaleVersion:
        page.stale = True
    except CorrectionRefused as exc:
        page.refused = str(exc)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    else:
        messages.success(request, _("Hand %(n)s corrected; the match was recomputed.")
                         % {"n": d["number"]})
        for warning in done.warnings:
            messages.warning(request, warning)
        return redirect(base_url)
    return None


def _post_hand(request: HttpRequest, match: Match, actor: services.Actor, rules: PartnershipRules | None,
               base_url: str, page: _ScorePage) -> HttpResponse | None:
    """The next hand's figures recorded (a redirect), or None to show the form with its errors."""
    form = page.form = _hand_form(match, rules, request.POST)
    if not form.is_valid():
        return None
    d = form.cleaned_data
    try:
        figures = Figures.parsed(match.stage.tournament.variant, form.outcome(), core_lang())  # the form edge
        done = services.hand_record(match_id=match.pk, outcome=figures, version=d["version"],
                                    actor=actor, dealer=d.get("dealer"), trump=form.trump_code())
    except ScoringInputError as exc:
        add_service_errors(form, exc.field_errors, HandForm.ALIASES)
    except ServiceError as exc:
        add_service_errors(form, exc.field_errors, HandForm.ALIASES)
    except StaleVersion:
        page.stale = True
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    else:
        described = _describe(done.match, done.result, done.hand.dealer)
        messages.success(request, hand_saved_message(done.match, done.hand.number, described))
        return redirect(base_url)
    return None


def _keep_typed_figures(request: HttpRequest, match: Match, rules: PartnershipRules | None, action: str,
                        page: _ScorePage) -> Match:
    """Someone else changed the match meanwhile: the fresh match, the figures typed so far kept
    against its new version."""
    match = selectors.match_detail(match.pk) or match
    data = request.POST.copy()
    data["version"] = data["c-version"] = str(match.version)
    if action == "correct" and page.correction is not None:
        number = page.correction.initial.get("number", 0)
        page.correction = _correction_form(request, match, rules, number, data)
        if page.correction is not None:
            page.correction.is_valid()
    elif match.status != Match.Status.FINISHED:
        page.form = _hand_form(match, rules, data)
        page.form.is_valid()
    return match


def _correction_effect(match: Match, correction: CorrectionForm) -> CorrectionPreview | None:
    """The before/after rows of a correction (nothing written); None with the errors on the form."""
    try:
        return correction_preview(match, correction.cleaned_data["number"], correction.outcome())
    except ServiceError as exc:
        add_service_errors(correction, exc.field_errors, HandForm.ALIASES)
        return None


def _deal(match: Match) -> dict[str, Any] | None:
    """Who deals the next hand and which side attacks, for the sentence above the form (None before the
    first hand: the scorer chooses the dealer)."""
    deal = selectors.next_dealer_preview(match)
    if deal is None:
        return None
    return {**deal, "dealer_name": selectors.seat_names(match)[deal["dealer"]], "attacking_side": 1 - deal["dealer_side"]}


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
    except (CorrectionRefused, NotAllowed) as exc:  # NotAllowed: a final result (organizers only)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The last hand was undone."))
    return redirect(base_url)


# --------------------------------------------------------------------------- individual tables (red five, Yongzhou)

def _table_form(match: Match, data: QueryDict | None = None, *, prefix: str | None = None,
                initial: dict[str, Any] | None = None) -> TableHandForm:
    tournament = match.stage.tournament
    seats = [(row["seat"], row["name"]) for row in pages.table_seats(match)]
    initial = {**(initial or {}), "version": match.version}
    # Nothing that changes the result is preset: the dealer (red five: who won the bid), the declarer, the
    # points and who won the last trick are entered every hand.
    if tournament.spec.settlement.contract:
        return RedFiveHandForm(data, seats=seats, decks=tournament.decks, initial=initial, tournament=tournament,
                               prefix=prefix)
    return YongzhouHandForm(data, seats=seats, initial=initial, tournament=tournament, prefix=prefix)


def _table_correction_form(match: Match, number: int, data: QueryDict | None = None) -> TableHandForm | None:
    """The hand form of an individual table filled with hand ``number``'s figures (prefix ``c``; a hidden
    ``number``), or None if the table has no such hand."""
    hand = match.hands.filter(number=number).first() if number > 0 else None
    if hand is None:
        return None
    settlement = match.stage.tournament.spec.settlement
    figures = (RedFiveHandForm if settlement.contract else YongzhouHandForm).initial_from(hand.outcome)
    form = _table_form(match, data, prefix="c", initial={**figures, "number": number})
    form.fields["number"] = forms.IntegerField(widget=forms.HiddenInput)
    return form


def _table_correction_effect(match: Match, form: TableHandForm) -> TableCorrectionPreview | None:
    """The before/after rows of a table correction (nothing written); None with the errors on the form."""
    variant = match.stage.tournament.variant
    try:
        Figures.parsed(variant, form.outcome(), core_lang())  # the form edge: the figures' own errors first
        return table_correction_preview(match, form.cleaned_data["number"], form.outcome())
    except ScoringInputError as exc:
        form.add_service_errors(exc.field_errors)
    except ServiceError as exc:
        form.add_service_errors(exc.field_errors)
    return None


def _table_effect(match: Match, effect: TableCorrectionPreview) -> dict[str, Any]:
    """The before/after rows of a table correction as the page shows them: every seat as people read it
    (``Seat 1 · Zhang Wei``), its figure in the hand and its total after it, before and after."""
    tournament = match.stage.tournament
    names = {seat["seat"]: seat["name"] for seat in pages.table_seats(match)}

    def who(seat: int) -> str:
        return seat_player(tournament, seat, names.get(seat))

    rows = [{"number": row.number, "changed": row.changed, "dealer_changed": row.dealer_changed,
             "dealer_before": who(row.before.dealer), "dealer_after": who(row.after.dealer),
             "seats": [{**cell, "label": who(cell["seat"]), "changed": cell["value_before"] != cell["value_after"]
                        or cell["total_before"] != cell["total_after"]} for cell in row.seats()]}
            for row in effect.rows]
    totals = [{"label": who(seat), "before": before, "after": after}
              for seat, (before, after) in enumerate(zip(effect.totals_before, effect.totals_after, strict=True))]
    return {"number": effect.number, "rows": rows, "totals": totals,
            "totals_changed": effect.totals_before != effect.totals_after,
            "later_dealers_changed": effect.later_dealers_changed}


def _table_correct(request: HtmxHttpRequest, match: Match, actor: services.Actor, base_url: str,
                   action: str) -> tuple[TableHandForm | None, TableCorrectionPreview | None, bool, HttpResponse | None]:
    """A correction posted at an individual table: show its effect (``correct_preview``) or save it.
    Answers the form, the effect, whether the version was stale, and a response when done (a redirect).
    A final result is refused from a table link (only an organizer corrects it: the service says so)."""
    number = request.POST.get("c-number", "")
    form = _table_correction_form(match, int(number) if number.isdigit() else 0, request.POST)
    if form is None:
        messages.error(request, _("There is no such hand to correct."))
        return None, None, False, redirect(base_url)
    if not hand_services.result_is_open(match, actor):
        raise PermissionDenied(_("This result is final: only an organizer can undo or correct its hands."))
    if not form.is_valid():
        return form, None, False, None
    effect = _table_correction_effect(match, form)
    if action == "correct_preview" or effect is None:
        return form, effect, False, None
    try:
        figures = Figures.parsed(match.stage.tournament.variant, form.outcome(), core_lang())  # the form edge
        table_services.table_hand_correct(match_id=match.pk, number=form.cleaned_data["number"], outcome=figures,
                                          version=form.cleaned_data["version"], actor=actor)
    except (ScoringInputError, ServiceError) as exc:
        form.add_service_errors(exc.field_errors)
    except StaleVersion:
        fresh = selectors.match_detail(match.pk) or match
        data = request.POST.copy()
        data["c-version"] = str(fresh.version)
        form = _table_correction_form(fresh, form.cleaned_data["number"], data)
        if form is not None:
            form.is_valid()
        return form, None, True, None
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    else:
        messages.success(request, _("Hand %(n)s corrected; the table's totals were recomputed.")
                         % {"n": form.cleaned_data["number"]})
        return form, effect, False, redirect(base_url)
    return form, effect, False, None


def _table_preview(match: Match, form: TableHandForm) -> dict[str, Any] | None:
    """What the hand would give each seat, computed through scoring without writing."""
    variant = match.stage.tournament.variant
    try:
        result = table_services.score_table_hand(match, Figures.parsed(variant, form.outcome(), core_lang()).typed(
            variant, core_lang()))
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


def _score_table(request: HtmxHttpRequest, match: Match, actor: services.Actor, base_url: str) -> HttpResponse:
    """The scoring page of an individual table: one hand's figures, the preview, one-tap save."""
    tournament = match.stage.tournament
    form = _table_form(match)
    preview: dict[str, Any] | None = None
    stale = False
    rewritable = hand_services.result_is_open(match, actor)
    correction: TableHandForm | None = None
    correction_effect: TableCorrectionPreview | None = None
    if request.GET.get("hand", "").isdigit() and rewritable:
        correction = _table_correction_form(match, int(request.GET["hand"]))
    if request.method == "POST" and request.POST.get("action") in ("correct", "correct_preview"):
        correction, correction_effect, stale, done = _table_correct(request, match, actor, base_url,
                                                                    request.POST["action"])
        if done is not None:
            return done
        if stale:
            match = selectors.match_detail(match.pk) or match
            form = _table_form(match)
    elif request.method == "POST":
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
            except NotAllowed as exc:  # a final result: organizers only
                messages.error(request, str(exc))
            else:
                messages.success(request, _("The last hand was undone."))
            return redirect(base_url)
        form = _table_form(match, request.POST)
        if action == "preview":
            if form.is_valid():
                preview = _table_preview(match, form)
            if request.htmx:
                return render(request, "tournaments/_table_preview.html", {"preview": preview, "form": form,
                                                                              "tournament": tournament})
        elif form.is_valid():
            try:
                figures = Figures.parsed(tournament.variant, form.outcome(), core_lang())  # the form edge
                done = table_services.table_hand_record(match_id=match.pk, outcome=figures,
                                                         version=form.cleaned_data["version"], actor=actor)
            except ScoringInputError as exc:
                form.add_service_errors(exc.field_errors)
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
        "tournament": tournament, **match_context(match), "form": form, "preview": preview, "stale": stale,
        "base_url": base_url, "finished": match.status == Match.Status.FINISHED,
        "playable": match.status in (Match.Status.READY, Match.Status.PLAYING)
        and tournament.status == Tournament.Status.RUNNING,
        "steps": (-10, -5, 5, 10), "token": match.scorer_token,
        "rewritable": rewritable, "correction": correction, "correction_effect": correction_effect,
        "table_effect": _table_effect(match, correction_effect) if correction_effect else None,
    }
    return render(request, "tournaments/score_table.html", context)


# --------------------------------------------------------------------------- confirmation at the table

@require_http_methods(["GET", "POST"])
@idempotent_page
def table_confirm(request: HttpRequest, token: str, side: int) -> HttpResponse:
    """The losing side confirms the result with the table's link (the service refuses the winning side)."""
    match = pages.match_for_token(token)
    if match is None or side not in (0, 1) or is_individual(match):
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
    context = {"tournament": tournament, **match_context(match), "side": side, "entry": match.entry(side),
               "error": error, "base_url": base_url}
    return render(request, "tournaments/confirm.html", context, status=status)


# --------------------------------------------------------------------------- the table page without its token

@require_http_methods(["GET", "POST"])
@idempotent_page(read_only_actions=("preview", "correct_preview"))
def table_session(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table's scoring page, reached through the session's grant."""
    match, _token = granted_match(request, pk)
    user = request.user if request.user.is_authenticated else None
    return _score(request, match, services.Actor(user, "token"), reverse("table-session", args=[pk]))


@require_http_methods(["GET", "POST"])
@idempotent_page
def table_session_confirm(request: HttpRequest, pk: int, side: int) -> HttpResponse:
    """The losing side confirms the result (a table grant in the session, or a signed-in scorer)."""
    match = pages.match_for_token(Match.objects.filter(pk=pk).values_list("scorer_token", flat=True).first() or "")
    if match is None:
        raise Http404(_("No such table link."))
    if not can_score_match(request.user, match):
        match, _token = granted_match(request, pk)
    response = table_confirm(request, match.scorer_token, side)
    if response.status_code == 302:  # back to the table page, without the token
        response["Location"] = reverse("table-session", args=[pk])
    return response
