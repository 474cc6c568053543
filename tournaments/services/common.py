"""What every service shares: the actor, the audit log, the organizer check, and the match lock with its
version check (a stale write is refused)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from tournaments.errors import NotAllowed, ServiceError, StaleVersion
from tournaments.models import AuditEntry, Match, Stage, Tournament
from tournaments.permissions import is_organizer
from tournaments.selectors.stamps import changes_key, new_stamp
from tournaments.services.ratings import ratings_sync_quietly

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Actor:
    """Who writes: a user (or None for a table link), and how they came in."""

    user: Any = None
    via: str = "login"

    @property
    def user_or_none(self) -> Any:
        return self.user if getattr(self.user, "is_authenticated", False) else None


SYSTEM = Actor(None, "system")


def audit(*, actor: Actor, action: str, tournament: Tournament | None, target: str = "",
          data: Mapping[str, Any] | None = None) -> None:
    AuditEntry.objects.create(tournament=tournament, actor=actor.user_or_none, via=actor.via, action=action,
                              target=target, data=dict(data or {}))
    if tournament is not None:
        # Every write audits, so this one hook tells the live pages about every hand recorded,
        # corrected or undone, every trick entered, every result and confirmation — once the
        # transaction has committed.
        match_id = int(target[6:]) if target.startswith("match:") and target[6:].isdigit() else None
        after_commit_changed(tournament.pk, match_id)


# Sent once per committed transaction that wrote to a tournament (``tournament_id``, the new change
# ``stamp``, ``match_ids``: the matches written to). ``tournaments.services.live_push`` listens
# (connected in the app's ``ready``) and pushes to the live pages' WebSocket groups.
tournament_changed = Signal()


class Changed:
    """The on-commit callback of a write to a tournament. A later write of the same transaction adds its
    match to the first one queued (``covered_by``) and is skipped when that one has run: one stamp and
    one push per commit. If the first is dropped (its savepoint rolled back), the later one runs itself."""

    def __init__(self, tournament_id: int, match_id: int | None, covered_by: Changed | None = None) -> None:
        self.tournament_id = tournament_id
        self.match_ids: set[int] = set() if match_id is None else {match_id}
        self.covered_by = covered_by
        self.done = False
        if covered_by is not None:
            covered_by.match_ids |= self.match_ids

    def __call__(self) -> None:
        if self.covered_by is not None and self.covered_by.done:
            return
        self.done = True
        stamp = touch_tournament(self.tournament_id)
        for receiver, answer in tournament_changed.send_robust(
                sender=Changed, tournament_id=self.tournament_id, stamp=stamp, match_ids=sorted(self.match_ids)):
            if isinstance(answer, Exception):  # a live push never fails a write: logged, the write stands
                logger.warning("live pages not told of tournament %s (%s): %r", self.tournament_id, receiver, answer)
        # Then the ratings follow every committed result (docs/ratings.md): a new final result is added at
        # once, any other change queues a recompute; a failure is logged, the write stands.
        ratings_sync_quietly(sorted(self.match_ids))


def after_commit_changed(tournament_id: int, match_id: int | None) -> None:
    """Queue the new change stamp and the live pages' push for after the commit (merged per transaction)."""
    connection = transaction.get_connection()
    first = None
    if connection.in_atomic_block:  # Django keeps the transaction's callbacks as (savepoint ids, callback, robust)
        first = next((entry[1] for entry in connection.run_on_commit
                      if isinstance(entry[1], Changed) and entry[1].tournament_id == tournament_id
                      and entry[1].covered_by is None), None)
    transaction.on_commit(Changed(tournament_id, match_id, first))


def touch_tournament(tournament_id: int) -> str:
    """Give the tournament a new change stamp in the cache (the live pages' fallback polls it every second)."""
    stamp = new_stamp()
    cache.set(changes_key(tournament_id), stamp, timeout=None)
    return stamp


def require_organizer(actor: Actor, tournament: Tournament) -> None:
    if not is_organizer(actor.user, tournament):
        raise NotAllowed(_("Only an organizer of this tournament may do this."))


def match_snapshot(match: Match) -> dict[str, Any]:
    """The public state of a match, as the API and 409 answers show it."""
    return {
        "id": match.pk,
        "version": match.version,
        "status": match.status,
        "hands_played": match.hands_played,
        "state": match.state or None,
        "winner_side": match.winner_side,
    }


# What hand entry reads with the locked match row, in the same statement: its stage and tournament (the
# checks, the rules) and round (the answer). The entries, their teams and players are read apart
# (``selectors.entry_answers``): joined here they made PostgreSQL plan ten tables for every hand.
RECORD_RELATED = ("stage__tournament", "round")


def lock_match(match_id: int, related: tuple[str, ...] = ("stage__tournament",)) -> Match:
    """The match row, locked for the rest of the transaction (``FOR UPDATE OF`` the match only: its
    stage, tournament and ``related`` rows are read with it but not locked, so the other matches of
    the stage are not held up)."""
    return Match.objects.select_for_update(of=("self",)).select_related(*related).get(pk=match_id)


def lock_stage(match: Match) -> None:
    """Lock the match's stage row: taken only when a result finishes the match, so that two matches
    of one stage finishing at once advance the stage (bracket, next round, its end) one after the other."""
    list(Stage.objects.select_for_update().filter(pk=match.stage_id).values_list("pk", flat=True))


def check_version(match: Match, version: Any) -> None:
    """Refuse a write sent for another version of the match (a stale screen): 409 with the current state."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError.one("version", _("Send the match's current version (a whole number) with every change."))
    if version != match.version:
        raise StaleVersion(match_snapshot(match))
