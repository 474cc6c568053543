"""Individual table draws for red-five and yongzhou-300 (tournaments.formats.tables): pure Python, no database."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import tables
from tournaments.formats.tables import (
    DrawError,
    Table,
    TablePlan,
    TableRound,
    draw_round,
    draw_rounds,
    repeated_pairs,
    table_mates,
    table_plan,
)

H = TypeVar("H", bound=Hashable)


def test_module_doctests() -> None:
    result = doctest.testmod(tables)
    assert result.attempted > 0 and result.failed == 0


def check_round(players: Sequence[H], variant: str, r: TableRound[H]) -> None:
    """Everybody seated once or sitting out; the tables are those of the plan; seats are sane."""
    plan = table_plan(len(players), variant)
    assert Counter([*r.seated, *r.sit_outs]) == Counter(players)
    assert len(r.sit_outs) == plan.sit_outs
    assert tuple(len(t.seats) for t in r.tables) == plan.sizes
    assert [t.number for t in r.tables] == list(range(1, len(r.tables) + 1))
    for t in r.tables:
        assert 0 <= t.first < len(t.seats)
        assert t.first_player == t.seats[t.first]
        assert len(t.seats) in ((4,) if variant == "red-five" else (3, 4))


# -------------------------------------------------------------------------------------- table plans


@pytest.mark.parametrize(
    ("n", "sizes", "sit_outs"),
    [(4, (4,), 0), (5, (4,), 1), (7, (4,), 3), (8, (4, 4), 0), (10, (4, 4), 2), (15, (4, 4, 4), 3)],
)
def test_red_five_plan_tables_of_four_and_sit_outs(n: int, sizes: tuple[int, ...], sit_outs: int) -> None:
    assert table_plan(n, "red-five") == TablePlan(sizes, sit_outs)


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (13, (4, 3, 3, 3)),
        (17, (4, 4, 3, 3, 3)),
    ],
)
def test_yongzhou_plan_seats_everybody_with_tables_of_three(n: int, sizes: tuple[int, ...]) -> None:
    assert table_plan(n, "yongzhou-300") == TablePlan(sizes, 0)


def test_yongzhou_five_players_one_table_and_one_sit_out() -> None:
    assert table_plan(5, "yongzhou-300") == TablePlan((4,), 1)
    assert table_plan(5, "yongzhou-300", prefer=3) == TablePlan((4,), 1)


@pytest.mark.parametrize("n", range(3, 201))
def test_yongzhou_plan_covers_every_count_but_five(n: int) -> None:
    for prefer in (3, 4):
        plan = table_plan(n, "yongzhou-300", prefer=prefer)
        assert set(plan.sizes) <= {3, 4}
        assert sum(plan.sizes) + plan.sit_outs == n
        assert plan.sit_outs == (1 if n == 5 else 0)
        other = 7 - prefer
        assert plan.sizes.count(other) <= prefer - 1 or n == 5  # as many preferred tables as possible


@pytest.mark.parametrize(
    ("n", "variant", "prefer"),
    [
        (3, "red-five", None),
        (2, "yongzhou-300", None),
        (1, "yongzhou-300", None),
        (8, "tractor", None),
        (8, "yongzhou-300", 5),
        (8, "red-five", 3),
    ],
)
def test_plan_errors(n: int, variant: str, prefer: int | None) -> None:
    with pytest.raises(DrawError):
        table_plan(n, variant, prefer=prefer)


def test_draw_errors() -> None:
    with pytest.raises(DrawError):
        draw_round([1, 2, 3, 1], "yongzhou-300", rng=random.Random(1))


# ------------------------------------------------------------------------------------------- draws


@settings(deadline=None, max_examples=30)
@given(st.integers(5, 200), st.sampled_from(["red-five", "yongzhou-300"]), st.integers(0, 10**6))
def test_every_player_seated_once_or_sitting_out(n: int, variant: str, seed: int) -> None:
    players = list(range(100, 100 + n))
    rounds = draw_rounds(players, variant, 2, rng=random.Random(seed))
    for r in rounds:
        check_round(players, variant, r)


@pytest.mark.parametrize("variant", ["red-five", "yongzhou-300"])
@pytest.mark.parametrize("n", [5, 6, 7, 9, 10, 11, 13, 19, 22, 33, 50, 101, 200])
def test_draws_for_five_to_two_hundred(n: int, variant: str) -> None:
    players = [f"p{i}" for i in range(n)]
    for r in draw_rounds(players, variant, 3, rng=random.Random(n)):
        check_round(players, variant, r)


def test_same_seed_same_draw() -> None:
    a = draw_rounds(list(range(30)), "yongzhou-300", 3, rng=random.Random(5))
    b = draw_rounds(list(range(30)), "yongzhou-300", 3, rng=random.Random(5))
    assert a == b


def test_sixteen_red_five_players_never_meet_twice_in_five_rounds() -> None:
    """16 players at 4 tables can play 5 rounds without a repeated table-mate (the affine plane of
    order 4); the draw looks one round ahead to find such rounds."""
    for seed in range(3):
        rounds = draw_rounds(list(range(16)), "red-five", 5, rng=random.Random(seed))
        assert repeated_pairs(rounds) == 0, seed
        assert len(table_mates(rounds)) == 120  # everybody met everybody


@pytest.mark.parametrize(
    ("n", "variant", "rounds"), [(40, "red-five", 6), (60, "yongzhou-300", 8), (200, "red-five", 10)]
)
def test_no_repeat_while_the_field_is_large(n: int, variant: str, rounds: int) -> None:
    assert repeated_pairs(draw_rounds(list(range(n)), variant, rounds, rng=random.Random(n))) == 0


@pytest.mark.parametrize(
    ("n", "variant", "rounds", "bound"),
    [
        (12, "red-five", 3, 9),  # pigeonhole: from round 2 each table has 2 of one earlier table
        (9, "yongzhou-300", 4, 0),  # 9 players at 3-tables: the affine plane of order 3
        (13, "yongzhou-300", 4, 2),
        (20, "red-five", 5, 16),
        (24, "yongzhou-300", 6, 12),
    ],
)
def test_repeats_stay_within_a_sensible_bound(n: int, variant: str, rounds: int, bound: int) -> None:
    drawn = draw_rounds(list(range(n)), variant, rounds, rng=random.Random(1))
    assert repeated_pairs(drawn) <= bound
    assert max(table_mates(drawn).values()) <= 2


def pair_cost(
    groups: Iterator[tuple[int, ...]] | list[tuple[int, ...]], mates: Counter[frozenset[int]]
) -> int:
    return sum(mates[frozenset(p)] ** 2 for g in groups for p in itertools.combinations(g, 2))


def partitions(players: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of 8 players into two tables of 4."""
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, 3):
        table = (first, *others)
        yield [table, tuple(p for p in players if p not in table)]


