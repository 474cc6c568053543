"""Service level: the deal at its pace with declarations while cards arrive, clocks and 托管, a restart
mid-hand, and random frames that never break a table (hypothesis)."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from gameplay.cards import format_cards
from gameplay.events import Deal, Declare
from gameplay.notation import replay
from online import scheduling, services, tables
from online.models import Room, RoomAction, RoomHand, Seat

from .helpers import oracle_move

pytestmark = pytest.mark.django_db(transaction=True)
_ids = itertools.count()


class Ticks:
    """scheduling.schedule replaced: ticks are recorded, the test fires them."""

    def __init__(self) -> None:
        self.armed: list[tuple[int, int, int]] = []

    def __call__(self, room_id: int, version: int, delay_ms: int) -> None:
        self.armed.append((room_id, version, delay_ms))

    def fire(self) -> bool:
        room_id, version, _ = self.armed[-1]
        return services.room_tick(room_id=room_id, version=version)


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Ticks:
    settings.ONLINE_DEAL_INTERVAL_MS = 1
    settings.ONLINE_BOT_DELAY_MS = 1
    t = Ticks()
    monkeypatch.setattr(scheduling, "schedule", t)
    return t


def table(variant: str, *, connected: bool = True, **kw: Any) -> tuple[Room, list[str]]:
    created = services.room_create(variant=variant, seating="choice", **kw)
    code = created.room.code
    tokens = [services.room_join(code=code, name=f"P{s}", seat=s).token for s in range(created.room.players)]
    if connected:
        for s, t in enumerate(tokens):
            services.room_connect(code=code, token=t, channel=f"test.{code}.{s}")
    return Room.objects.get(code=code), tokens


def act(room: Room, token: str, kind: str, **fields: Any) -> services.Answer:
    room.refresh_from_db()
    if kind == "ready":
        return services.seat_ready(code=room.code, token=token, action_id=f"r{next(_ids)}", version=room.version)
    return services.room_act(code=room.code, token=token, action=kind, action_id=f"t{next(_ids)}",
                             version=room.version, **fields)


def ready_all(room: Room, tokens: list[str]) -> None:
    for t in tokens:
        act(room, t, "ready")
    room.refresh_from_db()


def oracle_step(room: Room, tokens: list[str], rng: random.Random) -> bool:
    room.refresh_from_db()
    _rh, hand = services.current_hand(room)
    assert hand is not None
    if hand.finished:
        return False
    seat, kind, fields = oracle_move(hand, rng)
    act(room, tokens[seat], kind, **fields)
    return True


@pytest.mark.parametrize("variant", ["tractor", "yongzhou-300"])
def test_the_deal_goes_round_by_round_and_players_declare_while_it_does(variant: str, ticks: Ticks) -> None:
    room, tokens = table(variant)
    ready_all(room, tokens)
    assert room.deadline_kind == "deal"
    declared_during_deal = False
    rounds = 0
    while True:
        room.refresh_from_db()
        rh, hand = services.current_hand(room)
        assert hand is not None and rh is not None
        kind, seat = hand.to_act()
        if hand.phase != "deal":
            break
        if kind == "declare":  # yongzhou: an overturn offered to this seat, dealing waits for its answer
            assert room.deadline_kind == ""
            act(room, tokens[seat], "pass")
            continue
        for s in range(hand.n):
            opts = hand.legal_declarations(s)
            if opts and not declared_during_deal:
                act(room, tokens[s], "declare", cards=format_cards(opts[0]))
                declared_during_deal = True
                break
        else:
            dealt = hand.dealt
            old = ticks.armed[-1]
            assert room.deadline_kind == "deal" and old[1] == room.version and ticks.fire()
            rounds += 1
            _, after = services.current_hand(Room.objects.get(pk=room.pk))
            assert after is not None
            assert after.dealt - dealt <= hand.n
            assert not services.room_tick(room_id=old[0], version=old[1])  # a tick fires once: the room moved on
    assert declared_during_deal and rounds >= 20
    rh = RoomHand.objects.get(room=room)
    events = rh.log["events"]
    first_declare = next(i for i, e in enumerate(events) if e["kind"] == "declare")
    assert any(e["kind"] == "deal" for e in events[first_declare:])  # cards still arrived after it
    assert isinstance(services.hand_from_log(rh.log).log[first_declare], Declare)


def test_a_clock_runs_out_once_and_a_bot_plays_for_the_seat(ticks: Ticks) -> None:
    room, tokens = table("red-five", clock=5)
    ready_all(room, tokens)
    while room.deadline_kind == "deal":
        ticks.fire()
        room.refresh_from_db()
    _rh, hand = services.current_hand(room)
    assert hand is not None
    _kind, seat = hand.to_act()
    assert seat is not None and room.deadline_kind == "clock" and room.deadline_seat == seat
    state = services.room_state(code=room.code, seat=seat)
    assert state["clock"]["seat"] == seat and state["clock"]["seconds"] == 5
    version = room.version
    assert not services.room_tick(room_id=room.pk, version=version)  # not yet due
    Room.objects.filter(pk=room.pk).update(deadline=room.deadline.replace(year=2000))  # type: ignore[union-attr]
    assert services.room_tick(room_id=room.pk, version=version)
    assert not services.room_tick(room_id=room.pk, version=version)  # fires once
    room.refresh_from_db()
    assert room.version == version + 1 and room.seats.get(seat=seat).auto
    assert services.room_state(code=room.code, seat=None)["room"]["seats"][seat]["auto"] is True
    # the seat's next turn is played by the bot (托管) until the player acts again
    rng = random.Random(5)
    for _ in range(400):
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None
        if hand.finished:
            break
        _k, s = hand.to_act()
        if s == seat:
            assert room.deadline_kind == "bot"
            assert ticks.fire()
            continue
        oracle_step(room, tokens, rng)
    room.refresh_from_db()
    assert room.seats.get(seat=seat).auto  # never acted again: still played by the bot


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the hands rebuilt from a whole stored log (``calls["n"]``)."""
    calls = {"n": 0}
    real = tables.hand_from_log

    def counting(log: Any) -> Any:
        calls["n"] += 1
        return real(log)

    monkeypatch.setattr(tables, "hand_from_log", counting)
    return calls


