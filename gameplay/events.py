"""The entries of a hand's log: one frozen class per kind, each with its own typed payload.

Every event has a ``seat`` (None for table events) and ``cards``; the payload that the stored log keeps in
its one ``value`` field is a named, typed attribute here (``Declare.declared``, ``Bid.amount``,
``Trick.points``, ...). :meth:`Event.to_json` / :func:`event_from_json` read and write exactly the
``shengji-hand/1`` JSON form (``{"kind", "seat"?, "cards"?, "value"?, "forced"?, "penalty"?}``), so stored
logs load unchanged. :func:`redact` is an event as one seat (or a spectator) may see it.

>>> from gameplay.cards import parse_cards
>>> ev = Play(2, tuple(parse_cards("SA SK SK")), forced=tuple(parse_cards("SA")), penalty=10)
>>> ev.kind, ev.on_table == tuple(parse_cards("SA")), ev.to_json()
('play', True, {'kind': 'play', 'seat': 2, 'cards': 'SA SK SK', 'forced': 'SA', 'penalty': 10})
>>> event_from_json({"kind": "bid", "seat": 1, "value": 120})
Bid(seat=1, cards=(), amount=120)
>>> str(Trump(0, (), None)), Trump(0, (), None).to_json()
('trump seat 0 (NT)', {'kind': 'trump', 'seat': 0, 'value': 'NT'})
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, ClassVar, overload

from gameplay.cards import format_cards, parse_cards


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a hand's log (immutable). Subclasses name the kind and carry its payload."""

    kind: ClassVar[str] = ""
    is_action: ClassVar[bool] = False
    """A player's (or the dealer's) action, as opposed to an automatic consequence of one."""

    seat: int | None = None
    cards: tuple[int, ...] = ()

    @property
    def value(self) -> int | str | None:
        """The payload as the stored log's ``value`` field holds it (None: no such field)."""
        return None

    @property
    def on_table(self) -> tuple[int, ...]:
        """The cards that reach the table (a play's forced part after a failed throw)."""
        return self.cards

    def _extra_json(self, out: dict[str, Any]) -> None:
        """Add the fields after ``value`` (plays: ``forced``, ``penalty``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = format_cards(self.cards)
        value = self.value
        if value is not None:
            out["value"] = value
        self._extra_json(out)
        return out

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards)

    def __str__(self) -> str:
        parts = [self.kind]
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.cards:
            parts.append(format_cards(self.cards))
        value = self.value
        if value is not None:
            parts.append(f"({value})")
        forced = getattr(self, "forced", None)
        if forced is not None:
            parts.append(f"→ {format_cards(forced)}")
        return " ".join(parts)


# ---------------------------------------------------------------- the deck


@dataclass(frozen=True, slots=True)
class Shuffle(Event):
    """The deck in dealing order (the first event of a log)."""

    kind: ClassVar[str] = "shuffle"


@dataclass(frozen=True, slots=True)
class Redeal(Event):
    """Nobody declared: a new deck in dealing order."""

    kind: ClassVar[str] = "redeal"


@dataclass(frozen=True, slots=True)
class Position(Event):
    """A hand placed at the play phase (:func:`gameplay.position.hand_at_position`): not replayable."""

    kind: ClassVar[str] = "position"


@dataclass(frozen=True, slots=True)
class Deal(Event):
    kind: ClassVar[str] = "deal"
    is_action: ClassVar[bool] = True


# ---------------------------------------------------------------- declaring and bidding


@dataclass(frozen=True, slots=True)
class Declare(Event):
    """Cards shown to declare; ``declared`` is the declaration's kind (declare, reinforce, overturn,
    self_overturn, no_trump, insured)."""

    kind: ClassVar[str] = "declare"
    is_action: ClassVar[bool] = True
    declared: str | None = None

    @property
    def value(self) -> str | None:
        return self.declared

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, _opt_str(data.get("value")))


@dataclass(frozen=True, slots=True)
class Pass(Event):
    """A seat declines; ``phase`` is what it declines (declare, bid, overturn)."""

    kind: ClassVar[str] = "pass"
    is_action: ClassVar[bool] = True
    phase: str | None = None

    @property
    def value(self) -> str | None:
        return self.phase

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, _opt_str(data.get("value")))


@dataclass(frozen=True, slots=True)
class Bid(Event):
    kind: ClassVar[str] = "bid"
    is_action: ClassVar[bool] = True
    amount: int | None = None

    @property
    def value(self) -> int | None:
        return self.amount

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, _opt_int(data.get("value")))


@dataclass(frozen=True, slots=True)
class NameTrump(Event):
    """The red-five dealer names the trump suit."""

    kind: ClassVar[str] = "name_trump"
    is_action: ClassVar[bool] = True
    suit: str | None = None

    @property
    def value(self) -> str | None:
        return self.suit

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, _opt_str(data.get("value")))


@dataclass(frozen=True, slots=True)
class Trump(Event):
    """Trump is fixed (``suit`` None: no trump, ``"NT"`` in the log); ``seat`` the dealer, ``cards`` the
    kitty card turned (翻底) if any."""

    kind: ClassVar[str] = "trump"
    suit: str | None = None

    @property
    def value(self) -> str:
        return self.suit or "NT"

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        suit = _opt_str(data.get("value"))
        return cls(seat, cards, None if suit == "NT" else suit)


# ---------------------------------------------------------------- the kitty


@dataclass(frozen=True, slots=True)
class TakeKitty(Event):
    """``seat`` takes the kitty; ``shown``: it is shown to all (chaodi's first take, RULES §5.2)."""

    kind: ClassVar[str] = "take_kitty"
    shown: bool = False

    @property
    def value(self) -> str | None:
        return "shown" if self.shown else None

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        value = data.get("value")
        if value not in (None, "shown"):
            raise ValueError(f"a take_kitty value is \"shown\" or absent, not {value!r}")
        return cls(seat, cards, value == "shown")


@dataclass(frozen=True, slots=True)
class Bury(Event):
    kind: ClassVar[str] = "bury"
    is_action: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Insure(Event):
    """Chaodi's 定主: the dealer shows the pair of the trump level card (logged with value "insured")."""

    kind: ClassVar[str] = "insure"
    is_action: ClassVar[bool] = True

    @property
    def value(self) -> str:
        return "insured"

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        if data.get("value") != "insured":
            raise ValueError(f"an insure value is \"insured\", not {data.get('value')!r}")
        return cls(seat, cards)


@dataclass(frozen=True, slots=True)
class Overturn(Event):
    """Chaodi's 炒底 round: an overturn after the kitty; ``declared`` as in :class:`Declare`."""

    kind: ClassVar[str] = "overturn"
    is_action: ClassVar[bool] = True
    declared: str | None = None

    @property
    def value(self) -> str | None:
        return self.declared

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, _opt_str(data.get("value")))


