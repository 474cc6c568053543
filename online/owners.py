"""Rooms with an owner (docs/online.md, "Tournament matches"): the narrow hook through which an app above
``online`` (a tournament's online match) owns a room, while the room knows nothing of it.

An owner registers its hooks under a kind (``register("match", hooks)``, from its app's ``ready``); a room
stores ``owner_kind`` and ``owner_id``. The play code asks the owner twice:

* :meth:`OwnerHooks.next_config` — before each hand is dealt: the owner's :class:`HandConfig` (a tournament
  match's levels, dealer, must-play J and A attempts come from the match's own state, exactly as for recorded
  hands), or None for the room's own;
* :meth:`OwnerHooks.hand_finished` — when a hand ends, **in the same transaction** as the write that ended
  it (the last play, or a bot's tick): the owner records it (a tournament: ``hand_record``) and answers
  whether the match is over (None: as the room's own count says).

Why the same transaction and not after the commit: the room's hand and the owner's record of it are then
stored together or not at all — a room write that commits always carries its recorded hand, and a refused
record (an error) rolls the last action back, so the hand is neither lost nor recorded twice (the simplest
exactly-once). The owner's writes (locks on its rows) happen while the room row is locked; an owner must
never lock its rows and then wait for a room.

Besides the hooks, this module holds the owner's side of a room's seats: :func:`room_own` (a room just
created becomes owned: seats named, the host token the owner derives) and :func:`seat_claim` (hand a seat to the person
the owner says holds it: a new seat token; an older device of that seat is then replaced).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.db import transaction

from gameplay.config import HandConfig
from gameplay.hand import Hand
from online import fanout
from online.models import Room, RoomHand, Seat, digest, new_secret

__all__ = ["OwnerHooks", "hand_finished", "next_config", "owned_room", "register", "room_own", "seat_claim",
           "spectator_delay_set"]


class OwnerHooks(Protocol):
    def next_config(self, owner_id: int, room: Room) -> HandConfig | None:
        """The config of the room's next hand (the room row is locked), or None: the room's own."""

    def hand_finished(self, owner_id: int, room: Room, row: RoomHand, hand: Hand) -> bool | None:
        """``hand`` (stored as ``row``, its result on the row) just ended in ``room``: record it in the same
        transaction; answer whether the match is over (None: the room's own count decides)."""


_HOOKS: dict[str, OwnerHooks] = {}


def register(kind: str, hooks: OwnerHooks) -> None:
    """Owners of ``kind`` are answered by ``hooks`` (registering again replaces them)."""
    if not kind or len(kind) > 20:
        raise ValueError("an owner kind is 1 to 20 characters")
    _HOOKS[kind] = hooks


def _hooks(room: Room) -> OwnerHooks | None:
    if not room.owner_kind or room.owner_id is None:
        return None
    hooks = _HOOKS.get(room.owner_kind)
    if hooks is None:
        raise LookupError(f"no owner hooks registered for {room.owner_kind!r} (room {room.code})")
    return hooks


def next_config(room: Room) -> HandConfig | None:
    """The owner's config of the next hand, or None (no owner, or the owner leaves it to the room)."""
    hooks = _hooks(room)
    return None if hooks is None else hooks.next_config(int(room.owner_id or 0), room)


def hand_finished(room: Room, row: RoomHand, hand: Hand) -> bool | None:
    """Tell the owner (same transaction); its verdict on the match (None: no owner, or no verdict)."""
    hooks = _hooks(room)
    return None if hooks is None else hooks.hand_finished(int(room.owner_id or 0), room, row, hand)


def owned_room(kind: str, owner_id: int) -> Room | None:
    """The newest room of this owner, if any."""
    return Room.objects.filter(owner_kind=kind, owner_id=owner_id).order_by("-id").first()


def room_own(*, room: Room, kind: str, owner_id: int, host_token: str, names: Sequence[str] = (),
             spectator_delay: bool = False) -> Room:
    """Make a room just created (``online.services.room_create``, in the caller's transaction, before anyone
    joined) owned by (``kind``, ``owner_id``): its seats named (``names`` in seat order; nobody holds them
    until :func:`seat_claim`), the host token the owner derives (it places bots), its spectators one trick
    behind or not (``Room.spectator_delay``)."""
    if kind not in _HOOKS:
        raise LookupError(f"no owner hooks registered for {kind!r}")
    room.owner_kind, room.owner_id, room.host_digest = kind, owner_id, digest(host_token)
    room.spectator_delay = spectator_delay
    room.save(update_fields=["owner_kind", "owner_id", "host_digest", "spectator_delay", "updated_at"])
    for seat in Seat.objects.filter(room=room).order_by("seat"):
        if seat.seat < len(names) and names[seat.seat]:
            seat.name = str(names[seat.seat])[:40]
            seat.save(update_fields=["name"])
    return room


def seat_claim(*, code: str, kind: str, owner_id: int, seat: int, name: str = "") -> str:
    """The owner hands ``seat`` of its room to the person it names: a new seat token (returned, never
    stored), replacing any earlier one (that device's socket is replaced when the new one says hello) and
    taking the seat back from a bot. Nothing else of the room changes; the seats are told after the commit."""
    token = new_secret()
    with transaction.atomic():
        room = Room.objects.select_for_update().get(code=code)
        if room.owner_kind != kind or room.owner_id != owner_id:
            raise PermissionError(f"room {code} is not owned by {kind} {owner_id}")
        row = Seat.objects.get(room=room, seat=seat)
        if row.bot is not None:  # taken back from a bot: the player says ready
            row.bot, row.ready = None, False
        row.token_digest = digest(token)
        if name:
            row.name = name[:40]
        row.save(update_fields=["token_digest", "bot", "ready", "name"])
        transaction.on_commit(lambda: fanout.notify(code))
    return token


def spectator_delay_set(*, kind: str, owner_ids: Sequence[int], on: bool) -> list[str]:
    """Turn ``Room.spectator_delay`` on or off for the owners' rooms not finished; their spectators are told
    after the commit. The codes of the rooms changed."""
    codes = list(Room.objects.filter(owner_kind=kind, owner_id__in=list(owner_ids), spectator_delay=not on)
                 .exclude(status=Room.Status.FINISHED).values_list("code", flat=True))
    if codes:
        Room.objects.filter(code__in=codes).update(spectator_delay=on)
        for code in codes:
            transaction.on_commit(lambda code=code: fanout.notify(code))  # type: ignore[misc]
    return codes
