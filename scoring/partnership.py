"""Scoring a hand of the partnership variants ``tractor`` and ``chaodi`` (RULES.md §6.1, §6.2, §7).

``apply_hand(rules, state, outcome)`` is a pure function: it validates the input, then returns the
hand's result and the match state after the hand. Seats 0–3 in play order; side 0 = seats 0 and 2,
side 1 = seats 1 and 3.

>>> from scoring.rules import scoring_rules
>>> rules = scoring_rules("tractor")
>>> state = MatchState(levels=("10", "9"), dealer=0)
>>> outcome = PartnershipOutcome(attackers_points=35, kitty_points=10, last_trick=LastTrick("attackers", 2))
>>> result, after = apply_hand(rules, state, outcome)
>>> result.kitty_multiplier, result.attackers_total, result.level_gain, after.levels, after.dealer
(4, 75, 1, ('J', '9'), 2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from scoring.cards import normalize_level
from scoring.errors import Problems
from scoring.rules import LevelLookup, PartnershipRules
from variants import LEVEL_NAMES

LastTrickWinner = Literal["dealer", "attackers"]
MatchEnd = Literal["target", "hand_limit", "draw"]


def side_of(seat: int) -> int:
    """The side of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


@dataclass(frozen=True)
class MatchState:
    """Where a match stands between hands.

    ``levels[side]`` is each side's level; ``dealer`` the seat dealing the next hand (its side is the
    dealer side and plays at its level); ``a_failures[side]`` the side's failed A attempts (chaodi);
    ``hands_played`` counts hands for the optional hand limit; ``winner`` the side that won the match.
    """

    levels: tuple[str, str]
    dealer: int
    a_failures: tuple[int, int] = (0, 0)
    hands_played: int = 0
    winner: int | None = None
    drawn: bool = False

    @property
    def dealer_side(self) -> int:
        return side_of(self.dealer)


def initial_state(rules: PartnershipRules, *, dealer: int = 0) -> MatchState:
    """The state before the first hand: both sides at the first level, ``dealer`` (the 争庄 winner) deals."""
    return MatchState(levels=(rules.levels[0], rules.levels[0]), dealer=dealer)


@dataclass(frozen=True)
class LastTrick:
    """Who won the last trick — the dealer's side (``"dealer"``) or the attackers — and the number of
    cards in the largest component of the winning play (needed when the attackers win it)."""

    winner: LastTrickWinner
    largest: int | None = None


@dataclass(frozen=True)
class PartnershipOutcome:
    """What the scorer enters for one hand (§7 table).

    ``attackers_points``: points in the tricks the attackers won, without the kitty.
    ``a_first_trick`` / ``a_last_trick``: did the dealer side play an A in the first / last trick —
    needed only when the A-pass conditions apply (chaodi, dealer side at A).
    ``throw_penalties``: net penalty points credited to the attackers (negative when the attackers'
    own throws failed); only with the ``throw_penalties`` option.
    """

    attackers_points: int
    kitty_points: int
    last_trick: LastTrick
    a_first_trick: bool | None = None
    a_last_trick: bool | None = None
    throw_penalties: int = 0


@dataclass(frozen=True)
class APassCheck:
    """The three A-pass conditions (chaodi §6.2) and whether each held."""

    a_in_first_and_last_trick: bool
    dealer_won_last_trick: bool
    attackers_below_takeover: bool

    @property
    def passed(self) -> bool:
        return self.a_in_first_and_last_trick and self.dealer_won_last_trick and self.attackers_below_takeover


@dataclass(frozen=True)
class HandResult:
    """The result of one hand.

    ``level_gain``: the levels the hand earned by the table (0 for a failed A attempt); the state's
    levels show where the gaining side actually ended (a must-play level or A can stop it short).
    ``gaining_side``: the side that goes up, or the attackers' side when they take the deal with no
    gain; None when nobody goes up and the deal stays (a failed A attempt below the takeover).
    """

    kitty_multiplier: int
    kitty_bonus: int
    attackers_total: int
    level_gain: int
    gaining_side: int | None
    deal_changes: bool
    match_winner: int | None
    # details, for explanations and records
    dealer: int
    dealer_side: int
    dealer_level: str
    next_dealer: int
    throw_penalties: int
    lookup: LevelLookup
    a_pass: APassCheck | None
    """The A-pass check when the dealer side attempted to pass A; None otherwise."""
    a_failures: int
    """The dealer side's failed A attempts after this hand, before any reset (0 if no attempt)."""
    forced_handover: bool
    """The deal passed because the failed-A-attempts limit was reached although the attackers were below the takeover."""
    a_failure_reset: bool
    """The dealer side's failure count restarted (limit reached, or deal lost with the reset option)."""
    levels_moved: int
    stopped_at: str | None
    """The must-play level at which the gaining side stopped short of its gain, if any."""
    capped_at_top: bool
    match_end: MatchEnd | None