@settings(deadline=None, max_examples=40)
@given(st.sampled_from(["red-five", "yongzhou-300"]), st.integers(1, 4), st.integers(0, 10**6))
def test_draw_minimises_repeats_against_brute_force(variant: str, history: int, seed: int) -> None:
    """Eight players after random earlier rounds: the draw's repeated-pair cost (Σ c² over
    table-mates who met c times) is the least over all 35 splits."""
    rng = random.Random(seed)
    players = list(range(8))
    previous = []
    for _ in range(history):
        order = players[:]
        rng.shuffle(order)
        previous.append(TableRound((Table(1, tuple(order[:4])), Table(2, tuple(order[4:])))))
    mates = Counter(table_mates(previous))
    r = draw_round(players, variant, rng=rng, previous=previous)
    best = min(pair_cost(p, mates) for p in partitions(players))
    assert pair_cost([t.seats for t in r.tables], mates) == best


def test_withdrawn_players_in_the_history_are_ignored() -> None:
    rounds = draw_rounds(list(range(12)), "red-five", 2, rng=random.Random(3))
    r = draw_round(list(range(2, 14)), "red-five", rng=random.Random(4), previous=rounds)
    check_round(list(range(2, 14)), "red-five", r)


@pytest.mark.parametrize("n", [200, 199])
def test_a_draw_of_two_hundred_is_complete(n: int) -> None:
    """Two hundred players after six rounds still get a valid draw (its time is a benchmark, not a test)."""
    rounds = draw_rounds(list(range(n)), "yongzhou-300", 6, rng=random.Random(2))
    r = draw_round(list(range(n)), "yongzhou-300", rng=random.Random(9), previous=rounds)
    check_round(list(range(n)), "yongzhou-300", r)


