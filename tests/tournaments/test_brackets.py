"""Elimination brackets (tournaments.formats.brackets): pure Python, no database."""

from __future__ import annotations

import doctest
import itertools
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import brackets
from tournaments.formats.brackets import (
    MAX_ENTRIES,
    Bracket,
    BracketError,
    Bye,
    Entry,
    GrandFinal,
    Match,
    MatchRow,
    MatchStatus,
    Section,
    SlotRef,
    Source,
    advance,
    bracket_size,
    dependents,
    double_elimination,
    rebuild,
    reset_from,
    round_name,
    routing,
    seed_order,
    seeding_positions,
    single_elimination,
    to_rows,
)

SIZES = [*range(2, 65), 65, 96, 100, 127, 128, 129, 200, 255, 256, 257, 384, 500, 511, 512]
SMALL = list(range(2, 65))


def names(n: int) -> list[str]:
    return [f"e{i:03d}" for i in range(1, n + 1)]


def first_round(b: Bracket[str]) -> list[Match[str]]:
    first = Section.MAIN if b.format == "single" else Section.WINNERS
    return [m for m in b.matches if m.section is first and m.round == 1]


def start_slot(b: Bracket[str], entry: str) -> SlotRef:
    seed = b.seed_of(entry)
    refs = [
        SlotRef(m.key, slot)
        for m in b.matches
        for slot, src in enumerate(m.sources)
        if src.kind == "seed" and src.seed == seed
    ]
    assert len(refs) == 1
    return refs[0]


def winner_path(b: Bracket[str], entry: str) -> list[str]:
    """The matches an entry plays if it keeps winning (main or winners' bracket)."""
    path = []
    ref: SlotRef | None = start_slot(b, entry)
    while ref is not None and b.match(ref.match).section in (Section.MAIN, Section.WINNERS):
        path.append(ref.match)
        ref = b.match(ref.match).winner_to
    return path


def first_meeting(b: Bracket[str], a: str, c: str) -> Match[str]:
    pa, pc = winner_path(b, a), winner_path(b, c)
    common = [k for k in pa if k in pc]
    return b.match(common[0])


def play_in_order(b: Bracket[str], rng: random.Random) -> Bracket[str]:
    """Decide every match in play order with random winners."""
    for key in [m.key for m in b.matches]:
        if b.status(key) is MatchStatus.READY:
            b = advance(b, key, rng.randrange(2))
        else:
            assert b.status(key) is MatchStatus.NOT_NEEDED, key
    return b


def play_any_order(b: Bracket[str], data: st.DataObject) -> Bracket[str]:
    while ready := b.ready():
        m = data.draw(st.sampled_from(ready))
        b = advance(b, m.key, data.draw(st.integers(0, 1)))
    return b


def losses(b: Bracket[str]) -> Counter[str]:
    return Counter(loser for m in b.matches if (loser := m.loser) is not None)


# ------------------------------------------------------------------------------------------ import


def test_module_doctests() -> None:
    result = doctest.testmod(brackets)
    assert result.attempted > 0 and result.failed == 0


def test_imports_without_django() -> None:
    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; import tournaments.formats.brackets; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


# ------------------------------------------------------------------------------------------ seeding


def test_seed_order_manual_keeps_given_order_without_seeds() -> None:
    assert seed_order([Entry("x"), Entry("a"), Entry("m")], "manual") == ["x", "a", "m"]


def test_seed_order_manual_by_seed_number_then_unseeded() -> None:
    entries = [Entry("a", seed=3), Entry("b"), Entry("c", seed=1), Entry("d"), Entry("e", seed=2)]
    assert seed_order(entries, "manual") == ["c", "e", "a", "b", "d"]


def test_seed_order_rating_highest_first_ties_stable_unrated_last() -> None:
    entries = [
        Entry("a", rating=1500),
        Entry("b"),
        Entry("c", rating=1800),
        Entry("d", rating=1500),
        Entry("e", rating=1500, seed=1),
        Entry("f", rating=-20),
    ]
    assert seed_order(entries, "rating") == ["c", "e", "a", "d", "f", "b"]


