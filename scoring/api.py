"""Request handling for ``POST /api/v1/scoring/hand`` and the calculator — pure, no Django.

``score_hand_request(payload, lang)`` parses a decoded JSON body, validates it, scores the hand
with the pure functions and returns the response body. ``explain_hand_request`` returns the same
plus ``"explanation"``: a list of sentences in ``lang``. Both raise ``ScoringInputError`` (its
``field_errors`` keyed by JSON path) for anything wrong: types, missing or unknown fields, unknown
variant or options, and values the rules refuse.

>>> score_hand_request({"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}})
{'net': [-80, 30, 50], 'next_dealer': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import variants
from scoring.errors import Problem, Problems, ScoringInputError, normalize_lang
from scoring.explain import explain_partnership, explain_red_five, explain_yongzhou
from scoring.partnership import (
    HandResult,
    LastTrick,
    MatchState,
    PartnershipOutcome,
    apply_hand,
    decided_before_limit,
)
from scoring.redfive import RedFiveCapture, RedFiveOutcome, RedFiveResult, settle_red_five
from scoring.rules import (
    VARIANTS,
    PartnershipRules,
    RedFiveRules,
    ScoringRules,
    YongzhouRules,
    scoring_rules,
)
from scoring.yongzhou import YongzhouOutcome, YongzhouResult, settle_yongzhou
from variants.behaviour import ByKey, LevelsSettlement, RedFiveSettlement, YongzhouSettlement

_MISSING = object()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads typed fields out of decoded JSON, recording a problem per wrong field."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def mapping(self, value: object, path: str, allowed: set[str]) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.problems.add(path, "type_object")
            return None
        for key in value:
            if key not in allowed:
                self.problems.add(f"{path}.{key}", "unknown_field")
        return value

    def _get(self, data: Mapping[str, Any], key: str, path: str, required: bool) -> object:
        value = data.get(key)
        if value is None:
            if required:
                self.problems.add(f"{path}.{key}", "required")
            return _MISSING
        return value

    def int_field(self, data: Mapping[str, Any], key: str, path: str, *, required: bool = True) -> Any:
        value = self._get(data, key, path, required)
        if value is _MISSING:
            return None
        if not _is_int(value):
            self.problems.add(f"{path}.{key}", "type_int")
            return None
        return value

    def bool_field(self, data: Mapping[str, Any], key: str, path: str, *, required: bool = True) -> Any:
        value = self._get(data, key, path, required)
        if value is _MISSING:
            return None
        if not isinstance(value, bool):
            self.problems.add(f"{path}.{key}", "type_bool")
            return None
        return value

    def str_field(self, data: Mapping[str, Any], key: str, path: str, *, required: bool = True) -> Any:
        value = self._get(data, key, path, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            self.problems.add(f"{path}.{key}", "type_str")
            return None
        return value

    def list_field(
        self,
        data: Mapping[str, Any],
        key: str,
        path: str,
        item: Callable[[object, str], Any],
        *,
        required: bool = True,
        length: int | None = None,
    ) -> list[Any] | None:
        value = self._get(data, key, path, required)
        if value is _MISSING:
            return None
        if not isinstance(value, (list, tuple)):
            self.problems.add(f"{path}.{key}", "type_list")
            return None
        if length is not None and len(value) != length:
            self.problems.add(f"{path}.{key}", "list_length", n=length, got=len(value))
            return None
        return [item(entry, f"{path}.{key}.{index}") for index, entry in enumerate(value)]

    def int_item(self, value: object, path: str) -> Any:
        if not _is_int(value):
            self.problems.add(path, "required" if value is None else "type_int")
            return None
        return value

    def str_item(self, value: object, path: str) -> Any:
        if not isinstance(value, str):
            self.problems.add(path, "required" if value is None else "type_str")
            return None
        return value


@dataclass(frozen=True)
class ScoredHand:
    """A scored request: the rules, the parsed input, the result, and the response body."""

    rules: ScoringRules
    lang: str
    response: dict[str, Any]
    state: MatchState | None
    outcome: PartnershipOutcome | RedFiveOutcome | YongzhouOutcome
    result: HandResult | RedFiveResult | YongzhouResult
    new_state: MatchState | None

    def explanation(self) -> list[str]:
        if isinstance(self.result, HandResult):
            assert isinstance(self.rules, PartnershipRules) and isinstance(self.outcome, PartnershipOutcome)
            assert self.state is not None and self.new_state is not None
            return explain_partnership(
                self.rules, self.state, self.outcome, self.result, self.new_state, self.lang
            )
        if isinstance(self.result, RedFiveResult):
            assert isinstance(self.rules, RedFiveRules) and isinstance(self.outcome, RedFiveOutcome)
            return explain_red_five(self.rules, self.outcome, self.result, self.lang)
        assert isinstance(self.rules, YongzhouRules) and isinstance(self.outcome, YongzhouOutcome)
        return explain_yongzhou(self.rules, self.outcome, self.result, self.lang)


def score_hand_request(payload: object, lang: str = "en") -> dict[str, Any]:
    """The response body of ``POST /api/v1/scoring/hand`` for a decoded JSON ``payload``."""
    return score_hand(payload, lang).response


def explain_hand_request(payload: object, lang: str = "en") -> dict[str, Any]:
    """``score_hand_request``'s body plus ``"explanation"``, a list of sentences in ``lang``."""
    scored = score_hand(payload, lang)
    return {**scored.response, "explanation": scored.explanation()}


