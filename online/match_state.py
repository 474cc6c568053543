"""Where a room's match stands (``Room.match``) and the config of its next hand: the level state of the
partnership variants, an individual variant's totals and dealer (docs/online.md). Used by
:mod:`online.services`."""

from __future__ import annotations

from typing import Any

import variants
from gameplay.config import HandConfig
from online import owners
from online.models import Room
from scoring.partnership import MatchState

__all__ = ["new_match", "next_config", "state_from", "state_json"]


def next_config(room: Room) -> HandConfig:
    """The next hand's config: its owner's (online/owners.py), else from the room's match (level state; red
    five's first bidder; yongzhou's start)."""
    owned = owners.next_config(room)
    if owned is not None:
        return owned
    spec = variants.get(room.variant)
    m = room.match
    hands = int(m.get("hands", 0))
    if spec.partnership:
        state = state_from(m.get("state"))
        return HandConfig(room.variant, room.options, decks=room.decks, players=room.players, state=state)
    if spec.declaring.bids:
        return HandConfig(room.variant, room.options, decks=room.decks, players=room.players,
                          first_bidder=hands % room.players)
    return HandConfig(room.variant, room.options, decks=room.decks, players=room.players,
                      start_seat=int(m.get("dealer") or 0))


def state_from(data: Any) -> MatchState | None:
    if not data:
        return None
    cfg = HandConfig.from_json({"variant": "tractor", "state": data})
    assert cfg.state is not None
    return MatchState(levels=cfg.state.levels, dealer=cfg.state.dealer, a_failures=cfg.state.a_failures,
                      hands_played=cfg.state.hands_played, winner=data.get("winner"), drawn=bool(data.get("drawn")))


def state_json(state: MatchState) -> dict[str, Any]:
    return {"levels": list(state.levels), "dealer": state.dealer, "a_failures": list(state.a_failures),
            "hands_played": state.hands_played, "winner": state.winner, "drawn": state.drawn}


def new_match(partnership: bool) -> dict[str, Any]:
    return {"hands": 0, "number": 1, "state": None, "winner": None} if partnership else \
        {"hands": 0, "number": 1, "totals": None, "dealer": 0}
