"""One entry point per hand action, whatever the match plays: an individual table's hands go to
:mod:`.table_hands`, a partnership match's to :mod:`.hands`.

Recording (the API's hot path, issue 18): one transaction locks the match row (``FOR UPDATE OF`` the
match only, read with its stage, tournament and round), hands it to the caller's ``admit`` — who may
write, and the request's input, checked on the locked row — records, then reads the two entries as plain
values (one small statement, only for a recorded hand); everything the answer shows is read inside
that transaction, so a failure after the commit cannot turn a stored hand into "nothing was saved".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from tournaments.models import Match, Stage
from tournaments.selectors.matches import entry_answers, seat_entries
from tournaments.services.common import RECORD_RELATED, Actor, lock_match
from tournaments.services.figures import Figures
from tournaments.services.hands import HandOutcome, hand_correct, hand_record_locked, hand_undo
from tournaments.services.table_hands import (
    table_hand_correct,
    table_hand_record_locked,
    table_hand_undo,
)


@dataclass(frozen=True)
class HandEntry:
    """One hand as the caller admitted it: the figures, the match version it was entered against, and
    for a partnership match the dealer (first hand) and trump."""

    figures: Figures
    version: Any
    dealer: Any = None
    trump: Any = None


def match_hand_record(*, match_id: int, actor: Actor, admit: Callable[[Match], HandEntry]) -> HandOutcome:
    """Record the next hand of a match. ``admit(match)`` runs on the locked row and raises to refuse
    (not found, not signed in, not a scorer, invalid input — in that order); raises ``Match.DoesNotExist``
    for no such match."""
    with transaction.atomic():
        match = lock_match(match_id, RECORD_RELATED)
        entry = admit(match)
        if match.stage.format == Stage.Format.TABLE_ROUNDS:
            done = table_hand_record_locked(match, figures=entry.figures, version=entry.version, actor=actor)
        else:
            done = hand_record_locked(match, figures=entry.figures, version=entry.version, actor=actor,
                                      dealer=entry.dealer, trump=entry.trump)
        return with_match(done, match)


def match_hand_correct(*, match: Match, number: int, outcome: Mapping[str, Any], version: Any, actor: Actor,
                       force: bool = False, dealer: Any = None, trump: Any = None) -> HandOutcome:
    """Correct hand ``number`` of a match; the answer holds the match as it stands after the correction,
    with its entries and seats, read in the same transaction (as a recorded hand's answer)."""
    with transaction.atomic():
        if match.stage.format == Stage.Format.TABLE_ROUNDS:
            table = table_hand_correct(match_id=match.pk, number=number, outcome=outcome, version=version,
                                       actor=actor)
            hand = table.hands.get(number=number)
            done = HandOutcome(hand, hand.result, table)
        else:
            done = hand_correct(match_id=match.pk, number=number, outcome=outcome, version=version, actor=actor,
                                force=force, dealer=dealer, trump=trump)
        return with_match(done, Match.objects.select_related(*RECORD_RELATED).get(pk=match.pk))


def with_match(done: HandOutcome, match: Match) -> HandOutcome:
    """The outcome with the match row (read with its round) and what the API's answer shows of it: the
    two entries as plain values and, for an individual table, its seats."""
    return replace(done, match=match, entries=entry_answers(match),
                   seats=tuple(seat_entries(match)) if match.section == "table" else None)


def match_hand_undo(*, match: Match, version: Any, actor: Actor, force: bool = False) -> Match:
    if match.stage.format == Stage.Format.TABLE_ROUNDS:
        return table_hand_undo(match_id=match.pk, version=version, actor=actor)
    return hand_undo(match_id=match.pk, version=version, actor=actor, force=force)
