"""Perft-style counts of legal plays for fixed positions (python-chess ``perft`` in spirit):
pinned numbers, each cross-checked by brute force over every sub-multiset of the hand."""

from __future__ import annotations

import pytest

from gameplay.legality import (
    count_legal_follows,
    count_legal_leads,
    is_legal_follow,
    legal_follows,
)
from gameplay.multisets import submultisets

from .helpers import cards, hand, lead, make_ctx

POSITIONS = [
    # (name, variant, level, trump, options, lead, follower's hand, prior after the lead, count)
    ("void_follower_25_cards", "tractor", "2", "H", {}, "SA SA SK SK",
     "HA HK HQ H3 H3 C4 C5 C6 C7 C8 C9 D4 D5 D6 D7 D8 D9 DJ DQ DK BJ LJ H2 S2 C2", None, 10879),
    ("single_lead_level_card_is_trump", "tractor", "10", "S", {}, "D9",
     "DA DK DQ DJ D10 D8 D7 D6 D5 D4 D3 D2 CA CK", None, 11),
    ("throw_tractor_plus_single", "tractor", "2", "H", {}, "SQ SQ SJ SJ S9",
     "SA SK SK S8 S8 S7 S7 S5 S4 S3 C3 D3", None, 5),
    ("chaodi_wrap_tractor_lead", "chaodi", "A", "S", {}, "HK HK H3 H3",
     "HQ HQ H4 H4 H5 H5 H6 H9 HJ C3", None, 1),
    ("red_five_three_decks_triple", "red-five", None, "H", {"decks": 3}, "C9 C9 C9",
     "C7 C7 C7 C8 C8 C8 C5 C5 CJ CQ", None, 2),
    ("pair_lead_no_pair", "tractor", "5", "H", {}, "S9 S9", "SA SK SQ SJ C2 C3", None, 6),
    ("yongzhou_points_showing_void_must_ruff", "yongzhou-300", None, "H", {}, "SK",
     "H5 H7 H9 LJ C5 C7 D8", [], 4),
    ("yongzhou_no_points_discard", "yongzhou-300", None, "H", {}, "S9",
     "C5 CK D8 D9 DA", [], 3),
    ("yongzhou_pair_lead_must_beat_strongest_pair", "yongzhou-300", None, "H", {}, "C5 C5",
     "CA CA CQ CQ C7 C7 C8", ["C7 C7"], 1),
]


@pytest.mark.parametrize("pos", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft_follow_counts(pos) -> None:
    _name, variant, level, trump, options, lead_text, hand_text, prior_extra, expected = pos
    options = dict(options)
    kw = {"decks": options.pop("decks")} if "decks" in options else {}
    ctx = make_ctx(variant, level, trump, options=options or None, **kw)
    lc = lead(ctx, lead_text)
    counts = hand(hand_text)
    prior = None if prior_extra is None else [cards(lead_text)] + [cards(p) for p in prior_extra]
    kwargs = {"prior": prior} if prior else {}
    assert count_legal_follows(ctx, counts, lc, **kwargs) == expected
    generated = list(legal_follows(ctx, counts, lc, **kwargs))
    assert len(generated) == len(set(generated)) == expected
    items = [(c, counts[c]) for c in range(54) if counts[c]]
    brute = sum(1 for sub in submultisets(items, lc.n) if is_legal_follow(ctx, counts, lc, sub, **kwargs))
    assert brute == expected


def test_perft_lead_counts() -> None:
    ctx = make_ctx("tractor", "2", "H")
    h = hand("SA SA SK SK HQ H3 H3 C4 C5 BJ")
    assert count_legal_leads(ctx, h) == 22  # every non-empty one-suit subset (throws allowed)
    assert count_legal_leads(ctx, h, include_throws=False) == 11
    y = make_ctx("yongzhou-300", trump="H")
    # singles HA S2 H2 LJ C5, pairs HA S2 H2, tractors HA-S2, S2-H2, HA-S2-H2 (the yongzhou trump chain)
    assert count_legal_leads(y, hand("HA HA S2 S2 H2 H2 LJ C5")) == 5 + 3 + 3
