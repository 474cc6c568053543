"""Winning a trick — RULES.md §4 "Ruffing and winning a trick" and §1 points.

A play can beat the current winner only if it is entirely of the led effective suit, or entirely
trump when a side suit was led, and it *covers* the lead's structure. Such plays compare by the
lead's highest-priority component; among equal plays the first played wins.

>>> from gameplay.rulesets import ruleset
>>> from gameplay.order import Context
>>> from gameplay.combos import classify, parse_cards
>>> ctx = Context(ruleset("tractor"), "2", "H")
>>> lead = classify(ctx, parse_cards("S5 S4 S4"))
>>> plays = [parse_cards(p) for p in ("S5 S4 S4", "H9 H7 H7", "H8 H8 H4")]
>>> trick_winner(ctx, lead, plays), trick_points(ctx, plays)
(2, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gameplay.combos import Combo, covers, highest_tractor_top, unit_nodes
from gameplay.order import TRUMP, Context

PlayKey = tuple[int, int]


def play_key(ctx: Context, lead: Combo, play: Sequence[int]) -> PlayKey | None:
    """Comparable strength of ``play`` against ``lead`` (larger beats), or None for a discard.

    The key is (1 if a ruff of a side-suit lead else 0, strength of the lead's priority component
    as shown by the play). Only keys computed against the same lead compare.
    """
    es = ctx.esuit
    s = lead.suit
    n = len(play)
    if n != lead.n or n == 0:
        return None
    first = es[play[0]]
    if first == s:
        ruff = 0
    elif first == TRUMP and s != TRUMP:
        ruff = 1
    else:
        return None
    st = ctx.strength
    comp = lead.components[0]
    if len(lead.components) == 1 and comp.length == 1:
        c0 = play[0]
        for c in play:
            if c != c0:
                return None
        if es[c0] != first:
            return None
        return (ruff, st[c0])
    for c in play:
        if es[c] != first:
            return None
    counts: dict[int, int] = {}
    for c in play:
        counts[c] = counts.get(c, 0) + 1
    if len(lead.components) == 1:
        # a tractor: the play must be exactly a tractor of the same width and length
        w = comp.width
        if any(k != w for k in counts.values()):
            return None
        nodes = sorted(counts, key=st.__getitem__)
        adj = ctx.adj_up
        if all(nodes[i + 1] in adj[nodes[i]] for i in range(len(nodes) - 1)):
            return (ruff, st[nodes[-1]])
        top = highest_tractor_top(ctx, counts.keys(), comp.length)
        return None if top is None else (ruff, top)
    if not covers(ctx, lead, counts):
        return None
    if comp.length >= 2:
        top = highest_tractor_top(ctx, unit_nodes(counts, comp.width), comp.length)
        return None if top is None else (ruff, top)
    w = comp.width
    best = max(st[c] for c, k in counts.items() if k >= w)
    return (ruff, best)


def trick_winner(ctx: Context, lead: Combo, plays: Sequence[Sequence[int]]) -> int:
    """Index (in play order, 0 = the lead) of the play that wins the trick."""
    best = 0
    best_key = play_key(ctx, lead, plays[0])
    assert best_key is not None, "the lead always covers itself"
    for i in range(1, len(plays)):
        key = play_key(ctx, lead, plays[i])
        if key is not None and key > best_key:
            best, best_key = i, key
    return best


def trick_points(ctx: Context, plays: Iterable[Iterable[int]]) -> int:
    """Points in the cards of a trick (5 = 5, 10 and K = 10; yongzhou-300 LJ = 20, BJ = 30)."""
    pts = ctx.points
    return sum(pts[c] for p in plays for c in p)


@dataclass(frozen=True)
class TrickResult:
    """Outcome of a complete trick: winning seat, index in play order, points."""

    winner_seat: int
    winner_index: int
    points: int


def decide_trick(ctx: Context, lead: Combo, plays: Sequence[Sequence[int]], leader: int = 0) -> TrickResult:
    """Winner and points of a complete trick whose plays are listed from the leader."""
    i = trick_winner(ctx, lead, plays)
    return TrickResult((leader + i) % ctx.rules.players, i, trick_points(ctx, plays))


@dataclass(frozen=True)
class PlayEvent:
    """One play added to a trick (what a hand's event log records)."""

    seat: int
    cards: tuple[int, ...]
    forced: tuple[int, ...] | None = None
    penalty: int = 0

    @property
    def on_table(self) -> tuple[int, ...]:
        """The cards that stay on the table (the forced cards after a failed throw)."""
        return self.forced if self.forced is not None else self.cards


class Trick:
    """A trick in progress: ``verify_play`` raises, ``can_play`` answers, ``play`` records an event.

    Hands are passed in as count lists (the trick does not own them). When ``hands`` of every seat
    are given to the lead, a throw is checked against the others and replaced by its forced part.

    >>> from gameplay.rulesets import ruleset
    >>> from gameplay.cards import parse_cards, to_counts
    >>> ctx = Context(ruleset("tractor"), "2", "H")
    >>> hands = {s: to_counts(parse_cards(h)) for s, h in enumerate(["SK SQ", "SA S3", "H3 H4", "S4 S5"])}
    >>> t = Trick(ctx, leader=0)
    >>> t.play(0, hands[0], parse_cards("SK SQ"), hands=hands).forced == tuple(parse_cards("SQ"))
    True
    >>> _ = t.play(1, hands[1], parse_cards("S3")); _ = t.play(2, hands[2], parse_cards("H3"))
    >>> _ = t.play(3, hands[3], parse_cards("S5")); t.complete, t.winner_seat(), t.points()
    (True, 2, 5)
    """

    def __init__(self, ctx: Context, leader: int) -> None:
        self.ctx = ctx
        self.leader = leader
        self.events: list[PlayEvent] = []
        self.lead: Combo | None = None

    @property
    def complete(self) -> bool:
        return len(self.events) == self.ctx.rules.players

    @property
    def next_seat(self) -> int | None:
        return None if self.complete else (self.leader + len(self.events)) % self.ctx.rules.players

    def verify_play(self, seat: int, hand: Sequence[int], cards: Sequence[int]) -> None:
        """Raise WrongPhase, OutOfTurn, InvalidCards or IllegalPlay if ``seat`` may not play ``cards``."""
        from gameplay.errors import OutOfTurn, WrongPhase
        from gameplay.legality import check_follow, check_lead

        if self.complete:
            raise WrongPhase("The trick is complete: nobody plays to it any more.", "本轮已出完，不能再出牌。")
        if seat != self.next_seat:
            raise OutOfTurn(f"Seat {seat} played out of turn: seat {self.next_seat} is to play.",
                            f"{seat}号座位没有轮到出牌：现在轮到{self.next_seat}号座位。")
        if self.lead is None:
            check_lead(self.ctx, hand, cards, seat=seat)
        else:
            check_follow(self.ctx, hand, self.lead, cards, prior=[list(e.on_table) for e in self.events], seat=seat)

    def can_play(self, seat: int, hand: Sequence[int], cards: Sequence[int]) -> bool:
        from gameplay.errors import GameplayError

        try:
            self.verify_play(seat, hand, cards)
        except GameplayError:
            return False
        return True

    def play(self, seat: int, hand: Sequence[int], cards: Sequence[int], *,
             hands: Mapping[int, Sequence[int]] | None = None) -> PlayEvent:
        """Verify and record a play; for a throw lead with ``hands``, apply the throw check."""
        from gameplay.legality import throw_check

        self.verify_play(seat, hand, cards)
        event = PlayEvent(seat, tuple(cards))
        if self.lead is None:
            from gameplay.combos import classify

            combo = classify(self.ctx, cards)
            if combo.is_throw and hands is not None:
                others = {s: h for s, h in hands.items() if s != seat}
                tc = throw_check(self.ctx, combo, others, seat)
                if tc.failed and tc.forced is not None:
                    event = PlayEvent(seat, tuple(cards), tc.forced.codes, tc.penalty)
                    combo = tc.forced
            self.lead = combo
        self.events.append(event)
        return event

    def winner_seat(self) -> int:
        assert self.lead is not None and self.complete
        i = trick_winner(self.ctx, self.lead, [e.on_table for e in self.events])
        return self.events[i].seat

    def points(self) -> int:
        return trick_points(self.ctx, (e.on_table for e in self.events))
