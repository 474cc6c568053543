"""Elimination stages in the database: starting a tournament, advancing winners, resetting after a
forced correction. The bracket's shape comes from the pure :mod:`tournaments.brackets`."""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import brackets
from tournaments.errors import ServiceError
from tournaments.models import Entry, HandRecord, Match, Round, Stage, Tournament
from tournaments.services.common import Actor, audit
from tournaments.services.setup import require_organizer

MIN_ENTRIES, MAX_ENTRIES = 2, 512


def tournament_start(*, tournament: Tournament, actor: Actor, seeding: str = "manual",
                     random_seed: int | None = None, third_place: bool = False) -> Stage:
    """Seed the active entries, build the single-elimination bracket, and set the tournament running."""
    require_organizer(actor, tournament)
    if seeding not in Stage.Seeding.values:
        raise ServiceError.one("seeding", _("Seeding is manual, rating or random."))
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise ServiceError.one("status", _("The tournament has already started."))
        if not tournament.is_partnership:
            raise ServiceError.one("variant", _("Elimination brackets are for the partnership variants."))
        entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("team", "player"))
        if not MIN_ENTRIES <= len(entries) <= MAX_ENTRIES:
            raise ServiceError.one("entries", _("An elimination needs 2 to 512 entries (there are %(n)s).")
                                   % {"n": len(entries)})
        if seeding == "manual" and any(e.seed is None for e in entries):
            missing = ", ".join(e.name for e in entries if e.seed is None)
            raise ServiceError.one("seeding", _("Manual seeding needs a seed for every entry; missing: %(names)s.")
                                   % {"names": missing})
        if seeding == "random" and random_seed is None:
            random_seed = random.SystemRandom().randrange(2**31)
        order = brackets.seed_order(
            [brackets.Entry(id=e.pk, rating=e.rating, seed=e.seed) for e in entries],
            seeding, rng=random.Random(random_seed) if seeding == "random" else None,
        )
        # The seeds actually used are stored, so the bracket can be explained and redrawn.
        Entry.objects.filter(pk__in=order).update(seed=None)
        for number, pk in enumerate(order, start=1):
            Entry.objects.filter(pk=pk).update(seed=number)
        bracket = brackets.single_elimination(order, third_place=third_place)
        stage = Stage.objects.create(tournament=tournament, number=(tournament.stages.count() + 1),
                                     name=_("Elimination"), status=Stage.Status.RUNNING, seeding=seeding,
                                     random_seed=random_seed, third_place=third_place)
        _store_bracket(stage, bracket)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
        audit(actor=actor, action="tournament.start", tournament=tournament, target=f"stage:{stage.pk}",
              data={"seeding": seeding, "random_seed": random_seed, "order": order, "third_place": third_place})
        return stage


def _store_bracket(stage: Stage, bracket: brackets.Bracket[int]) -> None:
    final_round = max(m.round for m in bracket.matches if m.section == brackets.Section.MAIN)
    rounds: dict[int, Round] = {}
    for view in bracket.rounds(brackets.Section.MAIN):
        rounds[view.round] = Round.objects.create(stage=stage, number=view.round, name=view.code
                                                  if view.code != "round-of" else f"round-of-{view.number}")
    rows: dict[str, Match] = {}
    table = 0
    for m in bracket.matches:
        round_number = final_round if m.section == brackets.Section.THIRD_PLACE else m.round
        status = Match.Status.READY if all(e is not None for e in m.entries) else Match.Status.PENDING
        if status == Match.Status.READY:
            table += 1
        rows[m.key] = Match.objects.create(
            stage=stage, round=rounds[round_number], key=m.key, position=m.position,
            entry0_id=m.entries[0], entry1_id=m.entries[1], status=status,
            table=table if status == Match.Status.READY else None,
        )
    for m in bracket.matches:
        row = rows[m.key]
        if m.winner_to:
            row.next_match, row.next_slot = rows[m.winner_to.match], m.winner_to.slot
        if m.loser_to:
            row.loser_next_match, row.loser_next_slot = rows[m.loser_to.match], m.loser_to.slot
        row.save(update_fields=["next_match", "next_slot", "loser_next_match", "loser_next_slot"])


def _next_table(stage: Stage) -> int:
    used = set(stage.matches.filter(status__in=[Match.Status.READY, Match.Status.PLAYING])
               .exclude(table=None).values_list("table", flat=True))
    table = 1
    while table in used:
        table += 1
    return table


def _place(target: Match, slot: int, entry_id: int | None) -> None:
    setattr(target, f"entry{slot}_id", entry_id)
    if target.entry0_id and target.entry1_id:
        if target.status == Match.Status.PENDING:
            target.status = Match.Status.READY
            target.table = _next_table(target.stage)
    else:
        target.status = Match.Status.PENDING
        target.table = None
    target.version += 1
    target.save()


