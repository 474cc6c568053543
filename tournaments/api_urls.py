"""API of the tournaments app (mounted under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from tournaments import apis
from tournaments.trick_urls import api_urlpatterns as trick_api_urlpatterns

router = SimpleRouter()
router.register("players", apis.PlayerViewSet, basename="api-player")
router.register("teams", apis.TeamViewSet, basename="api-team")
router.register("tournaments", apis.TournamentViewSet, basename="api-tournament")
router.register("entries", apis.EntryViewSet, basename="api-entry")
router.register("stages", apis.StageViewSet, basename="api-stage")
router.register("matches", apis.MatchViewSet, basename="api-match")
urlpatterns = router.urls + trick_api_urlpatterns
