"""Standings with an ordered, configurable list of tiebreaks, as pure data.

This module is plain Python (no Django import), in the style of :mod:`tournaments.formats.brackets`: entries
are opaque hashable ids; the services pass the final results of a stage and show the rows.

Partnership stages (Swiss, round robin)
---------------------------------------
:func:`standings` ranks entries from :class:`MatchResult` records (the two sides, the winner or a
draw, the final level gap, whether it was a forfeit) and the byes given. ``tiebreaks`` is the ordered
list of criteria, the first being the main one; each is applied only to the entries still tied:

``match_wins``
    Match points: win 1, draw ½, loss 0; a bye and a forfeit win count as wins, a forfeit loss as a
    loss.
``wins``
    The number of matches won (byes and forfeit wins included).
``level_difference`` (级差)
    The sum of the level gaps at the end of each match, from the entry's side (``level_gap`` is side
    0's level minus side 1's, so side 1 counts it negated). A forfeit counts as a gap of
    ``forfeit_gap`` (default 0) for the winner and minus that for the loser, whatever the result
    holds; a bye counts ``bye_gap`` (default 0).
``head_to_head``
    Only between **exactly two** entries still tied: the one with more match points in their
    match(es) against each other ranks first (forfeits count). Three or more tied entries, or two
    that did not meet or split their matches, stay tied. Its column shows the entry's points against
    the other one, or nothing where it did not apply.
``buchholz``
    The sum of the opponents' match points (their final ``match_wins``).
``sonneborn_berger``
    The sum of the match points of the opponents beaten, plus half of those drawn with.

**Byes and forfeits in Buchholz and Sonneborn–Berger** (the FIDE "virtual opponent" convention,
simplified): a bye, a forfeit win and a forfeit loss are *unplayed* matches; each counts as a virtual
opponent whose score is the entry's own final match points (``unplayed="own_score"``, the default) or
zero (``unplayed="zero"``). So a bye or forfeit win adds that score to both Buchholz and
Sonneborn–Berger, a forfeit loss adds it to Buchholz only. Matches with an entry that is not in
``entries`` (withdrawn) still count for its opponents, with its match points.

Individual stages (red-five, yongzhou-300)
------------------------------------------
:func:`individual_standings` ranks players from :class:`TableResult` records (one per table and round:
the players and their cumulative points at that table — game points in ``red-five``, net in
``yongzhou-300`` — and optionally the hands each won). Criteria: ``game_points`` / ``net`` (the
same total under each variant's name), ``average`` (points per table played), ``hands_won``,
``tables`` (tables played). A round sat out scores 0 — the average result, both games being zero-sum —
and counts as no table played, so ``average`` ranks players who sat out fairly.

Ranks
-----
Entries still tied after every criterion share a rank, the next rank skipping ("1224"); tied rows
keep the order of ``entries`` (pass them in seed order). Each :class:`StandingRow` holds the rank, the
entry, every criterion's value (``values``, in the given order) and the entry's record.

>>> rows = standings(["A", "B", "C", "D"], [
...     MatchResult(("A", "B"), winner=0, level_gap=4), MatchResult(("C", "D"), winner=0, level_gap=2),
...     MatchResult(("A", "C"), winner=1, level_gap=-1), MatchResult(("B", "D"), winner=None)],
...     tiebreaks=["match_wins", "level_difference"])
>>> [(r.rank, r.entry, r.values["match_wins"], r.values["level_difference"]) for r in rows]
[(1, 'C', 2, 3), (2, 'A', 1, 3), (3, 'D', 0.5, -2), (4, 'B', 0.5, -4)]
>>> rows = standings(["A", "B", "C", "D"], [
...     MatchResult(("A", "B"), winner=0, level_gap=4), MatchResult(("C", "D"), winner=0, level_gap=2),
...     MatchResult(("A", "C"), winner=1, level_gap=-1), MatchResult(("B", "D"), winner=None)],
...     tiebreaks=["match_wins", "head_to_head"])
>>> [(r.rank, r.entry, r.values["head_to_head"]) for r in rows]
[(1, 'C', None), (2, 'A', None), (3, 'B', 0.5), (3, 'D', 0.5)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, Literal, TypeVar

__all__ = [
    "DEFAULT_INDIVIDUAL",
    "DEFAULT_PARTNERSHIP",
    "INDIVIDUAL_TIEBREAKS",
    "PARTNERSHIP_TIEBREAKS",
    "MatchResult",
    "StandingRow",
    "TableResult",
    "TiebreakError",
    "TiebreakOptions",
    "individual_standings",
    "standings",
]

T = TypeVar("T", bound=Hashable)

PARTNERSHIP_TIEBREAKS: tuple[str, ...] = (
    "match_wins",
    "wins",
    "level_difference",
    "head_to_head",
    "buchholz",
    "sonneborn_berger",
)
INDIVIDUAL_TIEBREAKS: tuple[str, ...] = ("game_points", "net", "average", "hands_won", "tables")
DEFAULT_PARTNERSHIP: tuple[str, ...] = (
    "match_wins",
    "level_difference",
    "head_to_head",
    "buchholz",
    "sonneborn_berger",
)
DEFAULT_INDIVIDUAL: tuple[str, ...] = ("game_points", "average", "hands_won")

Number = int | float


class TiebreakError(ValueError):
    """Standings cannot be computed as asked (unknown criterion, malformed result)."""


@dataclass(frozen=True)
class MatchResult(Generic[T]):
    """A final match result: ``sides`` (side 0, side 1); ``winner`` 0 or 1, or ``None`` for a draw;
    ``level_gap``: side 0's final level minus side 1's (positive when side 0 is ahead); ``forfeit``:
    the loser forfeited (the match was not played; needs a winner)."""

    sides: tuple[T, T]
    winner: int | None
    level_gap: int = 0
    forfeit: bool = False


@dataclass(frozen=True)
class TableResult(Generic[T]):
    """One table of an individual round: the players and each one's points for the round (game
    points in ``red-five``, net in ``yongzhou-300``), and optionally the hands each won."""

    players: tuple[T, ...]
    points: tuple[int, ...]
    hands_won: tuple[int, ...] | None = None


@dataclass(frozen=True)
class TiebreakOptions:
    """``unplayed``: the virtual opponent's score for byes and forfeits in Buchholz and
    Sonneborn–Berger (the entry's own match points, or zero); ``forfeit_gap``: the level gap a forfeit
    counts for the winner (minus it for the loser); ``bye_gap``: the level gap a bye counts."""

    unplayed: Literal["own_score", "zero"] = "own_score"
    forfeit_gap: int = 0
    bye_gap: int = 0


@dataclass(frozen=True)
class StandingRow(Generic[T]):
    """One line of the standings: ``rank`` (shared by tied entries: "1224"), the entry, ``values``
    (criterion → value, in the order asked; ``None`` where head-to-head did not apply), ``record``
    (counts: partnership ``played``, ``wins``, ``draws``, ``losses``, ``byes``, ``forfeit_wins``,
    ``forfeit_losses``; individual ``tables``, ``sit_outs``) and ``shared`` (another entry has the
    same rank)."""

    rank: int
    entry: T
    values: dict[str, Number | None]
    record: dict[str, int] = field(default_factory=dict)
    shared: bool = False


def _num(value: Fraction | None) -> Number | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def _check_keys(tiebreaks: Sequence[str], allowed: tuple[str, ...]) -> list[str]:
    keys = list(tiebreaks)
    if not keys:
        raise TiebreakError("At least one criterion is needed.")
    for key in keys:
        if key not in allowed:
            raise TiebreakError(f"Unknown criterion {key!r}; choose from {', '.join(allowed)}.")
    if len(set(keys)) != len(keys):
        raise TiebreakError("A criterion is listed twice.")
    return keys


def _check_entries(entries: Iterable[T]) -> list[T]:
    items = list(entries)
    if len(set(items)) != len(items):
        raise TiebreakError("An entry appears twice.")
    return items


def _rank(
    entries: list[T],
    keys: list[str],
    static: dict[str, dict[T, Fraction]],
    versus: Callable[[T, T], Fraction | None] | None,
    records: dict[T, dict[str, int]],
) -> list[StandingRow[T]]:
    """Split the tied groups criterion by criterion (higher is better), then give "1224" ranks."""
    values: dict[T, dict[str, Fraction | None]] = {e: {} for e in entries}
    groups: list[list[T]] = [entries]
    for key in keys:
        split: list[list[T]] = []
        for group in groups:
            if key == "head_to_head":
                assert versus is not None
                for e in group:
                    values[e][key] = None
                if len(group) != 2:
                    split.append(group)
                    continue
                a, b = group
                pa, pb = versus(a, b), versus(b, a)
                values[a][key], values[b][key] = pa, pb
                if pa is None or pb is None or pa == pb:
                    split.append(group)
                else:
                    split.extend([[a], [b]] if pa > pb else [[b], [a]])
                continue
            column = static[key]
            for e in group:
                values[e][key] = column[e]
            ordered = sorted(group, key=lambda e: -column[e])  # stable: ties keep the given order
            run: list[T] = []
            for e in ordered:
                if run and column[run[-1]] != column[e]:
                    split.append(run)
                    run = []
                run.append(e)
            if run:
                split.append(run)
        groups = split
    rows: list[StandingRow[T]] = []
    for group in groups:
        rank = len(rows) + 1
        for e in group:
            rows.append(
                StandingRow(
                    rank=rank,
                    entry=e,
                    values={k: _num(values[e][k]) for k in keys},
                    record=records[e],
                    shared=len(group) > 1,
                )
            )
    return rows


# --------------------------------------------------------------------------------------- partnership


def standings(
    entries: Iterable[T],
    matches: Iterable[MatchResult[T]] = (),
    *,
    byes: Iterable[T] = (),
    tiebreaks: Sequence[str] = DEFAULT_PARTNERSHIP,
    options: TiebreakOptions | None = None,
) -> list[StandingRow[T]]:
    """The standings of a partnership stage (see the module docstring), best first.

    ``byes`` has one item per bye given (an entry with two byes appears twice).

    >>> rows = standings(["A", "B", "C"], [MatchResult(("A", "B"), 0, 3), MatchResult(("B", "C"), 1, -2)],
    ...                  byes=["C", "A"], tiebreaks=["match_wins", "buchholz", "sonneborn_berger"])
    >>> [(r.rank, r.entry, r.values["match_wins"], r.values["buchholz"], r.values["sonneborn_berger"]) for r in rows]
    [(1, 'A', 2, 2, 2), (1, 'C', 2, 2, 2), (3, 'B', 0, 4, 0)]
    """
    opts = options or TiebreakOptions()
    if opts.unplayed not in ("own_score", "zero"):
        raise TiebreakError(f"Unknown convention for unplayed matches {opts.unplayed!r}.")
    items = _check_entries(entries)
    keys = _check_keys(tiebreaks, PARTNERSHIP_TIEBREAKS)
    results = list(matches)
    bye_list = list(byes)

    score: dict[T, Fraction] = defaultdict(Fraction)
    wins: dict[T, Fraction] = defaultdict(Fraction)
    gap: dict[T, Fraction] = defaultdict(Fraction)
    record: dict[T, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(
            ("played", "wins", "draws", "losses", "byes", "forfeit_wins", "forfeit_losses"), 0
        )
    )
    # (opponent or None for a virtual one, the entry's result in that match)
    faced: dict[T, list[tuple[T | None, Fraction]]] = defaultdict(list)
    mutual: dict[tuple[T, T], Fraction] = defaultdict(Fraction)
    met: set[tuple[T, T]] = set()
    one, half, zero = Fraction(1), Fraction(1, 2), Fraction(0)

    for m in results:
        a, b = m.sides
        if a == b:
            raise TiebreakError(f"An entry cannot play itself ({a!r}).")
        if m.winner not in (None, 0, 1):
            raise TiebreakError("The winner is side 0, side 1 or None (a draw).")
        if m.forfeit and m.winner is None:
            raise TiebreakError("A forfeit needs a winner.")
        res_a = half if m.winner is None else (one if m.winner == 0 else zero)
        res_b = one - res_a
        for e, r, g in ((a, res_a, Fraction(m.level_gap)), (b, res_b, Fraction(-m.level_gap))):
            rec = record[e]
            score[e] += r
            if m.forfeit:
                won = r == one
                rec["forfeit_wins" if won else "forfeit_losses"] += 1
                wins[e] += r
                gap[e] += opts.forfeit_gap if won else -opts.forfeit_gap
                faced[e].append((None, r))
            else:
                rec["played"] += 1
                rec["wins" if r == one else "losses" if r == zero else "draws"] += 1
                wins[e] += 1 if r == one else 0
                gap[e] += g
                faced[e].append((b if e == a else a, r))
        mutual[(a, b)] += res_a
        mutual[(b, a)] += res_b
        met.update({(a, b), (b, a)})
    for e in bye_list:
        score[e] += one
        wins[e] += one
        gap[e] += opts.bye_gap
        record[e]["byes"] += 1
        faced[e].append((None, one))

    def virtual(e: T) -> Fraction:
        return score[e] if opts.unplayed == "own_score" else zero

    static: dict[str, dict[T, Fraction]] = {
        "match_wins": {e: score[e] for e in items},
        "wins": {e: wins[e] for e in items},
        "level_difference": {e: gap[e] for e in items},
        "buchholz": {
            e: sum((virtual(e) if o is None else score[o] for o, _ in faced[e]), zero) for e in items
        },
        "sonneborn_berger": {
            e: sum(((virtual(e) if o is None else score[o]) * r for o, r in faced[e]), zero) for e in items
        },
    }

    def versus(a: T, b: T) -> Fraction | None:
        return mutual[(a, b)] if (a, b) in met else None

    return _rank(items, keys, static, versus, {e: dict(record[e]) for e in items})


# ---------------------------------------------------------------------------------------- individual


def individual_standings(
    players: Iterable[T],
    tables: Iterable[TableResult[T]],
    *,
    sit_outs: Iterable[T] = (),
    tiebreaks: Sequence[str] = DEFAULT_INDIVIDUAL,
) -> list[StandingRow[T]]:
    """The standings of an individual stage (see the module docstring), best first.

    ``sit_outs`` has one item per round sat out (they score 0 and count in ``record`` only).

    >>> rows = individual_standings(["a", "b", "c", "d", "e"], [
    ...     TableResult(("a", "b", "c", "d"), (6, -2, -2, -2)), TableResult(("e", "b", "c", "d"), (3, 3, -3, -3))],
    ...     sit_outs=["e", "a"], tiebreaks=["game_points", "average"])
    >>> [(r.rank, r.entry, r.values["game_points"], r.values["average"]) for r in rows]
    [(1, 'a', 6, 6), (2, 'e', 3, 3), (3, 'b', 1, 0.5), (4, 'c', -5, -2.5), (4, 'd', -5, -2.5)]
    """
    items = _check_entries(players)
    keys = _check_keys(tiebreaks, INDIVIDUAL_TIEBREAKS)
    points: dict[T, Fraction] = defaultdict(Fraction)
    hands: dict[T, Fraction] = defaultdict(Fraction)
    record: dict[T, dict[str, int]] = defaultdict(lambda: {"tables": 0, "sit_outs": 0})
    for t in tables:
        if len(t.points) != len(t.players) or (
            t.hands_won is not None and len(t.hands_won) != len(t.players)
        ):
            raise TiebreakError("A table result needs one figure per player.")
        if len(set(t.players)) != len(t.players):
            raise TiebreakError("A player appears twice at one table.")
        for k, p in enumerate(t.players):
            points[p] += t.points[k]
            if t.hands_won is not None:
                hands[p] += t.hands_won[k]
            record[p]["tables"] += 1
    for p in sit_outs:
        record[p]["sit_outs"] += 1
    total = {p: points[p] for p in items}
    static: dict[str, dict[T, Fraction]] = {
        "game_points": total,
        "net": total,
        "average": {
            p: points[p] / record[p]["tables"] if record[p]["tables"] else Fraction(0) for p in items
        },
        "hands_won": {p: hands[p] for p in items},
        "tables": {p: Fraction(record[p]["tables"]) for p in items},
    }
    return _rank(items, keys, static, None, {p: dict(record[p]) for p in items})
