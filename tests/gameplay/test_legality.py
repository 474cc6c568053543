"""Leading and following — RULES.md §4 (all variants)."""

from __future__ import annotations

import pytest

from gameplay.cards import format_cards
from gameplay.errors import IllegalPlay, InvalidCards
from gameplay.legality import (
    check_follow,
    check_lead,
    count_legal_follows,
    count_legal_leads,
    is_legal_follow,
    legal_follows,
    legal_leads,
    throw_check,
)
from gameplay.record import HandFacts, Play, check_trick

from .helpers import cards, hand, lead, make_ctx, plays_text


def test_leads_allowed_per_variant() -> None:
    """Throws are allowed in tractor and chaodi; [decided] not in red-five and yongzhou-300."""
    for variant in ("tractor", "chaodi"):
        ctx = make_ctx(variant, "5", "H")
        assert check_lead(ctx, hand("SA SK S9"), cards("SA SK")).shape == "throw"
    for variant in ("red-five", "yongzhou-300"):
        ctx = make_ctx(variant, None, "H")
        with pytest.raises(IllegalPlay) as e:
            check_lead(ctx, hand("SA SK S9"), cards("SA SK"), seat=1)
        assert "Seat 2" in str(e.value) and "2号座位" in e.value.message("zh-hans") and "甩牌" in e.value.message("zh-hans")
    ctx = make_ctx("red-five", trump="H", options={"throw_allowed": True})
    assert check_lead(ctx, hand("SA SK S9"), cards("SA SK")).shape == "throw"


def test_lead_of_cards_not_held_is_invalid() -> None:
    ctx = make_ctx()
    with pytest.raises(InvalidCards) as e:
        check_lead(ctx, hand("SA SK"), cards("SA SA"), seat=3)
    assert "Seat 4 does not hold SA" in str(e.value)  # 0-based seat 3, as people count it


def test_legal_leads_without_throws() -> None:
    ctx = make_ctx("yongzhou-300", trump="H")
    h = hand("C7 C7 C5 C5 C8 BJ BJ LJ LJ")
    got = plays_text(ctx, legal_leads(ctx, h))
    assert got == {"C8", "C7", "C5", "BJ", "LJ", "C7 C7", "C5 C5", "BJ BJ", "LJ LJ", "C7 C7 C5 C5",
                   "BJ BJ LJ LJ"}
    assert count_legal_leads(ctx, h) == len(got)


def test_legal_leads_with_throws_count_every_one_suit_subset() -> None:
    ctx = make_ctx("tractor", "2", "H")
    h = hand("S9 S9 S8 C3")
    leads = list(legal_leads(ctx, h))
    assert len(leads) == len(set(leads)) == count_legal_leads(ctx, h) == (3 * 2 - 1) + 1
    assert count_legal_leads(ctx, h, include_throws=False) == 4  # S9, S8, S9S9, C3
    assert plays_text(ctx, legal_leads(ctx, h, include_throws=False)) == {"S9", "S8", "S9 S9", "C3"}


def test_follow_suit_with_enough_cards() -> None:
    """A follower with at least n cards of the led suit must play n of them."""
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA")
    assert plays_text(ctx, legal_follows(ctx, hand("S9 S3 CA"), lc)) == {"S9", "S3"}
    with pytest.raises(IllegalPlay) as e:
        check_follow(ctx, hand("S9 S3 CA"), lc, cards("CA"), seat=2)
    assert "Seat 3" in str(e.value) and "follow suit" in str(e.value)
    assert "黑桃" in e.value.message("zh-hans")


def test_short_of_suit_plays_all_then_any() -> None:
    """With fewer than n cards of the led suit: all of them, then any cards."""
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA SA SK SK")
    h = hand("S9 S3 CA D4 H7")
    got = plays_text(ctx, legal_follows(ctx, h, lc))
    assert got == {"S9 S3 CA D4", "H7 S9 S3 CA", "H7 S9 S3 D4"}
    assert count_legal_follows(ctx, h, lc) == 3
    with pytest.raises(IllegalPlay) as e:
        check_follow(ctx, h, lc, cards("S9 CA D4 H7"))
    assert "all of them" in str(e.value)


