"""Helpers for whole-hand tests: fixed decks, driving phases, checking a finished hand."""

from __future__ import annotations

import json
import random
from typing import Any

from gameplay.cards import deck_codes, parse_cards, to_counts
from gameplay.config import HandConfig
from gameplay.hand import Hand
from gameplay.notation import replay
from gameplay.referee import rule_trick
from gameplay.rulesets import ruleset
from scoring.partnership import MatchState


def arrange(variant: str, seats: dict[int, str], kitty: str = "", *, players: int | None = None,
            decks: int | None = None, start: int = 0, seed: int = 0) -> list[int]:
    """A deck in dealing order where seat ``s`` receives the cards ``seats[s]`` first (in that order),
    the kitty starts with ``kitty``, and the rest is a seeded shuffle of the remaining cards."""
    rules = ruleset(variant, decks=decks, players=players)
    pool = deck_codes(rules.decks, rules.removed_ranks)
    want = {s: parse_cards(t) for s, t in seats.items()}
    kit = parse_cards(kitty)
    for c in [*[c for cs in want.values() for c in cs], *kit]:
        pool.remove(c)
    random.Random(seed).shuffle(pool)
    n, size = rules.players, rules.hand_size
    hands = {s: list(want.get(s, [])) for s in range(n)}
    for s in range(n):
        while len(hands[s]) < size:
            hands[s].append(pool.pop())
    deck = []
    for i in range(size):
        for k in range(n):
            deck.append(hands[(start + k) % n][i])
    return deck + kit + pool


def hand_of(variant: str, deck: list[int], *, state: MatchState | None = None, first_hand: bool = False,
            **kw: Any) -> Hand:
    if variant in ("tractor", "chaodi") and state is None and not first_hand:
        first = "2" if variant == "tractor" else "3"
        state = MatchState(levels=(first, first), dealer=0, hands_played=1)
    return Hand(HandConfig(variant, state=state, **kw), deck=deck)


def deal_rounds(h: Hand, rounds: int) -> None:
    """Deal ``rounds`` cards to every seat."""
    for _ in range(rounds * h.n):
        h.deal()


def pass_all(h: Hand, phase: str = "declare") -> None:
    """Every seat asked in ``phase`` passes."""
    while h.phase == phase or (phase == "declare" and h.phase == "deal" and h.offers):
        _, seat = h.to_act()
        assert seat is not None
        h.pass_(seat)


def bury_lowest(h: Hand) -> None:
    """The kitty holder buries its first cards (in code order)."""
    seat = h.kitty_holder
    assert seat is not None
    h.bury(seat, h.seat_cards(seat)[: h.rules.kitty_size])


def check_hand(h: Hand, *, referee: bool = False, replay_it: bool = True) -> None:
    """Invariants of a finished hand: cards dealt once, points add up, the replay reproduces it, and
    (``referee``) every trick is legal by the referee of the rules engine."""
    assert h.finished
    played_and_kitty = [c for c in range(54) for _ in range(h.played[c])] + list(h.kitty)
    assert sorted(played_and_kitty) == sorted(h.deck)
    start = max((i for i, e in enumerate(h.log) if e.kind in ("shuffle", "redeal")), default=0)
    deals = [e for e in h.log[start:] if e.kind == "deal"]
    assert len(deals) == h.rules.hand_size * h.n  # every card of the (last) deck dealt once
    assert sorted([e.cards[0] for e in deals] + list(h.log[start].cards[len(deals):])) == sorted(h.deck)
    assert all(sum(x) == 0 for x in h.hands)
    ctx = h.ctx
    assert ctx is not None
    assert sum(h.points) + h.kitty_points() == h.rules.total_points
    if replay_it:
        again = replay(json.loads(h.dumps()))
        assert again.log == h.log and again.outcome == h.outcome
    if referee:
        referee_check(h)


def referee_check(h: Hand) -> None:
    """Rebuild the hands before every trick and have ``gameplay.referee.rule_trick`` judge it."""
    ctx = h.ctx
    assert ctx is not None
    hands = [to_counts([]) for _ in range(h.n)]
    kitty_taker: dict[int, list[int]] = {}
    for e in h.log:
        if e.kind == "deal":
            hands[e.seat][e.cards[0]] += 1
        elif e.kind == "take_kitty":
            for c in e.cards:
                hands[e.seat][c] += 1
            kitty_taker[e.seat] = list(e.cards)
        elif e.kind == "bury":
            for c in e.cards:
                hands[e.seat][c] -= 1
        elif e.kind == "redeal":
            hands = [to_counts([]) for _ in range(h.n)]
    fmt = " ".join
    from gameplay.cards import CODE_NAMES
    for leader, plays, winner, points in h.tricks:
        payload: dict[str, Any] = {
            "variant": h.variant, "trump": h.trump, "leader": leader,
            "hands": {str(s): fmt(CODE_NAMES[c] for c in range(54) for _ in range(hands[s][c])) for s in range(h.n)},
            "plays": [fmt(CODE_NAMES[c] for c in e.cards) for e in plays],
        }
        if h.rules.has_levels:
            payload["level"] = h.level
        if h.variant == "red-five":
            payload["decks"] = h.rules.decks
        if h.variant == "yongzhou-300":
            payload["players"] = h.n
        ruling = rule_trick(payload).as_api()
        assert all(p["legal"] for p in ruling["plays"]), ruling
        assert ruling["winner"] == winner and ruling["points"] == points, (ruling, winner, points)
        for e in plays:
            for c in e.on_table:
                hands[e.seat][c] -= 1
