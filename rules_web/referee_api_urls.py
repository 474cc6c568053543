"""API of the rules engine (mounted under /api/v1/)."""

from django.urls import path

from rules_web import referee_apis as apis

urlpatterns = [
    path("referee/trick", apis.RefereeTrickApi.as_view(), name="api-referee-trick"),
]
