"""The director's hand on an online match being played (issue 31): a table paused (actions refused, no clock)
and resumed; a seat replaced mid-hand by a bot (it plays the seat's next turn, the hand is still recorded) or
by a substitute's private link (the substitute's socket plays the seat, the old token is refused); refusals on
a finished match, nothing written; non-directors refused. Through the director's page (POST, CSRF'd forms)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from online import services
from online.models import Room, RoomHand, Seat
from tests.online.helpers import oracle_move
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import AuditEntry, HandRecord, Match, OnlineSeatChange, Player, PlayerLink
from tournaments.services import Actor
from tournaments.services.online_director import online_seat_to_bot, online_table_pause
from tournaments.services.online_rooms import match_room, match_room_open, match_seat_bot, seat_players
from tournaments.services.player_links import link_token, player_links_ensure, player_next
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)
_ids = itertools.count()


@pytest.fixture(autouse=True)
def _fast(settings: Any) -> Any:
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    yield
    services.drop_cache()


def _event(name: str, owner: Any) -> tuple[Any, Match]:
    t = tournament_create(owner=owner, name=name)
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    player_links_ensure(tournament=t, actor=Actor(owner))
    return t, Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()


def _open_link(t: Any, player: Player) -> str:
    """The player opens their private link: the seat token the room page is sent to."""
    link = PlayerLink.objects.get(tournament=t, player=player, revoked_at__isnull=True)
    return Client().post(reverse("player-link", args=[link_token(link)]))["Location"].split("#seat=")[1]


def _seated(t: Any, match: Match) -> tuple[Room, list[str]]:
    """Every player takes their seat through their link, connects and says ready: the first hand is dealt."""
    tokens = [_open_link(t, player) for _seat, player in seat_players(match)]
    room = match_room(match)
    assert room is not None
    for seat, token in enumerate(tokens):
        services.room_connect(code=room.code, token=token, channel=f"test.{room.code}.{seat}")
    for token in tokens:
        room.refresh_from_db()
        services.seat_ready(code=room.code, token=token, action_id=f"r{next(_ids)}", version=room.version)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    return room, tokens


def _act(room: Room, token: str, kind: str, fields: dict[str, Any]) -> None:
    room.refresh_from_db()
    services.room_act(code=room.code, token=token, action=kind, action_id=f"a{next(_ids)}", version=room.version,
                      **fields)


def _next(room: Room, rng: random.Random) -> tuple[int, str, dict[str, Any], Any]:
    room.refresh_from_db()
    _rh, hand = services.current_hand(room)
    assert hand is not None
    if hand.finished:
        return -1, "", {}, hand
    seat, kind, fields = oracle_move(hand, rng)
    return seat, kind, fields, hand


def _play(room: Room, tokens: list[str], rng: random.Random, *, until_seat: int | None = None) -> None:
    """The seats' moves (a bot's choice, sent by each seat's token) until the hand ends, or until
    ``until_seat`` is to play after the first trick."""
    for _ in range(4000):
        seat, kind, fields, hand = _next(room, rng)
        if seat < 0:
            return
        if until_seat is not None and seat == until_seat and hand.phase == "play" and hand.tricks:
            return
        _act(room, tokens[seat], kind, fields)
    raise AssertionError("the hand did not end")


def test_a_seat_replaced_mid_hand_by_a_bot_plays_on_and_the_hand_is_recorded(client: Any) -> None:
    owner = UserFactory(username="td")
    t, match = _event("Bot Cup", owner)
    room, tokens = _seated(t, match)
    rng = random.Random(4)
    _play(room, tokens, rng, until_seat=2)
    replaced = dict(seat_players(match))[2]
    before = len(RoomHand.objects.get(room=room).log["events"])
    client.force_login(owner)
    url = reverse("tournament-online", args=[t.pk])
    page = client.post(url, {"action": "seat_to_bot", "match": match.pk, "seat": 2}, follow=True,
                       HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "此座位现由机器人打。" in page
    seat = Seat.objects.get(room=room, seat=2)
    assert seat.bot == "normal" and seat.token_digest == ""
    assert seat.name == replaced.name  # the bot plays for the absent player, under their name
    shown = services.room_state(code=room.code, seat=0)["room"]["seats"][2]
    assert (shown["name"], shown["bot"]) == (replaced.name, "normal")
    played = RoomHand.objects.get(room=room).log["events"][before:]
    assert any(e["kind"] == "play" and e["seat"] == 2 for e in played)  # the bot played the seat's turn at once
    with pytest.raises(services.OnlineError) as err:
        _act(room, tokens[2], "play", {"cards": "S2"})
    assert err.value.code == "not_seated"  # the player's device no longer plays
    link = PlayerLink.objects.get(tournament=t, player=replaced, revoked_at__isnull=True)
    assert player_next(link).match is None  # nor does their link open the seat again
    change = OnlineSeatChange.objects.get(match=match, seat=2)
    assert change.player is None and change.bot == "normal"
    entry = AuditEntry.objects.get(action="match.seat_replace", tournament=t)
    assert entry.data["seat"] == 2 and entry.data["bot"] == "normal" and entry.data["replaced"] == replaced.pk

    _play(room, tokens, rng)  # the three players finish the hand with the bot
    match.refresh_from_db()
    assert match.hands_played == 1
    record = HandRecord.objects.get(match=match, number=1)
    assert record.trick_log["online"] == {"room": room.code, "hand": 1}

    # the match's next room (its room ended while the match goes on, e.g. a correction reopened it): the
    # seat is still the bot's, the other seats wait for their players' links
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    again = match_room_open(match_id=match.pk)
    assert again.pk != room.pk
    seats = {s.seat: s for s in Seat.objects.filter(room=again)}
    assert seats[2].bot == "normal" and seats[2].ready and seats[2].name == replaced.name
    assert all(seats[s].bot is None and not seats[s].token_digest for s in (0, 1, 3))


def test_a_paused_table_refuses_actions_then_a_substitutes_link_takes_the_seat(client: Any) -> None:
    owner = UserFactory(username="td")
    t, match = _event("Sub Cup", owner)
    room, tokens = _seated(t, match)
    rng = random.Random(9)
    _play(room, tokens, rng, until_seat=1)
    client.force_login(owner)
    url = reverse("tournament-online", args=[t.pk])

    page = client.post(url, {"action": "table_pause", "match": match.pk}, follow=True).content.decode()
    assert "The table is paused: no action is accepted and no clock runs." in page
    assert "Resume the table" in page and "table-paused" in page
    room.refresh_from_db()
    assert room.paused and room.deadline is None and room.deadline_kind == ""
    seat, kind, fields, _hand = _next(room, rng)
    assert seat == 1
    other = next(s for s in range(4) if s != 1)
    for who in (1, other):
        with pytest.raises(services.OnlineError) as err:
            _act(room, tokens[who], kind, fields)
        assert err.value.message == {"en": "The table is paused by the director.", "zh-hans": "牌桌已被裁判暂停。"}
    assert not services.room_tick(room_id=room.pk, version=room.version)
    assert services.room_state(code=room.code, seat=0)["room"]["paused"] is True

    page = client.post(url, {"action": "seat_to_player", "match": match.pk, "seat": 1, "player": "",
                             "name": "Zoë Sub"}, follow=True).content.decode()
    substitute = Player.objects.get(name="Zoë Sub")
    link = PlayerLink.objects.get(tournament=t, player=substitute, revoked_at__isnull=True)
    assert "Zoë Sub now plays this seat" in page and link_token(link) in page
    assert dict(seat_players(match))[1] == substitute
    assert Seat.objects.get(room=room, seat=1).name == "Zoë Sub"
    token = _open_link(t, substitute)  # the substitute's own link hands them the seat
    with pytest.raises(services.OnlineError) as err:
        _act(room, tokens[1], kind, fields)
    assert err.value.code == "not_seated"  # the old device's token is refused
    services.room_connect(code=room.code, token=token, channel=f"test.{room.code}.sub")

    client.post(url, {"action": "table_resume", "match": match.pk})
    room.refresh_from_db()
    assert not room.paused
    assert _next(room, rng)[0] == 1  # nobody played the seat meanwhile
    before = len(RoomHand.objects.get(room=room).log["events"])
    _act(room, token, kind, fields)
    played = RoomHand.objects.get(room=room).log["events"][before:]
    assert any(e.get("seat") == 1 and e["kind"] == kind for e in played)
    tokens[1] = token
    _play(room, tokens, rng)
    match.refresh_from_db()
    assert match.hands_played == 1
    assert [e.action for e in AuditEntry.objects.filter(tournament=t, action__startswith="match.table_")
            .order_by("id")] == ["match.table_pause", "match.table_resume"]


def test_a_finished_match_is_refused_and_nothing_is_written(client: Any) -> None:
    owner = UserFactory(username="td")
    t, match = _event("Done Cup", owner)
    room = match_room(match)
    for seat in range(4):  # nobody came: four bots play the match to its end
        match_seat_bot(match_id=match.pk, seat=seat, actor=Actor(owner), bot="random")
    match.refresh_from_db()
    room.refresh_from_db()
    assert match.status == Match.Status.FINISHED and room.status == Room.Status.FINISHED
    version, audits = room.version, AuditEntry.objects.filter(tournament=t).count()
    client.force_login(owner)
    url = reverse("tournament-online", args=[t.pk])
    for data in ({"action": "table_pause"}, {"action": "table_resume"}, {"action": "seat_to_bot", "seat": 0},
                 {"action": "seat_to_player", "seat": 0, "name": "Late Sub"}):
        page = client.post(url, {**data, "match": match.pk}, follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert page.status_code == 200 and "本场比赛已结束：牌桌不能再更改。" in page.content.decode()
    with pytest.raises(ServiceError) as err, translation.override("en"):
        online_table_pause(match_id=match.pk, actor=Actor(owner))
    assert err.value.field_errors == {"match": ["This match is finished: its table can no longer be changed."]}
    room.refresh_from_db()
    assert room.version == version and not room.paused
    assert AuditEntry.objects.filter(tournament=t).count() == audits
    assert not OnlineSeatChange.objects.exists() and not Player.objects.filter(name="Late Sub").exists()


def test_only_the_directors_of_the_tournament(client: Any) -> None:
    owner = UserFactory(username="td")
    t, match = _event("Own Cup", owner)
    room = match_room(match)
    other_owner = UserFactory(username="td2")
    other, _m = _event("Other Cup", other_owner)
    url = reverse("tournament-online", args=[t.pk])
    data = {"action": "table_pause", "match": match.pk}
    assert client.post(url, data).status_code in (302, 403)  # anonymous
    client.force_login(UserFactory(username="nosy"))
    assert client.post(url, data).status_code == 403
    assert client.post(url, {"action": "seat_to_bot", "match": match.pk, "seat": 0}).status_code == 403
    client.force_login(other_owner)  # a director of another tournament, through their own page
    assert client.post(reverse("tournament-online", args=[other.pk]), data).status_code == 404
    with pytest.raises(NotAllowed):
        online_seat_to_bot(match_id=match.pk, seat=0, actor=Actor(other_owner))
    room.refresh_from_db()
    assert not room.paused and Seat.objects.get(room=room, seat=0).bot is None
    assert not AuditEntry.objects.filter(action__in=["match.table_pause", "match.seat_replace"]).exists()


def test_time_called_on_a_paused_table_lets_it_play_out_and_end(client: Any) -> None:
    """Calling time decides the match; a table paused at that moment resumes (its bots play the hand out)
    and the room ends — it does not stay paused for good. The hand of a decided match is not recorded."""
    from tournaments.services.hands import match_call_time

    owner = UserFactory()
    t, match = _event("暂停后叫停 Paused then time", owner)
    room, tokens = _seated(t, match)
    rng = random.Random(4)
    _play(room, tokens, rng)  # hand 1 played and recorded
    match.refresh_from_db()
    assert match.hands_played == 1
    room.refresh_from_db()
    if room.status == Room.Status.WAITING or not RoomHand.objects.filter(room=room, finished=False).exists():
        for token in tokens:  # hand 2 dealt
            room.refresh_from_db()
            services.seat_ready(code=room.code, token=token, action_id=f"r{next(_ids)}", version=room.version)
    online_table_pause(match_id=match.pk, actor=Actor(owner))
    for s in range(4):  # the director gives every seat to a bot while the table is paused
        online_seat_to_bot(match_id=match.pk, seat=s, actor=Actor(owner), bot="random")
    room.refresh_from_db()
    assert room.paused and room.status == Room.Status.PLAYING
    match.refresh_from_db()
    match_call_time(match_id=match.pk, version=match.version, actor=Actor(owner))
    room.refresh_from_db()
    assert not room.paused and room.status == Room.Status.FINISHED  # the bots played the hand out, inline
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.hands_played == 1
    assert HandRecord.objects.filter(match=match).count() == 1
