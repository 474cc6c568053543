"""URLs of trick-by-trick entry, the live table and recorded hands' logs (added to the app's URL lists)."""

from django.urls import path

from tournaments.apis import tricks as trick_apis
from tournaments.views import tricks as trick_views

api_urlpatterns = [
    path("matches/<str:pk>/trick-entry/", trick_apis.TrickEntryView.as_view(), name="api-trick-entry"),
    path("matches/<str:pk>/trick-entry/plays/", trick_apis.PlayView.as_view(), name="api-trick-play"),
    path("matches/<str:pk>/trick-entry/undo/", trick_apis.UndoView.as_view(), name="api-trick-undo"),
    path("matches/<str:pk>/trick-entry/tricks/<int:number>/", trick_apis.TrickView.as_view(), name="api-trick-put"),
    path("matches/<str:pk>/trick-entry/finish/", trick_apis.FinishView.as_view(), name="api-trick-finish"),
    path("matches/<str:pk>/trick-entry/discard/", trick_apis.DiscardView.as_view(), name="api-trick-discard"),
    path("matches/<str:pk>/trick-entry/record/", trick_apis.RecordView.as_view(), name="api-trick-record"),
    path("matches/<str:pk>/hands/<int:number>/log/", trick_apis.HandLogView.as_view(), name="api-hand-log"),
]

urlpatterns = [
    path("matches/<int:pk>/score/tricks/", trick_views.trick_entry_page, name="trick-entry"),
    path("t/<str:token>/tricks/", trick_views.trick_entry_by_link, name="trick-entry-link"),
    path("table/<int:pk>/tricks/", trick_views.trick_entry_by_session, name="trick-entry-session"),
    path("matches/<int:pk>/hands/<int:number>/replay/", trick_views.recorded_hand_replay, name="hand-replay"),
    path("matches/<int:pk>/live/", trick_views.live_page, name="match-live"),
    path("matches/<int:pk>/live/stream/", trick_views.live_stream, name="match-live-stream"),
]
