"""Service level: four bots play whole matches with nobody connected (ticks inline)."""

from __future__ import annotations

import pytest

from gameplay.notation import replay
from online import services
from online.models import Room, RoomHand

pytestmark = pytest.mark.django_db(transaction=True)


def _bots_room(variant: str, **kw: object) -> Room:
    created = services.room_create(variant=variant, **kw)  # type: ignore[arg-type]
    room = created.room
    for s in range(room.players):
        room.refresh_from_db()
        services.seat_bot(code=room.code, host_token=created.host_token, seat=s, bot="heuristic" if s % 2 else "random",
                          action_id=f"b{s}", version=room.version)
    room.refresh_from_db()
    return room


@pytest.mark.parametrize("variant,kw", [("red-five", {"hands": 2}), ("yongzhou-300", {"hands": 2})])
def test_individual_match_of_bots(variant: str, kw: dict[str, object]) -> None:
    room = _bots_room(variant, **kw)
    assert room.status == Room.Status.FINISHED
    hands = list(RoomHand.objects.filter(room=room))
    assert len(hands) == 2 and all(h.finished for h in hands)
    total = [0] * room.players
    for h in hands:
        replayed = replay(h.log)
        assert replayed.outcome == h.outcome
        figures = h.result["response"]
        for i, v in enumerate(figures.get("game_points") or figures.get("net")):
            total[i] += v
    assert room.match["totals"] == total


def test_tractor_match_of_bots_to_its_end() -> None:
    room = _bots_room("tractor", options={"hand_limit": 3})
    assert room.status == Room.Status.FINISHED
    hands = list(RoomHand.objects.filter(room=room))
    assert hands and all(h.finished for h in hands)
    last = replay(hands[-1].log)
    assert last.new_state is not None
    assert room.match["state"]["levels"] == list(last.new_state.levels)
