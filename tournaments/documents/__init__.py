"""Printables, one module per printed kind — :mod:`.standings`, :mod:`.bracket`, :mod:`.sheets`
(score sheets, blank sheets), :mod:`.seating` (seating lists, table cards), :mod:`.slips` (result
slips) — on the shared :mod:`.base`; :mod:`.kinds` builds one from a print job's parameters. Print
jobs themselves are queued and run by :mod:`tournaments.services.printing`; documents never import
the tasks."""

from tournaments.documents.base import (
    ON_DEMAND_MAX_UNITS,
    Column,
    Document,
    DocumentError,
    content_disposition,
    file_names,
    qr_data_uri,
    site_url,
)
from tournaments.documents.bracket import BRACKET_FORMATS, BracketDocument
from tournaments.documents.kinds import (
    BULK_KINDS,
    document_from_params,
    last_knockout,
    match_for_print,
    pdf_bytes,
    tournament_round,
    tournament_stage,
)
from tournaments.documents.seating import SeatingDocument, TableCardsDocument, VenueCardsDocument
from tournaments.documents.sheets import BlankSheetsDocument, ScoreSheetsDocument, sheet_columns
from tournaments.documents.slips import ResultSlipDocument
from tournaments.documents.standings import StandingsDocument

__all__ = [
    "BRACKET_FORMATS",
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
    "VenueCardsDocument",
    "content_disposition",
    "document_from_params",
    "file_names",
    "last_knockout",
    "match_for_print",
    "pdf_bytes",
    "qr_data_uri",
    "sheet_columns",
    "site_url",
    "tournament_round",
    "tournament_stage",
]