def validate_hand(
    rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, lang: str = "en"
) -> None:
    """Raise ``ScoringInputError`` naming every wrong field of ``state`` and ``outcome``."""
    problems = Problems()
    _check_state(rules, state, problems)
    _check_outcome(rules, state, outcome, problems)
    problems.raise_if_any(lang)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_state(rules: PartnershipRules, state: MatchState, problems: Problems) -> None:
    target_index = rules.level_index(rules.target_level)
    levels = state.levels
    if not isinstance(levels, (tuple, list)):
        problems.add("state.levels", "type_list")
    elif len(levels) != 2:
        problems.add("state.levels", "list_length", n=2, got=len(levels))
    else:
        for side, raw in enumerate(levels):
            path = f"state.levels.{side}"
            if not isinstance(raw, str):
                problems.add(path, "type_str")
                continue
            level = normalize_level(raw)
            if level is None or level not in rules.levels:
                problems.add(path, "level_invalid", value=raw, variant=rules.variant, first=rules.levels[0])
            elif rules.level_index(level) > target_index:
                problems.add(path, "level_past_target", value=level, target=rules.target_level)
    if not _is_int(state.dealer):
        problems.add("state.dealer", "type_int")
    elif not 0 <= state.dealer < rules.players:
        problems.add("state.dealer", "range", low=0, high=rules.players - 1, value=state.dealer)
    failures = state.a_failures
    if not isinstance(failures, (tuple, list)):
        problems.add("state.a_failures", "type_list")
    elif len(failures) != 2:
        problems.add("state.a_failures", "list_length", n=2, got=len(failures))
    else:
        for side, count in enumerate(failures):
            path = f"state.a_failures.{side}"
            if not _is_int(count):
                problems.add(path, "type_int")
            elif count < 0:
                problems.add(path, "min", low=0, value=count)
            elif count:
                if not rules.a_pass_conditions:
                    problems.add(path, "a_failures_off")
                elif (
                    not problems.has(f"state.levels.{side}")
                    and normalize_level(str(levels[side])) != rules.top_level
                ):
                    problems.add(path, "a_failures_not_at_a", side=side, value=count)
                elif rules.a_failure_limit is not None and count >= rules.a_failure_limit:
                    problems.add(path, "a_failures_limit", limit=rules.a_failure_limit, value=count)
    if not _is_int(state.hands_played):
        problems.add("state.hands_played", "type_int")
    elif state.hands_played < 0:
        problems.add("state.hands_played", "min", low=0, value=state.hands_played)
    elif rules.hand_limit is not None and state.hands_played >= rules.hand_limit + _extra_hands(rules, state):
        problems.add(
            "state.hands_played", "range", low=0, high=rules.hand_limit - 1 + _extra_hands(rules, state),
            value=state.hands_played,
        )
    if state.winner is not None or state.drawn:
        problems.add("state", "match_over", side=state.winner)


def _check_points(
    problems: Problems, path: str, value: object, high: int, code: str = "points_range", **extra: object
) -> bool:
    if not _is_int(value):
        problems.add(path, "type_int")
        return False
    assert isinstance(value, int)
    if value % 5:
        problems.add(path, "multiple_of_5", value=value)
        return False
    if not 0 <= value <= high:
        problems.add(path, code, high=high, value=value, **extra)
        return False
    return True


