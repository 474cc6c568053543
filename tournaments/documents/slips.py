"""The result slip of a match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents.base import Document, DocumentError, rules_of
from tournaments.models import (
    Entry,
    Match,
    Tournament,
)


class ResultSlipDocument(Document):
    """A finished match's result: sides, winner, final levels, the hands in short, signatures."""

    kind = "result-slip"
    template_name = "tournaments/print/result_slip.html"
    title_zh = "成绩单"

    def __init__(self, *, tournament: Tournament, match: Match, **kwargs: Any) -> None:
        super().__init__(tournament=tournament, **kwargs)
        if match.status != Match.Status.FINISHED:
            raise DocumentError(_("The match is not finished yet."))
        self.match = match

    @property
    def title(self) -> str:
        return _("Result %(k)s") % {"k": self.match.key}

    def filename_detail(self) -> str:
        return self.match.key

    def get_context(self, units: Sequence[Any] | None = None) -> dict[str, Any]:
        m = self.match
        rules = rules_of(self.tournament)
        levels = (m.state or {}).get("levels") or [None, None]
        sides = []
        for side in (0, 1):
            entry = m.entry(side)
            sides.append({"number": side, "name": entry.name if entry else "—", "won": m.winner_side == side,
                          "level": levels[side], "players": _players_of(entry)})
        hands = [{"number": h.number, "dealer": h.dealer,
                  "levels": ((h.result or {}).get("state") or {}).get("levels") or ["", ""],
                  "gain": (h.result or {}).get("level_gain"), "side": (h.result or {}).get("gaining_side")}
                 for h in m.hands.all()]
        adjustments = list(m.adjustments.all())
        return {"match": m, "sides": sides, "hands": hands, "adjustments": adjustments, "rules": rules,
                "round_name": selectors.round_label(m.round.name), "winner": m.winner}


def _players_of(entry: Entry | None) -> list[str]:
    if entry is None:
        return []
    if entry.team is not None:
        return [entry.team.player1.name, entry.team.player2.name]
    return [entry.player.name] if entry.player is not None else []
