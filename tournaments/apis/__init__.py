"""REST API of the tournaments app (``/api/v1/``): thin views over services (one call per write)
and selectors (every queryset), one module per area; the view sets are re-exported here for
:mod:`tournaments.api_urls`."""

from tournaments.apis.entries import EntryViewSet
from tournaments.apis.matches import MatchViewSet
from tournaments.apis.players import PlayerViewSet, TeamViewSet
from tournaments.apis.stages import StageViewSet
from tournaments.apis.tournaments import TournamentViewSet

__all__ = ["EntryViewSet", "MatchViewSet", "PlayerViewSet", "StageViewSet", "TeamViewSet", "TournamentViewSet"]
