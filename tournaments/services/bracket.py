"""Elimination stages in the database: starting a tournament, advancing winners, resetting after a
forced correction. The bracket's shape comes from the pure :mod:`tournaments.formats.brackets`."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.formats import brackets
from tournaments.models import Adjustment, Entry, HandRecord, Match, Round, Stage, Tournament
from tournaments.selectors.ratings import seeding_ratings
from tournaments.services.common import Actor, audit
from tournaments.services.venue import ensure_venue_tables

MIN_ENTRIES, MAX_ENTRIES = 2, 512


def seeded_entries(entries: list[Entry], seeding: str, random_seed: int | None) -> tuple[list[int], int | None]:
    """Order entries best seed first and store the seeds actually used (so a draw can be explained)."""
    if not MIN_ENTRIES <= len(entries) <= MAX_ENTRIES:
        raise ServiceError.one("entries", _("An elimination needs 2 to 512 entries (there are %(n)s).")
                               % {"n": len(entries)})
    if seeding == "manual" and any(e.seed is None for e in entries):
        missing = ", ".join(e.name for e in entries if e.seed is None)
        raise ServiceError.one("seeding", _("Manual seeding needs a seed for every entry; missing: %(names)s.")
                               % {"names": missing})
    if seeding == "random" and random_seed is None:
        random_seed = random.SystemRandom().randrange(2**31)
    # "By rating": the players' ratings from earlier results (docs/ratings.md), hand-typed ones for the unrated.
    ratings = seeding_ratings(entries[0].tournament, entries) if seeding == "rating" else {}
    order = brackets.seed_order(
        [brackets.Entry(id=e.pk, rating=ratings.get(e.pk), seed=e.seed) for e in entries],
        seeding, rng=random.Random(random_seed) if seeding == "random" else None,
    )
    Entry.objects.filter(pk__in=order).update(seed=None)
    for number, pk in enumerate(order, start=1):
        Entry.objects.filter(pk=pk).update(seed=number)
    return order, random_seed


def build_elimination(stage: Stage, order: list[int]) -> None:
    """Store the bracket of ``stage`` (single or double elimination) for entries in seed order."""
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        bracket = brackets.double_elimination(order, grand_final=stage.grand_final)
    else:
        bracket = brackets.single_elimination(order, third_place=stage.third_place)
    _store_bracket(stage, bracket)


def _store_bracket(stage: Stage, bracket: brackets.Bracket[int]) -> None:
    """One Match row per bracket match; rounds numbered in play order (so "furthest round reached"
    ranks entries), the third-place match sharing the final's round."""
    views = {(v.section, v.round): v for v in bracket.rounds()}
    rounds: dict[tuple[str, int], Round] = {}
    final_key = None
    for m in bracket.matches:
        key = (m.section, m.round)
        if m.section == brackets.Section.THIRD_PLACE:
            continue
        if key not in rounds:
            view = views[key]
            rounds[key] = Round.objects.create(stage=stage, number=len(rounds) + 1, name=f"{view.code}:{view.number}")
        if m.section == brackets.Section.MAIN:
            final_key = key
    rows: dict[str, Match] = {}
    table = 0
    for order, m in enumerate(bracket.matches):
        if m.section == brackets.Section.THIRD_PLACE:
            assert final_key is not None
            round_row = rounds[final_key]
        else:
            round_row = rounds[(m.section, m.round)]
        ready = all(e is not None for e in m.entries)
        if ready:
            table += 1
        rows[m.key] = Match.objects.create(
            stage=stage, round=round_row, key=m.key, section=str(m.section), position=order + 1,
            entry0_id=m.entries[0], entry1_id=m.entries[1],
            status=Match.Status.READY if ready else Match.Status.PENDING, table=table if ready else None,
            final_if_won_by=m.final_if_won_by,
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
            ensure_venue_tables(target.stage.tournament, [target.table])
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
    if match.final_if_won_by is not None and match.final_if_won_by == match.winner_side:
        # Grand final won by the winners'-bracket champion: the reset match is not needed.
        Match.objects.filter(pk__in=[x for x in (match.next_match_id, match.loser_next_match_id) if x]).update(
            status=Match.Status.VOID, table=None)
    else:
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
    open_matches = (stage.matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.VOID, Match.Status.BYE]).exists()
                    or stage.matches.filter(status=Match.Status.FINISHED, confirmed_at__isnull=True).exists()
                    or (stage.rounds_planned is not None and stage.rounds.count() < stage.rounds_planned))
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
    if target.status == Match.Status.VOID:
        target.status = Match.Status.PENDING
    if target.hands_played or target.winner_side is not None:
        removed: list[dict[str, Any]] = [dict(row) for row in HandRecord.objects.filter(match=target)
                                         .values("number", "outcome")]
        if target.winner_side is not None:
            _clear_slot(target.next_match_id, target.next_slot, actor, reset)
            _clear_slot(target.loser_next_match_id, target.loser_next_slot, actor, reset)
        HandRecord.objects.filter(match=target).delete()
        # An awarded result or forfeit of the reset match goes with it: the match is played afresh.
        awards = Adjustment.objects.filter(match=target, kind__in=[Adjustment.Kind.AWARDED, Adjustment.Kind.FORFEIT])
        removed_awards = list(awards.values("kind", "winner_side", "reason"))
        awards.delete()
        target.state, target.hands_played, target.winner_side = {}, 0, None
        target.started_at = target.finished_at = None
        reset.append(target.key)
        audit(actor=actor, action="match.reset", tournament=target.stage.tournament, target=f"match:{target.pk}",
              data={"key": target.key, "removed_hands": removed, "removed_awards": removed_awards})
    _place(target, slot, None)


def match_result_changed(*, match: Match, old_winner_side: int | None, actor: Actor) -> list[str]:
    """After a correction changed a match's result: undo what the old result sent on, apply the new one.

    Answers the keys of the later matches that were reset.
    """
    reset: list[str] = []
    if old_winner_side is not None:
        _clear_slot(match.next_match_id, match.next_slot, actor, reset)
        _clear_slot(match.loser_next_match_id, match.loser_next_slot, actor, reset)
    if match.winner_side is not None and match.confirmed_at is not None:
        match_finished(match=match, actor=actor)
    else:
        _maybe_finish_stage(match.stage, actor)
    match.refresh_from_db()
    return reset


def after_result(*, match: Match, actor: Actor) -> None:
    """A result without a bracket to advance (a draw, a Swiss or round-robin match): finish the stage when done."""
    _maybe_finish_stage(match.stage, actor)
