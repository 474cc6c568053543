"""Reads for the director's page of online play (docs/online.md, "Tournament matches"): every open online
match of a tournament with its room's state — waiting for whom, the hand being played, levels or totals, the
clock, each seat's player, bot, readiness and connection. A bounded number of queries: the matches, their
rooms, the rooms' seats and latest hands, whatever the number of tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from gameplay.cards import format_cards
from online.models import Room, RoomHand, Seat
from online.services import hand_from_log
from online.views import spectator_view
from tournaments.models import Match, Played, Tournament
from tournaments.services.online_rooms import KIND, OPEN, match_room


@dataclass
class OnlineTable:
    match: Match
    room: Room | None = None
    seats: list[Seat] = field(default_factory=list)
    hand: int | None = None
    """The number of the hand being played (or the last one), in the room."""

    @property
    def waiting_for(self) -> list[Seat]:
        """Seats nobody holds yet (no player opened the link, no bot), while the room waits to deal."""
        if self.room is None or self.room.status != Room.Status.WAITING:
            return []
        return [s for s in self.seats if not s.taken or (s.bot is None and not s.ready)]

    @property
    def absent(self) -> list[Seat]:
        """Players' seats with no open connection while the match is played (a bot plays their turns)."""
        if self.room is None or self.room.status != Room.Status.PLAYING:
            return []
        return [s for s in self.seats if s.bot is None and s.connected == 0]

    @property
    def state(self) -> str:
        return "no_room" if self.room is None else self.room.status

    @property
    def levels(self) -> Any:
        return (self.match.state or {}).get("levels") or (self.match.state or {}).get("totals")


def online_tables(tournament: Tournament) -> list[OnlineTable]:
    """The tournament's open online matches (ready or playing) with their rooms, in playing order."""
    online = Q(played=Played.ONLINE) | Q(played="", stage__played=Played.ONLINE)
    matches = list(Match.objects.filter(online, stage__tournament=tournament, status__in=OPEN)
                   .select_related("stage", "round", "entry0__team", "entry1__team", "entry0__player",
                                   "entry1__player").order_by("stage__number", "round__number", "position"))
    rooms: dict[int, Room] = {}
    for room in Room.objects.filter(owner_kind=KIND, owner_id__in=[m.pk for m in matches]).order_by("id"):
        rooms[int(room.owner_id or 0)] = room  # the newest room of each match wins
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(room__in=list(rooms.values())).order_by("room_id", "seat"):
        seats.setdefault(seat.room_id, []).append(seat)
    hands: dict[int, int] = {}
    for room_id, number in RoomHand.objects.filter(room__in=list(rooms.values())).values_list("room_id", "number"):
        hands[room_id] = max(number, hands.get(room_id, 0))
    tables = []
    for match in matches:
        found = rooms.get(match.pk)
        tables.append(OnlineTable(match, found, seats.get(found.pk, []) if found else [],
                                  hands.get(found.pk) if found else None))
    return tables


def table_full_view(match: Match) -> dict[str, Any] | None:
    """The director's full view of a match's online table (directors only: every seat's cards and the kitty):
    the public view of the hand being played (``spectator_view``'s ``hand``) with each seat's cards, or None
    when the match has no room. Read only (the hand is rebuilt from the stored log)."""
    room = match_room(match)
    if room is None:
        return None
    seats = list(Seat.objects.filter(room=room).order_by("seat"))
    row = RoomHand.objects.filter(room=room).order_by("-number").first()
    hand = hand_from_log(row.log) if row is not None else None
    public = spectator_view(room, hand, seats=seats, hand_row=row, live=True)  # never one trick behind
    return {
        "room": room.code, "status": room.status, "version": room.version,
        "hand": public.get("hand"),
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "connected": s.connected > 0, "auto": s.auto,
                   "cards": format_cards(hand.seat_cards(s.seat)) if hand is not None else ""} for s in seats],
        "kitty": format_cards(hand.kitty) if hand is not None else "",
    }