def test_void_follower_may_discard_anything_never_forced_to_ruff() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA")
    assert plays_text(ctx, legal_follows(ctx, hand("HA C4 D4"), lc)) == {"HA", "C4", "D4"}


def test_wrong_number_of_cards() -> None:
    ctx = make_ctx()
    with pytest.raises(IllegalPlay) as e:
        check_follow(ctx, hand("S9 S3"), lead(ctx, "SA"), cards("S9 S3"))
    assert "as many cards as the lead" in str(e.value)


def test_tractor_follow_longest_shorter_tractor_then_pairs() -> None:
    """Lead tractor of 3 pairs: the longest shorter tractor held, then further pairs, then singles."""
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA SA SK SK SQ SQ")
    h = hand("S9 S9 S8 S8 S5 S5 S3 S4")
    assert plays_text(ctx, legal_follows(ctx, h, lc)) == {"S9 S9 S8 S8 S5 S5"}
    h2 = hand("S9 S9 S8 S8 S7 S7 S6 S6 S3")
    # a sub-tractor is a contiguous slice: 998877 or 887766, never 9988+66
    assert plays_text(ctx, legal_follows(ctx, h2, lc)) == {"S9 S9 S8 S8 S7 S7", "S8 S8 S7 S7 S6 S6"}
    assert not is_legal_follow(ctx, h2, lc, cards("S9 S9 S8 S8 S6 S6"))


def test_throw_follow_component_by_component_largest_first() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA SA SK SK SQ SJ")  # tractor AAKK + singles
    h = hand("S9 S9 S8 S8 S7 S7 S3")
    got = plays_text(ctx, legal_follows(ctx, h, lc))
    # any six cards that keep a two-pair tractor (9988 or 8877); 99 + 77 is no tractor
    assert got == {"S9 S9 S8 S8 S7 S7", "S9 S9 S8 S8 S7 S3", "S9 S8 S8 S7 S7 S3"}
    lc2 = lead(ctx, "SA SA SK SK S10 S10 S9 S9")  # two tractors of 2
    h2 = hand("S8 S8 S7 S7 S6 S6 S5 S5 S3")
    assert plays_text(ctx, legal_follows(ctx, h2, lc2)) == {"S8 S8 S7 S7 S6 S6 S5 S5"}


def test_chaodi_trump_tractor_follow_only_within_one_group() -> None:
    """Lead 2拖 `H2 H2 S2 S2` (level 5, ♥ trump): LJ LJ + H5 H5 is no tractor, so any two of the three
    pairs follow; 级牌拖 `H5 H5 C5 C5` is a tractor and must be played."""
    ctx = make_ctx("chaodi", "5", "H")
    lc = lead(ctx, "H2 H2 S2 S2")
    assert lc.shape == "tractor"
    got = plays_text(ctx, legal_follows(ctx, hand("LJ LJ H5 H5 HA HA S3"), lc))
    assert got == {"LJ LJ H5 H5", "LJ LJ HA HA", "H5 H5 HA HA"}
    assert plays_text(ctx, legal_follows(ctx, hand("H5 H5 C5 C5 HA HA S3"), lc)) == {"H5 H5 C5 C5"}
    # a three-pair lead across groups is a throw: a 2-pair tractor and a pair
    lt = lead(ctx, "BJ BJ LJ LJ H5 H5")
    assert lt.shape == "throw" and lt.requirements() == ((2, 2), (2, 1))


def test_three_decks_triple_lead_triple_else_pair() -> None:
    """3 decks: a triple lead → a triple if held, else a pair if held."""
    ctx = make_ctx("red-five", trump="S", decks=3)
    lc = lead(ctx, "C9 C9 C9")
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C7 C8 C8 CK"), lc)) == {"C7 C7 C7"}
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C8 C8 CK"), lc)) == {"CK C8 C8", "C8 C8 C7",
                                                                                "CK C7 C7", "C8 C7 C7"}
    # a triple-tractor lead: a triple tractor if held, else triples then pairs
    lt = lead(ctx, "CA CA CA CK CK CK")
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C7 C8 C8 C8 C9"), lt)) == {"C8 C8 C8 C7 C7 C7"}
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C7 C9 C9 C5 C4"), lt)) == {"C9 C9 C7 C7 C7 C5",
                                                                                      "C9 C9 C7 C7 C7 C4"}


