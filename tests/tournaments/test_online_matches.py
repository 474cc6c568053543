"""Tournament matches played online (issue 31; docs/online.md "Tournament matches"): an online elimination of
four teams played by bots to its champion through the public services — each hand the engine played is
recorded through ``hand_record`` (``via="online"``, its log as ``trick_log``), the bracket advances, and the
results, standings and bracket equal those of the same hands recorded by their totals in a physical event."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay.notation import replay
from online import owners, services
from online.models import Room, RoomHand, Seat
from tests.tournaments.factories import PlayerFactory, TeamFactory, UserFactory
from tournaments.models import AuditEntry, HandRecord, Match, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.online_rooms import KIND, host_token, match_room, match_room_open, seat_players
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import stage_create, stage_start, tournament_start

pytestmark = pytest.mark.django_db(transaction=True)

OPTIONS = {"hand_limit": 3}  # short matches: the side ahead after three hands wins (dealer side on a tie)


@pytest.fixture(autouse=True)
def _inline_ticks(settings: Any) -> Any:
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    yield
    services.drop_cache()


def _event(owner: Any, teams: list[Any], *, played: str, require_confirmation: bool = False) -> Tournament:
    t = tournament_create(owner=owner, name=f"Cup {played}", options=OPTIONS, require_confirmation=require_confirmation)
    for seed, team in enumerate(teams, start=1):
        entry_add(tournament=t, actor=Actor(owner), team=team, seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played=played)
    t.refresh_from_db()
    return t


def _bots_play(room: Room, match: Match) -> None:
    """Give every seat of the match's room to a bot (the match's host token): the table plays to its end."""
    for seat in range(room.players):
        room.refresh_from_db()
        services.seat_bot(code=room.code, host_token=host_token(match.pk), seat=seat, bot="normal" if seat % 2 else "random",
                          action_id=f"bot-{seat}", version=room.version)


def _play_online(t: Tournament) -> int:
    """Play every online match of ``t`` by bots as rooms open, to the end; the number of rooms played."""
    played = 0
    for _ in range(10):
        rooms = Room.objects.filter(owner_kind=KIND, status=Room.Status.WAITING, seats__bot__isnull=True).distinct()
        todo = [(r, Match.objects.get(pk=r.owner_id)) for r in rooms]
        if not todo:
            break
        for room, match in todo:
            _bots_play(room, match)
            played += 1
    return played


def _bracket(t: Tournament) -> dict[str, Any]:
    return {m.key: (m.entry0.team_id if m.entry0 else None, m.entry1.team_id if m.entry1 else None, m.status,
                    m.winner_side, m.hands_played, m.state, m.confirmed_at is not None)
            for m in Match.objects.filter(stage__tournament=t).select_related("entry0", "entry1")}


def _standings(t: Tournament) -> list[Any]:
    api = APIClient()
    rows = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    rows = rows.get("results", rows) if isinstance(rows, dict) else rows
    return [{k: v for k, v in row.items() if k not in ("entry", "entry_id", "id")} for row in rows]


def test_an_online_elimination_played_by_bots_equals_the_same_hands_by_totals() -> None:
    owner = UserFactory(username="director")
    teams = [TeamFactory() for _ in range(4)]
    online = _event(owner, teams, played="online", require_confirmation=True)
    semis = list(Match.objects.filter(stage__tournament=online, status=Match.Status.READY))
    assert len(semis) == 2 and all(match_room(m) is not None for m in semis)  # opened when the stage started
    room = match_room(semis[0])
    assert room is not None and room.owner_kind == "match" and room.status == Room.Status.WAITING
    names = [s.name for s in Seat.objects.filter(room=room).order_by("seat")]
    team0, team1 = semis[0].entry0.team, semis[0].entry1.team
    assert names == [team0.player1.name, team1.player1.name, team0.player2.name, team1.player2.name]  # partners opposite

    assert _play_online(online) == 3  # two semi-finals, then the final's room opened by the bracket
    online.refresh_from_db()
    assert online.status == Tournament.Status.FINISHED
    hands = list(HandRecord.objects.filter(match__stage__tournament=online).order_by("match__key", "number"))
    assert hands and {h.entered_via for h in hands} == {"online"}
    for h in hands:  # each hand's log replays to the outcome recorded
        assert h.trick_log is not None and h.trick_log["online"]["room"]
        assert replay(h.trick_log).outcome == h.outcome
    assert AuditEntry.objects.filter(action="hand.online", tournament=online).count() == len(hands)
    page = Client().get(reverse("hand-replay", args=[hands[0].match_id, hands[0].number]))
    assert page.status_code == 200 and "trick" in page.content.decode().lower()  # its log on the replay page
    assert AuditEntry.objects.filter(action="hand.record", tournament=online, via="online").count() == len(hands)
    for match in Match.objects.filter(stage__tournament=online, status=Match.Status.FINISHED):
        room = match_room(match)
        assert room is not None and room.status == Room.Status.FINISHED
        assert RoomHand.objects.filter(room=room, finished=True).count() == match.hands_played
        assert match.confirmed_at is not None  # the engine played it: no confirmation step

    physical = _event(owner, teams, played="physical", require_confirmation=False)
    for key in ("R1-M1", "R1-M2", "R2-M1"):  # the semi-finals, then the final
        match = Match.objects.get(stage__tournament=physical, key=key)
        for h in [h for h in hands if h.match.key == key]:
            match.refresh_from_db()
            hand_record(match_id=match.pk, outcome=h.outcome, version=match.version, actor=Actor(owner),
                        dealer=h.dealer if h.number == 1 else None, trump=h.trump)
    physical.refresh_from_db()
    assert physical.status == Tournament.Status.FINISHED
    assert _bracket(online) == _bracket(physical)
    by_totals = {(h.match.key, h.number): h.result for h in HandRecord.objects.filter(match__stage__tournament=physical)}
    assert {(h.match.key, h.number): h.result for h in hands} == by_totals
    standings = _standings(online)
    assert len(standings) == 4 and standings == _standings(physical)


def test_seats_of_a_room_and_refusals() -> None:
    owner = UserFactory(username="director2")
    t = _event(owner, [TeamFactory() for _ in range(4)], played="physical")
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).first()
    assert match is not None and match_room(match) is None  # a physical stage opens no room
    with pytest.raises(Exception, match="at the tables"):
        match_room_open(match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(played="online")  # one match of the stage played online
    room = match_room_open(match_id=match.pk)
    assert match_room_open(match_id=match.pk) == room  # opened once
    assert [seat for seat, _ in seat_players(match)] == [0, 1, 2, 3]
    assert owners.owned_room(KIND, match.pk) == room
    page = Client().get(reverse("match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert reverse("online-room", args=[room.code]) in page and "在线进行" in page  # watched at its online table
    other = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).exclude(pk=match.pk).first()
    assert 'id="online-watch"' not in Client().get(reverse("match-detail", args=[other.pk])).content.decode()
    tables = Client().get(reverse("tournament-tables", args=[t.pk])).content.decode()  # what is playing now
    assert tables.count('class="online-link"') == 1 and reverse("online-room", args=[room.code]) in tables


@pytest.mark.parametrize("variant", ["red-five", "yongzhou-300"])
def test_an_online_table_round_played_by_bots(variant: str) -> None:
    """Individual tables: the seats of the draw; each hand recorded through ``table_hand_record``; the table
    ends after the stage's hands, its totals those of the room's match."""
    owner = UserFactory(username=f"director-{variant}")
    t = tournament_create(owner=owner, name="Table Cup", variant=variant)
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), player=PlayerFactory(), seed=seed)
    stage = stage_create(tournament=t, actor=Actor(owner), format="table_rounds", rounds=1, hands_per_table=2,
                         played="online")
    stage_start(stage=stage, actor=Actor(owner))
    table = Match.objects.get(stage=stage, section="table")
    room = match_room(table)
    assert room is not None and room.hands_limit == 2
    names = [s.name for s in Seat.objects.filter(room=room).order_by("seat")]
    assert names == [s.entry.player.name for s in table.seats.select_related("entry__player").order_by("seat")]
    _bots_play(room, table)
    table.refresh_from_db()
    room.refresh_from_db()
    assert table.status == Match.Status.FINISHED and table.hands_played == 2 and table.confirmed_at is not None
    assert room.status == Room.Status.FINISHED
    assert table.state["totals"] == room.match["totals"]
    assert set(table.hands.values_list("entered_via", flat=True)) == {"online"}


def test_a_match_decided_meanwhile_or_a_stopped_tournament_ends_the_room_unrecorded() -> None:
    """An award while the room waits, or a tournament no longer running: the hand the engine played is not
    recorded (audited, kept in the room's log) and the room ends instead of being stuck."""
    from tournaments.services.results import match_award

    owner = UserFactory(username="director-award")
    t = _event(owner, [TeamFactory() for _ in range(4)], played="online")
    first, second = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position")
    match_award(match_id=first.pk, winner_side=0, kind="forfeit", actor=Actor(owner), reason="did not come")
    room = match_room(first)
    _bots_play(room, first)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and RoomHand.objects.filter(room=room, finished=True).count() == 1
    assert not HandRecord.objects.filter(match=first).exists()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    room = match_room(second)
    _bots_play(room, second)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and not HandRecord.objects.filter(match=second).exists()
    whys = sorted(a.data["why"] for a in AuditEntry.objects.filter(action="hand.online_unrecorded", tournament=t))
    assert whys == ["decided meanwhile (awarded or time called)", "refused"]
