"""Swiss pairing, round robin and qualification (tournaments.formats.pairing): pure Python, no database."""

from __future__ import annotations

import doctest
import itertools
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import pairing
from tournaments.formats.pairing import (
    PairingError,
    Qualification,
    QualificationTie,
    SwissEntry,
    SwissRound,
    qualifiers,
    recommended_rounds,
    round_robin,
    swiss_entries,
    swiss_pairings,
)
from tournaments.formats.tiebreaks import MatchResult, standings


def test_module_doctests() -> None:
    result = doctest.testmod(pairing)
    assert result.attempted > 0 and result.failed == 0


def test_imports_without_django() -> None:
    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; import tournaments.formats.pairing, tournaments.formats.tables, tournaments.formats.tiebreaks; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


# ------------------------------------------------------------------------------------------ helpers


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def met(entries: list[SwissEntry[int]]) -> set[frozenset[int]]:
    return {frozenset((e.id, o)) for e in entries for o in e.opponents}


def check_round(entries: list[SwissEntry[int]], r: SwissRound[int]) -> None:
    """Everybody exactly once; the bye only with an odd count; the rematch list is exact."""
    seen = [x for p in r.pairings for x in p] + ([r.bye] if r.bye is not None else [])
    assert sorted(seen) == sorted(e.id for e in entries)
    assert (r.bye is not None) == (len(entries) % 2 == 1)
    played = met(entries)
    assert {frozenset(p) for p in r.rematches} == {frozenset(p) for p in r.pairings if frozenset(p) in played}
    scores = {e.id: e.score for e in entries}
    tops = [max(scores[a], scores[b]) for a, b in r.pairings]
    assert tops == sorted(tops, reverse=True), "board order: highest scores first"


