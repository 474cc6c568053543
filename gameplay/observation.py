"""What one seat may know of a hand (:meth:`gameplay.hand.Hand.observation`): what bots decide from."""

from __future__ import annotations

from typing import NamedTuple

import variants
from gameplay.combos import Combo
from gameplay.declaring import Declaration
from gameplay.events import Event
from gameplay.order import Context
from variants import Settlement


class Observation(NamedTuple):
    """What one seat may know: its own cards, everything public, the kitty only if it buried it."""

    seat: int
    players: int
    decks: int
    variant: str
    phase: str
    level: str | None
    trump: str | None
    ctx: Context | None
    dealer: int | None
    declaration: Declaration | None
    hand: tuple[int, ...]
    kitty: tuple[int, ...] | None
    leader: int | None
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    lead: Combo | None
    played: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    points: tuple[int, ...]
    tricks_played: int
    cards_left: tuple[int, ...]
    winning: int | None
    """The seat whose play currently wins the trick (None before the lead)."""
    winning_key: tuple[int, int] | None
    """Its strength against the lead (``gameplay.tricks.play_key``)."""
    events: tuple[Event, ...]
    """The public events so far (the deck, dealt cards and the kitty hidden; this seat's own cards are
    in ``hand`` and ``kitty``)."""
    bid: int | None
    bidder: int | None
    passed: frozenset[int]
    shown_kitty: tuple[int, ...] | None = None
    """chaodi: the kitty as dealt, shown to all when the dealer first took it (None before, and in
    other variants)."""

    def team(self, seat: int) -> int:
        """Who plays together: partnership sides; red-five dealer (0) vs defenders (1); yongzhou each alone."""
        kind = _TEAMS.get(self.variant)
        if kind is None:
            v = variants.get(self.variant)
            kind = _TEAMS[self.variant] = ("pairs" if v.partnership else
                                           "dealer" if v.settlement is Settlement.RED_FIVE else "alone")
        if kind == "pairs":
            return seat % 2
        if kind == "dealer":
            return 0 if seat == self.dealer else 1
        return seat


_TEAMS: dict[str, str] = {}
"""How each variant's seats form teams (``Observation.team``), looked up once per variant."""
