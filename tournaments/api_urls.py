"""API of the tournaments app (mounted under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from tournaments import apis

router = SimpleRouter()
router.register("players", apis.PlayerViewSet, basename="player")
urlpatterns = router.urls
