"""Seats as people read them (variants.seats): the engine's and the calculator's sentences count from 1.

Seats are 0-based in code, records and the API; every sentence a person reads names them 1–4, so an
engine refusal and a tournament page name the same player by the same number.
"""

from __future__ import annotations

import doctest

import pytest

import variants.seats
from gameplay.config import HandConfig
from gameplay.errors import OutOfTurn
from gameplay.hand import Hand
from variants.seats import en_seat, en_seats, seat_number, seat_numbers, side_number, zh_seat, zh_seats


def test_doctests() -> None:
    result = doctest.testmod(variants.seats)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(("seat", "en", "zh"), [(0, "Seat 1", "1号座位"), (1, "Seat 2", "2号座位"),
                                                (2, "Seat 3", "3号座位"), (3, "Seat 4", "4号座位")])
def test_one_seat(seat: int, en: str, zh: str) -> None:
    assert seat_number(seat) == seat + 1
    assert en_seat(seat) == en and en_seat(seat, capital=False) == en.lower() and zh_seat(seat) == zh


def test_several_seats_and_sides() -> None:
    assert en_seats([1]) == "seat 2" and en_seats([0, 2]) == "seats 1 and 3"
    assert en_seats([0, 1, 3]) == "seats 1, 2 and 4" and zh_seats([1, 3]) == "2、4号座位"
    assert seat_numbers([0, 3]) == "1, 4" and seat_numbers([0, 3], "、") == "1、4"
    assert (side_number(0), side_number(1)) == (1, 2)


def test_an_engine_refusal_names_index_1_as_seat_2() -> None:
    """The refusal a scorer sees names the player the pages call seat 2 (index 1) "Seat 2" / "2号座位"."""
    h = Hand(HandConfig("tractor"), seed=3)
    h.deal_all()
    kind, seat = h.to_act()
    assert kind == "declare"
    wrong = 1 if seat != 1 else 2
    with pytest.raises(OutOfTurn) as e:
        h.pass_(wrong)
    assert str(e.value).startswith(f"Seat {wrong + 1} ") and f"seat {seat + 1}'s turn" in str(e.value)
    assert e.value.message("zh-hans").startswith(f"{wrong + 1}号座位")
    assert "Seat 0" not in str(e.value) and "0号座位" not in e.value.message("zh-hans")


def test_a_seat_number_out_of_range_is_named_as_the_api_gives_it() -> None:
    h = Hand(HandConfig("tractor"), seed=3)
    h.deal_all()
    with pytest.raises(OutOfTurn) as e:
        h.verify_insure(7)
    assert "numbered 7" in str(e.value) and "from 0" in str(e.value) and "编号为 7" in e.value.message("zh-hans")
