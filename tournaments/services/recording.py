"""One entry point per hand action, whatever the match plays: an individual table's hands go to
:mod:`.table_hands`, a partnership match's to :mod:`.hands`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.models import Match, Stage
from tournaments.services.common import Actor
from tournaments.services.hands import HandOutcome, hand_correct, hand_record, hand_undo
from tournaments.services.table_hands import table_hand_correct, table_hand_record, table_hand_undo


def match_hand_record(*, match: Match, outcome: Mapping[str, Any], version: Any, actor: Actor,
                      dealer: Any = None, trump: Any = None) -> HandOutcome:
    if match.stage.format == Stage.Format.TABLE_ROUNDS:
        return table_hand_record(match_id=match.pk, outcome=outcome, version=version, actor=actor)
    return hand_record(match_id=match.pk, outcome=outcome, version=version, actor=actor, dealer=dealer, trump=trump)


def match_hand_correct(*, match: Match, number: int, outcome: Mapping[str, Any], version: Any, actor: Actor,
                       force: bool = False, dealer: Any = None, trump: Any = None) -> HandOutcome:
    if match.stage.format == Stage.Format.TABLE_ROUNDS:
        table = table_hand_correct(match_id=match.pk, number=number, outcome=outcome, version=version, actor=actor)
        hand = table.hands.get(number=number)
        return HandOutcome(hand, hand.result, table)
    return hand_correct(match_id=match.pk, number=number, outcome=outcome, version=version, actor=actor,
                        force=force, dealer=dealer, trump=trump)


def match_hand_undo(*, match: Match, version: Any, actor: Actor, force: bool = False) -> Match:
    if match.stage.format == Stage.Format.TABLE_ROUNDS:
        return table_hand_undo(match_id=match.pk, version=version, actor=actor)
    return hand_undo(match_id=match.pk, version=version, actor=actor, force=force)
