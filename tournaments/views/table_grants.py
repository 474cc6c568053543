"""The table page without its secret in the address.

Opening a table's link ``/t/<token>/`` stores a grant for that table in the visitor's session (for
``TABLE_GRANT_HOURS``, 12 by default) and redirects to ``/table/<match id>/``; the token then never
appears in page addresses, links, form actions or log lines. A new link token (the organizer
regenerates it) ends the grant. A grant opened through a physical table's permanent link ``/v/<token>/``
also remembers that link, and ends when the organizer revokes or reissues it. Writes posted to ``/t/<token>/`` itself still work (old bookmarks,
scripts).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Match, VenueTable
from tournaments.permissions import token_matches
from tournaments.selectors import pages

SESSION_KEY = "table_grants"


def grant_seconds() -> int:
    return int(float(getattr(settings, "TABLE_GRANT_HOURS", 12)) * 3600)


def grant_table(request: HttpRequest, match: Match, venue_token: str = "") -> HttpResponseRedirect:
    """Remember the table's token in the session and send the visitor to the token-free page."""
    grants = dict(request.session.get(SESSION_KEY) or {})
    now = int(time.time())
    grants = {k: v for k, v in grants.items() if v.get("until", 0) > now}
    grants[str(match.pk)] = {"token": match.scorer_token, "until": now + grant_seconds()}
    if venue_token:
        grants[str(match.pk)]["venue"] = venue_token
    request.session[SESSION_KEY] = grants
    request.session.cycle_key()  # a fresh session id: a grant is never tied to an id seen before
    return HttpResponseRedirect(reverse("table-session", args=[match.pk]))


def granted_match(request: HttpRequest, pk: int) -> tuple[Match, str]:
    """The table this session holds a live grant for (its token still current), else 404."""
    grant = (request.session.get(SESSION_KEY) or {}).get(str(pk)) or {}
    token = str(grant.get("token") or "")
    match = pages.match_for_token(token) if grant.get("until", 0) > time.time() else None
    venue = str(grant.get("venue") or "")
    if venue and not VenueTable.objects.filter(token=venue, revoked_at__isnull=True).exists():
        match = None  # the table's permanent link was revoked or reissued meanwhile
    if match is None or match.pk != pk or not token_matches(match, token):
        raise Http404(_("This table's page has expired or was not opened here: open the table's link again."))
    return match, token
