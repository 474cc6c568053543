"""The calculator's answer for people: a few sentences and a small table, from a scored hand.

No response keys and no ``True``/``None`` reach the page: every figure is put in words (through
Django i18n, so in English and 简体中文), and the scoring core's own explanation follows as "why".
Seats and sides are counted from 1 here, as people count them (the scoring API's fields are 0-based).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.api import ScoredHand
from scoring.partnership import HandResult
from scoring.redfive import RedFiveResult
from variants.seats import seat_number, seat_numbers, side_number


@dataclass
class Answer:
    sentences: list[str]
    columns: list[str]
    rows: list[list[str]]
    explanation: list[str] = field(default_factory=list)


def signed(value: int) -> str:
    """``+4``, ``-8``, ``0``: a gain or a loss as a scorer writes it."""
    return f"{value:+d}" if value else "0"


def answer(scored: ScoredHand, players: int) -> Answer:
    """Sentences and a table for ``scored`` (the active language)."""
    if isinstance(scored.result, HandResult):
        body = _partnership(scored.response, scored)
    elif isinstance(scored.result, RedFiveResult):
        body = _red_five(scored.response, scored)
    else:
        body = _individual(scored.response, scored, players)
    body.explanation = scored.explanation()
    return body


def _partnership(r: dict[str, Any], scored: ScoredHand) -> Answer:
    before = scored.state.levels if scored.state is not None else ("", "")
    after = r["state"]["levels"]
    sentences = [_("The attackers score %(total)s points: %(tricks)s in tricks and %(bonus)s from the kitty.")
                 % {"total": r["attackers_total"], "tricks": r["attackers_total"] - r["kitty_bonus"],
                    "bonus": r["kitty_bonus"]}]
    side = r.get("gaining_side")
    if r["level_gain"] and side is not None:
        sentences.append(ngettext("Side %(side)s goes up %(n)s level: %(before)s → %(after)s.",
                                  "Side %(side)s goes up %(n)s levels: %(before)s → %(after)s.", r["level_gain"])
                         % {"side": side_number(side), "n": r["level_gain"], "before": before[side], "after": after[side]})
    else:
        sentences.append(_("Neither side goes up a level."))
    if r.get("match_winner") is not None:
        sentences.append(_("Side %(side)s wins the match.") % {"side": side_number(r["match_winner"])})
    elif r.get("match_drawn"):
        sentences.append(_("The match is drawn."))
    elif r["deal_changes"]:
        sentences.append(_("The deal passes to the attackers: seat %(seat)s deals the next hand.")
                         % {"seat": seat_number(r["state"]["dealer"])})
    else:
        sentences.append(_("The dealer side keeps the deal: seat %(seat)s deals the next hand.")
                         % {"seat": seat_number(r["state"]["dealer"])})
    rows = [[_("Side %(side)s (seats %(a)s, %(b)s)") % {"side": side_number(s), "a": seat_number(s), "b": seat_number(s + 2)}, str(before[s]), str(after[s])]
            for s in (0, 1)]
    return Answer(sentences, [_("Side"), _("Level before"), _("Level after")], rows)


def _red_five(r: dict[str, Any], scored: ScoredHand) -> Answer:
    dealer = getattr(scored.outcome, "dealer", 0)
    bid = getattr(scored.outcome, "bid", 0)
    points = r["game_points"]
    sentences = [
        _("The dealer's final is %(final)s against the bid of %(bid)s.") % {"final": r["dealer_final"], "bid": bid},
        _("The dealer (seat %(seat)s) gets %(points)s game points.") % {"seat": seat_number(dealer), "points": signed(points[dealer])},
    ]
    rows = [[_("Seat %(seat)s") % {"seat": seat_number(s)} + (" · " + _("dealer") if s == dealer else ""), signed(p)]
            for s, p in enumerate(points)]
    return Answer(sentences, [_("Seat"), _("Game points")], rows)


def _individual(r: dict[str, Any], scored: ScoredHand, players: int) -> Answer:
    points = list(getattr(scored.outcome, "points", ()))
    best = max(points) if points else 0
    leaders = [s for s, p in enumerate(points) if p == best]
    sentences = [ngettext("Seat %(seats)s scored the most (%(points)s).",
                          "Seats %(seats)s scored the most (%(points)s) each.", len(leaders))
                 % {"seats": seat_numbers(leaders), "points": best}]
    sentences.append(_("Seat %(seat)s is dealt to first in the next hand.") % {"seat": seat_number(r["next_dealer"])})
    rows = [[_("Seat %(seat)s") % {"seat": seat_number(s)}, str(p), signed(n)] for s, (p, n) in enumerate(zip(points, r["net"],
                                                                                                  strict=True))]
    return Answer(sentences, [_("Seat"), _("Points"), _("Net")], rows)