@given(st.lists(st.one_of(st.none(), st.integers(-3000, 3000)), min_size=1, max_size=80))
def test_seed_order_rating_is_sorted_and_a_permutation(ratings: list[int | None]) -> None:
    entries = [Entry(i, rating=r) for i, r in enumerate(ratings)]
    order = seed_order(entries, "rating")
    assert sorted(order) == list(range(len(ratings)))
    rated = [r for i in order if (r := ratings[i]) is not None]
    assert rated == sorted(rated, reverse=True)
    assert all(ratings[i] is None for i in order[len(rated) :])
    for x, y in itertools.pairwise(order):
        if ratings[x] == ratings[y]:
            assert x < y  # ties keep the given order


@given(st.integers(1, 100), st.integers(0, 2**32))
def test_seed_order_random_is_reproducible(n: int, seed: int) -> None:
    entries = [Entry(f"t{i}") for i in range(n)]
    first = seed_order(entries, "random", rng=random.Random(seed))
    again = seed_order(entries, "random", rng=random.Random(seed))
    assert first == again
    assert sorted(first) == sorted(e.id for e in entries)


def test_seed_order_random_depends_on_the_seed() -> None:
    entries = [Entry(i) for i in range(32)]
    draws = {tuple(seed_order(entries, "random", rng=random.Random(s))) for s in range(10)}
    assert len(draws) == 10


def test_seed_order_random_needs_an_rng() -> None:
    with pytest.raises(BracketError):
        seed_order([Entry(1), Entry(2)], "random")


@pytest.mark.parametrize(
    "entries, method",
    [
        ([Entry(1), Entry(1)], "manual"),
        ([Entry(1, seed=1), Entry(2, seed=1)], "manual"),
        ([Entry(1, seed=0), Entry(2)], "manual"),
        ([Entry(1), Entry(2)], "alphabetical"),
    ],
)
def test_seed_order_refuses(entries: list[Entry[int]], method: str) -> None:
    with pytest.raises(BracketError):
        seed_order(entries, method)


# ---------------------------------------------------------------------------------- structure (SE)


