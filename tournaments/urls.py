"""Pages of the tournaments app (namespace-free names, as the rest of the site)."""

from django.urls import path

from tournaments.trick_urls import urlpatterns as trick_urlpatterns
from tournaments.views import manage, online_director, player_links, public, ratings, scoring, staff, venue

urlpatterns = [
    path("players/", public.player_list, name="player-list"),
    path("tournaments/", public.tournament_list, name="tournament-list"),
    path("tournaments/new/", manage.tournament_create, name="tournament-create"),
    path("tournaments/import/", manage.tournament_import, name="tournament-import"),
    path("tournaments/<int:pk>/", public.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/bracket/", public.tournament_bracket, name="tournament-bracket"),
    path("tournaments/<int:pk>/changes", public.tournament_changes, name="tournament-changes"),
    path("tournaments/<int:pk>/tables/", public.tournament_tables, name="tournament-tables"),
    path("tournaments/<int:pk>/standings/", public.tournament_standings, name="tournament-standings"),
    path("tournaments/<int:pk>/standings/<int:stage>/csv/", public.standings_csv, name="standings-csv"),
    path("tournaments/<int:pk>/manage/", manage.tournament_manage, name="tournament-manage"),
    path("tournaments/<int:pk>/manage/settings/", manage.tournament_manage, {"part": "settings"},
         name="tournament-manage-settings"),
    path("tournaments/<int:pk>/export/", manage.tournament_export, name="tournament-export"),
    path("matches/<int:pk>/", public.match_detail, name="match-detail"),
    path("matches/<int:pk>/score/", scoring.match_score, name="match-score"),
    path("t/<str:token>/", scoring.table_link, name="table-link"),
    path("t/<str:token>/confirm/<int:side>/", scoring.table_confirm, name="table-confirm"),
    path("v/<str:token>/", venue.venue_link, name="venue-link"),
    path("p/<str:token>/", player_links.player_link, name="player-link"),
    path("me/matches/", player_links.my_matches, name="my-matches"),
    path("tournaments/<int:pk>/player-links/", player_links.player_links_page, name="player-links"),
    path("tournaments/<int:pk>/online/", online_director.online_director, name="tournament-online"),
    path("tournaments/<int:pk>/online/<int:match_id>/", online_director.online_table_full, name="online-table-full"),
    path("table/<int:pk>/", scoring.table_session, name="table-session"),
    path("table/<int:pk>/confirm/<int:side>/", scoring.table_session_confirm, name="table-session-confirm"),
]
urlpatterns += trick_urlpatterns
urlpatterns += [
    path("ratings/", ratings.ladder, name="ratings-ladder"),
    path("ratings/csv/", ratings.ladder_csv, name="ratings-csv"),
    path("ratings/clubs/<int:club>/", ratings.ladder, name="ratings-club"),
    path("ratings/clubs/<int:club>/csv/", ratings.ladder_csv, name="ratings-club-csv"),
    path("ratings/players/<int:pk>/", ratings.player_ratings, name="ratings-player"),
    path("tournaments/<int:pk>/staff/", staff.staff_page, name="tournament-staff"),
    path("invite/<str:token>/", staff.invite_accept, name="staff-invite-accept"),
]
