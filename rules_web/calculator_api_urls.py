"""API of the scoring app (mounted under /api/v1/)."""

from django.urls import path

from rules_web import calculator_apis as apis

urlpatterns = [
    path("scoring/hand", apis.ScoringHandApi.as_view(), name="api-scoring-hand"),
]
