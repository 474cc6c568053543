"""The live pages on Channels groups (issue 30): a watcher of a tournament (``ws/live/tournaments/<id>/``)
gets the new change stamp after every committed write, a watcher of a match's live table
(``ws/live/matches/<id>/``) the new live state after every trick entered and hand recorded; a visitor who
may not view a private tournament is refused; a watcher costs no query while nothing changes; a dead
channel layer fails no write. Runs on the layer the settings give (in memory, or channels-redis with
CHANNEL_REDIS_URL: CI's second run). The page itself in a browser: ``test_live_push_browser.py``."""

from __future__ import annotations

import asyncio
import functools
import random
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config.asgi import application
from gameplay.bots import make_bot
from gameplay.hand import Hand
from gameplay.record import tricks_from_hand
from gameplay.simulate import make_hand, play_out
from scoring.partnership import MatchState
from tests.tournaments.factories import SHUTOUT
from tests.tournaments.test_pages import build_tournament, first_match, make_user
from tournaments.models import HandRecord, Match, Tournament
from tournaments.selectors.stamps import changes_stamp
from tournaments.services import Actor, hand_record, live_push
from tournaments.services.live_push import match_live_state

pytestmark = pytest.mark.django_db(transaction=True)

TRICKS = "/api/v1/matches/{}/trick-entry/"
QUIET = 0.3  # seconds a socket is watched for a message that must not come


def run_async(fn: Any) -> Any:
    """A sync test running the async body (as tests/online: no pytest-asyncio). When an event loop already
    runs in this thread (Playwright's sync API, whose browser fixture lives for the whole session), the
    body runs from a thread of its own."""
    @functools.wraps(fn)
    def test(*args: Any, **kwargs: Any) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            async_to_sync(fn)(*args, **kwargs)
            return
        with ThreadPoolExecutor(1) as pool:
            pool.submit(async_to_sync(fn), *args, **kwargs).result()
    return test