@st.composite
def swiss_inputs(draw: st.DrawFn, max_n: int = 9) -> list[SwissEntry[int]]:
    """A random state of a Swiss stage: scores, a random set of earlier meetings, byes."""
    n = draw(st.integers(2, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6, 0.8, 0.95]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    played = [p for p in pairs if rng.random() < density]
    opp: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in played:
        opp[a].add(b)
        opp[b].add(a)
    return [
        SwissEntry(
            i,
            score=draw(st.sampled_from([0, 0.5, 1, 1.5, 2, 3])),
            opponents=frozenset(opp[i]),
            byes=draw(st.integers(0, 1)),
            rating=draw(st.one_of(st.none(), st.integers(1000, 2000).map(float))),
        )
        for i in range(n)
    ]


def simulate(n: int, rounds: int, seed: int) -> tuple[list[SwissRound[int]], list[SwissEntry[int]]]:
    """Play a Swiss stage with random results (45% / 45% / 10% draws)."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0.0)
    opp: dict[int, set[int]] = {i: set() for i in range(n)}
    byes = dict.fromkeys(range(n), 0)
    sides: dict[int, list[int]] = {i: [] for i in range(n)}
    out: list[SwissRound[int]] = []
    entries: list[SwissEntry[int]] = []
    for _ in range(rounds):
        entries = [
            SwissEntry(i, score[i], frozenset(opp[i]), byes[i], float(2000 - i), tuple(sides[i]))
            for i in range(n)
        ]
        r = swiss_pairings(entries)
        check_round(entries, r)
        out.append(r)
        for a, b in r.pairings:
            opp[a].add(b)
            opp[b].add(a)
            sides[a].append(0)
            sides[b].append(1)
            x = rng.random()
            if x < 0.45:
                score[a] += 1
            elif x < 0.9:
                score[b] += 1
            else:
                score[a] += 0.5
                score[b] += 0.5
        if r.bye is not None:
            byes[r.bye] += 1
            score[r.bye] += 1
    return out, entries


# ---------------------------------------------------------------------------------- swiss: examples


def test_round_one_top_half_against_bottom_half() -> None:
    r = swiss_pairings([SwissEntry(i) for i in range(1, 9)])
    assert [frozenset(p) for p in r.pairings] == [frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]]
    assert r.bye is None and r.rematches == ()


def test_round_one_sides_alternate_by_board() -> None:
    r = swiss_pairings([SwissEntry(i) for i in range(1, 9)])
    assert r.pairings == ((1, 5), (6, 2), (3, 7), (8, 4))


def test_rating_orders_within_a_score() -> None:
    entries = [
        SwissEntry("a", rating=1500),
        SwissEntry("b", rating=1900),
        SwissEntry("c"),
        SwissEntry("d", rating=1700),
    ]
    r = swiss_pairings(entries)  # ranked b, d, a, c
    assert {frozenset(p) for p in r.pairings} == {frozenset("ba"), frozenset("dc")}


def test_odd_group_floats_its_lowest_entry_to_the_top_of_the_next_group() -> None:
    entries = [SwissEntry(k, 2) for k in "ABC"] + [SwissEntry(k, 1) for k in "DEFGH"]
    r = swiss_pairings(entries)  # 8 entries: no bye
    pairs = {frozenset(p) for p in r.pairings}
    assert frozenset("AB") in pairs and frozenset("CD") in pairs
    assert frozenset("EG") in pairs and frozenset("FH") in pairs


def test_rematch_avoided_by_the_next_best_opponent() -> None:
    entries = [
        SwissEntry(1, opponents=frozenset({3})),
        SwissEntry(2),
        SwissEntry(3, opponents=frozenset({1})),
        SwissEntry(4),
    ]
    r = swiss_pairings(entries)
    assert {frozenset(p) for p in r.pairings} == {frozenset({1, 4}), frozenset({2, 3})}


def test_rematch_avoided_even_when_the_greedy_choice_would_corner_the_last_two() -> None:
    """1 v 3 looks best for 1, but then 2 and 4 (who met) would be left: 1 must take 4."""
    entries = [
        SwissEntry(1, 1, frozenset({2})),
        SwissEntry(2, 1, frozenset({1, 4})),
        SwissEntry(3, 0, frozenset({4})),
        SwissEntry(4, 0, frozenset({2, 3})),
    ]
    r = swiss_pairings(entries)
    assert {frozenset(p) for p in r.pairings} == {frozenset({1, 4}), frozenset({2, 3})}
    assert r.rematches == ()


def test_unavoidable_rematches_are_as_few_as_possible_and_listed() -> None:
    everyone = frozenset(range(4))
    entries = [SwissEntry(i, 3 - i, everyone - {i}) for i in range(4)]
    r = swiss_pairings(entries)
    assert len(r.rematches) == 2 and set(r.rematches) == set(r.pairings)
    cycle = [SwissEntry(i, 0, frozenset({(i + 1) % 6, (i + 5) % 6})) for i in range(6)]
    assert swiss_pairings(cycle).rematches == ()


def test_bye_goes_to_the_lowest_ranked_entry_without_one() -> None:
    entries = [
        SwissEntry("a", 1),
        SwissEntry("b", 1),
        SwissEntry("c", 0),
        SwissEntry("d", 0, byes=1),
        SwissEntry("e", 0),
    ]
    assert swiss_pairings(entries).bye == "e"
    entries = [
        SwissEntry("a", 1),
        SwissEntry("b", 1),
        SwissEntry("c", 0),
        SwissEntry("d", 0),
        SwissEntry("e", 0, byes=1),
    ]
    assert swiss_pairings(entries).bye == "d"


def test_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    """a, b and c met each other: a bye to e or d leaves two of them to meet again; a bye to c (the
    lowest-ranked entry for which it works) leaves a-d, b-e."""
    opp = {"a": {"b", "c"}, "b": {"a", "c"}, "c": {"a", "b"}, "d": set(), "e": set()}
    r = swiss_pairings([SwissEntry(k, 0, frozenset(v)) for k, v in opp.items()])
    assert r.rematches == ()
    assert r.bye == "c"


def test_everybody_had_a_bye_then_the_fewest_byes_decide() -> None:
    entries = [SwissEntry(k, 0, byes=2 if k == "c" else 1) for k in "abc"]
    assert swiss_pairings(entries).bye == "b"


def test_sides_balance_the_history() -> None:
    entries = [
        SwissEntry("a", 1, frozenset("x"), sides=(0, 0)),
        SwissEntry("b", 1, frozenset("y"), sides=(1, 0)),
    ]
    assert swiss_pairings(entries).pairings == (("b", "a"),)
    entries = [SwissEntry("a", 1, sides=(0, 1)), SwissEntry("b", 1, sides=(1, 0))]
    assert swiss_pairings(entries).pairings == (("a", "b"),)  # b played side 0 last


def test_unknown_opponents_are_ignored_and_errors_raised() -> None:
    assert swiss_pairings([SwissEntry("a", opponents=frozenset({"gone"})), SwissEntry("b")]).pairings
    with pytest.raises(PairingError):
        swiss_pairings([SwissEntry("a"), SwissEntry("a")])
    with pytest.raises(PairingError):
        swiss_pairings([SwissEntry("a")])


def test_same_input_same_pairing() -> None:
    _, entries = simulate(41, 4, seed=3)
    assert swiss_pairings(entries) == swiss_pairings(list(entries))


@pytest.mark.parametrize(
    ("n", "expected"), [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (16, 4), (17, 5), (200, 8)]
)
def test_recommended_rounds(n: int, expected: int) -> None:
    assert recommended_rounds(n) == expected


def test_recommended_rounds_needs_entries() -> None:
    with pytest.raises(PairingError):
        recommended_rounds(0)


# -------------------------------------------------------------------------------- swiss: properties


@settings(deadline=None, max_examples=250)
@given(swiss_inputs())
def test_no_rematch_while_avoidable_against_brute_force(entries: list[SwissEntry[int]]) -> None:
    """The fewest rematches over every bye to an entry with the fewest byes and every pairing of the
    others — zero whenever a rematch-free pairing exists."""
    r = swiss_pairings(entries)
    check_round(entries, r)
    played = met(entries)
    fewest = min(e.byes for e in entries)
    assert r.bye is None or next(e for e in entries if e.id == r.bye).byes == fewest
    candidates = [e.id for e in entries if e.byes == fewest] if len(entries) % 2 else [None]
    best = min(
        sum(frozenset(p) in played for p in m)
        for bye in candidates
        for m in perfect_matchings([e.id for e in entries if e.id != bye])
    )
    assert len(r.rematches) == best


@settings(deadline=None, max_examples=150)
@given(st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2, 2.5, 3]), min_size=2, max_size=10))
def test_score_groups_kept_as_far_as_possible(scores: list[float]) -> None:
    """Without earlier meetings, the score differences are as small as possible (the least sum of
    squared differences: a floater meets the next group rather than one further down, so 1 v ½ and
    ½ v 0 beat 1 v 0 and ½ v ½), and every pair joins the same or neighbouring score groups."""
    entries = [SwissEntry(i, s) for i, s in enumerate(scores)]
    r = swiss_pairings(entries)
    check_round(entries, r)
    sc = dict(enumerate(scores))
    spread = sum((sc[a] - sc[b]) ** 2 for a, b in r.pairings)
    rest = [i for i in sc if i != r.bye]
    assert spread == min(sum((sc[a] - sc[b]) ** 2 for a, b in m) for m in perfect_matchings(rest))
    groups = sorted(set(sc[i] for i in rest), reverse=True)
    for a, b in r.pairings:
        assert abs(groups.index(sc[a]) - groups.index(sc[b])) <= 1


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 40), st.integers(0, 10**6))
def test_whole_swiss_stages(n: int, seed: int) -> None:
    """For (n - 2) // 2 rounds (at most 8) a rematch-free pairing always exists (the graph of pairs not
    yet met keeps a degree of at least half its size: Dirac), so there is never a rematch; every entry
    plays once per round; byes rotate."""
    rounds = min(max(1, (n - 2) // 2), 8)
    played, _ = simulate(n, rounds, seed)
    meetings = Counter(frozenset(p) for r in played for p in r.pairings)
    assert set(meetings.values()) == {1}
    byes = Counter[int]()
    for r in played:
        if r.bye is not None:
            assert byes[r.bye] == min(byes[i] for i in range(n)), "a second bye before everyone had one"
            byes[r.bye] += 1


@pytest.mark.parametrize("n", [5, 7, 9, 11])
def test_a_swiss_as_long_as_a_round_robin_gives_everyone_one_bye(n: int) -> None:
    played, _ = simulate(n, n, seed=n)
    assert sorted(r.bye for r in played if r.bye is not None) == list(range(n))


@pytest.mark.parametrize("n", [8, 16, 24, 32, 64, 128, 200])
def test_no_rematch_in_the_recommended_rounds(n: int) -> None:
    played, _ = simulate(n, recommended_rounds(n), seed=n)
    assert not any(r.rematches for r in played)
    meetings = Counter(frozenset(p) for r in played for p in r.pairings)
    assert max(meetings.values()) == 1


def test_sides_stay_balanced_over_a_stage() -> None:
    n, rounds = 30, 7
    played, _ = simulate(n, rounds, seed=5)
    side0 = Counter(a for r in played for a, _ in r.pairings)
    side1 = Counter(b for r in played for _, b in r.pairings)
    assert max(abs(side0[i] - side1[i]) for i in range(n)) <= 3


@pytest.mark.parametrize("n", [199, 200])
def test_two_hundred_entries_pair_without_rematches(n: int) -> None:
    """Two hundred entries after nine rounds pair completely (the time is a benchmark, not a test)."""
    _, entries = simulate(n, 9, seed=1)
    r = swiss_pairings(entries)
    check_round(entries, r)
    assert r.rematches == ()


def test_pairing_with_standings_scores() -> None:
    """The scores come from the standings module (byes count as wins)."""
    results = [MatchResult(("a", "b"), 0), MatchResult(("c", "d"), None)]
    rows = standings(["a", "b", "c", "d", "e"], results, byes=["e"], tiebreaks=["match_wins"])
    score = {row.entry: float(row.values["match_wins"] or 0) for row in rows}
    assert score == {"a": 1, "e": 1, "c": 0.5, "d": 0.5, "b": 0}
    opponents = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}, "e": set()}
    entries = [SwissEntry(k, score[k], frozenset(opponents[k]), byes=int(k == "e")) for k in "abcde"]
    r = swiss_pairings(entries)
    assert r.bye == "b"  # the lowest-ranked without a bye
    # a v e would leave c v d, a rematch: a takes c, the top of the next group
    assert r.pairings == (("a", "c"), ("d", "e")) and r.rematches == ()


def test_swiss_entries_from_results() -> None:
    results = [
        MatchResult(("a", "b"), 0),
        MatchResult(("c", "d"), None),
        MatchResult(("e", "a"), 1, forfeit=True),
        MatchResult(("gone", "b"), 1),
    ]
    es = {e.id: e for e in swiss_entries("abcde", results, byes=["c"], ratings={"a": 1800.0})}
    assert {k: e.score for k, e in es.items()} == {"a": 2, "b": 1, "c": 1.5, "d": 0.5, "e": 0}
    assert es["a"].opponents == frozenset("b") and es["e"].opponents == frozenset()
    assert es["b"].opponents == frozenset({"a", "gone"})
    assert (es["a"].byes, es["c"].byes, es["e"].byes) == (1, 1, 0)  # a's forfeit win counts as a bye
    assert (es["a"].sides, es["b"].sides, es["d"].sides) == ((0,), (1, 1), (1,))
    assert es["a"].rating == 1800.0 and es["b"].rating is None
    strict = swiss_entries("ae", results, forfeits_are_meetings=True)
    assert strict[0].opponents == frozenset("be") and strict[1].opponents == frozenset("a")
    with pytest.raises(PairingError):
        swiss_entries("aa")


@settings(deadline=None, max_examples=30)
@given(st.integers(2, 30), st.integers(0, 10**6))
def test_swiss_entries_round_trip_through_a_stage(n: int, seed: int) -> None:
    """Pair from results, play, record results, pair again: never a rematch for (n - 2) // 2 rounds."""
    rng = random.Random(seed)
    ids = [f"t{i}" for i in range(n)]
    results: list[MatchResult[str]] = []
    byes: list[str] = []
    for _ in range(min(max(1, (n - 2) // 2), 6)):
        r = swiss_pairings(swiss_entries(ids, results, byes=byes))
        assert r.rematches == ()
        results += [MatchResult(p, rng.choice([0, 1, None])) for p in r.pairings]
        byes += [r.bye] if r.bye is not None else []
    assert len(set(byes)) == len(byes)


# ------------------------------------------------------------------------------------ round robin


@pytest.mark.parametrize("n", range(2, 21))
def test_round_robin_every_pair_meets_exactly_once(n: int) -> None:
    ids = [f"t{i}" for i in range(n)]
    rounds = round_robin(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    meetings = Counter(frozenset(p) for r in rounds for p in r.pairings)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:
        present = [x for p in r.pairings for x in p] + ([r.bye] if r.bye is not None else [])
        assert sorted(present) == sorted(ids)
        assert (r.bye is None) == (n % 2 == 0)
    if n % 2:
        assert sorted(r.bye for r in rounds if r.bye is not None) == sorted(ids)


@pytest.mark.parametrize("n", range(2, 21))
def test_round_robin_sides_are_fair(n: int) -> None:
    """Side 0 and side 1 counts differ by at most one, and nobody has the same side three times in a
    row."""
    rounds = round_robin(list(range(n)))
    history: dict[int, list[int]] = {i: [] for i in range(n)}
    for r in rounds:
        for a, b in r.pairings:
            history[a].append(0)
            history[b].append(1)
    for sides in history.values():
        assert abs(sides.count(0) - sides.count(1)) <= 1
        assert all(len(set(sides[k : k + 3])) == 2 for k in range(len(sides) - 2))


def test_round_robin_is_the_fide_berger_table_for_six() -> None:
    rounds = round_robin([1, 2, 3, 4, 5, 6])
    assert [r.pairings for r in rounds] == [
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    ]


def test_round_robin_double_cycle_swaps_sides() -> None:
    rounds = round_robin(list("ABCDE"), cycles=2)
    assert len(rounds) == 10
    first, second = rounds[:5], rounds[5:]
    for r1, r2 in zip(first, second, strict=True):
        assert r2.pairings == tuple((b, a) for a, b in r1.pairings)
        assert r1.bye == r2.bye
    ordered = Counter(p for r in rounds for p in r.pairings)
    assert set(ordered.values()) == {1} and len(ordered) == 20


def test_round_robin_errors() -> None:
    with pytest.raises(PairingError):
        round_robin(["a"])
    with pytest.raises(PairingError):
        round_robin(["a", "a"])
    with pytest.raises(PairingError):
        round_robin(["a", "b"], cycles=0)


# ---------------------------------------------------------------------------------- qualification


def rows(*ranks: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(entry=f"e{k}", rank=rank) for k, rank in enumerate(ranks, start=1)]


def test_qualifiers_clean_cut() -> None:
    assert qualifiers(rows(1, 2, 3, 4), 2) == Qualification(("e1", "e2"))
    assert qualifiers(rows(1, 1, 3, 3), 2) == Qualification(("e1", "e2"))
    assert qualifiers(rows(1, 2), 5) == Qualification(("e1", "e2"))


def test_qualifiers_tie_at_the_cut() -> None:
    r = rows(1, 2, 2, 2, 5)
    q = qualifiers(r, 2)
    assert q == Qualification(("e1", "e2"), ("e2", "e3", "e4"), resolved_by_order=True)
    assert qualifiers(r, 2, ties="include").qualified == ("e1", "e2", "e3", "e4")
    with pytest.raises(QualificationTie) as err:
        qualifiers(r, 3, ties="raise")
    assert err.value.tied == ("e2", "e3", "e4") and err.value.places == 2
    with pytest.raises(PairingError):
        qualifiers(r, 0)


def test_qualifiers_from_standings_feed_a_bracket() -> None:
    from tournaments.formats.brackets import single_elimination

    results = [
        MatchResult(("A", "B"), 0, 3),
        MatchResult(("C", "D"), 0, 1),
        MatchResult(("A", "C"), 1, -2),
        MatchResult(("B", "D"), 0, 2),
    ]
    table = standings(["A", "B", "C", "D"], results, tiebreaks=["match_wins", "level_difference"])
    q = qualifiers(table, 2)
    assert q.qualified == ("C", "A") and not q.tied_at_cut
    assert single_elimination(list(q.qualified)).matches[0].entries == ("C", "A")


def test_the_bye_follows_the_given_standings_among_the_fewest_byes() -> None:
    from tournaments.formats.pairing import swiss_entries, swiss_pairings
    from tournaments.formats.tiebreaks import MatchResult

    results = [MatchResult(("A", "B"), 0), MatchResult(("C", "D"), 0)]
    # E had the bye; B and D lost. By seed order D is lower; the standings (tiebreaks) put B last.
    by_seed = swiss_pairings(swiss_entries("ABCDE", results, byes="E"))
    by_standings = swiss_pairings(swiss_entries("ABCDE", results, byes="E", standings="ACEDB"))
    assert by_seed.bye == "D"
    assert by_standings.bye == "B"
