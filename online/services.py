"""Every write of online play (docs/online.md). Keyword-only, typed; the page (``online/pages.py``) and
the consumer (``online/consumers.py``) call these and nothing else writes rooms.

Signatures (stable: the pages are built against them)::

    room_create(*, variant: str, options: Mapping[str, Any] | None = None, decks: int | None = None,
                players: int | None = None, clock: int | None = None, seating: str | None = None,
                hands: int | None = None, name: str = "", seat: int | None = None,
                user: Any = None) -> Created
        # Created(room: Room, host_token: str, seat: Seat | None, seat_token: str | None):
        # with ``name`` the creator also takes a seat (``seat`` or a random one).
    room_join(*, code: str, name: str, seat: int | None = None, user: Any = None) -> Joined
        # Joined(room: Room, seat: Seat, token: str); raises OnlineError seat_taken/room_full/bad_name.
    seat_ready(*, code: str, token: str, action_id: str, version: int) -> Answer
    seat_bot(*, code: str, host_token: str, seat: int, bot: str | None, action_id: str, version: int) -> Answer
    room_act(*, code: str, token: str, action: str, action_id: str, version: int,
             cards: str | None = None, amount: int | None = None, suit: str | None = None) -> Answer
        # action: "declare", "pass", "bid", "name_trump", "insure", "bury", "overturn", "play".
    room_rematch(*, code: str, token: str, action_id: str, version: int) -> Answer
    room_tick(*, room_id: int, version: int) -> bool     # clocks, bot seats, dealing: scheduling calls it
    room_pause(*, code: str, host_token: str, paused: bool) -> Answer   # host only: no action, no deadline
    seat_replace(*, code: str, host_token: str, seat: int, bot: str | None, name: str = "") -> str | None
        # an owned room's host, mid-match: the seat to a bot (None returned) or to a new person (its token)
    room_connect(*, code: str, token: str, channel: str, host_token: str = "") -> Connected
        # Connected(room: Room, seat: int | None, host: bool, replaced: str): "" token → spectator.
    room_disconnect(*, code: str, seat: int | None, channel: str) -> None
    room_state(*, code: str, seat: int | None, host: bool = False) -> dict  # the ``state`` message

Refusals raise :class:`OnlineError` (``.code`` as docs/online.md's error table, ``.message`` bilingual,
``.field``); nothing is changed then. ``Answer(version: int, repeated: bool)``: the room's version after
the action (``repeated``: the action id had been answered; nothing changed).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

import variants
from gameplay.config import HandConfig
from gameplay.errors import GameplayError
from gameplay.hand import Hand
from online import fanout, match_state, moves, owners, rows, scheduling, tables
from online.answers import Answer, Connected, Created, Joined, OnlineError
from online.models import BOT_KINDS, Room, RoomAction, RoomHand, Seat, digest, new_secret
from safety.validators import validate_display_name
from scoring.api import explain_hand_request, score_hand_request
from scoring.partnership import HandResult

__all__ = ["ACTIONS", "Answer", "Connected", "Created", "Joined", "OnlineError", "drop_cache", "hand_from_log",
           "room_act", "room_connect", "room_create", "room_disconnect", "room_join", "room_pause", "room_rematch",
           "room_state", "room_tick", "seat_bot", "seat_ready", "seat_replace"]

hand_from_log = tables.hand_from_log
drop_cache = tables.drop_cache
current_hand = fanout.current_hand
state_for = fanout.state_for
room_state = fanout.room_state
notify = fanout.notify
ACTIONS = moves.ACTIONS

INDIVIDUAL_HANDS = 8
"""Hands of a red-five or yongzhou-300 match unless the room says otherwise (a tournament table's default)."""
NAME_TRUMP_SECONDS = 30
"""Naming trump (red five) has this clock whenever the room has a clock; spades when it runs out (seed 002)."""
tables.SYSTEM = random.SystemRandom()


# ---------------------------------------------------------------- the room row and its seats


def _hand_at(room: Room, rh: RoomHand) -> Hand:
    """The hand of ``rh`` at the room's version: cached, brought up to date, or rebuilt (:func:`tables.hand_for`)."""
    return tables.hand_for(room.pk, room.version, rh)


def _lock(code: str) -> Room:
    found = rows.select(Room, '"code" = %s', [code], for_update=True)
    if not found:
        raise OnlineError("bad_message", f"There is no room {code!r}.", f"没有房间 {code!r}。", field="code")
    return found[0]


def _seats(room: Room) -> list[Seat]:
    return rows.select(Seat, '"room_id" = %s', [room.pk], order='"seat"')


def _lock_with_seats(code: str, read: tables.HandRead | None = None) -> tuple[Room, list[Seat], RoomHand | None]:
    """:func:`_lock` and :func:`_seats` in one round trip (the seats read once the room is locked), with the
    latest hand row when ``read`` says to read it (:func:`tables.hand_read`; None if not read)."""
    found, seats, *hands = rows.select_together(rows.Query(Room, '"code" = %s', [code], for_update=True),
                                                rows.Query(Seat, tables.OF_ROOM_CODE, [code], order='"seat"'),
                                                *([read.query] if read is not None else []))
    if not found:
        raise OnlineError("bad_message", f"There is no room {code!r}.", f"没有房间 {code!r}。", field="code")
    tables.remember(code, found[0].pk)
    return found[0], seats, tables.hand_row(read, hands[0]) if read is not None else None


def _seat_of(room: Room, token: str, seats: list[Seat] | None = None) -> Seat:
    if seats is not None:
        mine = digest(token) if token else None
        seat = next((s for s in seats if s.token_digest == mine), None)
    else:
        seat = Seat.objects.filter(room=room, token_digest=digest(token)).first() if token else None
    if seat is None:
        raise OnlineError("not_seated", "This connection holds no seat at the table.", "此连接没有座位。")
    return seat


def _is_host(room: Room, host_token: str) -> bool:
    return bool(host_token) and secrets.compare_digest(digest(host_token), room.host_digest)


def _current_hand(room: Room, read: RoomHand | None = None) -> RoomHand | None:
    """The room's latest hand row: the one cached with the hand at the room's version, else the one the
    caller ``read`` with the room's lock, else read now."""
    row = tables.row_at(room.pk, room.version)
    if row is None:
        row = read if read is not None else RoomHand.objects.filter(room=room).order_by("-number").first()
    return row


def _repeat(room: Room, seat: int, action_id: str) -> Answer | None:
    done = RoomAction.objects.filter(room=room, seat=seat, action_id=action_id).first()
    return None if done is None else Answer(int(done.answer.get("version", done.version)), repeated=True)


def _check_id(action_id: str) -> None:
    if not isinstance(action_id, str) or not 0 < len(action_id) <= 64:
        raise OnlineError("bad_message", "An action needs an id of 1 to 64 characters.", "动作须有 1 至 64 个字符的 id。",
                          field="id")


def _check_version(room: Room, version: int) -> None:
    if version != room.version:
        raise OnlineError("stale", f"The table has moved on (version {room.version}, not {version}).",
                          f"牌桌已更新（版本 {room.version}，而不是 {version}）。", field="version")


def _check_running(room: Room) -> None:
    if room.paused:
        raise OnlineError("refused", "The table is paused by the director.", "牌桌已被裁判暂停。")


def _store(room: Room, seat: int, action_id: str) -> Answer:
    """Bump the version, store the action id with its answer (the same transaction)."""
    row, answer = _action_row(room, seat, action_id)
    rows.insert(row)
    return answer


def _action_row(room: Room, seat: int, action_id: str) -> tuple[RoomAction, Answer]:
    """Bump the version; the action id's row with its answer, to be stored in the same transaction."""
    room.version += 1
    return (RoomAction(room=room, seat=seat, action_id=action_id, version=room.version,
                       answer={"version": room.version}), Answer(room.version))


def _new_code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(6))


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 40:
        raise OnlineError("bad_name", "A name of 1 to 40 characters is needed.", "须有 1 至 40 个字符的名字。",
                          field="name")
    try:
        validate_display_name(name)
    except ValidationError as e:
        raise OnlineError("bad_name", " ".join(str(m) for m in e.messages), "名字含有不允许的字符。",
                          field="name") from None
    return name


