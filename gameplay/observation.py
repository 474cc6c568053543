"""What one seat may know of a hand (:meth:`gameplay.hand.Hand.observation`): what bots decide from."""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import Any, NamedTuple

import variants
from gameplay.combos import Combo
from gameplay.declaring import Declaration
from gameplay.events import Event, LogView
from gameplay.order import Context


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
    events: Sequence[Event]
    """The public events so far (the deck, dealt cards and the kitty hidden; this seat's own cards are
    in ``hand`` and ``kitty``)."""
    bid: int | None
    bidder: int | None
    passed: frozenset[int]
    shown_kitty: tuple[int, ...] | None = None
    """chaodi: the kitty as dealt, shown to all when the dealer first took it (None before, and in
    other variants)."""
    elsewhere: tuple[int, ...] = ()
    """In the play phase, per code, the cards of the deck neither played nor in this seat's hand (in
    the other hands and the kitty): the deck's counts less ``played`` and ``hand``; () before."""
    trick_points: int = 0
    """In the play phase, the points of the cards on the table in this trick (0 before)."""

    def team(self, seat: int) -> int:
        """Who plays together: partnership sides; red-five dealer (0) vs defenders (1); yongzhou each alone."""
        kind = _TEAMS.get(self.variant)
        if kind is None:
            v = variants.get(self.variant)
            kind = _TEAMS[self.variant] = ("pairs" if v.partnership else
                                           "dealer" if v.settlement.contract else "alone")
        if kind == "pairs":
            return seat % 2
        if kind == "dealer":
            return 0 if seat == self.dealer else 1
        return seat


_TEAMS: dict[str, str] = {}
"""How each variant's seats form teams (``Observation.team``), looked up once per variant."""


_tuple_new = tuple.__new__


def no_rows(players: int) -> tuple[list[list[int]] | None, list[Sequence[list[int]]]]:
    """The cards elsewhere before any observation of the play phase: none kept, no row to lower."""
    return None, [()] * players


def elsewhere_rows(deck: Sequence[int], played: Sequence[int], hands: Sequence[Sequence[int]]) -> tuple[
        list[list[int]] | None, list[Sequence[list[int]]]]:
    """Per seat, the counts of the deck's cards neither played nor in its hand (``Observation.elsewhere``),
    and per seat the rows of the other seats, which each of its plays lowers from then on
    (:meth:`gameplay.hand.Hand.play`). Made by the first observation of the play phase, so that hands
    whose bots never observe it (random bots) do not keep them."""
    full = [0] * len(played)
    for c in deck:
        full[c] += 1
    unplayed = list(map(sub, full, played))
    rows = [list(map(sub, unplayed, held)) for held in hands]
    return rows, [[row for other, row in enumerate(rows) if other != seat] for seat in range(len(rows))]


def observe(h: Any, seat: int) -> Observation:
    """What ``seat`` may know of hand ``h`` (a :class:`gameplay.hand.Hand`) now. The public log is copied
    viewed, not copied (it only grows; a new view when it has grown since the last observation); the fields are given
    positionally, in their order (``tests/gameplay/test_fast_paths.py`` compares with the keywords)."""
    playing = h.phase == "play"
    log = h.public_log
    events = h._events
    if events is None or events._n != len(log) or events._log is not log:
        events = h._events = LogView(log, len(log))
    if playing and h.elsewhere is None:
        h.elsewhere, h._others = elsewhere_rows(h.deck, h.played, h.hands)
    return _tuple_new(Observation, (
        seat, h.n, h.rules.decks, h.variant, h.phase, h.level, h.trump, h.ctx, h.dealer,
        h.declaration, tuple(h.hands[seat]), tuple(h.kitty) if h.buried_by == seat else None,
        h.trick_leader if playing else None,
        h.trick_seats if playing else (),
        h.trick_lead if playing else None, tuple(h.played), tuple(h.voids), tuple(h.points),
        len(h.tricks), tuple(h.nleft), h.trick_best_seat if playing else None,
        h.trick_best if playing else None, events, h.contract, h.bidder, frozenset(h.bid_passed),
        h.shown_kitty, tuple(h.elsewhere[seat]) if playing else (), h.trick_points if playing else 0))
