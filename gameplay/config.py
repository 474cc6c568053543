"""What a hand is played under: :class:`HandConfig` (variant, options, sizes, the match state before the
hand) and the cached trick-order :class:`~gameplay.order.Context` of a rule set, level and trump."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import variants
from gameplay.order import Context
from gameplay.outcome import scoring_sizes
from gameplay.rulesets import ENGINE_OPTIONS, RuleSet, ruleset
from scoring.partnership import MatchState
from scoring.rules import ScoringRules, scoring_rules


@dataclass(frozen=True)
class HandConfig:
    """What a hand needs before the deal.

    ``options`` may mix engine options (:data:`gameplay.rulesets.ENGINE_OPTIONS`) and scoring
    options; they are split by name. ``state`` (tractor, chaodi) is the match state before the hand;
    None means the first hand of a match (the first declarer becomes the dealer, 争庄).
    ``start_seat`` is the seat dealt to first (yongzhou-300: the last hand's winner; it leads when
    nobody declares). ``first_bidder`` is red-five's first bidder (None: seat 0, or a random seat
    with the ``first_bidder="random"`` option; the hand then keeps the drawn seat in its config, so its
    log replays without the seed).
    """

    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: int | None = None
    players: int | None = None
    state: MatchState | None = None
    start_seat: int | None = None
    first_bidder: int | None = None

    def _key(self) -> tuple[Any, ...] | None:
        """What both rule sets depend on, hashable (None: an option value that cannot be hashed)."""
        try:
            items = tuple(sorted((k, type(v).__name__, v) for k, v in self.options.items()))
            key = (self.variant, type(self.decks).__name__, self.decks, type(self.players).__name__, self.players,
                   items)
            hash(key)
        except TypeError:
            return None
        if len(_ENGINE_RULES) > 256 or len(_SCORING_RULES) > 256:
            _ENGINE_RULES.clear()
            _SCORING_RULES.clear()
        return key

    def engine_rules(self) -> RuleSet:
        key = self._key()
        hit = _ENGINE_RULES.get(key) if key is not None else None
        if hit is None:
            eng = {k: v for k, v in self.options.items() if k in ENGINE_OPTIONS}
            hit = ruleset(self.variant, eng, decks=self.decks, players=self.players)
            if key is not None:
                _ENGINE_RULES[key] = hit
        return hit

    def scoring_rules(self) -> ScoringRules:
        key = self._key()
        hit = _SCORING_RULES.get(key) if key is not None else None
        if hit is None:
            hit = self._build_scoring_rules()
            if key is not None:
                _SCORING_RULES[key] = hit
        return hit

    def _build_scoring_rules(self) -> ScoringRules:
        sc = {k: v for k, v in self.options.items() if k not in ENGINE_OPTIONS}
        decks, players = scoring_sizes(variants.get(self.variant), self.decks, self.players)
        return scoring_rules(self.variant, sc, decks=decks, players=players)

    def to_json(self) -> dict[str, Any]:
        st = None
        if self.state is not None:
            st = {"levels": list(self.state.levels), "dealer": self.state.dealer,
                  "a_failures": list(self.state.a_failures), "hands_played": self.state.hands_played}
        return {"variant": self.variant, "options": dict(self.options), "decks": self.decks, "players": self.players,
                "state": st, "start_seat": self.start_seat, "first_bidder": self.first_bidder}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandConfig:
        st = data.get("state")
        state = None
        if st is not None:
            state = MatchState(levels=(str(st["levels"][0]), str(st["levels"][1])), dealer=int(st["dealer"]),
                               a_failures=(int(st["a_failures"][0]), int(st["a_failures"][1])),
                               hands_played=int(st.get("hands_played", 0)))
        return cls(variant=str(data["variant"]), options=dict(data.get("options") or {}), decks=data.get("decks"),
                   players=data.get("players"), state=state, start_seat=data.get("start_seat"),
                   first_bidder=data.get("first_bidder"))


_ENGINE_RULES: dict[tuple[Any, ...], RuleSet] = {}
_SCORING_RULES: dict[tuple[Any, ...], ScoringRules] = {}
"""The rule sets of a config (immutable), by variant, options and sizes; only valid ones are kept."""

_CTX_CACHE: dict[tuple[Any, ...], Context] = {}


def context_for(rules: RuleSet, level: str | int | None, trump: str | None) -> Context:
    """A cached :class:`Context` (building one takes ~100 µs; hands reuse a few dozen)."""
    key = (rules.variant, rules.decks, rules.players, tuple(sorted(rules.options.items())), level, trump)
    ctx = _CTX_CACHE.get(key)
    if ctx is None:
        ctx = Context(rules, level, trump)
        if len(_CTX_CACHE) > 512:
            _CTX_CACHE.clear()
        _CTX_CACHE[key] = ctx
    return ctx
