"""Rule options of a tournament: one mapping of engine and scoring options, checked by both cores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

import variants
from config.i18n import core_lang
from gameplay.errors import GameplayError
from gameplay.rulesets import ENGINE_OPTIONS, ruleset
from scoring.errors import ScoringInputError
from scoring.rules import SCORING_OPTIONS, scoring_rules, split_options
from tournaments.errors import ServiceError


def options_validate(*, variant: str, options: Mapping[str, Any] | None, decks: int = 2,
                     players: int = 4) -> dict[str, Any]:
    """Check a combined options mapping (engine and scoring options, split by name)."""
    if options is not None and not isinstance(options, Mapping):
        raise ServiceError.one("options", _("Rule options must be an object of option names and values, not %(type)s.")
                               % {"type": type(options).__name__})
    options = dict(options or {})
    errors: dict[str, list[str]] = {}
    for name in options:
        if name not in SCORING_OPTIONS and name not in ENGINE_OPTIONS:
            errors.setdefault(f"options.{name}", []).append(_("Unknown rule option."))
    scoring_part, engine_part = split_options(options)
    engine_part = {k: v for k, v in engine_part.items() if k in ENGINE_OPTIONS}
    kwargs: dict[str, Any] = {}
    spec = variants.VARIANTS.get(variant) if isinstance(variant, str) else None
    if spec is not None and spec.variable_decks:
        kwargs["decks"] = decks
    if spec is not None and spec.variable_players:
        kwargs["players"] = players
    try:
        scoring_rules(variant, scoring_part, lang=core_lang(), **kwargs)
    except ScoringInputError as exc:
        for field, messages in exc.field_errors.items():
            errors.setdefault(field, []).extend(messages)
    try:
        ruleset(variant, engine_part, **kwargs)
    except GameplayError as exc:
        field = getattr(exc, "field", None) or "options"
        errors.setdefault(field, []).append(exc.message(core_lang()) if hasattr(exc, "message") else str(exc))
    if errors:
        raise ServiceError(errors)
    return options
