"""Swiss pairing, round robin (Berger tables) and qualification, as pure data.

This module is plain Python (no Django import), in the style of :mod:`tournaments.formats.brackets`: entries
are opaque hashable ids (team primary keys, say); the models and services store what it computes.

Swiss
-----
:func:`swiss_pairings` pairs one round of a Swiss stage of a partnership variant. Each
:class:`SwissEntry` carries the entry's score (match points: win 1, draw ½, a bye counts as a win),
its previous opponents, how many byes it had, an optional rating and the sides it played.

* **Ranking.** Entries are ranked by score (highest first), then rating (highest first, unrated last),
  then the given order — pass entries in seed order (registration order, say) so it is stable.
* **Bye.** With an odd count the bye goes to the lowest-ranked entry among those with the fewest byes
  (so nobody gets a second bye while another entry has none), unless giving it to that entry would
  force a rematch that another choice (still among the fewest byes) avoids.
* **No rematches while avoidable.** The pairing is built greedily, best-ranked entry first, each
  taking its most preferred opponent *such that the entries still unpaired can be paired without a
  rematch* — decided exactly by maximum matching (Edmonds' blossom algorithm on the graph of allowed
  pairs, updated incrementally). So a pairing without rematches is found whenever one exists; when
  none exists, the number of rematches is the least possible, and they are listed in
  :attr:`SwissRound.rematches`.
* **Score groups.** An entry prefers opponents of its own score group, top half against bottom half
  (1 v 5, 2 v 6, 3 v 7, 4 v 8 in a group of eight; in an odd group the lowest entry floats down), then
  the highest-ranked entries of the lower groups (a floater meets the top of the next group).
* **Sides.** In each pairing side 0 goes to the entry that played side 0 less often (then the one
  that played side 1 last; if that does not decide, the higher-ranked entry has side 0 on odd boards
  and side 1 on even boards). Side 0 is listed first.
* **From results.** :func:`swiss_entries` builds the entries from the final results so far (forfeited
  matches do not count as meetings by default, and a forfeit win counts as a bye for the bye rule).
* **Board order.** Highest scores first (by the higher score of the pair, then the lower one, then the
  rank of the better entry). The same input always gives the same pairing.

>>> r1 = swiss_pairings([SwissEntry("A"), SwissEntry("B"), SwissEntry("C"), SwissEntry("D"), SwissEntry("E")])
>>> r1.pairings, r1.bye
((('A', 'C'), ('D', 'B')), 'E')
>>> r2 = swiss_pairings([
...     SwissEntry("A", 1, frozenset("C"), sides=(0,)), SwissEntry("B", 1, frozenset("D"), sides=(1,)),
...     SwissEntry("E", 1, byes=1), SwissEntry("C", 0, frozenset("A"), sides=(1,)),
...     SwissEntry("D", 0, frozenset("B"), sides=(0,))])
>>> r2.pairings, r2.bye
((('B', 'A'), ('C', 'E')), 'D')
>>> recommended_rounds(16), recommended_rounds(17)
(4, 5)

Round robin
-----------
:func:`round_robin` gives the rounds of an all-play-all by Berger tables: with an odd count a dummy
makes the count even and its opponent has the bye. Every pair meets exactly once per cycle; sides
alternate as in the FIDE Berger tables (each entry's side-0 and side-1 counts differ by at most one
over a cycle). A second cycle (``cycles=2``) repeats the first with the sides swapped.

>>> [(r.pairings, r.bye) for r in round_robin(["A", "B", "C"])]
[((('B', 'C'),), 'A'), ((('A', 'B'),), 'C'), ((('C', 'A'),), 'B')]

Qualification
-------------
:func:`qualifiers` takes the top N rows of a standings list (``tournaments.formats.tiebreaks`` rows, or
anything with ``entry`` and ``rank``) for an elimination stage, in standings order (the seed order of
the elimination). Ties are already broken by the stage's tiebreak order; entries still sharing a rank
across the cut are reported, and the ``ties`` policy says what happens to them.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from tournaments.formats.tiebreaks import MatchResult

__all__ = [
    "PairingError",
    "Qualification",
    "QualificationTie",
    "Ranked",
    "RoundRobinRound",
    "SwissEntry",
    "SwissRound",
    "qualifiers",
    "recommended_rounds",
    "round_robin",
    "swiss_entries",
    "swiss_pairings",
]

T = TypeVar("T", bound=Hashable)


class PairingError(ValueError):
    """A round cannot be paired as asked (duplicate entries, too few entries, bad options)."""


# ----------------------------------------------------------------------------------------- matching


class _Matcher:
    """Maximum matching in a general graph on vertices ``0..n-1`` (Edmonds' blossom algorithm).

    ``adj[v]`` lists the neighbours of ``v``; vertices can be removed (``alive``). ``mate[v]`` is the
    partner of ``v`` or ``-1``. Searches start from one exposed vertex (O(V·E) in the worst case,
    usually far less), which is all the incremental updates of the pairing need.
    """

    def __init__(self, adj: list[list[int]]) -> None:
        self.n = len(adj)
        self.adj = adj
        self.alive = [True] * self.n
        self.mate = [-1] * self.n

    def copy(self) -> _Matcher:
        other = _Matcher(self.adj)
        other.alive = self.alive[:]
        other.mate = self.mate[:]
        return other

    @property
    def size(self) -> int:
        return sum(1 for v in range(self.n) if self.alive[v] and self.mate[v] > v)

    def maximize(self) -> int:
        """Make the matching maximum on the alive vertices (greedy start, then augmenting paths)."""
        mate, alive = self.mate, self.alive
        for v in range(self.n):
            if alive[v] and mate[v] == -1:
                for w in self.adj[v]:
                    if alive[w] and mate[w] == -1:
                        mate[v], mate[w] = w, v
                        break
        for v in range(self.n):
            if alive[v] and mate[v] == -1:
                self.augment_from(v)
        return self.size

    def augment_from(self, root: int) -> bool:
        """Find an augmenting path from the exposed vertex ``root`` and flip it; ``False`` if none."""
        n, adj, mate, alive = self.n, self.adj, self.mate, self.alive
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adj[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        w = to
                        while w != -1:
                            pw = parent[w]
                            nxt = mate[pw]
                            mate[w], mate[pw] = pw, w
                            w = nxt
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def remove_pair(self, a: int, b: int) -> None:
        """Remove ``a`` and ``b`` and repair the matching, which stays maximum on the alive vertices."""
        mate = self.mate
        if mate[a] == b:
            mate[a] = mate[b] = -1
            self.alive[a] = self.alive[b] = False
            return
        freed = [m for m in (mate[a], mate[b]) if m != -1]
        for v in (a, b):
            if mate[v] != -1:
                mate[mate[v]] = -1
                mate[v] = -1
            self.alive[v] = False
        # Every augmenting path of the smaller graph with an old exposed vertex at both ends would
        # have augmented the maximum matching before; still, searching once from every exposed vertex
        # (the freed ones first) is the plain maximum-matching algorithm, correct from any start.
        for f in freed + [v for v in range(self.n) if self.alive[v] and mate[v] == -1 and v not in freed]:
            if mate[f] == -1:
                self.augment_from(f)


# -------------------------------------------------------------------------------------------- swiss


@dataclass(frozen=True)
class SwissEntry(Generic[T]):
    """One entry to pair: ``score`` in match points (win 1, draw 0.5, bye 1), the ids of its previous
    opponents, its number of byes so far, an optional rating (for ranking within a score) and the
    sides (0 or 1) it played, in round order."""

    id: T
    score: float = 0.0
    opponents: frozenset[T] = field(default_factory=frozenset)
    byes: int = 0
    rating: float | None = None
    sides: tuple[int, ...] = ()
    standing: int | None = None
    """The entry's place in the stage's own standings (tiebreaks included; 0 = first), when known:
    the bye goes to the lowest-placed entry by it (among those with the fewest byes)."""


@dataclass(frozen=True)
class SwissRound(Generic[T]):
    """A paired round: ``pairings`` in board order, each ``(side 0, side 1)``; the entry with the bye
    (or ``None``); the pairings that are unavoidable rematches (normally empty)."""

    pairings: tuple[tuple[T, T], ...]
    bye: T | None
    rematches: tuple[tuple[T, T], ...] = ()


def recommended_rounds(n: int) -> int:
    """The usual number of Swiss rounds for ``n`` entries: ⌈log₂ n⌉ (enough for a sole winner).

    >>> [recommended_rounds(n) for n in (1, 2, 3, 8, 9, 200)]
    [0, 1, 2, 3, 4, 8]
    """
    if n < 1:
        raise PairingError("There are no entries.")
    return math.ceil(math.log2(n)) if n > 1 else 0


def _rank_order(entries: Sequence[SwissEntry[T]]) -> list[int]:
    return sorted(
        range(len(entries)),
        key=lambda i: (-entries[i].score, entries[i].rating is None, -(entries[i].rating or 0.0), i),
    )


def swiss_pairings(entries: Iterable[SwissEntry[T]]) -> SwissRound[T]:
    """Pair one Swiss round (see the module docstring for the rules).

    Opponents that are not among ``entries`` (withdrawn entries) are ignored. Raises
    :class:`PairingError` for fewer than two entries or a repeated id.
    """
    given = list(entries)
    ids = [e.id for e in given]
    if len(set(ids)) != len(ids):
        raise PairingError("An entry appears twice.")
    if len(given) < 2:
        raise PairingError("A Swiss round needs at least two entries.")
    order = _rank_order(given)
    ranked = [given[i] for i in order]  # index = rank position (0 best)
    n = len(ranked)
    pos = {e.id: k for k, e in enumerate(ranked)}
    played = [{pos[o] for o in e.opponents if o in pos} for e in ranked]
    for k in range(n):  # make the relation symmetric: either side may have recorded the match
        for o in played[k]:
            played[o].add(k)
    adj = [[j for j in range(n) if j != k and j not in played[k]] for k in range(n)]

    bye: int | None = None
    matcher = _Matcher(adj)
    if n % 2:
        bye, matcher = _choose_bye(ranked, adj)
    else:
        matcher.maximize()

    pairs: list[tuple[int, int]] = []
    rematches: list[tuple[int, int]] = []
    alive = [k != bye for k in range(n)]
    for x in range(n):
        if not alive[x]:
            continue
        chosen: int | None = None
        trial = matcher
        for y in _preferences(ranked, alive, x, played[x]):
            trial = matcher.copy()
            is_rematch = y in played[x]
            before = matcher.size
            trial.remove_pair(x, y)
            if trial.size == before - (0 if is_rematch else 1):
                chosen = y
                break
        if chosen is None:  # pragma: no cover - the preference list always holds a feasible entry
            raise PairingError("No pairing found.")
        matcher = trial
        alive[x] = alive[chosen] = False
        pairs.append((x, chosen))
        if chosen in played[x]:
            rematches.append((x, chosen))

    pairs.sort(
        key=lambda p: (
            -max(ranked[p[0]].score, ranked[p[1]].score),
            -min(ranked[p[0]].score, ranked[p[1]].score),
            min(p),
        )
    )
    sided: list[tuple[T, T]] = []
    for board, (a, b) in enumerate(pairs):
        a, b = min(a, b), max(a, b)
        first = _side0_first(ranked[a], ranked[b])
        if first is None:
            first = board % 2 == 0
        sided.append((ranked[a].id, ranked[b].id) if first else (ranked[b].id, ranked[a].id))
    rematch_set = {frozenset(p) for p in rematches}
    return SwissRound(
        pairings=tuple(sided),
        bye=None if bye is None else ranked[bye].id,
        rematches=tuple(s for p, s in zip(pairs, sided, strict=True) if frozenset(p) in rematch_set),
    )


def swiss_entries(
    entries: Iterable[T],
    matches: Iterable[MatchResult[T]] = (),
    *,
    byes: Iterable[T] = (),
    ratings: Mapping[T, float] | None = None,
    forfeits_are_meetings: bool = False,
    standings: Sequence[T] | None = None,
) -> list[SwissEntry[T]]:
    """The :class:`SwissEntry` records for the next round from the final results so far (the
    ``tournaments.formats.tiebreaks`` :class:`~tournaments.formats.tiebreaks.MatchResult` records, in round order, and
    one item of ``byes`` per bye given), in the order of ``entries`` (pass them in seed order).
    ``standings``, the ids in the stage's standings order (tiebreaks included), decides who is lowest
    ranked for the bye.

    Score: win 1, draw ½, bye 1, forfeit win 1. A forfeited match was not played: the two may meet
    later (unless ``forfeits_are_meetings``), it gives no side, and — as in the FIDE rules — a forfeit
    win counts as a bye for who gets the next bye (points without playing).

    >>> from tournaments.formats.tiebreaks import MatchResult
    >>> es = swiss_entries("ABC", [MatchResult(("A", "B"), 1), MatchResult(("C", "A"), 0, forfeit=True)], byes="C")
    >>> [(e.id, e.score, sorted(e.opponents), e.byes, e.sides) for e in es]
    [('A', 0.0, ['B'], 0, (0,)), ('B', 1.0, ['A'], 0, (1,)), ('C', 2.0, [], 2, ())]
    """
    ids = list(entries)
    if len(set(ids)) != len(ids):
        raise PairingError("An entry appears twice.")
    score = dict.fromkeys(ids, 0.0)
    opponents: dict[T, set[T]] = {e: set() for e in ids}
    bye_count = dict.fromkeys(ids, 0)
    sides: dict[T, list[int]] = {e: [] for e in ids}
    for m in matches:
        for side, (me, other) in enumerate((m.sides, m.sides[::-1])):
            if me not in score:
                continue
            points = 0.5 if m.winner is None else float(m.winner == side)
            score[me] += points
            if m.forfeit:
                bye_count[me] += points == 1.0
                if forfeits_are_meetings:
                    opponents[me].add(other)
            else:
                opponents[me].add(other)
                sides[me].append(side)
    for e in byes:
        if e in score:
            score[e] += 1.0
            bye_count[e] += 1
    rate = ratings or {}
    place = {e: k for k, e in enumerate(standings or ())}
    return [
        SwissEntry(e, score[e], frozenset(opponents[e]), bye_count[e], rate.get(e), tuple(sides[e]), place.get(e))
        for e in ids
    ]


def _choose_bye(ranked: list[SwissEntry[T]], adj: list[list[int]]) -> tuple[int, _Matcher]:
    """The bye: among the entries with the fewest byes, the lowest-ranked one whose absence leaves a
    pairing with the fewest rematches (ideally none). Lowest-ranked by the stage's standings when the
    entries carry their ``standing`` (tiebreaks included), else by score and rating."""
    n = len(ranked)
    fewest = min(e.byes for e in ranked)
    candidates = [k for k in range(n - 1, -1, -1) if ranked[k].byes == fewest]
    if all(ranked[k].standing is not None for k in candidates):
        candidates.sort(key=lambda k: -(ranked[k].standing or 0))
    best: tuple[int, int, _Matcher] | None = None
    for k in candidates:
        m = _Matcher(adj)
        m.alive[k] = False
        size = m.maximize()
        if best is None or size > best[1]:
            best = (k, size, m)
        if size == (n - 1) // 2:
            break
    assert best is not None
    return best[0], best[2]


def _preferences(ranked: list[SwissEntry[T]], alive: list[bool], x: int, played: set[int]) -> list[int]:
    """The opponents ``x`` would like, best first: its score group top half v bottom half, then the
    lower groups from the top; entries never met before all come ahead of rematches."""
    rest = [k for k in range(len(ranked)) if alive[k] and k != x]
    group = [k for k in rest if ranked[k].score == ranked[x].score]
    others = [k for k in rest if ranked[k].score != ranked[x].score]
    half = (len(group) + 1) // 2  # index of x's ideal opponent in [x, *group] is len(..)//2
    ordered = group[half - 1 :] + group[: half - 1][::-1] if group else []
    prefs = ordered + others
    return [k for k in prefs if k not in played] + [k for k in prefs if k in played]


def _side0_first(a: SwissEntry[T], b: SwissEntry[T]) -> bool | None:
    """Whether ``a`` (the higher-ranked) takes side 0 against ``b``; ``None`` when their histories do
    not decide (then it alternates by board: the higher-ranked entry has side 0 on boards 1, 3, 5…)."""
    bal_a = a.sides.count(0) - a.sides.count(1)
    bal_b = b.sides.count(0) - b.sides.count(1)
    if bal_a != bal_b:
        return bal_a < bal_b
    last_a = a.sides[-1] if a.sides else None
    last_b = b.sides[-1] if b.sides else None
    if last_a != last_b and last_a is not None and last_b is not None:
        return last_a == 1
    return None


# -------------------------------------------------------------------------------------- round robin


@dataclass(frozen=True)
class RoundRobinRound(Generic[T]):
    """One round of a round robin: ``pairings`` in board order, each ``(side 0, side 1)``, and the
    entry with the bye (odd counts only)."""

    number: int
    pairings: tuple[tuple[T, T], ...]
    bye: T | None = None


def round_robin(ids: Sequence[T], *, cycles: int = 1) -> list[RoundRobinRound[T]]:
    """The rounds of an all-play-all by Berger tables, ``ids`` in seed order (seed 1 first).

    ``n`` entries (``n`` even) play ``n - 1`` rounds; an odd count plays ``n`` rounds, one entry
    having the bye each round. Round ``r`` (1-based) of the Berger table for ``n`` even: entry ``n``
    meets ``o = 1 + (r - 1)·n/2`` (mod ``n - 1``, in 1..n-1), taking side 0 in even rounds, and for
    ``k = 1 .. n/2 - 1`` entry ``o + k`` (side 0) meets ``o - k`` (side 1), both mod ``n - 1``.
    With ``cycles=2`` the second cycle repeats the first with the sides swapped.

    >>> [r.pairings for r in round_robin([1, 2, 3, 4])]
    [((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))]
    """
    items = list(ids)
    if len(set(items)) != len(items):
        raise PairingError("An entry appears twice.")
    if len(items) < 2:
        raise PairingError("A round robin needs at least two entries.")
    if cycles < 1:
        raise PairingError("A round robin has at least one cycle.")
    slots: list[T | None] = [*items, None] if len(items) % 2 else list(items)
    n = len(slots)
    m = n - 1
    half = n // 2

    def at(k: int) -> T | None:  # Berger number (1..m, taken mod m) -> entry
        return slots[(k - 1) % m]

    first: list[tuple[tuple[tuple[T, T], ...], T | None]] = []
    for r in range(1, n):
        o = (r - 1) * half % m + 1
        raw: list[tuple[T | None, T | None]] = [(slots[-1], at(o)) if r % 2 == 0 else (at(o), slots[-1])]
        raw += [(at(o + k), at(o - k)) for k in range(1, half)]
        pairs: list[tuple[T, T]] = []
        bye: T | None = None
        for a, b in raw:
            if a is None:
                bye = b
            elif b is None:
                bye = a
            else:
                pairs.append((a, b))
        first.append((tuple(pairs), bye))
    rounds: list[RoundRobinRound[T]] = []
    for c in range(cycles):
        for pairings, bye in first:
            if c % 2:
                pairings = tuple((b, a) for a, b in pairings)
            rounds.append(RoundRobinRound(len(rounds) + 1, pairings, bye))
    return rounds


# ------------------------------------------------------------------------------------ qualification


T_co = TypeVar("T_co", covariant=True)


class Ranked(Protocol[T_co]):
    """A standings row: ``tournaments.formats.tiebreaks.StandingRow`` has these."""

    @property
    def entry(self) -> T_co: ...

    @property
    def rank(self) -> int: ...


class QualificationTie(PairingError):
    """Entries share the rank at the cut and the policy is ``"raise"``: the organizer must decide."""

    def __init__(self, tied: Sequence[object], places: int) -> None:
        self.tied = tuple(tied)
        self.places = places
        super().__init__(f"{len(self.tied)} entries share the rank at the cut for {places} place(s).")


@dataclass(frozen=True)
class Qualification(Generic[T]):
    """The qualified entries in standings order (= their seed order for the elimination);
    ``tied_at_cut``: the entries sharing the rank across the cut (empty when the cut is clean);
    ``resolved_by_order``: some of them were taken by their order in the standings (policy
    ``"order"``)."""

    qualified: tuple[T, ...]
    tied_at_cut: tuple[T, ...] = ()
    resolved_by_order: bool = False


def qualifiers(
    rows: Sequence[Ranked[T]], count: int, *, ties: Literal["order", "include", "raise"] = "order"
) -> Qualification[T]:
    """The top ``count`` entries of ``rows`` (standings, best first, already ordered by the stage's
    tiebreaks; rows sharing a rank are in seed order).

    Entries still sharing a rank across the cut after every tiebreak are settled by ``ties``:
    ``"order"`` takes them in the order of ``rows`` (seed order) and flags it, ``"include"`` lets them
    all qualify (more than ``count``), ``"raise"`` raises :class:`QualificationTie`.

    >>> from types import SimpleNamespace as Row
    >>> rows = [Row(entry="a", rank=1), Row(entry="b", rank=2), Row(entry="c", rank=2), Row(entry="d", rank=4)]
    >>> qualifiers(rows, 2)
    Qualification(qualified=('a', 'b'), tied_at_cut=('b', 'c'), resolved_by_order=True)
    >>> qualifiers(rows, 3).qualified, qualifiers(rows, 2, ties="include").qualified
    (('a', 'b', 'c'), ('a', 'b', 'c'))
    """
    items = list(rows)
    if count < 1:
        raise PairingError("At least one entry qualifies.")
    if count >= len(items):
        return Qualification(tuple(r.entry for r in items))
    cut_rank = items[count - 1].rank
    tied = [r.entry for r in items if r.rank == cut_rank]
    crosses = items[count].rank == cut_rank
    if not crosses:
        return Qualification(tuple(r.entry for r in items[:count]))
    if ties == "raise":
        raise QualificationTie(tied, count - sum(1 for r in items if r.rank < cut_rank))
    if ties == "include":
        return Qualification(tuple(r.entry for r in items if r.rank <= cut_rank), tuple(tied))
    if ties != "order":
        raise PairingError(f"Unknown tie policy {ties!r}.")
    return Qualification(tuple(r.entry for r in items[:count]), tuple(tied), resolved_by_order=True)