def test_bracket_size_and_positions() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 512)] == [2, 4, 4, 8, 8, 16, 512]
    assert seeding_positions(2) == [1, 2]
    assert seeding_positions(4) == [1, 4, 2, 3]
    assert seeding_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    for size in (2, 4, 8, 64, 512):
        pos = seeding_positions(size)
        assert sorted(pos) == list(range(1, size + 1))
        assert all(pos[i] + pos[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("n", [0, 1, MAX_ENTRIES + 1])
def test_entry_count_limits(n: int) -> None:
    with pytest.raises(BracketError):
        single_elimination(names(n))
    with pytest.raises(BracketError):
        double_elimination(names(n))


def test_duplicate_entries_refused() -> None:
    with pytest.raises(BracketError):
        single_elimination(["a", "b", "a"])


@pytest.mark.parametrize("n", SIZES)
def test_every_entry_once_in_round_one_or_a_bye(n: int) -> None:
    ids = names(n)
    b = single_elimination(ids)
    size = bracket_size(n)
    assert b.size == size
    r1 = first_round(b)
    in_r1 = [e for m in r1 for e in m.entries]
    assert None not in in_r1  # round-1 matches are between two real entries
    assert Counter(in_r1 + list(b.byes)) == Counter(ids)
    assert len(b.byes) == size - n
    assert list(b.byes) == ids[: size - n]  # byes go to the top seeds, exactly
    # a bye never meets a bye: every round-1 position holds a match or one entry with a bye
    tree_r1 = b.tree()[0].cells
    assert len(tree_r1) == size // 2
    assert all(c is not None for c in tree_r1)
    assert sorted(c.entry for c in tree_r1 if isinstance(c, Bye)) == sorted(b.byes)
    assert len(r1) + sum(isinstance(c, Bye) for c in tree_r1) == size // 2


@pytest.mark.parametrize("n", SIZES)
def test_no_bye_against_bye_in_seeding(n: int) -> None:
    pos = seeding_positions(bracket_size(n))
    pairs = [(pos[i], pos[i + 1]) for i in range(0, len(pos), 2)]
    assert all(min(p) <= n for p in pairs)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("third_place", [False, True])
def test_match_count(n: int, third_place: bool) -> None:
    b = single_elimination(names(n), third_place=third_place)
    assert len(b.matches) == n - 1 + (1 if third_place and n >= 4 else 0)
    assert len({m.key for m in b.matches}) == len(b.matches)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("third_place", [False, True])
def test_every_slot_filled_at_generation_or_fed_by_exactly_one_link(n: int, third_place: bool) -> None:
    b = single_elimination(names(n), third_place=third_place)
    fed = Counter(ref for m in b.matches for ref in (m.winner_to, m.loser_to) if ref is not None)
    for m in b.matches:
        for slot, src in enumerate(m.sources):
            ref = SlotRef(m.key, slot)
            if src.kind == "seed":
                assert src.seed is not None and src.match is None
                assert m.entries[slot] == b.seeds[src.seed - 1]
                assert fed[ref] == 0
            else:
                assert src.match is not None and src.seed is None
                assert m.entries[slot] is None
                assert fed[ref] == 1
                feeder = b.match(src.match)
                assert (feeder.winner_to if src.kind == "winner" else feeder.loser_to) == ref
    # links point forward in play order
    index = {m.key: i for i, m in enumerate(b.matches)}
    for m in b.matches:
        for link in (m.winner_to, m.loser_to):
            if link is not None:
                assert index[link.match] > index[m.key]


@pytest.mark.parametrize("n", SIZES)
def test_top_seeds_are_spread(n: int) -> None:
    ids = names(n)
    b = single_elimination(ids)
    total = b.size.bit_length() - 1
    assert first_meeting(b, ids[0], ids[1]).name == "final"  # opposite halves
    # the top 2**j seeds first meet in the round of 2**j or later (4 → semi-finals, 8 → quarter-finals):
    # seeds a < c meet no earlier than the round where 2**ceil(log2(c)) entries are left
    paths = {e: winner_path(b, e) for e in ids[:64]}
    for ci, c in enumerate(ids[:64]):
        j = (ci).bit_length()  # c is among the top 2**j seeds
        for a in ids[:ci]:
            meet = next(k for k in paths[a] if k in paths[c])
            assert b.match(meet).round >= total - j + 1, (a, c, meet)


@pytest.mark.parametrize("n", [4, 5, 7, 8, 13, 16, 33, 64, 512])
def test_seeds_one_to_four_in_different_quarters(n: int) -> None:
    ids = names(n)
    b = single_elimination(ids)
    for a in ids[:4]:
        for c in ids[:4]:
            if a < c:
                assert first_meeting(b, a, c).name in ("semi-final", "final")


@pytest.mark.parametrize(
    "n, expected",
    [
        (2, ["final"]),
        (3, ["semi-final", "final"]),
        (8, ["quarter-final", "semi-final", "final"]),
        (16, ["round of 16", "quarter-final", "semi-final", "final"]),
        (33, ["round of 64", "round of 32", "round of 16", "quarter-final", "semi-final", "final"]),
    ],
)
def test_round_names(n: int, expected: list[str]) -> None:
    b = single_elimination(names(n))
    assert [v.name for v in b.tree()] == expected
    assert [v.name for v in b.rounds(Section.MAIN)] == expected[-len(b.rounds(Section.MAIN)) :]


def test_round_names_in_chinese() -> None:
    assert round_name("round-of", 32, "zh-hans") == "32强赛"
    assert round_name("semi-final", lang="zh-hans") == "半决赛"
    assert round_name("third-place") == "third-place match"


def test_keys_are_positional() -> None:
    b = single_elimination(names(5))
    assert [m.key for m in b.matches] == ["R1-M2", "R2-M1", "R2-M2", "R3-M1"]
    assert all(m.key == f"R{m.round}-M{m.position}" for m in b.matches)
    assert b.byes == ("e001", "e002", "e003")
    assert b.match("R2-M2").entries == ("e002", "e003")  # two byes meet in round 2 (not a bye v bye)
    assert b.match("R1-M2").winner_to == SlotRef("R2-M1", 1)


def test_sixteen_team_layout() -> None:
    ids = [f"s{i}" for i in range(1, 17)]
    b = single_elimination(ids)
    assert [tuple(int(str(e)[1:]) for e in m.entries) for m in first_round(b)] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip
    assert b.match("R1-M1").winner_to == SlotRef("R2-M1", 0)
    assert b.match("R1-M2").winner_to == SlotRef("R2-M1", 1)
    assert b.match("R4-M1").winner_to is None


@pytest.mark.parametrize("n", [2, 3, 5, 8, 11, 64, 100])
def test_tree_shape(n: int) -> None:
    b = single_elimination(names(n), third_place=True)
    views = b.tree()
    assert [len(v.cells) for v in views] == [b.size // 2**r for r in range(1, len(views) + 1)]
    for v in views[1:]:
        assert all(isinstance(c, Match) and c.position == i + 1 for i, c in enumerate(v.cells))
    for i, cell in enumerate(views[0].cells):
        if isinstance(cell, Bye):
            assert cell.seed == b.seed_of(cell.entry)
            target = b.match(cell.advances_to.match)
            assert target.entries[cell.advances_to.slot] == cell.entry
            assert target.position == i // 2 + 1
        else:
            assert isinstance(cell, Match) and cell.position == i + 1
    listed = [m.key for v in b.rounds() for m in v.cells if isinstance(m, Match)]
    assert sorted(listed) == sorted(m.key for m in b.matches)


# ---------------------------------------------------------------------------------- playing (SE)


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 64), st.booleans(), st.data())
def test_random_winners_in_any_order_give_one_champion(
    n: int, third_place: bool, data: st.DataObject
) -> None:
    ids = names(n)
    b = play_any_order(single_elimination(ids, third_place=third_place), data)
    assert b.finished
    assert all(m.decided for m in b.matches)
    final = b.match(f"R{b.size.bit_length() - 1}-M1")
    assert b.champion == final.winner and b.champion in ids
    lost = losses(b)
    assert b.champion not in lost
    if third_place and n >= 4:
        semis = [m for m in b.matches if m.section is Section.MAIN and m.round == final.round - 1]
        assert set(b.match("3P").entries) == {m.loser for m in semis}
        assert b.third == b.match("3P").winner
        assert set(lost.values()) <= {1, 2}
        assert {e for e, c in lost.items() if c == 2} == {b.match("3P").loser}
    else:
        assert set(lost) == set(ids) - {b.champion}
        assert set(lost.values()) == {1}


@settings(deadline=None, max_examples=15)
@given(st.integers(65, 512), st.booleans(), st.randoms(use_true_random=False))
def test_random_winners_large_brackets(n: int, third_place: bool, rng: random.Random) -> None:
    ids = names(n)
    b = play_in_order(single_elimination(ids, third_place=third_place), rng)
    assert b.finished and b.champion in ids
    assert len([e for e, c in losses(b).items() if c >= 1]) == n - 1


@pytest.mark.parametrize("n", [2, 3, 4, 512])
def test_every_size_can_be_played_out(n: int) -> None:
    b = play_in_order(single_elimination(names(n), third_place=True), random.Random(n))
    assert b.finished and b.champion is not None


def test_third_place_gets_the_semi_final_losers() -> None:
    b = single_elimination(list("ABCDEFGH"), third_place=True)
    semis = [m for m in b.matches if m.name == "semi-final"]
    assert [m.loser_to for m in semis] == [SlotRef("3P", 0), SlotRef("3P", 1)]
    assert b.match("3P").name == "third-place match"
    assert b.match("3P").sources == (Source("loser", match="R2-M1"), Source("loser", match="R2-M2"))
    for key in ("R1-M1", "R1-M2", "R1-M3", "R1-M4"):
        b = advance(b, key, 0)
    assert b.status("3P") is MatchStatus.WAITING
    b = advance(b, "R2-M1", 1)  # D beats A
    b = advance(b, "R2-M2", 0)  # B beats C
    assert b.match("3P").entries == ("A", "C")
    assert b.match("R3-M1").entries == ("D", "B")
    assert b.status("3P") is MatchStatus.READY
    assert [m.key for m in b.ready()] == ["3P", "R3-M1"]
    b = advance(advance(b, "3P", 1), "R3-M1", 0)
    assert (b.champion, b.third) == ("D", "C")


def test_three_entries_with_third_place_have_no_third_place_match() -> None:
    b = single_elimination(["A", "B", "C"], third_place=True)
    assert [m.key for m in b.matches] == ["R1-M2", "R2-M1"]
    b = advance(b, "R1-M2", 1)
    assert b.third == "B"


def test_two_entries() -> None:
    b = single_elimination(["A", "B"], third_place=True)
    assert [(m.key, m.name, m.entries) for m in b.matches] == [("R1-M1", "final", ("A", "B"))]
    assert b.third is None
    b = advance(b, "R1-M1", 1)
    assert b.champion == "B" and b.finished


def test_advance_is_pure() -> None:
    b = single_elimination(list("ABCD"))
    after = advance(b, "R1-M1", 0)
    assert b.match("R1-M1").winner_slot is None
    assert b.match("R2-M1").entries == (None, None)
    assert after.match("R2-M1").entries == ("A", None)


def test_advance_refusals() -> None:
    b = single_elimination(list("ABCD"))
    with pytest.raises(BracketError):
        advance(b, "R2-M1", 0)  # not ready
    with pytest.raises(BracketError):
        advance(b, "R1-M1", 2)
    with pytest.raises(BracketError):
        advance(b, "R9-M9", 0)
    b = advance(b, "R1-M1", 0)
    with pytest.raises(BracketError):
        advance(b, "R1-M1", 1)  # already decided


def test_routing() -> None:
    b = single_elimination(list("ABCD"), third_place=True)
    r = routing(b, "R1-M2", 1)
    assert (r.winner, r.loser, r.winner_to, r.loser_to, r.ends_event) == (
        "C", "B", SlotRef("R2-M1", 1), SlotRef("3P", 1), False,
    )  # fmt: skip
    b = advance(advance(b, "R1-M1", 0), "R1-M2", 0)
    assert routing(b, "R2-M1", 0).ends_event
    assert not routing(b, "3P", 0).ends_event
    with pytest.raises(BracketError):
        routing(single_elimination(list("ABCD")), "R2-M1", 0)


# --------------------------------------------------------------------------------- corrections (SE)


def test_dependents_follow_the_winner_and_loser_paths() -> None:
    b = single_elimination(names(16), third_place=True)
    assert dependents(b, "R1-M1") == ["R2-M1", "R3-M1", "3P", "R4-M1"]
    assert dependents(b, "R3-M2") == ["3P", "R4-M1"]
    assert dependents(b, "R4-M1") == []
    assert dependents(b, "3P") == []


def test_reset_after_the_winner_played_on() -> None:
    b = single_elimination(list("ABCDEFGH"))
    b = advance(b, "R1-M1", 0)  # A
    b = advance(b, "R1-M2", 1)  # E
    b = advance(b, "R2-M1", 0)  # A beats E
    b = advance(b, "R1-M3", 0)  # B
    assert b.match("R3-M1").entries == ("A", None)
    reset = reset_from(b, "R1-M1")
    assert reset.affected == ("R2-M1", "R3-M1")
    assert reset.cleared_results == ("R2-M1",)
    c = reset.bracket
    assert c.match("R1-M1").entries == ("A", "H") and not c.match("R1-M1").decided
    assert c.match("R2-M1").entries == (None, "E") and not c.match("R2-M1").decided
    assert c.match("R3-M1").entries == (None, None)
    assert c.match("R2-M2").entries == ("B", None)  # untouched
    c = advance(c, "R1-M1", 1)  # the corrected result: H won
    assert c.match("R2-M1").entries == ("H", "E")


def test_reset_of_an_undecided_match_changes_nothing() -> None:
    b = single_elimination(list("ABCD"))
    reset = reset_from(b, "R1-M1")
    assert reset.bracket == b and reset.affected == () and reset.cleared_results == ()


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 64), st.booleans(), st.data())
def test_reset_then_replay(n: int, third_place: bool, data: st.DataObject) -> None:
    b = play_any_order(single_elimination(names(n), third_place=third_place), data)
    key = data.draw(st.sampled_from([m.key for m in b.matches]))
    old = b.match(key)
    reset = reset_from(b, key)
    c = reset.bracket
    assert c.status(key) is MatchStatus.READY
    assert c.match(key).entries == old.entries
    assert set(reset.affected) <= set(dependents(b, key))
    assert set(reset.cleared_results) <= set(reset.affected)
    for k in dependents(b, key):
        if k not in reset.affected:
            assert c.match(k) == b.match(k)
        assert not c.match(k).decided or k not in reset.cleared_results
    untouched = {m.key for m in b.matches} - set(dependents(b, key)) - {key}
    assert all(c.match(k) == b.match(k) for k in untouched)
    # the corrected result can be played on to a champion
    assert old.winner_slot is not None
    c = advance(c, key, 1 - old.winner_slot)
    c = play_any_order(c, data)
    assert c.finished and c.champion is not None


