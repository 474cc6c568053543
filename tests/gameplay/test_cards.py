"""Cards and notation — RULES.md §1."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameplay.cards import (
    BJ,
    LJ,
    Card,
    contains,
    deck_codes,
    format_cards,
    from_counts,
    missing,
    parse_cards,
    shuffle,
    to_counts,
)
from gameplay.errors import GameplayError, InvalidCards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("S10", "S10"), ("st", "S10"), ("♠10", "S10"), ("♥T", "H10"), ("dA", "DA"), ("c2", "C2"),
     ("♦q", "DQ"), ("LJ", "LJ"), ("lj", "LJ"), ("BJ", "BJ"), ("小王", "LJ"), ("大王", "BJ"), ("♣K", "CK")],
)
def test_parse_accepts_letters_symbols_ten_and_chinese_jokers(text: str, canonical: str) -> None:
    """Input accepts letters, suit symbols, 10/T, any case and Chinese joker names; output is canonical."""
    assert str(Card.parse(text)) == canonical


def test_every_card_round_trips() -> None:
    """str(Card.parse(x)) == x for the canonical name of each of the 54 cards."""
    for code in range(54):
        card = Card(code)
        assert Card.parse(str(card)) == card
        assert Card.parse(repr(card)[6:-2]) == card


@pytest.mark.parametrize("bad", ["S1", "X9", "S11", "10", "S", "", "SS9", "JK", "S0"])
def test_bad_notation_is_refused_with_bilingual_message(bad: str) -> None:
    with pytest.raises(InvalidCards) as exc:
        Card.parse(bad)
    assert isinstance(exc.value, GameplayError) and isinstance(exc.value, ValueError)
    assert "not a card" in str(exc.value)
    assert "不是一张牌" in exc.value.message("zh-hans")


def test_card_is_immutable_and_hashable() -> None:
    card = Card.parse("S9")
    with pytest.raises(AttributeError):
        card.code = 3  # type: ignore[misc]
    assert {card, Card.parse("♠9")} == {card}
    assert Card.of("S", 10) == Card.parse("S10") and Card.of("h", "a") == Card.parse("HA")


def test_card_attributes() -> None:
    assert (Card.parse("H10").suit, Card.parse("H10").rank) == ("H", "10")
    assert Card.parse("BJ").suit is None and Card.parse("BJ").rank == "BJ" and Card.parse("BJ").is_joker
    assert Card.parse("LJ").code == LJ and Card.parse("BJ").code == BJ


def test_parse_cards_separators_and_format() -> None:
    assert format_cards(parse_cards("S9, s8，♠8 、S4  S4")) == "S9 S8 S8 S4 S4"
    assert parse_cards(["S9", "大王"]) == [parse_cards("S9")[0], BJ]
    assert parse_cards("") == []


def test_deck_sizes_per_variant() -> None:
    """Two decks 108, three decks 162, yongzhou's 84 cards without 3, 4 and 6."""
    assert len(deck_codes(2)) == 108
    assert len(deck_codes(3)) == 162
    yz = deck_codes(2, (3, 4, 6))
    assert len(yz) == 84
    assert not any(Card(c).rank in ("3", "4", "6") for c in yz)


def test_hands_are_multisets() -> None:
    """Identical cards of different decks are indistinguishable."""
    counts = to_counts(parse_cards("S8 S8 S4"))
    assert counts[Card.parse("S8").code] == 2
    assert from_counts(counts) == sorted(parse_cards("S8 S8 S4"))
    assert contains(counts, parse_cards("S8 S8"))
    assert not contains(counts, parse_cards("S4 S4"))
    assert missing(counts, parse_cards("S4 S4 S9")) == parse_cards("S4 S9")


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=170))
def test_shuffle_is_the_generators_own_shuffle(seed: int, size: int) -> None:
    """The same permutation as ``random.Random.shuffle`` from the same state, and the same state after
    (decks of 2 and 3 decks, and any other length)."""
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


def test_shuffle_of_another_generator_class_is_its_own() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Reversing(1), cards)
    assert cards == [3, 2, 1]
