"""``{% load seat_numbers %}{{ seat|seat_number }}``: a 0-based seat as people count it (1–4).

The rules pages (referee, replay, calculator) show the engine's 0-based seats; people read them
from 1, as on the tournament pages (:mod:`variants.seats`).
"""

from __future__ import annotations

from typing import Any

from django import template

from variants.seats import seat_number as _seat_number

register = template.Library()


@register.filter
def seat_number(seat: Any) -> Any:
    """``0`` → ``1`` … ``3`` → ``4``; ``None`` and anything not a seat number are given back as they are."""
    if seat is None or isinstance(seat, bool) or seat == "":
        return seat
    try:
        return _seat_number(int(seat))
    except (TypeError, ValueError):
        return seat
