"""Requests refused before any view reads them: NUL bytes in the address, bodies over the limit."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _


def refuse(request: HttpRequest, status: int, code: str, detail: str) -> HttpResponse:
    """A 4xx answer: JSON with ``detail`` and ``code`` under /api/ (or when JSON is asked for),
    a short plain-text page elsewhere."""
    wants_json = request.path_info.startswith("/api/") or "application/json" in request.headers.get("Accept", "")
    if wants_json:
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return HttpResponse(detail, status=status, content_type="text/plain; charset=utf-8")


def body_limit(request: HttpRequest) -> int:
    """The largest body accepted: ``UPLOAD_MAX_BYTES`` for file uploads (multipart), otherwise
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    if request.META.get("CONTENT_TYPE", "").startswith("multipart/"):
        return int(getattr(settings, "UPLOAD_MAX_BYTES", 10 * 1024 * 1024))
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0) or 2_621_440


class RequestGuardMiddleware:
    """Put it first: refuses ``%00`` in the path or query (400) and a ``Content-Length`` over the
    limit (413) before the body is read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path_info or "\x00" in unquote(query) or "\x00" in unquote(query.replace("+", " ")):
            return refuse(request, 400, "nul_character",
                          _("The address contains a NUL character (%00), which no page or field accepts."))
        raw_length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw_length)
        except ValueError:
            return refuse(request, 400, "bad_content_length",
                          _("The Content-Length header is not a whole number of bytes."))
        limit = body_limit(request)
        if length > limit:
            return refuse(request, 413, "request_too_large",
                          _("The request body is %(size)d bytes; at most %(limit)d bytes are accepted.")
                          % {"size": length, "limit": limit})
        return self.get_response(request)
