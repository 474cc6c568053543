"""Printables as pages and PDFs, and the bulk print jobs of a tournament.

Every document is a print-friendly HTML page (``…/``) and a PDF (``….pdf``). Public tournaments are
readable by anyone, private ones by their organizers and scorers; score sheets and table cards carry
or go with the tables' secret links, so only organizers print them. Big documents (more than
:data:`~tournaments.documents.ON_DEMAND_MAX_UNITS` tables) are made by a bulk job (Celery, or
in-process without a broker) listed on the print jobs page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import variants
from safety.idempotency import idempotent_page
from tournaments import documents as docs
from tournaments import selectors
from tournaments.documents.player_cards import PlayerCardsDocument
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import Match, PrintJob, Round, Tournament, Variant
from tournaments.permissions import can_view, is_organizer
from tournaments.services import Actor, pdf_cache
from tournaments.services import print_jobs as print_job_services
from tournaments.services import printing as printing_services
from tournaments.views.common import HtmxHttpRequest

T = TypeVar("T")


# --------------------------------------------------------------------------- access

def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = Tournament.objects.select_related("owner").filter(pk=pk).first()
    if tournament is None or not can_view(request.user, tournament):
        raise Http404(_("No such tournament."))
    return tournament


class _LoginFirst(Exception):
    pass


def _require_organizer(request: HttpRequest, tournament: Tournament) -> None:
    if not request.user.is_authenticated:
        raise _LoginFirst
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organizers may print this."))


def _guarded(view: Any) -> Any:
    """Anonymous visitors of organizer-only documents are sent to log in first."""

    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except _LoginFirst:
            return redirect_to_login(request.get_full_path())

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return require_GET(wrapper)


def _check(request: HttpRequest, document: docs.Document) -> None:
    if document.organizer_only and document.tournament is not None:
        _require_organizer(request, document.tournament)


def _respond(request: HttpRequest, document: docs.Document, fmt: str, *, page_url: str,
             back_url: str = "") -> HttpResponse:
    """The document as a page, or as a PDF — in the request when small, else via a bulk job."""
    _check(request, document)
    if fmt == "html":
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        html = document.render_html(extra={"back_url": back_url, "pdf_url": f"{page_url.rstrip('/')}.pdf{query}"})
        response = HttpResponse(html)
    else:
        if len(document.units()) > docs.ON_DEMAND_MAX_UNITS:
            if document.tournament is None or not is_organizer(request.user, document.tournament):
                raise PermissionDenied(_("Documents this big are printed by the organizers."))
            messages.info(request, _("“%(t)s” has %(n)s parts: start it as a bulk job below; the file will be "
                                     "listed here when it is ready.") % {"t": document.title, "n": len(document.units())})
            return HttpResponseRedirect(reverse("print-jobs", args=[document.tournament.pk]))
        wait = pdf_cache.anonymous_pdf_wait(request)
        if wait is not None:
            refused = HttpResponse(_("Too many PDF requests from your address: wait %(s)d seconds, or sign in.")
                                   % {"s": wait}, status=429, content_type="text/plain; charset=utf-8")
            refused["Retry-After"] = str(wait)
            return refused
        answer = pdf_cache.pdf_served(request=request, path=request.path, query=request.GET.urlencode(),
                                      tournament=document.tournament, render=lambda: docs.pdf_bytes(document),
                                      shareable=not _private(document))
        if answer.pdf is None:
            return _preparing(request, document)
        response = HttpResponse(answer.pdf, content_type="application/pdf")
        response["Content-Disposition"] = docs.content_disposition(document.file_names())
        if answer.age is not None:  # a stored render for a visitor: how old it is (RFC 9111 Age)
            response["Age"] = str(answer.age)
    if _private(document):
        response["Cache-Control"] = "private, no-store"
    return response


def _private(document: docs.Document) -> bool:
    return document.organizer_only or (document.tournament is not None and not document.tournament.is_public)


def _preparing(request: HttpRequest, document: docs.Document) -> HttpResponse:
    """202 for a visitor asking for a PDF not rendered yet: a page that reloads itself until it is."""
    wait = pdf_cache.PREPARING_RETRY_SECONDS
    response = render(request, "tournaments/print/preparing.html",
                      {"title": document.title, "wait": wait, "retry_url": request.get_full_path()}, status=202)
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response


def _document_or_404(build: Callable[[], T]) -> T:
    try:
        return build()
    except docs.DocumentError as exc:
        raise Http404(str(exc)) from exc


def _int(value: Any) -> int | None:
    try:
        return int(value) if value else None
    except (TypeError, ValueError):
        return None


def _back(tournament: Tournament | None) -> str:
    return reverse("print-jobs", args=[tournament.pk]) if tournament else ""


def _url(name: str, *args: Any) -> str:
    """A link to a page of the site, or none if that page is not there (the pages live in views.py)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