# ---------------------------------------------------------------- create, join, ready, bot seats


def room_create(*, variant: str, options: Mapping[str, Any] | None = None, decks: int | None = None,
                players: int | None = None, clock: int | None = None, seating: str | None = None,
                hands: int | None = None, name: str = "", seat: int | None = None, user: Any = None) -> Created:
    """A new room (waiting for its seats); the creator holds the host token, and with ``name`` a seat too."""
    try:
        spec = variants.get(variant)
    except (KeyError, ValueError):
        raise OnlineError("bad_message", f"Unknown variant {variant!r}.", f"未知玩法 {variant!r}。", field="variant") from None
    decks = decks or spec.default_decks
    players = players or spec.default_players
    if decks not in spec.decks or players not in spec.players:
        raise OnlineError("bad_message", f"{variant} is not played with {decks} decks and {players} players.",
                          f"{variant} 不能用 {decks} 副牌、{players} 人玩。", field="decks")
    if clock is not None and not 5 <= clock <= 600:
        raise OnlineError("bad_message", "The clock is 5 to 600 seconds per action, or none.",
                          "时限为每个动作 5 至 600 秒，或不限。", field="clock")
    opts = dict(options or {})
    config = HandConfig(variant, opts, decks=decks, players=players)
    try:
        config.engine_rules()
        config.scoring_rules()
    except (GameplayError, KeyError, TypeError, ValueError) as e:
        raise OnlineError("bad_message", f"Invalid options: {e}", f"选项无效：{e}", field="options") from None
    individual = not spec.partnership
    if seating is None:
        seating = Room.Seating.RANDOM if spec.settlement.winner_deals_next else Room.Seating.CHOICE
    if seating not in Room.Seating.values:
        raise OnlineError("bad_message", "Seating is \"choice\" or \"random\".", "座位方式须为 choice 或 random。",
                          field="seating")
    if hands is not None and not 1 <= hands <= 100:
        raise OnlineError("bad_message", "A match is 1 to 100 hands.", "一场比赛为 1 至 100 局。", field="hands")
    host_token = new_secret()
    with transaction.atomic():
        for _ in range(20):
            code = _new_code()
            if not Room.objects.filter(code=code).exists():
                break
        room = Room.objects.create(code=code, variant=variant, options=opts, decks=decks, players=players, clock=clock,
                                   seating=seating, hands_limit=(hands or INDIVIDUAL_HANDS) if individual else None,
                                   host_digest=digest(host_token), match=match_state.new_match(spec.partnership))
        Seat.objects.bulk_create([Seat(room=room, seat=s) for s in range(players)])
    joined = room_join(code=room.code, name=name, seat=seat, user=user) if name else None
    if joined is not None:
        room.refresh_from_db()
    return Created(room, host_token, joined.seat if joined else None, joined.token if joined else None)


