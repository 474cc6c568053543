"""Combinations — RULES.md §3: pairs, triples, tractors and each variant's adjacency, throws,
canonical decomposition and its tie rules."""

from __future__ import annotations

import pytest

from gameplay.combos import classify, decompose
from gameplay.errors import IllegalPlay, InvalidCards

from .helpers import cards, lead, make_ctx


def shape(ctx, text: str) -> str:
    return lead(ctx, text).shape


def parts(ctx, text: str) -> list[str]:
    return [str(c) for c in lead(ctx, text).display_components()]


def test_single_pair_and_not_a_pair() -> None:
    ctx = make_ctx("tractor", "2", "H")
    assert shape(ctx, "S9") == "single"
    assert shape(ctx, "S9 S9") == "pair"
    assert shape(ctx, "LJ LJ") == "pair"
    # two cards of one rank but different suits are never a pair (and here not one suit either)
    with pytest.raises(IllegalPlay):
        classify(ctx, cards("S9 C9"))
    assert shape(ctx, "BJ LJ") == "throw"  # two trumps of different tiers: two singles


def test_two_off_suit_level_cards_are_not_a_pair_and_not_adjacent() -> None:
    ctx = make_ctx("tractor", "10", "S")
    assert shape(ctx, "H10 C10") == "throw"
    assert shape(ctx, "H10 H10 C10 C10") == "throw"  # 两对副10 is not a tractor (seed 003)


@pytest.mark.parametrize("text", ["SK SK SQ SQ", "SJ SJ S9 S9", "S5 S5 S4 S4 S3 S3"])
def test_seed003_tractors_at_level_10(text: str) -> None:
    """Seed 003: KKQQ, JJ99 (the level 10 is skipped), 554433 are tractors."""
    assert shape(make_ctx("tractor", "10", "H"), text) == "tractor"


@pytest.mark.parametrize("text", ["LJ LJ S10 S10", "S10 S10 C10 C10", "C10 C10 SA SA", "S10 S10 C10 C10 SA SA"])
def test_seed003_trump_tractors_through_jokers_and_levels(text: str) -> None:
    """Seed 003: LJ pair + 主10 pair; 主10 + 副10; 副10 + 主A; 主10 + 副10 + 主A."""
    lc = lead(make_ctx("tractor", "10", "S"), text)
    assert lc.shape == "tractor" and lc.components[0].length == len(text.split()) // 2


@pytest.mark.parametrize("text", ["S5 S5 S4", "S5 S4 S4", "S5 S5 S3 S3", "SJ SJ SQ", "SA SA S2 S2"])
def test_seed003_not_tractors(text: str) -> None:
    """Seed 003: 554, 544, 5533, JJQ, AA22 are not tractors (no wrap in tractor)."""
    assert shape(make_ctx("tractor", "10", "H"), text) == "throw"


def test_seed003_jj1010_not_a_tractor() -> None:
    """JJ1010 at level 10: the 10 is a trump, the J a side card (or a plain trump not adjacent to T-10)."""
    with pytest.raises(IllegalPlay):
        classify(make_ctx("tractor", "10", "H"), cards("SJ SJ S10 S10"))
    assert shape(make_ctx("tractor", "10", "S"), "SJ SJ S10 S10") == "throw"


def test_chaodi_skips_level_and_wraps_k3_at_ace() -> None:
    """Seed 001: at level 6, 55 and 77 are adjacent; at level A, KK and 33 are adjacent."""
    assert shape(make_ctx("chaodi", "6", "H"), "S7 S7 S5 S5") == "tractor"
    ace = make_ctx("chaodi", "A", "H")
    assert shape(ace, "SK SK S3 S3") == "tractor"
    assert shape(ace, "SQ SQ SK SK S3 S3 S4 S4") == "tractor"
    assert shape(make_ctx("chaodi", "K", "H"), "SA SA S3 S3") == "throw"  # no wrap below A
    assert shape(make_ctx("chaodi", "A", "H", options={"wrap_k3_at_ace": False}), "SK SK S3 S3") == "throw"
    assert shape(make_ctx("tractor", "A", "H"), "SK SK S2 S2") == "throw"  # tractor: no wrap