# --------------------------------------------------------------------------- documents

@_guarded
def print_standings(request: HttpRequest, pk: int, fmt: str = "html") -> HttpResponse:
    tournament = _tournament(request, pk)
    stage = None
    if tournament.stages.exists():
        stage = _document_or_404(lambda: docs.tournament_stage(tournament, _int(request.GET.get("stage"))))
    document = docs.StandingsDocument(tournament=tournament, stage=stage, base_url=docs.site_url(request),
                                      ratings=request.GET.get("ratings") in ("1", "yes", "on", "true"))
    return _respond(request, document, fmt, page_url=reverse("print-standings", args=[pk]),
                    back_url=_url("tournament-standings", pk))


@_guarded
def print_bracket(request: HttpRequest, pk: int, fmt: str = "html") -> HttpResponse:
    tournament = _tournament(request, pk)
    document = _document_or_404(lambda: docs.BracketDocument(
        tournament=tournament, stage=docs.tournament_stage(
            tournament, _int(request.GET.get("stage")) or docs.last_knockout(tournament)),
        base_url=docs.site_url(request)))
    return _respond(request, document, fmt, page_url=reverse("print-bracket", args=[pk]),
                    back_url=_url("tournament-bracket", pk))


def _round_document(request: HttpRequest, pk: int, round_id: int, cls: type[docs.Document]) -> docs.Document:
    tournament = _tournament(request, pk)
    round_ = _document_or_404(lambda: docs.tournament_round(tournament, round_id))
    return cls(tournament=tournament, round=round_, base_url=docs.site_url(request))  # type: ignore[call-arg]


@_guarded
def print_seating(request: HttpRequest, pk: int, round_id: int, fmt: str = "html") -> HttpResponse:
    document = _round_document(request, pk, round_id, docs.SeatingDocument)
    return _respond(request, document, fmt, page_url=reverse("print-seating", args=[pk, round_id]),
                    back_url=_url("tournament-tables", pk))


@_guarded
def print_table_cards(request: HttpRequest, pk: int, round_id: int, fmt: str = "html") -> HttpResponse:
    document = _round_document(request, pk, round_id, docs.TableCardsDocument)
    return _respond(request, document, fmt, page_url=reverse("print-table-cards", args=[pk, round_id]),
                    back_url=_back(document.tournament))


@_guarded
def print_venue_cards(request: HttpRequest, pk: int, fmt: str = "html") -> HttpResponse:
    """A card per physical table with its permanent link, printed once for the whole event."""
    tournament = _tournament(request, pk)
    _require_organizer(request, tournament)  # the cards carry the tables' secret links
    document = docs.VenueCardsDocument(tournament=tournament, base_url=docs.site_url(request))
    return _respond(request, document, fmt, page_url=reverse("print-venue-cards", args=[pk]),
                    back_url=reverse("tournament-manage", args=[pk]) + "#venue-tables")


@_guarded
def print_player_cards(request: HttpRequest, pk: int, fmt: str = "html") -> HttpResponse:
    """A card per player with the player's private link and its QR code (online play)."""
    tournament = _tournament(request, pk)
    _require_organizer(request, tournament)  # the cards carry the players' secret links
    document = PlayerCardsDocument(tournament=tournament, base_url=docs.site_url(request))
    return _respond(request, document, fmt, page_url=reverse("print-player-cards", args=[pk]),
                    back_url=reverse("player-links", args=[pk]))


