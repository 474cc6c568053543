"""Printables: each document is an HTML template first (also a print-friendly page) and a PDF second.

A document class gathers its context (reads only), renders ``templates/tournaments/print/<name>.html``
and turns the HTML into PDF with WeasyPrint. Documents made of many units (score sheets of a round,
table cards) render in chunks so that a bulk run can report its progress.

Bulk runs are :class:`~tournaments.models.PrintJob` rows: :func:`print_job_create` records and enqueues
one (after the transaction commits), the Celery task in :mod:`tournaments.tasks` calls
:func:`print_job_run`, which renders the document and stores the file with ``default_storage``.

Chinese names need a CJK font: ``static/css/print.css`` asks for Noto Sans CJK SC (Debian
``fonts-noto-cjk``, SIL Open Font License 1.1, installed by ``scripts/system-deps.sh``).
"""

from __future__ import annotations

import base64
import io
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.rules import (
    PartnershipRules,
    RedFiveRules,
    ScoringRules,
    YongzhouRules,
    scoring_rules,
    split_options,
)
from tournaments import selectors
from tournaments.labels import partners_note, seat_label, seat_short
from tournaments.models import (
    Entry,
    HandRecord,
    Match,
    PrintJob,
    Round,
    Stage,
    TableSeat,
    Tournament,
    Variant,
)
from variants import SUIT_SYMBOLS

logger = logging.getLogger(__name__)

DEFAULT_SITE_URL = "http://127.0.0.1:8000"
CHUNK = 16
"""Units rendered per WeasyPrint run in a bulk job: progress is reported after each chunk."""
ON_DEMAND_MAX_UNITS = 8
"""Above this many units (tables, cards) a PDF is made by a bulk job rather than in the request."""
GRID_WIDTH_MM = 192.0
"""The score sheet's hands table on A4 with 9 mm margins."""
INDIVIDUAL_DEFAULT_HANDS = 8
"""Hands at a table of an individual round when the stage does not say (as services.formats)."""
TRUMP_LABELS = SUIT_SYMBOLS


class DocumentError(ValueError):
    """A document cannot be made from these parameters (unknown round, unfinished match …)."""


# --------------------------------------------------------------------------- helpers

def site_url(request: Any = None) -> str:
    """The absolute root of the site: from the request, else ``settings.SITE_URL``."""
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return str(getattr(settings, "SITE_URL", "") or DEFAULT_SITE_URL).rstrip("/")


def table_link_path(token: str) -> str:
    try:
        return reverse("table-link", args=[token])
    except NoReverseMatch:
        return f"/t/{token}/"


