"""A stage's online tables shown to spectators one trick behind (``Stage.settings["spectator_delay"]``):
set on the director's page (organizers only, audited), it turns the open rooms' ``Room.spectator_delay``
on and off, and the rooms opened afterwards follow it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from online import services
from online.models import Room
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.models import AuditEntry, Match, Stage
from tournaments.services import Actor
from tournaments.services.online_rooms import match_room, match_room_open, spectator_delay
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_stage_setting_delays_the_spectators_of_its_tables(client: Any, settings: Any) -> None:
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    owner = UserFactory(username="td")
    t = tournament_create(owner=owner, name="Delay Cup")
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    stage = Stage.objects.get(tournament=t)
    matches = list(Match.objects.filter(stage=stage, status=Match.Status.READY).order_by("position"))
    rooms = [match_room(m) for m in matches]
    assert len(rooms) == 2 and not any(r.spectator_delay for r in rooms)
    assert services.room_state(code=rooms[0].code, seat=None)["room"]["spectator_delay"] is False

    url = reverse("tournament-online", args=[t.pk])
    client.force_login(UserFactory(username="nosy"))
    assert client.post(url, {"action": "spectator_delay", "stage": stage.pk, "delay": "1"}).status_code == 403
    assert not Room.objects.filter(spectator_delay=True).exists()

    client.force_login(owner)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'class="form inline spectator-delay-form"' in page and "延迟一墩" in page
    client.post(url, {"action": "spectator_delay", "stage": stage.pk, "delay": "1"})
    stage.refresh_from_db()
    assert stage.settings["spectator_delay"] is True and spectator_delay(stage)
    assert all(Room.objects.get(pk=r.pk).spectator_delay for r in rooms)
    entry = AuditEntry.objects.get(action="stage.spectator_delay", tournament=t)
    assert entry.data["on"] is True and sorted(entry.data["rooms"]) == sorted(r.code for r in rooms)
    assert services.room_state(code=rooms[0].code, seat=None)["room"]["spectator_delay"] is True
    assert "checked" in client.get(url).content.decode().split('id="spectators"')[1]

    # a room opened while the setting is on is delayed (here: the first room ended, the match goes on)
    Room.objects.filter(pk=rooms[0].pk).update(status=Room.Status.FINISHED)
    again = match_room_open(match_id=matches[0].pk)
    assert again.pk != rooms[0].pk and again.spectator_delay

    client.post(url, {"action": "spectator_delay", "stage": stage.pk})  # unchecked: live again
    stage.refresh_from_db()
    assert "spectator_delay" not in stage.settings
    assert not Room.objects.get(pk=again.pk).spectator_delay and not Room.objects.get(pk=rooms[1].pk).spectator_delay
    assert Room.objects.get(pk=rooms[0].pk).spectator_delay  # a finished room is left as it was
    assert AuditEntry.objects.filter(action="stage.spectator_delay", tournament=t).count() == 2
