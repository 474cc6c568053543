"""URLs of the printables: each document as a page (``…/``) and as a PDF (``….pdf``), and the bulk
print jobs of a tournament. Included from ``config/urls.py``."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path

from tournaments.views import printing as views


def page_and_pdf(route: str, view: Any, name: str) -> list[URLPattern]:
    """``route/`` (print-friendly HTML, ``name``) and ``route.pdf`` (the PDF, ``name-pdf``)."""
    return [path(f"{route}/", view, {"fmt": "html"}, name=name),
            path(f"{route}.pdf", view, {"fmt": "pdf"}, name=f"{name}-pdf")]


urlpatterns = [
    path("tournaments/<int:pk>/print/", views.print_jobs, name="print-jobs"),
    path("tournaments/<int:pk>/print/jobs/", views.print_job_list, name="print-job-list"),
    path("tournaments/<int:pk>/print/jobs/new/", views.print_job_create, name="print-job-create"),
    path("print/jobs/<int:job_id>/download/", views.print_job_download, name="print-job-download"),
    path("print/jobs/<int:job_id>/retry/", views.print_job_retry, name="print-job-retry"),
    *page_and_pdf("tournaments/<int:pk>/print/standings", views.print_standings, "print-standings"),
    *page_and_pdf("tournaments/<int:pk>/print/bracket", views.print_bracket, "print-bracket"),
    *page_and_pdf("tournaments/<int:pk>/print/blank-sheets", views.print_tournament_blank_sheets,
                  "print-tournament-blank-sheets"),
    *page_and_pdf("tournaments/<int:pk>/print/table-cards", views.print_venue_cards, "print-venue-cards"),
    *page_and_pdf("tournaments/<int:pk>/print/player-cards", views.print_player_cards, "print-player-cards"),
    *page_and_pdf("tournaments/<int:pk>/print/rounds/<int:round_id>/seating", views.print_seating, "print-seating"),
    *page_and_pdf("tournaments/<int:pk>/print/rounds/<int:round_id>/table-cards", views.print_table_cards,
                  "print-table-cards"),
    *page_and_pdf("tournaments/<int:pk>/print/rounds/<int:round_id>/score-sheets", views.print_score_sheets,
                  "print-score-sheets"),
    *page_and_pdf("matches/<int:match_id>/print/score-sheet", views.print_match_score_sheet,
                  "print-match-score-sheet"),
    *page_and_pdf("matches/<int:match_id>/print/result-slip", views.print_result_slip, "print-result-slip"),
    *page_and_pdf("print/blank/<slug:variant>", views.print_blank_sheets, "print-blank-sheets"),
]