def test_chaodi_trump_chains_stop_between_jokers_levels_twos_and_the_trump_suit() -> None:
    """RULES §3 / seed 001 "王拖和2拖就只有两对": BJ BJ LJ LJ; 主级 pair + 副级 pair; 主2 pair + 副2 pair;
    the trump suit's own ranks chain among themselves; nothing crosses from one group to the next."""
    ctx = make_ctx("chaodi", "5", "H")
    assert shape(ctx, "BJ BJ LJ LJ") == "tractor"
    assert shape(ctx, "H5 H5 S5 S5") == "tractor"  # 级牌拖
    assert shape(ctx, "H2 H2 S2 S2") == "tractor"  # 2拖
    assert shape(ctx, "HA HA HK HK") == "tractor"
    assert shape(ctx, "H6 H6 H4 H4") == "tractor"  # the level 5 is skipped
    assert shape(ctx, "HA HA H2 H2") == "throw"  # 2 is not part of the trump suit's chain
    assert shape(ctx, "LJ LJ H5 H5") == "throw"
    assert shape(ctx, "C2 C2 HA HA") == "throw"
    assert shape(ctx, "S5 S5 H2 H2") == "throw"
    assert parts(ctx, "BJ BJ LJ LJ H5 H5") == ["BJ BJ LJ LJ", "H5 H5"]  # and no longer
    assert parts(ctx, "H5 H5 S5 S5 H2 H2 C2 C2") == ["H5 H5 S5 S5", "H2 H2 C2 C2"]


def test_chaodi_at_ace_trump_suit_wraps_but_does_not_reach_the_twos() -> None:
    ctx = make_ctx("chaodi", "A", "H")
    assert shape(ctx, "HK HK H3 H3") == "tractor"
    assert shape(ctx, "S2 S2 HK HK") == "throw"


def test_chaodi_no_trump_level_and_twos_do_not_chain() -> None:
    ctx = make_ctx("chaodi", "A", None)
    assert shape(ctx, "BJ BJ LJ LJ") == "tractor"
    assert shape(ctx, "LJ LJ SA SA") == "throw"
    assert shape(ctx, "SA SA S2 S2") == "throw"


def test_tractor_variant_trump_chain_still_runs_through_jokers_and_levels() -> None:
    """`tractor` is unchanged: LJ LJ + T-10 T-10, T-10 T-10 + ♣10♣10, ♣10♣10 + T-A T-A at level 10."""
    ctx = make_ctx("tractor", "10", "H")
    assert shape(ctx, "BJ BJ LJ LJ H10 H10 C10 C10 HA HA") == "tractor"


def test_chaodi_largest_component_for_the_kitty_multiplier() -> None:
    """The finished hand passes the largest component of the last winning play (``decompose``):
    `BJ BJ LJ LJ 主级 主级` is a 2-pair tractor plus a pair, 4 cards (×4 in chaodi), not 6."""
    ctx = make_ctx("chaodi", "5", "H")
    assert max(c.size for c in decompose(ctx, cards("BJ BJ LJ LJ H5 H5"))) == 4
    assert max(c.size for c in decompose(ctx, cards("HA HA HK HK HQ HQ"))) == 6


def test_red_five_tractors() -> None:
    """Seed 002: 6677, 778899; ♥4466 (♥5 is removed); nothing above trump A is in a tractor."""
    ctx = make_ctx("red-five", trump="S")
    assert shape(ctx, "C6 C6 C7 C7") == "tractor"
    assert shape(ctx, "C7 C7 C8 C8 C9 C9") == "tractor"
    assert shape(ctx, "H6 H6 H4 H4") == "tractor"
    assert shape(ctx, "BJ BJ LJ LJ") == "throw"
    assert shape(ctx, "S3 S3 C3 C3") == "throw"  # 正参谋 + 副参谋
    assert shape(ctx, "S2 S2 H2 H2") == "throw"
    assert shape(ctx, "H2 H2 SA SA") == "throw"  # 副2 above trump A
    assert shape(ctx, "SA SA SK SK") == "tractor"
    assert shape(make_ctx("red-five", trump="H"), "H6 H6 H4 H4") == "tractor"