# ------------------------------------------------------------------------------ double elimination


@pytest.mark.parametrize("n", [*SMALL, 100, 255, 256, 257, 512])
@pytest.mark.parametrize("grand_final", list(GrandFinal))
def test_double_elimination_structure(n: int, grand_final: GrandFinal) -> None:
    ids = names(n)
    b = double_elimination(ids, grand_final=grand_final)
    played = [m for m in b.matches if m.key != "GF2"]
    assert len(played) == {"single": 2 * n - 2, "reset": 2 * n - 2, "none": 2 * n - 3}[grand_final]
    assert ("GF2" in {m.key for m in b.matches}) == (grand_final is GrandFinal.RESET)
    assert list(b.byes) == ids[: b.size - n]
    r1 = [e for m in first_round(b) for e in m.entries]
    assert Counter(r1 + list(b.byes)) == Counter(ids)
    assert first_meeting(b, ids[0], ids[1]).name == "winners' final"
    fed = Counter(ref for m in b.matches for ref in (m.winner_to, m.loser_to) if ref is not None)
    for m in b.matches:
        for slot, src in enumerate(m.sources):
            assert fed[SlotRef(m.key, slot)] == (0 if src.kind == "seed" else 1)
    for m in b.matches:
        if m.section is Section.WINNERS and m.round < b.size.bit_length() - 1:
            assert m.loser_to is not None and b.match(m.loser_to.match).section is Section.LOSERS


