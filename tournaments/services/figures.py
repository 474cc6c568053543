"""A hand's figures as the services take them: scoring's typed outcome, with the JSON as entered
(what the hand record stores and the answers echo).

The edges parse: a form that knows the match's variant builds :meth:`Figures.parsed` (scoring's
parser, :func:`scoring.api.parse_outcome`, with its field-path errors); the API learns the variant
only from the locked match row, so it hands over the entered JSON and the service parses it with the
same parser once the row is locked — after the version and playability checks, as before. Stored
figures (corrections, undo, replays) are parsed the same way at the storage edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.api import parse_outcome
from scoring.partnership import PartnershipOutcome
from scoring.redfive import RedFiveOutcome
from scoring.yongzhou import YongzhouOutcome
from tournaments.errors import ServiceError
from tournaments.rulebook import rule_book

Outcome = PartnershipOutcome | RedFiveOutcome | YongzhouOutcome


@dataclass(frozen=True)
class Figures:
    """``entered``: the figures as entered (JSON); ``outcome``: scoring's typed outcome, when the edge parsed it."""

    entered: Mapping[str, Any]
    outcome: Outcome | None = None

    @classmethod
    def parsed(cls, variant: str, data: Mapping[str, Any], lang: str) -> Figures:
        """Parse at the edge (raises ``ScoringInputError`` keyed ``outcome.…``)."""
        return cls(dict(data), parse_outcome(variant, data, lang))

    def typed(self, variant: str, lang: str) -> Outcome:
        """The typed outcome (parsed now if the edge could not; raises ``ScoringInputError``)."""
        return self.outcome if self.outcome is not None else parse_outcome(variant, self.entered, lang)


def as_figures(outcome: Figures | Mapping[str, Any]) -> Figures:
    """Figures from a caller: typed already, or stored/entered JSON; anything else is refused."""
    if isinstance(outcome, Figures):
        return outcome
    if not isinstance(outcome, Mapping):
        raise ServiceError.one("outcome", _("The hand's figures must be an object."))
    return Figures(dict(outcome))


tournament_rules = rule_book
"""The tournament's scoring rules: :func:`tournaments.rulebook.rule_book` (the name the hand services use)."""