# ---------------------------------------------------------------- play and result


@dataclass(frozen=True, slots=True)
class Play(Event):
    """``cards`` played; ``forced``: what a failed throw must play instead, ``penalty`` its points."""

    kind: ClassVar[str] = "play"
    is_action: ClassVar[bool] = True
    forced: tuple[int, ...] | None = None
    penalty: int = 0

    @property
    def on_table(self) -> tuple[int, ...]:
        return self.forced if self.forced is not None else self.cards

    def _extra_json(self, out: dict[str, Any]) -> None:
        if self.forced is not None:
            out["forced"] = format_cards(self.forced)
        if self.penalty:
            out["penalty"] = self.penalty

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        forced = data.get("forced")
        return cls(seat, cards, None if forced is None else tuple(parse_cards(forced)), int(data.get("penalty", 0)))


@dataclass(frozen=True, slots=True)
class Trick(Event):
    """A trick is won by ``seat`` with ``points``."""

    kind: ClassVar[str] = "trick"
    points: int = 0

    @property
    def value(self) -> int:
        return self.points

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, int(data["value"]))


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """The hand is scored: ``cards`` the kitty, ``outcome`` the outcome object as sorted JSON text."""

    kind: ClassVar[str] = "scored"
    outcome: str = ""

    @property
    def value(self) -> str:
        return self.outcome

    @classmethod
    def _from_fields(cls, seat: int | None, cards: tuple[int, ...], data: Mapping[str, Any]) -> Event:
        return cls(seat, cards, str(data["value"]))


KINDS: Mapping[str, type[Event]] = {c.kind: c for c in (
    Shuffle, Redeal, Position, Deal, Declare, Pass, Bid, NameTrump, Trump, TakeKitty, Bury, Insure, Overturn, Play,
    Trick, Scored)}
