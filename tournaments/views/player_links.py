"""Players' private links (docs/online.md, "Tournament matches"): ``/p/<token>/`` (the player, no account
needed: the current online match and a button that takes the player's seat, or what is next; a revoked link
says so and writes nothing; a malformed or unknown one is a 404) and ``/tournaments/<pk>/player-links/``
(organizers: every player's link to copy or show as a QR code, make the missing ones, revoke, reissue)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import selectors
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import PlayerLink, Tournament
from tournaments.permissions import is_organizer
from tournaments.services import player_links as links
from tournaments.services.common import Actor


def player_link_url(request: HttpRequest, link: PlayerLink) -> str:
    return request.build_absolute_uri(reverse("player-link", args=[links.link_token(link)]))


@require_http_methods(["GET", "HEAD", "POST"])
def player_link(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page: GET shows the match to play (or what is next) and writes nothing; POST takes the
    seat (a new seat token, handed to the room page in the address's fragment: never sent to a server)."""
    link = links.player_link_for_token(token)
    if link is None:
        raise Http404
    context: dict[str, Any] = {"link": link, "tournament": link.tournament, "player": link.player}
    if link.revoked_at is not None:
        return render(request, "tournaments/player_link.html", {**context, "revoked": True}, status=410)
    if links.link_expired(link):
        return render(request, "tournaments/player_link.html", {**context, "expired": True}, status=410)
    if request.method == "POST" and request.POST.get("action") == "account":
        try:
            links.player_link_account(link=link, user=request.user)
        except ServiceError as exc:
            _errors(request, exc)
        else:
            messages.success(request, _("Your account is linked to this player: “My matches” opens your table."))
        return HttpResponseRedirect(request.path)
    if request.method == "POST":
        return _take_seat(request, link, back=request.path)
    now = links.player_next(link)
    context.update(now=now, round=selectors.round_label(now.match.round.name) if now.match else "",
                   seat_number=(now.seat + 1) if now.seat is not None else None)
    return render(request, "tournaments/player_link.html", context)


def _errors(request: HttpRequest, exc: ServiceError) -> None:
    for problems in exc.field_errors.values():
        for problem in problems:
            messages.error(request, problem)


def _take_seat(request: HttpRequest, link: PlayerLink, *, back: str) -> HttpResponse:
    """Take the player's seat (a new seat token) and go to the room, the token in the address's fragment."""
    try:
        room, _seat, seat_token = links.player_link_open(link=link)
    except ServiceError as exc:
        _errors(request, exc)
        return HttpResponseRedirect(back)
    return HttpResponseRedirect(f"{reverse('online-room', args=[room.code])}#seat={seat_token}")


@require_http_methods(["GET", "HEAD", "POST"])
def my_matches(request: HttpRequest) -> HttpResponse:
    """A signed-in player's online matches in every tournament where the account is linked to the player
    (no private link needed); POST takes the seat of one of them."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    mine = links.account_links(request.user)
    if request.method == "POST":
        link = next((row for row in mine if row.pk == _int(request.POST.get("link"))), None)
        if link is None:
            raise Http404
        return _take_seat(request, link, back=request.path)
    rows = []
    for link in mine:
        now = links.player_next(link)
        rows.append({"link": link, "now": now,
                     "round": selectors.round_label(now.match.round.name) if now.match else "",
                     "seat_number": (now.seat + 1) if now.seat is not None else None})
    return render(request, "tournaments/my_matches.html", {"rows": rows})


def _organizer_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    return tournament


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@require_http_methods(["GET", "HEAD", "POST"])
def player_links_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organizer_tournament(request, pk)
    actor = Actor(request.user, "login")
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "create":
                made = links.player_links_ensure(tournament=tournament, actor=actor)
                messages.success(request, _("%(n)d player links made.") % {"n": made})
            elif action == "revoke":
                links.player_link_revoke(tournament=tournament, link_id=_int(request.POST.get("link")), actor=actor)
                messages.success(request, _("The link was revoked: it no longer opens anything."))
            elif action == "reissue":
                links.player_link_reissue(tournament=tournament, link_id=_int(request.POST.get("link")), actor=actor)
                messages.success(request, _("A new link was made: send it to the player."))
            else:
                messages.error(request, _("Unknown action."))
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        except ServiceError as exc:
            for problems in exc.field_errors.values():
                for problem in problems:
                    messages.error(request, problem)
        return HttpResponseRedirect(f"{request.path}#player-links")
    live = {link.player_id: link for link in PlayerLink.objects.filter(tournament=tournament, revoked_at__isnull=True)}
    revoked: dict[int, int] = {}
    for player_id in PlayerLink.objects.filter(tournament=tournament, revoked_at__isnull=False).values_list(
            "player_id", flat=True):
        revoked[player_id] = revoked.get(player_id, 0) + 1
    rows = [{"player": p, "link": live.get(p.pk), "revoked": revoked.get(p.pk, 0),
             "url": player_link_url(request, live[p.pk]) if p.pk in live else ""}
            for p in links.tournament_players(tournament)]
    return render(request, "tournaments/player_links.html", {
        "tournament": tournament, "is_organizer": True, "is_scorer": True, "rows": rows,
        "missing": sum(1 for row in rows if row["link"] is None),
    })
