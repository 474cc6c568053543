"""Every worked example of the four seed texts, as a named test (the seeds are named in docs/rules.md)."""

from __future__ import annotations

import pytest

from gameplay.cards import format_cards
from gameplay.errors import IllegalPlay
from gameplay.legality import check_follow, is_legal_follow, legal_follows, throw_check
from gameplay.tricks import play_key, trick_winner

from .helpers import cards, hand, lead, make_ctx, plays_text

# ---------------------------------------------------------------- seed 003 (tractor), level 10


def _throw(ctx, text: str, others: dict[int, str]):
    return throw_check(ctx, lead(ctx, text), {s: hand(h) for s, h in others.items()}, leader=0)


def test_seed003_throw_98844_stands_when_nobody_beats_a_component() -> None:
    ctx = make_ctx("tractor", "10", "H")
    tc = _throw(ctx, "S9 S8 S8 S4 S4", {1: "S7 S6 S5 S3", 2: "C2 C3", 3: "D2 D3 S2"})
    assert not tc.failed and tc.forced is None


def test_seed003_throw_98844_forced_9_when_someone_holds_J() -> None:
    """若其余某家有此花色的 J，则首家必须出 9."""
    ctx = make_ctx("tractor", "10", "H")
    tc = _throw(ctx, "S9 S8 S8 S4 S4", {1: "C2", 2: "SJ D3", 3: "D2"})
    assert tc.failed and format_cards(tc.forced.codes) == "S9" and tc.beaten_by == 2
    assert tc.returned == 4


def test_seed003_throw_98844_forced_44_when_someone_holds_55() -> None:
    """若其余某家有此花色的 … 55，则首家必须出 44."""
    ctx = make_ctx("tractor", "10", "H")
    tc = _throw(ctx, "S9 S8 S8 S4 S4", {1: "C2", 2: "D3", 3: "S5 S5"})
    assert tc.failed and format_cards(tc.forced.codes) == "S4 S4" and tc.beaten_by == 3


def test_seed003_throw_98844_forced_44_when_someone_holds_QQ() -> None:
    """若其余某家有此花色的 QQ … 首家必须出 44. A Q is a higher single, also inside a held pair (RULES §4),
    so the 9, 88 and 44 all fail; the lowest failing component is forced: 44."""
    tc = _throw(make_ctx("tractor", "10", "H"), "S9 S8 S8 S4 S4", {1: "C2", 2: "D3", 3: "SQ SQ"})
    assert tc.failed and sorted(str(c) for c in tc.failing) == ["S4 S4", "S8 S8", "S9"]
    assert format_cards(tc.forced.codes) == "S4 S4" and tc.beaten_by == 3 and tc.returned == 3


def test_seed003_throw_98844_QQ_out_option_fewest_cards_forces_the_9() -> None:
    """Option ``throw_forced="fewest_cards"``: of the failing 9, 88 and 44 the fewest cards, the 9."""
    ctx = make_ctx("tractor", "10", "H", options={"throw_forced": "fewest_cards"})
    tc = _throw(ctx, "S9 S8 S8 S4 S4", {1: "C2", 2: "D3", 3: "SQ SQ"})
    assert format_cards(tc.forced.codes) == "S9" and tc.beaten_by == 3


def test_seed003_throw_98844_J_and_QQ_out_force_the_lowest_44() -> None:
    """A J beats the 9, QQ beats everything: the lowest failing component is 44 (fewest_cards: the 9)."""
    tc = _throw(make_ctx("tractor", "10", "H"), "S9 S8 S8 S4 S4", {1: "SQ SQ", 2: "SJ", 3: "D2"})
    assert format_cards(tc.forced.codes) == "S4 S4" and tc.beaten_by == 1
    few = make_ctx("tractor", "10", "H", options={"throw_forced": "fewest_cards"})
    tc2 = _throw(few, "S9 S8 S8 S4 S4", {1: "SQ SQ", 2: "SJ", 3: "D2"})
    assert format_cards(tc2.forced.codes) == "S9" and tc2.beaten_by == 1


@pytest.mark.parametrize("text", ["SA SA SK", "SA SK SK", "SA SQ SQ SJ SJ"])
def test_seed003_throws_of_top_cards_stand(text: str) -> None:
    """副牌中 AAK, AKK, AQQJJ can be thrown when no one holds higher."""
    ctx = make_ctx("tractor", "10", "H")
    tc = _throw(ctx, text, {1: "S9 S8 S7", 2: "SK S2 S2", 3: "D5"})
    assert not tc.failed


