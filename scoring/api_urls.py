"""API of the scoring app (mounted under /api/v1/)."""

from django.urls import path

from scoring import apis

urlpatterns = [
    path("scoring/hand", apis.ScoringHandApi.as_view(), name="api-scoring-hand"),
]
