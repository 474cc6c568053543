"""Hands at an individual table (red five, Yongzhou): record, undo and correct, scored by the scoring core;
a finished table finishes its round's stage when all are done."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.i18n import core_lang
from scoring.api import score_outcome
from scoring.errors import ScoringInputError
from scoring.redfive import RedFiveOutcome
from scoring.rules import ScoringRules
from tournaments.errors import ServiceError
from tournaments.models import HandRecord, Match, Stage, Tournament
from tournaments.rulebook import rule_book
from tournaments.services.bracket import after_result
from tournaments.services.common import Actor, audit, check_version, lock_match, lock_stage
from tournaments.services.figures import Figures, Outcome, as_figures
from tournaments.services.hands import HandOutcome, require_open_result
from tournaments.services.stages import INDIVIDUAL_DEFAULT_HANDS


def table_rules(match: Match) -> ScoringRules:
    """The scoring rules of an individual table: red five by the tournament's decks, Yongzhou by the
    table's players."""
    tournament = match.stage.tournament
    return rule_book(tournament, players=int((match.state or {}).get("players") or tournament.players_per_table))


def score_table_hand(match: Match, outcome: Outcome | Mapping[str, Any]) -> dict[str, Any]:
    """One hand of an individual table through scoring's typed functions: ``outcome`` typed, or stored
    figures parsed here (the storage edge). Answers the result as stored (raises ScoringInputError)."""
    lang = core_lang()
    variant = match.stage.tournament.variant
    typed = outcome if not isinstance(outcome, Mapping) else Figures(outcome).typed(variant, lang)
    return score_outcome(table_rules(match), typed, None, lang).response


def table_hand_record(*, match_id: int, outcome: Figures | Mapping[str, Any], version: Any, actor: Actor) -> Any:
    """Record one hand at an individual table through scoring; the table is finished after the
    stage's number of hands."""
    figures = as_figures(outcome)
    with transaction.atomic():
        match = lock_match(match_id)
        return table_hand_record_locked(match, figures=figures, version=version, actor=actor)


def table_hand_record_locked(match: Match, *, figures: Figures, version: Any, actor: Actor) -> HandOutcome:
    """:func:`table_hand_record` on a match row the caller locked in its open transaction."""
    check_version(match, version)
    tournament = match.stage.tournament
    if match.stage.format != Stage.Format.TABLE_ROUNDS or match.status in (Match.Status.FINISHED,):
        raise ServiceError.one("match", _("This table is not taking hands."))
    if tournament.status != Tournament.Status.RUNNING:
        raise ServiceError.one("match", _("The tournament is not running."))
    try:
        typed = figures.typed(tournament.variant, core_lang())
        result = score_table_hand(match, typed)
    except ScoringInputError as exc:
        raise ServiceError(exc.field_errors) from exc
    state = dict(match.state or {})
    if tournament.spec.declaring.bids:  # the bid's winner deals
        assert isinstance(typed, RedFiveOutcome)
        dealer = int(typed.dealer)
    else:
        dealer = int(state.get("dealer", 0))
        state["dealer"] = result["next_dealer"]
    totals = list(state.get("totals") or [0] * int(state.get("players") or 4))
    key = "game_points" if "game_points" in result else "net"
    totals = [a + b for a, b in zip(totals, result[key], strict=True)]
    state["totals"] = totals
    hand = HandRecord.objects.create(match=match, number=match.hands_played + 1, dealer=dealer,
                                     trump=str(getattr(typed, "trump", "") or ""), outcome=dict(figures.entered),
                                     result=result, entered_by=actor.user_or_none, entered_via=actor.via)
    changed = ["hands_played", "state", "status", "version", "updated_at"]
    match.hands_played += 1
    match.state = state
    if match.started_at is None:
        match.started_at = timezone.now()
        changed.append("started_at")
    if match.hands_played >= (match.stage.hands_per_table or INDIVIDUAL_DEFAULT_HANDS):
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        changed.append("finished_at")
        if not tournament.require_confirmation or actor.via == "online":  # the engine played it: no confirmation
            match.confirmed_at = match.finished_at
            changed.append("confirmed_at")
    else:
        match.status = Match.Status.PLAYING
    match.version += 1
    match.save(update_fields=changed)
    audit(actor=actor, action="table.hand", tournament=tournament, target=f"match:{match.pk}",
          data={"number": hand.number, "outcome": hand.outcome, "result": result})
    if match.status == Match.Status.FINISHED:
        lock_stage(match)
        after_result(match=match, actor=actor)
    return HandOutcome(hand, result, match)


