"""The seating list of a round and its table cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents.base import CHUNK, Document, round_tables, rules_of
from tournaments.documents.sheets import seats_of
from tournaments.models import (
    Match,
    Round,
    Tournament,
)


def seating_rows(matches: Sequence[Match], tournament: Tournament) -> list[dict[str, Any]]:
    players = rules_of(tournament).players
    rows = []
    for m in matches:
        seats = seats_of(m, players)
        rows.append({"match": m, "table": m.table, "key": m.key, "seats": seats,
                     "sides": [{"name": m.entry(side).name if m.entry(side) else "—",
                                "seats": [s for s in seats if s["side"] == side]} for side in (0, 1)]
                     if tournament.is_partnership else []})
    return rows


class SeatingDocument(Document):
    """The seating list of a round: every table, its seats and names, on as few pages as fit."""

    kind = "seating"
    template_name = "tournaments/print/seating.html"
    title_zh = "座位表"

    def __init__(self, *, tournament: Tournament, round: Round, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.round = round
        self.matches = round_tables(round)

    @property
    def title(self) -> str:
        return _("Seating, %(r)s") % {"r": selectors.round_label(self.round.name) or str(self.round)}

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        assert self.tournament is not None
        return {"round": self.round, "round_name": selectors.round_label(self.round.name),
                "tables": seating_rows(self.matches, self.tournament)}


class TableCardsDocument(SeatingDocument):
    """A card per table (two to an A4 page, cut in half): the table number and who sits where."""

    kind = "table-cards"
    template_name = "tournaments/print/table_cards.html"
    title_zh = "桌牌"

    @property
    def title(self) -> str:
        return _("Table cards, %(r)s") % {"r": selectors.round_label(self.round.name) or str(self.round)}

    def units(self) -> list[Any]:
        return list(self.matches)

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        assert self.tournament is not None
        matches = self.matches if units is None else units
        return {"round": self.round, "round_name": selectors.round_label(self.round.name),
                "tables": seating_rows(matches, self.tournament)}

    def render_pdf(self, *, progress: Callable[[int, int], None] | None = None,
                   chunk: int = CHUNK) -> tuple[bytes, int]:
        return super().render_pdf(progress=progress, chunk=chunk + chunk % 2)  # whole pages per chunk
