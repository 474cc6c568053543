"""Pages of the rules engine (the referee)."""

from django.urls import path

from gameplay import views

urlpatterns = [
    path("referee/", views.referee_page, name="referee"),
]
