"""Trumps and the order of cards — RULES.md §2, every variant, with and without trump."""

from __future__ import annotations

import pytest

from gameplay.cards import Card, format_cards
from gameplay.errors import InvalidContext
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ruleset

from .helpers import make_ctx


def tiers_text(ctx: Context, suit: int) -> list[str]:
    """The tiers of an effective suit, highest first, cards of one tier joined by '='."""
    return ["=".join(format_cards(sorted(t)).split()) for t in reversed(ctx.tiers[suit])]


def test_tractor_trump_tiers_level_10() -> None:
    """Seed 003: 以打10为例: 大王, 小王, 主10, 副10, A … 2; 2 is not a permanent trump."""
    ctx = make_ctx("tractor", "10", "S")
    assert tiers_text(ctx, TRUMP) == ["BJ", "LJ", "S10", "D10=C10=H10", "SA", "SK", "SQ", "SJ", "S9", "S8", "S7",
                                      "S6", "S5", "S4", "S3", "S2"]
    assert tiers_text(ctx, 2) == ["HA", "HK", "HQ", "HJ", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "H2"]
    assert not ctx.is_trump("H2")


def test_tractor_no_trump() -> None:
    ctx = make_ctx("tractor", "5", None)
    assert tiers_text(ctx, TRUMP) == ["BJ", "LJ", "D5=C5=H5=S5"]
    assert tiers_text(ctx, 3)[0] == "SA" and "S5" not in tiers_text(ctx, 3)


def test_chaodi_trump_tiers_seed001_level3_hearts() -> None:
    """Seed 001 §2.2: 大王 > 小王 > ♥3 > ♠3 ♣3 ♦3 > ♥2 > ♠2 ♣2 ♦2 > ♥A … ♥4; side A … 4."""
    ctx = make_ctx("chaodi", "3", "H")
    assert tiers_text(ctx, TRUMP)[:6] == ["BJ", "LJ", "H3", "D3=C3=S3", "H2", "D2=C2=S2"]
    assert tiers_text(ctx, TRUMP)[6:] == ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7", "H6", "H5", "H4"]
    assert tiers_text(ctx, 3) == ["SA", "SK", "SQ", "SJ", "S10", "S9", "S8", "S7", "S6", "S5", "S4"]


def test_chaodi_no_trump_and_level_2_refused() -> None:
    ctx = make_ctx("chaodi", "A", None)
    assert tiers_text(ctx, TRUMP) == ["BJ", "LJ", "DA=CA=HA=SA", "D2=C2=H2=S2"]
    with pytest.raises(InvalidContext) as e:
        make_ctx("chaodi", "2", "H")
    assert e.value.field == "level"


def test_red_five_tiers_trump_hearts() -> None:
    """RULES §2 red-five: H5 > BJ > LJ > 正参谋 > 副参谋 > 主2 > 副2 > T A … 4 (♥3 正参谋, ♦3 副参谋)."""
    ctx = make_ctx("red-five", trump="H")
    assert tiers_text(ctx, TRUMP) == ["H5", "BJ", "LJ", "H3", "D3", "H2", "D2=C2=S2", "HA", "HK", "HQ", "HJ",
                                      "H10", "H9", "H8", "H7", "H6", "H4"]
    assert tiers_text(ctx, 0)[-1] == "D4"  # diamonds: no 3 (副参谋 is trump)
    assert tiers_text(ctx, 3)[-1] == "S3" and tiers_text(ctx, 1)[-1] == "C3"  # ordinary low cards


def test_red_five_h5_is_trump_whatever_the_trump_suit() -> None:
    ctx = make_ctx("red-five", trump="C")
    assert tiers_text(ctx, TRUMP)[:5] == ["H5", "BJ", "LJ", "C3", "S3"]
    assert "H5" not in tiers_text(ctx, 2)
    assert tiers_text(ctx, 2)[-2:] == ["H4", "H3"]
    with pytest.raises(InvalidContext):
        make_ctx("red-five", trump=None)


def test_yongzhou_tiers() -> None:
    """Seed 000: 大王 > 小王 > 正10 > 副10 > 正2 > 副2 > 主牌花色A-5 > 副牌花色A-5; no 3, 4, 6."""
    ctx = make_ctx("yongzhou-300", trump="D")
    assert tiers_text(ctx, TRUMP) == ["BJ", "LJ", "D10", "C10=H10=S10", "D2", "C2=H2=S2", "DA", "DK", "DQ", "DJ",
                                      "D9", "D8", "D7", "D5"]
    assert tiers_text(ctx, 1) == ["CA", "CK", "CQ", "CJ", "C9", "C8", "C7", "C5"]
    assert not ctx.in_deck("C6") and not ctx.in_deck("S3") and not ctx.in_deck("H4")
    nt = make_ctx("yongzhou-300", trump=None)
    assert tiers_text(nt, TRUMP) == ["BJ", "LJ", "D10=C10=H10=S10", "D2=C2=H2=S2"]


def test_level_refused_for_variants_without_levels() -> None:
    with pytest.raises(InvalidContext):
        Context(ruleset("red-five"), "5", "H")
    with pytest.raises(InvalidContext):
        Context(ruleset("tractor"), None, "H")
    with pytest.raises(InvalidContext) as e:
        Context(ruleset("tractor"), "2", "X")
    assert e.value.field == "trump"


def test_compare_sort_key_and_effective_suit() -> None:
    ctx = make_ctx("tractor", "10", "S")
    assert ctx.compare("H10", "C10") == 0  # 副级 are one tier
    assert ctx.compare("S10", "H10") == 1
    assert ctx.compare("S2", "HA") == 1  # any trump beats a side card
    assert ctx.compare("HA", "CA") is None  # side suits do not compare
    assert ctx.effective_suit("H10") == TRUMP and ctx.effective_suit("HA") == 2
    assert ctx.sort_key("D10") < ctx.sort_key("C10") < ctx.sort_key("H10") < ctx.sort_key("S10")
    assert format_cards(ctx.sorted_desc([Card.parse(x).code for x in ("H2", "BJ", "D10", "S3", "HA")])) == \
        "BJ D10 S3 HA H2"


def test_points() -> None:
    """5 = 5, 10 and K = 10; yongzhou LJ 20, BJ 30; totals 200 / 300."""
    from gameplay.cards import deck_codes
    ctx = make_ctx("tractor")
    assert sum(ctx.points[c] for c in deck_codes(2)) == 200
    assert sum(ctx.points[c] for c in deck_codes(3)) == 300
    y = make_ctx("yongzhou-300", trump="H")
    assert sum(y.points[c] for c in deck_codes(2, (3, 4, 6))) == 300
    assert (y.points[52], y.points[53]) == (20, 30)
