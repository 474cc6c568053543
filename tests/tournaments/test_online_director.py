"""The director's page of online play (issue 31, stretch): every open online match with its room's state;
seats nobody holds given to bots (audited); organizers only."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from gameplay.cards import format_cards
from online import services
from online.models import Room, Seat
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.models import AuditEntry, Match, PlayerLink
from tournaments.services import Actor
from tournaments.services.online_rooms import host_token, match_room
from tournaments.services.player_links import link_token, player_links_ensure
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_director_sees_the_tables_and_gives_absent_seats_to_bots(client: Any, settings: Any) -> None:
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    owner = UserFactory(username="td")
    t = tournament_create(owner=owner, name="Director Cup")
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    player_links_ensure(tournament=t, actor=Actor(owner))
    url = reverse("tournament-online", args=[t.pk])
    assert client.get(url).status_code in (302, 403)
    client.force_login(UserFactory(username="nosy"))
    assert client.get(url).status_code == 403

    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    room = match_room(match)
    player = match.entry0.team.player1  # seat 0
    token = client.post(reverse("player-link", args=[link_token(PlayerLink.objects.get(tournament=t, player=player))])
                        )["Location"].split("#seat=")[1]
    client.force_login(owner)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert html.count('data-state="waiting"') == 2 and f'id="match-{match.pk}"' in html
    assert reverse("online-room", args=[room.code]) in html

    refused = client.post(url, {"action": "seat_bot", "match": match.pk, "seat": 0}, follow=True)  # a player's seat
    assert Seat.objects.get(room=room, seat=0).bot is None and refused.status_code == 200
    for seat in (1, 2, 3):
        client.post(url, {"action": "seat_bot", "match": match.pk, "seat": seat})
    assert list(Seat.objects.filter(room=room).order_by("seat").values_list("bot", flat=True)) == \
        [None, "normal", "normal", "normal"]
    assert AuditEntry.objects.filter(action="match.seat_bot", tournament=t).count() == 3
    room.refresh_from_db()
    services.seat_ready(code=room.code, token=token, action_id="ready", version=room.version)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-state="playing"' in html and "playing hand 1" in html and "disconnected" in html

    full_url = reverse("online-table-full", args=[t.pk, match.pk])  # every hand visible: directors only
    hand = services.hand_from_log(room.hands.get(number=1).log)
    page = client.get(full_url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    data = client.get(full_url, {"format": "json"}).json()
    for seat in range(4):
        cards = format_cards(hand.seat_cards(seat))
        assert cards and cards in page and data["seats"][seat]["cards"] == cards
    assert data["hand"]["number"] == 1 and data["room"] == room.code
    client.force_login(UserFactory(username="nosy"))
    assert client.get(full_url).status_code == 403 and client.get(full_url, {"format": "json"}).status_code == 403
    client.logout()
    anonymous = client.get(full_url, {"format": "json"})
    assert anonymous.status_code in (302, 403) and format_cards(hand.seat_cards(0)) not in anonymous.content.decode()
    services.drop_cache()


def test_the_director_calls_time_on_an_online_match(client: Any, settings: Any) -> None:
    """Time called from the director's page: the side ahead wins; a hand the table then finishes is not
    recorded and the room ends."""
    from tests.tournaments.factories import SHUTOUT
    from tournaments.services import hand_record

    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    owner = UserFactory(username="td-time")
    t = tournament_create(owner=owner, name="Time Cup")
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=1)
    match.refresh_from_db()
    client.force_login(owner)
    url = reverse("tournament-online", args=[t.pk])
    assert 'value="call_time"' in client.get(url).content.decode()
    client.post(url, {"action": "call_time", "match": match.pk, "version": match.version - 1})  # stale: refused
    match.refresh_from_db()
    assert match.time_called_at is None
    client.post(url, {"action": "call_time", "match": match.pk, "version": match.version})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == 1  # side 1 dealt and went up 3 levels
    room = match_room(match)
    for seat in range(4):
        room.refresh_from_db()
        services.seat_bot(code=room.code, host_token=host_token(match.pk), seat=seat, bot="random",
                          action_id=f"b{seat}", version=room.version)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and match.hands.count() == 1
    services.drop_cache()