def test_a_restart_mid_hand_loses_nothing(rebuilds: dict[str, int]) -> None:
    calls = rebuilds
    room, tokens = table("chaodi")
    ready_all(room, tokens)
    rng = random.Random(11)
    for _ in range(30):
        oracle_step(room, tokens, rng)
    calls["n"] = 0
    for _ in range(10):
        assert oracle_step(room, tokens, rng)
    assert calls["n"] == 0  # the service kept its hand from action to action: no replay
    _rh_before, hand_before = services.current_hand(room)
    assert hand_before is not None
    services.drop_cache()  # the process restarts
    calls["n"] = 0
    rebuilt = services.current_hand(room)[1]
    assert rebuilt is not None and calls["n"] == 1
    assert rebuilt.log == hand_before.log and rebuilt.hands == hand_before.hands
    while oracle_step(room, tokens, rng):
        pass
    rh = RoomHand.objects.get(room=room)
    assert rh.finished and replay(rh.log).outcome == rh.outcome


def test_a_hand_another_process_moved_on_is_caught_up_not_replayed(rebuilds: dict[str, int]) -> None:
    """Two ASGI processes share a room's sockets: each caches the hand at the version it last served. When
    the other process has served actions since, this one applies only the stored events its hand has not seen
    (no replay of the whole log), and reaches exactly the hand the stored log replays to."""
    calls = rebuilds
    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(5)
    for _ in range(40):
        oracle_step(room, tokens, rng)
    this_process = snapshot()  # what this process had cached when it last served the room
    for _ in range(7):  # the other process serves the next actions
        assert oracle_step(room, tokens, rng)
    tables._CACHE.clear()
    tables._CACHE.update(this_process)
    room.refresh_from_db()
    assert this_process[room.pk][0] < room.version  # the cached hand is behind
    calls["n"] = 0
    assert oracle_step(room, tokens, rng)  # this process serves again
    assert calls["n"] == 0  # caught up: no rebuild from the whole log
    rh, hand = services.current_hand(room)
    assert rh is not None and hand is not None
    rebuilt = services.hand_from_log(rh.log)  # the module's own name: not counted
    assert hand.log == rebuilt.log and hand.hands == rebuilt.hands and hand.phase == rebuilt.phase
    # A cached hand of another hand row (a new hand was dealt meanwhile) is not caught up: rebuilt whole.
    stale_version, stale_hand, stale_row = this_process[room.pk]
    assert stale_row is not None
    stale_row.pk = -1
    tables._CACHE[room.pk] = (stale_version, stale_hand, stale_row)
    calls["n"] = 0
    room.refresh_from_db()
    again = services.current_hand(room)[1]
    assert calls["n"] == 1 and again is not None and again.log == rebuilt.log