def room_join(*, code: str, name: str, seat: int | None = None, user: Any = None) -> Joined:
    """Take ``seat`` (or a random free seat; always random when the room seats at random) with a display name."""
    name = _clean_name(name)
    with transaction.atomic():
        room = _lock(code)
        if room.owner_kind:  # a tournament's match: its seats are handed out by their players' links (owners.py)
            raise OnlineError("seat_taken", "This match's seats are its players': open your player link.",
                              "本场比赛的座位属于参赛选手：请打开你的选手链接。")
        seats = _seats(room)
        free = [s for s in seats if not s.taken]
        if not free:
            raise OnlineError("room_full", "Every seat is taken.", "座位已满。")
        if room.status != Room.Status.WAITING:
            raise OnlineError("room_full", "The match has started: the seats are fixed.", "比赛已开始，座位已固定。")
        if seat is None or room.seating == Room.Seating.RANDOM:
            chosen = tables.SYSTEM.choice(free)
        else:
            if not isinstance(seat, int) or not 0 <= seat < room.players:
                raise OnlineError("bad_message", f"There is no seat {seat}.", f"没有座位 {seat}。", field="seat")
            chosen = seats[seat]
            if chosen.taken:
                raise OnlineError("seat_taken", f"Seat {seat + 1} is taken.", f"{seat + 1}号座位已有人。", field="seat")
        token = new_secret()
        chosen.name, chosen.token_digest, chosen.ready, chosen.auto = name, digest(token), False, False
        chosen.user = user if getattr(user, "is_authenticated", False) else None
        chosen.save()
        room.version += 1
        _after(room, seats, _current_hand(room), None)
    return Joined(room, chosen, token)


