"""What each seat and spectator may see: the ``state`` message of docs/online.md.

Built from the seat's :meth:`Hand.observation` and the hand's public facts (phase, dealer, trump, the
declarations and bids shown, the tricks on the table) only — never from another seat's cards. A spectator
gets no ``cards`` and no ``kitty``; every seat's dealt cards are shown (``result.hands``) once the hand ends.
A room with ``spectator_delay`` shows its spectators the hand one trick behind (:func:`one_trick_behind`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import Any

from gameplay.cards import CODE_NAMES, NCODES
from gameplay.events import Deal, Play, Redeal, Shuffle, Trick
from gameplay.hand import Hand
from gameplay.notation import apply_event
from gameplay.observation import Observation
from gameplay.order import Context
from online.models import Room, RoomHand, Seat
from online.tables import deck_source

__all__ = ["SUIT_CHOICES", "actions_for", "card_list", "one_trick_behind", "seat_view", "spectator_view", "state_texts"]

SUIT_CHOICES = ("S", "H", "C", "D", "NT")


def card_list(codes: Iterable[int], ctx: Context | None = None) -> list[str]:
    """Card names in the hand's order (trumps together, strongest last) once trump is known."""
    cs = list(codes)
    cs.sort(key=(lambda c: ctx.sortkey[c]) if ctx is not None else None)
    return [CODE_NAMES[c] for c in cs]


def _counts_to_list(counts: Sequence[int]) -> list[int]:
    return [c for c in range(NCODES) for _ in range(counts[c])]


def _room(room: Room, seats: Sequence[Seat], finished: Sequence[int]) -> dict[str, Any]:
    m = room.match
    match: dict[str, Any] = {"number": m.get("number", 1), "hands_played": m.get("hands", 0)}
    state = m.get("state")
    if "totals" in m:
        match.update(totals=m.get("totals") or [0] * room.players, dealer=m.get("dealer"),
                     hands_limit=room.hands_limit)
    else:
        match.update(levels=state["levels"] if state else None, dealer=state["dealer"] if state else None,
                     winner=m.get("winner"))
    return {
        "code": room.code, "variant": room.variant, "options": room.options, "decks": room.decks,
        "players": room.players, "clock": room.clock, "seating": room.seating, "status": room.status,
        "spectator_delay": room.spectator_delay,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "ready": s.ready or s.bot is not None,
                   "connected": s.connected > 0 or s.bot is not None, "auto": s.auto, "taken": s.taken}
                  for s in seats],
        "match": match,
        "hands": [{"number": n, "replay": f"/play/{room.code}/hands/{n}/"} for n in finished],
        "paused": room.paused,
    }


def _clock(room: Room) -> dict[str, Any] | None:
    if room.deadline_kind != "clock" or room.deadline is None:
        return None
    seconds = 30 if room.deadline_seat is not None and room.clock is None else room.clock
    deadline = int(room.deadline.timestamp() * 1000)
    now = int(time.time() * 1000)
    # remaining_ms: the time left when the message was made, so that a client counts from the moment it
    # receives it and never compares ``deadline`` with its own (possibly wrong) clock.
    return {"seat": room.deadline_seat, "deadline": deadline, "seconds": seconds, "remaining_ms": max(0, deadline - now),
            "server_time": now}


def _public(hand: Hand, obs: Observation, number: int) -> dict[str, Any]:
    """The hand's public part (the same for every seat and spectators)."""
    ctx = hand.ctx
    kind, seat = hand.to_act()
    out: dict[str, Any] = {
        "number": number, "phase": hand.phase, "dealer": hand.dealer, "trump": hand.trump, "level": hand.level,
        "counts": list(obs.cards_left),
        "declarations": [{"seat": d.seat, "cards": card_list(d.cards), "kind": d.kind} for d in hand.declarations],
        "bids": [{"seat": s, "amount": a} for s, a in hand.bids],
        "contract": hand.contract,
        "trick": None, "last_trick": None,
        "points": list(obs.points),
        "to_act": {"kind": kind, "seat": seat},
        "shown_kitty": card_list(hand.shown_kitty) if hand.shown_kitty is not None else None,
        "dealt": hand.dealt, "redeals": hand.redeals,
    }
    if hand.phase == "play":
        out["trick"] = {"leader": obs.leader, "winning": obs.winning,
                        "plays": [{"seat": s, "cards": card_list(cs, ctx)} for s, cs in obs.trick]}
    if hand.tricks:
        leader, plays, winner, points = hand.tricks[-1]
        out["last_trick"] = {"leader": leader, "winner": winner, "points": points,
                             "plays": [{"seat": p.seat, "cards": card_list(p.on_table, ctx)} for p in plays]}
    return out


