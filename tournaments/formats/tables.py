"""Individual table rounds for ``red-five`` and ``yongzhou-300``: who sits where, as pure data.

This module is plain Python (no Django import), in the style of :mod:`tournaments.formats.brackets`: players
are opaque hashable ids; the services store the drawn :class:`TableRound` and pass the stored rounds
back as ``previous`` for the next draw.

Table sizes
-----------
:func:`table_plan` decides the tables of a round:

* ``red-five``: tables of 4; the ``n mod 4`` players left over sit out (at least 4 players).
* ``yongzhou-300``: tables of 4 and 3 seating everybody — as many tables of the preferred size as
  possible (``prefer=4`` by default: 10 players → one table of 4 and two of 3; ``prefer=3``: as many
  3-tables as possible). Every count but 1, 2 and 5 can be covered. **5 players**: one table of 4 and
  one sit-out (seating the most players); fewer than 3 players cannot be drawn.

Sit-outs
--------
Who sits out is chosen among the players with the fewest sit-outs so far (so nobody sits out twice
before everyone present sat out once), then those who sat out longest ago (never first), then by
the random draw. A sit-out scores nothing for the round (see ``tournaments.formats.tiebreaks``).

The draw
--------
:func:`draw_round` seats the players so that as few pairs as possible sit together again: every pair
of table-mates costs the square of the number of times they already shared a table (so a third
meeting weighs more than two second ones); far smaller costs make 3-tables rotate in ``yongzhou-300``
(a player placed at one again) and spread the players due to bid first over the tables (so each table
has one). A seeded greedy start is improved by a tabu search of swaps
between tables (the social-golfer technique) until no pair repeats or the effort budget is spent.
Everything random comes from the ``rng`` passed in (``random.Random(seed)``), so a draw can be
replayed.

Then each table's seats (0..N−1, the play order) are arranged so that every player gets seats they
had least often, and the first bidder/dealer (:attr:`Table.first`, a seat index) is the player at the
table who was first least often.

>>> import random
>>> r = draw_round(range(1, 11), "yongzhou-300", rng=random.Random(7))
>>> [len(t.seats) for t in r.tables], r.sit_outs
([4, 3, 3], ())
>>> sorted(p for t in r.tables for p in t.seats) == list(range(1, 11))
True
>>> table_plan(10, "red-five"), table_plan(5, "yongzhou-300"), table_plan(10, "yongzhou-300", prefer=3)
(TablePlan(sizes=(4, 4), sit_outs=2), TablePlan(sizes=(4,), sit_outs=1), TablePlan(sizes=(4, 3, 3), sit_outs=0))
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

import variants

__all__ = [
    "VARIANTS",
    "DrawError",
    "Table",
    "TablePlan",
    "TableRound",
    "draw_round",
    "draw_rounds",
    "repeated_pairs",
    "table_mates",
    "table_plan",
]

T = TypeVar("T", bound=Hashable)

Variant = Literal["red-five", "yongzhou-300"]
VARIANTS: tuple[str, ...] = tuple(k for k, v in variants.VARIANTS.items() if not v.partnership)


class DrawError(ValueError):
    """A round cannot be drawn as asked (unknown variant, too few players, a repeated id)."""


@dataclass(frozen=True)
class TablePlan:
    """The table sizes of a round (largest first) and how many players sit out."""

    sizes: tuple[int, ...]
    sit_outs: int


@dataclass(frozen=True)
class Table(Generic[T]):
    """One table: ``seats[i]`` is the player in seat ``i`` (seats in play order); the player in seat
    ``first`` bids/deals first."""

    number: int
    seats: tuple[T, ...]
    first: int = 0

    @property
    def first_player(self) -> T:
        return self.seats[self.first]


@dataclass(frozen=True)
class TableRound(Generic[T]):
    """A drawn round: its tables (numbered from 1) and the players sitting out."""

    tables: tuple[Table[T], ...]
    sit_outs: tuple[T, ...] = ()

    @property
    def seated(self) -> tuple[T, ...]:
        return tuple(p for t in self.tables for p in t.seats)


def table_plan(n: int, variant: Variant | str, *, prefer: int | None = None) -> TablePlan:
    """The tables for ``n`` players (see the module docstring).

    >>> [table_plan(n, "yongzhou-300").sizes for n in (3, 4, 6, 7, 9, 13)]
    [(3,), (4,), (3, 3), (4, 3), (3, 3, 3), (4, 3, 3, 3)]
    """
    spec = variants.VARIANTS.get(variant) if isinstance(variant, str) else None
    if spec is None or spec.partnership:
        raise DrawError(f"Individual table rounds are for {', '.join(VARIANTS)}, not {variant!r}.")
    if not spec.variable_players:  # red five: tables of 4 only
        if prefer not in (None, 4):
            raise DrawError("red-five is played at tables of 4.")
        if n < 4:
            raise DrawError("red-five needs at least 4 players.")
        return TablePlan((4,) * (n // 4), n % 4)
    size = 4 if prefer is None else prefer
    if size not in (3, 4):
        raise DrawError("yongzhou-300 tables have 3 or 4 players.")
    if n < 3:
        raise DrawError("yongzhou-300 needs at least 3 players.")
    if n == 5:
        return TablePlan((4,), 1)
    other = 7 - size
    for count in range(n // size, -1, -1):
        rest = n - count * size
        if rest % other == 0:
            sizes = [size] * count + [other] * (rest // other)
            return TablePlan(tuple(sorted(sizes, reverse=True)), 0)
    raise AssertionError(f"{n} players cannot be seated")  # pragma: no cover - only 1, 2 and 5


def table_mates(rounds: Iterable[TableRound[T]]) -> Counter[frozenset[T]]:
    """How many times each pair of players shared a table."""
    counts: Counter[frozenset[T]] = Counter()
    for r in rounds:
        for t in r.tables:
            for a, b in itertools.combinations(t.seats, 2):
                counts[frozenset((a, b))] += 1
    return counts


def repeated_pairs(rounds: Iterable[TableRound[T]]) -> int:
    """The number of pairs of players who shared a table more than once.

    >>> r = TableRound((Table(1, ("a", "b", "c", "d")),))
    >>> repeated_pairs([r, r]), repeated_pairs([r])
    (6, 0)
    """
    return sum(1 for c in table_mates(rounds).values() if c > 1)


# ---------------------------------------------------------------------------------------------- draw


# Costs of the draw: a pair of table-mates who met c times before costs 16·c²; a player at a 3-table
# who sat at one s times before costs 2·s; two players who were first bidder least often (so each
# "due" to bid first) at the same table cost 1, to spread them over the tables.
_PAIR_WEIGHT = 16
_SMALL_WEIGHT = 2
_DUE_WEIGHT = 1


def draw_round(
    players: Iterable[T],
    variant: Variant | str,
    *,
    rng: random.Random,
    previous: Sequence[TableRound[T]] = (),
    prefer: int | None = None,
    effort: int = 4000,
    lookahead: int = 32,
) -> TableRound[T]:
    """Draw the next round for ``players`` (everyone taking part in it, in a stable order such as
    registration order), given the rounds drawn so far.

    Players in ``previous`` who are not in ``players`` (withdrawn) are ignored. ``effort`` bounds the
    local search (about ``4·effort / n`` improving moves, at least 50); ``lookahead`` bounds how many
    other draws without repeats are tried when the drawn one would leave no round without repeats
    after it (``32·16 / n`` of them, at least 2). The defaults keep a draw well under a second for 5
    to 200 players.
    """
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise DrawError("A player appears twice.")
    plan = table_plan(len(ids), variant, prefer=prefer)
    index = {p: i for i, p in enumerate(ids)}

    sat_out = Counter[int]()
    last_out: dict[int, int] = {}
    seat_count = [Counter[int]() for _ in ids]
    first_count = [0] * len(ids)
    small_count = [0] * len(ids)
    for rnd, r in enumerate(previous):
        for p in r.sit_outs:
            if p in index:
                sat_out[index[p]] += 1
                last_out[index[p]] = rnd
        for t in r.tables:
            small = len(t.seats) < 4
            for s, p in enumerate(t.seats):
                if p in index:
                    i = index[p]
                    seat_count[i][s] += 1
                    first_count[i] += s == t.first
                    small_count[i] += small

    # Sit-outs: fewest so far, then longest ago, then by lot.
    lots = [rng.random() for _ in ids]
    out = sorted(range(len(ids)), key=lambda i: (sat_out[i], last_out.get(i, -1), lots[i]))[: plan.sit_outs]
    out_set = set(out)
    seated = [i for i in range(len(ids)) if i not in out_set]

    mates = table_mates(previous)
    m = len(seated)
    due = min((first_count[i] for i in seated), default=0)
    weight = [[0] * m for _ in range(m)]
    for a in range(m):
        pa = ids[seated[a]]
        a_due = first_count[seated[a]] == due
        for b in range(a + 1, m):
            c = mates.get(frozenset((pa, ids[seated[b]])), 0)
            w = _PAIR_WEIGHT * c * c + (_DUE_WEIGHT if a_due and first_count[seated[b]] == due else 0)
            if w:
                weight[a][b] = weight[b][a] = w
    slot_cost = [
        [_SMALL_WEIGHT * small_count[seated[a]] if size < 4 else 0 for size in plan.sizes] for a in range(m)
    ]
    # A lower bound of the cost, to stop searching once it is reached: no repeated pair, the players
    # due to bid first spread evenly, the 3-table seats to those who sat at one least often.
    k = len(plan.sizes)
    n_due = sum(1 for i in seated if first_count[i] == due)
    q, extra = divmod(n_due, k)
    target = _DUE_WEIGHT * (extra * (q + 1) * q // 2 + (k - extra) * q * (q - 1) // 2)
    small_seats = sum(size for size in plan.sizes if size < 4)
    target += _SMALL_WEIGHT * sum(sorted(small_count[i] for i in seated)[:small_seats])
    groups, _ = _partition(weight, slot_cost, plan.sizes, rng, effort, target)
    # Look one round ahead: a round can be perfect and still leave no perfect round after it (16
    # players: a third round shaped like the cyclic Latin square of order 4 has no orthogonal mate).
    # While the next round would need repeats, try other draws of this one without repeats — every
    # other one ignoring the lesser costs, which narrow the choice — and keep the one leaving the
    # best next round (then the cheapest).
    pair_only = [[_PAIR_WEIGHT * (w // _PAIR_WEIGHT) for w in row] for row in weight]
    if lookahead > 0 and k > 1 and _pair_cost(pair_only, groups) == 0:
        no_slots = [[0] * k for _ in range(m)]
        quick = max(effort // 8, 1)

        def full_cost(gs: list[list[int]]) -> int:
            return _pair_cost(weight, gs) + sum(slot_cost[a][t] for t, g in enumerate(gs) for a in g)

        best_groups = groups
        best_key = (_next_round_cost(pair_only, groups, no_slots, plan.sizes, rng, quick), full_cost(groups))
        attempts = max(2, lookahead * 16 // m) if best_key[0] > 0 else 0  # fewer for big fields
        for attempt in range(attempts):
            if attempt % 2:
                groups, _ = _partition(pair_only, slot_cost, plan.sizes, rng, quick)
            else:
                groups, _ = _partition(weight, slot_cost, plan.sizes, rng, quick, target)
            if _pair_cost(pair_only, groups) > 0:
                continue
            key = (_next_round_cost(pair_only, groups, no_slots, plan.sizes, rng, quick), full_cost(groups))
            if key < best_key:
                best_groups, best_key = groups, key
                if key[0] == 0 and key[1] <= target:
                    break
        groups = best_groups

    tables: list[Table[T]] = []
    for number, group in enumerate(groups, start=1):
        members = [seated[a] for a in group]
        tables.append(_seat(ids, members, seat_count, first_count, rng, number))
    return TableRound(tuple(tables), tuple(ids[i] for i in sorted(out)))


def draw_rounds(
    players: Sequence[T],
    variant: Variant | str,
    rounds: int,
    *,
    rng: random.Random,
    prefer: int | None = None,
    previous: Sequence[TableRound[T]] = (),
) -> list[TableRound[T]]:
    """Draw ``rounds`` rounds one after the other (the same players each round)."""
    drawn = list(previous)
    for _ in range(rounds):
        drawn.append(draw_round(players, variant, rng=rng, previous=drawn, prefer=prefer))
    return drawn[len(previous) :]


def _partition(
    weight: list[list[int]],
    slot_cost: list[list[int]],
    sizes: Sequence[int],
    rng: random.Random,
    effort: int,
    target: int = 0,
) -> tuple[list[list[int]], int]:
    """Split players ``0..m-1`` into tables of ``sizes`` minimising the sum of ``weight`` over
    table-mates plus ``slot_cost[player][table]``: greedy start, then tabu search over swaps, until
    the cost is down to ``target`` (a lower bound) or the effort is spent."""
    m = len(weight)
    k = len(sizes)
    table, members = _greedy_tables(weight, slot_cost, sizes, rng)
    conf = _conflicts(weight, slot_cost, members)
    current = _total(conf, slot_cost, table)
    best_cost, best_table = current, table[:]
    if current <= target or k < 2:
        return [list(g) for g in members], current
    tabu: dict[tuple[int, int], int] = {}
    iterations = max(50, effort * 4 // max(m, 1))
    stale = 0
    for it in range(iterations):
        move, move_delta = _best_swap(weight, conf, table, tabu, it, current, best_cost, rng)
        if move is None:  # every move is tabu (few tables): forget them
            tabu.clear()
            continue
        a, b = move
        ta, tb = table[a], table[b]
        tabu[(a, ta)] = it + 3 + rng.randrange(8)
        tabu[(b, tb)] = it + 3 + rng.randrange(8)
        _swap(table, members, a, b)
        for p in range(m):
            wp = weight[p]
            if wp[a] or wp[b]:
                conf[p][ta] += wp[b] - wp[a]
                conf[p][tb] += wp[a] - wp[b]
        current += move_delta
        if current < best_cost:
            best_cost, best_table, stale = current, table[:], 0
            if current <= target:
                break
        else:
            stale += 1
            if stale > 30:  # perturb: a few random swaps
                stale = 0
                for _ in range(2):
                    a, b = rng.randrange(m), rng.randrange(m)
                    if table[a] != table[b]:
                        _swap(table, members, a, b)
                conf = _conflicts(weight, slot_cost, members)
                current = _total(conf, slot_cost, table)
    groups: list[list[int]] = [[] for _ in range(k)]
    for p in range(m):
        groups[best_table[p]].append(p)
    return groups, best_cost


def _greedy_tables(weight: list[list[int]], slot_cost: list[list[int]], sizes: Sequence[int],
                   rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """(each player's table, each table's players): players in a random order, each to the cheapest
    table with room (ties: the emptiest, then the first)."""
    m = len(weight)
    k = len(sizes)
    order = list(range(m))
    rng.shuffle(order)
    table = [-1] * m
    members: list[list[int]] = [[] for _ in range(k)]
    for p in order:
        best_t, best = -1, (0, 0)
        for t in range(k):
            if len(members[t]) < sizes[t]:
                c = sum(weight[p][q] for q in members[t]) + slot_cost[p][t]
                key = (c, len(members[t]) - sizes[t])
                if best_t < 0 or key < best:
                    best_t, best = t, key
        table[p] = best_t
        members[best_t].append(p)
    return table, members


def _conflicts(weight: list[list[int]], slot_cost: list[list[int]], members: list[list[int]]) -> list[list[int]]:
    """conf[p][t]: what p would pay at table t (its weight to t's members, itself excluded, + slot cost)."""
    return [
        [sum(weight[p][q] for q in group if q != p) + slot_cost[p][t] for t, group in enumerate(members)]
        for p in range(len(weight))
    ]


def _total(conf: list[list[int]], slot_cost: list[list[int]], table: list[int]) -> int:
    """The cost of the seating: each pair is in both members' conf, so it is counted once."""
    m = len(table)
    slots = sum(slot_cost[p][table[p]] for p in range(m))
    return (sum(conf[p][table[p]] for p in range(m)) - slots) // 2 + slots


def _best_swap(weight: list[list[int]], conf: list[list[int]], table: list[int], tabu: dict[tuple[int, int], int],
               it: int, current: int, best_cost: int, rng: random.Random) -> tuple[tuple[int, int] | None, int]:
    """The swap of a conflicted player with one at another table that lowers the cost most (ties drawn
    at random), a tabu move only when it beats the best cost yet; (None, 0) when every move is tabu."""
    m = len(table)
    conflicted = [p for p in range(m) if conf[p][table[p]] > 0]
    move: tuple[int, int] | None = None
    move_delta = 0
    ties = 0
    for a in conflicted:
        ta = table[a]
        ca = conf[a][ta]
        wa = weight[a]
        for b in range(m):
            tb = table[b]
            if tb == ta:
                continue
            delta = (conf[a][tb] - wa[b] - ca) + (conf[b][ta] - wa[b] - conf[b][tb])
            is_tabu = tabu.get((a, tb), -1) >= it or tabu.get((b, ta), -1) >= it
            if is_tabu and current + delta >= best_cost:
                continue
            if move is None or delta < move_delta:
                move, move_delta, ties = (a, b), delta, 1
            elif delta == move_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    move = (a, b)
    return move, move_delta


def _swap(table: list[int], members: list[list[int]], a: int, b: int) -> None:
    """Players ``a`` and ``b`` (at different tables) change places."""
    ta, tb = table[a], table[b]
    members[ta].remove(a)
    members[tb].remove(b)
    members[ta].append(b)
    members[tb].append(a)
    table[a], table[b] = tb, ta


def _pair_cost(weight: list[list[int]], groups: list[list[int]]) -> int:
    return sum(weight[a][b] for g in groups for a, b in itertools.combinations(g, 2))


def _next_round_cost(
    pair_only: list[list[int]],
    groups: list[list[int]],
    no_slots: list[list[int]],
    sizes: Sequence[int],
    rng: random.Random,
    effort: int,
) -> int:
    """The repeated-pair cost of the best next round found if ``groups`` is played now."""
    weight = [row[:] for row in pair_only]
    for g in groups:
        for a, b in itertools.combinations(g, 2):
            c = math.isqrt(weight[a][b] // _PAIR_WEIGHT) + 1  # meetings so far, plus this one
            weight[a][b] = weight[b][a] = _PAIR_WEIGHT * c * c
    return _partition(weight, no_slots, sizes, rng, effort)[1]


def _seat(
    ids: list[T],
    members: list[int],
    seat_count: list[Counter[int]],
    first_count: list[int],
    rng: random.Random,
    number: int,
) -> Table[T]:
    """Arrange one table: the seats each player had least often, the first bidder among those who
    were first least often."""
    perms = list(itertools.permutations(members))
    rng.shuffle(perms)
    best = min(perms, key=lambda perm: sum(seat_count[p][s] for s, p in enumerate(perm)))
    lowest = min(first_count[p] for p in members)
    candidates = [s for s, p in enumerate(best) if first_count[p] == lowest]
    first = candidates[rng.randrange(len(candidates))]
    return Table(number, tuple(ids[p] for p in best), first)