def seat_ready(*, code: str, token: str, action_id: str, version: int) -> Answer:
    """This seat is ready; when every seat is, the next hand is dealt."""
    _check_id(action_id)
    with transaction.atomic():
        room = _lock(code)
        seats = _seats(room)
        seat = _seat_of(room, token, seats)
        again = _repeat(room, seat.seat, action_id)
        if again is not None:
            return again
        # no version check: ready is idempotent, and the four seats send it at the same version
        if room.status == Room.Status.FINISHED:
            raise OnlineError("refused", "The match is over: ask for a rematch.", "比赛已结束，可以再来一场。")
        _check_running(room)
        rh = _current_hand(room)
        if rh is not None and not rh.finished:
            raise OnlineError("refused", "A hand is being played.", "牌局正在进行。")
        seat.ready, seat.auto = True, False
        seat.save(update_fields=["ready", "auto"])
        answer = _store(room, seat.seat, action_id)
        _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, None)))
    return answer


def seat_bot(*, code: str, host_token: str, seat: int, bot: str | None, action_id: str, version: int) -> Answer:
    """Host only: give an empty seat to a bot (``bot`` None: take it back). A casual room's bot seat has no
    name (the page says "Seat n" and the bot's level); a tournament's seat keeps its player's name."""
    _check_id(action_id)
    with transaction.atomic():
        room = _lock(code)
        if not _is_host(room, host_token):
            raise OnlineError("not_host", "Only the room's host places bots.", "只有房主可以安排机器人。")
        again = _repeat(room, -1, action_id)
        if again is not None:
            return again
        _check_version(room, version)
        if bot is not None and bot not in BOT_KINDS:
            raise OnlineError("bad_message", f"A bot is one of {', '.join(BOT_KINDS)}.", f"机器人须为 {', '.join(BOT_KINDS)}。",
                              field="bot")
        if not isinstance(seat, int) or not 0 <= seat < room.players:
            raise OnlineError("bad_message", f"There is no seat {seat}.", f"没有座位 {seat}。", field="seat")
        if room.status != Room.Status.WAITING:
            raise OnlineError("refused", "The match has started: the seats are fixed.", "比赛已开始，座位已固定。")
        seats = _seats(room)
        row = seats[seat]
        if row.token_digest:
            raise OnlineError("seat_taken", f"Seat {seat + 1} is a player's.", f"{seat + 1}号座位已有玩家。", field="seat")
        row.bot = bot
        if not room.owner_kind:  # a tournament's seat keeps its player's name: the bot plays for them
            row.name = ""
        row.ready = bot is not None
        row.save(update_fields=["bot", "name", "ready"])
        answer = _store(room, -1, action_id)
        rh = _current_hand(room)
        _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, None)))
    return answer


def room_rematch(*, code: str, token: str, action_id: str, version: int) -> Answer:
    """After a match: another one with the same seats (everyone readies again)."""
    _check_id(action_id)
    with transaction.atomic():
        room = _lock(code)
        seat = _seat_of(room, token)
        again = _repeat(room, seat.seat, action_id)
        if again is not None:
            return again
        _check_version(room, version)
        if room.owner_kind:
            raise OnlineError("refused", "This match belongs to a tournament: no rematch.", "这是赛事的比赛，不能再来一场。")
        if room.status != Room.Status.FINISHED:
            raise OnlineError("refused", "The match is not over.", "比赛尚未结束。")
        number = int(room.match.get("number", 1)) + 1
        room.match = match_state.new_match(variants.get(room.variant).partnership) | {"number": number}
        room.status = Room.Status.WAITING
        Seat.objects.filter(room=room, bot__isnull=True).update(ready=False, auto=False)
        answer = _store(room, seat.seat, action_id)
        _after(room, _seats(room), _current_hand(room), None)
    return answer


