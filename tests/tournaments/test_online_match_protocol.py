"""A tournament match played through the table protocol by four sockets holding the seat tokens their players'
links gave them (issue 31): partners opposite, every frame private to its seat (the online table's privacy
check over a tournament room), and the hand recorded into the match as it ends (``via="online"``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from gameplay.notation import replay
from online import services
from tests.online.helpers import Client, check_privacy, run_async
from tests.online.test_protocol import play_hand
from tests.tournaments.factories import TeamFactory, UserFactory
from tournaments.models import HandRecord, Match, PlayerLink
from tournaments.services import Actor
from tournaments.services.player_links import player_link_open, player_links_ensure
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


@database_sync_to_async
def seated_by_links() -> tuple[str, dict[int, str], int]:
    owner = UserFactory(username="protocol-director")
    t = tournament_create(owner=owner, name="Socket Cup", options={"hand_limit": 1})
    for seed in range(1, 5):
        entry_add(tournament=t, actor=Actor(owner), team=TeamFactory(), seed=seed)
    tournament_start(tournament=t, actor=Actor(owner), seeding="manual", played="online")
    player_links_ensure(tournament=t, actor=Actor(owner))
    match = Match.objects.filter(stage__tournament=t, status=Match.Status.READY).order_by("position").first()
    assert match is not None
    tokens: dict[int, str] = {}
    code = ""
    for side in (0, 1):
        team = match.entry(side).team
        for player, seat in ((team.player1, side), (team.player2, side + 2)):
            room, got, token = player_link_open(link=PlayerLink.objects.get(tournament=t, player=player))
            assert got == seat
            code, tokens[seat] = room.code, token
    return code, tokens, match.pk


@run_async
async def test_a_tournament_hand_through_the_protocol_is_private_and_recorded() -> None:
    code, tokens, match_id = await seated_by_links()
    clients = [Client(code, s) for s in range(4)]
    for seat, client in enumerate(clients):
        await client.open(tokens[seat])
        assert client.state is not None and client.state["you"]["seat"] == seat
    watcher = Client(code, None)
    await watcher.open("")
    rh = await play_hand(code, clients, watcher, random.Random(31))
    finished = replay(rh.log)
    hands = {rh.number: finished}
    checked = sum(check_privacy(c.frames, c.seat, hands) for c in clients) + check_privacy(watcher.frames, None, hands)
    assert checked > 50
    record = await database_sync_to_async(lambda: HandRecord.objects.get(match_id=match_id, number=1))()
    assert record.entered_via == "online" and record.outcome == finished.outcome
    match = await database_sync_to_async(lambda: Match.objects.get(pk=match_id))()
    assert match.status == Match.Status.FINISHED  # one hand (the hand limit): the bracket moved on
    assert clients[0].state is not None and clients[0].state["room"]["status"] == "finished"
    for c in [*clients, watcher]:
        await c.comm.disconnect()
