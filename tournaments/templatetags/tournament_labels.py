"""Template filters naming seats and sides the way players say them (tournaments.labels)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import labels

register = template.Library()


@register.filter
def seat_label(seat: Any, tournament: Any) -> str:
    """``{{ seat|seat_label:tournament }}`` → ``seat 1`` / ``East`` (``1号位`` / ``东家``)."""
    return labels.seat_label(tournament, seat)


@register.filter
def seat_short(seat: Any, tournament: Any) -> str:
    """``{{ seat|seat_short:tournament }}`` → ``1`` / ``E`` (``东``), for narrow columns."""
    return labels.seat_short(tournament, seat)


@register.simple_tag
def seat_player(tournament: Any, seat: Any, name: Any = None) -> str:
    """``{% seat_player tournament seat name %}`` → ``Seat 1 · Zhang Wei`` / ``东家 · 张伟``."""
    return labels.seat_player(tournament, seat, name)


@register.filter
def side_label(side: Any, match: Any) -> str:
    """``{{ side|side_label:match }}`` → the side's team name (``side 1`` while it is empty)."""
    return labels.side_label(match, side)


@register.inclusion_tag("tournaments/_live_changes.html")
def live_changes(tournament: Any) -> dict[str, Any]:
    """``{% live_changes tournament %}`` → the marker the live pages' script follows (``js/live-changes.js``):
    the tournament's change stamp as the page was drawn, the WebSocket that pushes its changes, and the
    URL that says when it moves (the fallback the script polls while the socket is not open)."""
    from django.urls import reverse

    from tournaments.selectors.stamps import changes_stamp

    return {"url": reverse("tournament-changes", args=[tournament.pk]), "stamp": changes_stamp(tournament.pk),
            "ws": f"/ws/live/tournaments/{tournament.pk}/"}
