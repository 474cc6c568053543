"""A tournament's rule book: the one place a tournament becomes scoring's rule set.

Services (recording, tables), pages and printed documents all ask :func:`rule_book`: the variant's
preset with the tournament's scoring options, and the size the variant's settlement depends on
(``variant.settlement.sizes``): red five's number of decks, a Yongzhou table's number of players.
Rule sets are frozen, so each is built once per variant, options, size and language.
"""

from __future__ import annotations

import json
from functools import lru_cache

import variants
from scoring.rules import ScoringRules, scoring_rules, split_options
from tournaments.models import Tournament

__all__ = ["rule_book", "variant_rule_book"]


@lru_cache(maxsize=512)
def _rules(variant: str, options: str, decks: int | None, players: int | None, lang: str) -> ScoringRules:
    return scoring_rules(variant, json.loads(options) or None, decks=decks, players=players, lang=lang)


def rule_book(tournament: Tournament, *, players: int | None = None, lang: str = "en") -> ScoringRules:
    """The scoring rules of ``tournament``: its variant, its scoring options and, where its settlement
    depends on them, its decks (red five) and the players of a table (``players``; by default the
    tournament's players per table). Raises ``ScoringInputError`` (in ``lang``) for stored options
    scoring refuses."""
    scoring_part, _rest = split_options(tournament.options or {})
    decks, table_players = tournament.spec.settlement.sizes(tournament.decks, players or tournament.players_per_table)
    return _rules(tournament.variant, json.dumps(scoring_part, sort_keys=True, default=str), decks, table_players, lang)


def variant_rule_book(variant: str, *, players: int | None = None) -> ScoringRules:
    """The preset rules of a bare variant (no tournament: walk-in sheets), with ``players`` at a table
    where the settlement depends on them."""
    decks, table_players = variants.get(variant).settlement.sizes(None, players)
    return _rules(variant, "{}", decks, table_players, "en")
