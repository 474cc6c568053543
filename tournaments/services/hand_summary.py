"""What a hand entered trick by trick comes to, in words and small tables (issue 28).

The trick entry page shows it when every card is played and again after the hand is recorded: the
points each side (or seat) took, the kitty, who won the last trick, the level change and the next
dealer (partnership variants), or game points / net per seat (red five, Yongzhou). Every word comes
from Django i18n or the scoring core's own bilingual explanation, so the page shows no JSON and the
browser only lays the answer out. Seats read as everywhere else: ``Seat 1 · Zhang Wei``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.i18n import core_lang
from gameplay.record import RecordedHand
from scoring.api import explain_hand_request
from scoring.errors import ScoringInputError
from scoring.partnership import HandResult
from scoring.redfive import RedFiveResult
from scoring.yongzhou import YongzhouResult
from tournaments.labels import seat_player, side_label
from tournaments.models import Match, Stage
from tournaments.selectors.matches import seat_names


def players_in_seats(match: Match) -> list[str]:
    """The players in seat order: an individual table's seats, or a partnership match's two teams'
    players (side 0 in seats 0 and 2, side 1 in seats 1 and 3)."""
    if match.stage.format == Stage.Format.TABLE_ROUNDS:
        return [s.entry.name for s in match.seats.select_related("entry__team", "entry__player").order_by("seat")]
    return seat_names(match)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def _points(value: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", value) % {"n": value}


def hand_summary(match: Match, rec: RecordedHand, names: list[str] | None = None) -> dict[str, Any]:
    """The complete hand ``rec`` of ``match`` for people: ``tables`` (each an optional ``head`` and
    ``rows`` of text cells) and ``sentences`` (the scoring core's explanation). Empty for a hand
    that is not complete."""
    if not rec.complete or rec.outcome is None:
        return {"tables": [], "sentences": []}
    tournament = match.stage.tournament
    names = names if names is not None else players_in_seats(match)

    def seat(number: int | None) -> str:
        if number is None:
            return "—"
        return seat_player(tournament, number, names[number] if number < len(names) else None)

    sentences: list[str] = []
    after: dict[str, Any] = {}
    if rec.score_request is not None:
        try:
            body = explain_hand_request(rec.score_request, core_lang())
        except ScoringInputError:
            body = {}
        sentences = [str(s) for s in body.pop("explanation", [])]
        after = body
    last = rec.tricks[-1].winner if rec.tricks else None
    result = rec.result
    if isinstance(result, HandResult):
        dealer_side = int(rec.facts.dealer or 0) % 2
        attackers = 1 - dealer_side
        taken = [sum(p for s, p in enumerate(rec.points) if s % 2 == side) for side in (0, 1)]
        kitty = int(rec.outcome.get("kitty_points", rec.kitty_points or 0))
        kitty_text = _points(kitty)
        if result.kitty_bonus:
            kitty_text += " " + _("(×%(mult)s: +%(bonus)s for the attackers)") % {
                "mult": result.kitty_multiplier, "bonus": result.kitty_bonus}
        rows = [
            [_("Attackers (%(side)s)") % {"side": side_label(match, attackers)},
             _points(int(rec.outcome.get("attackers_points", taken[attackers])))],
            [_("Dealer's side (%(side)s)") % {"side": side_label(match, dealer_side)}, _points(taken[dealer_side])],
            [_("Kitty"), kitty_text],
            [_("Last trick won by"), seat(last)],
        ]
        if result.match_winner is not None:
            change = _("%(name)s wins the match!") % {"name": side_label(match, result.match_winner)}
        elif result.level_gain:
            change = ngettext("%(side)s goes up %(n)s level.", "%(side)s goes up %(n)s levels.",
                              result.level_gain) % {"side": side_label(match, result.gaining_side),
                                                    "n": result.level_gain}
        elif result.deal_changes:
            change = _("Nobody goes up; %(side)s takes the deal.") % {"side": side_label(match, attackers)}
        else:
            change = _("Nobody goes up.")
        rows.append([_("Levels"), change])
        levels = (after.get("state") or {}).get("levels")
        if levels:
            rows.append([_("Levels after the hand"), "\n".join(
                _("%(side)s: %(level)s") % {"side": side_label(match, side), "level": levels[side]} for side in (0, 1))])
        if result.match_winner is None:
            rows.append([_("Next dealer"), seat(result.next_dealer)])
        return {"tables": [{"head": None, "rows": rows}], "sentences": sentences}
    if isinstance(result, RedFiveResult):
        head = [_("Seat"), _("Points taken"), _("Game points")]
        rows = [[seat(s), str(p), _signed(result.game_points[s])] for s, p in enumerate(rec.points)]
        facts = [[_("Dealer"), seat(result.dealer)], [_("Bid"), str(rec.facts.bid or "—")],
                 [_("Kitty"), _points(int(rec.kitty_points or 0))], [_("Last trick won by"), seat(last)]]
        return {"tables": [{"head": None, "rows": facts}, {"head": head, "rows": rows}], "sentences": sentences}
    if isinstance(result, YongzhouResult):
        head = [_("Seat"), _("Points taken"), _("Net")]
        rows = [[seat(s), str(p), _signed(result.net[s])] for s, p in enumerate(rec.points)]
        facts = [[_("Last trick won by"), seat(last)], [_("Next dealer"), seat(result.next_dealer)]]
        return {"tables": [{"head": head, "rows": rows}, {"head": None, "rows": facts}], "sentences": sentences}
    return {"tables": [], "sentences": sentences}
