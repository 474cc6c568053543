"""Documents from parameters (what a print job stores), and rendering one at once."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.documents.base import Document, DocumentError, matches_qs
from tournaments.documents.bracket import BRACKET_FORMATS, BracketDocument
from tournaments.documents.seating import SeatingDocument, TableCardsDocument, VenueCardsDocument
from tournaments.documents.sheets import BlankSheetsDocument, ScoreSheetsDocument
from tournaments.documents.standings import StandingsDocument
from tournaments.models import (
    Match,
    Round,
    Stage,
    Tournament,
)

BULK_KINDS = {"score-sheets": ScoreSheetsDocument, "table-cards": TableCardsDocument, "seating": SeatingDocument,
              "standings": StandingsDocument, "bracket": BracketDocument, "blank-sheets": BlankSheetsDocument,
              "venue-cards": VenueCardsDocument}


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
    return matches_qs().prefetch_related("adjustments").filter(pk=match_id).first()


def document_from_params(tournament: Tournament, kind: str, params: dict[str, Any],
                         base_url: str | None = None) -> Document:
    """A document of ``kind`` for a tournament from JSON parameters (what a PrintJob stores)."""
    cls = BULK_KINDS.get(kind)
    if cls is None:
        raise DocumentError(_("Unknown document: %(k)s.") % {"k": kind})
    base_url = base_url or params.get("base_url") or None
    if cls in (ScoreSheetsDocument, TableCardsDocument, SeatingDocument):
        return cls(tournament=tournament, round=tournament_round(tournament, params.get("round")), base_url=base_url)
    if cls is VenueCardsDocument:
        return VenueCardsDocument(tournament=tournament, base_url=base_url)
    if cls is StandingsDocument:
        stage = tournament_stage(tournament, params.get("stage")) if tournament.stages.exists() else None
        return StandingsDocument(tournament=tournament, stage=stage, base_url=base_url,
                                 ratings=bool(params.get("ratings")))
    if cls is BracketDocument:
        return BracketDocument(tournament=tournament, stage=tournament_stage(
            tournament, params.get("stage") or last_knockout(tournament)), base_url=base_url)
    return BlankSheetsDocument(tournament=tournament, count=int(params.get("count") or 1), base_url=base_url)


def pdf_bytes(document: Document) -> tuple[bytes, int]:
    """Render in one run (on-demand PDFs)."""
    return document.render_pdf(chunk=max(len(document.units()), 1))