def test_red_five_three_decks_triples() -> None:
    """Seed 002: triples and tractors of triples (666777) exist only with three decks."""
    ctx = make_ctx("red-five", trump="S", decks=3)
    assert shape(ctx, "C6 C6 C6") == "triple"
    assert shape(ctx, "C6 C6 C6 C7 C7 C7") == "tractor"
    assert lead(ctx, "C6 C6 C6 C7 C7 C7").components[0].width == 3
    assert shape(ctx, "C6 C6 C7 C7") == "tractor"
    assert parts(ctx, "C6 C6 C6 C7 C7") == ["C7 C7", "C6 C6 C6"]  # a triple is not split


def test_yongzhou_tractors() -> None:
    """RULES §3: 7755 is a tractor (6 removed); 9 and J adjacent (10 is trump); the whole trump chain."""
    ctx = make_ctx("yongzhou-300", trump="H")
    for text in ("C7 C7 C5 C5", "C9 C9 CJ CJ", "CK CK CA CA", "C8 C8 C9 C9"):
        assert shape(ctx, text) == "tractor", text
    for text in ("HA HA S2 S2", "H2 H2 S2 S2", "H2 H2 S10 S10", "S10 S10 H10 H10", "H10 H10 LJ LJ",
                 "LJ LJ BJ BJ", "HA HA S2 S2 H2 H2 C10 C10 H10 H10 LJ LJ BJ BJ"):
        assert shape(ctx, text) == "tractor", text
    nt = make_ctx("yongzhou-300", trump=None)
    assert shape(nt, "BJ BJ LJ LJ") == "tractor"
    assert shape(nt, "LJ LJ S10 S10") == "throw"
    assert shape(nt, "S10 S10 C2 C2") == "throw"


def test_canonical_decomposition_examples() -> None:
    """RULES §3: AQQJJ = single A + tractor QQJJ; 98844 = 9 + 88 + 44."""
    ctx = make_ctx("tractor", "10", "H")
    assert parts(ctx, "SA SQ SQ SJ SJ") == ["SA", "SQ SQ SJ SJ"]
    assert parts(ctx, "S9 S8 S8 S4 S4") == ["S9", "S8 S8", "S4 S4"]
    assert parts(ctx, "SA SA SK") == ["SA SA", "SK"]
    assert parts(ctx, "SA SK SK") == ["SA", "SK SK"]


def test_decomposition_longest_tractor_first_then_higher() -> None:
    ctx = make_ctx("tractor", "2", "H")
    got = parts(ctx, "S9 S9 S8 S8 S7 S7 S5 S5 S4 S4")
    assert got == ["S9 S9 S8 S8 S7 S7", "S5 S5 S4 S4"]
    c = lead(ctx, "S9 S9 S8 S8 S7 S7 S5 S5 S4 S4")
    assert [x.length for x in c.components] == [3, 2]


def test_decomposition_equal_tier_tie_first_in_suit_order() -> None:
    """Between equal-tier cards, the first in the suit order ♦ ♣ ♥ ♠ is taken into the tractor."""
    ctx = make_ctx("tractor", "10", "S")
    c = lead(ctx, "S10 S10 H10 H10 D10 D10 SA SA")
    assert str(c.components[0]) == "S10 S10 D10 D10 SA SA"
    assert [str(x) for x in c.components[1:]] == ["H10 H10"]


def test_decompose_whole_hand_by_suit() -> None:
    ctx = make_ctx("tractor", "2", "H")
    comps = decompose(ctx, cards("BJ BJ LJ LJ S9 S9 S8 S8 C3 HA D7"))
    assert [str(c) for c in comps] == ["BJ BJ LJ LJ", "HA", "S9 S9 S8 S8", "C3", "D7"]
    with pytest.raises(InvalidCards):
        decompose(make_ctx("yongzhou-300", trump="H"), cards("S6"))


def test_lead_must_be_one_suit() -> None:
    ctx = make_ctx("tractor", "2", "H")
    with pytest.raises(IllegalPlay) as e:
        classify(ctx, cards("SA HA"))
    assert "one suit" in str(e.value) and "同一门" in e.value.message("zh-hans")
    assert classify(ctx, cards("HA S2 BJ")).shape == "throw"  # all trumps: one effective suit
