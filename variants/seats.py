"""Seats as people read them, for the pure cores' own bilingual messages (engine and scoring).

Seats are numbered from 0 in code, in records and in the API (seat 0 is first in play order). A
person reads them from 1: every sentence the engine, the scoring rules or the calculator says about
a seat goes through these helpers, so the 0-based seat 1 is "Seat 2" / "2号座位" here exactly as it
is "seat 2" / "2号座位" on the tournament pages (``tournaments/labels.py``, which also knows the winds
a tournament may name its seats by). Fields of the API answers keep their 0-based numbers.

>>> seat_number(0), en_seat(1), en_seat(1, capital=False), zh_seat(1)
(1, 'Seat 2', 'seat 2', '2号座位')
>>> en_seats([0, 2]), zh_seats([0, 2]), seat_numbers([1, 3])
('seats 1 and 3', '1、3号座位', '2, 4')
>>> en_seats([0, 1, 3]), zh_seats([3])
('seats 1, 2 and 4', '4号座位')
"""

from __future__ import annotations

from collections.abc import Iterable


def seat_number(seat: int) -> int:
    """The number a person reads for the 0-based ``seat``: 1 … 4."""
    return int(seat) + 1


def side_number(side: int) -> int:
    """The number a person reads for the 0-based ``side`` (where no team name stands for it): 1 or 2."""
    return int(side) + 1


def seat_numbers(seats: Iterable[int], sep: str = ", ") -> str:
    """The 0-based ``seats`` as people count them, joined: ``[1, 3]`` → ``"2, 4"``."""
    return sep.join(str(seat_number(s)) for s in seats)


def _mark(seat: int | None) -> str:
    return "—" if seat is None else str(seat_number(seat))


def en_seat(seat: int | None, *, capital: bool = True) -> str:
    """``Seat 2`` (or ``seat 2`` in the middle of a sentence) for the 0-based seat 1; ``Seat —`` for
    a seat not known yet (``None``)."""
    return f"{'Seat' if capital else 'seat'} {_mark(seat)}"


def zh_seat(seat: int | None) -> str:
    """``2号座位`` for the 0-based seat 1 (``—号座位`` for ``None``)."""
    return f"{_mark(seat)}号座位"


def en_seats(seats: Iterable[int]) -> str:
    """``seats 1 and 3`` for the 0-based seats 0 and 2 (``seat 2`` for one)."""
    numbers = [str(seat_number(s)) for s in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def zh_seats(seats: Iterable[int]) -> str:
    """``1、3号座位`` for the 0-based seats 0 and 2."""
    return f"{seat_numbers(seats, '、')}号座位"
