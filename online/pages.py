"""The pages of online play (docs/online.md, "The pages"): "Play" creates a room, the room page seats a
player or a spectator and hosts the table (``static/js/online-table.js`` on the WebSocket), a finished
hand's page steps through it trick by trick (the site's replay page, reused).

Secrets never sit in a URL the server sees: after creating or joining, the redirect carries the seat
(and host) token in the fragment (``#seat=…&host=…``), which the table's script moves into
``localStorage`` (``online-seat-<code>``, ``online-host-<code>``) and strips from the address bar.
"""

from __future__ import annotations

import base64
import io
import json
from urllib.parse import urlencode

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from online import services
from online.forms import SHOWN, JoinForm, RoomForm, variant_name
from online.models import Room, RoomHand, Seat
from variants import SUIT_SYMBOLS, VARIANTS
from variants.seats import en_seat, zh_seat


def table_words() -> dict[str, str]:
    """The table's words in the page's language (``{n}``-style fields the script fills in)."""
    return {
        "seat_n": _("Seat {n}"), "you": _("You"), "host": _("Host"), "empty_seat": _("Empty seat"),
        "bot": _("Bot"), "auto": _("Auto-play (托管)"), "online": _("online"), "offline": _("offline"),
        "ready": _("Ready"), "is_ready": _("ready"), "give_heuristic": _("Normal bot"),
        "give_easy": _("Easy bot"), "give_strong": _("Strong bot"),
        "give_random": _("Random bot"), "take_back": _("Free the seat"),
        "play": _("Play"), "bury": _("Bury"), "declare": _("Declare"), "overturn": _("Overturn"),
        "insure": _("Insure"), "pass": _("Pass"), "bid": _("Bid {n}"), "trump_is": _("{suit} trump"),
        "no_trump": _("no trump"), "rematch": _("Rematch"), "pick_cards": _("Tap cards to pick them"),
        "pick_n": _("Pick {n} cards"), "your_turn": _("Your turn"), "turn_of": _("{name}'s turn"),
        "trump": _("Trump"), "level": _("Level"), "winning": _("winning"),
        "last_trick": _("The trick before"), "hide_last": _("Hide the trick before"), "no_last": _("No trick yet."),
        "result": _("Result"), "replay": _("Replay of hand {n}"), "hand_n": _("Hand {n}"), "dealer": _("Dealer"),
        "kitty": _("Kitty"), "declared": _("Declared"), "bids": _("Bids"), "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"), "replaced": _("This seat was opened elsewhere."),
        "reopen": _("Open it here"), "watching": _("You are watching."),
        "delayed": _("Spectators see this table one trick behind."), "cards_n": _("{n} cards"),
        "seconds": _("{s} s"), "match_over": _("The match is over."), "levels": _("Levels"),
        "totals": _("Totals"), "side_n": _("Side {n}"), "hands_played": _("Hands played: {n}"),
        "winner": _("{side} won the match."), "lost_seat": _("This browser's seat is no longer valid."),
        "clear": _("Clear"), "took": _("took {n}"), "waiting": _("Waiting for every seat to be ready."),
        "fill_seats": _("Give the empty seats to bots, or share the link."), "dealing": _("Dealing…"),
        "spades": _("spades"), "hearts": _("hearts"), "clubs": _("clubs"), "diamonds": _("diamonds"),
        "card_of": "{rank} of {suit}", "ace": "ace", "king": "king", "queen": "queen", "jack": "jack", "big_joker": _("Big joker"), "little_joker": _("Little joker"),
        "big_joker_short": _("BJ"), "little_joker_short": _("LJ"), "leads": _("leads"),
        "phase_deal": _("Dealing"), "phase_declare": _("Declaring"), "phase_bid": _("Bidding"),
        "phase_name_trump": _("Naming trump"), "phase_kitty": _("Burying the kitty"),
        "phase_bury": _("Burying the kitty"), "phase_overturn": _("Overturning"), "phase_play": _("Playing"),
        "phase_scored": _("Hand over"), "contract": _("Bid: {n}"), "all_hands": _("Every hand"),
        "your_hand": _("Your cards"),
    }