@_guarded
def print_score_sheets(request: HttpRequest, pk: int, round_id: int, fmt: str = "html") -> HttpResponse:
    tournament = _tournament(request, pk)
    _require_organizer(request, tournament)  # before building: the sheets carry the secret links
    document = _round_document(request, pk, round_id, docs.ScoreSheetsDocument)
    return _respond(request, document, fmt, page_url=reverse("print-score-sheets", args=[pk, round_id]),
                    back_url=_back(tournament))


def _match(request: HttpRequest, match_id: int) -> Match:
    match = docs.match_for_print(match_id)
    if match is None or not can_view(request.user, match.stage.tournament):
        raise Http404(_("No such match."))
    return match


@_guarded
def print_match_score_sheet(request: HttpRequest, match_id: int, fmt: str = "html") -> HttpResponse:
    match = _match(request, match_id)
    tournament = match.stage.tournament
    _require_organizer(request, tournament)
    document = docs.ScoreSheetsDocument(tournament=tournament, matches=[match], base_url=docs.site_url(request))
    return _respond(request, document, fmt, page_url=reverse("print-match-score-sheet", args=[match_id]),
                    back_url=_url("match-detail", match_id))


@_guarded
def print_result_slip(request: HttpRequest, match_id: int, fmt: str = "html") -> HttpResponse:
    match = _match(request, match_id)
    document = _document_or_404(lambda: docs.ResultSlipDocument(tournament=match.stage.tournament, match=match,
                                                                base_url=docs.site_url(request)))
    return _respond(request, document, fmt, page_url=reverse("print-result-slip", args=[match_id]),
                    back_url=_url("match-detail", match_id))


def _count(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("count", 1)), docs.ON_DEMAND_MAX_UNITS))
    except ValueError:
        return 1


@_guarded
def print_tournament_blank_sheets(request: HttpRequest, pk: int, fmt: str = "html") -> HttpResponse:
    tournament = _tournament(request, pk)
    document = docs.BlankSheetsDocument(tournament=tournament, count=_count(request), base_url=docs.site_url(request))
    return _respond(request, document, fmt, page_url=reverse("print-tournament-blank-sheets", args=[pk]),
                    back_url=_url("tournament-detail", pk))


@_guarded
def print_blank_sheets(request: HttpRequest, variant: str, fmt: str = "html") -> HttpResponse:
    """Blank sheets for walk-in games, no tournament: ``?players=3`` (Yongzhou), ``?count=``."""
    if variant not in Variant.values:
        raise Http404(_("Unknown variant."))
    spec = variants.get(variant)
    asked = request.GET.get("players")
    players = None
    if spec.variable_players:  # Yongzhou: 4 unless asked for 3
        players = int(asked) if asked in {str(n) for n in spec.players} else max(spec.players)
    document = docs.BlankSheetsDocument(variant=variant, players=players, count=_count(request))
    return _respond(request, document, fmt, page_url=reverse("print-blank-sheets", args=[variant]))


# --------------------------------------------------------------------------- bulk jobs

def _jobs_context(tournament: Tournament) -> dict[str, Any]:
    print_job_services.print_jobs_fail_stale(tournament=tournament)  # a job whose worker vanished
    jobs = printing_services.print_jobs_of(tournament)
    return {"tournament": tournament, "jobs": jobs,
            "polling": any(j.status in (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING) for j in jobs)}