# ---------------------------------------------------------------- the host's hand on a match: pause, replace a seat


def _hosted(code: str, host_token: str, what: tuple[str, str]) -> Room:
    """The room locked for its host's ``what`` (English, Chinese): refused to anyone else and once over."""
    room = _lock(code)
    if not _is_host(room, host_token):
        raise OnlineError("not_host", f"Only the room's host may {what[0]}.", f"只有房主可以{what[1]}。")
    if room.status == Room.Status.FINISHED:
        raise OnlineError("refused", "The match is over: nothing to change.", "比赛已结束，不能再更改。")
    return room


def room_pause(*, code: str, host_token: str, paused: bool) -> Answer:
    """Host only: pause the table (no action accepted, no deadline runs: clocks, bots and the deal wait) or
    resume it (the deadline planned afresh: the seat to act gets its whole clock again)."""
    with transaction.atomic():
        room = _hosted(code, host_token, ("pause the table", "暂停牌桌"))
        if room.paused == bool(paused):
            return Answer(room.version, repeated=True)
        room.paused = bool(paused)
        room.version += 1
        seats = _seats(room)
        rh = _current_hand(room)
        _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, None)))
    return Answer(room.version)


def seat_replace(*, code: str, host_token: str, seat: int, bot: str | None, name: str = "") -> str | None:
    """Host of an owned room only, at any time before the match is over (mid-hand too): ``seat`` to a bot
    (``bot``: its kind; None returned) or to a person (``bot`` None: a new seat token, returned and never
    stored, for the owner to hand over; ``name`` the seat's new name). Either way the seat's earlier token no
    longer plays and its sockets are told ``replaced`` and closed."""
    if bot is not None and bot not in BOT_KINDS:
        raise OnlineError("bad_message", f"A bot is one of {', '.join(BOT_KINDS)}.", f"机器人须为 {', '.join(BOT_KINDS)}。",
                          field="bot")
    token = None if bot is not None else new_secret()
    with transaction.atomic():
        room = _hosted(code, host_token, ("replace a seat", "替换座位"))
        if not room.owner_kind:
            raise OnlineError("refused", "Only a tournament's table has its seats replaced.", "只有赛事牌桌可以替换座位。")
        if not isinstance(seat, int) or not 0 <= seat < room.players:
            raise OnlineError("bad_message", f"There is no seat {seat}.", f"没有座位 {seat}。", field="seat")
        seats = _seats(room)
        row = seats[seat]
        row.bot, row.token_digest, row.auto, row.user = bot, digest(token) if token else "", False, None
        row.ready, row.connected, row.channel = bot is not None, 0, ""
        if bot is None:  # a bot plays on under the replaced player's name; a substitute is named
            row.name = name[:40] or row.name
        row.save(update_fields=["bot", "token_digest", "auto", "user", "ready", "connected", "channel", "name"])
        room.version += 1
        rh = _current_hand(room)
        _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, None)))
        group = scheduling.seat_group(code, seat)
        transaction.on_commit(lambda: fanout.send([(group, {"type": "seat.removed"})]))
    return token


# ---------------------------------------------------------------- hands: start, act, tick


