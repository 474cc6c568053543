"""On-demand PDFs off the request path: each rendered PDF is kept in the cache under the document's
address, language and the tournament's results stamp, so the same standings render once until a
result changes; anonymous visitors get a few PDFs a minute per address (``PDF_ANON_PER_MINUTE``)."""

from __future__ import annotations

import hashlib
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


def pdf_cached(*, key: str, render: Callable[[], tuple[bytes, int]]) -> bytes:
    """The cached PDF for ``key``, or ``render()``'s (then kept for ``PDF_CACHE_SECONDS``)."""
    pdf = cache.get(key)
    if pdf is None:
        pdf, _pages = render()
        cache.set(key, pdf, int(getattr(settings, "PDF_CACHE_SECONDS", 3600)))
    return pdf


def anonymous_pdf_wait(request: Any) -> int | None:
    """None when this PDF request may go on; for an anonymous visitor over the per-address limit,
    the seconds to wait. Signed-in users (organizers, scorers) are not limited."""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return None
    return hit("pdf", client_ip(request), int(getattr(settings, "PDF_ANON_PER_MINUTE", 6)), 60)
