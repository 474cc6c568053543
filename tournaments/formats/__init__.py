"""Pure tournament formats: elimination brackets, Swiss pairing and round robin, individual table draws,
standings with tiebreaks. Plain Python — nothing here imports Django or the models.

:data:`FORMATS` is the dispatch table the services and selectors look a stage's format up in (keyed by
the ``Stage.Format`` values, which are plain strings), instead of chains of ``if format == …``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.formats.tiebreaks import INDIVIDUAL_TIEBREAKS, PARTNERSHIP_TIEBREAKS


@dataclass(frozen=True)
class FormatSpec:
    """What a stage format is: who plays it, how its matches come about, how it is ranked."""

    kind: str  # "elimination", "round_robin", "swiss" or "table_rounds"
    partnership: bool  # played by teams of two (tractor, zhaopengyou); False: individual tables
    counted_rounds: bool  # the organizer says how many rounds
    tiebreaks: tuple[str, ...]  # the tiebreaks an organizer may choose from

    @property
    def elimination(self) -> bool:
        return self.kind == "elimination"


FORMATS: dict[str, FormatSpec] = {
    "single_elimination": FormatSpec("elimination", True, False, tuple(PARTNERSHIP_TIEBREAKS)),
    "double_elimination": FormatSpec("elimination", True, False, tuple(PARTNERSHIP_TIEBREAKS)),
    "swiss": FormatSpec("swiss", True, True, tuple(PARTNERSHIP_TIEBREAKS)),
    "round_robin": FormatSpec("round_robin", True, False, tuple(PARTNERSHIP_TIEBREAKS)),
    "table_rounds": FormatSpec("table_rounds", False, True, tuple(INDIVIDUAL_TIEBREAKS)),
}
