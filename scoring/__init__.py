"""Pure scoring core for the 升级 family: rule sets, hand scoring, settlements, request handling.

No Django here (a test imports this package with Django unconfigured). The web layer calls
``scoring.api``; the tournament app calls ``scoring_rules``, ``apply_hand``, ``settle_red_five`` and
``settle_yongzhou``.
"""

from scoring.errors import ScoringInputError
from scoring.partnership import (
    HandResult,
    LastTrick,
    MatchState,
    PartnershipOutcome,
    apply_hand,
    initial_state,
    match_winner_at_limit,
)
from scoring.redfive import RedFiveCapture, RedFiveOutcome, RedFiveResult, settle_red_five
from scoring.rules import SCORING_OPTIONS, VARIANTS, ScoringRules, scoring_rules, split_options
from scoring.yongzhou import YongzhouOutcome, YongzhouResult, settle_yongzhou

__all__ = [
    "SCORING_OPTIONS",
    "VARIANTS",
    "HandResult",
    "LastTrick",
    "MatchState",
    "PartnershipOutcome",
    "RedFiveCapture",
    "RedFiveOutcome",
    "RedFiveResult",
    "ScoringInputError",
    "ScoringRules",
    "YongzhouOutcome",
    "YongzhouResult",
    "apply_hand",
    "initial_state",
    "match_winner_at_limit",
    "scoring_rules",
    "settle_red_five",
    "settle_yongzhou",
    "split_options",
]
