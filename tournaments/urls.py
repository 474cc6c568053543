"""Pages of the tournaments app (namespace-free names, as the rest of the site)."""

from django.urls import path

from tournaments import staff_views, views
from tournaments.trick_urls import urlpatterns as trick_urlpatterns

urlpatterns = [
    path("players/", views.player_list, name="player-list"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/new/", views.tournament_create, name="tournament-create"),
    path("tournaments/import/", views.tournament_import, name="tournament-import"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/bracket/", views.tournament_bracket, name="tournament-bracket"),
    path("tournaments/<int:pk>/tables/", views.tournament_tables, name="tournament-tables"),
    path("tournaments/<int:pk>/standings/", views.tournament_standings, name="tournament-standings"),
    path("tournaments/<int:pk>/standings/<int:stage>/csv/", views.standings_csv, name="standings-csv"),
    path("tournaments/<int:pk>/manage/", views.tournament_manage, name="tournament-manage"),
    path("tournaments/<int:pk>/export/", views.tournament_export, name="tournament-export"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/score/", views.match_score, name="match-score"),
    path("t/<str:token>/", views.table_link, name="table-link"),
    path("t/<str:token>/confirm/<int:side>/", views.table_confirm, name="table-confirm"),
]
urlpatterns += trick_urlpatterns
urlpatterns += [
    path("tournaments/<int:pk>/staff/", staff_views.staff_page, name="tournament-staff"),
    path("invite/<str:token>/", staff_views.invite_accept, name="staff-invite-accept"),
]
