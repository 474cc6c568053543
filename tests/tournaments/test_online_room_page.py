"""The room page of a tournament match's online table (an owned room): no join form — the players take their
seats through their private links — but who plays, seat by seat; a join posted anyway is refused (403) and
writes nothing. Anyone may still watch."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from online.models import Seat
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.models import Match, PlayerLink
from tournaments.services import Actor
from tournaments.services.online_rooms import match_room, match_seat_bot
from tournaments.services.player_links import link_token, player_links_ensure
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db


def test_an_owned_rooms_page_shows_who_plays_and_no_join_form(client: Any) -> None:
    owner = UserFactory(username="td")
    t = tournament_create(owner=owner, name="Room Page Cup")
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    player_links_ensure(tournament=t, actor=Actor(owner))
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    room = match_room(match)
    url = reverse("online-room", args=[room.code])
    names = [match.entry0.team.player1.name, match.entry1.team.player1.name,
             match.entry0.team.player2.name, match.entry1.team.player2.name]  # seats 1–4

    html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'id="online-join"' not in html and 'id="join-seat"' not in html and 'name="seat"' not in html
    assert "对局选手" in html and "私人链接" in html and "可以观战" in html
    players = html.split('id="online-players"')[1].split("</ol>")[0]
    assert [players.index(n) for n in names] == sorted(players.index(n) for n in names)  # in seat order
    assert players.count("尚未到场") == 4
    assert 'id="online-table"' in html  # the table to watch

    refused = client.post(url, {"name": "Gatecrasher", "seat": "1"})
    assert refused.status_code == 403 and 'id="join-seat"' not in refused.content.decode()
    assert list(Seat.objects.filter(room=room).values_list("token_digest", flat=True)) == ["", "", "", ""]

    client.post(reverse("player-link", args=[link_token(PlayerLink.objects.get(tournament=t, player=match.entry0.team.player1))]))
    match_seat_bot(match_id=match.pk, seat=1, actor=Actor(owner))
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    players = html.split('id="online-players"')[1].split("</ol>")[0]
    assert "Who plays" in html and "can watch" in html
    first = players.split('data-seat="1"')[0]
    assert names[0] in first and "not here yet" not in first  # seat 1 taken by the player's link
    assert f"{names[1]} · bot" in players and players.count("not here yet") == 2  # the bot plays for the player
