"""Live watchers of a tournament made private (docs/tournaments.md, "Live pages"): the sockets already
watching (``ws/live/tournaments/<id>/``, ``ws/live/matches/<id>/``) are told ``live.access`` through the
tournament's access group after the commit; each checks again, and one no longer allowed is sent
``{"type": "closed", "reason": "not_visible"}`` and closed with 4003. The staff's sockets, and a table
link's session following its tournament, stay. The same when a tournament goes back to draft. Runs on the
layer the settings give (in memory, or channels-redis with CHANNEL_REDIS_URL)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.tournaments.factories import SHUTOUT
from tests.tournaments.test_live_push import QUIET, refused, run_async, session_of, watch
from tests.tournaments.test_pages import build_tournament, first_match, make_user
from tournaments.models import Match, Tournament
from tournaments.services import Actor, hand_record, live_push
from tournaments.services.setup import tournament_set_status, tournament_update

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer_ok() -> Iterator[None]:
    live_push.reset_failure()
    yield
    live_push.reset_failure()


async def closed_for_privacy(comm: WebsocketCommunicator) -> None:
    """The socket is told why, then closed with 4003 (stamps that came before are skipped)."""
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] != "changed":
            break
    assert frame == {"type": "closed", "reason": "not_visible"}
    out = await comm.receive_output(timeout=5)
    assert out == {"type": "websocket.close", "code": 4003} or (out["type"] == "websocket.close" and out["code"] == 4003)


@run_async
async def test_watchers_of_a_tournament_made_private_are_closed() -> None:
    owner = await database_sync_to_async(make_user)("access_owner")
    t: Tournament = await database_sync_to_async(build_tournament)(owner, name="公开赛 Open Cup")
    match = await database_sync_to_async(first_match)(t)
    staff = await database_sync_to_async(session_of)(owner)
    phone = Client()  # a table's scoring page, opened by its link: its session follows the tournament
    assert (await database_sync_to_async(phone.get)(f"/t/{match.scorer_token}/")).status_code == 302
    table_link = phone.cookies["sessionid"].value

    public_t, _ = await watch(f"/ws/live/tournaments/{t.pk}/")
    public_m, _ = await watch(f"/ws/live/matches/{match.pk}/")
    staff_t, _ = await watch(f"/ws/live/tournaments/{t.pk}/", staff)
    staff_m, _ = await watch(f"/ws/live/matches/{match.pk}/", staff)
    scorer_t, _ = await watch(f"/ws/live/tournaments/{t.pk}/", table_link)

    # nothing but the usual stamp while the tournament stays public (another field changed)
    await database_sync_to_async(tournament_update)(tournament=t, actor=Actor(owner), venue="新场地 New room")
    for comm in (public_t, staff_t, scorer_t):
        assert (await comm.receive_json_from(timeout=5))["type"] == "changed"
    for comm in (public_t, public_m, staff_m):
        assert await comm.receive_nothing(timeout=QUIET)

    await database_sync_to_async(tournament_update)(tournament=t, actor=Actor(owner), is_public=False)
    await closed_for_privacy(public_t)
    await closed_for_privacy(public_m)
    for comm in (staff_m,):
        assert await comm.receive_nothing(timeout=QUIET)  # the staff's live table stays open, nothing sent
    for comm in (staff_t, scorer_t):  # the staff's and the table link's tournament watchers stay
        assert (await comm.receive_json_from(timeout=5))["type"] == "changed"  # the update's stamp
        assert await comm.receive_nothing(timeout=QUIET)

    # a write after that reaches the watchers that stayed, and a new public watcher is refused
    m = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await database_sync_to_async(hand_record)(match_id=m.pk, outcome=SHUTOUT, version=m.version,
                                              actor=Actor(owner), dealer=0)
    assert (await staff_t.receive_json_from(timeout=5))["type"] == "changed"
    assert (await scorer_t.receive_json_from(timeout=5))["type"] == "changed"
    assert (await staff_m.receive_json_from(timeout=5))["state"]["hands_played"] == 1
    assert await refused(f"/ws/live/tournaments/{t.pk}/") == 4003
    assert await refused(f"/ws/live/matches/{match.pk}/") == 4003
    for comm in (staff_t, staff_m, scorer_t, public_t, public_m):
        await comm.disconnect()


@run_async
async def test_watchers_of_a_tournament_back_to_draft_are_closed() -> None:
    owner = await database_sync_to_async(make_user)("draft_owner")
    t: Tournament = await database_sync_to_async(build_tournament)(owner, name="报名中 Signing up", start=False)
    await database_sync_to_async(tournament_set_status)(tournament=t, status=Tournament.Status.REGISTRATION,
                                                        actor=Actor(owner))
    staff = await database_sync_to_async(session_of)(owner)
    public, _ = await watch(f"/ws/live/tournaments/{t.pk}/")  # open for registration: anyone may watch
    organizer, _ = await watch(f"/ws/live/tournaments/{t.pk}/", staff)
    await database_sync_to_async(tournament_set_status)(tournament=t, status=Tournament.Status.DRAFT,
                                                        actor=Actor(owner))
    await closed_for_privacy(public)
    assert (await organizer.receive_json_from(timeout=5))["type"] == "changed"
    assert await organizer.receive_nothing(timeout=QUIET)
    await organizer.disconnect()
    await public.disconnect()


def test_a_dead_channel_layer_keeps_no_tournament_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis down: the tournament is made private all the same (the push after the commit is given up)."""
    from channels_redis.core import RedisChannelLayer

    from tests.tournaments.test_live_push import dead_port

    dead = RedisChannelLayer(hosts=[f"redis://127.0.0.1:{dead_port()}/0"])
    monkeypatch.setattr(live_push, "get_channel_layer", lambda: dead)
    owner = make_user("dead_layer_owner")
    t = build_tournament(owner, name="断线 Layer down", start=False)
    started = time.monotonic()
    tournament_update(tournament=t, actor=Actor(owner), is_public=False)
    assert time.monotonic() - started < live_push.PUSH_TIMEOUT + 3
    t.refresh_from_db()
    assert not t.is_public
    assert live_push.push_access(t.pk) is False  # paused after the failure: nothing sent, nothing raised


@run_async
async def test_a_match_watcher_made_private_while_connecting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's tournament is known only from the match: its watcher joins the access group after the
    first check, then checks again — a tournament made private in between is not missed."""
    from tournaments.consumers import MatchLiveConsumer

    owner = await database_sync_to_async(make_user)("race_owner")
    t: Tournament = await database_sync_to_async(build_tournament)(owner, name="竞态 Race Cup")
    match = await database_sync_to_async(first_match)(t)
    real = MatchLiveConsumer.opening

    def opening_then_private(self: Any, pk: int) -> Any:
        first = real(self, pk)
        Tournament.objects.filter(pk=t.pk).update(is_public=False)  # made private before the access group is joined
        return first

    monkeypatch.setattr(MatchLiveConsumer, "opening", opening_then_private)
    assert await refused(f"/ws/live/matches/{match.pk}/") == 4003
