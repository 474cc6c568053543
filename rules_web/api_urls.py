"""API of the rules engine and scoring (mounted under /api/v1/): referee tricks and scored hands."""

from django.urls import include, path

urlpatterns = [
    path("", include("rules_web.referee_api_urls")),
    path("", include("rules_web.calculator_api_urls")),
]