def test_pair_lead_three_decks_pair_from_a_triple() -> None:
    ctx = make_ctx("red-five", trump="S", decks=3)
    lc = lead(ctx, "C9 C9")
    assert plays_text(ctx, legal_follows(ctx, hand("C7 C7 C7 C8"), lc)) == {"C7 C7"}


def test_throw_check_only_against_led_suit_partners_included() -> None:
    """Throw failure is judged only against cards of the led suit in the other hands, partners included."""
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SK SQ")
    # seat 2 (the partner) holds SA: the throw fails; trumps elsewhere do not matter
    tc = throw_check(ctx, lc, {1: hand("BJ BJ"), 2: hand("SA"), 3: hand("H3")}, leader=0)
    assert tc.failed and tc.beaten_by == 2
    tc = throw_check(ctx, lc, {1: hand("BJ BJ"), 2: hand("S3"), 3: hand("HA")}, leader=0)
    assert not tc.failed


def test_throw_check_tractor_component_needs_a_longer_or_equal_higher_tractor() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SJ SJ S10 S10 SA")
    assert not throw_check(ctx, lc, {1: hand("SK SK S3"), 2: hand("S4"), 3: hand("C4")}, 0).failed
    tc = throw_check(ctx, lc, {1: hand("SK SK SQ SQ"), 2: hand("S4"), 3: hand("C4")}, 0)
    assert tc.failed and str(tc.failing[0]) == "SJ SJ S10 S10"


def test_throw_penalty_per_returned_card() -> None:
    ctx = make_ctx("tractor", "2", "H", options={"throw_penalty": 10})
    tc = throw_check(ctx, lead(ctx, "SK SQ SQ"), {1: hand("SA"), 2: hand("S4"), 3: hand("C4")}, 0)
    assert tc.failed and tc.returned == 2 and tc.penalty == 20


def test_beaten_by_is_first_seat_in_play_order_after_the_leader() -> None:
    ctx = make_ctx("tractor", "2", "H")
    tc = throw_check(ctx, lead(ctx, "SK SQ"), {0: hand("SA"), 1: hand("S4"), 3: hand("SA")}, leader=2)
    assert tc.beaten_by == 3


def test_thrown_single_fails_against_a_higher_card_held_in_a_pair() -> None:
    """RULES §4: a higher single is any higher card, also one its holder has as part of a pair."""
    ctx = make_ctx("tractor", "2", "H")
    tc = throw_check(ctx, lead(ctx, "SK SQ"), {1: hand("SA SA"), 2: hand("S4"), 3: hand("C4")}, 0)
    assert tc.failed and format_cards(tc.forced.codes) == "SQ" and tc.beaten_by == 1
    assert sorted(str(c) for c in tc.failing) == ["SK", "SQ"]


def test_thrown_single_fails_against_a_higher_card_held_in_a_tractor() -> None:
    ctx = make_ctx("tractor", "2", "H")
    tc = throw_check(ctx, lead(ctx, "SA SA S9"), {1: hand("S4"), 2: hand("SJ SJ S10 S10"), 3: hand("C4")}, 0)
    assert tc.failed and format_cards(tc.forced.codes) == "S9" and tc.beaten_by == 2