def _check_outcome(
    rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, problems: Problems
) -> None:
    total = rules.total_points
    points_ok = _check_points(problems, "outcome.attackers_points", outcome.attackers_points, total)
    kitty_ok = _check_points(
        problems,
        "outcome.kitty_points",
        outcome.kitty_points,
        rules.kitty_max_points,
        "kitty_capacity",
        cards=rules.kitty_cards,
    )
    if points_ok and kitty_ok and outcome.attackers_points + outcome.kitty_points > total:
        problems.add(
            "outcome.attackers_points",
            "points_over_total",
            a=outcome.attackers_points,
            b=outcome.kitty_points,
            sum=outcome.attackers_points + outcome.kitty_points,
            total=total,
        )
    last = outcome.last_trick
    if last.winner not in ("dealer", "attackers"):
        problems.add("outcome.last_trick.winner", "last_trick_winner", value=last.winner)
    if last.largest is None:
        if last.winner == "attackers":
            problems.add("outcome.last_trick.largest", "largest_required")
    elif not _is_int(last.largest):
        problems.add("outcome.last_trick.largest", "type_int")
    elif not (last.largest == 1 or (last.largest % 2 == 0 and 2 <= last.largest <= rules.max_component)):
        problems.add(
            "outcome.last_trick.largest", "largest_shape", high=rules.max_component, value=last.largest
        )
    attempt = False
    if not problems.has("state.levels") and not problems.has("state.dealer"):
        dealer_level = normalize_level(state.levels[side_of(state.dealer)])
        attempt = rules.a_pass_conditions and dealer_level == rules.top_level
    for name in ("a_first_trick", "a_last_trick"):
        value = getattr(outcome, name)
        if value is None:
            if attempt:
                problems.add(f"outcome.{name}", "a_flags_required")
        elif not isinstance(value, bool):
            problems.add(f"outcome.{name}", "type_bool")
    penalties = outcome.throw_penalties
    if not _is_int(penalties):
        problems.add("outcome.throw_penalties", "type_int")
    elif penalties % 5:
        problems.add("outcome.throw_penalties", "multiple_of_5", value=penalties)
    elif penalties and not rules.throw_penalties:
        problems.add("outcome.throw_penalties", "throw_penalties_off")


def _normalized(state: MatchState) -> MatchState:
    levels = (normalize_level(state.levels[0]) or "", normalize_level(state.levels[1]) or "")
    failures = state.a_failures
    if type(state.levels) is tuple and state.levels == levels and type(failures) is tuple:
        return state  # already canonical (validated: two of each): no copy
    return replace(state, levels=levels, a_failures=(failures[0], failures[1]))


def advance_level(
    rules: PartnershipRules, level: str, gain: int, *, defended: bool
) -> tuple[str, str | None]:
    """Move ``level`` up by ``gain``, never past a must-play level that was not defended.

    A side stops at the first must-play level above its level; a side already at a must-play level
    moves on only by a gain as the dealer side there (``defended``). Returns the new level and the
    must-play level at which it stopped short, if any. Never goes past A.

    >>> from scoring.rules import scoring_rules
    >>> rules = scoring_rules("tractor")
    >>> advance_level(rules, "9", 3, defended=True), advance_level(rules, "J", 2, defended=False)
    (('J', 'J'), ('J', 'J'))
    >>> advance_level(rules, "J", 2, defended=True)
    ('K', None)
    """
    if gain <= 0:
        return level, None
    index = rules.level_index(level)
    if level in rules.must_play_levels and not defended:
        return level, level
    wanted = index + gain
    for must in rules.must_play_levels:
        must_index = rules.level_index(must)
        if index < must_index < wanted:
            return must, must
    return rules.levels[min(wanted, len(rules.levels) - 1)], None


def _extra_hands(rules: PartnershipRules, state: MatchState) -> int:
    """A deciding hand is allowed after the limit when the levels are equal (option ``deciding_hand``)."""
    if rules.hand_limit_tie != "deciding_hand" or len(state.levels) != 2:
        return 0
    return 1 if normalize_level(str(state.levels[0])) == normalize_level(str(state.levels[1])) else 0


def max_gain_per_hand(rules: PartnershipRules) -> int:
    """An upper bound of the levels one side can gain in one hand (as dealer or as attackers)."""
    multiplier = rules.kitty_multiplier.multiplier(rules.max_component, rules.kitty_multiplier_cap)
    # Trick points and kitty points together are at most the deck's total.
    best_total = rules.total_points + rules.kitty_max_points * max(multiplier - 1, 0)
    gains = [rules.level_table.lookup(total).gain for total in range(0, best_total + 5, 5)]
    return max([*gains, 0])


