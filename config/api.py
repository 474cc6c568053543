"""API-wide conventions: one error body for every 4xx and 5xx answer.

Every error answer is a JSON object with ``detail`` (one human sentence), ``code`` (a stable
machine word) and, for invalid input, ``errors``: a map from the JSON path of each bad field
(``outcome.attackers_points``, ``hands.1``) to a list of messages saying why.
"""

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


# Django's own wording of get_object_or_404 ("No Match matches the given query."): English and a class
# name, so a person is told "Not found." in their language instead.
DJANGO_NOT_FOUND = re.compile(r"^No \w+ matches the given query\.$")


def refusal_message(exception: Exception | None) -> str:
    """The sentence a refusal (a page's or the API's) carries (``PermissionDenied(_("Only an organizer …"))``,
    ``Http404(_("No such match."))``), or "" when it has none a person should read."""
    args = getattr(exception, "args", ())
    message = args[0] if args and isinstance(args[0], str) else ""
    return "" if DJANGO_NOT_FOUND.match(message) else message


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested error structure into ``{"a.b.0": ["message"]}``.

    >>> flatten_errors({"outcome": {"bid": ["Too low."]}, "hands": [{}, {"x": ["Bad."]}]})
    {'outcome.bid': ['Too low.'], 'hands.1.x': ['Bad.']}
    """
    out: dict[str, list[str]] = {}
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors" and not prefix:
                path = "non_field_errors"
            out.update(flatten_errors(value, path))
    elif isinstance(detail, list) and detail and all(isinstance(d, str) for d in detail):
        out[prefix or "non_field_errors"] = [str(d) for d in detail]
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            out.update(flatten_errors(value, f"{prefix}.{index}" if prefix else str(index)))
    elif detail not in (None, "", {}):
        out[prefix or "non_field_errors"] = [str(detail)]
    return out


def invalid_input(errors: Mapping[str, list[str]]) -> Response:
    """A 400 answer for field errors already keyed by JSON path."""
    return Response(
        {"detail": _("Invalid input."), "code": "invalid", "errors": dict(errors)},
        status=status.HTTP_400_BAD_REQUEST,
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    from django.db import Error as DatabaseError
    from django.http import Http404

    if isinstance(exc, Http404) and not refusal_message(exc):
        # get_object_or_404's English "No Match matches the given query.": said in the caller's language
        exc = Http404(_("Not found."))
    response = drf_exception_handler(exc, context)
    if response is None:
        from django.db import IntegrityError

        if isinstance(exc, IntegrityError):
            # A unique key taken by a request that got there first (two creates at once): retry-safe.
            logger.warning("integrity error in the API: %s", exc)
            return Response({"detail": _("This conflicts with data saved at the same moment by another request "
                                         "(a name, number or seed already taken). Reload and try again."),
                             "code": "conflict"}, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, DatabaseError):
            logger.exception("database error in the API")
            return Response({"detail": _("The database is unavailable or failed; nothing was saved. Try again."),
                             "code": "database_error"}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return None
    if isinstance(exc, ValidationError):
        return invalid_input(flatten_errors(exc.detail))
    data = response.data
    if isinstance(data, Mapping) and "detail" in data:
        code = getattr(data["detail"], "code", None) or getattr(exc, "default_code", "error")
        body = {"detail": str(data["detail"]), "code": str(code)}
        body.update({k: v for k, v in data.items() if k not in body})
        response.data = body
    return response
