"""The seating list of a round and its table cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents.base import CHUNK, Document, qr_data_uri, round_tables, rules_of, venue_link_path
from tournaments.documents.sheets import seats_of, side_name
from tournaments.models import (
    Match,
    Round,
    Tournament,
    VenueTable,
)
from tournaments.selectors.venue import live_links


def seating_rows(matches: Sequence[Match], tournament: Tournament) -> list[dict[str, Any]]:
    players = rules_of(tournament).players
    rows = []
    for m in matches:
        seats = seats_of(m, players)
        rows.append({"match": m, "table": m.table, "key": m.key, "seats": seats,
                     "sides": [{"name": side_name(m, side, "—"),
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

    def filename_detail(self) -> str:
        stage = f"stage {self.round.stage.number} " if self.round.stage.number > 1 else ""
        return f"{stage}round {self.round.number}"

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        assert self.tournament is not None
        return {"round": self.round, "round_name": selectors.round_label(self.round.name),
                "tables": seating_rows(self.matches, self.tournament)}


def venue_card(base_url: str, token: str | None) -> dict[str, str]:
    """The permanent link of a physical table and its QR code, or nothing if the table has none."""
    if not token:
        return {"link": "", "qr": ""}
    link = base_url + venue_link_path(token)
    return {"link": link, "qr": qr_data_uri(link)}


class TableCardsDocument(SeatingDocument):
    """A card per table (two to an A4 page, cut in half): the table number, who sits where, and the
    table's permanent link with its QR code (valid all day: it opens whatever is played there)."""

    kind = "table-cards"
    template_name = "tournaments/print/table_cards.html"
    title_zh = "桌牌"
    organizer_only = True

    @property
    def title(self) -> str:
        return _("Table cards, %(r)s") % {"r": selectors.round_label(self.round.name) or str(self.round)}

    def units(self) -> list[Any]:
        return list(self.matches)

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        assert self.tournament is not None
        matches = self.matches if units is None else units
        links = live_links(self.tournament)
        rows = [{**row, **venue_card(self.base_url, links.get(row["table"] or 0))}
                for row in seating_rows(matches, self.tournament)]
        return {"round": self.round, "round_name": selectors.round_label(self.round.name), "tables": rows}

    def render_pdf(self, *, progress: Callable[[int, int], None] | None = None,
                   chunk: int = CHUNK) -> tuple[bytes, int]:
        return super().render_pdf(progress=progress, chunk=chunk + chunk % 2)  # whole pages per chunk


class VenueCardsDocument(Document):
    """A card per physical table for the whole event, printed once before the first round: the table
    number, the tournament and the table's permanent link with its QR code (no names: it stays true all
    day; the round's seating says who sits there)."""

    kind = "venue-cards"
    template_name = "tournaments/print/table_cards.html"
    title_zh = "桌牌（全天）"
    organizer_only = True

    def __init__(self, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.tables = list(VenueTable.objects.filter(tournament=tournament, revoked_at__isnull=True)
                           .order_by("number"))

    @property
    def title(self) -> str:
        return _("Table cards for the day")

    def units(self) -> list[Any]:
        return list(self.tables)

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        tables = self.tables if units is None else units
        return {"round": None, "round_name": "", "venue": True,
                "tables": [{"table": t.number, "key": "", "seats": [], "sides": [],
                            **venue_card(self.base_url, t.token)} for t in tables]}

    def render_pdf(self, *, progress: Callable[[int, int], None] | None = None,
                   chunk: int = CHUNK) -> tuple[bytes, int]:
        return super().render_pdf(progress=progress, chunk=chunk + chunk % 2)  # whole pages per chunk