async def watch(path: str, cookie: str = "") -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """Open a watcher's socket through the whole ASGI stack (origin check, session, user): its first message."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    return comm, await comm.receive_json_from(timeout=5)


async def refused(path: str, cookie: str = "") -> int | None:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert not connected
    await comm.disconnect()
    return code if isinstance(code, int) else None


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def tractor_hand(seed: int = 11) -> Hand:
    h = make_hand("tractor", seed, state=MatchState(levels=("2", "2"), dealer=0, hands_played=1))
    play_out(h, [make_bot("heuristic", random.Random(seed + s)) for s in range(4)])
    assert h.dealer == 0 and h.finished
    return h


@pytest.fixture(autouse=True)
def _layer_ok() -> Iterator[None]:
    live_push.reset_failure()
    yield
    live_push.reset_failure()


@pytest.fixture
def cup() -> dict[str, Any]:
    owner = make_user("push_owner")
    tournament = build_tournament(owner)
    return {"owner": owner, "t": tournament, "match": first_match(tournament)}


@run_async
async def test_a_tournament_watcher_is_told_when_a_hand_is_recorded(cup: dict[str, Any]) -> None:
    t, match = cup["t"], cup["match"]
    comm, first = await watch(f"/ws/live/tournaments/{t.pk}/")
    assert first == {"type": "changed", "stamp": await database_sync_to_async(changes_stamp)(t.pk)}
    await database_sync_to_async(hand_record)(match_id=match.pk, outcome=SHUTOUT, version=match.version,
                                              actor=Actor(cup["owner"]), dealer=0, trump="S")
    pushed = await comm.receive_json_from(timeout=5)
    assert pushed["type"] == "changed" and pushed["stamp"] != first["stamp"]
    assert pushed["stamp"] == await database_sync_to_async(changes_stamp)(t.pk)  # the stamp endpoint's
    assert await comm.receive_nothing(timeout=QUIET)  # one write, one message
    # a second hand, through the REST API this time
    api = APIClient()
    api.force_authenticate(cup["owner"])
    m = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    answer = await database_sync_to_async(api.post)(f"/api/v1/matches/{m.pk}/hands/",
                                                    {"version": m.version, "outcome": SHUTOUT}, format="json")
    assert answer.status_code == 201, answer.json()
    again = await comm.receive_json_from(timeout=5)
    assert again["type"] == "changed" and again["stamp"] not in (first["stamp"], pushed["stamp"])
    await comm.disconnect()


@run_async
async def test_a_live_table_watcher_gets_the_new_state_on_every_trick_and_hand(cup: dict[str, Any]) -> None:
    match, owner = cup["match"], cup["owner"]
    api = APIClient()
    api.force_authenticate(owner)
    post = database_sync_to_async(lambda url, body: api.post(url, body, format="json"))
    put = database_sync_to_async(lambda url, body: api.put(url, body, format="json"))
    comm, first = await watch(f"/ws/live/matches/{match.pk}/")
    other, _ = await watch(f"/ws/live/matches/{match.pk}/")  # a second screen on the same table
    assert first["type"] == "state" and first["state"]["match"] == match.pk and first["state"]["hand"] is None

    async def pushed() -> dict[str, Any]:
        message = await comm.receive_json_from(timeout=5)
        assert message["type"] == "state"
        assert await comm.receive_nothing(timeout=QUIET)  # once per change, however many audits it wrote
        assert (await other.receive_json_from(timeout=5)) == message
        # what the live page and the Server-Sent Events stream would show now
        assert message["state"] == await database_sync_to_async(match_live_state)(match.pk)
        return dict(message["state"])

    h = tractor_hand()
    r = await post(TRICKS.format(match.pk), {"facts": {"dealer": 0, "trump": h.trump or "NT"}})
    assert r.status_code == 201, r.json()
    state = await pushed()
    assert state["hand"]["number"] == 1 and state["hand"]["tricks_entered"] == 0
    tricks = tricks_from_hand(h)
    version = r.json()["version"]
    play = tricks[0].plays[0]
    r = await post(TRICKS.format(match.pk) + "plays/", {"version": version, "play": play.to_json()})
    assert r.status_code == 200, r.json()
    state = await pushed()
    assert state["hand"]["trick"]["plays"] == [play.to_json()] and state["hand"]["next_seat"] == tricks[0].plays[1].seat
    version = r.json()["version"]
    for n, t in enumerate(tricks, start=1):
        r = await put(TRICKS.format(match.pk) + f"tricks/{n}/", {"version": version,
                                                                "plays": [p.to_json() for p in t.plays]})
        assert r.status_code == 200, r.json()
        version = r.json()["version"]
        state = await pushed()
        assert state["hand"]["tricks_entered"] == n
    assert state["hand"]["complete"]
    r = await post(TRICKS.format(match.pk) + "finish/", {"version": version})  # records the hand
    assert r.status_code == 201, r.json()
    state = await pushed()
    assert state["hands_played"] == 1 and state["hand"] is None and state["last_hand"]["trick_log"]
    # a hand recorded by its totals reaches the live table too
    m = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await database_sync_to_async(hand_record)(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=Actor(owner))
    state = await pushed()
    assert state["hands_played"] == 2 and state["last_hand"]["number"] == 2
    await comm.disconnect()
    await other.disconnect()


@run_async
async def test_a_visitor_who_may_not_view_a_private_tournament_is_refused(cup: dict[str, Any]) -> None:
    owner = cup["owner"]
    private: Tournament = await database_sync_to_async(build_tournament)(owner, name="私密赛 Private Cup",
                                                                          is_public=False)
    match = await database_sync_to_async(first_match)(private)
    stranger = await database_sync_to_async(session_of)(await database_sync_to_async(make_user)("stranger"))
    for path in (f"/ws/live/tournaments/{private.pk}/", f"/ws/live/matches/{match.pk}/"):
        assert await refused(path) == 4003  # anonymous
        assert await refused(path, stranger) == 4003  # signed in, not staff
    for path in ("/ws/live/tournaments/999999/", "/ws/live/matches/999999/"):
        assert await refused(path) == 4003
    # its organizer may watch both
    cookie = await database_sync_to_async(session_of)(owner)
    comm, first = await watch(f"/ws/live/tournaments/{private.pk}/", cookie)
    assert first["type"] == "changed"
    table, state = await watch(f"/ws/live/matches/{match.pk}/", cookie)
    assert state["type"] == "state" and state["state"]["match"] == match.pk
    # a refused visitor is in no group: a write to the private tournament reaches the organizer only
    m = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await database_sync_to_async(hand_record)(match_id=m.pk, outcome=SHUTOUT, version=m.version,
                                              actor=Actor(owner), dealer=0)
    assert (await comm.receive_json_from(timeout=5))["type"] == "changed"
    assert (await table.receive_json_from(timeout=5))["state"]["hands_played"] == 1
    await comm.disconnect()
    await table.disconnect()


@run_async
async def test_a_table_link_session_follows_its_private_tournament(cup: dict[str, Any]) -> None:
    """The scoring page of a table opened by its link listens to its tournament, private or not."""
    private: Tournament = await database_sync_to_async(build_tournament)(cup["owner"], name="私密赛 Private Cup",
                                                                          is_public=False)
    match = await database_sync_to_async(first_match)(private)
    phone = Client()
    opened = await database_sync_to_async(phone.get)(f"/t/{match.scorer_token}/")
    assert opened.status_code == 302
    cookie = phone.cookies["sessionid"].value
    comm, first = await watch(f"/ws/live/tournaments/{private.pk}/", cookie)
    assert first["type"] == "changed"
    await comm.disconnect()
    assert await refused(f"/ws/live/matches/{match.pk}/", cookie) == 4003  # the live table is the public's page


def every_query(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement any thread runs from now on (the consumers' database trips run in threads of
    their own, with connections of their own, which a ``CaptureQueriesContext`` of this thread misses)."""
    seen: list[str] = []
    original = CursorWrapper._execute_with_wrappers

    def counted(cursor: Any, sql: str, params: Any, many: bool, executor: Any) -> Any:
        seen.append(sql)
        return original(cursor, sql, params, many, executor)

    monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", counted)
    return seen