def _maybe_start(room: Room, seats: list[Seat], rh: RoomHand | None) -> tuple[RoomHand, Hand] | None:
    """Every seat taken and ready (bots always are): deal the next hand (its shuffle stored); its row and hand."""
    if room.status == Room.Status.FINISHED or room.paused:
        return None
    if rh is not None and not rh.finished:
        return None
    later = rh is not None and room.status == Room.Status.PLAYING  # a later hand: an absent seat is played by a bot
    if not all(s.taken and (s.ready or s.bot is not None or s.auto or (later and s.connected == 0)) for s in seats):
        return None
    config = match_state.next_config(room)
    hand = Hand(config, rng=tables.SYSTEM, deck_source=tables.deck_source(config))
    number = (rh.number + 1) if rh is not None else 1
    row = RoomHand.objects.create(room=room, number=number, match_number=int(room.match.get("number", 1)),
                                  log=hand.to_json())
    room.status = Room.Status.PLAYING
    Seat.objects.filter(room=room, bot__isnull=True).update(ready=False)
    for s in seats:
        if s.bot is None:
            s.ready = False
    room.version += 1
    return row, hand


def room_act(*, code: str, token: str, action: str, action_id: str, version: int, cards: str | None = None,
             amount: int | None = None, suit: str | None = None) -> Answer:
    """One engine action of the seat holding ``token``: judged by the engine, appended to the stored log."""
    _check_id(action_id)
    if action not in ACTIONS:
        raise OnlineError("bad_message", f"Unknown action {action!r}.", f"未知动作 {action!r}。", field="type")
    try:
        return _room_act(code=code, token=token, action=action, action_id=action_id, version=version, cards=cards,
                         amount=amount, suit=suit)
    except IntegrityError:  # an id stored before, sent again with the current version: answered as then
        with transaction.atomic():
            room = _lock(code)
            again = _repeat(room, _seat_of(room, token).seat, action_id)
        if again is None:
            raise
        return again


def _room_act(*, code: str, token: str, action: str, action_id: str, version: int, cards: str | None,
              amount: int | None, suit: str | None) -> Answer:
    read = tables.hand_read(code, version, partial=connection.vendor == "postgresql")
    with transaction.atomic():
        room, seats, latest = _lock_with_seats(code, read)
        seat = _seat_of(room, token, seats)
        if version != room.version:  # a resent action (its id stored, the version moved on) or a stale one
            again = _repeat(room, seat.seat, action_id)
            if again is not None:
                return again
            _check_version(room, version)
        _check_running(room)
        rh = _current_hand(room, latest)
        if rh is None or rh.finished or room.status != Room.Status.PLAYING:
            raise OnlineError("refused", "No hand is being played.", "目前没有进行中的牌局。")
        hand = _hand_at(room, rh)
        before = len(hand.log)
        try:
            moves.engine_act(hand, seat.seat, action, cards, amount, suit)
        except GameplayError as e:
            if len(hand.log) != before:  # never: the engine verifies before it changes anything
                hand = tables.hand_from_log(rh.log)
            tables.keep(room.pk, room.version, hand, rh)
            raise OnlineError.refused(e) from None
        except OnlineError:
            tables.keep(room.pk, room.version, hand, rh)
            raise
        if seat.auto:
            seat.auto = False
            seat.save(update_fields=["auto"])
        new = _new_events(rh, hand, before)
        action_row, answer = _action_row(room, seat.seat, action_id)
        _settle_if_over(room, rh, hand)
        current = _maybe_start(room, seats, rh) or (rh, hand)
        with rows.pipelined(commit=True):  # the action's three writes and the commit in one round trip
            rows.append(rh, "log", "events", new)
            rows.insert(action_row, with_pk=False)
            _after(room, seats, *current)
    return answer


def _new_events(rh: RoomHand, hand: Hand, before: int) -> list[dict[str, Any]]:
    """The hand's events since ``before``, added to the row's log in memory (:func:`rows.append` stores them)."""
    new = [e.to_json() for e in hand.log[before:]]
    rh.log["events"].extend(new)
    return new


def _append(rh: RoomHand, hand: Hand, before: int) -> None:
    rows.append(rh, "log", "events", _new_events(rh, hand, before))


