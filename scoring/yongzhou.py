"""Settling a hand of ``yongzhou-300`` (永州300分, each for themselves; RULES.md §6.4).

>>> from scoring.rules import scoring_rules
>>> result = settle_yongzhou(scoring_rules("yongzhou-300", players=3), YongzhouOutcome(points=(20, 130, 150)))
>>> result.net, result.next_dealer
((-80, 30, 50), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.errors import Problems
from scoring.rules import YongzhouRules

DrawReason = Literal["first_and_last", "equal"]


@dataclass(frozen=True)
class YongzhouOutcome:
    """Each seat's points (in play order; they sum to 300).

    ``declarer``: the seat that declared (recorded, not used in the settlement).
    ``tie_break``: when several seats tie for the most points, the one drawn at the table to deal
    first next hand; without it the first tied seat in seat order is chosen (pure and repeatable).
    """

    points: tuple[int, ...]
    declarer: int | None = None
    tie_break: int | None = None


@dataclass(frozen=True)
class YongzhouResult:
    """Each seat's ``net`` (sums to zero) and the seat dealt to first next hand (``next_dealer``).

    In the 4-player partnership mode (partners opposite): ``side_net`` per side (seats 0+2, 1+3),
    ``winning_side`` (None for a draw) and ``draw_reason``.
    """

    net: tuple[int, ...]
    next_dealer: int
    tied_winners: tuple[int, ...]
    side_net: tuple[int, int] | None = None
    winning_side: int | None = None
    draw_reason: DrawReason | None = None

    @property
    def draw(self) -> bool:
        return self.draw_reason is not None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(problems: Problems, path: str, value: object, players: int) -> bool:
    if value is None:
        return False
    if not _is_int(value):
        problems.add(path, "type_int")
        return False
    assert isinstance(value, int)
    if not 0 <= value < players:
        problems.add(path, "range", low=0, high=players - 1, value=value)
        return False
    return True


def validate_yongzhou(rules: YongzhouRules, outcome: YongzhouOutcome, lang: str = "en") -> None:
    """Raise ``ScoringInputError`` naming every wrong field of ``outcome``."""
    problems = Problems()
    points = outcome.points
    if not isinstance(points, (tuple, list)):
        problems.add("outcome.points", "type_list")
        problems.raise_if_any(lang)
    if len(points) != rules.players:
        problems.add("outcome.points", "list_length", n=rules.players, got=len(points))
    all_ok = True
    for seat, value in enumerate(points):
        path = f"outcome.points.{seat}"
        if not _is_int(value):
            problems.add(path, "type_int")
        elif value % 5:
            problems.add(path, "multiple_of_5", value=value)
        elif not 0 <= value <= rules.total_points:
            problems.add(path, "points_range", high=rules.total_points, value=value)
        else:
            continue
        all_ok = False
    if all_ok and len(points) == rules.players and sum(points) != rules.total_points:
        problems.add("outcome.points", "points_sum", total=rules.total_points, value=sum(points))
    _seat(problems, "outcome.declarer", outcome.declarer, rules.players)
    if _seat(problems, "outcome.tie_break", outcome.tie_break, rules.players) and not problems:
        tied = _tied_winners(points)
        if outcome.tie_break not in tied:
            problems.add("outcome.tie_break", "tie_break_not_tied", value=outcome.tie_break, seats=list(tied))
    problems.raise_if_any(lang)


def _tied_winners(points: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    best = max(points)
    return tuple(seat for seat, value in enumerate(points) if value == best)


def settle_yongzhou(rules: YongzhouRules, outcome: YongzhouOutcome, *, lang: str = "en") -> YongzhouResult:
    """Settle one hand: net = points − base per seat; the winner deals first next. Pure; validates first."""
    validate_yongzhou(rules, outcome, lang)
    points = tuple(outcome.points)
    net = tuple(value - rules.net_base for value in points)
    tied = _tied_winners(points)
    next_dealer = outcome.tie_break if outcome.tie_break is not None else tied[0]
    if not rules.partnership_mode:
        return YongzhouResult(net=net, next_dealer=next_dealer, tied_winners=tied)
    side_net = (net[0] + net[2], net[1] + net[3])
    lowest = min(points)
    bottom = {seat for seat, value in enumerate(points) if value == lowest}
    top_sides = {seat % 2 for seat in tied}
    bottom_sides = {seat % 2 for seat in bottom}
    draw_reason: DrawReason | None = None
    winning_side: int | None = None
    if len(top_sides) == 1 and top_sides == bottom_sides:
        draw_reason = "first_and_last"
    elif side_net[0] == side_net[1]:
        draw_reason = "equal"
    else:
        winning_side = 0 if side_net[0] > side_net[1] else 1
    return YongzhouResult(
        net=net,
        next_dealer=next_dealer,
        tied_winners=tied,
        side_net=side_net,
        winning_side=winning_side,
        draw_reason=draw_reason,
    )
