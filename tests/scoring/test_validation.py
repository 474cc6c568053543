"""Refusals: every wrong field is named (as a JSON path) with the reason."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from scoring.api import score_hand_request
from scoring.errors import MESSAGES, ScoringInputError

TRACTOR: dict[str, Any] = {
    "variant": "tractor",
    "state": {"levels": ["10", "9"], "dealer": 0},
    "outcome": {
        "attackers_points": 35,
        "kitty_points": 10,
        "last_trick": {"winner": "attackers", "largest": 2},
    },
}
CHAODI_AT_A: dict[str, Any] = {
    "variant": "chaodi",
    "state": {"levels": ["A", "9"], "dealer": 0, "a_failures": [1, 0]},
    "outcome": {
        "attackers_points": 35,
        "kitty_points": 10,
        "last_trick": {"winner": "dealer"},
        "a_first_trick": True,
        "a_last_trick": True,
    },
}
RED_FIVE: dict[str, Any] = {
    "variant": "red-five",
    "decks": 2,
    "outcome": {
        "dealer": 0,
        "bid": 120,
        "trump": "C",
        "dealer_points": 100,
        "kitty_points": 20,
        "dealer_won_last_trick": True,
        "red_fives": [{"played_by": 0, "won_by": 1}],
    },
}
YONGZHOU: dict[str, Any] = {"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}}

Edit = Callable[[dict[str, Any]], object]


def setting(path: str, value: Any) -> Edit:
    """An edit that sets ``path`` (dotted, list indexes as numbers) to ``value``."""

    def edit(body: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = body
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


def removing(path: str) -> Edit:
    def edit(body: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = body
        for key in parents:
            node = node[key]
        del node[last]

    return edit


CASES: list[tuple[str, dict[str, Any], Edit, str, str]] = [
    # (id, base request, edit, field named, message code)
    ("variant missing", TRACTOR, removing("variant"), "variant", "required"),
    ("variant unknown", TRACTOR, setting("variant", "bridge"), "variant", "unknown_variant"),
    ("variant not a string", TRACTOR, setting("variant", 3), "variant", "unknown_variant"),
    ("unknown top-level field", TRACTOR, setting("lang", "en"), "lang", "unknown_field"),
    ("options not an object", TRACTOR, setting("options", []), "options", "type_object"),
    (
        "unknown option",
        TRACTOR,
        setting("options", {"trump_bonus": 1}),
        "options.trump_bonus",
        "unknown_option",
    ),
    (
        "option of another variant",
        TRACTOR,
        setting("options", {"net_base": 100}),
        "options.net_base",
        "option_not_for_variant",
    ),
    (
        "bad target level",
        TRACTOR,
        setting("options", {"target_level": "Z"}),
        "options.target_level",
        "level_invalid",
    ),
    (
        "target level not a string",
        TRACTOR,
        setting("options", {"target_level": 11}),
        "options.target_level",
        "type_str",
    ),
    (
        "bad must-play level",
        TRACTOR,
        setting("options", {"must_play_levels": ["J", "X"]}),
        "options.must_play_levels.1",
        "level_invalid",
    ),
    (
        "must-play not a list",
        TRACTOR,
        setting("options", {"must_play_levels": "J"}),
        "options.must_play_levels",
        "type_list",
    ),
    (
        "bad level table",
        TRACTOR,
        setting("options", {"level_table": {"bands": []}}),
        "options.level_table",
        "level_table",
    ),
    (
        "bad kitty policy",
        TRACTOR,
        setting("options", {"kitty_multiplier": "triple"}),
        "options.kitty_multiplier",
        "choice",
    ),
    (
        "bad kitty cap",
        TRACTOR,
        setting("options", {"kitty_multiplier_cap": 0}),
        "options.kitty_multiplier_cap",
        "positive_int_or_null",
    ),
    (
        "bad throw option",
        TRACTOR,
        setting("options", {"throw_penalties": "yes"}),
        "options.throw_penalties",
        "type_bool",
    ),
    (
        "bad hand limit",
        TRACTOR,
        setting("options", {"hand_limit": -1}),
        "options.hand_limit",
        "positive_int_or_null",
    ),
    (
        "A reset to A",
        CHAODI_AT_A,
        setting("options", {"a_failure_reset_level": "A"}),
        "options.a_failure_reset_level",
        "reset_level",
    ),
    (
        "chaodi has no level 2",
        CHAODI_AT_A,
        setting("options", {"a_failure_reset_level": "2"}),
        "options.a_failure_reset_level",
        "level_invalid",
    ),
    ("tractor with 3 decks", TRACTOR, setting("decks", 3), "decks", "decks_fixed"),
    ("tractor with 3 players", TRACTOR, setting("players", 3), "players", "players_fixed"),
    ("state missing", TRACTOR, removing("state"), "state", "required"),
    ("state not an object", TRACTOR, setting("state", [1]), "state", "type_object"),
    ("unknown state field", TRACTOR, setting("state.trump", "S"), "state.trump", "unknown_field"),
    ("one level", TRACTOR, setting("state.levels", ["10"]), "state.levels", "list_length"),
    ("level unknown", TRACTOR, setting("state.levels.1", "Z"), "state.levels.1", "level_invalid"),
    ("level not a string", TRACTOR, setting("state.levels.1", 9), "state.levels.1", "type_str"),
    ("level past the target", TRACTOR, setting("state.levels.0", "Q"), "state.levels.0", "level_past_target"),
    ("chaodi level 2", CHAODI_AT_A, setting("state.levels.1", "2"), "state.levels.1", "level_invalid"),
    ("dealer seat 4", TRACTOR, setting("state.dealer", 4), "state.dealer", "range"),
    ("dealer seat -1", TRACTOR, setting("state.dealer", -1), "state.dealer", "range"),
    ("dealer a string", TRACTOR, setting("state.dealer", "0"), "state.dealer", "type_int"),
    ("dealer a boolean", TRACTOR, setting("state.dealer", True), "state.dealer", "type_int"),
    ("dealer missing", TRACTOR, removing("state.dealer"), "state.dealer", "required"),
    (
        "a_failures in tractor",
        TRACTOR,
        setting("state.a_failures", [1, 0]),
        "state.a_failures.0",
        "a_failures_off",
    ),
    (
        "a_failures not at A",
        CHAODI_AT_A,
        setting("state.a_failures", [0, 1]),
        "state.a_failures.1",
        "a_failures_not_at_a",
    ),
    (
        "a_failures at the limit",
        CHAODI_AT_A,
        setting("state.a_failures", [3, 0]),
        "state.a_failures.0",
        "a_failures_limit",
    ),
    ("a_failures negative", CHAODI_AT_A, setting("state.a_failures", [-1, 0]), "state.a_failures.0", "min"),
    ("a_failures length", CHAODI_AT_A, setting("state.a_failures", [0]), "state.a_failures", "list_length"),
    (
        "hands_played over the limit",
        TRACTOR,
        lambda b: (b.update(options={"hand_limit": 3}), b["state"].update(hands_played=3)),
        "state.hands_played",
        "range",
    ),  # type: ignore[func-returns-value]
    ("outcome missing", TRACTOR, removing("outcome"), "outcome", "required"),
    ("outcome not an object", TRACTOR, setting("outcome", 35), "outcome", "type_object"),
    ("unknown outcome field", TRACTOR, setting("outcome.trump", "S"), "outcome.trump", "unknown_field"),
    (
        "points not a multiple of 5",
        TRACTOR,
        setting("outcome.attackers_points", 33),
        "outcome.attackers_points",
        "multiple_of_5",
    ),
    (
        "points negative",
        TRACTOR,
        setting("outcome.attackers_points", -5),
        "outcome.attackers_points",
        "points_range",
    ),
    (
        "points over the deck",
        TRACTOR,
        setting("outcome.attackers_points", 205),
        "outcome.attackers_points",
        "points_range",
    ),
    (
        "points a float",
        TRACTOR,
        setting("outcome.attackers_points", 35.0),
        "outcome.attackers_points",
        "type_int",
    ),
    ("points missing", TRACTOR, removing("outcome.attackers_points"), "outcome.attackers_points", "required"),
    ("kitty over 80", TRACTOR, setting("outcome.kitty_points", 85), "outcome.kitty_points", "kitty_capacity"),
    (
        "kitty not a multiple of 5",
        TRACTOR,
        setting("outcome.kitty_points", 12),
        "outcome.kitty_points",
        "multiple_of_5",
    ),
    (
        "points + kitty over 200",
        TRACTOR,
        setting("outcome.attackers_points", 195),
        "outcome.attackers_points",
        "points_over_total",
    ),
    ("last trick missing", TRACTOR, removing("outcome.last_trick"), "outcome.last_trick", "required"),
    (
        "last trick winner unknown",
        TRACTOR,
        setting("outcome.last_trick.winner", "north"),
        "outcome.last_trick.winner",
        "last_trick_winner",
    ),
    (
        "largest 3",
        TRACTOR,
        setting("outcome.last_trick.largest", 3),
        "outcome.last_trick.largest",
        "largest_shape",
    ),
    (
        "largest 0",
        TRACTOR,
        setting("outcome.last_trick.largest", 0),
        "outcome.last_trick.largest",
        "largest_shape",
    ),
    (
        "largest 26",
        TRACTOR,
        setting("outcome.last_trick.largest", 26),
        "outcome.last_trick.largest",
        "largest_shape",
    ),
    (
        "largest missing for attackers",
        TRACTOR,
        removing("outcome.last_trick.largest"),
        "outcome.last_trick.largest",
        "largest_required",
    ),
    (
        "throw penalties off",
        TRACTOR,
        setting("outcome.throw_penalties", 10),
        "outcome.throw_penalties",
        "throw_penalties_off",
    ),
    (
        "A flag missing at A",
        CHAODI_AT_A,
        removing("outcome.a_first_trick"),
        "outcome.a_first_trick",
        "a_flags_required",
    ),
    (
        "A flag not a boolean",
        CHAODI_AT_A,
        setting("outcome.a_last_trick", "yes"),
        "outcome.a_last_trick",
        "type_bool",
    ),
    ("red-five 4 decks", RED_FIVE, setting("decks", 4), "decks", "choice"),
    ("red-five state", RED_FIVE, setting("state", {}), "state", "not_applicable"),
    ("bid too low", RED_FIVE, setting("outcome.bid", 55), "outcome.bid", "bid_range"),
    ("bid too high", RED_FIVE, setting("outcome.bid", 205), "outcome.bid", "bid_range"),
    ("bid not a multiple of 5", RED_FIVE, setting("outcome.bid", 122), "outcome.bid", "multiple_of_5"),
    ("no-trump in red-five", RED_FIVE, setting("outcome.trump", "NT"), "outcome.trump", "trump_suit"),
    ("red-five dealer seat", RED_FIVE, setting("outcome.dealer", 4), "outcome.dealer", "range"),
    (
        "red-five kitty over 80",
        RED_FIVE,
        setting("outcome.kitty_points", 85),
        "outcome.kitty_points",
        "kitty_capacity",
    ),
    (
        "red-five 3-deck kitty over 60",
        RED_FIVE,
        lambda b: (b.update(decks=3), b["outcome"].update(bid=120, kitty_points=65)),
        "outcome.kitty_points",
        "kitty_capacity",
    ),  # type: ignore[func-returns-value]
    (
        "red-five points over the deck",
        RED_FIVE,
        setting("outcome.dealer_points", 190),
        "outcome.dealer_points",
        "points_over_total",
    ),
    (
        "red five within a side",
        RED_FIVE,
        setting("outcome.red_fives", [{"played_by": 1, "won_by": 3}]),
        "outcome.red_fives.0",
        "red_five_cross",
    ),
    (
        "red five the dealer's own",
        RED_FIVE,
        setting("outcome.red_fives", [{"played_by": 0, "won_by": 0}]),
        "outcome.red_fives.0",
        "red_five_cross",
    ),
    (
        "three red fives with 2 decks",
        RED_FIVE,
        setting("outcome.red_fives", [{"played_by": 0, "won_by": 1}] * 3),
        "outcome.red_fives",
        "red_five_count",
    ),
    (
        "red five seat 7",
        RED_FIVE,
        setting("outcome.red_fives", [{"played_by": 7, "won_by": 1}]),
        "outcome.red_fives.0.played_by",
        "range",
    ),
    (
        "red five missing seat",
        RED_FIVE,
        setting("outcome.red_fives", [{"played_by": 0}]),
        "outcome.red_fives.0.won_by",
        "required",
    ),
    (
        "red fives not a list",
        RED_FIVE,
        setting("outcome.red_fives", {"played_by": 0}),
        "outcome.red_fives",
        "type_list",
    ),
    (
        "dealer won a red five but no points",
        RED_FIVE,
        lambda b: b["outcome"].update(dealer_points=0, red_fives=[{"played_by": 1, "won_by": 0}]),
        "outcome.dealer_points",
        "red_five_dealer_low",
    ),
    (
        "defenders won a red five but have no points",
        RED_FIVE,
        setting("outcome.dealer_points", 180),
        "outcome.dealer_points",
        "red_five_dealer_high",
    ),
    (
        "last-trick flag not a boolean",
        RED_FIVE,
        setting("outcome.dealer_won_last_trick", 1),
        "outcome.dealer_won_last_trick",
        "type_bool",
    ),
    (
        "bid range option",
        RED_FIVE,
        setting("options", {"bid_range": [60]}),
        "options.bid_range",
        "pair_range",
    ),
    (
        "game point table option",
        RED_FIVE,
        setting("options", {"game_point_table": [[0, -5], [None, 5]]}),
        "options.game_point_table",
        "game_point_table",
    ),
    (
        "capture points option",
        RED_FIVE,
        setting("options", {"red_five_capture_points": 12}),
        "options.red_five_capture_points",
        "multiple_of_5",
    ),
    (
        "yongzhou points sum",
        YONGZHOU,
        setting("outcome.points", [20, 130, 145]),
        "outcome.points",
        "points_sum",
    ),
    (
        "yongzhou too many players' points",
        YONGZHOU,
        setting("outcome.points", [20, 130, 150, 0]),
        "outcome.points",
        "list_length",
    ),
    (
        "yongzhou point not a multiple of 5",
        YONGZHOU,
        setting("outcome.points.0", 21),
        "outcome.points.0",
        "multiple_of_5",
    ),
    (
        "yongzhou point not a number",
        YONGZHOU,
        setting("outcome.points.1", "130"),
        "outcome.points.1",
        "type_int",
    ),
    ("yongzhou 5 players", YONGZHOU, setting("players", 5), "players", "choice"),
    ("yongzhou decks", YONGZHOU, setting("decks", 2), "decks", "not_applicable"),
    ("yongzhou net base", YONGZHOU, setting("options", {"net_base": 90}), "options.net_base", "net_base_sum"),
    (
        "yongzhou partnership with 3",
        YONGZHOU,
        setting("options", {"partnership_mode": True}),
        "options.partnership_mode",
        "partnership_mode_players",
    ),
    (
        "yongzhou tie break not tied",
        YONGZHOU,
        setting("outcome.tie_break", 0),
        "outcome.tie_break",
        "tie_break_not_tied",
    ),
    ("yongzhou declarer seat", YONGZHOU, setting("outcome.declarer", 3), "outcome.declarer", "range"),
]


@pytest.mark.parametrize(
    ("base", "edit", "field", "code"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_refusal_names_the_field(base: dict[str, Any], edit: Edit, field: str, code: str) -> None:
    body = copy.deepcopy(base)
    edit(body)
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body)
    error = caught.value
    assert field in error.field_errors, error.field_errors
    assert code in error.codes[field]
    for lang in ("en", "zh-hans"):
        for message in error.in_lang(lang).field_errors[field]:
            assert message and not re.search(r"\{[a-z_]+\}", message), message


def test_bases_are_valid() -> None:
    for base in (TRACTOR, CHAODI_AT_A, RED_FIVE, YONGZHOU):
        score_hand_request(copy.deepcopy(base))


def test_body_not_an_object() -> None:
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request([1, 2])
    assert caught.value.codes == {"body": ["type_object"]}


def test_every_message_has_both_languages() -> None:
    for code, (en, zh) in MESSAGES.items():
        assert en and zh, code


@pytest.mark.parametrize(
    "table",
    [
        {"bands": []},
        {"bands": [[5, "dealer", 1], [80, "attackers", 0]]},
        {"bands": [[0, "dealer", 1], [82, "attackers", 0]]},
    ],
)
def test_level_table_reasons_in_chinese(table: dict[str, Any]) -> None:
    body = copy.deepcopy(TRACTOR)
    body["options"] = {"level_table": table}
    with pytest.raises(ScoringInputError) as caught:
        score_hand_request(body, "zh-hans")
    message = caught.value.field_errors["options.level_table"][0]
    reason = message.rsplit("：", 1)[1]
    assert re.search(r"[\u4e00-\u9fff]", reason), message
