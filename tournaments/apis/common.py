"""Shared pieces of the REST API (``/api/v1/``): ids from the URL and the query string, the actor,
the mapping of service errors to HTTP answers, and the read-or-signed-in permission.

Reading: anyone may read public tournaments; organizers and scorers also read their private ones.
Writing: signed-in users (session or token) by role; a table's secret link token (header
``X-Table-Token`` or ``?token=``) lets its holder record hands at that table only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import invalid_input
from tournaments import services
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion

MAX_ID = 2**63 - 1


def query_id(value: str | None, name: str = "tournament") -> int | None:
    """A database id from a query parameter (None when absent); anything else is a 400 naming it."""
    if value is None or value == "":
        return None
    if value.isascii() and value.isdigit() and int(value) <= MAX_ID:
        return int(value)
    raise serializers.ValidationError({name: [_("Must be the id of a tournament (a whole number).")]})


def object_or_404(queryset: QuerySet[Any], pk: Any) -> Any:
    """``get_object_or_404`` that answers 404 (not 500) for ids that are not whole numbers."""

    if not (str(pk).isascii() and str(pk).isdigit()) or int(str(pk)) > MAX_ID:
        raise Http404
    return get_object_or_404(queryset, pk=int(str(pk)))


def actor_for(request: Request, via: str = "api") -> services.Actor:
    return services.Actor(request.user if request.user.is_authenticated else None, via)


def service_errors(exc: Exception) -> Response:
    """Map a service exception to its HTTP answer."""
    if isinstance(exc, ServiceError):
        return invalid_input(exc.field_errors)
    if isinstance(exc, StaleVersion):
        return Response({"detail": _("Someone else changed this match first: reload and try again."),
                         "code": "stale_version", "current": exc.current}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, CorrectionRefused):
        return Response({"detail": str(exc), "code": "correction_refused", "affected": exc.affected},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotAllowed):
        return Response({"detail": str(exc), "code": "permission_denied"}, status=status.HTTP_403_FORBIDDEN)
    raise exc


class ReadOrSignedIn(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)
