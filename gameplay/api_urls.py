"""API of the rules engine (mounted under /api/v1/)."""

from django.urls import path

from gameplay import apis

urlpatterns = [
    path("referee/trick", apis.RefereeTrickApi.as_view(), name="api-referee-trick"),
]
