"""Pages of the tournaments app."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("players/", views.player_list, name="player-list"),
]