def _table_replay(match: Match, outcomes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score every hand of a table again (raises ServiceError naming the hand)."""
    results = []
    for number, outcome in enumerate(outcomes, start=1):
        try:
            results.append(score_table_hand(match, outcome))
        except ScoringInputError as exc:
            raise ServiceError({f"hands.{number}.{k}": v for k, v in exc.field_errors.items()}) from exc
    return results


@dataclass(frozen=True)
class TableReplay:
    """A table played again from its hands' figures, written nowhere: each hand's result, its dealer
    (red five: who won the bid; Yongzhou: the seat dealt to first, the last hand's winner) and every
    seat's total after it; ``dealer`` is who deals the next hand."""

    results: list[dict[str, Any]]
    dealers: list[int]
    totals: list[list[int]]
    dealer: int


def table_replay(match: Match, outcomes: list[dict[str, Any]]) -> TableReplay:
    """Replay a table from ``outcomes`` (raises ServiceError keyed ``hands.<n>.…``): what a correction
    or an undo writes, and what the correction page previews."""
    results = _table_replay(match, outcomes)
    state = match.state or {}
    totals = [0] * int(state.get("players") or 4)
    dealer = int(state.get("first", 0))
    bidding = match.stage.tournament.spec.declaring.bids
    dealers: list[int] = []
    running: list[list[int]] = []
    for outcome, result in zip(outcomes, results, strict=True):
        if bidding:
            dealers.append(int(outcome["dealer"]))
        else:
            dealers.append(dealer)
            dealer = int(result["next_dealer"])
        totals = [a + b for a, b in zip(totals, hand_values(result), strict=True)]
        running.append(totals)
    return TableReplay(results, dealers, running, dealer)


def hand_values(result: Mapping[str, Any]) -> list[int]:
    """Each seat's figure of one table hand: red five's game points, Yongzhou's net."""
    return [int(v) for v in (result["game_points"] if "game_points" in result else result.get("net") or [])]


def _table_rewrite(match: Match, hands: list[Any], outcomes: list[dict[str, Any]], actor: Actor, action: str,
                   data: dict[str, Any]) -> Match:
    """Recompute a table from its hands' figures after an undo or a correction."""
    replay = table_replay(match, outcomes)
    for hand in hands[len(outcomes):]:
        hand.delete()
    state = dict(match.state or {})
    for hand, outcome, result, dealer in zip(hands, outcomes, replay.results, replay.dealers, strict=False):
        hand.outcome, hand.result, hand.dealer = outcome, result, dealer
        hand.save(update_fields=["outcome", "result", "dealer", "updated_at"])
    state["totals"] = replay.totals[-1] if replay.totals else [0] * int(state.get("players") or 4)
    state["dealer"] = replay.dealer
    match.state = state
    match.hands_played = len(outcomes)
    was_final = match.confirmed_at is not None
    if match.hands_played >= (match.stage.hands_per_table or INDIVIDUAL_DEFAULT_HANDS):
        match.status = Match.Status.FINISHED
        match.finished_at = match.finished_at or timezone.now()
        if not match.stage.tournament.require_confirmation:
            match.confirmed_at = match.confirmed_at or match.finished_at
        else:
            match.confirmed_at = None
    else:
        match.status = Match.Status.PLAYING if outcomes else Match.Status.READY
        match.finished_at = match.confirmed_at = None
    match.version += 1
    match.save()
    audit(actor=actor, action=action, tournament=match.stage.tournament, target=f"match:{match.pk}", data=data)
    if was_final or match.confirmed_at:
        after_result(match=match, actor=actor)
    return match


def table_hand_undo(*, match_id: int, version: Any, actor: Actor) -> Match:
    """Remove the last hand of an individual table."""
    with transaction.atomic():
        match = lock_match(match_id)
        check_version(match, version)
        require_open_result(match, actor)
        hands = list(match.hands.order_by("number"))
        if match.stage.format != Stage.Format.TABLE_ROUNDS or not hands:
            raise ServiceError.one("match", _("There is no hand to undo."))
        outcomes = [dict(h.outcome) for h in hands[:-1]]
        return _table_rewrite(match, hands, outcomes, actor, "table.undo",
                              {"number": hands[-1].number, "outcome": hands[-1].outcome})


def table_hand_correct(*, match_id: int, number: Any, outcome: Figures | Mapping[str, Any], version: Any,
                       actor: Actor) -> Match:
    """Correct hand ``number`` of an individual table; the totals are recomputed."""
    entered = dict(as_figures(outcome).entered)
    with transaction.atomic():
        match = lock_match(match_id)
        check_version(match, version)
        require_open_result(match, actor)
        hands = list(match.hands.order_by("number"))
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
            raise ServiceError.one("number", _("There is no hand %(n)s at this table.") % {"n": number})
        outcomes = [dict(h.outcome) for h in hands]
        before = outcomes[number - 1]
        outcomes[number - 1] = entered
        try:
            return _table_rewrite(match, hands, outcomes, actor, "table.correct",
                                  {"number": number, "before": before, "after": entered})
        except ServiceError as exc:
            prefix = f"hands.{number}."
            raise ServiceError({k.removeprefix(prefix): v for k, v in exc.field_errors.items()}) from exc
