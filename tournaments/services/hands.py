"""Writes. Every service is keyword-only, runs in one transaction, and records an audit entry.

Hand recording (ARCHITECTURE.md, "Flow of one recorded hand"): lock the match row, check the
version, validate the figures and compute the result with :mod:`scoring`, store the hand record and
the new match state, audit — all in one transaction; if the match ended, the bracket advances.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import variants
from config.i18n import core_lang
from scoring.api import parse_state, partnership_response, red_five_response, score_outcome, yongzhou_response
from scoring.errors import ScoringInputError
from scoring.partnership import HandResult, MatchState, match_winner_at_limit
from scoring.redfive import RedFiveResult
from scoring.rules import PartnershipRules, ScoringRules, YongzhouRules
from scoring.yongzhou import YongzhouResult
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError
from tournaments.models import (
    PARTNERSHIP_VARIANTS,
    Adjustment,
    HandRecord,
    Match,
    Tournament,
)
from tournaments.permissions import is_organizer
from tournaments.selectors.matches import load_entries
from tournaments.services.bracket import after_result, dependent_matches, match_finished, match_result_changed
from tournaments.services.common import Actor, audit, check_version, lock_match, lock_stage
from tournaments.services.figures import Figures, Outcome, as_figures, tournament_rules
from tournaments.services.online_rooms import release_paused_table
from variants.options import OPTIONS

FIRST_LEVEL = {key: v.first_level_name for key, v in variants.VARIANTS.items() if v.has_levels}
SUITS = tuple(reversed(variants.SUITS))


# --------------------------------------------------------------------------- match state

def initial_state(tournament: Tournament, dealer: int) -> dict[str, Any]:
    first = FIRST_LEVEL[tournament.variant]
    state: dict[str, Any] = {"levels": [first, first], "dealer": dealer}
    if OPTIONS["a_failure_limit"].default(tournament.spec) is not None:  # chaodi counts failed A attempts
        state["a_failures"] = [0, 0]
    return state


@dataclass(frozen=True)
class Scored:
    """A hand the engine already scored (:attr:`gameplay.hand.Hand.result`): the rules and the match
    state it was scored under, the result and the state after it."""

    rules: ScoringRules
    state: MatchState | None
    result: HandResult | RedFiveResult | YongzhouResult
    new_state: MatchState | None

    def response(self) -> dict[str, Any]:
        """The result as :func:`scoring.api.score_outcome` answers it (and as it is stored)."""
        if isinstance(self.result, HandResult):
            assert isinstance(self.rules, PartnershipRules) and self.new_state is not None
            return partnership_response(self.rules, self.result, self.new_state)
        if isinstance(self.result, RedFiveResult):
            return red_five_response(self.result)
        assert isinstance(self.rules, YongzhouRules)
        return yongzhou_response(self.rules, self.result)


@dataclass
class Replay:
    """The result of replaying a match's hands through scoring."""

    state: dict[str, Any] | None
    results: list[dict[str, Any]]
    dealers: list[int]
    winner_side: int | None
    ended_at_hand: int | None
    drawn: bool = False


def score_hand(tournament: Tournament, state: Mapping[str, Any], outcome: Outcome | Mapping[str, Any]) -> dict[str, Any]:
    """One hand through scoring's typed functions (:func:`scoring.api.score_outcome`): ``outcome`` is
    typed, or stored figures parsed here at the storage edge; ``state`` is the stored match state.
    Answers the result as stored (raises ScoringInputError)."""
    lang = core_lang()
    typed = outcome if not isinstance(outcome, Mapping) else Figures(outcome).typed(tournament.variant, lang)
    return score_outcome(tournament_rules(tournament), typed, parse_state(state, lang), lang).response


def replay_hands(tournament: Tournament, first_dealer: int | None,
                 outcomes: Sequence[Mapping[str, Any]]) -> Replay:
    """Recompute a match from its hands' figures. Raises ServiceError naming the hand that fails."""
    if not outcomes:
        return Replay(None, [], [], None, None)
    assert first_dealer is not None
    state = initial_state(tournament, first_dealer)
    results: list[dict[str, Any]] = []
    dealers: list[int] = []
    winner: int | None = None
    ended: int | None = None
    drawn = False
    for number, outcome in enumerate(outcomes, start=1):
        if winner is not None or drawn:
            raise ServiceError.one(
                f"hands.{number}",
                _("The match was already won at hand %(n)s; hand %(m)s cannot follow it. Undo the later hands first.")
                % {"n": ended, "m": number},
            )
        dealers.append(int(state["dealer"]))
        try:
            result = score_hand(tournament, state, outcome)
        except ScoringInputError as exc:
            raise ServiceError({f"hands.{number}.{k}" if len(outcomes) > 1 else k: v
                                for k, v in exc.field_errors.items()}) from exc
        results.append(result)
        state = result["state"]
        if result.get("match_winner") is not None:
            winner = int(result["match_winner"])
            ended = number
        elif result.get("match_drawn"):
            drawn, ended = True, number
    return Replay(state, results, dealers, winner, ended, drawn)


