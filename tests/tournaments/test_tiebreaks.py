"""Standings and tiebreaks (tournaments.formats.tiebreaks): hand-computed tables, pure Python, no database."""

from __future__ import annotations

import doctest
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import tiebreaks
from tournaments.formats.tiebreaks import (
    DEFAULT_PARTNERSHIP,
    MatchResult,
    StandingRow,
    TableResult,
    TiebreakError,
    TiebreakOptions,
    individual_standings,
    standings,
)


def test_module_doctests() -> None:
    result = doctest.testmod(tiebreaks)
    assert result.attempted > 0 and result.failed == 0


def table(rows: list[StandingRow[str]], *keys: str) -> list[tuple[object, ...]]:
    return [(r.rank, r.entry, *(r.values[k] for k in keys)) for r in rows]


# ---------------------------------------------------------------------- a small Swiss, by hand
#
# Five teams, three rounds.
#   R1: A beat D, gap +3            B lost to E, gap -2 (B is side 0)     C bye
#   R2: A drew C, gap 0             E beat D by forfeit (gap 5 entered)   B bye
#   R3: C beat E, gap +4            A lost to B, gap -1 (A is side 0)     D bye
#
#        match_wins   level_difference   wins   Buchholz (own / zero)    Sonneborn-Berger (own / zero)
#   A    1+.5+0 =1.5  3+0-1     =  2     1      D1+C2.5+B2   =5.5 / 5.5  D1+½·C2.5       =2.25 / 2.25
#   B    0+1+1  =2    -2+0+1    = -1     2      E2+own2+A1.5 =5.5 / 3.5  own2+A1.5       =3.5  / 1.5
#   C    1+.5+1 =2.5  0+0+4     =  4     2      own2.5+A1.5+E2 =6 / 3.5  own2.5+½A1.5+E2 =5.25 / 2.75
#   D    0+0+1  =1    -3+0+0    = -3     1      A1.5+own1+own1 =3.5/1.5  own1 (bye)      =1    / 0
#   E    1+1+0  =2    2+0-4     = -2     2      B2+own2+C2.5 =6.5 / 4.5  B2+own2         =4    / 2

SWISS = [
    MatchResult(("A", "D"), winner=0, level_gap=3),
    MatchResult(("B", "E"), winner=1, level_gap=-2),
    MatchResult(("A", "C"), winner=None, level_gap=0),
    MatchResult(("E", "D"), winner=0, level_gap=5, forfeit=True),
    MatchResult(("C", "E"), winner=0, level_gap=4),
    MatchResult(("A", "B"), winner=1, level_gap=-1),
]
SWISS_BYES = ["C", "B", "D"]
TEAMS = ["A", "B", "C", "D", "E"]
ALL = ["match_wins", "level_difference", "head_to_head", "buchholz", "sonneborn_berger", "wins"]


def test_swiss_by_hand_every_column() -> None:
    rows = standings(TEAMS, SWISS, byes=SWISS_BYES, tiebreaks=ALL)
    assert table(rows, *ALL) == [
        (1, "C", 2.5, 4, None, 6, 5.25, 2),
        (2, "B", 2, -1, None, 5.5, 3.5, 2),
        (3, "E", 2, -2, None, 6.5, 4, 2),
        (4, "A", 1.5, 2, None, 5.5, 2.25, 1),
        (5, "D", 1, -3, None, 3.5, 1, 1),
    ]
    assert [r.shared for r in rows] == [False] * 5


def test_swiss_default_order_is_level_difference_first() -> None:
    rows = standings(TEAMS, SWISS, byes=SWISS_BYES)
    assert list(rows[0].values) == list(DEFAULT_PARTNERSHIP)
    assert [r.entry for r in rows] == ["C", "B", "E", "A", "D"]


