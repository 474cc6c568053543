"""Test-only views for the idempotency pieces (``@pytest.mark.urls("tests.safety.urls")``)."""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth.models import Group
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from safety.idempotency import IdempotentAPIMixin, idempotent, idempotent_form, idempotent_page


class Gate:
    """Lets a test hold a write in the middle of the view (the concurrency test)."""

    entered = threading.Event()
    release = threading.Event()
    hold = False


def _write(name: str) -> Group:
    if Gate.hold:
        Gate.entered.set()
        Gate.release.wait(timeout=20)
    return Group.objects.create(name=f"{name}-{Group.objects.count()}")


@csrf_exempt
@idempotent
def write_view(request: HttpRequest, token: str | None = None) -> HttpResponse:
    if request.POST.get("fail") == "500" or request.headers.get("X-Fail") == "500":
        return JsonResponse({"detail": "boom"}, status=500)
    group = _write("fn")
    return JsonResponse({"id": group.pk, "name": group.name}, status=201)


class NameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=50)


class WriteApi(IdempotentAPIMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    def post(self, request: Any) -> Response:
        data = NameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["name"] == "crash":
            raise RuntimeError("the view crashed")
        group = _write(data.validated_data["name"])
        return Response({"id": group.pk, "name": group.name}, status=201)


@csrf_exempt
def form_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return idempotent_form(request, lambda: _save_and_redirect(request))
    return HttpResponse("form")


def _save_and_redirect(request: HttpRequest) -> HttpResponse:
    group = _write(request.POST.get("name", "form"))
    return redirect(f"/done/{group.pk}/")


@csrf_exempt
@idempotent_page
def inner_page(request: HttpRequest, token: str) -> HttpResponse:
    """A page view that another page view hands its POST on to (like the table link's confirmation)."""
    group = _write(f"inner-{token}")
    return redirect(f"/done/{group.pk}/")


@csrf_exempt
@idempotent_page
def outer_page(request: HttpRequest, pk: int) -> HttpResponse:
    return inner_page(request, token=f"token{pk}")


urlpatterns = [
    path("outer/<int:pk>/", outer_page),
    path("inner/<str:token>/", inner_page),
    path("write/", write_view),
    path("t/<str:token>/write/", write_view),
    path("api/write/", WriteApi.as_view()),
    path("form/", form_view),
    path("", include("config.urls")),  # the site's pages, which the refusal page links to
]