def match_result(match: Match, replay: Replay, *, awards: bool = True) -> tuple[int | None, bool]:
    """The match's result from the raw facts: an awarded result or forfeit (the latest adjustment)
    wins over the hands; else the hands (target reached, hand limit); else a time limit called by
    the organizer (higher level wins; equal levels by the ``hand_limit_tie`` option).

    ``awards=False`` skips the adjustments: for the next hand of a match that is not finished, where an
    award cannot be (an award always finishes its match)."""
    award = (Adjustment.objects.filter(match=match, kind__in=["awarded", "forfeit"]).order_by("-created_at", "-id")
             .first()) if awards else None
    if award is not None:
        return award.winner_side, award.winner_side is None
    if replay.winner_side is not None or replay.drawn:
        return replay.winner_side, replay.drawn
    if match.time_called_at and replay.state and replay.dealers:
        rules = tournament_rules(match.stage.tournament)
        levels = tuple(replay.state["levels"])
        if levels[0] == levels[1] and getattr(rules, "hand_limit_tie", "dealer_side") == "draw":
            return None, True
        last_dealer_side = replay.dealers[-1] % 2
        state = MatchState(levels=(levels[0], levels[1]), dealer=int(replay.state["dealer"]))
        return match_winner_at_limit(state, last_dealer_side), False
    return None, False


def final_winner(match: Match) -> int | None:
    """The winner as far as brackets, pairings and standings are concerned: only a confirmed result."""
    return match.winner_side if match.confirmed_at else None


def check_playable(match: Match, *, correcting: bool = False) -> None:
    """A match takes hands while its tournament runs; corrections are also allowed once it finished
    (the tournament runs again if a result changes)."""
    if match.status in (Match.Status.PENDING, Match.Status.BYE) or match.entry0_id is None or match.entry1_id is None:
        raise ServiceError.one("match", _("This match is not ready: it does not have two entries yet."))
    allowed = {Tournament.Status.RUNNING, Tournament.Status.FINISHED} if correcting else {Tournament.Status.RUNNING}
    if match.stage.tournament.status not in allowed:
        raise ServiceError.one("match", _("The tournament is not running."))


MATCH_RESULT_FIELDS = ("state", "hands_played", "winner_side", "is_draw", "status", "finished_at", "confirmed_at",
                       "confirmed_by", "started_at")


def _apply_replay(match: Match, replay: Replay, hands: Sequence[HandRecord], actor: Actor | None = None,
                  hands_played: int | None = None, *, next_hand: bool = False) -> None:
    """Write the replay's results into the hand records (``hands``: those replayed) and the match's
    cached state and result; ``hands_played`` when only the last hands were replayed.

    ``next_hand``: the next hand of a match that is not finished, on the row as locked — no award can
    decide it (an award finishes its match), and only the fields that changed are written."""
    old = {name: getattr(match, name if name != "confirmed_by" else "confirmed_by_id") for name in MATCH_RESULT_FIELDS}
    for hand, result, dealer in zip(hands, replay.results, replay.dealers, strict=True):
        if hand.result != result or hand.dealer != dealer:
            hand.result = result
            hand.dealer = dealer
            hand.save(update_fields=["result", "dealer", "updated_at"])
    before = (match.winner_side, match.is_draw)
    match.state = replay.state or {}
    match.hands_played = len(hands) if hands_played is None else hands_played
    match.winner_side, match.is_draw = match_result(match, replay, awards=not next_hand)
    if match.winner_side is not None or match.is_draw:
        match.status = Match.Status.FINISHED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.PLAYING if match.hands_played else Match.Status.READY
        match.finished_at = None
    if (match.winner_side, match.is_draw) != before or match.status != Match.Status.FINISHED:
        # A new result needs confirming again when the tournament asks for confirmation.
        needs = (match.stage.tournament.require_confirmation and match.status == Match.Status.FINISHED
                 and not (actor is not None and actor.via == "online"))  # hands the engine played: no confirmation
        match.confirmed_at = None if needs or match.status != Match.Status.FINISHED else timezone.now()
        match.confirmed_by = None if match.confirmed_at is None else (actor.user_or_none if actor else None)
    if match.hands_played and match.started_at is None:
        match.started_at = timezone.now()
    match.version += 1
    if not next_hand:  # the caller may have changed other fields of the row
        match.save()
        return
    changed = [name for name in MATCH_RESULT_FIELDS
               if getattr(match, name if name != "confirmed_by" else "confirmed_by_id") != old[name]]
    match.save(update_fields=[*changed, "version", "updated_at"])


