"""A director's decision on a match result: an awarded result or a forfeit, stored as an adjustment; the
match is then recomputed from its facts (hands and adjustments) and the bracket follows."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Adjustment, Match, Stage
from tournaments.services.common import Actor, audit, require_organizer
from tournaments.services.hands import match_confirm, settle
from tournaments.services.online_rooms import release_paused_table


def match_award(*, match_id: int, winner_side: int | None, reason: str, actor: Actor, kind: str = "awarded") -> Match:
    """A director's decision: award the match (forfeit or awarded result) to ``winner_side`` (None: a
    draw, for formats that allow one). Stored as an adjustment; the match is recomputed from the facts."""
    if winner_side not in (0, 1, None):
        raise ServiceError.one("winner_side", _("The winning side is 0 or 1."))
    if kind not in ("awarded", "forfeit"):
        raise ServiceError.one("kind", _("An award is an awarded result or a forfeit."))
    if not (reason or "").strip():
        raise ServiceError.one("reason", _("Say why the result is awarded."))
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("stage__tournament").get(pk=match_id)
        require_organizer(actor, match.stage.tournament)
        if match.status == Match.Status.FINISHED and match.confirmed_at is not None and match.next_match_id:
            nxt = Match.objects.get(pk=match.next_match_id)
            if nxt.hands_played:
                raise ServiceError.one("match", _("The winner already played on; correct the hands with force instead."))
        if match.entry0_id is None or match.entry1_id is None:
            raise ServiceError.one("match", _("This match does not have two entries yet."))
        if winner_side is None and match.stage.format in (Stage.Format.SINGLE_ELIMINATION,
                                                         Stage.Format.DOUBLE_ELIMINATION):
            raise ServiceError.one("winner_side", _("An elimination match needs a winner."))
        Adjustment.objects.create(tournament=match.stage.tournament, match=match, kind=kind, winner_side=winner_side,
                                  reason=reason.strip(), created_by=actor.user_or_none)
        audit(actor=actor, action=f"match.{kind}", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"winner_side": winner_side, "reason": reason})
        match.confirmed_at = None
        release_paused_table(match.pk)
        settled = settle(match, actor)
        if settled.confirmed_at is None:
            # The organizer's decision needs no confirmation by the table.
            return match_confirm(match_id=match.pk, actor=actor)
        return settled