def _result(hand: Hand, rh: RoomHand | None) -> dict[str, Any] | None:
    """Once the hand is over: the explanation, the figures and every hand as dealt (and the kitty)."""
    if not hand.finished:
        return None
    start = max(i for i, e in enumerate(hand.log) if isinstance(e, (Shuffle, Redeal)))
    dealt: list[list[int]] = [[] for _ in range(hand.n)]
    for e in hand.log[start:]:
        if isinstance(e, Deal) and e.seat is not None:
            dealt[e.seat].extend(e.cards)
    res = (rh.result if rh is not None else None) or {}
    return {"outcome": hand.outcome, "figures": res.get("response"), "explanation": res.get("explanation"),
            "hands": [card_list(cs, hand.ctx) for cs in dealt], "kitty": card_list(hand.kitty, hand.ctx)}


def actions_for(room: Room, seats: Sequence[Seat], hand: Hand | None, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` may do now (``you.actions``), as the engine allows it."""
    me = seats[seat]
    if room.status == Room.Status.FINISHED:
        return [{"type": "rematch", "options": []}]
    if hand is None or hand.finished:
        if me.bot is None and not me.ready and room.status in (Room.Status.WAITING, Room.Status.PLAYING):
            return [{"type": "ready", "options": []}]
        return []
    kind, at = hand.to_act()
    out: list[dict[str, Any]] = []
    ctx = hand.ctx
    if kind == "deal":
        opts = hand.legal_declarations(seat)
        if opts:
            out.append({"type": "declare", "options": [card_list(o) for o in opts]})
        return out
    if at != seat:
        return out
    if kind == "declare":
        opts = hand.legal_declarations(seat)
        if opts:
            out.append({"type": "declare", "options": [card_list(o) for o in opts]})
        out.append({"type": "pass", "options": []})
    elif kind == "bid":
        out.append({"type": "bid", "options": list(hand.legal_bids(seat))})
        if hand.can_pass(seat):
            out.append({"type": "pass", "options": []})
    elif kind == "name_trump":
        out.append({"type": "name_trump", "options": [s for s in SUIT_CHOICES if hand.can_name_trump(seat, s)]})
    elif kind == "bury":
        ins = hand.legal_insurances(seat)
        if ins:
            out.append({"type": "insure", "options": [card_list(o, ctx) for o in ins]})
        out.append({"type": "bury", "options": [], "count": hand.rules.kitty_size})
    elif kind == "overturn":
        opts = hand.legal_overturns(seat)
        if opts:
            out.append({"type": "overturn", "options": [card_list(o, ctx) for o in opts]})
        out.append({"type": "pass", "options": []})
    elif kind == "play":
        out.append({"type": "play", "options": []})
    return out


def _own(hand: Hand, obs: Observation) -> tuple[list[str], list[str] | None]:
    """A seat's own part of its view: its cards, and the kitty where the rules show it to that seat."""
    return card_list(_counts_to_list(obs.hand), hand.ctx), card_list(obs.kitty, hand.ctx) if obs.kitty is not None else None


def seat_view(room: Room, hand: Hand | None, seat: int, *, seats: Sequence[Seat], hand_row: RoomHand | None = None,
              finished: Sequence[int] = ()) -> dict[str, Any]:
    """The ``state`` message for ``seat``: its own cards (and the kitty it buried), the public rest."""
    body: dict[str, Any] | None = None
    if hand is not None:
        obs = hand.observation(seat)
        body = _public(hand, obs, hand_row.number if hand_row is not None else 0)
        body["cards"], body["kitty"] = _own(hand, obs)
        body["result"] = _result(hand, hand_row)
    return {"type": "state", "version": room.version, "room": _room(room, seats, finished),
            "you": {"seat": seat, "host": False, "actions": actions_for(room, seats, hand, seat)},
            "hand": body, "clock": _clock(room)}


def one_trick_behind(hand: Hand) -> Hand | None:
    """The hand as it stood when its last finished trick began (before that trick's first play): what a
    room's delayed spectators see while a hand is played — the trick being played hidden, ``last_trick``,
    the points and the cards left one trick behind. None when nothing is to be held back (before the first
    play, or once the hand is over: it is then shown whole)."""
    if hand.finished or hand.phase != "play":
        return None
    log = list(hand.log)
    ends = [i for i, e in enumerate(log) if isinstance(e, Trick)]
    plays = [i for i, e in enumerate(log) if isinstance(e, Play)]
    if not plays:
        return None
    cut = ends[-2] + 1 if len(ends) >= 2 else plays[0]
    redeals = [list(e.cards) for e in log if isinstance(e, Redeal)]
    before = Hand(hand.config, deck=list(log[0].cards), deck_source=deck_source(hand.config, redeals))
    i = 1
    while i < cut:
        apply_event(before, log[i])
        i = len(before.log)
    return before


def spectator_view(room: Room, hand: Hand | None, *, seats: Sequence[Seat], hand_row: RoomHand | None = None,
                   finished: Sequence[int] = (), live: bool = False) -> dict[str, Any]:
    """The ``state`` message for a spectator: no cards, no kitty (all hands shown once the hand is over);
    one trick behind with the room's ``spectator_delay`` (``hand.delayed``; no clock then: it runs for a
    play the spectators do not see yet) unless ``live`` (a director's view)."""
    body: dict[str, Any] | None = None
    behind = one_trick_behind(hand) if hand is not None and room.spectator_delay and not live else None
    if hand is not None:
        shown = behind if behind is not None else hand
        obs = shown.observation(0)  # only its public fields are read
        body = _public(shown, obs, hand_row.number if hand_row is not None else 0)
        body["result"] = _result(hand, hand_row)
        body["delayed"] = behind is not None
    return {"type": "state", "version": room.version, "room": _room(room, seats, finished),
            "you": {"seat": None, "host": False, "actions": []}, "hand": body,
            "clock": None if behind is not None else _clock(room)}


def state_texts(room: Room, hand: Hand | None, *, seats: Sequence[Seat], hand_row: RoomHand | None,
                finished: Sequence[int], for_seats: Iterable[int], watch: bool) -> tuple[dict[int, str], str | None]:
    """The JSON texts of :func:`seat_view` for each of ``for_seats`` and, with ``watch``, of
    :func:`spectator_view` — each the very text ``json.dumps`` gives of that message — with what every seat
    is shown alike (the room, the clock, the hand's public part and its result) built and encoded once
    instead of once a reader: a write sends the room's new state to its four seats and its spectators.
    Texts, made once, because the channel layer copies a text for nothing where it would deep-copy or pack a
    nested dict, and each socket sends its text as it is. A text says ``"host": false``: a host's socket, a
    rare one, turns it round (online/consumers.py)."""
    dumps = json.dumps
    head = f'{{"type": "state", "version": {dumps(room.version)}, "room": {dumps(_room(room, seats, finished))}, '
    clock = dumps(_clock(room))
    public = result = ""
    if hand is not None:
        public = dumps(_public(hand, hand.observation(0), hand_row.number if hand_row is not None else 0))[:-1]
        result = dumps(_result(hand, hand_row))
    texts: dict[int, str] = {}
    for seat in for_seats:
        body = "null"
        if hand is not None:
            cards, kitty = _own(hand, hand.observation(seat))
            body = f'{public}, "cards": {dumps(cards)}, "kitty": {dumps(kitty)}, "result": {result}}}'
        you = dumps({"seat": seat, "host": False, "actions": actions_for(room, seats, hand, seat)})
        texts[seat] = f'{head}"you": {you}, "hand": {body}, "clock": {clock}}}'
    if not watch:
        return texts, None
    if hand is not None and room.spectator_delay:  # perhaps a trick behind (rare: some tournaments' rooms)
        return texts, dumps(spectator_view(room, hand, seats=seats, hand_row=hand_row, finished=finished))
    body = "null" if hand is None else f'{public}, "result": {result}, "delayed": false}}'
    you = dumps({"seat": None, "host": False, "actions": []})
    return texts, f'{head}"you": {you}, "hand": {body}, "clock": {clock}}}'