def _settle_if_over(room: Room, rh: RoomHand, hand: Hand) -> None:
    """The hand just ended: store its result and move the match on (or end it)."""
    if not hand.finished or rh.finished:
        return
    spec = variants.get(room.variant)
    body = hand.score_request()
    response = score_hand_request(body, "en")
    explanation = {"en": explain_hand_request(body, "en")["explanation"],
                   "zh-hans": explain_hand_request(body, "zh-hans")["explanation"]}
    rh.finished, rh.outcome = True, hand.outcome
    rh.result = {"response": response, "explanation": explanation}
    rh.save(update_fields=["finished", "outcome", "result", "updated_at"])
    m = dict(room.match)
    m["hands"] = int(m.get("hands", 0)) + 1
    over = False
    if spec.partnership:
        assert hand.new_state is not None and isinstance(hand.result, HandResult)
        m["state"] = match_state.state_json(hand.new_state)
        m["winner"] = hand.result.match_winner
        over = hand.result.match_winner is not None or hand.new_state.drawn
    else:
        key = "game_points" if "game_points" in response else "net"
        totals = list(m.get("totals") or [0] * room.players)
        m["totals"] = [a + int(b) for a, b in zip(totals, response[key], strict=True)]
        if "next_dealer" in response:
            m["dealer"] = int(response["next_dealer"])
        over = m["hands"] >= (room.hands_limit or INDIVIDUAL_HANDS)
    verdict = owners.hand_finished(room, rh, hand)  # the owner records the hand, this transaction (owners.py)
    over = over if verdict is None else verdict
    room.match = m
    if over:
        room.status = Room.Status.FINISHED


