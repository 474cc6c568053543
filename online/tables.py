"""The engine's side of a room: a hand rebuilt from its stored log, the hand cached per process at the
room's version, and the moves a bot makes for a seat (a bot seat, 托管, a clock run out)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from django.conf import settings

from gameplay.bots import make_bot
from gameplay.cards import BJ, LJ, code_rank, deck_codes, shuffle
from gameplay.config import HandConfig
from gameplay.errors import GameplayError
from gameplay.events import Redeal, event_from_json
from gameplay.hand import Hand
from gameplay.notation import apply_event
from gameplay.simulate import bot_turn
from online import rows
from online.models import Room, RoomHand, Seat

__all__ = ["OF_ROOM_CODE", "SYSTEM", "HandRead", "bot_act", "deal", "deal_round", "deck_source", "drop_cache", "give_back", "hand_for", "hand_from_log", "hand_read",
           "hand_row", "keep", "remember", "row_at", "table_bot", "take_both"]

SYSTEM = random.SystemRandom()
"""The shuffles of online hands (the deck is stored in the log: nothing needs the seed)."""

_CACHE: dict[int, tuple[int, Hand, RoomHand | None]] = {}
"""Per room id: (version, the hand at that version, its stored row). Taken out while a write — or a read
building views — uses it (nobody reads a hand another thread is changing), put back after."""
_CACHE_LOCK = threading.Lock()


def drop_cache() -> None:
    """Forget every cached hand (a restart: the next action rebuilds from the stored log)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def fresh_deck(config: HandConfig) -> list[int]:
    rules = config.engine_rules()
    deck = deck_codes(rules.decks, rules.removed_ranks)
    shuffle(SYSTEM, deck)
    return deck


def deck_source(config: HandConfig, recorded: Sequence[list[int]] = ()) -> Callable[[], list[int]]:
    """The decks of the redeals: those the log recorded, in order, then fresh shuffles."""
    pending = list(recorded)

    def source() -> list[int]:
        return pending.pop(0) if pending else fresh_deck(config)
    return source


def hand_from_log(log: Mapping[str, Any]) -> Hand:
    """The hand a stored log (finished or not) has reached: its actions applied again, one by one, on a new
    :class:`Hand` (the partial form of :func:`gameplay.notation.replay`, which wants a finished hand)."""
    config = HandConfig.from_json(log["config"])
    events = [event_from_json(e) for e in log["events"]]
    redeals = [list(e.cards) for e in events if isinstance(e, Redeal)]
    hand = Hand(config, deck=list(events[0].cards), deck_source=deck_source(config, redeals))
    i = 1
    while i < len(events):
        apply_event(hand, events[i])
        if hand.log[i] != events[i]:
            raise GameplayError(f"The stored log does not replay at event {i}.", f"存储的日志在第 {i} 个事件处无法重放。")
        i = len(hand.log)
    return hand


def take_both(room_id: int, version: int) -> tuple[RoomHand, Hand] | None:
    """The cached row and hand of ``room_id`` at ``version``, taken out (:func:`give_back` after use); an
    entry of another version stays for :func:`hand_for` to bring up to date."""
    with _CACHE_LOCK:
        hit = _CACHE.get(room_id)
        if hit is None or hit[0] != version or hit[2] is None:
            return None
        del _CACHE[room_id]
    return hit[2], hit[1]


def hand_for(room_id: int, version: int, row: RoomHand) -> Hand:
    """The hand of ``row`` at the room's ``version``, taken out of the cache: the cached one if it is that
    version's; a cached older hand of the same row brought up to date with only the stored events it has
    not seen (another process served the actions in between: several ASGI processes share a room's
    sockets); else rebuilt from the whole stored log."""
    with _CACHE_LOCK:
        hit = _CACHE.pop(room_id, None)
    if hit is not None:
        cached_version, hand, cached_row = hit
        if cached_version == version:
            return hand
        if cached_row is not None and cached_row.pk == row.pk and cached_version < version:
            caught = _catch_up(hand, row.log)
            if caught is not None:
                return caught
    return hand_from_log(row.log)