def _user(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    return request.user


def _lang() -> str:
    return "zh-hans" if (get_language() or "").startswith("zh") else "en"


def qr_data_uri(text: str) -> str:
    """A QR code of ``text`` as a PNG data URI (one pixel per module; the page scales it up sharply)."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=1, border=2)
    code.add_data(text)
    code.make(fit=True)
    buffer = io.BytesIO()
    code.make_image().save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _room_url(code: str, **secrets: str) -> str:
    url = reverse("online-room", args=[code])
    fragment = urlencode({k: v for k, v in secrets.items() if v})
    return f"{url}#{fragment}" if fragment else url


def _put_error(form: RoomForm | JoinForm, err: services.OnlineError) -> None:
    """A service's refusal on the field it names (in the page's language), else on the form."""
    text = err.message[_lang()]
    field = err.field or None
    if isinstance(form, RoomForm) and field == "options":
        field = None
    form.add_error(field if field in form.fields else None, text)


@require_http_methods(["GET", "POST"])
def play_create(request: HttpRequest) -> HttpResponse:
    """"Play": choose the game and its rules, create the room, land on it as its host."""
    user = _user(request)
    if request.method == "POST":
        form = RoomForm(request.POST, user=user, variant=request.POST.get("variant"))
        if form.is_valid():
            d = form.cleaned_data
            try:
                created = services.room_create(
                    variant=d["variant"], options=d["options"], decks=d["decks"], players=d["players"],
                    clock=d["clock"], seating=d["seating"], hands=d["hands"], name=d["name"], seat=d["seat"],
                    user=user)
            except services.OnlineError as err:
                _put_error(form, err)
            else:
                return HttpResponseRedirect(_room_url(created.room.code, seat=created.seat_token or "",
                                                      host=created.host_token))
    else:
        form = RoomForm(user=user, variant=request.GET.get("variant"))
    chosen = form.data.get("variant") if form.is_bound else form.fields["variant"].initial
    return render(request, "online/create.html", {
        "form": form, "groups": form.option_groups(), "chosen": chosen if chosen in VARIANTS else "tractor",
        "shown_field": form[SHOWN],
        "status": 400 if form.is_bound else 200,
    }, status=400 if form.is_bound else 200)


def _seat_labels(seats: list[Seat]) -> list[str]:
    return [s.name or _("Seat %(n)s") % {"n": s.seat + 1} for s in seats]


@require_http_methods(["GET", "POST"])
def room_page(request: HttpRequest, code: str) -> HttpResponse:
    """The room: a join form (or "watch") for a visitor without a seat here, the table for a seated one. An
    owned room (a tournament's match) has no join form — its owner hands out the seats — but says who plays
    (a join posted anyway is refused, 403)."""
    room = get_object_or_404(Room, code=code.upper())
    if room.code != code:
        return HttpResponseRedirect(reverse("online-room", args=[room.code]))
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    user = _user(request)
    owned = bool(room.owner_kind)
    status = 200
    if request.method == "POST" and owned:
        form = JoinForm(room=room, seats=seats, user=user)
        status = 403
    elif request.method == "POST":
        form = JoinForm(request.POST, room=room, seats=seats, user=user)
        if form.is_valid():
            try:
                joined = services.room_join(code=room.code, name=form.cleaned_data["name"],
                                            seat=form.cleaned_data["seat"], user=user)
            except services.OnlineError as err:
                _put_error(form, err)
            else:
                return HttpResponseRedirect(_room_url(room.code, seat=joined.token))
        status = 400
    else:
        form = JoinForm(room=room, seats=seats, user=user)
    link = request.build_absolute_uri(reverse("online-room", args=[room.code]))
    variant = VARIANTS.get(room.variant)
    config = {
        "code": room.code, "ws": f"/ws/play/{room.code}/", "lang": _lang(),
        "variant": room.variant, "players": room.players, "partnership": bool(variant and variant.partnership),
        "words": table_words(), "suits": dict(SUIT_SYMBOLS),
        "join_open": not owned and room.status == Room.Status.WAITING and any(not s.taken for s in seats),
    }
    return render(request, "online/room.html", {
        "room": room, "seats": seats, "form": form, "link": link, "qr": qr_data_uri(link),
        "variant_name": variant_name(variant) if variant else room.variant, "config": config,
        "join_open": config["join_open"], "seat_labels": _seat_labels(seats), "owned": owned,
    }, status=status)


def hand_page(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A finished hand of the room, stepped through trick by trick as the site's replay page shows a hand
    (``rules_web.replay_views.replay_context`` and its template, with the room's seats and names); "Open it
    on the replay page" posts the log to ``/replay/``; ``?format=json`` downloads the ``shengji-hand/1`` log."""
    from rules_web.replay_views import replay_context

    room = get_object_or_404(Room, code=code)
    row = get_object_or_404(RoomHand, room=room, number=number)
    if not row.finished:
        raise Http404(_("This hand is still being played."))
    if request.GET.get("format") == "json":
        response = JsonResponse(row.log, json_dumps_params={"ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="{room.code}-hand-{number}.json"'
        return response
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    hand = services.hand_from_log(row.log)
    lang = _lang()
    seat_word = zh_seat if lang == "zh-hans" else en_seat
    labels = [" · ".join([seat_word(s.seat), *([s.name] if s.name else []), *([str(_("Bot"))] if s.bot else [])])
              for s in seats]
    room_url = reverse("online-room", args=[room.code])
    name = variant_name(VARIANTS[room.variant]) if room.variant in VARIANTS else room.variant
    page = {
        "tournament": f"{name} · {room.code}", "tournament_url": room_url, "round": "",
        "key": _("Hand %(n)s") % {"n": number}, "title": _("Replay of hand %(n)s") % {"n": number},
        "match": " · ".join(s.name for s in seats if s.name and not s.bot) or room.code, "variant_name": name,
        "back_url": room_url, "live_url": room_url, "seat_labels": labels, "online": True,
    }
    return render(request, "online/hand.html", {
        "page": page, "hand": replay_context(hand, lang, seat_labels=labels), "room": room, "number": number,
        "log_text": json.dumps(row.log, ensure_ascii=False), "error": "",
    })