def room_tick(*, room_id: int, version: int) -> bool:
    """What is due at the room's deadline set for ``version``: the next round of cards, a bot seat's (or
    托管) action, or a player's clock run out (a bot acts; the seat becomes 托管). Nothing if the room moved
    on (a clock fires once). Returns whether something was done."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if (room is None or room.version != version or room.deadline_version != version or not room.deadline_kind
                or room.paused):
            return False
        kind, seat = room.deadline_kind, room.deadline_seat
        if room.deadline is not None and room.deadline > timezone.now() + timedelta(milliseconds=50):
            return False  # an earlier timer of this version (the plan changed): the right one comes later
        rh = _current_hand(room)
        if rh is None or rh.finished or room.status != Room.Status.PLAYING:
            return False
        hand = _hand_at(room, rh)
        before = len(hand.log)
        seats = _seats(room)
        to_act, at = hand.to_act()
        if kind == "deal" and to_act == "deal":  # no pace, or only bots to declare: the whole deal at once
            whole = int(settings.ONLINE_DEAL_INTERVAL_MS) <= 0 or all(s.bot is not None or s.auto for s in seats)
            tables.deal(room, hand, seats, whole=whole)
        elif kind in ("bot", "clock") and at is not None and at == seat:
            if kind == "clock" or (seats[at].bot is None and not seats[at].auto):
                seats[at].auto = True
                seats[at].save(update_fields=["auto"])
            tables.bot_act(room, hand, at, to_act, timed_out=kind == "clock", row=seats[at])
        else:
            tables.keep(room.pk, room.version, hand, rh)
            return False
        _append(rh, hand, before)
        room.version += 1
        _settle_if_over(room, rh, hand)
        _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, hand)))
    return True


def _plan(room: Room, hand: Hand | None, seats: list[Seat]) -> tuple[str, int | None, int]:
    """What the room waits for: ("deal"|"bot"|"clock", seat, milliseconds) or ("", None, 0)."""
    if hand is None or hand.finished or room.status != Room.Status.PLAYING or room.paused:
        return "", None, 0
    kind, seat = hand.to_act()
    if kind == "deal":
        return "deal", None, int(settings.ONLINE_DEAL_INTERVAL_MS)
    if seat is None:
        return "", None, 0
    row = seats[seat]
    if row.bot is not None or row.auto:
        return "bot", seat, int(settings.ONLINE_BOT_DELAY_MS)
    if room.clock is not None:
        seconds = NAME_TRUMP_SECONDS if kind == "name_trump" else room.clock
        return "clock", seat, seconds * 1000
    others_here = any(s.bot is None and s.connected > 0 for s in seats)  # nobody at the table: it waits
    if row.connected == 0 and others_here:  # gone without a clock: a while to come back (a reload), then 托管
        return "clock", seat, int(settings.ONLINE_ABSENT_SECONDS) * 1000
    return "", None, 0


def _after(room: Room, seats: list[Seat], rh: RoomHand | None, hand: Hand | None) -> None:
    """End of a write (the room's seats and latest hand row as the write left them; ``hand`` None: read at the
    room's version): set the room's deadline for its new version, save it, and after commit tell the groups
    (views built from what is held here), cache the hand and arm the tick."""
    if hand is None and rh is not None:
        hand = _hand_at(room, rh)  # a finished one too: the views show its result
    kind, seat, delay = _plan(room, hand, seats)
    room.deadline_kind, room.deadline_seat = kind, seat
    room.deadline = timezone.now() + timedelta(milliseconds=delay) if kind else None
    room.deadline_version = room.version if kind else None
    rows.update(room, ("version", "status", "match", "paused", "deadline_kind", "deadline_seat", "deadline",
                       "deadline_version", "updated_at"))
    room_id, version, held = room.pk, room.version, hand

    def committed() -> None:
        messages = fanout.views(room, seats, rh, held)
        if held is not None:
            tables.keep(room_id, version, held, rh)
        fanout.send(messages, room=room.code, version=version)
        if kind:
            scheduling.schedule(room_id, version, delay)

    transaction.on_commit(committed)


# ---------------------------------------------------------------- connections and the state message


def room_connect(*, code: str, token: str, channel: str, host_token: str = "") -> Connected:
    """A socket says hello: its seat (a token) or a spectator (""); the newer connection of a seat wins."""
    with transaction.atomic():
        room = _lock(code)
        host = _is_host(room, host_token)
        if not token:
            Room.objects.filter(pk=room.pk).update(watchers=room.watchers + 1)
            room.watchers += 1
            return Connected(room, None, host, "")
        seat = Seat.objects.filter(room=room, token_digest=digest(token)).first()
        if seat is None:
            raise OnlineError("not_seated", "This token holds no seat at this table.", "此令牌在本桌没有座位。",
                              field="token")
        replaced = seat.channel if seat.channel and seat.channel != channel else ""
        was_absent = seat.connected == 0
        seat.connected += 1
        seat.channel = channel
        seat.last_seen = timezone.now()
        seat.save(update_fields=["connected", "channel", "last_seen"])
        absent_wait = room.clock is None and room.deadline_kind == "clock" and room.deadline_seat == seat.seat
        if was_absent and (seat.auto or absent_wait):
            # the player is back: no more 托管, and no absent player's wait (a room's clock runs on as it was)
            seat.auto = False
            seat.save(update_fields=["auto"])
            _after(room, _seats(room), _current_hand(room), None)
        elif was_absent:
            transaction.on_commit(lambda: notify(code))  # the others see the seat online again
    return Connected(room, seat.seat, host, replaced)


def room_disconnect(*, code: str, seat: int | None, channel: str) -> None:
    """A socket closed: one connection fewer (a seat with none left is played by a bot when its turn comes)."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            return
        if seat is None:
            room.watchers = max(0, room.watchers - 1)
            Room.objects.filter(pk=room.pk).update(watchers=room.watchers)
            return
        seats = _seats(room)
        row = seats[seat] if 0 <= seat < len(seats) else None
        if row is None:
            return
        row.connected = max(0, row.connected - 1)
        if row.channel == channel:
            row.channel = ""
        row.last_seen = timezone.now()
        row.save(update_fields=["connected", "channel", "last_seen"])
        if row.connected == 0 and room.status == Room.Status.PLAYING:  # a bot plays the seat's turn while others
            rh = _current_hand(room)  # stay, or the next hand is dealt if this was the last not ready
            _after(room, seats, *(_maybe_start(room, seats, rh) or (rh, None)))


scheduling.set_ticker(lambda room_id, version: room_tick(room_id=room_id, version=version))
