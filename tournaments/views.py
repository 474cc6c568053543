"""Pages of the tournaments app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Player


def player_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/player_list.html", {"players": Player.objects.all()})
