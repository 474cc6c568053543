"""Players' private links ``/p/<token>/`` (issue 31): one per player, stored hashed; the link opens the player's
current online match at the player's seat (partners opposite, as the team is registered) with a new seat token,
says what is next when there is nothing to play; a revoked link, or one of a finished tournament (expired), says
so and writes nothing; malformed and
unknown links are 404; the organizer makes, copies, revokes and reissues them."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import reverse
from pypdf import PdfReader

from online.models import Room, Seat, digest
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Match, PlayerLink, Tournament
from tournaments.services import Actor
from tournaments.services.online_rooms import match_room
from tournaments.services.player_links import link_token, player_link_open, player_links_ensure, player_next
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db


def _event(played: str = "online") -> tuple[Tournament, Any]:
    owner = UserFactory(username=f"director-{played}")
    t = tournament_create(owner=owner, name="Link Cup")
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played=played)
    t.refresh_from_db()
    assert player_links_ensure(tournament=t, actor=Actor(owner)) == 8
    return t, owner


def _url(link: PlayerLink) -> str:
    return reverse("player-link", args=[link_token(link)])


def test_links_are_stored_hashed_and_made_once() -> None:
    t, owner = _event()
    links = list(PlayerLink.objects.filter(tournament=t))
    assert len(links) == 8 and len({link.player_id for link in links}) == 8
    for link in links:
        assert link_token(link) not in (link.token_hash, link.nonce)
        assert len(link.token_hash) == 64
    assert player_links_ensure(tournament=t, actor=Actor(owner)) == 0


def test_a_player_link_opens_the_players_seat(client: Any) -> None:
    t, _owner = _event()
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    assert match is not None
    partner = match.entry1.team.player2  # side 1's second player: seat 3, opposite seat 1
    link = PlayerLink.objects.get(tournament=t, player=partner)
    page = client.get(_url(link), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert page.status_code == 200 and 'data-state="play"' in page.content.decode()
    assert "4" in page.content.decode()  # seat 4 (1-based) shown
    room = match_room(match)
    assert room is not None
    before = list(Seat.objects.filter(room=room).values_list("token_digest", flat=True))
    assert before == ["", "", "", ""]  # GET writes nothing
    taken = client.post(_url(link))
    assert taken.status_code == 302
    target = taken["Location"]
    assert target.startswith(reverse("online-room", args=[room.code]) + "#seat=")
    token = target.split("#seat=", 1)[1]
    seat = Seat.objects.get(room=room, token_digest=digest(token))
    assert seat.seat == 3 and seat.name == partner.name
    again = client.post(_url(link))["Location"].split("#seat=", 1)[1]  # another device: the newer one plays
    assert again != token and Seat.objects.get(room=room, seat=3).token_digest == digest(again)
    assert not Seat.objects.filter(room=room, token_digest=digest(token)).exists()


def test_nothing_to_play_and_physical_matches(client: Any) -> None:
    t, _owner = _event(played="physical")
    link = PlayerLink.objects.filter(tournament=t).first()
    page = client.get(_url(link))
    assert page.status_code == 200 and 'data-state="physical"' in page.content.decode()
    assert client.post(_url(link)).status_code == 302  # refused with a message: no room
    assert not Room.objects.exists()
    Match.objects.filter(stage__tournament=t).update(status=Match.Status.FINISHED, winner_side=0)
    assert player_next(link).match is None
    assert 'data-state="none"' in client.get(_url(link)).content.decode()


def test_revoked_malformed_and_unknown_links(client: Any) -> None:
    t, owner = _event()
    link = PlayerLink.objects.filter(tournament=t).first()
    client.force_login(owner)
    page_url = reverse("player-links", args=[t.pk])
    client.post(page_url, {"action": "revoke", "link": link.pk})
    client.logout()
    link.refresh_from_db()
    assert link.revoked_at is not None
    audits = AuditEntry.objects.count()
    for method in (client.get, client.post):
        answer = method(_url(link), HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 410 and "revoked" in answer.content.decode()
    assert not Seat.objects.exclude(token_digest="").exists() and AuditEntry.objects.count() == audits  # nothing written
    assert client.get("/p/not-a-token/").status_code == 404
    assert client.get("/p/" + "0" * 64 + "/").status_code == 404
    assert client.get(_url(link).replace(link_token(link), link_token(link).upper())).status_code == 404


def test_a_finished_tournaments_links_have_expired(client: Any) -> None:
    """Once the tournament is finished its links open no table: 410 with a page that says so (English and
    简体中文), GET and POST alike, nothing written; the service refuses too; reopened, the link is live again."""
    t, _owner = _event()
    link = PlayerLink.objects.filter(tournament=t).first()
    assert link is not None
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    link.refresh_from_db()
    audits, rooms = AuditEntry.objects.count(), Room.objects.count()
    for method in (client.get, client.post):
        answer = method(_url(link), HTTP_ACCEPT_LANGUAGE="en")
        page = answer.content.decode()
        assert answer.status_code == 410 and "This tournament is over" in page and 'data-state="expired"' in page
        assert 'id="take-seat"' not in page
    zh = client.get(_url(link), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert zh.status_code == 410 and "本赛事已结束" in zh.content.decode()
    with pytest.raises(ServiceError) as refused:
        player_link_open(link=link)
    assert "link" in refused.value.field_errors
    assert not Seat.objects.exclude(token_digest="").exists()  # nothing written
    assert AuditEntry.objects.count() == audits and Room.objects.count() == rooms
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    answer = client.get(_url(link), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and 'id="take-seat"' in answer.content.decode()


def test_the_organizers_page(client: Any) -> None:
    t, owner = _event()
    page_url = reverse("player-links", args=[t.pk])
    assert client.get(page_url).status_code in (302, 403)
    client.force_login(UserFactory(username="someone-else"))
    assert client.get(page_url).status_code == 403
    client.force_login(owner)
    html = client.get(page_url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    link = PlayerLink.objects.filter(tournament=t).first()
    assert link_token(link) in html and "data:image/png;base64" in html  # copy and QR
    client.post(page_url, {"action": "reissue", "link": link.pk})
    new = PlayerLink.objects.get(tournament=t, player=link.player, revoked_at__isnull=True)
    assert new.pk != link.pk and link_token(new) in client.get(page_url).content.decode()
    other, _ = _event(played="physical")
    other_link = PlayerLink.objects.filter(tournament=other).first()
    client.post(page_url, {"action": "revoke", "link": other_link.pk})  # another tournament's link: refused
    other_link.refresh_from_db()
    assert other_link.revoked_at is None


@pytest.mark.django_db(transaction=True)
def test_four_players_links_seat_them_and_the_engine_deals(client: Any, settings: Any) -> None:
    """The four players open their links (partners opposite), say ready with the seat tokens the links gave
    them, and the engine deals; a link of another match's player never opens this room's seats."""
    from online import services

    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    t, _owner = _event()
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    room = match_room(match)
    tokens: dict[int, str] = {}
    for side in (0, 1):
        team = match.entry(side).team
        for player, seat in ((team.player1, side), (team.player2, side + 2)):
            answer = client.post(_url(PlayerLink.objects.get(tournament=t, player=player)))
            code, token = answer["Location"].removeprefix("/play/").split("/#seat=")
            assert code == room.code
            tokens[seat] = token
    for seat, token in tokens.items():
        assert Seat.objects.get(room=room, token_digest=digest(token)).seat == seat
    other = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).exclude(pk=match.pk).first()
    stranger = client.post(_url(PlayerLink.objects.get(tournament=t, player=other.entry0.team.player1)))
    assert room.code not in stranger["Location"]
    for seat, token in tokens.items():
        room.refresh_from_db()
        services.seat_ready(code=room.code, token=token, action_id=f"ready-{seat}", version=room.version)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING and room.hands.count() == 1
    services.drop_cache()


def test_printed_player_cards(client: Any) -> None:
    """A card per player with the private link and its QR code, as a page and a PDF read back as text;
    organizers only (the links are secret)."""
    t, owner = _event()
    url = reverse("print-player-cards", args=[t.pk])
    assert client.get(url).status_code in (302, 403)
    client.force_login(owner)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    links = list(PlayerLink.objects.filter(tournament=t).select_related("player"))
    assert html.count('class="card player-card"') == 8 and html.count("data:image/png;base64") == 8
    assert all(link_token(link) in html and link.player.name in html for link in links)
    pdf = client.get(reverse("print-player-cards-pdf", args=[t.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    body = b"".join(pdf.streaming_content) if pdf.streaming else pdf.content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    assert links[0].player.name.split()[-1] in text


def test_a_player_with_an_account_uses_the_login_instead(client: Any) -> None:
    """Signed in, a player links the account to their player from the private link; "My matches" then opens
    the seat without the link; another account cannot take the player, nor one account two players; a
    reissued link keeps the account."""
    t, owner = _event()
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    player = match.entry1.team.player1  # seat 1
    link = PlayerLink.objects.get(tournament=t, player=player)
    me = UserFactory(username="xiaoming")
    client.force_login(me)
    assert "account-form" in client.get(_url(link), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    client.post(_url(link), {"action": "account"})
    link.refresh_from_db()
    assert link.user == me
    page = client.get(reverse("my-matches")).content.decode()
    assert 'data-state="play"' in page and match.key in page
    token = client.post(reverse("my-matches"), {"link": link.pk})["Location"].split("#seat=")[1]
    assert Seat.objects.get(token_digest=digest(token)).seat == 1
    other_link = PlayerLink.objects.get(tournament=t, player=match.entry0.team.player1)
    client.post(_url(other_link), {"action": "account"})  # a second player of this tournament: refused
    other_link.refresh_from_db()
    assert other_link.user is None
    assert client.post(reverse("my-matches"), {"link": other_link.pk}).status_code == 404  # not this account's
    client.force_login(UserFactory(username="intruder"))
    client.post(_url(link), {"action": "account"})
    link.refresh_from_db()
    assert link.user == me
    assert 'id="my-matches-none"' in client.get(reverse("my-matches")).content.decode()
    client.force_login(owner)
    client.post(reverse("player-links", args=[t.pk]), {"action": "reissue", "link": link.pk})
    assert PlayerLink.objects.get(tournament=t, player=player, revoked_at__isnull=True).user == me
    client.logout()
    assert client.get(reverse("my-matches")).status_code == 302  # sign in first
