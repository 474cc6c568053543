"""online/rows.py: the table's hot statements read and write rows exactly as the ORM does."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

import pytest
from django.db import IntegrityError, connections, transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from online import rows, services
from online.models import Room, RoomAction, RoomHand, Seat

pytestmark = pytest.mark.django_db(transaction=True)

T = TypeVar("T")


def fields_of(obj: object) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}  # type: ignore[attr-defined]


def a_room() -> Room:
    created = services.room_create(variant="tractor", seating="choice", options={"hand_limit": 3})
    code = created.room.code
    services.room_join(code=code, name="小明", seat=0)
    room = Room.objects.get(code=code)
    room.match = {"number": 2, "levels": [3, 5]}
    room.deadline = timezone.now() + timedelta(seconds=30)
    room.deadline_kind, room.deadline_seat, room.deadline_version, room.paused = "clock", 1, room.version, True
    room.save()
    return room


def test_select_reads_each_field_as_the_orm() -> None:
    room = a_room()
    with transaction.atomic():
        mine = rows.select(Room, '"code" = %s', [room.code], for_update=True)
    assert len(mine) == 1
    assert fields_of(mine[0]) == fields_of(Room.objects.get(pk=room.pk))
    assert mine[0].match == {"number": 2, "levels": [3, 5]} and mine[0].paused is True  # JSON and booleans
    assert not mine[0]._state.adding
    seats = rows.select(Seat, '"room_id" = %s', [room.pk], order='"seat"')
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in Seat.objects.filter(room=room).order_by("seat")]
    assert [s.seat for s in seats] == [0, 1, 2, 3] and seats[0].name == "小明" and seats[1].bot is None
    assert rows.select(Room, '"code" = %s', ["NOSUCH"]) == []


def test_update_writes_the_fields_named_and_auto_now() -> None:
    room = a_room()
    before = Room.objects.get(pk=room.pk).updated_at
    room.version, room.match, room.deadline, room.deadline_version = 7, {"number": 3}, None, None
    room.deadline_kind = ""
    room.variant = "not saved"  # a field not named stays as stored
    rows.update(room, ("version", "match", "deadline", "deadline_version", "deadline_kind", "updated_at"))
    again = Room.objects.get(pk=room.pk)
    assert (again.version, again.match, again.deadline, again.deadline_kind) == (7, {"number": 3}, None, "")
    assert again.variant == "tractor"
    assert again.updated_at > before and again.updated_at == room.updated_at


def test_insert_is_a_create_and_a_repeated_action_id_is_an_integrity_error() -> None:
    room = a_room()
    hand = RoomHand.objects.create(room=room, number=1, log={"events": []})
    action = RoomAction(room=room, seat=0, action_id="a1", version=4, answer={"version": 4})
    rows.insert(action)
    assert action.pk is not None and not action._state.adding
    stored = RoomAction.objects.get(pk=action.pk)
    assert model_to_dict(stored) == model_to_dict(action) and stored.created_at is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(RoomAction(room=room, seat=0, action_id="a1", version=5, answer={"version": 5}))
    assert RoomAction.objects.filter(room=room).count() == 1
    hand.log["events"].append({"kind": "x"})
    rows.update(hand, ("log", "updated_at"))
    assert RoomHand.objects.get(pk=hand.pk).log == {"events": [{"kind": "x"}]}


def test_append_adds_events_to_the_stored_log_in_order_and_saves_auto_now() -> None:
    room = a_room()
    header = {"format": "shengji-hand/1", "variant": "tractor"}
    hand = RoomHand.objects.create(room=room, number=1, log={"header": header, "events": [{"kind": "deal"}]})
    before = RoomHand.objects.get(pk=hand.pk).updated_at
    batches = [[{"kind": "declare", "seat": 1, "cards": ["H2"]}], [], [{"kind": "play", "text": "红桃 ♥"},
                                                                       {"kind": "play", "n": [1, None, True]}]]
    with transaction.atomic():
        for new in batches:
            hand.log["events"].extend(new)
            rows.append(hand, "log", "events", new)
    stored = RoomHand.objects.get(pk=hand.pk)
    assert stored.log == hand.log  # the header kept, the events in order, nested values and non-ASCII intact
    assert [e["kind"] for e in stored.log["events"]] == ["deal", "declare", "play", "play"]
    assert stored.updated_at > before and stored.updated_at == hand.updated_at
    other = RoomHand.objects.create(room=room, number=2, log={"events": []})
    assert RoomHand.objects.get(pk=other.pk).log == {"events": []}  # only the row named was written


def test_select_together_reads_as_the_selects_one_by_one() -> None:
    """The room (locked) and its seats found by its code in one round trip: the same rows as two selects."""
    room = a_room()
    seats_of = f'"room_id" = (SELECT "id" FROM "{Room._meta.db_table}" WHERE "code" = %s)'
    with transaction.atomic():
        found, seats = rows.select_together(rows.Query(Room, '"code" = %s', [room.code], for_update=True),
                                            rows.Query(Seat, seats_of, [room.code], order='"seat"'))
    assert [fields_of(r) for r in found] == [fields_of(Room.objects.get(pk=room.pk))]
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in Seat.objects.filter(room=room).order_by("seat")]
    assert seats[0].name == "小明"
    assert rows.select_together(rows.Query(Room, '"code" = %s', ["NOSUCH"]),
                                rows.Query(Seat, seats_of, ["NOSUCH"])) == [[], []]


def a_play_written(room: Room, hand: RoomHand, kind: str, *, seat: int, action_id: str, version: int) -> None:
    """A play's three writes, as ``services._room_act`` makes them: the log, the action id, the room."""
    hand.log["events"].append({"kind": kind})
    rows.append(hand, "log", "events", [{"kind": kind}])
    rows.insert(RoomAction(room=room, seat=seat, action_id=action_id, version=version, answer={"version": version}),
                with_pk=False)
    room.version = version
    rows.update(room, ("version",))


