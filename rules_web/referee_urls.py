"""Pages of the rules engine (the referee)."""

from django.urls import path

from rules_web import referee_views as views

urlpatterns = [
    path("referee/", views.referee_page, name="referee"),
]