@pytest.mark.parametrize(
    ("second", "order", "value_b", "value_e"),
    [
        ("head_to_head", ["C", "E", "B", "A", "D"], 0, 1),  # E beat B in round 1
        ("buchholz", ["C", "E", "B", "A", "D"], 5.5, 6.5),
        ("sonneborn_berger", ["C", "E", "B", "A", "D"], 3.5, 4),
        ("level_difference", ["C", "B", "E", "A", "D"], -1, -2),
        ("wins", ["C", "B", "E", "A", "D"], 2, 2),  # still tied: B before E by the given order
    ],
)
def test_swiss_b_and_e_split_by_the_second_criterion(
    second: str, order: list[str], value_b: float, value_e: float
) -> None:
    rows = standings(TEAMS, SWISS, byes=SWISS_BYES, tiebreaks=["match_wins", second])
    assert [r.entry for r in rows] == order
    by = {r.entry: r for r in rows}
    assert (by["B"].values[second], by["E"].values[second]) == (value_b, value_e)
    if second == "wins":
        assert (by["B"].rank, by["E"].rank, by["A"].rank) == (2, 2, 4)
        assert by["B"].shared and by["E"].shared and not by["A"].shared


def test_swiss_unplayed_as_zero() -> None:
    rows = standings(
        TEAMS,
        SWISS,
        byes=SWISS_BYES,
        tiebreaks=["match_wins", "buchholz", "sonneborn_berger"],
        options=TiebreakOptions(unplayed="zero"),
    )
    assert table(rows, "buchholz", "sonneborn_berger") == [
        (1, "C", 3.5, 2.75),
        (2, "E", 4.5, 2),
        (3, "B", 3.5, 1.5),
        (4, "A", 5.5, 2.25),
        (5, "D", 1.5, 0),
    ]


def test_swiss_forfeit_gap_option() -> None:
    """With a forfeit worth 2 levels, E gains 2 (-2 → 0) and D loses 2 (-3 → -5): E passes B."""
    rows = standings(
        TEAMS,
        SWISS,
        byes=SWISS_BYES,
        tiebreaks=["match_wins", "level_difference"],
        options=TiebreakOptions(forfeit_gap=2),
    )
    assert table(rows, "level_difference") == [
        (1, "C", 4),
        (2, "E", 0),
        (3, "B", -1),
        (4, "A", 2),
        (5, "D", -5),
    ]


def test_swiss_bye_gap_option() -> None:
    rows = standings(
        TEAMS, SWISS, byes=SWISS_BYES, tiebreaks=["level_difference"], options=TiebreakOptions(bye_gap=1)
    )
    assert table(rows, "level_difference") == [
        (1, "C", 5),
        (2, "A", 2),
        (3, "B", 0),
        (4, "D", -2),
        (4, "E", -2),
    ]


def test_swiss_records() -> None:
    by = {r.entry: r.record for r in standings(TEAMS, SWISS, byes=SWISS_BYES)}
    assert by["D"] == {
        "played": 1,
        "wins": 0,
        "draws": 0,
        "losses": 1,
        "byes": 1,
        "forfeit_wins": 0,
        "forfeit_losses": 1,
    }
    assert by["E"] == {
        "played": 2,
        "wins": 1,
        "draws": 0,
        "losses": 1,
        "byes": 0,
        "forfeit_wins": 1,
        "forfeit_losses": 0,
    }
    assert by["A"]["draws"] == 1 and by["C"]["byes"] == 1


# ---------------------------------------------------------------- a round robin with a cycle, by hand
#
# W beat X by 2, X beat Y by 3, Y beat W by 1; W, X, Y beat Z by 3, 1 and 4.
#        match_wins   level_difference
#   W    2            +2 -1 +3 = 4
#   X    2            -2 +3 +1 = 2
#   Y    2            -3 +1 +4 = 2
#   Z    0            -3 -1 -4 = -8

CYCLE = [
    MatchResult(("W", "X"), 0, 2),
    MatchResult(("X", "Y"), 0, 3),
    MatchResult(("Y", "W"), 0, 1),
    MatchResult(("W", "Z"), 0, 3),
    MatchResult(("X", "Z"), 0, 1),
    MatchResult(("Z", "Y"), 1, -4),
]
WXYZ = ["W", "X", "Y", "Z"]


