"""One trick being played, as a small state machine: whose turn it is, the lead, the plays, the
winner and the points (RULES.md §4), with each play checked by :mod:`gameplay.legality`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gameplay.combos import Combo, classify
from gameplay.errors import GameplayError, OutOfTurn, WrongPhase
from gameplay.legality import check_follow, check_lead, throw_check
from gameplay.order import Context
from gameplay.tricks import PlayEvent, trick_points, trick_winner
from variants.seats import en_seat, zh_seat


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
        if self.complete:
            raise WrongPhase("The trick is complete: nobody plays to it any more.", "本轮已出完，不能再出牌。")
        if seat != self.next_seat:
            raise OutOfTurn(f"{en_seat(seat)} played out of turn: {en_seat(self.next_seat, capital=False)} is to play.",
                            f"{zh_seat(seat)}没有轮到出牌：现在轮到{zh_seat(self.next_seat)}。")
        if self.lead is None:
            check_lead(self.ctx, hand, cards, seat=seat)
        else:
            check_follow(self.ctx, hand, self.lead, cards, prior=[list(e.on_table) for e in self.events], seat=seat)

    def can_play(self, seat: int, hand: Sequence[int], cards: Sequence[int]) -> bool:
        try:
            self.verify_play(seat, hand, cards)
        except GameplayError:
            return False
        return True

    def play(self, seat: int, hand: Sequence[int], cards: Sequence[int], *,
             hands: Mapping[int, Sequence[int]] | None = None) -> PlayEvent:
        """Verify and record a play; for a throw lead with ``hands``, apply the throw check."""
        self.verify_play(seat, hand, cards)
        event = PlayEvent(seat, tuple(cards))
        if self.lead is None:
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
