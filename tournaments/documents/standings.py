"""The standings of a stage, printed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents.base import Column, Document, signed
from tournaments.models import (
    Entry,
    Stage,
    Tournament,
)
from tournaments.selectors.ratings import seeding_ratings


class StandingsDocument(Document):
    """Rank (ties share a rank), name and every tiebreak column of the stage's metric; with ``ratings``
    also each entry's rating (docs/ratings.md: a team's is its players' combined rating)."""

    kind = "standings"
    template_name = "tournaments/print/standings.html"
    title_zh = "排名表"

    def __init__(self, *, tournament: Tournament, stage: Stage | None = None, ratings: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.stage = stage
        self.ratings = ratings

    @property
    def title(self) -> str:
        return _("Standings")

    def columns_and_rows(self) -> tuple[list[Column], list[dict[str, Any]], str]:
        """Columns after rank and name, rows (``rank``, ``name``, ``cells``) and a note.

        The stage's own metric and tiebreaks (:func:`tournaments.selectors.stage_standings`): place,
        wins, losses and level difference for an elimination; match points and Swiss/round-robin
        tiebreaks; cumulative game points (red five) or net (Yongzhou) for table rounds."""
        if self.stage is None:
            return [], [], _("No stage has started yet.")
        table = selectors.stage_standings(self.stage)
        keys = [key for key, _label in table.columns]
        columns = [Column(key, label) for key, label in table.columns]
        if table.kind == "elimination":
            keys.insert(0, "standing_place")  # every entry: decided, shared by round, or still open
            columns.insert(0, Column("standing_place", _("Place")))
        rows = [{"rank": row.rank, "name": row.name, "shared": getattr(row, "shared", False),
                 "cells": [standing_cell(key, _standing_value(row, key)) for key in keys]} for row in table.rows]
        if self.ratings:
            entries = Entry.objects.filter(pk__in=[row.entry.pk for row in table.rows]).select_related(
                "team__player1", "team__player2", "player")
            values = seeding_ratings(self.stage.tournament, entries)
            columns.append(Column("rating", _("Rating")))
            for line, row in zip(rows, table.rows, strict=True):
                value = values.get(row.entry.pk)
                line["cells"].append("" if value is None else str(round(value)))
        return columns, rows, ""

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        columns, rows, note = self.columns_and_rows()
        return {"stage": self.stage, "columns": columns, "rows": rows, "note": note}


SIGNED = {"level_difference", "net", "game_points", "head_to_head"}


def _standing_value(row: Any, key: str) -> Any:
    return row[key] if hasattr(row, "__getitem__") else getattr(row, key, None)


def standing_cell(key: str, value: Any) -> str:
    """A standings figure as printed: signed for differences and points, two decimals at most."""
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return f"+{text}" if key in SIGNED and value > 0 else text
    if isinstance(value, int) and key in SIGNED:
        return signed(value)
    return str(value)