def test_head_to_head_does_not_apply_to_three() -> None:
    rows = standings(WXYZ, CYCLE, tiebreaks=["match_wins", "head_to_head"])
    assert table(rows, "match_wins", "head_to_head") == [
        (1, "W", 2, None),
        (1, "X", 2, None),
        (1, "Y", 2, None),
        (4, "Z", 0, None),
    ]


def test_head_to_head_between_the_two_left_tied() -> None:
    rows = standings(WXYZ, CYCLE, tiebreaks=["match_wins", "level_difference", "head_to_head"])
    assert table(rows, "match_wins", "level_difference", "head_to_head") == [
        (1, "W", 2, 4, None),
        (2, "X", 2, 2, 1),
        (3, "Y", 2, 2, 0),
        (4, "Z", 0, -8, None),
    ]


def test_shared_ranks_1224() -> None:
    """Head-to-head first: the three-way tie stays; level difference then splits W off only."""
    rows = standings(WXYZ, CYCLE, tiebreaks=["match_wins", "head_to_head", "level_difference"])
    assert [(r.rank, r.entry, r.shared) for r in rows] == [
        (1, "W", False),
        (2, "X", True),
        (2, "Y", True),
        (4, "Z", False),
    ]


def test_head_to_head_needs_a_decided_meeting() -> None:
    drawn = [MatchResult(("P", "Q"), None), MatchResult(("P", "R"), 0), MatchResult(("Q", "R"), 0)]
    rows = standings(["P", "Q", "R"], drawn, tiebreaks=["match_wins", "head_to_head"])
    assert table(rows, "head_to_head") == [(1, "P", 0.5), (1, "Q", 0.5), (3, "R", None)]
    never = [MatchResult(("P", "R"), 0), MatchResult(("Q", "S"), 0)]
    rows = standings(["P", "Q", "R", "S"], never, tiebreaks=["match_wins", "head_to_head"])
    assert table(rows, "head_to_head") == [(1, "P", None), (1, "Q", None), (3, "R", None), (3, "S", None)]


def test_head_to_head_over_several_meetings() -> None:
    """They met twice and won one each: still tied. Three meetings, two to one: decided."""
    split = [MatchResult(("P", "Q"), 0), MatchResult(("Q", "P"), 0)]
    rows = standings(["P", "Q"], split, tiebreaks=["match_wins", "head_to_head"])
    assert table(rows, "head_to_head") == [(1, "P", 1), (1, "Q", 1)]
    rows = standings(["P", "Q"], [*split, MatchResult(("Q", "P"), 1)], tiebreaks=["head_to_head"])
    assert table(rows, "head_to_head") == [(1, "P", 2), (2, "Q", 1)]


def test_head_to_head_after_the_main_criterion() -> None:
    """P and R lead with two wins each and P beat R; Q and S are not tied with anybody."""
    results = [
        MatchResult(("P", "Q"), 0),
        MatchResult(("P", "R"), 0),
        MatchResult(("R", "Q"), 0),
        MatchResult(("Q", "S"), 0),
        MatchResult(("S", "R"), 1),
    ]
    rows = standings(["R", "Q", "P", "S"], results, tiebreaks=["match_wins", "head_to_head"])
    assert table(rows, "match_wins", "head_to_head") == [
        (1, "P", 2, 1),
        (2, "R", 2, 0),
        (3, "Q", 1, None),
        (4, "S", 0, None),
    ]


def test_forfeit_counts_for_head_to_head() -> None:
    results = [
        MatchResult(("P", "Q"), 1, forfeit=True),
        MatchResult(("P", "R"), 0),
        MatchResult(("R", "Q"), 0),
    ]
    rows = standings(["P", "Q", "R"], results, tiebreaks=["match_wins", "head_to_head"])
    assert [(r.rank, r.entry) for r in rows] == [(1, "P"), (1, "Q"), (1, "R")]
    rows = standings(["P", "Q"], results[:1], tiebreaks=["head_to_head", "match_wins"])
    assert table(rows, "head_to_head", "match_wins") == [(1, "Q", 1, 1), (2, "P", 0, 0)]