def score_hand(payload: object, lang: str = "en") -> ScoredHand:
    """Parse, validate and score a request; the structured form behind both request functions."""
    lang = normalize_lang(lang)
    problems = Problems()
    read = _Reader(problems)
    if not isinstance(payload, Mapping):
        raise ScoringInputError([Problem("body", "type_object")], lang)
    variant = payload.get("variant")
    if variant is None:
        problems.add("variant", "required")
    elif not isinstance(variant, str) or variant not in VARIANTS:
        problems.add("variant", "unknown_variant", value=variant, choices=", ".join(VARIANTS))
    problems.raise_if_any(lang)
    assert isinstance(variant, str)

    spec = variants.get(variant)
    partnership = spec.partnership
    for key in payload:
        if key == "state" and not partnership:
            problems.add("state", "not_applicable", variant=variant)
        elif key not in {"variant", "options", "decks", "players", "outcome", "state"}:
            problems.add(key, "unknown_field")
    options = payload.get("options")
    if options is not None and not isinstance(options, Mapping):
        problems.add("options", "type_object")
        options = None
    rules: ScoringRules | None = None
    try:
        rules = scoring_rules(variant, options, decks=payload.get("decks"), players=payload.get("players"))
    except ScoringInputError as error:
        problems.extend(error.problems)

    state: MatchState | None = None
    if partnership:
        state = _read_state(read, payload.get("state"))
    outcome_data = payload.get("outcome")
    if outcome_data is None:
        problems.add("outcome", "required")
        problems.raise_if_any(lang)
    outcome: Any = OUTCOME_READERS[spec.settlement](read, outcome_data)
    problems.raise_if_any(lang)
    assert rules is not None and outcome is not None
    return score_outcome(rules, outcome, state, lang)


def parse_outcome(
    variant: str, data: object, lang: str = "en"
) -> PartnershipOutcome | RedFiveOutcome | YongzhouOutcome:
    """Scoring's typed outcome for ``variant`` from decoded JSON (a request's ``outcome`` object, or a
    stored hand's figures). Raises ``ScoringInputError`` keyed by JSON path (``outcome.…``), as
    :func:`score_hand` does; the values the rules refuse are checked when the outcome is scored."""
    lang = normalize_lang(lang)
    problems = Problems()
    read = _Reader(problems)
    if variant not in VARIANTS:
        raise ScoringInputError(
            [Problem("variant", "unknown_variant", {"value": variant, "choices": ", ".join(VARIANTS)})], lang
        )
    spec = variants.get(variant)
    outcome: Any = None
    if data is None:
        problems.add("outcome", "required")
    else:
        outcome = OUTCOME_READERS[spec.settlement](read, data)
    problems.raise_if_any(lang)
    assert outcome is not None
    return outcome  # type: ignore[no-any-return]


def parse_state(data: object, lang: str = "en") -> MatchState:
    """A partnership match state from decoded JSON (``levels``, ``dealer``, optional ``a_failures``
    and ``hands_played``); raises ``ScoringInputError`` keyed ``state.…``."""
    lang = normalize_lang(lang)
    problems = Problems()
    state = _read_state(_Reader(problems), data)
    problems.raise_if_any(lang)
    assert state is not None
    return state


