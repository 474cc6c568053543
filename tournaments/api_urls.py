"""API of the tournaments app (mounted under /api/v1/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments import apis
from tournaments.apis import ratings as rating_apis
from tournaments.trick_urls import api_urlpatterns as trick_api_urlpatterns

router = SimpleRouter()
router.register("players", apis.PlayerViewSet, basename="api-player")
router.register("teams", apis.TeamViewSet, basename="api-team")
router.register("tournaments", apis.TournamentViewSet, basename="api-tournament")
router.register("entries", apis.EntryViewSet, basename="api-entry")
router.register("stages", apis.StageViewSet, basename="api-stage")
router.register("matches", apis.MatchViewSet, basename="api-match")
router.register("ratings", rating_apis.RatingViewSet, basename="api-rating")
urlpatterns = router.urls + trick_api_urlpatterns + [
    path("ratings/players/<str:pk>/", rating_apis.PlayerRatingHistoryView.as_view(), name="api-rating-history"),
]