def settle(match: Match, actor: Actor) -> Match:
    """Recompute a (locked) match from its hands and adjustments and carry a changed final result
    on into the bracket."""
    hands = list(match.hands.order_by("number"))
    old_final = final_winner(match)
    replay = replay_hands(match.stage.tournament, hands[0].dealer if hands else None, [h.outcome for h in hands])
    _apply_replay(match, replay, hands, actor)
    if final_winner(match) != old_final:
        match_result_changed(match=match, old_winner_side=old_final, actor=actor)
    return match


def _normalise_trump(trump: Any) -> str:
    if trump in (None, "", "NT", "nt", "none"):
        return ""
    if isinstance(trump, str) and trump.upper() in SUITS:
        return trump.upper()
    raise ServiceError.one("trump", _("Trump must be one of S, H, C, D, or empty for no trump."))


def _check_dealer(dealer: Any, expected: int | None) -> int | None:
    if dealer is None:
        return None
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise ServiceError.one("dealer", _("The dealer is a seat from 0 to 3."))
    if expected is not None and dealer != expected:
        raise ServiceError.one("dealer", _("By the rules seat %(seat)s deals this hand, not seat %(got)s.")
                               % {"seat": expected, "got": dealer})
    return dealer


@dataclass(frozen=True)
class HandOutcome:
    hand: HandRecord
    result: dict[str, Any]
    match: Match
    warnings: tuple[str, ...] = ()
    seats: tuple[dict[str, Any], ...] | None = None  # an individual table's seats, read in the transaction
    entries: tuple[dict[str, Any] | None, ...] | None = None  # the API's entries (id, name, seed), likewise


def hand_record(*, match_id: int, outcome: Figures | Mapping[str, Any], version: Any, actor: Actor,
                dealer: Any = None, trump: Any = None, scored: Scored | None = None) -> HandOutcome:
    """Record the next hand of a match. The first hand needs the dealer (the first declarer). The
    answer's match holds its entries with their teams' players, read before the commit (the scoring
    page's message names them). ``scored``: the hand as the engine already scored it (a hand entered
    trick by trick), taken as is when it was scored from this match's state."""
    figures = as_figures(outcome)
    with transaction.atomic():
        match = lock_match(match_id)
        done = hand_record_locked(match, figures=figures, version=version, actor=actor, dealer=dealer, trump=trump,
                                  scored=scored)
        load_entries(match, "team__player1", "team__player2", "player")
        return done


def hand_record_locked(match: Match, *, figures: Figures, version: Any, actor: Actor, dealer: Any = None,
                       trump: Any = None, scored: Scored | None = None) -> HandOutcome:
    """:func:`hand_record` on a match row the caller locked (``lock_match``) in its open transaction."""
    check_version(match, version)
    check_playable(match)
    tournament = match.stage.tournament
    if tournament.variant not in PARTNERSHIP_VARIANTS:
        raise ServiceError.one("match", _("Hands of this variant are recorded per table round."))
    if match.status == Match.Status.FINISHED:
        raise ServiceError.one("match", _("This match is finished; correct an earlier hand instead."))
    if match.time_called_at is not None:
        raise ServiceError.one("match", _("Time was called for this match: no further hands."))
    # The next hand is scored from the cached state (written with every change in the same
    # transaction as the hands); corrections and undos replay the whole match instead.
    played = match.hands_played
    expected = int(match.state["dealer"]) if played else None
    dealer = _check_dealer(dealer, expected)
    if not played and dealer is None:
        raise ServiceError.one("dealer", _("Say who deals the first hand (the first declarer)."))
    trump_code = _normalise_trump(trump)
    state = dict(match.state) if played else initial_state(tournament, int(dealer))  # type: ignore[arg-type]
    lang = core_lang()
    rules = tournament_rules(tournament)
    try:
        before = parse_state(state, lang)
        if scored is not None and scored.rules == rules and scored.state == before:
            result = scored.response()  # scored once, by the engine that judged the hand
        else:
            result = score_outcome(rules, figures.typed(tournament.variant, lang), before, lang).response
    except ScoringInputError as exc:
        raise ServiceError(exc.field_errors) from exc
    winner = result.get("match_winner")
    drawn = bool(result.get("match_drawn"))
    ended = played + 1 if winner is not None or drawn else None
    replay = Replay(result["state"], [result], [int(state["dealer"])],
                    None if winner is None else int(winner), ended, drawn)
    hand = HandRecord.objects.create(
        match=match, number=played + 1, dealer=replay.dealers[-1], trump=trump_code, outcome=dict(figures.entered),
        result=result, entered_by=actor.user_or_none, entered_via=actor.via,
    )
    previous_final = final_winner(match)
    _apply_replay(match, replay, [hand], actor, hands_played=played + 1, next_hand=True)
    audit(actor=actor, action="hand.record", tournament=tournament, target=f"match:{match.pk}",
          data={"number": hand.number, "outcome": hand.outcome, "dealer": hand.dealer, "trump": trump_code,
                "result": hand.result})
    if final_winner(match) is not None and previous_final is None:
        lock_stage(match)
        match_finished(match=match, actor=actor)
    return HandOutcome(hand, result, match)