@run_async
async def test_watchers_cost_no_query_while_nothing_changes(cup: dict[str, Any],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    t, match = cup["t"], cup["match"]
    seen = every_query(monkeypatch)
    watchers = [await watch(f"/ws/live/tournaments/{t.pk}/") for _ in range(3)]
    watchers += [await watch(f"/ws/live/matches/{match.pk}/") for _ in range(3)]
    assert len(seen) >= 6  # connecting asks (once per watcher), and the count sees the consumers' threads
    seen.clear()
    quiet = CaptureQueriesContext(connection)
    await sync_to_async(quiet.__enter__)()
    for comm, _ in watchers:
        assert await comm.receive_nothing(timeout=0.25)
    await asyncio.sleep(1.0)
    await sync_to_async(quiet.__exit__)(None, None, None)
    assert quiet.captured_queries == [] and seen == []
    # a change: computed once for the table's three watchers, not once each
    m = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await database_sync_to_async(hand_record)(match_id=m.pk, outcome=SHUTOUT, version=m.version,
                                              actor=Actor(cup["owner"]), dealer=0)
    for comm, _ in watchers:
        await comm.receive_json_from(timeout=5)
    states = [sql for sql in seen if "tournaments_trickdraft" in sql]
    assert len(states) == 1, states  # one live state for the table's three watchers
    seen.clear()
    await asyncio.sleep(0.5)
    assert seen == []
    for comm, _ in watchers:
        await comm.disconnect()


@pytest.mark.skipif(not settings.CHANNEL_REDIS_URL, reason="the Redis channel layer's blocking read (CI's second run)")
@run_async
async def test_a_watcher_quiet_for_longer_than_the_layers_blocking_read_still_hears(cup: dict[str, Any]) -> None:
    """channels-redis reads with a 5 s BZPOPMIN: with redis-py 8's 5 s socket timeout that read failed after
    5 quiet seconds and closed every socket of the process (the settings give the socket 15 s)."""
    t, match = cup["t"], cup["match"]
    comm, first = await watch(f"/ws/live/tournaments/{t.pk}/")
    assert await comm.receive_nothing(timeout=6.5)
    await database_sync_to_async(hand_record)(match_id=match.pk, outcome=SHUTOUT, version=match.version,
                                              actor=Actor(cup["owner"]), dealer=0)
    pushed = await comm.receive_json_from(timeout=5)
    assert pushed["type"] == "changed" and pushed["stamp"] != first["stamp"]
    await comm.disconnect()


def dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again: nothing listens there


def test_a_dead_channel_layer_fails_no_write(cup: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """Redis down: the hand is recorded, the stamp moves, the failure is logged, later writes skip the push."""
    from channels_redis.core import RedisChannelLayer

    dead = RedisChannelLayer(hosts=[f"redis://127.0.0.1:{dead_port()}/0"])
    monkeypatch.setattr(live_push, "get_channel_layer", lambda: dead)
    match, owner = cup["match"], cup["owner"]
    before = changes_stamp(cup["t"].pk)
    started = time.monotonic()
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=0)
    assert time.monotonic() - started < live_push.PUSH_TIMEOUT + 3
    assert HandRecord.objects.filter(match=match).count() == 1 and changes_stamp(cup["t"].pk) != before
    assert "live push failed" in caplog.text
    caplog.clear()
    match.refresh_from_db()
    started = time.monotonic()
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner))
    assert time.monotonic() - started < 1.0  # paused after the failure: no second timeout
    assert HandRecord.objects.filter(match=match).count() == 2 and "live push failed" not in caplog.text
