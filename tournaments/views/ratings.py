"""Rating pages (docs/ratings.md): the ladder of the site or of a club (sortable, paged, as CSV) and a
player's rating page (the history as a server-rendered SVG chart, recent matches, partners).

Public: players marked private, and players seen only in private tournaments, are never shown (404)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.models import Club, RatingFamily
from tournaments.selectors import ratings as rating_reads
from tournaments.services import transfer as transfer_services

PAGE_SIZE = 100


def _club(request: HttpRequest, club: int | None) -> Club | None:
    if club is None:
        return None
    return get_object_or_404(rating_reads.clubs_visible(request.user), pk=club)


def _choice(request: HttpRequest) -> dict[str, Any]:
    """The family and the order asked for in the query string (unknown values: the defaults)."""
    family = rating_reads.family_of_request(request.GET.get("family"))
    sort = str(request.GET.get("sort")) if request.GET.get("sort") in rating_reads.SORTS else "rank"
    return {"family": family, "sort": sort, "reverse": request.GET.get("reverse") == "1"}


# Each column's natural order, as ``aria-sort`` says it (rank 1 first; the most, the highest first; A to Z).
NATURAL = {"rank": "ascending", "name": "ascending", "rating": "descending", "matches": "descending",
           "trend": "descending"}
FLIP = {"ascending": "descending", "descending": "ascending"}


def _columns(sort: str, reverse: bool) -> list[dict[str, Any]]:
    """The ladder's sortable headers: each links to its natural order; the current one to the reverse."""
    labels = [("rank", _("Rank"), True), ("name", _("Player"), False), ("rating", _("Rating"), True),
              ("matches", _("Matches"), True), ("trend", _("Trend"), True)]
    columns = []
    for key, label, numeric in labels:
        current = key == sort or (sort == "rating" and key == "rank") or (sort == "rank" and key == "rating")
        aria = (FLIP[NATURAL[key]] if reverse else NATURAL[key]) if current else None
        columns.append({"key": key, "label": label, "numeric": numeric, "current": current, "aria": aria,
                        "reverse": "1" if current and not reverse else "0",
                        "arrow": {"ascending": "↑", "descending": "↓"}.get(aria or "", "")})
    return columns


@require_safe
def ladder(request: HttpRequest, club: int | None = None) -> HttpResponse:
    picked = request.GET.get("club")
    if club is None and picked and picked.isdigit():  # the ladder picker (a GET form): the club's own address
        return redirect(f"{reverse('ratings-club', args=[int(picked)])}?family={_choice(request)['family']}")
    the_club = _club(request, club)
    choice = _choice(request)
    rows = rating_reads.ladder(user=request.user, club=the_club, **choice)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "tournaments/ratings/ladder.html", {
        "club": the_club, "clubs": rating_reads.clubs_visible(request.user), "page": page,
        "families": RatingFamily.choices, "columns": _columns(choice["sort"], choice["reverse"]), **choice,
    })


@require_safe
def ladder_csv(request: HttpRequest, club: int | None = None) -> HttpResponse:
    """The whole ladder as CSV (UTF-8 with a BOM; cells a spreadsheet would run are neutralised)."""
    the_club = _club(request, club)
    choice = _choice(request)
    rows = [{"rank": r.rank, "player": r.player.name,  # type: ignore[attr-defined]  # rank: annotated by ladder()
             "club": r.player.club, "rating": r.display, "matches": r.matches, "trend": r.trend, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)}
            for r in rating_reads.ladder(user=request.user, club=the_club, **choice)]
    columns = [("rank", _("Rank")), ("player", _("Player")), ("club", _("Club")), ("rating", _("Rating")),
               ("matches", _("Matches")), ("trend", _("Trend")), ("mu", "mu"), ("sigma", "sigma")]
    response = HttpResponse(transfer_services.standings_csv(rows, columns), content_type="text/csv; charset=utf-8")
    scope = f"club-{the_club.pk}" if the_club else "site"
    response["Content-Disposition"] = f'attachment; filename="ratings-{scope}-{choice["family"]}.csv"'
    return response


@require_safe
def player_ratings(request: HttpRequest, pk: int) -> HttpResponse:
    player = rating_reads.players_shown(request.user).filter(pk=pk).first()
    if player is None:
        raise Http404(_("No such player."))
    club_id = request.GET.get("club")
    the_club = _club(request, int(club_id)) if club_id and club_id.isdigit() else None
    family = rating_reads.family_of_request(request.GET.get("family"))
    data = rating_reads.player_ratings(player=player, user=request.user, family=family, club=the_club)
    if data.rating is None and data.pools and "family" not in request.GET:
        first = data.pools[0].pool  # no rating in the default ladder: show the first one the player has
        the_club, family = first.club, first.family
        data = rating_reads.player_ratings(player=player, user=request.user, family=family, club=the_club)
    initial = rating_reads.initial_display(the_club)
    chart = rating_reads.rating_chart(data.history, initial=initial)
    rank = rating_reads.rank_of(data.rating, request.user) if data.rating else None
    return render(request, "tournaments/ratings/player.html", {
        "player": player, "data": data, "chart": chart, "club": the_club, "family": family, "rank": rank,
        "family_label": RatingFamily(family).label, "initial": initial,
        "pools": [p for p in data.pools if p.pool.club is None or p.pool.club.is_public
                  or request.user.is_staff],
    })
