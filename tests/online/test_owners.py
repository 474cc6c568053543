"""Rooms with an owner (online/owners.py): the owner gives each hand's config, is told of each finished hand
in the same transaction as the write that finished it (a refusal rolls that write back), and says when the
match is over; an owned room offers no rematch; the owner hands seats out with new tokens."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.config import HandConfig
from gameplay.hand import Hand
from online import owners, services
from online.models import Room, RoomHand, Seat, digest

pytestmark = pytest.mark.django_db(transaction=True)


class FakeOwner:
    """Records what it is told; the match is over after ``stop_after`` hands; deals from seat 2's level state."""

    def __init__(self, stop_after: int = 2) -> None:
        self.told: list[tuple[int, int, bool, Any]] = []
        self.configs = 0
        self.stop_after = stop_after
        self.fail_at: int | None = None

    def next_config(self, owner_id: int, room: Room) -> HandConfig | None:
        self.configs += 1
        return HandConfig(room.variant, {"hand_limit": 50}, decks=room.decks, players=room.players)

    def hand_finished(self, owner_id: int, room: Room, row: RoomHand, hand: Hand) -> bool | None:
        if self.fail_at == row.number:
            raise RuntimeError("the owner refuses")
        self.told.append((owner_id, row.number, row.finished, hand.outcome))
        return row.number >= self.stop_after


@pytest.fixture
def owner() -> FakeOwner:
    fake = FakeOwner()
    owners.register("fake", fake)
    return fake


def _owned(host: str = "host-secret") -> Room:
    room = services.room_create(variant="tractor").room
    return owners.room_own(room=room, kind="fake", owner_id=7, host_token=host, names=["A", "B", "C", "D"])


def _bots(room: Room, host: str = "host-secret") -> None:
    for s in range(4):
        room.refresh_from_db()
        services.seat_bot(code=room.code, host_token=host, seat=s, bot="random", action_id=f"b{s}",
                          version=room.version)
    room.refresh_from_db()


def test_the_owner_configures_records_and_ends_the_match(owner: FakeOwner) -> None:
    room = _owned()
    assert [s.name for s in Seat.objects.filter(room=room)] == ["A", "B", "C", "D"]
    _bots(room)
    assert room.status == Room.Status.FINISHED  # the owner said so after two hands (the room would go on)
    assert [s.name for s in Seat.objects.filter(room=room)] == ["A", "B", "C", "D"]  # bots play for the players
    hands = list(RoomHand.objects.filter(room=room).order_by("number"))
    assert [h.number for h in hands] == [1, 2]
    assert [(t[0], t[1], t[2]) for t in owner.told] == [(7, 1, True), (7, 2, True)]
    assert [t[3] for t in owner.told] == [h.outcome for h in hands]
    assert owner.configs == 2
    assert hands[0].log["config"]["options"] == {"hand_limit": 50}  # the owner's config was dealt


def test_a_refused_record_rolls_the_finishing_write_back(owner: FakeOwner) -> None:
    owner.fail_at = 1
    room = _owned()
    _bots(room)  # the inline ticks: the last trick's tick fails with the owner (logged; the deadline stays)
    rh = RoomHand.objects.get(room=room)
    assert not rh.finished and rh.result is None  # the hand's end was not stored without its record
    assert owner.told == []
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING and room.deadline_version == room.version  # due again (sweep)
    owner.fail_at = None
    assert services.room_tick(room_id=room.pk, version=room.version)  # the retry records it once
    assert [t[1] for t in owner.told] == [1, 2]  # hand 1 recorded once, then the match played on to its end


def test_no_rematch_and_seats_handed_out(owner: FakeOwner) -> None:
    room = _owned()
    token = owners.seat_claim(code=room.code, kind="fake", owner_id=7, seat=1, name="小明")
    seat = Seat.objects.get(room=room, seat=1)
    assert seat.token_digest == digest(token) and seat.name == "小明"
    again = owners.seat_claim(code=room.code, kind="fake", owner_id=7, seat=1)
    assert again != token and Seat.objects.get(room=room, seat=1).token_digest == digest(again)
    with pytest.raises(PermissionError):
        owners.seat_claim(code=room.code, kind="fake", owner_id=8, seat=1)
    with pytest.raises(services.OnlineError) as err:
        services.room_rematch(code=room.code, token=again, action_id="r", version=room.version)
    assert err.value.code == "refused" and "tournament" in err.value.message["en"]
    assert owners.owned_room("fake", 7) == room