@_guarded
def print_jobs(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's printables: documents on demand, bulk runs per round, the files made so far."""
    tournament = _tournament(request, pk)
    _require_organizer(request, tournament)
    rounds = list(Round.objects.filter(stage__tournament=tournament).select_related("stage")
                  .order_by("stage__number", "number"))
    for round_ in rounds:
        round_.label = selectors.round_label(round_.name) if round_.name else str(round_)  # type: ignore[attr-defined]
    stages = list(tournament.stages.filter(format__in=docs.BRACKET_FORMATS).order_by("number"))
    finished = list(Match.objects.filter(stage__tournament=tournament, status=Match.Status.FINISHED)
                    .exclude(entry0=None).exclude(entry1=None)
                    .select_related("round", "entry0__team", "entry1__team", "entry0__player", "entry1__player")
                    .order_by("round__number", "position"))
    context = {**_jobs_context(tournament), "rounds": rounds, "stages": stages, "finished": finished,
               "variants": Variant.choices, "max_on_demand": docs.ON_DEMAND_MAX_UNITS}
    return render(request, "tournaments/print_jobs.html", context)


@_guarded
def print_job_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The list of jobs alone (htmx polls it while a job is queued or running)."""
    tournament = _tournament(request, pk)
    _require_organizer(request, tournament)
    return render(request, "tournaments/print/_jobs.html", _jobs_context(tournament))


@require_POST
@idempotent_page
def print_job_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Start a bulk run: ``kind`` (score-sheets, table-cards, seating, standings, bracket, blank-sheets)
    with ``round``, ``stage`` or ``count``. Answers with the job list (htmx) or back to the page."""
    tournament = _tournament(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("print-jobs", args=[pk]))
    _require_organizer(request, tournament)
    kind = request.POST.get("kind", "")
    params = {key: request.POST[key] for key in ("round", "stage", "count") if request.POST.get(key)}
    try:
        job = printing_services.print_job_create(tournament=tournament, kind=kind, params=params, user=request.user,
                                    base_url=docs.site_url(request))
    except (docs.DocumentError, ValueError) as exc:
        if request.htmx:
            # 200: htmx swaps only successful answers in; the list shows the error above the files
            return render(request, "tournaments/print/_jobs.html", {**_jobs_context(tournament), "error": str(exc)})
        messages.error(request, str(exc))
        return HttpResponseRedirect(reverse("print-jobs", args=[pk]))
    job.refresh_from_db()
    if request.htmx:
        return render(request, "tournaments/print/_jobs.html", _jobs_context(tournament))
    if job.status == PrintJob.Status.FAILED:
        messages.error(request, _("“%(t)s” failed: %(e)s") % {"t": job.title, "e": job.error})
    elif job.status == PrintJob.Status.DONE:
        messages.success(request, _("“%(t)s” is ready.") % {"t": job.title})
    else:
        messages.info(request, _("“%(t)s” has been queued; this page shows its progress.") % {"t": job.title})
    return HttpResponseRedirect(reverse("print-jobs", args=[pk]))


@require_POST
@idempotent_page
def print_job_retry(request: HtmxHttpRequest, job_id: int) -> HttpResponse:
    """Queue a failed job again ("Try again" on the print page)."""
    job = get_object_or_404(PrintJob.objects.select_related("tournament"), pk=job_id)
    tournament = _tournament(request, job.tournament_id)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("print-jobs", args=[tournament.pk]))
    try:
        print_job_services.print_job_retry(job_id=job.pk, actor=Actor(request.user))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except ServiceError as exc:
        messages.error(request, " ".join(m for errors in exc.field_errors.values() for m in errors))
    if request.htmx:
        return render(request, "tournaments/print/_jobs.html", _jobs_context(tournament))
    return HttpResponseRedirect(reverse("print-jobs", args=[tournament.pk]))


def _job_detail(job: PrintJob) -> str:
    """The round of a per-round bulk job, for its file name."""
    round_pk = _int(job.params.get("round"))
    if round_pk is None:
        return ""
    round_ = Round.objects.select_related("stage").filter(pk=round_pk, stage__tournament=job.tournament).first()
    if round_ is None:
        return ""
    return f"stage {round_.stage.number} round {round_.number}" if round_.stage.number > 1 else f"round {round_.number}"


@_guarded
def print_job_download(request: HttpRequest, job_id: int) -> FileResponse:
    job = get_object_or_404(PrintJob.objects.select_related("tournament"), pk=job_id)
    if not can_view(request.user, job.tournament):
        raise Http404(_("No such file."))
    _require_organizer(request, job.tournament)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("The file is not ready."))
    response = FileResponse(job.file.open("rb"), content_type="application/pdf")
    disposition = "inline" if request.GET.get("inline") == "1" else "attachment"
    response["Content-Disposition"] = docs.content_disposition(
        docs.file_names(job.tournament, job.kind, _job_detail(job)), disposition)
    response["Cache-Control"] = "private, no-store"
    return response