"""Every event class by its ``kind``."""


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event of one ``shengji-hand/1`` JSON entry; raises KeyError/TypeError/ValueError when malformed."""
    kind = str(data["kind"])
    cls = KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    seat = data.get("seat")
    if seat is not None and not isinstance(seat, int):
        raise TypeError(f"a seat is a number, not {seat!r}")
    return cls._from_fields(seat, tuple(parse_cards(data.get("cards") or "")), data)


_HIDDEN_DEALS: dict[int | None, Deal] = {}


def hidden_deal(seat: int | None) -> Deal:
    """A card dealt to ``seat`` as the other seats see it (one shared, immutable event per seat)."""
    ev = _HIDDEN_DEALS.get(seat)
    if ev is None:
        ev = _HIDDEN_DEALS[seat] = Deal(seat, ())
    return ev


_new = object.__new__
_set_seat, _set_cards = vars(Event)["seat"].__set__, vars(Event)["cards"].__set__  # the slots' descriptors
_set_forced, _set_penalty = vars(Play)["forced"].__set__, vars(Play)["penalty"].__set__


def new_play(seat: int, cards: tuple[int, ...], forced: tuple[int, ...] | None = None, penalty: int = 0) -> Play:
    """``Play(seat, cards, forced, penalty)``, filled slot by slot: a play is made at every turn, and the
    frozen class's ``__init__`` costs twice as much (the test of the events compares them)."""
    ev = _new(Play)
    _set_seat(ev, seat)
    _set_cards(ev, cards)
    _set_forced(ev, forced)
    _set_penalty(ev, penalty)
    return ev


_set_points = vars(Trick)["points"].__set__
_NO_CARDS: tuple[int, ...] = ()


def new_trick(seat: int, points: int) -> Trick:
    """``Trick(seat, (), points)``, filled slot by slot like :func:`new_play` (a trick ends every round)."""
    ev = _new(Trick)
    _set_seat(ev, seat)
    _set_cards(ev, _NO_CARDS)
    _set_points(ev, points)
    return ev


_DEALT: dict[int, tuple[Deal, ...]] = {}


def dealt(seat: int, code: int) -> Deal:
    """``Deal(seat, (code,))``: one shared, immutable event per seat and card (dealing builds none)."""
    return dealt_row(seat)[code]


def dealt_row(seat: int) -> tuple[Deal, ...]:
    """The shared events of :func:`dealt` for ``seat``, by code."""
    row = _DEALT.get(seat)
    if row is None:
        row = _DEALT[seat] = tuple(Deal(seat, (c,)) for c in range(54))
    return row


def redact(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may see it (None: a spectator)."""
    cls = type(event)
    if cls is Play or cls is Trick or not event.cards:
        return event  # public (the common case, decided first)
    if cls is Deal:
        return event if event.seat == seat else hidden_deal(event.seat)
    if cls is Shuffle or cls is Redeal:
        return cls(event.seat, ())
    if cls is TakeKitty and event.shown:  # type: ignore[attr-defined]
        return event  # chaodi: the kitty as dealt is shown to all (RULES §5.2)
    if cls is TakeKitty and event.seat != seat:
        return TakeKitty(event.seat, (), event.shown)  # type: ignore[attr-defined]
    if cls is Bury and event.seat != seat:
        return Bury(event.seat, ())
    return event


def _opt_str(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"expected text, not {value!r}")
    return value


def _opt_int(value: Any) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


class LogView(Sequence["Event"]):
    """The first ``n`` events of a hand's public log, which only grows: what an observation holds
    instead of a copy of the log per observation (a copy, and freeing it, cost more than the rest of
    an observation). As immutable as a tuple while the log only grows; equal to a tuple or list of
    the same events."""

    __slots__ = ("_log", "_n")

    def __init__(self, log: list[Event], n: int) -> None:
        self._log = log
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, i: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(i, slice):
            return tuple(self._log[: self._n][i])
        n = self._n
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError("event index out of range")
        return self._log[j]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._log, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LogView):
            return self._n == other._n and (self._log is other._log or self._log[: self._n] == other._log[: other._n])
        if isinstance(other, (tuple, list)):
            return self._n == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LogView({list(self)!r})"

