"""Pages of the rules engine and scoring: the referee, the calculator and the replay page."""

from django.urls import include, path

urlpatterns = [
    path("", include("rules_web.referee_urls")),
    path("", include("rules_web.replay_urls")),
    path("", include("rules_web.calculator_urls")),
]