def test_seed003_pair_lead_must_be_followed_by_a_pair_even_from_a_tractor() -> None:
    """首家出对牌时，其余家有对牌必须出对牌（包括拖拉机中的对牌）."""
    ctx = make_ctx("tractor", "10", "H")
    lc = lead(ctx, "S8 S8")
    h = hand("SK SK SQ SQ S3 C4")
    assert plays_text(ctx, legal_follows(ctx, h, lc)) == {"SK SK", "SQ SQ"}
    with pytest.raises(IllegalPlay):
        check_follow(ctx, h, lc, cards("SK S3"), seat=1)


def test_seed003_tractor_lead_must_be_followed_by_tractor_else_pairs() -> None:
    """首家出拖拉机时，其余家有拖拉机必须出拖拉机，若无拖拉机，则必须出对牌，无对牌时才能出其它牌."""
    ctx = make_ctx("tractor", "10", "H")
    lc = lead(ctx, "S8 S8 S7 S7")
    assert plays_text(ctx, legal_follows(ctx, hand("SK SK SQ SQ S5 S5 S3"), lc)) == {"SK SK SQ SQ"}
    assert plays_text(ctx, legal_follows(ctx, hand("SK SK S9 S5 S5 S3"), lc)) == {"SK SK S5 S5"}
    got = plays_text(ctx, legal_follows(ctx, hand("SK SK S9 S5 S3"), lc))
    assert got == {"SK SK S9 S5", "SK SK S9 S3", "SK SK S5 S3"}


def test_seed003_ruff_9988_7_2_beats_AK5544_not_AA5544() -> None:
    """主牌 9988 72 可毙副牌 AK5544, 但不能毙副牌 AA5544."""
    ctx = make_ctx("tractor", "10", "H")
    ruff = cards("H9 H9 H8 H8 H7 H2")
    assert trick_winner(ctx, lead(ctx, "SA SK S5 S5 S4 S4"), [cards("SA SK S5 S5 S4 S4"), ruff]) == 1
    assert trick_winner(ctx, lead(ctx, "SA SA S5 S5 S4 S4"), [cards("SA SA S5 S5 S4 S4"), ruff]) == 0
    assert play_key(ctx, lead(ctx, "SA SA S5 S5 S4 S4"), ruff) is None


def test_seed003_977_ruffs_544_and_884_over_ruffs() -> None:
    """主牌 977 可毙副牌 544, 主牌 884 可盖毙."""
    ctx = make_ctx("tractor", "10", "H")
    lc = lead(ctx, "S5 S4 S4")
    assert trick_winner(ctx, lc, [cards("S5 S4 S4"), cards("H9 H7 H7")]) == 1
    assert trick_winner(ctx, lc, [cards("S5 S4 S4"), cards("H9 H7 H7"), cards("H8 H8 H4")]) == 2


def test_seed003_977_ruffs_567_and_884_does_not_over_ruff() -> None:
    """主牌 977 可毙副牌 567, 主牌 884 不能盖毙 (compared as singles: 9 > 8)."""
    ctx = make_ctx("tractor", "10", "H")
    lc = lead(ctx, "S7 S6 S5")
    assert trick_winner(ctx, lc, [cards("S7 S6 S5"), cards("H9 H7 H7"), cards("H8 H8 H4")]) == 1


def test_seed003_equal_plays_first_played_wins() -> None:
    """出牌时同等大小的牌以先出者为大."""
    ctx = make_ctx("tractor", "10", "S")
    lc = lead(ctx, "D3")
    assert trick_winner(ctx, lc, [cards("D3"), cards("H10"), cards("C10"), cards("D10")]) == 1
    assert trick_winner(ctx, lead(ctx, "SA"), [cards("SA"), cards("SA"), cards("S3"), cards("S4")]) == 0


# ---------------------------------------------------------------- seed 001 (chaodi)


def test_seed001_throw_K_and_JJ_when_AA_and_QQ_are_out() -> None:
    """梅花K一张 + 梅花对J，外面已打出对A和对Q: K is the top single, JJ the top pair → the throw stands."""
    ctx = make_ctx("chaodi", "5", "H")
    tc = throw_check(ctx, lead(ctx, "CK CJ CJ"), {1: hand("CK C10 C10"), 2: hand("C9 C8"), 3: hand("D4")}, 0)
    assert not tc.failed