def _descendants_played(match: Match) -> list[Match]:
    """Later matches fed by this match's result that already have hands or a result."""
    return [m for m in dependent_matches(match) if m.hands_played or m.status == Match.Status.FINISHED]


def require_open_result(match: Match, actor: Actor) -> None:
    """Results stay final: through a table link, the hands of a match whose result is confirmed, or
    whose winner already played on, cannot be undone or corrected — an organizer does it (signed-in
    scorers are refused a played-on change by ``_rewrite``'s CorrectionRefused, and may not force it)."""
    if actor.via != "token" or is_organizer(actor.user, match.stage.tournament):
        return
    if match.confirmed_at is not None:
        raise NotAllowed(_("This result is confirmed and final: only an organizer can undo or correct its hands."))
    if match.status == Match.Status.FINISHED and _descendants_played(match):
        raise NotAllowed(_("The winner of this match already played on: only an organizer can undo or correct "
                           "its hands."))


def result_is_open(match: Match, actor: Actor) -> bool:
    """Whether ``actor`` may still undo or correct the hands of ``match`` (:func:`require_open_result`),
    asked by pages so that they offer only what the services allow."""
    try:
        require_open_result(match, actor)
    except NotAllowed:
        return False
    return True


def _rewrite(*, match: Match, hands: list[HandRecord], outcomes: list[dict[str, Any]], first_dealer: int | None,
             actor: Actor, force: bool, action: str, audit_data: dict[str, Any]) -> tuple[Replay, tuple[str, ...]]:
    """Recompute a match after a correction or an undo; guard finished matches that fed later ones."""
    tournament = match.stage.tournament
    replay = replay_hands(tournament, first_dealer, outcomes)
    old_winner = final_winner(match)
    new_winner, _drawn = match_result(match, replay)
    warnings: tuple[str, ...] = ()
    if old_winner is not None and new_winner != old_winner:
        played = _descendants_played(match)
        if played:
            names = [m.key for m in played]
            if not force:
                raise CorrectionRefused(
                    _("This change would alter the result of a finished match whose winner already played on "
                      "(%(matches)s). An organizer can force it; those matches are then reset.")
                    % {"matches": ", ".join(names)},
                    names,
                )
            if not is_organizer(actor.user, tournament):
                raise NotAllowed(_("Only an organizer can force a correction of a finished match."))
            warnings = (
                _("Forced correction: the later matches %(matches)s were reset and their hands removed.")
                % {"matches": ", ".join(names)},
            )
    for hand in hands[len(outcomes):]:
        hand.delete()
    hands = hands[: len(outcomes)]
    for hand, outcome in zip(hands, outcomes, strict=True):
        if hand.outcome != outcome:
            hand.outcome = outcome
            hand.save(update_fields=["outcome", "updated_at"])
    _apply_replay(match, replay, hands, actor)
    audit(actor=actor, action=action, tournament=tournament, target=f"match:{match.pk}", data=audit_data)
    if old_winner != final_winner(match):
        match_result_changed(match=match, old_winner_side=old_winner, actor=actor)
    return replay, warnings