# ---------------------------------------------------------------------------------------- sit-outs


@pytest.mark.parametrize(
    ("n", "variant"),
    [
        (5, "red-five"),
        (6, "red-five"),
        (7, "red-five"),
        (11, "red-five"),
        (23, "red-five"),
        (5, "yongzhou-300"),
    ],
)
def test_sit_outs_rotate(n: int, variant: str) -> None:
    """Nobody sits out a second time before everyone present sat out once."""
    counts = Counter[int]()
    previous: list[TableRound[int]] = []
    rng = random.Random(n)
    for _ in range(min(2 * n, 16)):
        r = draw_round(list(range(n)), variant, rng=rng, previous=previous)
        playing = [p for p in range(n) if p not in r.sit_outs]
        assert max(counts[p] for p in r.sit_outs) <= min(counts[p] for p in playing), "sat out too early"
        counts.update(r.sit_outs)
        previous.append(r)
        assert max(counts[q] for q in range(n)) - min(counts[q] for q in range(n)) <= 1


def test_sit_outs_prefer_who_sat_out_longest_ago() -> None:
    previous = [TableRound((Table(1, (1, 2, 3, 4)),), (5,)), TableRound((Table(1, (5, 2, 3, 4)),), (1,))]
    r = draw_round([1, 2, 3, 4, 5], "red-five", rng=random.Random(0), previous=previous)
    assert r.sit_outs in ((2,), (3,), (4,))
    previous += [r]
    for _ in range(2):
        previous.append(draw_round([1, 2, 3, 4, 5], "red-five", rng=random.Random(0), previous=previous))
    assert Counter(p for x in previous for p in x.sit_outs) == Counter({1: 1, 2: 1, 3: 1, 4: 1, 5: 1})


# ------------------------------------------------------------------------------ seats and first bidder


@pytest.mark.parametrize("n", [24, 40])
def test_first_bidder_rotates(n: int) -> None:
    """Tables of 4 for 4 rounds: everybody bids first exactly once (with 16 players the rounds without
    repeats are so few that this can give way)."""
    rounds = draw_rounds(list(range(n)), "red-five", 4, rng=random.Random(1))
    firsts = Counter(t.first_player for r in rounds for t in r.tables)
    assert sorted(firsts.values()) == [1] * n


@pytest.mark.parametrize(("n", "variant"), [(16, "red-five"), (13, "yongzhou-300"), (40, "red-five")])
def test_first_bidder_and_seats_spread_over_rounds(n: int, variant: str) -> None:
    rounds = draw_rounds(list(range(n)), variant, 8, rng=random.Random(2))
    firsts = Counter(t.first_player for r in rounds for t in r.tables)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(n)) <= 2
    seats: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
    for r in rounds:
        for t in r.tables:
            for s, p in enumerate(t.seats):
                seats[p][s] += 1
    assert max(max(c.values()) for c in seats.values()) <= 3  # 8 rounds over 3 or 4 seats


def test_yongzhou_three_tables_rotate() -> None:
    """14 players (tables 4, 4, 3, 3): six sit at a 3-table each round; over 7 rounds (42 seats at
    3-tables, 3 each) nobody sits at one far more often than the others."""
    rounds = draw_rounds(list(range(14)), "yongzhou-300", 7, rng=random.Random(1))
    small = Counter(p for r in rounds for t in r.tables if len(t.seats) == 3 for p in t.seats)
    assert max(small.values()) - min(small.get(p, 0) for p in range(14)) <= 2


def test_repeated_pairs_and_table_mates() -> None:
    r1 = TableRound((Table(1, ("a", "b", "c")), Table(2, ("d", "e", "f"))))
    r2 = TableRound((Table(1, ("a", "b", "d")), Table(2, ("c", "e", "f"))))
    mates = table_mates([r1, r2])
    assert mates[frozenset("ab")] == 2 and mates[frozenset("ef")] == 2 and mates[frozenset("ad")] == 1
    assert repeated_pairs([r1, r2]) == 2
