"""The table page without its secret in the address.

Opening a table's link ``/t/<token>/`` stores a grant for that table in the visitor's session (for
``TABLE_GRANT_HOURS``, 12 by default) and redirects to ``/table/<match id>/``; the token then never
appears in page addresses, links, form actions or log lines. A new link token (the organizer
regenerates it) ends the grant. Writes posted to ``/t/<token>/`` itself still work (old bookmarks,
scripts).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from safety.idempotency import idempotent_page
from tournaments import services, views
from tournaments.models import Match
from tournaments.permissions import can_score_match, token_matches
from tournaments.selectors import pages

SESSION_KEY = "table_grants"


def grant_seconds() -> int:
    return int(float(getattr(settings, "TABLE_GRANT_HOURS", 12)) * 3600)


def grant_table(request: HttpRequest, match: Match) -> HttpResponseRedirect:
    """Remember the table's token in the session and send the visitor to the token-free page."""
    grants = dict(request.session.get(SESSION_KEY) or {})
    now = int(time.time())
    grants = {k: v for k, v in grants.items() if v.get("until", 0) > now}
    grants[str(match.pk)] = {"token": match.scorer_token, "until": now + grant_seconds()}
    request.session[SESSION_KEY] = grants
    request.session.cycle_key()  # a fresh session id: a grant is never tied to an id seen before
    return HttpResponseRedirect(reverse("table-session", args=[match.pk]))


def granted_match(request: HttpRequest, pk: int) -> tuple[Match, str]:
    """The table this session holds a live grant for (its token still current), else 404."""
    grant = (request.session.get(SESSION_KEY) or {}).get(str(pk)) or {}
    token = str(grant.get("token") or "")
    match = pages.match_for_token(token) if grant.get("until", 0) > time.time() else None
    if match is None or match.pk != pk or not token_matches(match, token):
        raise Http404(_("This table's page has expired or was not opened here: open the table's link again."))
    return match, token


@require_http_methods(["GET", "POST"])
@idempotent_page(read_only_actions=("preview",))
def table_session(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's scoring page, reached through the session's grant."""
    match, _token = granted_match(request, pk)
    user = request.user if request.user.is_authenticated else None
    return views._score(request, match, services.Actor(user, "token"), reverse("table-session", args=[pk]))


@require_http_methods(["GET", "POST"])
@idempotent_page
def table_session_confirm(request: HttpRequest, pk: int, side: int) -> HttpResponse:
    """The losing side confirms the result (a table grant in the session, or a signed-in scorer)."""
    match = pages.match_for_token(Match.objects.filter(pk=pk).values_list("scorer_token", flat=True).first() or "")
    if match is None:
        raise Http404(_("No such table link."))
    if not can_score_match(request.user, match):
        match, _token = granted_match(request, pk)
    response = views.table_confirm(request, match.scorer_token, side)
    if response.status_code == 302:  # back to the table page, without the token
        response["Location"] = reverse("table-session", args=[pk])
    return response