def test_seed001_throw_of_three_top_singles() -> None:
    """梅花10、J、Q when A A K K and Q J 10 are out: the three singles are the top ones."""
    ctx = make_ctx("chaodi", "5", "H")
    tc = throw_check(ctx, lead(ctx, "CQ CJ C10"), {1: hand("C9 C8"), 2: hand("C7"), 3: hand("D4")}, 0)
    assert not tc.failed
    tc = throw_check(ctx, lead(ctx, "CQ CJ C10"), {1: hand("C9 C8"), 2: hand("CK"), 3: hand("D4")}, 0)
    assert tc.failed and format_cards(tc.forced.codes) == "C10"  # 最小牌型的牌


def test_seed001_trump_throw_judged_with_all_trumps() -> None:
    """主牌甩牌: every trump (jokers, level cards, 2s) counts in the check."""
    ctx = make_ctx("chaodi", "5", "H")
    tc = throw_check(ctx, lead(ctx, "HA HK"), {1: hand("S2"), 2: hand("D4"), 3: hand("C4")}, 0)
    assert tc.failed and format_cards(tc.forced.codes) == "HK" and tc.beaten_by == 1


def test_seed001_pair_lead_two_singles_when_no_pair_and_trump_singles_cannot_kill() -> None:
    """无对子则必须出同花色的两张单张；用两张主牌单张是无法“杀”掉副牌对子的."""
    ctx = make_ctx("chaodi", "5", "H")
    lc = lead(ctx, "S9 S9")
    assert plays_text(ctx, legal_follows(ctx, hand("SK SQ D4"), lc)) == {"SK SQ"}
    assert play_key(ctx, lc, cards("HA HK")) is None
    assert play_key(ctx, lc, cards("H4 H4")) == (1, play_key(ctx, lead(ctx, "H4 H4"), cards("H4 H4"))[1])


def test_seed001_tractor_kill_needs_a_trump_tractor_of_as_many_pairs() -> None:
    """用主牌“杀”连对，必须出一个相同对数的拖拉机."""
    ctx = make_ctx("chaodi", "5", "H")
    lc = lead(ctx, "S9 S9 S8 S8")
    plays = [cards("S9 S9 S8 S8"), cards("HA HA HQ HQ"), cards("H4 H4 H3 H3")]
    assert trick_winner(ctx, lc, plays) == 2


def test_seed001_trump_lead_must_be_followed_with_trumps() -> None:
    """吊主: 首家出主牌时，其他玩家必须跟出主牌."""
    ctx = make_ctx("chaodi", "5", "H")
    lc = lead(ctx, "HA")
    assert plays_text(ctx, legal_follows(ctx, hand("S2 C9 D9"), lc)) == {"S2"}
    assert not is_legal_follow(ctx, hand("S2 C9 D9"), lc, cards("C9"))


# ---------------------------------------------------------------- seed 002 (red-five)


def test_seed002_different_shape_is_small() -> None:
    """如果出的牌和本轮第一个玩家处的牌的牌型不同，则直接算作小."""
    ctx = make_ctx("red-five", trump="S")
    lc = lead(ctx, "C6 C6")
    assert trick_winner(ctx, lc, [cards("C6 C6"), cards("CA CK"), cards("H5 BJ")]) == 0


def test_seed002_red_five_is_the_top_trump() -> None:
    ctx = make_ctx("red-five", trump="C")
    lc = lead(ctx, "BJ")
    assert trick_winner(ctx, lc, [cards("BJ"), cards("H5"), cards("BJ")]) == 1


def test_seed002_must_follow_suit_and_trump() -> None:
    ctx = make_ctx("red-five", trump="S")
    assert plays_text(ctx, legal_follows(ctx, hand("C9 H9 S4"), lead(ctx, "CA"))) == {"C9"}
    # a trump lead: ♥5 and the 参谋 are trumps
    assert plays_text(ctx, legal_follows(ctx, hand("H5 C3 H9"), lead(ctx, "SA"))) == {"H5", "C3"}


# ---------------------------------------------------------------- seed 000 (yongzhou-300)


