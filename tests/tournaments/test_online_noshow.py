"""The no-show rule of online stages (issue 31): after the wait, a bot plays each seat nobody took, or the side
with an absent player forfeits; nothing before the wait, nothing for seats taken; set on the director's page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from online import services
from online.models import Room, Seat
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Match, PlayerLink, Stage, Tournament
from tournaments.services import Actor
from tournaments.services.online_noshow import no_show_rule, online_no_shows, stage_no_show_set
from tournaments.services.online_rooms import match_room
from tournaments.services.player_links import link_token, player_links_ensure
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _inline_ticks(settings: Any) -> Any:
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    yield
    services.drop_cache()


def _event(name: str) -> tuple[Tournament, Any, Stage, list[Match]]:
    owner = UserFactory(username=name)
    t = tournament_create(owner=owner, name="No-show Cup", options={"hand_limit": 1})
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    stage = tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    player_links_ensure(tournament=t, actor=Actor(owner))
    matches = list(Match.objects.filter(stage=stage, status=Match.Status.READY).order_by("position"))
    return t, owner, stage, matches


def _take(client: Any, t: Tournament, player: Any) -> str:
    link = PlayerLink.objects.get(tournament=t, player=player)
    return client.post(reverse("player-link", args=[link_token(link)]))["Location"].split("#seat=")[1]


def test_bots_for_the_absent_after_the_wait(client: Any) -> None:
    t, owner, stage, (first, second) = _event("ns-bot")
    stage_no_show_set(stage=stage, actor=Actor(owner), minutes=10, action="bot")
    assert no_show_rule(Stage.objects.get(pk=stage.pk)) == (10, "bot")
    token = _take(client, t, first.entry0.team.player1)  # seat 0 came
    assert online_no_shows(tournament=t) == []  # the wait is not over
    later = timezone.now() + timedelta(minutes=11)
    done = online_no_shows(tournament=t, now=later)
    assert sorted(done) == sorted([(first.pk, "bot"), (second.pk, "bot")])
    room = match_room(first)
    assert list(Seat.objects.filter(room=room).order_by("seat").values_list("bot", flat=True)) == \
        [None, "normal", "normal", "normal"]
    assert match_room(second).status == Room.Status.FINISHED  # all bots: it played (one hand) to its end
    room.refresh_from_db()
    services.seat_ready(code=room.code, token=token, action_id="r", version=room.version)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert online_no_shows(tournament=t, now=later) == []  # nothing left to do
    assert AuditEntry.objects.filter(action="match.no_show", tournament=t).count() == 2


def test_the_side_with_an_absent_player_forfeits(client: Any) -> None:
    t, owner, stage, (first, second) = _event("ns-forfeit")
    stage_no_show_set(stage=stage, actor=Actor(owner), minutes=5, action="forfeit")
    for player in (first.entry0.team.player1, first.entry0.team.player2, first.entry1.team.player1):
        _take(client, t, player)  # side 1's second player never comes
    done = online_no_shows(tournament=t, now=timezone.now() + timedelta(minutes=6))
    assert (first.pk, "forfeit") in done and (second.pk, "forfeit") in done
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Match.Status.FINISHED and first.winner_side == 0
    assert second.winner_side == 0  # nobody came: the higher seed goes on
    assert first.adjustments.get().kind == "forfeit"


def test_refused_rules_and_the_directors_form(client: Any) -> None:
    t, owner, stage, _matches = _event("ns-form")
    with pytest.raises(ServiceError):
        stage_no_show_set(stage=stage, actor=Actor(owner), minutes=10, action="walk")
    with pytest.raises(ServiceError):
        stage_no_show_set(stage=stage, actor=Actor(owner), minutes=999, action="bot")
    client.force_login(owner)
    url = reverse("tournament-online", args=[t.pk])
    client.post(url, {"action": "no_show", "stage": stage.pk, "minutes": "15", "rule": "forfeit"})
    assert no_show_rule(Stage.objects.get(pk=stage.pk)) == (15, "forfeit")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'value="forfeit" selected' in html
    client.post(url, {"action": "no_show", "stage": stage.pk, "rule": ""})
    assert no_show_rule(Stage.objects.get(pk=stage.pk)) is None
    answer = client.post(url, {"action": "no_show_now"}, follow=True)
    assert answer.status_code == 200