@settings(deadline=None, max_examples=80)
@given(st.integers(2, 48), st.sampled_from(list(GrandFinal)), st.data())
def test_double_elimination_random_play(n: int, grand_final: GrandFinal, data: st.DataObject) -> None:
    ids = names(n)
    b = play_any_order(double_elimination(ids, grand_final=grand_final), data)
    assert b.finished and b.champion in ids
    champion = b.champion
    assert champion is not None
    lost = losses(b)
    assert lost[champion] <= 1
    others = set(ids) - {b.champion}
    if grand_final is GrandFinal.RESET:
        assert all(lost[e] == 2 for e in others)
    elif grand_final is GrandFinal.SINGLE:
        runner_up = b.match("GF1").loser
        assert runner_up is not None
        assert all(lost[e] == 2 for e in others - {runner_up})
        assert lost[runner_up] in (1, 2)
    else:
        lb_final = max(
            (m for m in b.matches if m.section is Section.LOSERS), key=lambda m: m.round, default=None
        )
        runner_up = lb_final.winner if lb_final else b.matches[0].loser
        assert runner_up is not None
        assert lost[champion] == 0 and lost[runner_up] == 1
        assert all(lost[e] == 2 for e in others - {runner_up})
    # nobody plays after two losses
    seen: Counter[str] = Counter()
    for m in b.matches:
        if m.decided:
            assert all(seen[e] < 2 for e in m.entries if e is not None)
            seen[str(m.loser)] += 1


