"""On-demand PDFs off the request path: each rendered PDF is kept in the cache under the document's
address, language and the tournament's results stamp, so the same standings render once until a
result changes; anonymous visitors get a few PDFs a minute per address (``PDF_ANON_PER_MINUTE``), and
while results keep changing (a tournament in play) they get the latest render if it is younger than
``PDF_ANON_MAX_AGE`` seconds (60) instead of a new one — so visitors cannot make the server render a PDF
for every hand entered. Signed-in users always get the render of the current results."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from safety.client_ip import client_ip
from safety.ratelimit import hit
from tournaments.models import Tournament
from tournaments.selectors.stamps import results_stamp


def pdf_cache_key(*, path: str, query: str, tournament: Tournament | None) -> str:
    language = translation.get_language() or settings.LANGUAGE_CODE
    raw = "\x00".join([path, query, language, results_stamp(tournament)])
    return "pdf:" + hashlib.sha256(raw.encode()).hexdigest()


def pdf_served(*, request: Any, path: str, query: str, tournament: Tournament | None,
               render: Callable[[], tuple[bytes, int]]) -> bytes:
    """The PDF for this request: the render of the current results (cached per results stamp); for an
    anonymous visitor, the latest render of this document when it is younger than ``PDF_ANON_MAX_AGE``."""
    exact = pdf_cache_key(path=path, query=query, tournament=tournament)
    pdf = cache.get(exact)
    if pdf is not None:
        return pdf
    language = translation.get_language() or settings.LANGUAGE_CODE
    latest_key = "pdf-latest:" + hashlib.sha256("\x00".join([path, query, language]).encode()).hexdigest()
    signed_in = getattr(request, "user", None) is not None and request.user.is_authenticated
    if not signed_in:
        latest = cache.get(latest_key)
        if latest is not None and time.time() - latest[0] < float(getattr(settings, "PDF_ANON_MAX_AGE", 60)):
            return latest[1]
    pdf, _pages = render()
    keep = int(getattr(settings, "PDF_CACHE_SECONDS", 3600))
    cache.set(exact, pdf, keep)
    cache.set(latest_key, (time.time(), pdf), keep)
    return pdf


def anonymous_pdf_wait(request: Any) -> int | None:
    """None when this PDF request may go on; for an anonymous visitor over the per-address limit,
    the seconds to wait. Signed-in users (organizers, scorers) are not limited."""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return None
    return hit("pdf", client_ip(request), int(getattr(settings, "PDF_ANON_PER_MINUTE", 6)), 60)
