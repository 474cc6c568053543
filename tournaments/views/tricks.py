"""Pages of trick-by-trick entry and the live featured table.

* The entry page (``/matches/{id}/score/tricks/`` for scorers, ``/t/{token}/tricks/`` for a table
  link) is a phone page driven by the REST API (``/api/v1/matches/{id}/trick-entry/``): the draft is
  kept on the server, so a reload or another device continues it.
* The live page (``/matches/{id}/live/``, ``?big=1`` for a projector) is public for a public
  tournament and follows the hand on the WebSocket ``ws/live/matches/{id}/`` (``tournaments/consumers.py``:
  the state is pushed once per change, a watcher costs no thread and no query in between). Its fallback,
  kept for browsers or proxies without WebSockets and for other clients, is the Server-Sent Events
  stream ``/matches/{id}/live/stream/``: a streaming view that checks a cheap change signal
  (:func:`tournaments.services.trick_entry.live_signal`: two indexed one-row queries) every 0.25 s and
  sends the new state when it changes; each open stream holds one worker thread for up to
  ``TRICK_LIVE_STREAM_SECONDS`` (then the browser reconnects).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from gameplay.hand import LOG_FORMAT
from gameplay.notation import replay
from rules_web.referee_views import PICKER
from rules_web.replay_views import hand_from_record, render_replay
from tournaments.labels import round_label, seat_player, seat_players
from tournaments.models import Match, TrickDraft
from tournaments.permissions import can_view, is_scorer
from tournaments.selectors import seat_names
from tournaments.services import trick_entry as svc
from tournaments.services.hand_summary import players_in_seats
from tournaments.views.table_grants import granted_match

POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0


def _match(pk: int) -> Match:
    return get_object_or_404(Match.objects.select_related("stage__tournament", "round", "entry0__team",
                                                          "entry0__player", "entry1__team", "entry1__player"), pk=pk)


def _entry_context(match: Match, token: str | None, back_url: str) -> dict[str, Any]:
    tournament = match.stage.tournament
    state = svc.live_state(match)
    words = {
        "seat": _("Seat"), "to_play": _("to play"), "leads": _("leads"), "wins": _("wins the trick"),
        "points": _("points"), "trick": _("Trick"), "flag": _("Flag"), "error": _("Error"),
        "complete": _("Every card is played: check the result and record the hand."),
        "stale": _("Someone else changed this hand first: reloaded."),
        "recorded": _("Hand {n} recorded."), "no_cards": _("Tap the cards first."),
        "confirm_discard": _("Throw away the tricks entered for this hand?"),
        "choose_trump": _("Choose the trump suit, or “No trump”."),
        "hand_title": _("Hand %(n)s") % {"n": match.hands_played + 1},
        "result": _("Result"), "replay": _("Replay this hand"), "match": _("Back to the match"),
        "variant": tournament.get_variant_display(), "level": _("Level"), "bid": _("Bid"),
        "no_trump": _("no trump"), "small_joker": "小王", "big_joker": "大王",
    }
    # After the first hand of a partnership match the match itself says who deals: shown, not asked.
    known_dealer = state.get("dealer") if tournament.is_partnership and match.hands_played else None
    return {
        "tournament": tournament, "match": match, "picker": PICKER, "back_url": back_url,
        "config": {"api": f"/api/v1/matches/{match.pk}/trick-entry/", "token": token or "",
                   "variant": tournament.variant, "seats": state["seats"], "hands_played": match.hands_played,
                   "seat_labels": seat_players(tournament, state["seats"]),
                   "partnership": tournament.is_partnership, "words": words,
                   # whether a hand is being entered: without one the page starts on the facts (no 404 asked for)
                   "draft": TrickDraft.objects.filter(match=match, number=match.hands_played + 1).exists(),
                   "live": reverse("match-live", args=[match.pk])},
        "first_hand": not match.hands_played, "state": state, "known_dealer": known_dealer,
        "known_dealer_label": "" if known_dealer is None else
        seat_player(tournament, known_dealer, seat_names(match)[int(known_dealer)]),
    }


@require_safe
def trick_entry_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    if not is_scorer(request.user, match.stage.tournament):
        if not can_view(request.user, match.stage.tournament):
            raise Http404(_("No such match."))
        raise PermissionDenied(_("You are not a scorer of this tournament."))
    return render(request, "tournaments/trick_entry.html",
                  _entry_context(match, None, reverse("match-score", args=[pk])))


@require_safe
def trick_entry_by_link(request: HttpRequest, token: str) -> HttpResponse:
    found = Match.objects.filter(scorer_token=token).only("pk").first() if token else None
    if found is None:
        raise Http404(_("No such table link."))
    match = _match(found.pk)
    return render(request, "tournaments/trick_entry.html",
                  _entry_context(match, token, reverse("table-link", args=[token])))


@require_safe
def trick_entry_by_session(request: HttpRequest, pk: int) -> HttpResponse:
    """Trick entry for a table opened by its link: the session holds the grant, the address no token
    (the page's script sends the token in a header, never in a URL)."""
    match, token = granted_match(request, pk)
    return render(request, "tournaments/trick_entry.html",
                  _entry_context(_match(match.pk), token, reverse("table-session", args=[pk])))


def _visible_match(request: HttpRequest, pk: int) -> Match:
    match = _match(pk)
    if not can_view(request.user, match.stage.tournament):
        raise Http404(_("No such match."))
    return match


@require_safe
def live_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = _visible_match(request, pk)
    state = svc.live_state(match)
    return render(request, "tournaments/live.html", {
        "tournament": match.stage.tournament, "match": match, "big": request.GET.get("big") == "1",
        "state": state, "stream_url": reverse("match-live-stream", args=[pk]), "ws_path": f"/ws/live/matches/{pk}/",
        "words": {"seat": _("Seat"), "hand": _("Hand"), "trick": _("Trick"), "to_play": _("to play"),
                  # numbered as people say them: "Hand 3" / "第 3 局", "Trick 8" / "第 8 轮" ({n} filled in)
                  "hand_n": _("Hand {n}"), "trick_n": _("Trick {n}"),
                  # the seats as people read them, with their players ("Seat 1 · Zhang Wei", "东家 · 张伟")
                  "seat_labels": seat_players(match.stage.tournament, state["seats"]),
                  "points": _("points"), "levels": _("Levels"), "totals": _("Totals"), "trump": _("Trump"),
                  "dealer": _("Dealer"), "waiting": _("Waiting for the next hand to be entered."),
                  "live": _("live"), "reconnecting": _("reconnecting…"), "wins": _("wins the trick"),
                  "hands": _("hands played")},
    })


def _event(state: dict[str, Any], number: int) -> str:
    return f"id: {number}\nevent: state\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"


class LiveStream:
    """One table's event stream, one check at a time (the sync and the async loop below share it)."""

    def __init__(self, match_id: int, seconds: float | None = None) -> None:
        self.match_id = match_id
        self.limit = time.monotonic() + (seconds if seconds is not None
                                         else float(getattr(settings, "TRICK_LIVE_STREAM_SECONDS", 120)))
        self.last: Any = object()
        self.beat = time.monotonic()
        self.number = 0

    def open(self) -> bool:
        return time.monotonic() < self.limit

    def step(self) -> str | None:
        """The next event if the table changed, a comment when it has been quiet a while, else None."""
        signal = svc.live_signal(self.match_id)
        if signal != self.last:
            self.last = signal
            self.number += 1
            self.beat = time.monotonic()
            return _event(svc.live_state(_match(self.match_id)), self.number)
        if time.monotonic() - self.beat > HEARTBEAT_SECONDS:
            self.beat = time.monotonic()
            return ": still here\n\n"
        return None

    def step_apart(self) -> str | None:
        """:meth:`step` in a worker thread of the shared pool, its connection closed after when due."""
        try:
            return self.step()
        finally:
            close_old_connections()


def live_events(match_id: int, *, seconds: float | None = None, poll: float = POLL_SECONDS) -> Iterator[str]:
    """The event stream of one table: the state now, then the state after every change, until
    ``seconds`` have passed (the browser then reconnects); comments keep idle connections open."""
    stream = LiveStream(match_id, seconds)
    yield "retry: 1000\n\n"
    while stream.open():
        chunk = stream.step()
        if chunk is not None:
            yield chunk
        time.sleep(poll)


async def live_events_async(match_id: int, *, seconds: float | None = None,
                            poll: float = POLL_SECONDS) -> AsyncIterator[str]:
    """:func:`live_events` for an ASGI server, which would otherwise read a sync stream to its end before
    sending any of it: no thread is held between checks (each runs in the shared pool)."""
    stream = LiveStream(match_id, seconds)
    step = sync_to_async(stream.step_apart, thread_sensitive=False)
    yield "retry: 1000\n\n"
    while stream.open():
        chunk = await step()
        if chunk is not None:
            yield chunk
        await asyncio.sleep(poll)


@require_safe
def live_stream(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """The live table by Server-Sent Events: the fallback of the page's WebSocket, kept for other clients."""
    match = _visible_match(request, pk)
    events: Iterator[str] | AsyncIterator[str] = (
        live_events_async(match.pk) if isinstance(request, ASGIRequest) else live_events(match.pk))
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer the stream
    return response


@require_safe
def recorded_hand_replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A hand recorded trick by trick, on the replay page: steps through its tricks like a simulated hand."""
    from config.i18n import core_lang
    from tournaments.models import HandRecord

    lang = core_lang()
    hand = (HandRecord.objects.select_related("match")
            .filter(match_id=pk, number=number).first())
    if hand is None or not can_view(request.user, _match(pk).stage.tournament):
        raise Http404
    page = replay_page_words(_match(pk), number)
    if not hand.trick_log:
        msg = _("This hand was entered by its totals: there are no tricks to show.")
        return render_replay(request, hand=None, record=None, error=msg, lang=lang, page=page)
    if hand.trick_log.get("format") == LOG_FORMAT:  # a hand played online: the room's log, replayed
        return render_replay(request, hand=replay(hand.trick_log), record=None, error="", lang=lang, page=page)
    record = {k: v for k, v in hand.trick_log.items() if k in ("format", "facts", "tricks")}
    found, error = hand_from_record(record, lang)
    return render_replay(request, hand=found, record=record if found is not None else None, error=error, lang=lang,
                         page=page)


def replay_page_words(match: Match, number: int) -> dict[str, Any]:
    """What the replay page of hand ``number`` of ``match`` says of the tournament, as plain data for
    :func:`rules_web.replay_views.render_replay`: its title, the match, the way back and the seats
    with their players."""
    tournament = match.stage.tournament
    players = players_in_seats(match)
    sides = [entry.name for entry in (match.entry(0), match.entry(1)) if entry is not None]
    return {
        "tournament": tournament.name, "tournament_url": reverse("tournament-detail", args=[tournament.pk]),
        "title": _("Replay of hand %(n)s") % {"n": number},
        "match": (" – ".join(str(name) for name in sides) if len(sides) == 2
                  else _("Table %(n)s") % {"n": match.table or match.key}),
        "round": round_label(match.round.name) if match.round_id else "", "key": match.key,
        "variant_name": tournament.get_variant_display(),
        "back_url": reverse("match-detail", args=[match.pk]), "live_url": reverse("match-live", args=[match.pk]),
        "seat_labels": seat_players(tournament, players), "side_labels": [str(name) for name in sides],
    }