def score_outcome(
    rules: ScoringRules,
    outcome: PartnershipOutcome | RedFiveOutcome | YongzhouOutcome,
    state: MatchState | None = None,
    lang: str = "en",
) -> ScoredHand:
    """Score a typed outcome under built rules: the typed entry behind :func:`score_hand`.

    ``state`` is required for the partnership variants. Raises ``ScoringInputError`` for values
    the rules refuse (a bid out of range, a seat that does not exist, …).
    """
    lang = normalize_lang(lang)
    if isinstance(rules, PartnershipRules):
        assert state is not None and isinstance(outcome, PartnershipOutcome)
        result, new_state = apply_hand(rules, state, outcome, lang=lang)
        return ScoredHand(
            rules, lang, partnership_response(rules, result, new_state), state, outcome, result, new_state
        )
    if isinstance(rules, RedFiveRules):
        assert isinstance(outcome, RedFiveOutcome)
        red = settle_red_five(rules, outcome, lang=lang)
        return ScoredHand(rules, lang, red_five_response(red), None, outcome, red, None)
    assert isinstance(rules, YongzhouRules) and isinstance(outcome, YongzhouOutcome)
    yong = settle_yongzhou(rules, outcome, lang=lang)
    if outcome.tie_break is None and len(yong.tied_winners) > 1:
        # a recorded hand says who won the draw (RULES §6.4); no silent choice of the first tied seat
        raise ScoringInputError(
            [Problem("outcome.tie_break", "tie_break_required", {"seats": list(yong.tied_winners)})], lang
        )
    return ScoredHand(rules, lang, yongzhou_response(rules, yong), None, outcome, yong, None)


def check_dealer_named_once(dealer: object, outcome: object, lang: str = "en") -> None:
    """A recorded hand that names the dealer at the top level and in ``outcome.dealer`` (red-five) must
    name the same seat; otherwise raise ``ScoringInputError`` on ``dealer`` — never a silent choice."""
    if dealer is None or not isinstance(outcome, Mapping):
        return
    inner = outcome.get("dealer")
    if inner is None or inner == dealer:
        return
    raise ScoringInputError([Problem("dealer", "dealer_twice", {"top": dealer, "inner": inner})],
                            normalize_lang(lang))


def _read_state(read: _Reader, data: object) -> MatchState | None:
    if data is None:
        read.problems.add("state", "required")
        return None
    state = read.mapping(data, "state", {"levels", "dealer", "a_failures", "hands_played"})
    if state is None:
        return None
    levels = read.list_field(state, "levels", "state", read.str_item, length=2)
    dealer = read.int_field(state, "dealer", "state")
    failures = read.list_field(state, "a_failures", "state", read.int_item, required=False, length=2)
    hands = read.int_field(state, "hands_played", "state", required=False)
    if levels is None or dealer is None or read.problems.has("state"):
        return None
    return MatchState(
        levels=(levels[0], levels[1]),
        dealer=dealer,
        a_failures=(failures[0], failures[1]) if failures is not None else (0, 0),
        hands_played=hands if hands is not None else 0,
    )


def _read_partnership_outcome(read: _Reader, data: object) -> PartnershipOutcome | None:
    allowed = {
        "attackers_points",
        "kitty_points",
        "last_trick",
        "a_first_trick",
        "a_last_trick",
        "throw_penalties",
    }
    outcome = read.mapping(data, "outcome", allowed)
    if outcome is None:
        return None
    points = read.int_field(outcome, "attackers_points", "outcome")
    kitty = read.int_field(outcome, "kitty_points", "outcome")
    first = read.bool_field(outcome, "a_first_trick", "outcome", required=False)
    last_a = read.bool_field(outcome, "a_last_trick", "outcome", required=False)
    penalties = read.int_field(outcome, "throw_penalties", "outcome", required=False)
    last_data = outcome.get("last_trick")
    winner: Any = None
    largest: Any = None
    if last_data is None:
        read.problems.add("outcome.last_trick", "required")
    else:
        last = read.mapping(last_data, "outcome.last_trick", {"winner", "largest"})
        if last is not None:
            winner = read.str_field(last, "winner", "outcome.last_trick")
            largest = read.int_field(last, "largest", "outcome.last_trick", required=False)
    if read.problems.has("outcome"):
        return None
    return PartnershipOutcome(
        attackers_points=points,
        kitty_points=kitty,
        last_trick=LastTrick(winner, largest),  # winner checked by the pure validation
        a_first_trick=first,
        a_last_trick=last_a,
        throw_penalties=penalties if penalties is not None else 0,
    )


