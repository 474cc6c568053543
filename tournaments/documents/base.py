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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import pgettext

from scoring.rules import ScoringRules
from tournaments.models import (
    HandRecord,
    Match,
    Round,
    TableSeat,
    Tournament,
)
from tournaments.rulebook import rule_book, variant_rule_book
from variants import SUIT_SYMBOLS

DEFAULT_SITE_URL = "http://127.0.0.1:8000"
CHUNK = 16
"""Units rendered per WeasyPrint run in a bulk job: progress is reported after each chunk."""
ON_DEMAND_MAX_UNITS = 8
"""Above this many units (tables, cards) a PDF is made by a bulk job rather than in the request."""
GRID_WIDTH_MM = 192.0
"""The score sheet's hands table on A4 with 9 mm margins."""
INDIVIDUAL_DEFAULT_HANDS = 8
"""Hands at a table of an individual round when the stage does not say (as services.stages)."""
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


def venue_link_path(token: str) -> str:
    """A physical table's permanent link (``/v/<token>/``), printed on its table card."""
    try:
        return reverse("venue-link", args=[token])
    except NoReverseMatch:
        return f"/v/{token}/"


def file_names(tournament: Tournament | None, kind: str, detail: str = "") -> tuple[str, str]:
    """The file name of a printed document: the tournament's name and what it is
    (``demo-open-2026-standings.pdf``), as ASCII and in full Unicode (``filename*``). A name without
    Latin letters or digits (``春季赛``) falls back to ``tournament-<id>-standings.pdf`` in ASCII."""
    name = tournament.name if tournament is not None else ""
    ascii_name = slugify(name)[:60].strip("-")
    if not ascii_name and tournament is not None:
        ascii_name = f"tournament-{tournament.pk}"
    unicode_name = slugify(name, allow_unicode=True)[:60].strip("-") or ascii_name
    tail = [kind, slugify(detail)] if detail else [kind]
    ascii_file = "-".join(p for p in [ascii_name, *tail] if p) + ".pdf"
    unicode_file = "-".join(p for p in [unicode_name, *tail] if p) + ".pdf"
    return ascii_file, unicode_file


def content_disposition(names: tuple[str, str], disposition: str = "inline") -> str:
    """``inline; filename="…"; filename*=UTF-8''…`` (RFC 6266): browsers that read ``filename*`` save
    the Chinese name."""
    from urllib.parse import quote

    ascii_file, unicode_file = names
    header = f'{disposition}; filename="{ascii_file}"'
    if unicode_file != ascii_file:
        header += f"; filename*=UTF-8''{quote(unicode_file, safe='')}"
    return header


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
    """The scoring rule set of a tournament (its rule book), or of a bare variant."""
    if tournament is not None:
        return rule_book(tournament)
    assert variant is not None
    return variant_rule_book(variant, players=players)


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

    def filename_detail(self) -> str:
        """What the file name adds after the kind (a round, a match); nothing by default."""
        return ""

    # shared
    def file_names(self) -> tuple[str, str]:
        """The ASCII and the Unicode file name (:func:`file_names`); without a tournament, the title."""
        if self.tournament is None:
            ascii_file = "-".join(p for p in [self.kind, slugify(self.title)[:60]] if p) + ".pdf"
            return ascii_file, ascii_file
        return file_names(self.tournament, self.kind, self.filename_detail())

    def filename(self) -> str:
        return self.file_names()[0]

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


def matches_qs() -> Any:
    return (Match.objects.select_related(
        "round", "stage__tournament", "entry0__team__player1", "entry0__team__player2", "entry0__player",
        "entry1__team__player1", "entry1__team__player2", "entry1__player")
        .prefetch_related(Prefetch("hands", queryset=HandRecord.objects.order_by("number")),
                          Prefetch("seats", queryset=seats_qs())))


def seats_qs() -> Any:
    return TableSeat.objects.select_related("entry__player", "entry__team").order_by("seat")


def round_tables(round_: Round) -> list[Match]:
    """The tables of a round, by table number: matches with both sides (or seated players)."""
    matches = matches_qs().filter(round=round_).exclude(status=Match.Status.BYE).order_by("table", "position")
    return [m for m in matches if (m.entry0_id and m.entry1_id) or list(m.seats.all())]
