"""The live pages' WebSocket routes (docs/tournaments.md, "Live pages"); ``config/routing.py`` joins them
with online play's."""

from __future__ import annotations

from typing import Any

from django.urls import path

from tournaments.consumers import MatchLiveConsumer, TournamentLiveConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/live/tournaments/<int:pk>/", TournamentLiveConsumer.as_asgi()),
    path("ws/live/matches/<int:pk>/", MatchLiveConsumer.as_asgi()),
]
