"""What the pages share: the tournament a visitor may see or organize, their roles, htmx polling,
the partnership rules of a tournament, and what a match page shows."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from config.i18n import core_lang
from scoring.rules import PartnershipRules
from tournaments import selectors
from tournaments.models import PARTNERSHIP_VARIANTS, Match, Stage, Tournament
from tournaments.permissions import is_organizer, is_scorer
from tournaments.rulebook import rule_book
from tournaments.selectors import pages
from tournaments.services.hands import initial_state

HTMX_STOP_POLLING = 286


class HtmxHttpRequest(HttpRequest):
    """The request type of the views that read ``request.htmx``: django-htmx's middleware (config/settings)
    sets it on every request; only the type checker needs this class (django-htmx's documented idiom)."""

    htmx: HtmxDetails


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = selectors.tournament_get_for_viewer(pk=pk, user=request.user)
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


def organizer_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    return tournament


def roles(request: HttpRequest, tournament: Tournament) -> dict[str, bool]:
    organizer = is_organizer(request.user, tournament)
    return {"is_organizer": organizer, "is_scorer": organizer or is_scorer(request.user, tournament)}


def stop_polling_when(request: HtmxHttpRequest, response: HttpResponse, done: bool) -> HttpResponse:
    """htmx stops polling when it receives status 286: nothing changes any more."""
    if done and request.htmx:
        response.status_code = HTMX_STOP_POLLING
    return response


def partnership_rules(tournament: Tournament) -> PartnershipRules | None:
    rules = rule_book(tournament, lang=core_lang())
    return rules if isinstance(rules, PartnershipRules) else None


def is_individual(match: Match) -> bool:
    return match.stage.format == Stage.Format.TABLE_ROUNDS


def confirmation(match: Match) -> dict[str, Any]:
    """Whether the result waits for confirmation, and by whom (the losing side; either side after a draw)."""
    awaiting = match.status == Match.Status.FINISHED and match.confirmed_at is None
    losing = None if match.is_draw or match.winner_side is None else 1 - match.winner_side
    return {"awaiting": awaiting, "losing_side": losing,
            "losing_entry": match.entry(losing) if losing is not None else None}


def limit_info(match: Match) -> dict[str, Any] | None:
    """A partnership match with a hand limit (fixed deal, 把数制): hands played of the limit, and the side
    that has won because the trailing side cannot catch up in the hands left."""
    rules = partnership_rules(match.stage.tournament)
    if rules is None or rules.hand_limit is None:
        return None
    hands = list(match.hands.all())
    last = (hands[-1].result or {}) if hands else {}
    decided = last.get("decided")
    return {"limit": rules.hand_limit, "played": match.hands_played, "decided": decided,
            "decided_entry": match.entry(decided) if decided is not None else None,
            "drawn": bool(last.get("match_drawn")), "tie": rules.hand_limit_tie}


def replay_numbers(match: Match) -> list[int]:
    """The hands of ``match`` recorded trick by trick: the ones the replay page (``hand-replay``) can show."""
    return list(match.hands.filter(trick_log__isnull=False).order_by("number").values_list("number", flat=True))


def match_context(match: Match) -> dict[str, Any]:
    common = {"match": match, "round_name": selectors.round_label(match.round.name), "confirm": confirmation(match),
              "replays": replay_numbers(match)}
    if is_individual(match):
        return {**common, "individual": True, "table_seats": pages.table_seats(match),
                "hands": pages.individual_hand_rows(match), "hands_planned": match.stage.hands_per_table,
                "red_five": match.stage.tournament.spec.settlement.contract}
    seats = selectors.seat_names(match)
    preview = selectors.next_dealer_preview(match)
    levels = (match.state or {}).get("levels")
    if not levels and match.stage.tournament.variant in PARTNERSHIP_VARIANTS:
        levels = initial_state(match.stage.tournament, 0)["levels"]
    return {
        # "next_deal", not "preview": the scoring page's own "preview" (of the hand being entered) must not
        # stand in for it, or the page read "Seat 1 () deals; Team A plays its level ." (issue 28)
        **common, "seats": seats, "next_deal": preview, "levels": levels or ["", ""],
        "dealer_name": seats[preview["dealer"]] if preview else "", "hands": pages.hand_rows(match),
        "limit": limit_info(match),
        "sides": [{"number": side, "entry": match.entry(side), "seats": (seats[side], seats[side + 2]),
                   "level": (levels or ["", ""])[side], "won": match.winner_side == side} for side in (0, 1)],
    }