def qr_data_uri(text: str) -> str:
    """A QR code of ``text`` as a PNG data URI, one pixel per module: the sheet scales it up with
    ``image-rendering: pixelated`` so it stays sharp (a PNG draws far faster in WeasyPrint than SVG)."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=1, border=2)
    code.add_data(text)
    code.make(fit=True)
    buffer = io.BytesIO()
    code.make_image().save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


@lru_cache(maxsize=1)
def _print_css_cached(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def print_css() -> str:
    path = finders.find("css/print.css")
    if not path:
        raise DocumentError("static/css/print.css is missing")
    if settings.DEBUG:  # edits show at once while developing
        return _print_css_cached.__wrapped__(str(path))
    return _print_css_cached(str(path))


def rules_of(tournament: Tournament | None, variant: str | None = None, players: int | None = None) -> ScoringRules:
    """The scoring rule set of a tournament (with its overrides), or of a bare variant."""
    if tournament is not None:
        scoring_part, _rest = split_options(tournament.options or {})
        variant = tournament.variant
        kwargs: dict[str, Any] = {}
        if variant == Variant.RED_FIVE:
            kwargs["decks"] = tournament.decks
        if variant == Variant.YONGZHOU:
            kwargs["players"] = tournament.players_per_table
        return scoring_rules(variant, scoring_part, **kwargs)
    assert variant is not None
    return scoring_rules(variant, players=players if variant == Variant.YONGZHOU else None)


def trump_label(trump: str) -> str:
    """♠ ♥ ♣ ♦, or NT (无主) for no trump."""
    return TRUMP_LABELS.get(trump, trump) if trump else pgettext("trump", "NT")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def yes_no(value: Any) -> str:
    if value is None:
        return ""
    return "✓" if value else "✗"


@dataclass(frozen=True)
class Column:
    """A column of a printed table: ``key`` names the value, ``group`` joins columns under one heading."""

    key: str
    label: str
    group: str = ""
    numeric: bool = True
    weight: float = 1.0
    """Relative width on a score sheet."""


def header_rows(columns: Sequence[Column]) -> tuple[list[dict[str, Any]], list[Column]]:
    """Two header rows: grouped columns get a shared top cell; the others span both rows."""
    top: list[dict[str, Any]] = []
    bottom: list[Column] = []
    for column in columns:
        if column.group:
            bottom.append(column)
            if top and top[-1]["group"] == column.group:
                top[-1]["colspan"] += 1
                continue
            top.append({"label": column.group, "group": column.group, "colspan": 1, "rowspan": 1, "column": None})
        else:
            top.append({"label": column.label, "group": "", "colspan": 1, "rowspan": 2, "column": column})
    if not bottom:
        for cell in top:
            cell["rowspan"] = 1
    return top, bottom


# --------------------------------------------------------------------------- documents

class Document:
    """Context, HTML and PDF of one printable. Subclasses set ``kind``, ``template_name`` and
    ``title_zh``, and give :meth:`get_context`; many-unit documents override :meth:`units`."""

    kind: ClassVar[str] = ""
    template_name: ClassVar[str] = ""
    title_zh: ClassVar[str] = ""
    organizer_only: ClassVar[bool] = False
    """Only organizers may print it (it carries the tables' secret links)."""

    def __init__(self, *, tournament: Tournament | None, base_url: str | None = None) -> None:
        self.tournament = tournament
        self.base_url = base_url or site_url()

    # what subclasses give
    @property
    def title(self) -> str:
        raise NotImplementedError

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def units(self) -> list[Any]:
        """The parts a bulk run counts (tables, cards); one part by default."""
        return [None]

    # shared
    def filename(self) -> str:
        parts = [self.kind, slugify(self.title, allow_unicode=False)[:60]]
        return "-".join(p for p in parts if p) + ".pdf"

    def render_html(self, *, for_pdf: bool = False, units: Sequence[Any] | None = None,
                    extra: dict[str, Any] | None = None) -> str:
        language = translation.get_language() or settings.LANGUAGE_CODE
        context = {
            "document": self,
            "title": self.title,
            # the Chinese title beside an English one; in Chinese the translated title says it already
            "title_zh": "" if language.lower().startswith("zh") else self.title_zh,
            "tournament": self.tournament,
            "for_pdf": for_pdf,
            "print_css": print_css() if for_pdf else "",
            "LANGUAGE_CODE": language,
            "printed_at": timezone.localtime(),
        }
        context.update(self.get_context(units))
        context.update(extra or {})
        return render_to_string(self.template_name, context)

    def render_pdf(self, *, progress: Callable[[int, int], None] | None = None,
                   chunk: int = CHUNK) -> tuple[bytes, int]:
        """The PDF and its page count. Many-unit documents render ``chunk`` units at a time and call
        ``progress(done, total)`` after each chunk."""
        from weasyprint import HTML

        all_units = self.units()
        total = len(all_units)
        rendered = []
        done = 0
        for start in range(0, max(total, 1), chunk):
            part = all_units[start:start + chunk]
            html = self.render_html(for_pdf=True, units=part if part != [None] else None)
            rendered.append(HTML(string=html, base_url=str(settings.BASE_DIR)).render())
            done += len(part)
            if progress is not None:
                progress(min(done, total), total)
        pages = [page for document in rendered for page in document.pages]
        pdf = rendered[0].copy(pages).write_pdf()
        return pdf, len(pages)


# ----- standings

class StandingsDocument(Document):
    """Rank (ties share a rank), name and every tiebreak column of the stage's metric."""

    kind = "standings"
    template_name = "tournaments/print/standings.html"
    title_zh = "排名表"

    def __init__(self, *, tournament: Tournament, stage: Stage | None = None, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.stage = stage

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
            keys.insert(0, "place")
            columns.insert(0, Column("place", _("Place")))
        rows = [{"rank": row.rank, "name": row.name, "shared": getattr(row, "shared", False),
                 "cells": [standing_cell(key, _standing_value(row, key)) for key in keys]} for row in table.rows]
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


# ----- bracket

class BracketDocument(Document):
    """The elimination tree on one landscape page, results so far; the type shrinks with the size."""

    kind = "bracket"
    template_name = "tournaments/print/bracket.html"
    title_zh = "对阵图"

    def __init__(self, *, tournament: Tournament, stage: Stage, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        if stage.format not in BRACKET_FORMATS:
            raise DocumentError(_("Only elimination brackets can be printed."))
        self.stage = stage

    @property
    def title(self) -> str:
        return _("Bracket")

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        """One landscape page up to 64 entries (32 first-round places). Bigger brackets print a page
        per block of 32 first-round places (six rounds each), then a page from there to the final.
        Double elimination: see :meth:`double_context`."""
        if self.stage.format == Stage.Format.DOUBLE_ELIMINATION:
            return self.double_context()
        columns = selectors.bracket_tree(self.stage)
        main = [c for c in columns if c["number"]]
        extra = [m for c in columns if not c["number"] for m in c["matches"]]
        slots = 2 ** (len(main) - 1) if main else 0  # first-round places, one table row each
        places = _bracket_places(main)
        if slots <= BRACKET_PAGE_SLOTS:
            pages = [_bracket_page(main, places, 0, 0, slots)]
        else:
            pages = [_bracket_page(main, places, 0, lo, BRACKET_PAGE_SLOTS)
                     for lo in range(0, slots, BRACKET_PAGE_SLOTS)]
            top = BRACKET_PAGE_SLOTS.bit_length() - 1  # the round where a block comes down to one match
            pages.append(_bracket_page(main, places, top, 0, slots // BRACKET_PAGE_SLOTS))
        if pages and pages[-1]["grid"] and extra:  # the third-place match goes under the final
            pages[-1]["grid"][0][-1]["extra"] = [_bracket_box(m) for m in extra]
        return {"stage": self.stage, "pages": pages, "third_place_label": selectors.round_label("third-place")}

    def double_context(self) -> dict[str, Any]:
        """The winners' bracket as a tree with the grand final (and its reset unless it was not
        needed) to the right of the winners' final, then the losers' bracket as columns of rounds: on
        the same landscape page up to 16 entries, else on pages of their own (split as above)."""
        columns = selectors.bracket_tree(self.stage)
        sections: dict[str, list[dict[str, Any]]] = {}
        for column in columns:
            sections.setdefault(column["matches"][0].section, []).append(column)
        winners, losers = sections.get("winners", []), sections.get("losers", [])
        finals = [m for c in sections.get("grand_final", []) for m in c["matches"] if m.status != Match.Status.VOID]
        sources = _bracket_sources([m for c in columns for m in c["matches"]])

        def box(match: Match | None) -> dict[str, Any] | None:
            return _bracket_box(match, sources=sources, mark=True)

        slots = 2 ** (len(winners) - 1) if winners else 0
        places = _bracket_places(winners)
        if slots <= BRACKET_PAGE_SLOTS:
            w_parts = [_bracket_page(winners, places, 0, 0, slots, box=box)]
        else:
            w_parts = [_bracket_page(winners, places, 0, lo, BRACKET_PAGE_SLOTS, box=box)
                       for lo in range(0, slots, BRACKET_PAGE_SLOTS)]
            top = BRACKET_PAGE_SLOTS.bit_length() - 1
            w_parts.append(_bracket_page(winners, places, top, 0, slots // BRACKET_PAGE_SLOTS, box=box))
        if finals and w_parts and w_parts[-1]["grid"]:
            last = w_parts[-1]
            for m in finals:
                last["round_names"].append(selectors.round_label(m.round.name))
                note = _("only if needed") if m.key != "GF1" and m.status == Match.Status.PENDING else ""
                last["grid"][0].append({"match": box(m), "span": len(last["grid"]), "note": note, "final": True})
        l_columns = _losers_columns(losers, box, 2 ** len(winners))
        rows = max((c["count"] for c in l_columns), default=0)
        if rows <= BRACKET_PAGE_SLOTS:
            l_parts = [_column_page(l_columns, rows, 0)] if l_columns else []
        else:
            l_parts = [_column_page(l_columns, BRACKET_PAGE_SLOTS, lo) for lo in range(0, rows, BRACKET_PAGE_SLOTS)]
            l_parts.append(_column_page([c for c in l_columns if rows // c["count"] >= BRACKET_PAGE_SLOTS],
                                        rows // BRACKET_PAGE_SLOTS, 0))
        w_title, l_title = _("Winners' bracket"), _("Losers' bracket")
        for part in w_parts:
            part["title"] = w_title
        for part in l_parts:
            part["title"] = l_title
        if len(w_parts) == len(l_parts) == 1 and slots + rows <= DOUBLE_ONE_PAGE_ROWS:
            both = w_parts + l_parts
            font = 10 if slots + rows <= 6 else 8
            for part in both:
                part.update(font_pt=font, compact=False, row_mm=round(min(22.0, 120 / (slots + rows)), 2))
            widest = max(len(part["round_names"]) for part in both)
            for part in both:  # the same column width in both brackets
                part["width_pct"] = round(100 * len(part["round_names"]) / max(widest, 1), 2)
            pages = [{"parts": both, "compact": False}]
        else:
            for part in w_parts + l_parts:
                part["width_pct"] = min(100, 20 * len(part["round_names"]))
            pages = [{"parts": [part], "compact": part["compact"]} for part in w_parts + l_parts]
        return {"stage": self.stage, "pages": pages, "double": True}


BRACKET_PAGE_SLOTS = 32
BRACKET_FORMATS = (Stage.Format.SINGLE_ELIMINATION, Stage.Format.DOUBLE_ELIMINATION)
DOUBLE_ONE_PAGE_ROWS = 12
"""A double-elimination bracket prints on one page while its winners' and losers' rows fit (16 entries)."""


def _bracket_page(main: list[dict[str, Any]], places: dict[int, int], start: int, lo: int,
                  slots: int, box: Callable[[Match | None], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Rows of a bracket page: rounds from ``main[start]`` on, the ``slots`` places of that round from
    ``lo``; a match of a later round spans the rows of the matches that feed it."""
    box = box or _bracket_box
    grid: list[list[dict[str, Any]]] = [[] for _ in range(slots)]
    names = []
    for offset, column in enumerate(main[start:]):
        span = 2 ** offset
        if span > slots:
            break
        names.append(column["name"])
        by_place = {places.get(m.pk): m for m in column["matches"]}
        for k in range(slots // span):
            grid[k * span].append({"match": box(by_place.get(lo // span + k)), "span": span})
    font = 10 if slots <= 8 else 8 if slots <= 16 else 5.5
    return {"round_names": names, "grid": grid, "font_pt": font, "compact": slots > 16,
            "row_mm": min(40.0, round(150 / max(slots, 1), 2)) if slots <= 16 else None}


def _bracket_places(columns: list[dict[str, Any]]) -> dict[int, int]:
    """Each match's place from the top within its round, found from the final back along the
    winners' paths (place = 2 × the next match's place + the slot it feeds); byes leave gaps. The
    final is the match whose winner goes on outside these columns (the winners' final of a double
    elimination goes on to the grand final)."""
    ids = {m.pk for column in columns for m in column["matches"]}
    places: dict[int, int] = {}
    for column in reversed(columns):
        for m in column["matches"]:
            if m.next_match_id is None or m.next_match_id not in ids:
                places[m.pk] = 0
            elif m.next_match_id in places:
                places[m.pk] = 2 * places[m.next_match_id] + (m.next_slot or 0)
    return places


def _bracket_box(match: Match | None, sources: dict[tuple[int, int], str] | None = None,
                 mark: bool = False) -> dict[str, Any] | None:
    """A match as printed: both sides (name, seed, level, won). ``sources`` says where an empty
    side's entry comes from ("winner of W1-M2"); ``mark`` puts a ✔ by the winner's name."""
    if match is None:
        return None
    levels = (match.state or {}).get("levels") or [None, None]
    sides = []
    for side in (0, 1):
        entry = match.entry(side)
        sides.append({"name": entry.name if entry else "", "seed": entry.seed if entry else None,
                      "level": levels[side] if match.hands_played else None,
                      "won": match.winner_side == side,
                      "source": (sources or {}).get((match.pk, side), "") if entry is None else ""})
    return {"key": match.key, "table": match.table, "status": match.status, "sides": sides,
            "finished": match.status == Match.Status.FINISHED, "mark": mark}


def _bracket_sources(matches: Iterable[Match]) -> dict[tuple[int, int], str]:
    """(match, slot) → where its entry comes from, along the winners' and the losers' links."""
    sources: dict[tuple[int, int], str] = {}
    for m in matches:
        if m.next_match_id is not None:
            sources[(m.next_match_id, m.next_slot or 0)] = _("winner of %(key)s") % {"key": m.key}
        if m.loser_next_match_id is not None:
            sources[(m.loser_next_match_id, m.loser_next_slot or 0)] = _("loser of %(key)s") % {"key": m.key}
    return sources


def _losers_columns(columns: list[dict[str, Any]], box: Callable[[Match | None], dict[str, Any] | None],
                    size: int) -> list[dict[str, Any]]:
    """The losers' rounds as printed columns: ``count`` places (as in the full bracket of ``size``,
    byes included: losers' rounds 2r−1 and 2r have size / 2^(r+1) matches), each match at the place
    its key ``L{round}-M{place}`` gives (else in order)."""
    out = []
    for column in columns:
        boxes: dict[int, dict[str, Any] | None] = {}
        number = 0
        for index, m in enumerate(column["matches"]):
            found = LOSERS_KEY.match(m.key)
            if found:
                number, index = int(found[1]), int(found[2]) - 1
            boxes[index] = box(m)
        count = max(size >> ((number + 1) // 2 + 1), 1) if number else len(column["matches"])
        count = max(count, max(boxes, default=0) + 1)
        out.append({"name": column["name"], "count": count, "boxes": boxes})
    return out


LOSERS_KEY = re.compile(r"^L(\d+)-M(\d+)$")


def _column_page(columns: list[dict[str, Any]], rows: int, lo: int) -> dict[str, Any]:
    """Rows of a page of columns whose places halve from one column to another (or stay): the
    first column's places ``lo`` to ``lo + rows`` one row each, a later match spanning as many rows
    as first-column places it stands for; columns whose matches span more than the page are left out."""
    grid: list[list[dict[str, Any]]] = [[] for _ in range(rows)]
    names = []
    unit = columns[0]["count"] if columns else 1
    for column in columns:
        span = max(unit // column["count"], 1)
        if span > rows:
            break
        names.append(column["name"])
        for k in range(rows // span):
            grid[k * span].append({"match": column["boxes"].get(lo // span + k), "span": span})
    font = 10 if rows <= 8 else 8 if rows <= 16 else 5.5
    return {"round_names": names, "grid": grid, "font_pt": font, "compact": rows > 16,
            "row_mm": min(40.0, round(150 / max(rows, 1), 2)) if rows <= 16 else None}


# ----- score sheets

@dataclass
class Sheet:
    """One table's score sheet (or a blank one)."""

    variant: str
    rules: ScoringRules
    columns: list[Column]
    rows: list[list[Any]]
    seats: list[dict[str, Any]]
    sides: list[dict[str, Any]] = field(default_factory=list)
    match: Match | None = None
    round_name: str = ""
    table: int | None = None
    link: str = ""
    qr: str = ""
    signatures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    blank_rows: int = 0
    """Rows for hands still to play, drawn as one ruled image (a table cell each is slow to lay out)."""
    row_mm: float = 7.2

    @property
    def widths(self) -> list[float]:
        """Column widths in per cent of the table."""
        total = sum(c.weight for c in self.columns)
        return [round(100 * c.weight / total, 3) for c in self.columns]

    @property
    def grid_height(self) -> float:
        return round(self.blank_rows * self.row_mm, 2)

    @property
    def grid(self) -> str:
        """The blank rows as an SVG data URI: ruled lines at the column edges and the hand numbers."""
        width, height, row = GRID_WIDTH_MM, self.grid_height, self.row_mm
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
                 f'width="{width}mm" height="{height}mm" preserveAspectRatio="none">'
                 '<g stroke="#000" stroke-width="0.21">']
        x = 0.0
        for percent in self.widths[:-1]:
            x += width * percent / 100
            parts.append(f'<line x1="{x:.2f}" y1="0" x2="{x:.2f}" y2="{height}"/>')
        for index in range(1, self.blank_rows):
            parts.append(f'<line x1="0" y1="{index * row:.2f}" x2="{width}" y2="{index * row:.2f}"/>')
        parts.append('</g><g font-size="3.4" text-anchor="middle" font-family="Noto Sans CJK SC, DejaVu Sans, sans-serif">')
        first = len(self.rows) + 1
        centre = width * self.widths[0] / 200
        for index in range(self.blank_rows):
            parts.append(f'<text x="{centre:.2f}" y="{index * row + row / 2 + 1.2:.2f}">{first + index}</text>')
        parts.append("</g></svg>")
        return "data:image/svg+xml;base64," + base64.b64encode("".join(parts).encode()).decode("ascii")

    @property
    def variant_label(self) -> str:
        return str(Variant(self.variant).label)

    @property
    def head(self) -> tuple[list[dict[str, Any]], list[Column]]:
        return header_rows(self.columns)


def seats_of(match: Match, players: int) -> list[dict[str, Any]]:
    """The seats of a table in play order with names and sides (partnership: side = seat mod 2)."""
    if match.entry0_id or match.entry1_id or match.stage.tournament.is_partnership:
        names = selectors.seat_names(match)
        return [{"number": seat, "name": names[seat], "side": seat % 2,
                 "team": (match.entry(seat % 2).name if match.entry(seat % 2) else "")} for seat in range(4)]
    by_seat = {s.seat: s.entry for s in match.seats.all()}
    count = int((match.state or {}).get("players") or 0) or (max(by_seat) + 1 if by_seat else players)
    return [{"number": seat, "name": by_seat[seat].name if seat in by_seat else "—", "side": None, "team": ""}
            for seat in range(count)]


def sheet_columns(rules: ScoringRules, seat_labels: Sequence[str], side_labels: Sequence[str]) -> list[Column]:
    """What the scorer fills per hand for this variant (RULES.md §7), then the results after the hand."""
    cols = [Column("number", "#", weight=0.55)]
    if isinstance(rules, PartnershipRules):
        cols += [Column("dealer", _("Dealer seat")), Column("trump", _("Trump"), numeric=False),
                 Column("attackers_points", _("Attackers' points")), Column("kitty_points", _("Kitty points")),
                 Column("last_winner", _("won by (D/A)"), group=_("Last trick"), numeric=False),
                 Column("last_largest", _("largest"), group=_("Last trick"))]
        if rules.throw_penalties:
            cols.append(Column("throw_penalties", _("Throw penalties")))
        if rules.a_pass_conditions:
            cols += [Column("a_first", _("first"), group=_("A by dealer side (at A)"), numeric=False),
                     Column("a_last", _("last"), group=_("A by dealer side (at A)"), numeric=False)]
        cols += [Column(f"level_{side}", label, group=_("Levels after")) for side, label in enumerate(side_labels)]
    elif isinstance(rules, RedFiveRules):
        cols += [Column("dealer", _("Dealer seat")), Column("bid", _("Bid")), Column("trump", _("Trump"), numeric=False),
                 Column("dealer_points", _("Dealer's points")), Column("kitty_points", _("Kitty points")),
                 Column("dealer_last", _("Dealer won last trick"), numeric=False),
                 Column("red_fives", _("Red fives (by → from)"), numeric=False, weight=2.2)]
        cols += [Column(f"gp_{seat}", label, group=_("Game points")) for seat, label in enumerate(seat_labels)]
    elif isinstance(rules, YongzhouRules):
        cols += [Column(f"points_{seat}", label, group=_("Points (sum 300)")) for seat, label in enumerate(seat_labels)]
        cols.append(Column("declarer", _("Declarer")))
        cols += [Column(f"net_{seat}", label, group=_("Net")) for seat, label in enumerate(seat_labels)]
    cols.append(Column("initials", _("Initials"), numeric=False, weight=1.6))
    return cols


def hand_values(hand: HandRecord, rules: ScoringRules) -> dict[str, Any]:
    """A recorded hand's figures by column key."""
    outcome, result = hand.outcome or {}, hand.result or {}
    values: dict[str, Any] = {"number": hand.number}
    if isinstance(rules, PartnershipRules):
        last = outcome.get("last_trick") or {}
        levels = (result.get("state") or {}).get("levels") or ["", ""]
        values.update(dealer=hand.dealer, trump=trump_label(hand.trump),
                      attackers_points=outcome.get("attackers_points", ""), kitty_points=outcome.get("kitty_points", ""),
                      last_winner={"dealer": "D", "attackers": "A"}.get(last.get("winner"), ""),
                      last_largest=last.get("largest") or "", throw_penalties=outcome.get("throw_penalties", ""),
                      a_first=yes_no(outcome.get("a_first_trick")), a_last=yes_no(outcome.get("a_last_trick")),
                      level_0=levels[0], level_1=levels[1])
    elif isinstance(rules, RedFiveRules):
        values.update(dealer=outcome.get("dealer", hand.dealer), bid=outcome.get("bid", ""),
                      trump=trump_label(outcome.get("trump", "")),
                      dealer_points=outcome.get("dealer_points", ""), kitty_points=outcome.get("kitty_points", ""),
                      dealer_last=yes_no(outcome.get("dealer_won_last_trick")),
                      red_fives=", ".join(f"{c.get('won_by')}→{c.get('played_by')}" for c in outcome.get("red_fives", [])))
        for seat, value in enumerate(result.get("game_points") or []):
            values[f"gp_{seat}"] = signed(value)
    elif isinstance(rules, YongzhouRules):
        for seat, value in enumerate(outcome.get("points") or []):
            values[f"points_{seat}"] = value
        for seat, value in enumerate(result.get("net") or []):
            values[f"net_{seat}"] = signed(value)
        values["declarer"] = outcome.get("declarer", "")
    return values


def sheet_rows(columns: Sequence[Column], hands: Iterable[HandRecord], rules: ScoringRules) -> list[list[Any]]:
    """The recorded hands, one row of figures each."""
    return [[values.get(c.key, "") for c in columns] for values in (hand_values(h, rules) for h in hands)]


def hand_rows_for(rules: ScoringRules, stage: Stage | None) -> int:
    """How many hand rows a sheet has: the hand limit or the stage's hands per table, else a page full."""
    if isinstance(rules, PartnershipRules) and rules.hand_limit:
        return rules.hand_limit
    if stage is not None and stage.hands_per_table:
        return stage.hands_per_table
    return 20 if isinstance(rules, PartnershipRules) else INDIVIDUAL_DEFAULT_HANDS


def table_rules(match: Match, rules: ScoringRules) -> ScoringRules:
    """A Yongzhou table may seat 3 even when the event plays 4 to a table: its own rule set then."""
    if not isinstance(rules, YongzhouRules):
        return rules
    players = len(seats_of(match, rules.players))
    if players == rules.players:
        return rules
    scoring_part, _rest = split_options(match.stage.tournament.options or {})
    return scoring_rules(rules.variant, scoring_part, players=players)


def sheet_for(match: Match, rules: ScoringRules, base_url: str) -> Sheet:
    rules = table_rules(match, rules)
    seats = seats_of(match, rules.players)
    sides: list[dict[str, Any]] = []
    if isinstance(rules, PartnershipRules):
        for side in (0, 1):
            entry = match.entry(side)
            sides.append({"number": side, "name": entry.name if entry else "—",
                          "seats": [s for s in seats if s["side"] == side]})
        side_labels = [s["name"] for s in sides]
        signatures = [s["name"] for s in sides]
    else:
        side_labels = []
        signatures = [f"{seat_short(match.stage.tournament, s['number'])} · {s['name']}" for s in seats]
    seat_labels = [f"{seat_short(match.stage.tournament, s['number'])} {s['name']}" for s in seats]
    columns = sheet_columns(rules, seat_labels, side_labels)
    link = base_url + table_link_path(match.scorer_token)
    rows = sheet_rows(columns, match.hands.all(), rules)
    return Sheet(variant=rules.variant, rules=rules, columns=columns,
                 rows=rows,
                 blank_rows=max(hand_rows_for(rules, match.stage) - len(rows), 2), seats=seats, sides=sides, match=match, round_name=selectors.round_label(match.round.name)
                 if match.round.name else str(match.round), table=match.table, link=link, qr=qr_data_uri(link),
                 signatures=[*signatures, _("Umpire")], notes=sheet_notes(rules, match))


def blank_sheet(rules: ScoringRules, stage: Stage | None = None) -> Sheet:
    seats = [{"number": seat, "name": "", "side": seat % 2 if isinstance(rules, PartnershipRules) else None,
              "team": ""} for seat in range(rules.players)]
    sides = ([{"number": side, "name": "", "seats": [s for s in seats if s["side"] == side]} for side in (0, 1)]
             if isinstance(rules, PartnershipRules) else [])
    side_labels = [_("Side %(n)s") % {"n": side + 1} for side in (0, 1)] if sides else []
    seat_labels = [seat_short(None, seat) for seat in range(rules.players)]
    columns = sheet_columns(rules, seat_labels, side_labels)
    signatures = side_labels or [capfirst(seat_label(None, s)) for s in range(rules.players)]
    return Sheet(variant=rules.variant, rules=rules, columns=columns,
                 rows=[], blank_rows=hand_rows_for(rules, stage), seats=seats, sides=sides,
                 signatures=[*signatures, _("Umpire")], notes=sheet_notes(rules, None))


def sheet_notes(rules: ScoringRules, match: Match | None) -> list[str]:
    notes = [_("Points are multiples of 5; the kitty holds at most %(k)s.") % {"k": rules.kitty_max_points}
             if rules.kitty_max_points else _("Points are multiples of 5.")]
    if isinstance(rules, PartnershipRules):
        notes.append(partners_note(match.stage.tournament if match else None, rules.target_level))
        notes.append(_("Last trick: D = dealer side, A = attackers; largest = cards in its largest component."))
    elif isinstance(rules, YongzhouRules):
        notes.append(_("The players' points must sum to %(n)s.") % {"n": rules.total_points})
    return notes


def _matches_qs() -> Any:
    return (Match.objects.select_related(
        "round", "stage__tournament", "entry0__team__player1", "entry0__team__player2", "entry0__player",
        "entry1__team__player1", "entry1__team__player2", "entry1__player")
        .prefetch_related(Prefetch("hands", queryset=HandRecord.objects.order_by("number")),
                          Prefetch("seats", queryset=_seats_qs())))


def _seats_qs() -> Any:
    return TableSeat.objects.select_related("entry__player", "entry__team").order_by("seat")


def round_tables(round_: Round) -> list[Match]:
    """The tables of a round, by table number: matches with both sides (or seated players)."""
    matches = _matches_qs().filter(round=round_).exclude(status=Match.Status.BYE).order_by("table", "position")
    return [m for m in matches if (m.entry0_id and m.entry1_id) or list(m.seats.all())]


class ScoreSheetsDocument(Document):
    """One page per table: seats and sides, one row per hand with this variant's columns, the levels
    after each hand, signature boxes and a QR code of the table's hand-entry link."""

    kind = "score-sheets"
    template_name = "tournaments/print/score_sheets.html"
    title_zh = "记分表"
    organizer_only = True

    def __init__(self, *, tournament: Tournament, matches: Sequence[Match] | None = None, round: Round | None = None,
                 **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.round = round
        self.matches = list(matches) if matches is not None else round_tables(round) if round else []
        self.rules = rules_of(tournament)

    @property
    def title(self) -> str:
        if len(self.matches) == 1 and not self.round:
            m = self.matches[0]
            return _("Score sheet, table %(t)s") % {"t": m.table} if m.table else _("Score sheet %(k)s") % {"k": m.key}
        if self.round:
            return _("Score sheets, %(r)s") % {"r": selectors.round_label(self.round.name) or str(self.round)}
        return _("Score sheets")

    def units(self) -> list[Any]:
        return list(self.matches)

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        matches = self.matches if units is None else units
        return {"sheets": [sheet_for(m, self.rules, self.base_url) for m in matches]}


class BlankSheetsDocument(Document):
    """Score sheets without names for walk-in games: the variant's columns, seats 0..N−1."""

    kind = "blank-sheets"
    template_name = "tournaments/print/score_sheets.html"
    title_zh = "空白记分表"

    def __init__(self, *, tournament: Tournament | None = None, variant: str | None = None, players: int | None = None,
                 count: int = 1, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        self.rules = rules_of(tournament, variant, players)
        self.count = max(1, min(int(count), 200))

    @property
    def title(self) -> str:
        return _("Blank score sheet")

    def units(self) -> list[Any]:
        return list(range(self.count))

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        n = self.count if units is None else len(units)
        sheet = blank_sheet(self.rules)
        return {"sheets": [sheet] * n, "variant_label": Variant(self.rules.variant).label}


# ----- seating and table cards

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


# ----- result slip

class ResultSlipDocument(Document):
    """A finished match's result: sides, winner, final levels, the hands in short, signatures."""

    kind = "result-slip"
    template_name = "tournaments/print/result_slip.html"
    title_zh = "成绩单"

    def __init__(self, *, tournament: Tournament, match: Match, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        if match.status != Match.Status.FINISHED:
            raise DocumentError(_("The match is not finished yet."))
        self.match = match

    @property
    def title(self) -> str:
        return _("Result %(k)s") % {"k": self.match.key}

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        m = self.match
        rules = rules_of(self.tournament)
        levels = (m.state or {}).get("levels") or [None, None]
        sides = []
        for side in (0, 1):
            entry = m.entry(side)
            sides.append({"number": side, "name": entry.name if entry else "—", "won": m.winner_side == side,
                          "level": levels[side], "players": _players_of(entry)})
        hands = [{"number": h.number, "dealer": h.dealer,
                  "levels": ((h.result or {}).get("state") or {}).get("levels") or ["", ""],
                  "gain": (h.result or {}).get("level_gain"), "side": (h.result or {}).get("gaining_side")}
                 for h in m.hands.all()]
        adjustments = list(m.adjustments.all())
        return {"match": m, "sides": sides, "hands": hands, "adjustments": adjustments, "rules": rules,
                "round_name": selectors.round_label(m.round.name), "winner": m.winner}


def _players_of(entry: Entry | None) -> list[str]:
    if entry is None:
        return []
    if entry.team_id:
        return [entry.team.player1.name, entry.team.player2.name]  # type: ignore[union-attr]
    return [entry.player.name]  # type: ignore[union-attr]


# --------------------------------------------------------------------------- building from parameters

BULK_KINDS = {"score-sheets": ScoreSheetsDocument, "table-cards": TableCardsDocument, "seating": SeatingDocument,
              "standings": StandingsDocument, "bracket": BracketDocument, "blank-sheets": BlankSheetsDocument}


def tournament_round(tournament: Tournament, round_id: Any) -> Round:
    found = Round.objects.select_related("stage").filter(pk=round_id, stage__tournament=tournament).first()
    if found is None:
        raise DocumentError(_("No such round in this tournament."))
    return found


def tournament_stage(tournament: Tournament, stage_id: Any = None) -> Stage:
    """The stage ``stage_id`` of the tournament, or by default the latest one that has started."""
    stages = Stage.objects.filter(tournament=tournament)
    if stage_id:
        found = stages.filter(pk=stage_id).first()
    else:
        found = (stages.exclude(status=Stage.Status.PENDING).order_by("-number").first()
                 or stages.order_by("-number").first())
    if found is None:
        raise DocumentError(_("The tournament has no stage yet."))
    return found


def last_knockout(tournament: Tournament) -> int | None:
    return (Stage.objects.filter(tournament=tournament, format__in=BRACKET_FORMATS)
            .order_by("-number").values_list("pk", flat=True).first())


def match_for_print(match_id: Any) -> Match | None:
    return _matches_qs().prefetch_related("adjustments").filter(pk=match_id).first()


def document_from_params(tournament: Tournament, kind: str, params: dict[str, Any],
                         base_url: str | None = None) -> Document:
    """A document of ``kind`` for a tournament from JSON parameters (what a PrintJob stores)."""
    cls = BULK_KINDS.get(kind)
    if cls is None:
        raise DocumentError(_("Unknown document: %(k)s.") % {"k": kind})
    base_url = base_url or params.get("base_url") or None
    if cls in (ScoreSheetsDocument, TableCardsDocument, SeatingDocument):
        return cls(tournament=tournament, round=tournament_round(tournament, params.get("round")), base_url=base_url)
    if cls is StandingsDocument:
        stage = tournament_stage(tournament, params.get("stage")) if tournament.stages.exists() else None
        return StandingsDocument(tournament=tournament, stage=stage, base_url=base_url)
    if cls is BracketDocument:
        return BracketDocument(tournament=tournament, stage=tournament_stage(
            tournament, params.get("stage") or last_knockout(tournament)), base_url=base_url)
    return BlankSheetsDocument(tournament=tournament, count=int(params.get("count") or 1), base_url=base_url)


# --------------------------------------------------------------------------- bulk runs (PrintJob)

def print_job_create(*, tournament: Tournament, kind: str, params: dict[str, Any], user: Any = None,
                     base_url: str | None = None) -> PrintJob:
    """Record a bulk run and enqueue it once the transaction commits.

    The parameters are checked by building the document (no rendering). If the broker cannot be
    reached the job is marked failed with a message at once — it never waits for a broker."""
    params = {**params, "base_url": base_url or site_url(), "lang": translation.get_language() or "en"}
    document = document_from_params(tournament, kind, params)
    with transaction.atomic():
        job = PrintJob.objects.create(tournament=tournament, kind=kind, params=params, title=document.title,
                                      total=len(document.units()), created_by=user if getattr(
                                          user, "is_authenticated", False) else None)
        transaction.on_commit(lambda: print_job_enqueue(job.pk))
    return job


def print_job_enqueue(job_id: int) -> None:
    """Send the task (eager without a broker). A broker that is down fails the job with a message."""
    from celery.exceptions import CeleryError
    from kombu.exceptions import OperationalError

    from config.celery_app import app
    from tournaments.tasks import print_job_task

    try:
        if app.conf.task_always_eager:
            result = print_job_task.apply_async(args=[job_id])
        else:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, interval_start=0.5, interval_step=0.5, timeout=3)
                result = print_job_task.apply_async(args=[job_id], connection=connection, retry=False)
        PrintJob.objects.filter(pk=job_id, task_id="").update(task_id=result.id or "")
    except (OperationalError, CeleryError, OSError, ConnectionError) as exc:
        logger.warning("print job %s: broker unavailable: %s", job_id, exc)
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.Status.FAILED, finished_at=timezone.now(),
            error=_("The task queue (broker) is unavailable; the job was not started. Try again later "
                    "or ask the administrator. (%(e)s)") % {"e": str(exc)[:200]})
    except Exception as exc:  # a redis-py error that kombu did not wrap, for instance
        if type(exc).__module__.split(".")[0] not in ("redis", "kombu", "amqp"):
            raise
        logger.warning("print job %s: broker error: %s", job_id, exc)
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.Status.FAILED, finished_at=timezone.now(),
            error=_("The task queue (broker) is unavailable; the job was not started. (%(e)s)")
            % {"e": str(exc)[:200]})


def print_job_run(*, job_id: int) -> str:
    """Render a job's document, store the PDF and mark the job done (or failed, with the reason)."""
    job = PrintJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None:
        return "missing"
    if job.status == PrintJob.Status.DONE:
        return job.status
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING, error="", updated_at=timezone.now())

    def progress(done: int, total: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(progress=done, total=total, updated_at=timezone.now())

    try:
        with translation.override(job.params.get("lang") or settings.LANGUAGE_CODE):
            document = document_from_params(job.tournament, job.kind, job.params)
            pdf, pages = document.render_pdf(progress=progress)
            name = f"{job.tournament_id}-{document.filename()[:-4]}-{secrets.token_hex(6)}.pdf"
        job.refresh_from_db()
        job.file.save(name, ContentFile(pdf), save=False)
        job.status, job.pages, job.finished_at, job.error = PrintJob.Status.DONE, pages, timezone.now(), ""
        job.progress = job.total
        job.save(update_fields=["file", "status", "pages", "finished_at", "error", "progress", "updated_at"])
        return job.status
    except Exception as exc:
        from celery.exceptions import SoftTimeLimitExceeded

        logger.exception("print job %s failed", job_id)
        message = (_("The document took too long to render.") if isinstance(exc, SoftTimeLimitExceeded)
                   else _("The document could not be made: %(e)s") % {"e": exc})
        PrintJob.objects.filter(pk=job_id).update(status=PrintJob.Status.FAILED, error=message,
                                                  finished_at=timezone.now())
        return PrintJob.Status.FAILED


def print_jobs_of(tournament: Tournament, limit: int = 50) -> list[PrintJob]:
    return list(PrintJob.objects.filter(tournament=tournament).select_related("created_by")[:limit])


def pdf_bytes(document: Document) -> tuple[bytes, int]:
    """Render in one run (on-demand PDFs)."""
    return document.render_pdf(chunk=max(len(document.units()), 1))


__all__ = [
    "BULK_KINDS",
    "ON_DEMAND_MAX_UNITS",
    "BlankSheetsDocument",
    "BracketDocument",
    "Column",
    "Document",
    "DocumentError",
    "ResultSlipDocument",
    "ScoreSheetsDocument",
    "SeatingDocument",
    "StandingsDocument",
    "TableCardsDocument",
    "document_from_params",
    "print_job_create",
    "print_job_run",
    "qr_data_uri",
    "site_url",
]