def _catch_up(hand: Hand, log: Mapping[str, Any]) -> Hand | None:
    """``hand`` with the events the stored ``log`` has past its own applied, checked one by one as
    :func:`hand_from_log` does; None when the log does not extend the hand's (then rebuild it whole)."""
    stored = log["events"]
    seen = len(hand.log)
    if seen > len(stored) or hand.log[seen - 1].to_json() != stored[seen - 1]:
        return None
    events = [event_from_json(e) for e in stored[seen:]]
    if any(isinstance(e, Redeal) for e in events):
        return None  # a redeal's deck comes from the log's own record: rebuild
    i = seen
    try:
        while i < len(stored):
            apply_event(hand, events[i - seen])
            if hand.log[i] != events[i - seen]:
                return None
            i = len(hand.log)
    except GameplayError:
        return None
    return hand


def row_at(room_id: int, version: int) -> RoomHand | None:
    """The stored row of the room's latest hand at ``version`` if cached (left in the cache), else None."""
    with _CACHE_LOCK:
        hit = _CACHE.get(room_id)
    return hit[2] if hit is not None and hit[0] == version else None


def keep(room_id: int, version: int, hand: Hand, row: RoomHand | None = None) -> None:
    """Cache ``hand`` (and its row) as room ``room_id``'s at ``version``."""
    with _CACHE_LOCK:
        _CACHE[room_id] = (version, hand, row)


def give_back(room_id: int, version: int, hand: Hand, row: RoomHand) -> None:
    """Put back what a read took, unless a write has cached something meanwhile."""
    with _CACHE_LOCK:
        _CACHE.setdefault(room_id, (version, hand, row))


_CODES: dict[str, int] = {}
"""Room code → id, for the rooms this process has served (:func:`hand_read` finds their cached hands)."""

_SINCE = "events_since"
"""The key that marks a log read in part (:func:`hand_read`): the number of events it leaves out."""

OF_ROOM_CODE = f'"room_id" = (SELECT "id" FROM "{Room._meta.db_table}" WHERE "code" = %s)'
"""A ``WHERE`` of a room's rows (seats, hands) by the room's code, for :mod:`online.rows` queries."""
_NEW_EVENTS = ("jsonb_build_object('events', jsonb_path_query_array(\"log\", '$.events[$n to last]', "
               f"jsonb_build_object('n', %s::int)), '{_SINCE}', %s::int)")


def remember(code: str, room_id: int) -> None:
    """Room ``code`` is ``room_id`` (a room this process has just locked)."""
    with _CACHE_LOCK:
        if len(_CODES) > 50_000:  # bounded: rooms long finished are forgotten
            _CODES.clear()
        _CODES[code] = room_id


class HandRead(NamedTuple):
    """What :func:`hand_read` reads: the query, and the cached row whose log it continues (with ``seen`` events)."""

    query: rows.Query
    base: RoomHand | None
    seen: int


def hand_read(code: str, version: int, *, partial: bool) -> HandRead | None:
    """What to read of room ``code``'s latest hand together with its lock, when this process's cached hand is
    not at ``version`` (the one the client saw): another process served the actions since (several ASGI
    processes share a room's sockets), or nothing is cached. With ``partial`` (PostgreSQL's ``jsonb``) and a
    cached row, only the log's events past those the cached row has: a hand's log grows to about 200 events.
    None when the cached hand is at ``version`` (nothing to read if the room is too)."""
    with _CACHE_LOCK:
        room_id = _CODES.get(code)
        hit = _CACHE.get(room_id) if room_id is not None else None
    if hit is not None and hit[0] == version:
        return None
    base = hit[2] if hit is not None else None
    latest = rows.Query(RoomHand, OF_ROOM_CODE, [code], order='"number" DESC', limit=1)
    if base is None or not partial:
        return HandRead(latest, None, 0)
    seen = len(base.log["events"])
    return HandRead(latest._replace(instead=(("log", _NEW_EVENTS, (seen, seen)),)), base, seen)


