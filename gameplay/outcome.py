"""A finished hand → scoring: the one bridge from the engine to ``scoring``.

:func:`settle` reads a hand whose last trick is won and gives the ``outcome`` object of
``POST /api/v1/scoring/hand`` for its variant together with what ``scoring`` makes of it;
:func:`score_request` is the whole request body. What is read is named by :class:`FinishedHand`
(:class:`gameplay.hand.Hand` is one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from gameplay.cards import code_rank, make_code
from gameplay.combos import decompose
from gameplay.events import Event
from gameplay.order import Context
from gameplay.rulesets import ENGINE_OPTIONS, RuleSet
from scoring.partnership import HandResult, LastTrick, MatchState, PartnershipOutcome, apply_hand
from scoring.redfive import RedFiveCapture, RedFiveOutcome, RedFiveResult, settle_red_five
from scoring.rules import PartnershipRules, RedFiveRules, ScoringRules, YongzhouRules
from scoring.yongzhou import YongzhouOutcome, YongzhouResult, settle_yongzhou
from variants import Variant
from variants.behaviour import ByKey, LevelsSettlement, RedFiveSettlement, YongzhouSettlement

RED_FIVE = make_code(2, 5)
"""The card that red five's settlement follows: ♥5."""


class FinishedHand(Protocol):
    """What :func:`settle` and :func:`score_request` read of a hand."""

    spec: Variant
    rules: RuleSet
    scoring: ScoringRules
    ctx: Context | None
    state: MatchState | None
    match_state: MatchState | None
    dealer: int | None
    trump: str | None
    level: str | None
    contract: int | None
    deck: tuple[int, ...]
    kitty: list[int]
    points: list[int]
    penalties: list[int]
    tie_break: int | None
    """A yongzhou tie's drawn seat when it was drawn at the table (a recorded hand); None: draw here."""
    tricks: list[tuple[int, tuple[Event, ...], int, int]]
    outcome: dict[str, Any] | None

    @property
    def options(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class Settled:
    """A scored hand: the outcome object, scoring's result, and (partnership) the match state before
    and after the hand."""

    outcome: dict[str, Any]
    result: HandResult | RedFiveResult | YongzhouResult
    match_state: MatchState | None = None
    new_state: MatchState | None = None


def kitty_points(hand: FinishedHand) -> int:
    assert hand.ctx is not None
    return sum(hand.ctx.points[c] for c in hand.kitty)


def settle(hand: FinishedHand) -> Settled:
    """The outcome and result of ``hand`` (its last trick won), by its variant's settlement."""
    return SETTLERS[hand.spec.settlement](hand)


def _levels(hand: FinishedHand) -> Settled:
    ctx = hand.ctx
    state = hand.state
    sr = hand.scoring
    assert ctx is not None and state is not None and hand.dealer is not None and isinstance(sr, PartnershipRules)
    _last_leader, last_plays, last_winner, _ = hand.tricks[-1]
    dside = hand.dealer % 2
    attackers = sum(p for s, p in enumerate(hand.points) if s % 2 != dside)
    last: Literal["dealer", "attackers"] = "attackers" if last_winner % 2 != dside else "dealer"
    win_play = next(e.on_table for e in last_plays if e.seat == last_winner)
    largest = 1 if len(win_play) == 1 else max(c.size for c in decompose(ctx, win_play))  # a single: 1
    out: dict[str, Any] = {"attackers_points": attackers, "kitty_points": kitty_points(hand),
                           "last_trick": {"winner": last, "largest": largest} if last == "attackers"
                           else {"winner": last}}
    if sr.a_pass_conditions and hand.level == sr.top_level:
        def dealer_a(plays: Sequence[Event]) -> bool:
            return any(e.seat is not None and e.seat % 2 == dside and any(c < 52 and code_rank(c) == 14
                                                                           for c in e.on_table) for e in plays)
        out["a_first_trick"] = dealer_a(hand.tricks[0][1])
        out["a_last_trick"] = dealer_a(last_plays)
    if sr.throw_penalties:
        out["throw_penalties"] = sum(p if s % 2 == dside else -p for s, p in enumerate(hand.penalties))
    po = PartnershipOutcome(attackers_points=attackers, kitty_points=out["kitty_points"],
                            last_trick=LastTrick(last, largest if last == "attackers" else None),
                            a_first_trick=out.get("a_first_trick"), a_last_trick=out.get("a_last_trick"),
                            throw_penalties=out.get("throw_penalties", 0))
    result, new_state = apply_hand(sr, state, po)
    return Settled(out, result, match_state=state, new_state=new_state)


def _red_five(hand: FinishedHand) -> Settled:
    sr = hand.scoring
    assert isinstance(sr, RedFiveRules) and hand.dealer is not None and hand.contract is not None
    dealer = hand.dealer
    last_winner = hand.tricks[-1][2]
    caps: list[dict[str, int]] = []
    for _, plays, winner, _ in hand.tricks:
        for e in plays:
            assert e.seat is not None
            n5 = e.on_table.count(RED_FIVE)
            if n5 and (e.seat == dealer) != (winner == dealer):
                caps.extend({"played_by": e.seat, "won_by": winner} for _ in range(n5))
    out: dict[str, Any] = {"dealer": dealer, "bid": hand.contract, "trump": hand.trump, "dealer_points": hand.points[dealer],
           "kitty_points": kitty_points(hand), "dealer_won_last_trick": last_winner == dealer, "red_fives": caps}
    ro = RedFiveOutcome(dealer=dealer, bid=hand.contract, trump=str(hand.trump), dealer_points=hand.points[dealer],
                        kitty_points=out["kitty_points"], dealer_won_last_trick=last_winner == dealer,
                        red_fives=tuple(RedFiveCapture(c["played_by"], c["won_by"]) for c in caps))
    return Settled(out, settle_red_five(sr, ro))


def _yongzhou(hand: FinishedHand) -> Settled:
    sr = hand.scoring
    assert isinstance(sr, YongzhouRules)
    out: dict[str, Any] = {"points": list(hand.points)}
    if hand.dealer is not None:
        out["declarer"] = hand.dealer
    best = max(hand.points)
    tied = [s for s, p in enumerate(hand.points) if p == best]
    tie_break = None
    if len(tied) > 1:
        if hand.tie_break is not None:
            tie_break = hand.tie_break  # drawn at the table; the scoring core checks it is one of the tied
        else:
            # RULES §6.4: a tie for the next dealer is drawn at random — seeded by the deal, so that
            # a replay of the log draws the same seat.
            tie_break = tied[random.Random("tie-break:" + ",".join(map(str, hand.deck))).randrange(len(tied))]
        out["tie_break"] = tie_break
    result = settle_yongzhou(sr, YongzhouOutcome(points=tuple(hand.points), declarer=hand.dealer,
                                                 tie_break=tie_break))
    return Settled(out, result)


SETTLERS: ByKey[Callable[[FinishedHand], Settled]] = ByKey({
    LevelsSettlement.key: _levels, RedFiveSettlement.key: _red_five, YongzhouSettlement.key: _yongzhou})
"""How a played hand is settled, by its variant's :class:`variants.Settlement`."""


def scoring_sizes(spec: Variant, decks: int | None, players: int | None) -> tuple[int | None, int | None]:
    """The (decks, players) that scoring takes for a variant: red five's settlement depends on the
    decks, yongzhou's on the players; the others on neither (``Settlement.sizes``)."""
    return spec.settlement.sizes(decks, players)


def score_request(hand: FinishedHand) -> dict[str, Any]:
    """The body of ``POST /api/v1/scoring/hand`` that scores ``hand``."""
    assert hand.outcome is not None
    body: dict[str, Any] = {"variant": hand.spec.key, "outcome": hand.outcome}
    sc = {k: v for k, v in hand.options.items() if k not in ENGINE_OPTIONS}
    if sc:
        body["options"] = sc
    decks, players = scoring_sizes(hand.spec, hand.rules.decks, hand.rules.players)
    if decks is not None:
        body["decks"] = decks
    if players is not None:
        body["players"] = players
    if hand.spec.partnership:
        st = hand.match_state
        assert st is not None
        body["state"] = {"levels": list(st.levels), "dealer": st.dealer, "a_failures": list(st.a_failures)}
    return body
