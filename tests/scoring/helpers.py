"""Small builders shared by the scoring tests."""

from __future__ import annotations

from typing import Any

from scoring.partnership import HandResult, LastTrick, MatchState, PartnershipOutcome, apply_hand
from scoring.rules import PartnershipRules, scoring_rules


def partnership_rules(variant: str = "tractor", **options: Any) -> PartnershipRules:
    rules = scoring_rules(variant, options)
    assert isinstance(rules, PartnershipRules)
    return rules


def play(
    rules: PartnershipRules,
    *,
    points: int = 0,
    kitty: int = 0,
    winner: str = "dealer",
    largest: int | None = None,
    levels: tuple[str, str] = ("2", "2"),
    dealer: int = 0,
    a_failures: tuple[int, int] = (0, 0),
    a_first: bool | None = None,
    a_last: bool | None = None,
    penalties: int = 0,
    hands_played: int = 0,
) -> tuple[HandResult, MatchState]:
    """Score one hand from the given state and figures."""
    if winner == "attackers" and largest is None:
        largest = 1
    state = MatchState(levels=levels, dealer=dealer, a_failures=a_failures, hands_played=hands_played)
    outcome = PartnershipOutcome(
        attackers_points=points,
        kitty_points=kitty,
        last_trick=LastTrick(winner, largest),  # type: ignore[arg-type]
        a_first_trick=a_first,
        a_last_trick=a_last,
        throw_penalties=penalties,
    )
    return apply_hand(rules, state, outcome)
