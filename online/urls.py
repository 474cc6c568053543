"""The pages of online play under ``/play/`` (docs/online.md, "The pages")."""

from __future__ import annotations

from django.urls import URLPattern, path

from online import pages

urlpatterns: list[URLPattern] = [
    path("", pages.play_create, name="online-play"),
    path("<str:code>/", pages.room_page, name="online-room"),
    path("<str:code>/hands/<int:number>/", pages.hand_page, name="online-hand"),
]