def test_withdrawn_opponents_still_count() -> None:
    """Gone played A and lost; it is not ranked but its score counts in A's Buchholz."""
    results = [MatchResult(("A", "Gone"), 0), MatchResult(("Gone", "B"), 0), MatchResult(("A", "B"), None)]
    rows = standings(["A", "B"], results, tiebreaks=["match_wins", "buchholz"])
    assert table(rows, "match_wins", "buchholz") == [(1, "A", 1.5, 1.5), (2, "B", 0.5, 2.5)]


def test_no_results_everybody_first() -> None:
    rows = standings(["a", "b", "c"], [], tiebreaks=["match_wins", "buchholz"])
    assert [(r.rank, r.entry, r.values["match_wins"]) for r in rows] == [
        (1, "a", 0),
        (1, "b", 0),
        (1, "c", 0),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tiebreaks": ["match_wins", "median"]}, "Unknown criterion"),
        ({"tiebreaks": []}, "At least one"),
        ({"tiebreaks": ["buchholz", "buchholz"]}, "twice"),
        ({"tiebreaks": ["game_points"]}, "Unknown criterion"),
        ({"matches": [MatchResult(("a", "a"), 0)]}, "itself"),
        ({"matches": [MatchResult(("a", "b"), 2)]}, "winner"),
        ({"matches": [MatchResult(("a", "b"), None, forfeit=True)]}, "forfeit"),
        ({"entries": ["a", "a"]}, "twice"),
        ({"options": TiebreakOptions(unplayed="half")}, "unplayed"),  # type: ignore[arg-type]
    ],
)
def test_errors(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"entries": ["a", "b"], "matches": [], **kwargs}
    with pytest.raises(TiebreakError, match=message):
        standings(**args)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- properties


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[int], list[MatchResult[int]], list[int]]:
    n = draw(st.integers(2, 9))
    rng = random.Random(draw(st.integers(0, 10**6)))
    results: list[MatchResult[int]] = []
    for p in itertools.combinations(range(n), 2):
        if rng.random() < 0.6:
            forfeit = rng.random() < 0.1
            winner = rng.choice([0, 1]) if forfeit else rng.choice([0, 1, None])
            results.append(MatchResult(p, winner, rng.randint(-6, 6), forfeit=forfeit))
    byes = [rng.randrange(n) for _ in range(rng.randint(0, 3))]
    return list(range(n)), results, byes


@settings(deadline=None, max_examples=150)
@given(tournaments(), st.permutations(ALL))
def test_ranks_are_consistent(
    data: tuple[list[int], list[MatchResult[int]], list[int]], order: list[str]
) -> None:
    """Ranks are "1224": the first row has rank 1, a rank repeats exactly while rows tie, the next rank
    skips; rows are sorted by every criterion in turn (head-to-head aside)."""
    entries, results, byes = data
    rows = standings(entries, results, byes=byes, tiebreaks=order)
    assert sorted(r.entry for r in rows) == entries
    assert rows[0].rank == 1
    for k, (a, b) in enumerate(itertools.pairwise(rows), start=1):
        if a.rank == b.rank:
            assert a.values == b.values
            assert a.shared and b.shared
        else:
            assert b.rank == k + 1
    before_h2h = order[: order.index("head_to_head")]
    for a, b in itertools.pairwise(rows):
        ka = [a.values[k] or 0 for k in before_h2h]
        kb = [b.values[k] or 0 for k in before_h2h]
        assert ka >= kb
    total = sum(r.values["match_wins"] or 0 for r in rows)
    assert total == len(results) + len(byes)


@settings(deadline=None, max_examples=100)
@given(tournaments())
def test_sonneborn_berger_never_exceeds_buchholz(
    data: tuple[list[int], list[MatchResult[int]], list[int]],
) -> None:
    entries, results, byes = data
    for unplayed in ("own_score", "zero"):
        rows = standings(
            entries,
            results,
            byes=byes,
            tiebreaks=["buchholz", "sonneborn_berger"],
            options=TiebreakOptions(unplayed=unplayed),
        )  # type: ignore[arg-type]
        for r in rows:
            assert 0 <= (r.values["sonneborn_berger"] or 0) <= (r.values["buchholz"] or 0)


