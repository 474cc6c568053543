"""Tournament matches played online: the room owner's hooks (``online.owners``, kind ``"match"``; docs/online.md,
"Tournament matches"). The match runs itself:

* the config of each hand comes from the match's own state (levels, dealer, must-play J, A attempts — as for
  recorded hands); an individual table's from the room (its hands, first bidder and start seat);
* each finished hand is recorded through the same service as a scorer's entry (``hand_record`` /
  ``table_hand_record``, ``via="online"``, the hand's ``shengji-hand/1`` log attached as its ``trick_log``,
  no confirmation step; the audit says the engine played it), in the room's own transaction: the room's hand
  and its record are stored together or not at all;
* the match says when it is over (its result, as for recorded hands; the bracket advances in ``hand_record``),
  and the rooms of the matches that became ready are opened.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from gameplay.config import HandConfig
from gameplay.hand import Hand
from online import owners
from online.models import Room, RoomHand
from scoring.api import parse_state
from tournaments.errors import ServiceError
from tournaments.models import HandRecord, Match
from tournaments.services.common import audit, lock_match
from tournaments.services.hands import Scored, hand_record
from tournaments.services.online_rooms import KIND, ONLINE, is_table, online_rooms_open
from tournaments.services.table_hands import table_hand_record

logger = logging.getLogger(__name__)


def _trick_log(room: Room, row: RoomHand) -> dict[str, Any]:
    """What a hand played online keeps as its ``trick_log``: the room's ``shengji-hand/1`` log (replayable,
    ``gameplay.notation.replay``) and where it was played."""
    return {**row.log, "online": {"room": room.code, "hand": row.number}}


def _unrecorded(match: Match, room: Room, row: RoomHand, why: str, errors: Any = None) -> None:
    """A hand the engine played that the match does not take: the room ends, the director is told (the audit)
    and the room's log keeps the hand (an organizer may enter it)."""
    audit(actor=ONLINE, action="hand.online_unrecorded", tournament=match.stage.tournament,
          target=f"match:{match.pk}", data={"room": room.code, "room_hand": row.number, "why": why,
                                            "errors": errors or {}, "outcome": row.outcome})
    logger.warning("online hand %s of room %s not recorded for match %s: %s %s", row.number, room.code, match.pk,
                   why, errors or "")


class MatchRooms:
    """The room owner's hooks of tournament matches (registered as ``"match"`` by the app's ``ready``)."""

    def next_config(self, owner_id: int, room: Room) -> HandConfig | None:
        match = Match.objects.select_related("stage__tournament").get(pk=owner_id)
        tournament = match.stage.tournament
        if is_table(match):
            return None  # the room's own: its hands, first bidder and start seat follow the table's totals
        state = parse_state(match.state) if match.hands_played and match.state else None
        return HandConfig(tournament.variant, dict(tournament.options or {}), decks=room.decks, players=room.players,
                          state=state)

    def hand_finished(self, owner_id: int, room: Room, row: RoomHand, hand: Hand) -> bool | None:
        match = lock_match(owner_id)  # held to the room's commit: the version read here is the one recorded
        if match.status == Match.Status.FINISHED or match.time_called_at is not None:
            _unrecorded(match, room, row, "decided meanwhile (awarded or time called)")
            return True  # the room ends; its log keeps the hand
        assert hand.outcome is not None and hand.result is not None
        try:
            with transaction.atomic():  # a refusal leaves nothing of the record, and the room's write stands
                if is_table(match):
                    done = table_hand_record(match_id=match.pk, outcome=dict(hand.outcome), version=match.version,
                                             actor=ONLINE)
                else:
                    scored = Scored(hand.scoring, hand.match_state, hand.result, hand.new_state)
                    done = hand_record(match_id=match.pk, outcome=dict(hand.outcome), version=match.version,
                                       actor=ONLINE, dealer=hand.dealer if not match.hands_played else None,
                                       trump=hand.trump, scored=scored)
        except ServiceError as exc:  # e.g. the tournament was stopped: the table must not stay stuck on it
            _unrecorded(match, room, row, "refused", exc.field_errors)
            return True
        log = _trick_log(room, row)
        HandRecord.objects.filter(pk=done.hand.pk).update(trick_log=log)
        audit(actor=ONLINE, action="hand.online", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"number": done.hand.number, "room": room.code, "room_hand": row.number,
                    "note": "played by the engine online: no confirmation needed"})
        finished = done.match.status == Match.Status.FINISHED
        if finished:
            online_rooms_open(tournament=match.stage.tournament)
        return finished


def register() -> None:
    owners.register(KIND, MatchRooms())
