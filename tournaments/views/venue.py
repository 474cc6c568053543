"""A physical table's permanent link ``/v/<token>/`` (the QR code on its table card): it opens the match
or individual table played there now through the session grant of :mod:`.table_grants` (the scoring
page is the same as with a match's own link), else says what comes next there. A revoked link is
answered with a 404 page that says so."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournaments import selectors
from tournaments.selectors import venue as venue_selectors
from tournaments.views.table_grants import grant_table


@require_safe
def venue_link(request: HttpRequest, token: str) -> HttpResponse:
    table = venue_selectors.venue_table_for_token(token)
    if table is None or table.revoked_at is not None:
        return render(request, "tournaments/venue_table.html", {"table": table, "revoked": table is not None,
                                                                 "unknown": table is None}, status=404)
    now = venue_selectors.table_now(table)
    if now.current is not None:
        return grant_table(request, now.current, venue_token=table.token)
    context = {"table": table, "tournament": table.tournament, "upcoming": now.upcoming, "last": now.last,
               "upcoming_round": selectors.round_label(now.upcoming.round.name) if now.upcoming else "",
               "last_round": selectors.round_label(now.last.round.name) if now.last else ""}
    return render(request, "tournaments/venue_table.html", context)