def test_KK9_against_JJ_fails_forces_the_9_and_the_trick_counts_only_the_9() -> None:
    """`SK SK S9` with `SJ SJ` out used to stand and score the two Ks; the 9 fails and is played alone."""
    ctx = make_ctx("tractor", "2", "H", options={"throw_penalty": 10})
    hands = {0: hand("SK SK S9"), 1: hand("SJ SJ S3"), 2: hand("H3 H4 H5"), 3: hand("S5 S6 S7")}
    tc = throw_check(ctx, lead(ctx, "SK SK S9"), {s: h for s, h in hands.items() if s}, 0)
    assert tc.failed and [str(c) for c in tc.failing] == ["S9"] and tc.beaten_by == 1
    assert tc.returned == 2 and tc.penalty == 20
    # the trick as the table plays it, judged by the recording judge: the 9 alone is on the table
    facts = HandFacts("tractor", dealer=0, trump="H", level="2", options={"throw_penalty": 10})
    thrown = Play(0, tuple(cards("SK SK S9")), tuple(cards("S9")))
    wrong = check_trick(facts, [], [thrown, Play(1, tuple(cards("SJ SJ S3")))])
    assert [e.code for e in wrong.errors] == ["wrong_count"]  # followers answer the single 9
    j = check_trick(facts, [], [thrown, *(Play(s, tuple(cards(c))) for s, c in ((1, "SJ"), (2, "H3"), (3, "S5")))])
    assert j.shape == "single" and j.penalty == 20 and j.winner == 2 and j.points == 5


def test_failed_throw_forces_the_lowest_component_not_the_fewest_cards() -> None:
    """Default: the failing component whose highest card is lowest (44 below the K)."""
    ctx = make_ctx("tractor", "2", "H")
    others = {1: hand("SA C3"), 2: hand("S5 S5"), 3: hand("C4")}
    tc = throw_check(ctx, lead(ctx, "SK S4 S4"), others, 0)
    assert format_cards(tc.forced.codes) == "S4 S4" and tc.beaten_by == 2 and tc.returned == 1
    few = make_ctx("tractor", "2", "H", options={"throw_forced": "fewest_cards"})
    tc = throw_check(few, lead(few, "SK S4 S4"), others, 0)
    assert format_cards(tc.forced.codes) == "SK" and tc.beaten_by == 1 and tc.returned == 2


def test_failed_throw_ties_fewer_cards_then_suit_order() -> None:
    """Equal highest cards (副级 10s at level 10): fewer cards first, then ♦ ♣ ♥ ♠."""
    ctx = make_ctx("tractor", "10", "H")
    tc = throw_check(ctx, lead(ctx, "S10 S10 C10"), {1: hand("H10 H10"), 2: hand("S4"), 3: hand("C4")}, 0)
    assert sorted(str(c) for c in tc.failing) == ["C10", "S10 S10"] and format_cards(tc.forced.codes) == "C10"
    tc = throw_check(ctx, lead(ctx, "S10 C10 D10"), {1: hand("H10"), 2: hand("S4"), 3: hand("C4")}, 0)
    assert len(tc.failing) == 3 and format_cards(tc.forced.codes) == "D10"


def test_must_beat_and_no_gifting_are_off_outside_yongzhou() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "D5")
    assert plays_text(ctx, legal_follows(ctx, hand("DK DA"), lc, prior=[cards("D5")])) == {"DK", "DA"}


def test_yongzhou_no_points_showing_no_must_beat_but_no_gifting() -> None:
    """No point in the trick: beating is optional, but a player who can beat may not discard points."""
    ctx = make_ctx("yongzhou-300", trump="H")
    lc = lead(ctx, "D9")
    assert plays_text(ctx, legal_follows(ctx, hand("DA D7 DK"), lc, prior=[cards("D9")])) == {"DA", "D7", "DK"}
    assert plays_text(ctx, legal_follows(ctx, hand("DA D7 D5"), lc, prior=[cards("D9")])) == {"DA", "D7"}


def test_yongzhou_discard_lowest_points_first() -> None:
    ctx = make_ctx("yongzhou-300", trump="H")
    lc = lead(ctx, "SA")
    # void in spades, no trump: discards only; 5 before 10/K
    got = plays_text(ctx, legal_follows(ctx, hand("C5 DK CK"), lc, prior=[cards("SA")]))
    assert got == {"C5"}
    with pytest.raises(IllegalPlay) as e:
        check_follow(ctx, hand("C5 DK CK"), lc, cards("DK"), prior=[cards("SA")], seat=1)
    # a 10 is a permanent trump: it beats, so no point card may be discarded at all
    assert plays_text(ctx, legal_follows(ctx, hand("C5 DK D10"), lc, prior=[cards("SA")])) == {"D10"}
    assert "不许送分" in str(e.value)