def test_seed000_side_pair_beats_two_trump_singles() -> None:
    """优先级：牌型大于牌力，即一对副牌大于2张单张主牌."""
    ctx = make_ctx("yongzhou-300", trump="H")
    lc = lead(ctx, "C5 C5")
    assert trick_winner(ctx, lc, [cards("C5 C5"), cards("BJ LJ")]) == 0


def test_seed000_trump_tractor_beats_side_tractor_and_side_tractor_beats_trump_pair_plus_single() -> None:
    """主牌的拖拉机牌型>任何副牌的拖拉机牌型；副牌的拖拉机>主牌的对子+单牌."""
    ctx = make_ctx("yongzhou-300", trump="H")
    lc = lead(ctx, "CA CA CK CK")
    assert trick_winner(ctx, lc, [cards("CA CA CK CK"), cards("H7 H7 H5 H5")]) == 1
    assert trick_winner(ctx, lc, [cards("CA CA CK CK"), cards("BJ BJ LJ H5")]) == 0


def test_seed000_side_suits_do_not_compare_first_played_wins() -> None:
    """副牌梅花5先出大于不是梅花的任何副牌，也大于其他家后出的梅花5，也小于梅花A-7."""
    ctx = make_ctx("yongzhou-300", trump="H")
    lc = lead(ctx, "C5")
    assert trick_winner(ctx, lc, [cards("C5"), cards("SA"), cards("C5"), cards("DA")]) == 0
    assert trick_winner(ctx, lc, [cards("C5"), cards("SA"), cards("C7"), cards("DA")]) == 2


def _yz(players: int = 4):
    return make_ctx("yongzhou-300", trump="H", players=players)


def test_seed000_must_beat_ex1_DK_over_DQ_after_D5() -> None:
    """见分必打 例1: lead ♦5, next ♦Q; holding ♦K (no ♦A) you must play ♦K."""
    ctx = _yz()
    lc = lead(ctx, "D5")
    prior = [cards("D5"), cards("DQ")]
    assert plays_text(ctx, legal_follows(ctx, hand("DK D7 D8 S9"), lc, prior=prior)) == {"DK"}
    with pytest.raises(IllegalPlay) as e:
        check_follow(ctx, hand("DK D7 D8 S9"), lc, cards("D7"), prior=prior, seat=2)
    assert "见分必打" in str(e.value)


def test_seed000_must_beat_ex2_void_must_ruff_SK() -> None:
    """例2: lead ♠K, you have no spades: you must ruff (any trump)."""
    ctx = _yz()
    lc = lead(ctx, "SK")
    got = plays_text(ctx, legal_follows(ctx, hand("H7 H9 C8 D9"), lc, prior=[cards("SK")]))
    assert got == {"H7", "H9"}


def test_seed000_must_beat_ex3_trump_lead_H5_over_trump_2() -> None:
    """例3: trump ♥5 led, next plays 正2 ♥2; holding 副10 or above you must beat (any beating play)."""
    ctx = _yz()
    lc = lead(ctx, "H5")
    got = plays_text(ctx, legal_follows(ctx, hand("S10 LJ H7 C8"), lc, prior=[cards("H5"), cards("H2")]))
    assert got == {"S10", "LJ"}


def test_seed000_must_beat_ex4_over_10_then_at_least_a_joker() -> None:
    """例4: you lead 副10 (points): next must play 正10 or above; then the next at least a joker."""
    ctx = _yz()
    lc = lead(ctx, "S10")
    assert plays_text(ctx, legal_follows(ctx, hand("H10 BJ H7 C8"), lc, prior=[cards("S10")])) == {"H10", "BJ"}
    got = plays_text(ctx, legal_follows(ctx, hand("C10 LJ H7 C8"), lc, prior=[cards("S10"), cards("H10")]))
    assert got == {"LJ"}


def test_seed000_must_beat_ex5_five_led_must_play_the_ace() -> None:
    """例5 逢5必出A: a side 5 led, whoever holds the A must beat with the A (the strongest)."""
    ctx = _yz()
    lc = lead(ctx, "C5")
    assert plays_text(ctx, legal_follows(ctx, hand("CA CK C8 D9"), lc, prior=[cards("C5")])) == {"CA"}
    assert plays_text(ctx, legal_follows(ctx, hand("CA CK C8"), lc, prior=[cards("C5"), cards("C9")])) == {"CA"}
    any_ctx = make_ctx("yongzhou-300", trump="H", options={"must_beat_strength": "any"})
    assert plays_text(any_ctx, legal_follows(any_ctx, hand("CA CK C8"), lead(any_ctx, "C5"),
                                             prior=[cards("C5")])) == {"CA", "CK", "C8"}


