"""``{% current_tournaments as tournaments %}``: the tournaments the home page leads to."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament
from tournaments.selectors import tournaments_current

register = template.Library()


@register.simple_tag(takes_context=True)
def current_tournaments(context: Any, limit: int = 8) -> list[Tournament]:
    """Running, then open for registration, then recently finished — what the visitor may see."""
    request = context.get("request")
    return tournaments_current(getattr(request, "user", None), limit)