def _read_red_five_outcome(read: _Reader, data: object) -> RedFiveOutcome | None:
    allowed = {
        "dealer",
        "bid",
        "trump",
        "dealer_points",
        "kitty_points",
        "dealer_won_last_trick",
        "red_fives",
    }
    outcome = read.mapping(data, "outcome", allowed)
    if outcome is None:
        return None

    def capture(value: object, path: str) -> RedFiveCapture | None:
        entry = read.mapping(value, path, {"played_by", "won_by"})
        if entry is None:
            return None
        played_by = read.int_field(entry, "played_by", path)
        won_by = read.int_field(entry, "won_by", path)
        if played_by is None or won_by is None:
            return None
        return RedFiveCapture(played_by, won_by)

    values = {
        "dealer": read.int_field(outcome, "dealer", "outcome"),
        "bid": read.int_field(outcome, "bid", "outcome"),
        "trump": read.str_field(outcome, "trump", "outcome"),
        "dealer_points": read.int_field(outcome, "dealer_points", "outcome"),
        "kitty_points": read.int_field(outcome, "kitty_points", "outcome"),
        "dealer_won_last_trick": read.bool_field(outcome, "dealer_won_last_trick", "outcome"),
    }
    captures = read.list_field(outcome, "red_fives", "outcome", capture, required=False)
    if read.problems.has("outcome"):
        return None
    return RedFiveOutcome(**values, red_fives=tuple(captures or ()))


def _read_yongzhou_outcome(read: _Reader, data: object) -> YongzhouOutcome | None:
    outcome = read.mapping(data, "outcome", {"points", "declarer", "tie_break"})
    if outcome is None:
        return None
    points = read.list_field(outcome, "points", "outcome", read.int_item)
    declarer = read.int_field(outcome, "declarer", "outcome", required=False)
    tie_break = read.int_field(outcome, "tie_break", "outcome", required=False)
    if points is None or read.problems.has("outcome"):
        return None
    return YongzhouOutcome(points=tuple(points), declarer=declarer, tie_break=tie_break)


OUTCOME_READERS: ByKey[Callable[[_Reader, object], Any]] = ByKey({
    LevelsSettlement.key: _read_partnership_outcome,
    RedFiveSettlement.key: _read_red_five_outcome,
    YongzhouSettlement.key: _read_yongzhou_outcome,
})
"""How the figures of a hand are read for each :class:`variants.Settlement`."""


# --------------------------------------------------------------------------------------------
# Response bodies (also usable by the tournament app to store results as JSON)


def state_to_dict(rules: PartnershipRules, state: MatchState) -> dict[str, Any]:
    """The API form of a match state; ``hands_played`` only when the match has a hand limit."""
    body: dict[str, Any] = {
        "levels": list(state.levels),
        "dealer": state.dealer,
        "a_failures": list(state.a_failures),
    }
    if rules.hand_limit is not None:
        body["hands_played"] = state.hands_played
    return body


def limit_fields(rules: PartnershipRules, state: MatchState) -> dict[str, Any]:
    """With a hand limit only: whether the match ended drawn, and the side that can no longer be caught."""
    if rules.hand_limit is None:
        return {}
    return {"match_drawn": state.drawn, "decided": decided_before_limit(rules, state)}


def partnership_response(
    rules: PartnershipRules, result: HandResult, new_state: MatchState
) -> dict[str, Any]:
    return {
        "kitty_multiplier": result.kitty_multiplier,
        "kitty_bonus": result.kitty_bonus,
        "attackers_total": result.attackers_total,
        "level_gain": result.level_gain,
        "gaining_side": result.gaining_side,
        "deal_changes": result.deal_changes,
        "state": state_to_dict(rules, new_state),
        "match_winner": result.match_winner,
        **limit_fields(rules, new_state),
    }


def red_five_response(result: RedFiveResult) -> dict[str, Any]:
    return {"dealer_final": result.dealer_final, "game_points": list(result.game_points)}


def yongzhou_response(rules: YongzhouRules, result: YongzhouResult) -> dict[str, Any]:
    body: dict[str, Any] = {"net": list(result.net), "next_dealer": result.next_dealer}
    if rules.partnership_mode:
        assert result.side_net is not None
        body.update(side_net=list(result.side_net), winning_side=result.winning_side, draw=result.draw)
    return body