def test_seed000_no_gift_ex1_cannot_discard_DK_must_discard_DA() -> None:
    """不许送分 例1: ♦5 led, ♦A on top; holding only ♦A ♦K you must discard the ♦A, not the K."""
    ctx = _yz()
    lc = lead(ctx, "D5")
    assert plays_text(ctx, legal_follows(ctx, hand("DA DK"), lc, prior=[cards("D5"), cards("DA")])) == {"DA"}


def test_seed000_no_gift_ex2_pair_of_9s_discard_8_and_A() -> None:
    """例2: ♣99 led; holding ♣A K 8 5 you must play the non-point 8 and A."""
    ctx = _yz()
    lc = lead(ctx, "C9 C9")
    assert plays_text(ctx, legal_follows(ctx, hand("CA CK C8 C5"), lc, prior=[cards("C9 C9")])) == {"CA C8"}


def test_seed000_no_gift_ex3_must_play_LJ_rather_than_gift_the_5() -> None:
    """例3: a 2 leads trumps; with only LJ and a trump 5 you must play the LJ (it beats), not gift the 5."""
    ctx = _yz()
    lc = lead(ctx, "S2")
    assert plays_text(ctx, legal_follows(ctx, hand("LJ H5 C8"), lc, prior=[cards("S2")])) == {"LJ"}


def test_seed000_no_gift_ex4_break_the_trump_pair_of_5s_rather_than_discard_K() -> None:
    """例4: ♣99 led; hand trump ♦5♦5 (trump ♦), ♠K, one club (the seed's ♣6, here ♣7):
    play the club and a trump 5, not the ♠K (5 before 10)."""
    ctx = make_ctx("yongzhou-300", trump="D")
    lc = lead(ctx, "C9 C9")
    got = plays_text(ctx, legal_follows(ctx, hand("D5 D5 SK C7"), lc, prior=[cards("C9 C9")]))
    assert got == {"D5 C7"}


def test_seed000_follow_rules_1_to_4() -> None:
    """对门原则 ①–④: follow the side suit; follow trumps; pair → pair of the suit; tractor → tractor, else pairs."""
    ctx = _yz()
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C8 H9 BJ"), lead(ctx, "CA"))) == {"C7", "C8"}
    assert plays_text(ctx, legal_follows(ctx, hand("C7 S2 H9 BJ"), lead(ctx, "HA"))) == {"S2", "H9", "BJ"}
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C8 C9"), lead(ctx, "CA CA"))) == {"C7 C7"}
    got = plays_text(ctx, legal_follows(ctx, hand("C7 C7 C9 C9 CQ C5"), lead(ctx, "CA CA CK CK")))
    assert got == {"C9 C9 C7 C7"}
    got = plays_text(ctx, legal_follows(ctx, hand("C7 C7 CJ CJ CQ C5 C8"), lead(ctx, "CA CA CK CK")))
    assert got == {"CJ CJ C7 C7"}  # two pairs (no tractor: 7 and J are not adjacent)


def test_seed000_pairs_same_suit_same_rank_only() -> None:
    """对子：同花色同点数的2张牌（两张不同花色同点数牌不是对子）."""
    ctx = _yz()
    assert lead(ctx, "S10 S10").shape == "pair"
    assert lead(ctx, "S10 C10").shape == "throw"  # two 副10 of one tier: not a pair


def test_seed000_points_and_300_total() -> None:
    from gameplay.cards import deck_codes
    from gameplay.tricks import trick_points

    ctx = _yz()
    assert trick_points(ctx, [deck_codes(2, (3, 4, 6))]) == 300
    assert trick_points(ctx, [cards("C5 S10 HK LJ BJ")]) == 5 + 10 + 10 + 20 + 30


def test_seed001_no_trump_level_cards_equal() -> None:
    """反无主: only jokers, level cards and 2s are trumps; level cards of all suits are equal."""
    ctx = make_ctx("chaodi", "7", None)
    assert ctx.compare("S7", "D7") == 0 and ctx.is_trump("H2") and not ctx.is_trump("HA")
    assert trick_winner(ctx, lead(ctx, "D7"), [cards("D7"), cards("S7")]) == 0