def snapshot() -> dict[int, tuple[int, Any, Any]]:
    """This process's cached hands and rows as copies: the actions another process serves next do not
    change them (as they would not change what a process of their own holds)."""
    return {room_id: (version, services.hand_from_log(copy.deepcopy(row.log)), copy.deepcopy(row))
            for room_id, (version, _hand, row) in tables._CACHE.items() if row is not None}


def test_a_play_after_another_process_reads_the_hand_with_the_lock_and_only_its_new_events(
        rebuilds: dict[str, int]) -> None:
    """The action this process serves after the other one served seven: the hand row is read in the same
    round trip as the room's lock (no second read), on PostgreSQL only the log events this process has not
    seen; the hand is caught up, not rebuilt, and what it caches is exactly the stored log and its replay."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(9)
    for _ in range(40):
        oracle_step(room, tokens, rng)
    this_process = snapshot()
    for _ in range(7):
        assert oracle_step(room, tokens, rng)
    tables._CACHE.clear()
    tables._CACHE.update(this_process)
    room.refresh_from_db()
    row_id = this_process[room.pk][2].pk
    truth = services.hand_from_log(RoomHand.objects.get(pk=row_id).log)
    assert len(truth.log) > len(this_process[room.pk][1].log)  # the cached hand is behind
    seat, kind, fields = oracle_move(truth, rng)
    rebuilds["n"] = 0
    with CaptureQueriesContext(connection) as queries:
        act(room, tokens[seat], kind, **fields)
    assert rebuilds["n"] == 0
    hand_reads = [q["sql"] for q in queries.captured_queries
                  if "online_roomhand" in q["sql"] and q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(hand_reads) == 1 and '"code" =' in hand_reads[0], hand_reads  # by the room's code: with its lock
    if connection.vendor == "postgresql":
        assert "jsonb_path_query_array" in hand_reads[0]
    stored = RoomHand.objects.get(pk=row_id)
    room.refresh_from_db()
    version, hand, row = tables._CACHE[room.pk]
    assert version == room.version and row.log == stored.log
    replayed = services.hand_from_log(stored.log)
    assert hand.log == replayed.log and hand.hands == replayed.hands and hand.phase == replayed.phase
    # What this process cached is of another hand row (a new hand was dealt since): the part read does not
    # continue it, so the row is read whole and the hand rebuilt.
    version, hand, row = this_process[room.pk]
    row.pk = -1
    tables._CACHE[room.pk] = (version, hand, row)
    seat, kind, fields = oracle_move(replayed, rng)
    with CaptureQueriesContext(connection) as queries:
        act(room, tokens[seat], kind, **fields)
    stored = RoomHand.objects.get(pk=row_id)
    assert tables._CACHE[room.pk][1].log == services.hand_from_log(stored.log).log


FRAMES = st.lists(st.tuples(st.sampled_from(["good", "good", "good", "junk", "resend", "stale", "wrong_seat",
                                             "bad_action"]), st.integers(0, 10_000)), min_size=5, max_size=40)


@settings(max_examples=6, database=None, phases=[Phase.explicit, Phase.generate])  # bounded: no shrinking
@given(frames=FRAMES)
def test_random_frames_never_break_a_table(frames: list[tuple[str, int]]) -> None:
    services.drop_cache()
    room, tokens = table("tractor")
    ready_all(room, tokens)
    sent: list[tuple[int, str, str, dict[str, Any], int]] = []
    for what, n in frames:
        room.refresh_from_db()
        rh, hand = services.current_hand(room)
        assert hand is not None
        if hand.finished:
            break
        version = room.version
        rng = random.Random(n)
        seat, kind, fields = oracle_move(hand, rng)
        if what == "junk":
            fields = {"cards": rng.choice(["", "SA", "BJ BJ", "H2 H2 H2", "nonsense"])} if kind != "bid" else {"amount": -1}
        if what == "wrong_seat":
            seat = (seat + 1 + n % 3) % hand.n
        if what == "bad_action":
            kind = "shout"
        if what == "resend" and sent:
            s_seat, s_kind, s_id, s_fields, s_version = sent[n % len(sent)]
            answer = services.room_act(code=room.code, token=tokens[s_seat], action=s_kind, action_id=s_id,
                                       version=s_version, **s_fields)
            assert answer.repeated
            room.refresh_from_db()
            assert room.version == version
            continue
        aid = f"h{next(_ids)}"
        try:
            answer = services.room_act(code=room.code, token=tokens[seat], action=kind, action_id=aid,
                                       version=version - 1 if what == "stale" else version, **fields)
        except services.OnlineError as e:
            assert e.code in ("refused", "bad_message", "stale") and e.message["en"] and e.message["zh-hans"]
            room.refresh_from_db()
            assert room.version == version
            assert not RoomAction.objects.filter(room=room, action_id=aid).exists()
            continue
        assert what in ("good", "junk", "wrong_seat", "resend") and answer.version > version
        sent.append((seat, kind, aid, fields, version))
    # the stored log replays to exactly the hand the table has
    room.refresh_from_db()
    rh, hand = services.current_hand(room)
    assert rh is not None and hand is not None
    services.drop_cache()
    again = services.hand_from_log(RoomHand.objects.get(pk=rh.pk).log)
    assert again.log == hand.log
    assert [e.to_json() for e in hand.log] == rh.log["events"]
    assert sum(1 for e in hand.log if isinstance(e, Deal)) >= hand.ndeal


def test_the_next_hand_starts_when_the_last_unready_player_leaves_between_hands(ticks: Ticks) -> None:
    """Between hands everyone but one is ready; that one closes the page: the next hand is dealt (a bot
    plays for the absent seat) instead of the table waiting for nobody."""
    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(3)
    for _ in range(1000):
        room.refresh_from_db()
        if room.deadline_kind == "deal":
            ticks.fire()
        elif not oracle_step(room, tokens, rng):
            break
    assert RoomHand.objects.get(room=room, number=1).finished
    for t in tokens[1:]:
        act(room, t, "ready")
    room.refresh_from_db()
    assert not RoomHand.objects.filter(room=room, number=2).exists()  # seat 0 is still not ready
    services.room_disconnect(code=room.code, seat=0, channel=f"test.{room.code}.0")
    assert RoomHand.objects.filter(room=room, number=2).exists()


def test_a_player_who_leaves_on_their_turn_is_played_by_a_bot_while_others_stay(ticks: Ticks, settings: Any) -> None:
    """No clock: the player to act closes the page — after ONLINE_ABSENT_SECONDS (time for a reload) a bot
    plays the turn (托管) so the others can go on; a player back in time keeps the turn, and one back after
    托管 takes the seat back; with every player gone the table waits for them (no bot plays a whole match for
    nobody)."""
    from datetime import timedelta

    from django.utils import timezone

    settings.ONLINE_ABSENT_SECONDS = 20
    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(8)
    while True:  # to the first turn of the play phase
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None
        if room.deadline_kind == "deal":
            ticks.fire()
            continue
        if hand.phase == "play":
            break
        oracle_step(room, tokens, rng)
    seat = hand.trick_turn
    assert room.deadline_kind == ""  # no clock: the player takes their time
    channel = f"test.{room.code}.{seat}"
    services.room_disconnect(code=room.code, seat=seat, channel=channel)
    room.refresh_from_db()
    assert room.deadline_kind == "clock" and room.deadline_seat == seat
    assert room.deadline is not None and room.deadline > timezone.now() + timedelta(seconds=15)
    version = room.version
    assert not ticks.fire()  # not before the deadline: a reload is not a departure
    # back in time (a reload): the turn is the player's again, with no clock
    services.room_connect(code=room.code, token=tokens[seat], channel=channel)
    room.refresh_from_db()
    assert room.deadline_kind == "" and room.version == version
    # gone for good: once the wait has passed a bot plays the turn and the seat is 托管
    services.room_disconnect(code=room.code, seat=seat, channel=channel)
    Room.objects.filter(pk=room.pk).update(deadline=timezone.now())
    assert ticks.fire()
    room.refresh_from_db()
    assert room.version == version + 1  # the bot played for the absent seat
    assert Seat.objects.get(room=room, seat=seat).auto
    services.room_connect(code=room.code, token=tokens[seat], channel=channel)
    assert not Seat.objects.get(room=room, seat=seat).auto  # back: no more 托管
    services.room_disconnect(code=room.code, seat=seat, channel=channel)
    for s in range(4):
        if s != seat:
            services.room_disconnect(code=room.code, seat=s, channel=f"test.{room.code}.{s}")
    room.refresh_from_db()
    _rh, hand = services.current_hand(room)
    assert hand is not None and not hand.finished
    assert room.deadline_kind == "" and room.deadline is None  # nobody at the table: it waits


def test_sockets_of_a_dead_process_are_taken_back(ticks: Ticks, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process died with its sockets open: the seats stay counted as connected. The sweep takes back
    seats not seen (no ping) for PRESENCE_SECONDS — a bot then plays the absent player's turn while another
    stays — and a ping keeps a seat; on the embedded default a new process forgets every old count."""
    from datetime import timedelta

    from django.utils import timezone

    from online import presence

    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(8)
    while True:
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None
        if room.deadline_kind == "deal":
            ticks.fire()
        elif hand.phase == "play":
            break
        else:
            oracle_step(room, tokens, rng)
    seat = hand.trick_turn
    long_ago = timezone.now() - timedelta(seconds=presence.PRESENCE_SECONDS + 5)
    Seat.objects.filter(room=room).update(last_seen=long_ago)
    presence.seat_seen(code=room.code, seat=(seat + 1) % 4)  # one player's page still pings
    assert presence.forget_gone() == 3
    assert Seat.objects.get(room=room, seat=(seat + 1) % 4).connected == 1
    room.refresh_from_db()
    assert room.deadline_kind == "clock" and room.deadline_seat == seat  # the others are gone: 托管 in a while
    monkeypatch.setattr(presence, "_started", False)
    assert presence.process_started() == 1  # a new process (embedded default): the last count goes too
    assert not Seat.objects.filter(room=room, connected__gt=0).exists()
    assert presence.process_started() == 0  # once per process


