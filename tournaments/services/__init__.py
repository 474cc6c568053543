"""Writes of the tournaments app, one module per subject; import them from here."""

from tournaments.services.common import SYSTEM, Actor, audit, match_snapshot
from tournaments.services.hands import (
    HandOutcome,
    hand_correct,
    hand_record,
    hand_undo,
    replay_hands,
)
from tournaments.services.options import options_validate

__all__ = [
    "SYSTEM",
    "Actor",
    "HandOutcome",
    "audit",
    "hand_correct",
    "hand_record",
    "hand_undo",
    "match_snapshot",
    "options_validate",
    "replay_hands",
]
