"""Small helpers shared by the engine tests (text notation in, codes out)."""

from __future__ import annotations

from gameplay.cards import format_cards, parse_cards, to_counts
from gameplay.combos import Combo, classify
from gameplay.order import Context
from gameplay.rulesets import ruleset


def make_ctx(variant: str = "tractor", level: str | None = "2", trump: str | None = "H", *,
             options: dict | None = None, decks: int | None = None, players: int | None = None) -> Context:
    if variant in ("red-five", "yongzhou-300"):
        level = None
    return Context(ruleset(variant, options, decks=decks, players=players), level, trump)


def cards(text: str) -> list[int]:
    return parse_cards(text)


def hand(text: str) -> list[int]:
    return to_counts(parse_cards(text))


def lead(ctx: Context, text: str) -> Combo:
    return classify(ctx, parse_cards(text))


def norm(ctx: Context, text: str) -> str:
    """Canonical text of a play, strongest first."""
    return format_cards(ctx.sorted_desc(parse_cards(text)))


def plays_text(ctx: Context, plays) -> set[str]:
    return {format_cards(ctx.sorted_desc(list(p))) for p in plays}