def hand_correct(*, match_id: int, number: Any, outcome: Figures | Mapping[str, Any], version: Any, actor: Actor,
                 force: bool = False, dealer: Any = None, trump: Any = None) -> HandOutcome:
    """Correct hand ``number``; the whole match is recomputed from the hands' figures (the stored
    figures parsed at the storage edge, the corrected ones as entered)."""
    entered = dict(as_figures(outcome).entered)
    with transaction.atomic():
        match = lock_match(match_id)
        check_version(match, version)
        check_playable(match, correcting=True)
        require_open_result(match, actor)
        hands = list(match.hands.order_by("number"))
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
            raise ServiceError.one("number", _("There is no hand %(n)s in this match.") % {"n": number})
        hand = hands[number - 1]
        first_dealer = hands[0].dealer
        if number == 1 and dealer is not None:
            first_dealer = _check_dealer(dealer, None) or 0
        else:
            _check_dealer(dealer, hand.dealer)
        if trump is not None:
            hand.trump = _normalise_trump(trump)
            hand.save(update_fields=["trump", "updated_at"])
        outcomes = [dict(h.outcome) for h in hands]
        before = outcomes[number - 1]
        outcomes[number - 1] = entered
        try:
            replay, warnings = _rewrite(
                match=match, hands=hands, outcomes=outcomes, first_dealer=first_dealer, actor=actor, force=force,
                action="hand.correct", audit_data={"number": number, "before": before, "after": entered,
                                                   "forced": force},
            )
        except ServiceError as exc:
            prefix = f"hands.{number}."
            raise ServiceError({k.removeprefix(prefix): v for k, v in exc.field_errors.items()}) from exc
        hand.refresh_from_db()
        return HandOutcome(hand, replay.results[number - 1], match, warnings)


def hand_undo(*, match_id: int, version: Any, actor: Actor, force: bool = False) -> Match:
    """Remove the last hand of a match."""
    with transaction.atomic():
        match = lock_match(match_id)
        check_version(match, version)
        check_playable(match, correcting=True)
        require_open_result(match, actor)
        hands = list(match.hands.order_by("number"))
        if not hands:
            raise ServiceError.one("match", _("There is no hand to undo."))
        last = hands[-1]
        outcomes = [dict(h.outcome) for h in hands[:-1]]
        _rewrite(match=match, hands=hands, outcomes=outcomes, first_dealer=hands[0].dealer, actor=actor,
                 force=force, action="hand.undo",
                 audit_data={"number": last.number, "outcome": last.outcome, "result": last.result})
        return match


def match_confirm(*, match_id: int, actor: Actor, side: int | None = None) -> Match:
    """Confirm a finished match's result: by the losing side's confirmation link (``side``) or an
    organizer. Brackets advance, and pairings and standings count the result, once it is confirmed."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.FINISHED:
            raise ServiceError.one("match", _("Only a finished match can be confirmed."))
        if match.confirmed_at is not None:
            raise ServiceError.one("match", _("This result is already confirmed."))
        if not is_organizer(actor.user, match.stage.tournament):
            if match.section == "table":
                # An individual table: any player at the table confirms, naming their seat.
                if side is None or not 0 <= side < match.seats.count():
                    raise NotAllowed(_("A player at the table confirms, naming their seat (or an organizer)."))
            else:
                losing = None if match.is_draw else 1 - (match.winner_side or 0)
                if side is None or (losing is not None and side != losing):
                    raise NotAllowed(_("The result is confirmed by the losing side (or an organizer)."))
        match.confirmed_at = timezone.now()
        match.confirmed_by = actor.user_or_none
        match.version += 1
        match.save(update_fields=["confirmed_at", "confirmed_by", "version", "updated_at"])
        audit(actor=actor, action="match.confirm", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"side": side, "winner_side": match.winner_side, "draw": match.is_draw})
        if match.winner_side is not None:
            match_finished(match=match, actor=actor)
        else:
            after_result(match=match, actor=actor)
        return match


def match_call_time(*, match_id: int, version: Any, actor: Actor) -> Match:
    """An organizer calls time on a match (time limit, RULES.md §7): the side at the higher level
    wins; on equal levels the ``hand_limit_tie`` option decides (dealer side of the last hand, or a draw)."""
    with transaction.atomic():
        match = lock_match(match_id)
        check_version(match, version)
        check_playable(match)
        if not is_organizer(actor.user, match.stage.tournament):
            raise NotAllowed(_("Only an organizer can call time."))
        if match.status == Match.Status.FINISHED:
            raise ServiceError.one("match", _("This match is already finished."))
        if match.hands_played == 0:
            raise ServiceError.one("match", _("No hand has been played: award the match instead."))
        match.time_called_at = timezone.now()
        match.save(update_fields=["time_called_at", "updated_at"])
        audit(actor=actor, action="match.time", tournament=match.stage.tournament, target=f"match:{match.pk}")
        release_paused_table(match.pk)
        return settle(match, actor)
