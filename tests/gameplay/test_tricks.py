"""Winning a trick — RULES.md §4 ruffs, over-ruffs, throws, ties; §1 points."""

from __future__ import annotations

from gameplay.tricks import decide_trick, play_key, trick_points, trick_winner

from .helpers import cards, lead, make_ctx


def test_single_follow_suit_higher_wins_discard_never_wins() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "S9")
    assert trick_winner(ctx, lc, [cards("S9"), cards("SK"), cards("CA"), cards("S10")]) == 1
    assert play_key(ctx, lc, cards("CA")) is None


def test_ruff_beats_side_lead_and_higher_trump_over_ruffs() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA")
    assert trick_winner(ctx, lc, [cards("SA"), cards("H3"), cards("H4"), cards("SK")]) == 2


def test_trump_lead_only_trumps_compete() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "H3")
    assert trick_winner(ctx, lc, [cards("H3"), cards("SA"), cards("H2"), cards("BJ")]) == 3


def test_ruff_must_be_entirely_trump() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "S9 S9")
    assert play_key(ctx, lc, cards("HA C3")) is None
    assert play_key(ctx, lc, cards("HA HA"))[0] == 1


def test_pair_must_be_covered_by_a_pair() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "S9 S9")
    assert trick_winner(ctx, lc, [cards("S9 S9"), cards("SA SK"), cards("S10 S10")]) == 2


def test_tractor_must_be_covered_by_tractor_of_same_length() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "S5 S5 S4 S4")
    plays = [cards("S5 S5 S4 S4"), cards("SA SA SK SQ"), cards("SA SA SQ SQ"), cards("S7 S7 S6 S6")]
    assert trick_winner(ctx, lc, plays) == 3


def test_throw_compared_by_highest_priority_component() -> None:
    """A ruffed throw with a tractor compares by the highest tractor of that length; a higher pair
    does not beat a tractor component (RULES §5.4)."""
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA S5 S5 S4 S4")
    plays = [cards("SA S5 S5 S4 S4"), cards("H7 H7 H6 H6 H3"), cards("BJ BJ HA HQ HQ"), cards("H9 H9 H8 H8 H4")]
    assert trick_winner(ctx, lc, plays) == 3


def test_ruff_covers_pairs_inside_a_longer_tractor_and_pair_may_stand_for_singles() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SA SA S9 S9 S3")  # two separate pairs and a single
    assert play_key(ctx, lc, cards("H7 H7 H6 H6 H4")) is not None
    assert play_key(ctx, lc, cards("H7 H7 H6 H6 H6")) is not None  # pair in place of a single
    assert play_key(ctx, lc, cards("H7 H7 H6 H5 H4")) is None


def test_first_played_wins_ties_among_ruffs() -> None:
    ctx = make_ctx("tractor", "10", "S")
    lc = lead(ctx, "DA")
    assert trick_winner(ctx, lc, [cards("DA"), cards("H10"), cards("C10")]) == 1


def test_trick_points_equal_sum_of_point_cards() -> None:
    ctx = make_ctx("tractor", "2", "H")
    plays = [cards("S5 SK"), cards("S10 S10"), cards("C3 D4"), cards("H5 BJ")]
    assert trick_points(ctx, plays) == 5 + 10 + 20 + 5
    y = make_ctx("yongzhou-300", trump="H")
    assert trick_points(y, [cards("BJ"), cards("LJ"), cards("S10"), cards("S5")]) == 65


def test_decide_trick_returns_seat_and_points() -> None:
    ctx = make_ctx("tractor", "2", "H")
    lc = lead(ctx, "SK")
    res = decide_trick(ctx, lc, [cards("SK"), cards("SA"), cards("S5"), cards("S3")], leader=3)
    assert (res.winner_index, res.winner_seat, res.points) == (1, 0, 15)


def test_three_player_yongzhou_trick() -> None:
    ctx = make_ctx("yongzhou-300", trump="H", players=3)
    res = decide_trick(ctx, lead(ctx, "SK"), [cards("SK"), cards("SA"), cards("H5")], leader=2)
    assert (res.winner_seat, res.points) == (1, 15)


def test_three_decks_triple_covered_by_triple() -> None:
    ctx = make_ctx("red-five", trump="S", decks=3)
    lc = lead(ctx, "C9 C9 C9")
    plays = [cards("C9 C9 C9"), cards("SA SA SK"), cards("S4 S4 S4"), cards("CA CA CA")]
    assert trick_winner(ctx, lc, plays) == 2


def test_chaodi_ruff_needs_a_tractor_within_one_trump_group() -> None:
    """Seed 001: a side tractor is killed only by a trump tractor of as many pairs; `LJ LJ H5 H5`
    (joker + level) is two pairs, `H5 H5 C5 C5` (级牌拖) and `H2 H2 D2 D2` (2拖) are tractors."""
    ctx = make_ctx("chaodi", "5", "H")
    lc = lead(ctx, "SQ SQ SJ SJ")
    assert play_key(ctx, lc, cards("LJ LJ H5 H5")) is None
    assert trick_winner(ctx, lc, [cards("SQ SQ SJ SJ"), cards("LJ LJ H5 H5"), cards("H2 H2 D2 D2")]) == 2
    assert trick_winner(ctx, lc, [cards("SQ SQ SJ SJ"), cards("H2 H2 D2 D2"), cards("H5 H5 C5 C5")]) == 2
    assert trick_winner(ctx, lc, [cards("SQ SQ SJ SJ"), cards("C2 C2 HA HA")]) == 0
    big = lead(ctx, "SQ SQ SJ SJ S10 S10")
    assert play_key(ctx, big, cards("BJ BJ LJ LJ H5 H5")) is None  # 三连对 cannot be killed this way