def match_finished(*, match: Match, actor: Actor) -> None:
    """Send the winner (and the loser, towards a third-place match) on; finish the stage at the end."""
    assert match.winner_side is not None
    winner = match.entry(match.winner_side)
    loser = match.entry(1 - match.winner_side)
    for target_id, slot, entry in ((match.next_match_id, match.next_slot, winner),
                                   (match.loser_next_match_id, match.loser_next_slot, loser)):
        if target_id is None or slot is None or entry is None:
            continue
        target = Match.objects.select_for_update().select_related("stage").get(pk=target_id)
        _place(target, slot, entry.pk)
    audit(actor=actor, action="match.finish", tournament=match.stage.tournament, target=f"match:{match.pk}",
          data={"winner": winner.name if winner else None, "key": match.key})
    _maybe_finish_stage(match.stage, actor)


def _maybe_finish_stage(stage: Stage, actor: Actor) -> None:
    open_matches = stage.matches.exclude(status=Match.Status.FINISHED).exists()
    stage_status = Stage.Status.RUNNING if open_matches else Stage.Status.FINISHED
    if stage.status != stage_status:
        stage.status = stage_status
        stage.save(update_fields=["status", "updated_at"])
        tournament = Tournament.objects.select_for_update().get(pk=stage.tournament_id)
        if stage_status == Stage.Status.FINISHED and not tournament.stages.exclude(status=Stage.Status.FINISHED).exists():
            tournament.status = Tournament.Status.FINISHED
        elif stage_status == Stage.Status.RUNNING and tournament.status == Tournament.Status.FINISHED:
            tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
        audit(actor=actor, action="stage.status", tournament=tournament, target=f"stage:{stage.pk}",
              data={"status": stage_status})


def dependent_matches(match: Match) -> list[Match]:
    """Every later match the result of ``match`` reaches, through winners and losers."""
    seen: dict[int, Match] = {}
    queue = [mid for mid in (match.next_match_id, match.loser_next_match_id) if mid]
    while queue:
        mid = queue.pop(0)
        if mid in seen:
            continue
        m = Match.objects.get(pk=mid)
        seen[mid] = m
        queue.extend(x for x in (m.next_match_id, m.loser_next_match_id) if x)
    return list(seen.values())


def _clear_slot(target_id: int | None, slot: int | None, actor: Actor, reset: list[str]) -> None:
    """Take an entry out of a later match; if that match had hands or a result, reset it and onward."""
    if target_id is None or slot is None:
        return
    target = Match.objects.select_for_update().select_related("stage__tournament").get(pk=target_id)
    if target.hands_played or target.winner_side is not None:
        removed: list[dict[str, Any]] = list(HandRecord.objects.filter(match=target).values("number", "outcome"))
        if target.winner_side is not None:
            _clear_slot(target.next_match_id, target.next_slot, actor, reset)
            _clear_slot(target.loser_next_match_id, target.loser_next_slot, actor, reset)
        HandRecord.objects.filter(match=target).delete()
        target.state, target.hands_played, target.winner_side = {}, 0, None
        target.started_at = target.finished_at = None
        reset.append(target.key)
        audit(actor=actor, action="match.reset", tournament=target.stage.tournament, target=f"match:{target.pk}",
              data={"key": target.key, "removed_hands": removed})
    _place(target, slot, None)


def match_result_changed(*, match: Match, old_winner_side: int | None, actor: Actor) -> list[str]:
    """After a correction changed a match's result: undo what the old result sent on, apply the new one.

    Answers the keys of the later matches that were reset.
    """
    reset: list[str] = []
    if old_winner_side is not None:
        _clear_slot(match.next_match_id, match.next_slot, actor, reset)
        _clear_slot(match.loser_next_match_id, match.loser_next_slot, actor, reset)
    if match.winner_side is not None:
        match_finished(match=match, actor=actor)
    else:
        _maybe_finish_stage(match.stage, actor)
    match.refresh_from_db()
    return reset


def match_award(*, match_id: int, winner_side: int, reason: str, actor: Actor, kind: str = "awarded") -> Match:
    """A director's decision: award the match (forfeit or awarded result) to ``winner_side``."""
    from tournaments.models import Adjustment

    if winner_side not in (0, 1):
        raise ServiceError.one("winner_side", _("The winning side is 0 or 1."))
    if not (reason or "").strip():
        raise ServiceError.one("reason", _("Say why the result is awarded."))
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("stage__tournament").get(pk=match_id)
        require_organizer(actor, match.stage.tournament)
        if match.status == Match.Status.FINISHED:
            raise ServiceError.one("match", _("This match is already finished; correct its hands instead."))
        if match.entry0_id is None or match.entry1_id is None:
            raise ServiceError.one("match", _("This match does not have two entries yet."))
        Adjustment.objects.create(tournament=match.stage.tournament, match=match, kind=kind, winner_side=winner_side,
                                  reason=reason.strip(), created_by=actor.user_or_none)
        match.winner_side = winner_side
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.version += 1
        match.save()
        audit(actor=actor, action=f"match.{kind}", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"winner_side": winner_side, "reason": reason})
        match_finished(match=match, actor=actor)
        return match