def test_grand_final_reset_only_when_the_losers_champion_wins() -> None:
    b = double_elimination(["A", "B"], grand_final="reset")
    assert [m.key for m in b.matches] == ["W1-M1", "GF1", "GF2"]
    assert b.match("W1-M1").loser_to == SlotRef("GF1", 1)
    b = advance(b, "W1-M1", 0)
    assert b.match("GF1").entries == ("A", "B")
    won = advance(b, "GF1", 0)
    assert won.status("GF2") is MatchStatus.NOT_NEEDED and won.finished and won.champion == "A"
    assert routing(b, "GF1", 0).ends_event and not routing(b, "GF1", 1).ends_event
    with pytest.raises(BracketError):
        advance(won, "GF2", 0)
    lost = advance(b, "GF1", 1)
    assert lost.match("GF2").entries == ("A", "B") and lost.status("GF2") is MatchStatus.READY
    assert lost.champion is None and not lost.finished
    assert advance(lost, "GF2", 1).champion == "B"
    # correcting the first grand final clears the reset match
    reset = reset_from(lost, "GF1")
    assert reset.affected == ("GF2",)
    assert reset.bracket.match("GF2").entries == (None, None)


def test_double_elimination_eight_layout() -> None:
    b = double_elimination(list("ABCDEFGH"))
    assert [v.name for v in b.rounds(Section.LOSERS)] == [
        "losers' round 1", "losers' round 2", "losers' round 3", "losers' final",
    ]  # fmt: skip
    assert b.match("L1-M1").sources == (Source("loser", match="W1-M1"), Source("loser", match="W1-M2"))
    # losers of winners' round 2 drop in crossed over, to put off rematches
    assert b.match("W2-M1").loser_to == SlotRef("L2-M2", 1)
    assert b.match("W2-M2").loser_to == SlotRef("L2-M1", 1)
    assert b.match("W3-M1").loser_to == SlotRef("L4-M1", 1)
    assert b.match("L4-M1").winner_to == SlotRef("GF1", 1)
    assert b.match("GF1").name == "grand final"
    assert [v.name for v in b.tree()] == ["winners' round 1", "winners' round 2", "winners' final"]


