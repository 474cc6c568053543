"""The referee ruling (pure part of POST /api/v1/referee/trick): exact answer shape, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gameplay.errors import GameplayError
from gameplay.referee import RequestInvalid, rule_trick

HANDS = {"0": "S9 S8 S8 S4 S4", "1": "SJ S2 S2 D3 D3", "2": "H2 H3 H4 H5 H6", "3": "C2 C3 C4 C5 C6"}


def body(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"variant": "tractor", "level": "10", "trump": "H", "hands": dict(HANDS), "leader": 0,
                            "plays": ["S9 S8 S8 S4 S4"]}
    base.update(kw)
    return base


def test_failed_throw_answer_is_exactly_the_contract() -> None:
    r = rule_trick(body(plays=["S9 S8 S8 S4 S4", "SJ", "H6", "C6"]))
    assert r.as_api() == {
        "lead": {"shape": "throw", "components": ["S9", "S8 S8", "S4 S4"], "throw_failed": True, "forced": "S9",
                 "beaten_by": 1},
        "plays": [{"seat": 0, "cards": "S9 S8 S8 S4 S4", "legal": True, "reason": None},
                  {"seat": 1, "cards": "SJ", "legal": True, "reason": None},
                  {"seat": 2, "cards": "H6", "legal": True, "reason": None},
                  {"seat": 3, "cards": "C6", "legal": True, "reason": None}],
        "winner": 2,
        "points": 0,
    }
    json.dumps(r.as_api())
    assert any("fails" in s for s in r.explanation)


def test_later_plays_are_judged_against_the_forced_cards() -> None:
    r = rule_trick(body(plays=["S9 S8 S8 S4 S4", "D3"]))
    p = r.as_api()["plays"][1]
    assert p["legal"] is False and "spades" in p["reason"] and r.winner is None


def test_standing_throw_and_winner_and_points() -> None:
    hands = {"0": "SA SA SK", "1": "S5 S3 D3", "2": "H2 H3 H4", "3": "C2 C3 CK"}
    r = rule_trick({"variant": "tractor", "level": "2", "trump": "H", "hands": hands, "leader": 0,
                    "plays": ["SA SA SK", "S5 S3 D3", "H2 H3 H4", "C2 C3 CK"]})
    out = r.as_api()
    assert out["lead"] == {"shape": "throw", "components": ["SA SA", "SK"], "throw_failed": False, "forced": None,
                           "beaten_by": None}
    # H2 is the level card (trump) but H2 H3 H4 has no pair: it does not cover the pair SA SA
    assert out["winner"] == 0 and out["points"] == 10 + 5 + 10


def test_single_lead_shapes_and_ruff() -> None:
    hands = {"0": "SK", "1": "SA", "2": "H3", "3": "S5"}
    r = rule_trick({"variant": "tractor", "level": "2", "trump": "H", "hands": hands, "leader": 1,
                    "plays": ["SA", "H3", "S5", "SK"]})
    assert r.as_api()["lead"]["shape"] == "single"
    assert r.winner == 2 and r.points == 15
    assert [p["seat"] for p in r.plays] == [1, 2, 3, 0]


def test_illegal_follow_reason_in_chinese() -> None:
    hands = {"0": "S8 S8 D4", "1": "SK SK S3", "2": "H2 H3 H4", "3": "C2 C3 C4"}
    r = rule_trick({"variant": "tractor", "level": "5", "trump": "H", "hands": hands, "leader": 0,
                    "plays": ["S8 S8", "SK S3"]}, lang="zh-hans")
    p = r.plays[1]
    assert p["legal"] is False and "对子" in p["reason"]
    assert r.explanation and all(isinstance(s, str) for s in r.explanation)


def test_yongzhou_referee_must_beat() -> None:
    hands = {"0": "D5 C7", "1": "DQ C8", "2": "DK D7", "3": "DA C9"}
    r = rule_trick({"variant": "yongzhou-300", "trump": "H", "hands": hands, "leader": 0,
                    "plays": ["D5", "DQ", "D7", "DA"]})
    assert [p["legal"] for p in r.plays] == [True, True, False, True]
    assert "见分必打" in r.plays[2]["reason"] and r.winner is None and r.points == 5


def test_three_player_yongzhou_and_red_five_three_decks() -> None:
    r = rule_trick({"variant": "yongzhou-300", "players": 3, "trump": None,
                    "hands": {"0": "S5", "1": "SA", "2": "BJ"}, "leader": 2, "plays": ["BJ", "S5", "SA"]})
    assert r.winner == 2 and r.points == 35
    r = rule_trick({"variant": "red-five", "decks": 3, "trump": "S",
                    "hands": {"0": "C9 C9 C9", "1": "C8 C8 C8", "2": "S4 S4 S4", "3": "CA CA CA"}, "leader": 0,
                    "plays": ["C9 C9 C9", "C8 C8 C8", "S4 S4 S4", "CA CA CA"]})
    assert r.as_api()["lead"]["shape"] == "triple" and r.winner == 2


def test_illegal_lead_marks_later_plays_unjudged() -> None:
    hands = {"0": "SA SK", "1": "S5 S3", "2": "H2 H3", "3": "C2 C3"}
    r = rule_trick({"variant": "red-five", "trump": "H", "hands": hands, "leader": 0, "plays": ["SA SK", "S5 S3"]})
    assert r.plays[0]["legal"] is False and "throw" in r.plays[0]["reason"]
    assert r.plays[1]["legal"] is False and r.winner is None


@pytest.mark.parametrize(
    ("change", "path"),
    [({"variant": "poker"}, "variant"),
     ({"variant": None}, "variant"),
     ({"level": "1"}, "level"),
     ({"level": None}, "level"),
     ({"trump": "X"}, "trump"),
     ({"variant": "red-five", "level": None, "trump": None}, "trump"),
     ({"leader": "0"}, "leader"),
     ({"hands": "S9"}, "hands"),
     ({"surprise": 1}, "surprise"),
     ({"players": 3}, "players"),
     ({"decks": 3}, "decks"),
     ({"options": {"throw_penalty": 3}}, "options.throw_penalty"),
     ({"options": {"bogus": True}}, "options.bogus"),
     ({"leader": 7}, "leader"),
     ({"plays": []}, "plays"),
     ({"plays": ["S9", "SJ", "H2", "C2", "S9"]}, "plays"),
     ({"plays": ["S9 S9"]}, "plays.0"),
     ({"plays": ["S9 ZZ"]}, "plays.0"),
     ({"hands": {**HANDS, "1": "SJ S2 S2 D3 Q9"}}, "hands.1"),
     ({"hands": {**HANDS, "1": "SJ S2 S2 D3 " + " ".join(["C5"] * 2 + ["C6"] * 2 + ["C7"] * 2 + ["C8"] * 2
                                                      + ["C9"] * 2 + ["C10"] * 2 + ["CJ"] * 2 + ["CQ"] * 2
                                                      + ["CK"] * 2 + ["CA"] * 2 + ["D4"])}}, "hands.1"),
     ({"hands": {**HANDS, "2": "S9 S9 H4 H5 H6", "3": "S9 C3 C4 C5 C6"}}, "hands.0"),
     ({"hands": {**HANDS, "2": "S9 ZZ"}}, "hands.2"),
     ({"hands": {"0": "S9"}, "plays": ["S9", "SJ"]}, "plays.1"),
     ({"hands": {**HANDS, "4": "S3"}}, "hands.4")],
)
def test_malformed_requests_are_refused_per_field(change: dict[str, Any], path: str) -> None:
    with pytest.raises(RequestInvalid) as e:
        rule_trick(body(**change))
    assert path in e.value.field_errors, e.value.field_errors
    assert isinstance(e.value, GameplayError)
    assert all(isinstance(m, str) and m for msgs in e.value.field_errors.values() for m in msgs)


def test_level_refused_for_variants_without_levels_and_card_not_in_deck() -> None:
    with pytest.raises(RequestInvalid) as e:
        rule_trick({"variant": "red-five", "level": "5", "trump": "H", "hands": {"0": "S9", "1": "S8", "2": "S7",
                                                                                  "3": "S6"},
                    "leader": 0, "plays": ["S9"]})
    assert "level" in e.value.field_errors
    with pytest.raises(RequestInvalid) as e:
        rule_trick({"variant": "yongzhou-300", "trump": "H", "hands": {"0": "S6", "1": "S8", "2": "S7", "3": "S5"},
                    "leader": 0, "plays": ["S6"]}, lang="zh-hans")
    assert "不在" in e.value.field_errors["hands.0"][0]


def test_too_many_copies_in_red_five_three_decks_is_fine_but_not_four() -> None:
    hands = {"0": "C9 C9 C9", "1": "C8 C8 C8", "2": "S4 S4 S4", "3": "CA CA CA"}
    rule_trick({"variant": "red-five", "decks": 3, "trump": "S", "hands": hands, "leader": 0, "plays": ["C9"]})
    with pytest.raises(RequestInvalid):
        rule_trick({"variant": "red-five", "trump": "S", "hands": hands, "leader": 0, "plays": ["C9"]})


# Partial holdings: a director types the cards that matter, not whole hands.

def test_partial_holdings_of_different_sizes_are_ruled_and_the_void_is_explained() -> None:
    hands = {"0": "S9 S8 S8 S4 S4", "1": "SJ", "2": "", "3": "S3 S3 S5 S6"}
    r = rule_trick(body(hands=hands, plays=["S9 S8 S8 S4 S4", "SJ"]))
    assert r.as_api()["lead"]["throw_failed"] is True and r.as_api()["lead"]["beaten_by"] == 1
    assert r.plays[1]["legal"] is True
    # seat 2 shows nothing: it does not hold D3 (plays must still be held)
    with pytest.raises(RequestInvalid) as e:
        rule_trick(body(hands=hands, plays=["S9 S8 S8 S4 S4", "SJ", "D3"]))
    assert list(e.value.field_errors) == ["plays.2"]
    r = rule_trick(body(hands=hands, plays=["S9"]))
    text = " ".join(r.explanation)
    # the sentences count seats from 1 (the hands' keys and the API fields stay 0-based)
    assert "Seat 3 shows no spades, so it is treated as void in spades." in r.explanation
    assert "Partial hands" in text and "seat 2: 1" in text and "seat 3: 0" in text
    assert "Seat 2's spades as entered (SJ) are taken as all it has." in r.explanation
    zh = rule_trick(body(hands=hands, plays=["S9"]), lang="zh-hans")
    assert "3号座位没有列出黑桃，因此按黑桃绝门处理。" in zh.explanation
    assert "2号1张" in " ".join(zh.explanation)


def test_a_seat_left_out_holds_nothing_and_cannot_stop_a_throw() -> None:
    hands = {"0": "SK SK SQ", "1": "S5 S3", "3": "SJ"}
    r = rule_trick({"variant": "tractor", "level": "2", "trump": "H", "hands": hands, "leader": 0,
                    "plays": ["SK SK SQ"]})
    assert r.as_api()["lead"] == {"shape": "throw", "components": ["SK SK", "SQ"], "throw_failed": False,
                                  "forced": None, "beaten_by": None}
    assert "Seat 3 shows no spades, so it is treated as void in spades." in r.explanation
    # the same seat shown with the ace of spades stops the throw's single Q
    r = rule_trick({"variant": "tractor", "level": "2", "trump": "H", "hands": {**hands, "2": "SA"}, "leader": 0,
                    "plays": ["SK SK SQ"]})
    assert r.as_api()["lead"]["forced"] == "SQ" and r.as_api()["lead"]["beaten_by"] == 2


def test_partial_follow_is_judged_on_the_cards_shown() -> None:
    hands = {"0": "SK SK", "1": "S3 H4", "2": "S7 S7 S2", "3": "D9 D9"}
    r = rule_trick({"variant": "tractor", "level": "5", "trump": "C", "hands": hands, "leader": 0,
                    "plays": ["SK SK", "S3 H4", "S7 S2", "D9 D9"]})
    assert [p["legal"] for p in r.plays] == [True, True, False, True]
    assert "pair" in r.plays[2]["reason"]
    assert "Seat 4 shows no spades, so it is treated as void in spades." in r.explanation
    r = rule_trick({"variant": "tractor", "level": "5", "trump": "C", "hands": hands, "leader": 0,
                    "plays": ["SK SK", "S3 H4", "S7 S7", "D9 D9"]})
    assert r.winner == 0 and r.points == 20


def test_whole_hands_of_equal_size_are_not_called_partial() -> None:
    r = rule_trick(body(plays=["S9"]))
    assert not any("Partial" in s for s in r.explanation)
    assert "Seat 3 shows no spades, so it is treated as void in spades." in r.explanation


def test_yongzhou_partial_hand_without_trumps_cannot_be_forced_to_ruff() -> None:
    hands = {"0": "D5", "1": "C7", "2": "DA D7", "3": "DK"}
    r = rule_trick({"variant": "yongzhou-300", "trump": "H", "hands": hands, "leader": 0,
                    "plays": ["D5", "C7", "DA", "DK"]})
    assert [p["legal"] for p in r.plays] == [True, True, True, True] and r.winner == 2
    assert "Seat 2 shows no trumps either, so it is treated as having none to ruff with (见分必打)." in r.explanation


def test_partial_holdings_keep_the_copy_limit() -> None:
    with pytest.raises(RequestInvalid) as e:
        rule_trick(body(hands={"0": "S9 S9", "1": "S9"}, plays=["S9"]))
    assert set(e.value.field_errors) == {"hands.0", "hands.1"}