def test_pipelined_writes_are_all_stored_or_none_with_the_error_named() -> None:
    """Writes sent together: all stored at the end of the block; a repeated action id among them is Django's
    IntegrityError (raised by the end of the block at the latest) and the transaction stores none of them."""
    room = a_room()
    hand = RoomHand.objects.create(room=room, number=1, log={"events": []})
    rows.insert(RoomAction(room=room, seat=0, action_id="a1", version=4, answer={"version": 4}))
    with transaction.atomic(), rows.pipelined():
        a_play_written(room, hand, "play", seat=1, action_id="a2", version=5)
    assert RoomHand.objects.get(pk=hand.pk).log == {"events": [{"kind": "play"}]}
    assert set(RoomAction.objects.filter(room=room).values_list("action_id", flat=True)) == {"a1", "a2"}
    assert Room.objects.get(pk=room.pk).version == 5
    with pytest.raises(IntegrityError), transaction.atomic(), rows.pipelined():
        a_play_written(room, hand, "lost", seat=0, action_id="a1", version=6)
    assert RoomHand.objects.get(pk=hand.pk).log == {"events": [{"kind": "play"}]}
    assert RoomAction.objects.filter(room=room).count() == 2 and Room.objects.get(pk=room.pk).version == 5
    with transaction.atomic():  # the connection is usable again
        assert rows.select(Room, '"code" = %s', [room.code], for_update=True)[0].version == 5


def elsewhere(read: Callable[[], T]) -> T:
    """``read`` on another thread, so on another database connection: what others see committed."""
    out: list[T] = []

    def run() -> None:
        try:
            out.append(read())
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return out[0]


def test_a_pipelined_commit_makes_the_writes_durable_when_the_block_ends_and_only_then() -> None:
    """``pipelined(commit=True)`` as the end of the outermost transaction: its writes are committed (another
    connection sees them) as the block ends, before the ``atomic`` closes; the ``atomic``'s ``on_commit``
    callbacks run after. With a repeated action id nothing is stored. Inside a savepoint, or a transaction
    the caller does not own, nothing is committed early: an outer rollback still undoes the writes."""
    from django.db import connection

    room = a_room()
    hand = RoomHand.objects.create(room=room, number=1, log={"events": []})
    version = lambda: Room.objects.get(pk=room.pk).version  # noqa: E731
    told: list[int] = []
    with transaction.atomic():
        with rows.pipelined(commit=True):
            a_play_written(room, hand, "play", seat=1, action_id="a1", version=5)
        transaction.on_commit(lambda: told.append(version()))
        if connection.vendor == "postgresql":  # (SQLite: one by one, committed by the atomic as before)
            assert elsewhere(version) == 5  # committed in the block's own batch
        assert told == []  # the callbacks wait for the atomic's end
    assert told == [5]
    assert elsewhere(version) == 5

    with pytest.raises(IntegrityError), transaction.atomic(), rows.pipelined(commit=True):
        a_play_written(room, hand, "lost", seat=1, action_id="a1", version=6)
    assert elsewhere(version) == 5
    assert RoomHand.objects.get(pk=hand.pk).log == {"events": [{"kind": "play"}]}

    class Undo(Exception):
        pass

    for nested in (True, False):
        with pytest.raises(Undo), transaction.atomic():
            if nested:
                with transaction.atomic(), rows.pipelined(commit=True):
                    a_play_written(room, hand, "kept?", seat=2, action_id="n1", version=7)
            else:
                with transaction.atomic(savepoint=False), rows.pipelined(commit=True):
                    a_play_written(room, hand, "kept?", seat=2, action_id="n1", version=7)
            raise Undo
        assert version() == 5 and not RoomAction.objects.filter(action_id="n1").exists()
    assert RoomHand.objects.get(pk=hand.pk).log == {"events": [{"kind": "play"}]}


def test_a_ping_stamps_its_seat_and_never_relaxes_another_commit() -> None:
    """``presence.seat_seen`` stamps the pinging seat only (a seat with a socket). On PostgreSQL its own commit
    does not wait for the disk; the setting never outlives that statement, and inside a caller's transaction
    (whose writes must be durable) the plain statement is used."""
    from django.db import connection

    from online import presence

    room = a_room()
    long_ago = timezone.now() - timedelta(days=1)
    Seat.objects.filter(room=room).update(last_seen=long_ago, connected=0)
    Seat.objects.filter(room=room, seat=0).update(connected=1)
    presence.seat_seen(code=room.code, seat=0)
    presence.seat_seen(code=room.code, seat=1)  # no socket counted: not stamped
    stamps = dict(Seat.objects.filter(room=room).values_list("seat", "last_seen"))
    assert stamps[0] > long_ago and stamps[1] == long_ago == stamps[2]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # the ping's own transaction only
    with transaction.atomic(), connection.cursor() as cursor:
        presence.seat_seen(code=room.code, seat=0)
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # inside a transaction: not relaxed
