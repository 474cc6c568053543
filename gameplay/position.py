"""A hand not dealt here: a :class:`~gameplay.hand.Hand` placed directly at the start of the play
phase with given holdings and kitty — benchmarks, analysis, and a physical table's recorded hand
(:mod:`gameplay.record_replay` replays its entered plays through it).

Its log starts with a ``position`` event (the cards in dealing order, then the kitty): it records
the play but :func:`gameplay.notation.replay` refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gameplay.config import HandConfig, context_for
from gameplay.events import Position
from gameplay.hand import Hand

__all__ = ["hand_at_position"]


def hand_at_position(config: HandConfig, hands: Sequence[Sequence[int]], kitty: Sequence[int], *,
                     trump: str | None, dealer: int | None, leader: int | None = None,
                     buried_by: int | None = None, contract: int | None = None,
                     tie_break: int | None = None) -> Hand:
    """A hand at the start of the play phase: ``hands`` per seat after the burial, ``kitty`` buried
    by ``buried_by`` (default: the dealer); ``leader`` leads the first trick (default: the dealer).
    The level is the dealer side's level of ``config.state``. ``dealer`` is None only where nobody
    may declare (yongzhou without a declarer; then ``leader`` is required). ``contract``: red-five's
    bid; ``tie_break``: a yongzhou tie's seat drawn at the table (None: drawn by the hand)."""
    n, size = len(hands), len(hands[0])
    deck = [hands[s][i] for i in range(size) for s in range(n)] + list(kitty)
    h = Hand(config, deck=deck)
    for seat in range(n):
        for c in hands[seat]:
            h.hands[seat][c] += 1
        h.nleft[seat] = len(hands[seat])
    h.dealt = h.ndeal
    h.log = [Position(None, tuple(deck))]
    h.public_log = [Position()]
    h.dealer, h.trump = dealer, trump
    if h.partnership:
        assert h.state is not None and dealer is not None
        h.state = replace(h.state, dealer=dealer)
        h.level = h.state.levels[dealer % 2]
    h.ctx = context_for(h.rules, h.level, trump)
    h.kitty = list(kitty)
    h.buried_by = buried_by if buried_by is not None else dealer
    h.contract, h.tie_break = contract, tie_break
    first = leader if leader is not None else dealer
    assert first is not None
    h.begin_play(first)
    return h