def test_an_action_id_used_before_is_answered_as_then_even_with_the_current_version() -> None:
    """The id is checked against the stored ones only when the version has moved on (a resend); an id stored
    before and sent again with the current version is caught by the unique key and answered as the first time."""
    room, tokens = table("tractor")
    ready_all(room, tokens)
    rng = random.Random(5)
    while True:
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None
        if hand.to_act()[0] == "play":
            break
        oracle_step(room, tokens, rng)
    seat, kind, fields = oracle_move(hand, rng)
    first = services.room_act(code=room.code, token=tokens[seat], action=kind, action_id="same-id",
                              version=room.version, **fields)
    assert not first.repeated
    while True:  # on to the seat's next turn
        room.refresh_from_db()
        _rh, hand = services.current_hand(room)
        assert hand is not None and not hand.finished
        if hand.to_act() == ("play", seat):
            break
        oracle_step(room, tokens, rng)
    stored = RoomAction.objects.count()
    seat2, kind2, fields2 = oracle_move(hand, rng)
    assert seat2 == seat
    again = services.room_act(code=room.code, token=tokens[seat], action=kind2, action_id="same-id",
                              version=room.version, **fields2)
    assert again.repeated and again.version == first.version
    assert RoomAction.objects.count() == stored and Room.objects.get(pk=room.pk).version == room.version
    # nothing changed: the same play with a new id is accepted
    nxt = services.room_act(code=room.code, token=tokens[seat], action=kind2, action_id="next-id",
                            version=room.version, **fields2)
    assert not nxt.repeated and nxt.version == room.version + 1