def decided_before_limit(rules: PartnershipRules, state: MatchState) -> int | None:
    """With a hand limit: the side that wins whatever happens in the hands left, or None while the
    trailing side can still catch up (RULES.md §7; fixed-deal matches, 把数制). Conservative: levels
    that must be defended are ignored, which only helps the trailing side."""
    if rules.hand_limit is None or state.winner is not None or state.drawn:
        return None
    left = rules.hand_limit - state.hands_played
    first, second = (rules.level_index(normalize_level(str(level)) or level) for level in state.levels)
    if first == second:
        return None
    leader = 0 if first > second else 1
    lead, trail = max(first, second), min(first, second)
    if trail + left * max_gain_per_hand(rules) < lead:
        return leader
    return None


def match_winner_at_limit(state: MatchState, last_hand_dealer_side: int) -> int:
    """The winner when a hand or time limit ends a match (§7 [decided]): the side at the higher
    level; on equal levels the dealer side of the last hand. Needs canonical level spellings."""
    first, second = (LEVEL_NAMES.index(level) for level in state.levels)
    if first != second:
        return 0 if first > second else 1
    return last_hand_dealer_side


class _Points(NamedTuple):
    """The attackers' points of one hand: their card points with the kitty's bonus and the throw penalties."""

    multiplier: int
    bonus: int
    penalties: int
    total: int


def _attackers_points(rules: PartnershipRules, outcome: PartnershipOutcome) -> _Points:
    """The kitty's multiplier (when the attackers took the last trick) and bonus, the throw penalties
    where they count, and the attackers' total (never below 0)."""
    last = outcome.last_trick
    multiplier = 0
    if last.winner == "attackers":
        assert last.largest is not None
        multiplier = rules.kitty_multiplier.multiplier(last.largest, rules.kitty_multiplier_cap)
    bonus = outcome.kitty_points * multiplier
    penalties = outcome.throw_penalties if rules.throw_penalties else 0
    return _Points(multiplier, bonus, penalties, max(0, outcome.attackers_points + bonus + penalties))


class _APass(NamedTuple):
    """The A-pass attempt of a dealer side at the top level (RULES.md §7), when the rules have one."""

    check: APassCheck | None
    failed: bool  # an attempt, and it failed
    limit_reached: bool  # that failure reached the failure limit
    failures: list[int]  # per side, this failure counted (not yet reset)


def _a_pass_attempt(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome,
                    lookup: LevelLookup) -> _APass:
    dealer_side = state.dealer_side
    failures = list(state.a_failures)
    check: APassCheck | None = None
    if rules.a_pass_conditions and state.levels[dealer_side] == rules.top_level:
        check = APassCheck(
            a_in_first_and_last_trick=bool(outcome.a_first_trick and outcome.a_last_trick),
            dealer_won_last_trick=outcome.last_trick.winner == "dealer",
            attackers_below_takeover=lookup.side == "dealer",
        )
    failed = check is not None and not check.passed
    limit_reached = False
    if failed:
        failures[dealer_side] += 1
        limit_reached = rules.a_failure_limit is not None and failures[dealer_side] >= rules.a_failure_limit
    return _APass(check, failed, limit_reached, failures)


class _LevelChange(NamedTuple):
    """Who goes up and how far, whether the deal changes, and the levels after the hand."""

    gaining_side: int | None
    gain: int
    deal_changes: bool
    forced: bool  # the deal handed over by the A-pass failure limit
    levels: tuple[str, str]
    moved: int
    stopped_at: str | None
    capped: bool


