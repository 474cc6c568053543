"""Project-wide views."""

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config.api import invalid_input


class ApiRootView(APIView):
    """The API root: links to the schema, the docs and every resource."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        from config.api_index import api_links

        links = {"schema": reverse("api-schema", request=request), "docs": reverse("api-docs", request=request)}
        links.update(api_links(request))
        return Response(links)


class ObtainTokenView(ObtainAuthToken):
    """``POST /api/v1/auth/token/`` with ``username`` and ``password`` → ``{"token": ...}`` for the
    ``Authorization: Token …`` header. Rate-limited like the log-in page (429 when locked out)."""

    # The project's parsers (ObtainAuthToken names its own list): JSON depth and NUL checks apply here too.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    def post(self, request: Request, *args: object, **kwargs: object) -> Response:
        from axes.handlers.proxy import AxesProxyHandler

        username = request.data.get("username") if hasattr(request.data, "get") else None
        if isinstance(username, str) and "\x00" in username:  # form bodies too: refused before any lookup
            return invalid_input({"username": [_("Text may not contain a NUL character (\\0).")]})
        locked = Response({"detail": _("Too many failed log-in attempts: try again later."), "code": "locked_out"},
                          status=429)
        from safety.login_limit import is_locked

        if is_locked(request._request) or not AxesProxyHandler.is_allowed(request._request, {"username": username}):
            return locked
        response = super().post(request, *args, **kwargs)
        if getattr(request, "axes_locked_out", False) or getattr(request._request, "axes_locked_out", False):
            return locked
        return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400 (e.g. a request Django refuses as too large or suspicious): JSON under /api/."""
    if request.path.startswith("/api/"):
        from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent

        if isinstance(exception, RequestDataTooBig | TooManyFieldsSent):
            return JsonResponse({"detail": _("The request body is too large or has too many fields."),
                                 "code": "request_too_large"}, status=400)
        return JsonResponse({"detail": _("Bad request."), "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception or Exception())


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/ (every API answer carries ``detail``), the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception or Http404())


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Something went wrong on the server; nothing was saved."),
                             "code": "server_error"}, status=500)
    return defaults.server_error(request)
