"""The resources listed at the API root; each app adds its entry points here."""

from django.urls import NoReverseMatch
from rest_framework.request import Request
from rest_framework.reverse import reverse

API_ENTRY_POINTS: dict[str, str] = {
    "referee_trick": "api-referee-trick",
    "scoring_hand": "api-scoring-hand",
    "players": "api-player-list",
    "teams": "api-team-list",
    "tournaments": "api-tournament-list",
    "entries": "api-entry-list",
    "stages": "api-stage-list",
    "matches": "api-match-list",
}


def api_links(request: Request) -> dict[str, str]:
    links: dict[str, str] = {}
    for key, name in API_ENTRY_POINTS.items():
        try:
            links[key] = reverse(name, request=request)
        except NoReverseMatch:
            continue
    return links