def test_double_elimination_with_byes_drops_empty_losers_matches() -> None:
    b = double_elimination(list("ABCDE"))
    # only W1-M2 (D v E) is played in winners' round 1, so its loser waits in losers' round 2
    assert [m.key for m in first_round(b)] == ["W1-M2"]
    drop = b.match("W1-M2").loser_to
    assert drop is not None and drop.match.startswith("L2-")
    assert not [m for m in b.matches if m.section is Section.LOSERS and m.round == 1]


def test_unknown_grand_final_option() -> None:
    with pytest.raises(ValueError):
        double_elimination(["A", "B"], grand_final="twice")


# --------------------------------------------------------------------------------- stored rows


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 40), st.sampled_from(["single", "single3", "reset", "none"]), st.data())
def test_rebuild_from_rows_round_trip(n: int, kind: str, data: st.DataObject) -> None:
    ids = names(n)
    if kind.startswith("single"):
        b = single_elimination(ids, third_place=kind == "single3")
    else:
        b = double_elimination(ids, grand_final=kind)
    # part-way through a tournament
    for _ in range(data.draw(st.integers(0, len(b.matches)))):
        ready = b.ready()
        if not ready:
            break
        b = advance(b, data.draw(st.sampled_from(ready)).key, data.draw(st.integers(0, 1)))
    rows = to_rows(b)
    assert all(isinstance(r, MatchRow) for r in rows)
    again = rebuild(b.format, ids, rows, third_place=b.third_place, grand_final=b.grand_final)
    assert again == b
    # rows in any order (say, as a query returns them) give the same matches in a play order
    shuffled = data.draw(st.permutations(rows))
    other = rebuild(b.format, ids, shuffled, third_place=b.third_place, grand_final=b.grand_final)
    assert sorted(other.matches, key=lambda m: m.key) == sorted(b.matches, key=lambda m: m.key)
    index = {m.key: i for i, m in enumerate(other.matches)}
    for m in other.matches:
        for link in (m.winner_to, m.loser_to):
            if link is not None:
                assert index[link.match] > index[m.key]
    assert other.byes == b.byes and other.champion == b.champion
    for m in b.matches:
        assert set(reset_from(other, m.key).affected) == set(reset_from(b, m.key).affected)


def test_rebuild_refuses_broken_rows() -> None:
    b = single_elimination(list("ABCD"))
    rows = to_rows(b)
    with pytest.raises(BracketError):  # a slot neither linked nor seeded
        rebuild("single", list("ABCD"), [r for r in rows if r.key != "R1-M1"])
    with pytest.raises(BracketError):  # duplicate key
        rebuild("single", list("ABCD"), [*rows, rows[0]])
    looped = [MatchRow("X", "main", 1, 1, ("A", None), winner_to=SlotRef("Y", 1)),
              MatchRow("Y", "main", 1, 2, ("B", None), winner_to=SlotRef("X", 1))]  # fmt: skip
    with pytest.raises(BracketError):
        rebuild("single", ["A", "B"], looped)