def hand_row(read: HandRead, found: Sequence[RoomHand]) -> RoomHand | None:
    """The latest hand row ``read`` found, with its whole log: a partial read's new events after the cached
    row's first ``seen``. None when there is no hand, or when a partial read is not of the cached row (a new
    hand has begun since: the caller reads it whole)."""
    if not found:
        return None
    row = found[0]
    if read.base is None:
        return row
    if row.pk != read.base.pk or row.log.get(_SINCE) != read.seen:
        return None
    row.log = {**read.base.log, "events": read.base.log["events"][:read.seen] + row.log["events"]}
    return row


STRONG_BUDGET_MS = 100
"""The strong bot's time per decision at an online table, unless the setting ``ONLINE_STRONG_BUDGET_MS``
says otherwise: half its default, as the bot's turn runs in the tick that serves the table."""


def table_bot(room: Room, seat: int, name: str | None) -> Any:
    """The bot that plays ``seat``'s turn now: the seat's bot (``heuristic`` is ``normal``), or the normal
    bot for 托管; the strong bot within the online budget."""
    budget = float(getattr(settings, "ONLINE_STRONG_BUDGET_MS", STRONG_BUDGET_MS))
    return make_bot(name or "normal", bot_rng(room, seat), budget_ms=budget)


def bot_rng(room: Room, seat: int) -> random.Random:
    return random.Random(room.pk * 1_000_003 + room.version * 7 + seat)


def bot_act(room: Room, hand: Hand, seat: int, kind: str, *, timed_out: bool = False, row: Seat | None = None) -> None:
    """A bot plays ``seat``'s turn (a bot seat, or 托管) as :func:`gameplay.simulate.play_out` would; a
    clock that ran out on naming trump names the default (spades, seed 002). ``row``: the seat's row if held."""
    row = row if row is not None else Seat.objects.get(room=room, seat=seat)
    bot_turn(hand, table_bot(room, seat, row.bot), kind, seat, default_trump=timed_out)


def _bot_may_declare(room: Room, hand: Hand, row: Seat) -> None:
    """A bot seat (or 托管) that may declare on the card it was just dealt is asked, as a player would be."""
    if (row.bot is not None or row.auto) and hand.phase == "deal" and not hand.offers:
        opts = hand.legal_declarations(row.seat)
        if opts:
            choice = table_bot(room, row.seat, row.bot).declare(hand.observation(row.seat), opts)
            if choice:
                hand.declare(row.seat, choice)


def deal_round(room: Room, hand: Hand, seats: list[Seat]) -> None:
    """One round of cards (one to each seat), stopping at an offer or the deal's end; a bot seat (or 托管)
    that may declare on the card it got is asked, as a player would be."""
    for _ in range(hand.n):
        if hand.phase != "deal" or hand.offers:
            return
        ev = hand.deal()
        s = ev.seat
        assert s is not None
        _bot_may_declare(room, hand, seats[s])


def _opening(hand: Hand, seat: int) -> tuple[bool, ...]:
    """Per card code, whether a newly dealt card may open a declaration for ``seat`` (a joker or a card of
    the rank it declares with), as :func:`gameplay.simulate.play_out`'s stops."""
    level = hand.decl_level(seat)
    return tuple(c in (LJ, BJ) or (level is not None and c < 52 and code_rank(c) == level) for c in range(54))


_NEVER = (False,) * 54


def deal(room: Room, hand: Hand, seats: list[Seat], *, whole: bool) -> None:
    """The cards of one write: one round (a player at the table may declare on each card as it comes), or
    with ``whole`` (no deal pace, or nobody but bots to declare) up to the deal's end or an offer, dealt
    until a card that may open a declaration for a bot seat (or 托管), which is then asked."""
    if not whole:
        deal_round(room, hand, seats)
        return
    stops = [_opening(hand, s.seat) if s.bot is not None or s.auto else _NEVER for s in seats]
    while hand.phase == "deal" and not hand.offers:
        ev = hand.deal_until(stops)
        s = ev.seat
        assert s is not None
        _bot_may_declare(room, hand, seats[s])