@settings(deadline=None, max_examples=100)
@given(tournaments())
def test_level_differences_sum_to_zero_without_byes_and_forfeits(
    data: tuple[list[int], list[MatchResult[int]], list[int]],
) -> None:
    entries, results, _ = data
    rows = standings(entries, results, tiebreaks=["level_difference"], options=TiebreakOptions(forfeit_gap=3))
    assert sum(r.values["level_difference"] or 0 for r in rows) == 0


# --------------------------------------------------------------------------- individual, by hand
#
# Red five, five players, two rounds; p5 sits out round 1, p4 round 2.
#   R1: (p1, p2, p3, p4)  game points (8, -4, 0, -4)   hands won (2, 1, 1, 0)
#   R2: (p5, p1, p2, p3)  game points (2, -6, 6, -2)   hands won (1, 0, 2, 1)
#        game_points   tables   average   hands_won
#   p1   2             2        1         2
#   p2   2             2        1         3
#   p3   -2            2        -1        2
#   p4   -4            1        -4        0
#   p5   2             1        2         1

INDIVIDUAL = [
    TableResult(("p1", "p2", "p3", "p4"), (8, -4, 0, -4), (2, 1, 1, 0)),
    TableResult(("p5", "p1", "p2", "p3"), (2, -6, 6, -2), (1, 0, 2, 1)),
]
PLAYERS = ["p1", "p2", "p3", "p4", "p5"]


def test_individual_by_hand() -> None:
    rows = individual_standings(
        PLAYERS,
        INDIVIDUAL,
        sit_outs=["p5", "p4"],
        tiebreaks=["game_points", "average", "hands_won", "tables"],
    )
    assert table(rows, "game_points", "average", "hands_won", "tables") == [
        (1, "p5", 2, 2, 1, 1),
        (2, "p2", 2, 1, 3, 2),
        (3, "p1", 2, 1, 2, 2),
        (4, "p3", -2, -1, 2, 2),
        (5, "p4", -4, -4, 0, 1),
    ]
    assert rows[0].record == {"tables": 1, "sit_outs": 1}


def test_individual_net_then_hands_won() -> None:
    rows = individual_standings(PLAYERS, INDIVIDUAL, tiebreaks=["net", "hands_won"])
    assert [(r.rank, r.entry) for r in rows] == [(1, "p2"), (2, "p1"), (3, "p5"), (4, "p3"), (5, "p4")]


def test_individual_shared_ranks() -> None:
    rows = individual_standings(PLAYERS, INDIVIDUAL, tiebreaks=["game_points"])
    assert [(r.rank, r.entry) for r in rows] == [(1, "p1"), (1, "p2"), (1, "p5"), (4, "p3"), (5, "p4")]


def test_individual_average_of_a_player_without_tables_is_zero() -> None:
    rows = individual_standings(["a", "b"], [], sit_outs=["a"], tiebreaks=["average"])
    assert [(r.rank, r.values["average"], r.record["sit_outs"]) for r in rows] == [(1, 0, 1), (1, 0, 0)]


@pytest.mark.parametrize(
    ("tables", "tiebreaks", "message"),
    [
        ([TableResult(("a", "b"), (1,))], ["net"], "one figure"),
        ([TableResult(("a", "b"), (1, -1), (1,))], ["net"], "one figure"),
        ([TableResult(("a", "a"), (1, -1))], ["net"], "twice"),
        ([], ["head_to_head"], "Unknown criterion"),
        ([], ["match_wins"], "Unknown criterion"),
    ],
)
def test_individual_errors(tables: list[TableResult[str]], tiebreaks: list[str], message: str) -> None:
    with pytest.raises(TiebreakError, match=message):
        individual_standings(["a", "b"], tables, tiebreaks=tiebreaks)
