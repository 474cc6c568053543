"""A fifth variant is one new preset composed from the behaviour objects (issue 29): made up here, it is
dealt, declared, played by bots, settled and replayed by the engine without a line of it changed.

"Chaodi trumps, tractor declaring": chaodi's trump order (the 2s permanent trumps, chains stopping
between the groups) and its levels from 3, but trump declared as in tractor (a level card while
dealing; pairs overturn), scored by levels. It takes chaodi's option defaults (``options_from``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

import variants
from gameplay.declaring import PROTOCOLS, LevelCard
from gameplay.hand import Hand
from gameplay.notation import replay
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ruleset
from gameplay.simulate import simulate_hand, simulate_hands
from scoring.partnership import HandResult
from scoring.rules import PartnershipRules, scoring_rules
from variants import ChaodiOrder, LevelCardDeclaring, LevelsSettlement

FIFTH = replace(
    variants.CHAODI, key="chaodi-tractor-declaring", name_en="Chaodi trumps, tractor declaring",
    name_zh="炒地皮主·拖拉机亮主", seed="made up for the test", options_from="chaodi",
    trump_order=ChaodiOrder(), declaring=LevelCardDeclaring(), settlement=LevelsSettlement(),
)


@pytest.fixture(autouse=True)
def fifth() -> Iterator[variants.Variant]:
    variants.register(FIFTH)
    try:
        yield FIFTH
    finally:
        variants.unregister(FIFTH.key)


def test_the_preset_is_known_by_its_key_and_composes_existing_behaviour() -> None:
    assert variants.get(FIFTH.key) is FIFTH and FIFTH.key in variants.VARIANTS
    assert FIFTH.key not in variants.VARIANT_KEYS  # the four presets stay the pages' list
    assert PROTOCOLS[FIFTH.declaring] is LevelCard
    assert FIFTH.kitty_size(2, 4) == 8 and FIFTH.total_points(2, 4) == 200
    rules = ruleset(FIFTH.key)
    assert rules.spec is FIFTH and rules.variant == FIFTH.key and rules.wrap_k3_at_ace  # chaodi's defaults
    sr = scoring_rules(FIFTH.key)
    assert isinstance(sr, PartnershipRules) and sr.levels[0] == "3"


def test_its_trump_order_is_chaodis() -> None:
    mine, chaodi = Context(ruleset(FIFTH.key), "5", "S"), Context(ruleset("chaodi"), "5", "S")
    assert mine.tiers == chaodi.tiers and mine.adj_up == chaodi.adj_up
    assert mine.is_trump("H2") and not mine.adjacent("S2", "H5")  # 2s are trump; chains stop at groups
    assert mine.effective_suit("S5") == TRUMP


def test_bots_deal_declare_play_and_settle_hands_that_replay() -> None:
    records = simulate_hands(FIFTH.key, 11, 0, 6, ["heuristic", "random"], keep_log=True)
    assert len(records) == 6
    for rec in records:
        assert rec["variant"] == FIFTH.key and rec["tricks"] > 0
        assert rec["level"] is not None and rec["level"] != "2"
        assert sum(rec["points"]) + rec["outcome"]["kitty_points"] <= 200
        hand = replay(rec["log"])
        assert isinstance(hand, Hand) and hand.phase == "scored" and isinstance(hand.result, HandResult)
        assert hand.to_json() == rec["log"]
    assert any(r["trump"] is not None for r in records)  # level cards were declared
    assert simulate_hand(FIFTH.key, 11, 2, ["heuristic", "random"]) == {
        k: v for k, v in records[2].items() if k != "log"}


def test_a_preset_key_cannot_be_taken_and_the_presets_stay() -> None:
    with pytest.raises(ValueError):
        variants.register(replace(FIFTH, key="chaodi"))
    with pytest.raises(ValueError):
        variants.unregister("tractor")
