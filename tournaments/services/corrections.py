"""What a correction would do, before it is saved: the match replayed with the corrected hand, WITHOUT
writing, as before/after rows of the corrected hand and every later one (issue 15, "Corrections you can
see"). :func:`tournaments.services.hands.hand_correct` writes the same replay."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Match
from tournaments.services.hands import replay_hands


@dataclass(frozen=True)
class HandFigures:
    """One hand as the match plays it: who deals, which side attacks, the levels after it, its result."""

    dealer: int
    attacking_side: int
    levels: tuple[str, str]
    gaining_side: int | None
    level_gain: int
    winner_side: int | None


@dataclass(frozen=True)
class CorrectionRow:
    number: int
    before: HandFigures
    after: HandFigures

    @property
    def side_changed(self) -> bool:
        """The deal moved to the other side: this hand's figures meant the other side's points."""
        return self.before.dealer % 2 != self.after.dealer % 2

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class CorrectionPreview:
    number: int
    rows: list[CorrectionRow] = field(default_factory=list)
    winner_before: int | None = None
    winner_after: int | None = None

    @property
    def later_sides_changed(self) -> list[int]:
        """The later hands whose dealer side changed: the organizer confirms their figures still hold."""
        return [row.number for row in self.rows if row.number > self.number and row.side_changed]


def _figures(dealer: int, result: Mapping[str, Any]) -> HandFigures:
    state = result.get("state") or {}
    levels = state.get("levels") or ["", ""]
    gaining = result.get("gaining_side")
    winner = result.get("match_winner")
    return HandFigures(dealer=int(dealer), attacking_side=1 - int(dealer) % 2, levels=(str(levels[0]), str(levels[1])),
                       gaining_side=None if gaining is None else int(gaining), level_gain=int(result.get("level_gain") or 0),
                       winner_side=None if winner is None else int(winner))


def correction_preview(match: Match, number: int, outcome: Mapping[str, Any]) -> CorrectionPreview:
    """Replay ``match`` with hand ``number`` corrected to ``outcome`` and compare it, hand by hand from
    ``number`` on, with the hands as recorded. Writes nothing. Raises ServiceError (the figures, or a
    later hand that can no longer follow, e.g. after the corrected match is already won)."""
    hands = list(match.hands.order_by("number"))
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        raise ServiceError.one("number", _("There is no hand %(n)s in this match.") % {"n": number})
    outcomes = [dict(h.outcome) for h in hands]
    outcomes[number - 1] = dict(outcome)
    try:
        replay = replay_hands(match.stage.tournament, hands[0].dealer, outcomes)
    except ServiceError as exc:
        prefix = f"hands.{number}."
        raise ServiceError({k.removeprefix(prefix): v for k, v in exc.field_errors.items()}) from exc
    rows = [CorrectionRow(hand.number, _figures(hand.dealer, hand.result or {}),
                          _figures(replay.dealers[index], replay.results[index]))
            for index, hand in enumerate(hands) if hand.number >= number]
    return CorrectionPreview(number, rows, winner_before=match.winner_side, winner_after=replay.winner_side)
