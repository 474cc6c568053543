"""What a correction would do, before it is saved: the match replayed with the corrected hand, WITHOUT
writing, as before/after rows of the corrected hand and every later one (issue 15, "Corrections you can
see"). :func:`tournaments.services.hands.hand_correct` writes the same replay; for an individual table
(red five, Yongzhou; issue 29) :func:`table_correction_preview` and
:func:`tournaments.services.table_hands.table_hand_correct`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Match
from tournaments.services.hands import replay_hands
from tournaments.services.table_hands import hand_values, table_replay


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


# --------------------------------------------------------------------------- individual tables (red five, Yongzhou)

@dataclass(frozen=True)
class TableHandFigures:
    """One hand of an individual table as it counts: who deals (red five: who won the bid; Yongzhou: the
    seat dealt to first), each seat's figure (game points or net) and each seat's total after it."""

    dealer: int
    values: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class TableCorrectionRow:
    number: int
    before: TableHandFigures
    after: TableHandFigures

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def dealer_changed(self) -> bool:
        return self.before.dealer != self.after.dealer

    def seats(self) -> list[dict[str, Any]]:
        """Seat by seat (for the page): the figure and the total after this hand, before and after."""
        return [{"seat": seat, "value_before": self.before.values[seat], "value_after": self.after.values[seat],
                 "total_before": self.before.totals[seat], "total_after": self.after.totals[seat]}
                for seat in range(len(self.before.values))]


@dataclass(frozen=True)
class TableCorrectionPreview:
    number: int
    rows: list[TableCorrectionRow] = field(default_factory=list)

    @property
    def totals_before(self) -> tuple[int, ...]:
        return self.rows[-1].before.totals if self.rows else ()

    @property
    def totals_after(self) -> tuple[int, ...]:
        return self.rows[-1].after.totals if self.rows else ()

    @property
    def later_dealers_changed(self) -> list[int]:
        """Later hands dealt to first from another seat (Yongzhou: the corrected hand's winner changed)."""
        return [row.number for row in self.rows if row.number > self.number and row.dealer_changed]


def table_correction_preview(match: Match, number: int, outcome: Mapping[str, Any]) -> TableCorrectionPreview:
    """Replay an individual table with hand ``number`` corrected to ``outcome`` (the figures as entered)
    and compare it, hand by hand from ``number`` on, with the hands as recorded — the same replay that
    :func:`tournaments.services.table_hands.table_hand_correct` writes. Writes nothing; raises
    ServiceError (the figures' errors keyed by field)."""
    hands = list(match.hands.order_by("number"))
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        raise ServiceError.one("number", _("There is no hand %(n)s at this table.") % {"n": number})
    outcomes = [dict(h.outcome) for h in hands]
    outcomes[number - 1] = dict(outcome)
    try:
        replay = table_replay(match, outcomes)
    except ServiceError as exc:
        prefix = f"hands.{number}."
        raise ServiceError({k.removeprefix(prefix): v for k, v in exc.field_errors.items()}) from exc
    players = len(replay.totals[0]) if replay.totals else 0
    totals = [0] * players
    rows: list[TableCorrectionRow] = []
    for index, hand in enumerate(hands):
        values = hand_values(hand.result or {}) or [0] * players
        totals = [a + b for a, b in zip(totals, values, strict=True)]
        if hand.number >= number:
            rows.append(TableCorrectionRow(
                hand.number, TableHandFigures(int(hand.dealer or 0), tuple(values), tuple(totals)),
                TableHandFigures(replay.dealers[index], tuple(hand_values(replay.results[index])),
                                 tuple(replay.totals[index]))))
    return TableCorrectionPreview(number, rows)