def _level_change(rules: PartnershipRules, state: MatchState, lookup: LevelLookup, a_pass: _APass) -> _LevelChange:
    """The level table's answer, overridden by a failed A-pass attempt; then the gaining side's move
    (stopping at a level to defend, capped at the top) and the failure limit's reset level."""
    dealer_side = state.dealer_side
    attack_side = 1 - dealer_side
    forced = False
    gaining_side: int | None
    if lookup.side == "attackers":
        gaining_side, gain, deal_changes = attack_side, lookup.gain, True
    elif a_pass.failed:
        gain = 0
        if a_pass.limit_reached:
            forced, gaining_side, deal_changes = True, attack_side, True
        else:
            gaining_side, deal_changes = None, False
    else:
        gain, deal_changes = lookup.gain, False
        gaining_side = dealer_side if gain > 0 else None
    levels = list(state.levels)
    stopped_at: str | None = None
    moved = 0
    capped = False
    if gaining_side is not None and gain > 0:
        before = levels[gaining_side]
        after, stopped_at = advance_level(rules, before, gain, defended=gaining_side == dealer_side)
        moved = rules.level_index(after) - rules.level_index(before)
        capped = stopped_at is None and moved < gain
        levels[gaining_side] = after
    if a_pass.limit_reached and rules.a_failure_reset_level is not None:
        levels[dealer_side] = rules.a_failure_reset_level
    return _LevelChange(gaining_side, gain, deal_changes, forced, (levels[0], levels[1]), moved, stopped_at, capped)


def _match_end(rules: PartnershipRules, state: MatchState,
               change: _LevelChange) -> tuple[int | None, MatchEnd | None, bool]:
    """(winner, how the match ended, drawn) after this hand: the target passed (or defended at the
    target level), else the hand limit reached (a draw, one deciding hand, or the higher level)."""
    dealer_side = state.dealer_side
    gaining_side, gain = change.gaining_side, change.gain
    winner: int | None = None
    match_end: MatchEnd | None = None
    if gaining_side == dealer_side and gain > 0 and state.levels[dealer_side] == rules.target_level:
        winner, match_end = dealer_side, "target"
    elif gaining_side is not None and (
            rules.level_index(change.levels[gaining_side]) > rules.level_index(rules.target_level)):
        winner, match_end = gaining_side, "target"
    hands_played = state.hands_played + 1
    drawn = False
    if winner is None and rules.hand_limit is not None and hands_played >= rules.hand_limit:
        equal = change.levels[0] == change.levels[1]
        if equal and rules.hand_limit_tie == "draw":
            drawn, match_end = True, "draw"
        elif equal and rules.hand_limit_tie == "deciding_hand" and hands_played == rules.hand_limit:
            pass  # one deciding hand follows
        else:
            winner = match_winner_at_limit(replace(state, levels=change.levels), dealer_side)
            match_end = "hand_limit"
    return winner, match_end, drawn


def apply_hand(
    rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, *, lang: str = "en"
) -> tuple[HandResult, MatchState]:
    """Score one hand: (rules, state before, outcome) → (result, state after). Pure; validates first.
    In phases: the attackers' points, the A-pass attempt, the level change, the match's end, the
    next dealer."""
    validate_hand(rules, state, outcome, lang)
    state = _normalized(state)
    dealer_side = state.dealer_side
    points = _attackers_points(rules, outcome)
    lookup = rules.level_table.lookup(points.total)
    a_pass = _a_pass_attempt(rules, state, outcome, lookup)
    change = _level_change(rules, state, lookup, a_pass)
    failures = a_pass.failures
    failures_after = failures[dealer_side] if a_pass.check is not None else 0
    reset = a_pass.limit_reached or (a_pass.failed and change.deal_changes and rules.a_failures_reset_on_deal_loss)
    if reset:
        failures[dealer_side] = 0
    winner, match_end, drawn = _match_end(rules, state, change)
    next_dealer = (state.dealer + (1 if change.deal_changes else 2)) % rules.players
    result = HandResult(
        kitty_multiplier=points.multiplier,
        kitty_bonus=points.bonus,
        attackers_total=points.total,
        level_gain=change.gain,
        gaining_side=change.gaining_side,
        deal_changes=change.deal_changes,
        match_winner=winner,
        dealer=state.dealer,
        dealer_side=dealer_side,
        dealer_level=state.levels[dealer_side],
        next_dealer=next_dealer,
        throw_penalties=points.penalties,
        lookup=lookup,
        a_pass=a_pass.check,
        a_failures=failures_after,
        forced_handover=change.forced,
        a_failure_reset=reset,
        levels_moved=change.moved,
        stopped_at=change.stopped_at,
        capped_at_top=change.capped,
        match_end=match_end,
    )
    new_state = MatchState(
        levels=change.levels,
        dealer=next_dealer,
        a_failures=(failures[0], failures[1]),
        hands_played=state.hands_played + 1,
        winner=winner,
        drawn=drawn,
    )
    return result, new_state
