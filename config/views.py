"""Project-wide views."""

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse as url_reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from config.api import invalid_input, refusal_message


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
    # APIView's default is DEFAULT_PARSER_CLASSES as classes (the stubs type the setting as import strings).
    parser_classes = APIView.parser_classes

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
    """404: JSON under /api/ (every API answer carries ``detail``), the site's page elsewhere (in the
    site's layout and language, with the reason when the view gave one)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return render(request, "404.html", {"message": refusal_message(exception)}, status=404)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403 from a page. An anonymous visitor is sent to log in (back here afterwards), as the pages that
    need a login do; a signed-in user without the rights gets the site's page saying why and what to do.
    Under /api/ the answer stays JSON."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": refusal_message(exception) or _("You do not have permission to do this."),
                             "code": "permission_denied"}, status=403)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "403.html", {"message": refusal_message(exception),
                                        "login_url": f"{url_reverse('login')}?{urlencode({'next': request.get_full_path()})}"}, status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, the site's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Something went wrong on the server; nothing was saved."),
                             "code": "server_error"}, status=500)
    return defaults.server_error(request)
