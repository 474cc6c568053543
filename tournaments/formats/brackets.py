"""Elimination brackets as pure data: seeding, generation, advancing winners, resetting after a correction.

This module is plain Python (no Django import); the models and services of ``tournaments`` store what
it computes and call it again to decide where a winner goes.

Seeding
-------
:func:`seed_order` turns :class:`Entry` records (an opaque hashable id with an optional rating and manual
seed number) into a list of ids, best seed first, by one of three methods: ``"manual"``, ``"rating"``
or ``"random"`` (with a caller-supplied, seeded :class:`random.Random`, so a draw can be replayed).

Generation
----------
:func:`single_elimination` (and :func:`double_elimination`, the format of the next issue) take the ids
in seed order and return a :class:`Bracket`: an immutable value holding every match to be played.

The bracket size is the next power of two; seeds are placed in the usual recursive order (for 8:
1 v 8, 4 v 5, 2 v 7, 3 v 6 — each half of a bracket of 2^k is the bracket of 2^(k-1) with every seed s
paired with 2^k + 1 - s), so seeds 1 and 2 can only meet in the final, seeds 1-4 only from the
semi-finals on, the top 2^j seeds only from the round of 2^j on. The ``size - n`` missing seed numbers
are the byes; seed s meets seed ``size + 1 - s``, so they pair with the top seeds and, as n > size/2,
a bye never meets a bye.

**Byes are resolved at generation time: there is no match row for a bye.** A seed with a bye is placed
directly into its round-2 slot (``Bracket.byes`` lists them; :meth:`Bracket.tree` shows them as
:class:`Bye` cells for drawing). So every stored match has two real contestants (or slots waiting for
the winner/loser of an earlier real match), the number of matches of a single elimination of ``n``
entries is exactly ``n - 1`` (plus one third-place match when asked for and ``n >= 4``), and the models
need no "bye" status and no empty-slot special cases. The same rule ("a match with one structurally
empty slot does not exist; whoever would fill the other slot goes on to where its winner would go")
is applied to every match, which is what makes double elimination with byes work (a loser of a bye
"match" does not exist, so the losers'-bracket match waiting for it disappears too).

Match keys are stable and positional: ``R{round}-M{position}`` where the position counts every match of
the full power-of-two bracket, so round 1 has gaps where the byes are (with 5 entries the only round-1
match is ``R1-M2``, seeds 4 v 5; seeds 1, 2 and 3 start in round 2). Double elimination uses
``W{r}-M{p}``, ``L{r}-M{p}``, ``GF1`` and ``GF2``; the third-place match is ``3P``. ``Bracket.matches``
is in a play order (every match after the ones feeding it), which is also a good creation order.

Data model implied for the Django ``Match`` rows (one row per :class:`Match`)
---------------------------------------------------------------------------
* ``key`` (unique per stage), ``section`` (:class:`Section` value), ``round``, ``position``;
* two entry slots ``entry_0`` / ``entry_1`` (nullable: empty until the feeding match is decided);
* ``winner_slot`` (null, 0 or 1);
* ``next_match`` + ``next_slot`` (where the winner goes; null for a final);
* ``loser_next_match`` + ``loser_next_slot`` (semi-finals to the third-place match, winners' bracket to
  losers' bracket, grand final to its reset);
* ``final_if_won_by`` (null, 0 or 1): only the first grand final of a double elimination with a reset
  has it — if the entry in that slot (the winners'-bracket champion) wins, the event is over and the
  reset match ``GF2`` is not played (:attr:`MatchStatus.NOT_NEEDED`).

The stage row holds the format (``single``/``double``), ``third_place``, the grand-final option, and
the entries' seed numbers. Everything else (round names, which slot waits for whom, byes, the champion)
is derived: :func:`to_rows` gives the rows to create, and :func:`rebuild` turns stored rows back into a
:class:`Bracket` so the services can call :func:`reset_from` or draw :meth:`Bracket.tree`.

Advancing and corrections
-------------------------
:func:`advance` records a winner and places the winner and loser in their next slots, returning a new
bracket. :func:`routing` answers where they go without changing anything. :func:`dependents` lists
every later match that can depend on a match's result; :func:`reset_from` clears a decided match and
everything that was built on it (the entries it sent on, and the results of matches they played),
reporting which later matches were touched — what an organizer must be warned about when forcing a
correction of a finished match whose winner already played on. After a reset, call :func:`advance`
again with the corrected winner.

>>> b = single_elimination(["A", "B", "C", "D", "E"])
>>> [m.key for m in b.matches], b.byes
(['R1-M2', 'R2-M1', 'R2-M2', 'R3-M1'], ('A', 'B', 'C'))
>>> b.match("R1-M2").entries, b.match("R1-M2").winner_to
(('D', 'E'), SlotRef(match='R2-M1', slot=1))
>>> b = advance(b, "R1-M2", 1)
>>> b.match("R2-M1").entries, b.match("R2-M1").name
(('A', 'E'), 'semi-final')
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, Literal

__all__ = [
    "MAX_ENTRIES",
    "MIN_ENTRIES",
    "Bracket",
    "BracketError",
    "Bye",
    "Entry",
    "GrandFinal",
    "Match",
    "MatchRow",
    "MatchStatus",
    "Reset",
    "RoundView",
    "Routing",
    "Section",
    "SeedingMethod",
    "SlotRef",
    "Source",
    "advance",
    "bracket_size",
    "dependents",
    "double_elimination",
    "rebuild",
    "reset_from",
    "round_name",
    "routing",
    "seed_order",
    "seeding_positions",
    "single_elimination",
    "to_rows",
]

from tournaments.formats.bracket_model import (
    MAX_ENTRIES,
    MIN_ENTRIES,
    Bracket,
    BracketError,
    Bye,
    Entry,
    GrandFinal,
    Match,
    MatchStatus,
    Reset,
    RoundView,
    Routing,
    Section,
    SeedingMethod,
    SlotRef,
    Source,
    T,
    bracket_size,
    round_code,
    round_name,
    seed_order,
    seeding_positions,
)

# ------------------------------------------------------------------------------------------ building


@dataclass(frozen=True)
class _Src:
    kind: Literal["seed", "empty", "winner", "loser"]
    seed: int = 0
    match: str = ""


_EMPTY = _Src("empty")


@dataclass
class _Proto:
    key: str
    section: Section
    round: int
    position: int
    sources: tuple[_Src, _Src]
    final_if_won_by: int | None = None


def _check_entries(seeded_ids: Sequence[T]) -> tuple[T, ...]:
    ids = tuple(seeded_ids)
    if not MIN_ENTRIES <= len(ids) <= MAX_ENTRIES:
        raise BracketError(f"An elimination needs {MIN_ENTRIES} to {MAX_ENTRIES} entries, not {len(ids)}.")
    if len(set(ids)) != len(ids):
        raise BracketError("An entry appears twice.")
    return ids


def _first_round(prefix: str, section: Section, n: int, size: int) -> list[_Proto]:
    positions = seeding_positions(size)
    protos = []
    for p in range(1, size // 2 + 1):
        pair = positions[2 * p - 2 : 2 * p]
        srcs = tuple(_Src("seed", seed=s) if s <= n else _EMPTY for s in pair)
        protos.append(_Proto(f"{prefix}1-M{p}", section, 1, p, (srcs[0], srcs[1])))
    return protos


def _next_round(prefix: str, section: Section, prev: list[_Proto], r: int) -> list[_Proto]:
    return [
        _Proto(
            f"{prefix}{r}-M{i + 1}",
            section,
            r,
            i + 1,
            (_Src("winner", match=prev[2 * i].key), _Src("winner", match=prev[2 * i + 1].key)),
        )
        for i in range(len(prev) // 2)
    ]


def _resolve(
    fmt: Literal["single", "double"],
    ids: tuple[T, ...],
    size: int,
    protos: list[_Proto],
    third_place: bool = False,
    grand_final: GrandFinal | None = None,
) -> Bracket[T]:
    """Drop every match with a structurally empty slot (a bye), passing its only contestant on, and
    link the remaining matches."""
    out: dict[tuple[str, str], _Src] = {}
    real: list[tuple[_Proto, tuple[_Src, _Src]]] = []

    def sub(src: _Src) -> _Src:
        return out[(src.match, src.kind)] if src.kind in ("winner", "loser") else src

    for proto in protos:
        a, b = (sub(s) for s in proto.sources)
        empties = (a is _EMPTY) + (b is _EMPTY)
        if empties == 2:
            out[(proto.key, "winner")] = out[(proto.key, "loser")] = _EMPTY
        elif empties == 1:
            out[(proto.key, "winner")] = b if a is _EMPTY else a
            out[(proto.key, "loser")] = _EMPTY
        else:
            out[(proto.key, "winner")] = _Src("winner", match=proto.key)
            out[(proto.key, "loser")] = _Src("loser", match=proto.key)
            real.append((proto, (a, b)))

    winner_to: dict[str, SlotRef] = {}
    loser_to: dict[str, SlotRef] = {}
    for proto, srcs in real:
        for slot, src in enumerate(srcs):
            target = winner_to if src.kind == "winner" else loser_to if src.kind == "loser" else None
            if target is not None:
                assert src.match not in target, "an outcome feeds two slots"
                target[src.match] = SlotRef(proto.key, slot)

    counts: dict[Section, int] = {}
    for proto, _ in real:
        counts[proto.section] = max(counts.get(proto.section, 0), proto.round)
    counts[Section.MAIN] = counts[Section.WINNERS] = size.bit_length() - 1

    matches: list[Match[T]] = []
    byes: list[T] = []
    for proto, srcs in real:
        entries = tuple(ids[s.seed - 1] if s.kind == "seed" else None for s in srcs)
        if proto.round > 1:
            byes.extend(e for e in entries if e is not None)
        code, number = round_code(proto.section, proto.round, counts[proto.section], size)
        matches.append(
            Match(
                key=proto.key,
                section=proto.section,
                round=proto.round,
                position=proto.position,
                name=round_name(code, number),
                sources=(_public(srcs[0]), _public(srcs[1])),
                entries=(entries[0], entries[1]),
                winner_to=winner_to.get(proto.key),
                loser_to=loser_to.get(proto.key),
                final_if_won_by=proto.final_if_won_by,
            )
        )
    byes.sort(key=ids.index)
    return Bracket(fmt, ids, size, tuple(matches), tuple(byes), third_place, grand_final)


def _public(src: _Src) -> Source:
    if src.kind == "seed":
        return Source("seed", seed=src.seed)
    assert src.kind in ("winner", "loser")
    return Source(src.kind, match=src.match)


def single_elimination(seeded_ids: Sequence[T], *, third_place: bool = False) -> Bracket[T]:
    """A single-elimination bracket for 2 to 512 entries given best seed first.

    With ``third_place`` the two semi-final losers meet in match ``3P``; with fewer than 4 entries
    there is no such match (with 3 entries the only semi-final loser is third, see
    :attr:`Bracket.third`).
    """
    ids = _check_entries(seeded_ids)
    size = bracket_size(len(ids))
    rounds = [_first_round("R", Section.MAIN, len(ids), size)]
    while len(rounds[-1]) > 1:
        rounds.append(_next_round("R", Section.MAIN, rounds[-1], len(rounds) + 1))
    protos = [p for rnd in rounds[:-1] for p in rnd]
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        protos.append(
            _Proto(
                "3P",
                Section.THIRD_PLACE,
                1,
                1,
                (_Src("loser", match=semis[0].key), _Src("loser", match=semis[1].key)),
            )
        )
    protos.extend(rounds[-1])
    return _resolve("single", ids, size, protos, third_place=third_place)


def double_elimination(
    seeded_ids: Sequence[T], *, grand_final: GrandFinal | str = GrandFinal.SINGLE
) -> Bracket[T]:
    """A double-elimination bracket for 2 to 512 entries given best seed first.

    Losers of winners' round 1 meet in losers' round 1; from winners' round 2 on, the losers drop into
    the even losers' rounds (in reversed order every other round, to put off rematches), and the odd
    losers' rounds pair the survivors. The grand final ``GF1`` puts the winners'-bracket champion in
    slot 0 against the losers'-bracket champion; with ``"reset"`` a second match ``GF2`` (slot 0: the
    winners'-bracket champion) is played only if slot 1 wins ``GF1``; with ``"none"`` there is no grand
    final and the winners'-bracket champion wins the event.
    """
    ids = _check_entries(seeded_ids)
    gf = GrandFinal(grand_final)
    size = bracket_size(len(ids))
    k = size.bit_length() - 1
    w_rounds = [_first_round("W", Section.WINNERS, len(ids), size)]
    protos = list(w_rounds[0])
    l_last: list[_Proto] = []
    if k >= 2:
        w1 = w_rounds[0]
        l_last = [
            _Proto(
                f"L1-M{i + 1}",
                Section.LOSERS,
                1,
                i + 1,
                (_Src("loser", match=w1[2 * i].key), _Src("loser", match=w1[2 * i + 1].key)),
            )
            for i in range(len(w1) // 2)
        ]
        protos.extend(l_last)
    for r in range(2, k + 1):
        w_round = _next_round("W", Section.WINNERS, w_rounds[-1], r)
        w_rounds.append(w_round)
        protos.extend(w_round)
        m = len(w_round)
        drop = w_round if r % 2 else list(reversed(w_round))
        lr = 2 * r - 2
        major = [
            _Proto(
                f"L{lr}-M{i + 1}",
                Section.LOSERS,
                lr,
                i + 1,
                (_Src("winner", match=l_last[i].key), _Src("loser", match=drop[i].key)),
            )
            for i in range(m)
        ]
        protos.extend(major)
        l_last = major
        if r < k:
            l_last = _next_round("L", Section.LOSERS, major, lr + 1)
            protos.extend(l_last)
    w_final = w_rounds[-1][0].key
    lb_champion = _Src("winner", match=l_last[0].key) if l_last else _Src("loser", match=w_final)
    if gf is not GrandFinal.NONE:
        protos.append(
            _Proto(
                "GF1",
                Section.GRAND_FINAL,
                1,
                1,
                (_Src("winner", match=w_final), lb_champion),
                final_if_won_by=0 if gf is GrandFinal.RESET else None,
            )
        )
        if gf is GrandFinal.RESET:
            protos.append(
                _Proto(
                    "GF2",
                    Section.GRAND_FINAL,
                    2,
                    1,
                    (_Src("loser", match="GF1"), _Src("winner", match="GF1")),
                )
            )
    return _resolve("double", ids, size, protos, grand_final=gf)


# ------------------------------------------------------------------------------------- from storage


@dataclass(frozen=True)
class MatchRow(Generic[T]):
    """What a stored match row holds (see the module docstring); enough to rebuild a :class:`Bracket`."""

    key: str
    section: Section | str
    round: int
    position: int
    entries: tuple[T | None, T | None]
    winner_slot: int | None = None
    winner_to: SlotRef | None = None
    loser_to: SlotRef | None = None
    final_if_won_by: int | None = None


def rebuild(
    fmt: Literal["single", "double"],
    seeded_ids: Sequence[T],
    rows: Iterable[MatchRow[T]],
    *,
    third_place: bool = False,
    grand_final: GrandFinal | str | None = None,
) -> Bracket[T]:
    """The :class:`Bracket` of stored rows (in creation order, ideally), with sources, names and byes
    derived from the links. A slot no link points to holds the entry placed there at generation.

    Rows out of play order are put in a play order (the given order is kept where the links allow).
    """
    ids = _check_entries(seeded_ids)
    size = bracket_size(len(ids))
    items = list(rows)
    by_key = {r.key: r for r in items}
    if len(by_key) != len(items):
        raise BracketError("Two matches have the same key.")
    incoming: dict[SlotRef, Source] = {}
    for r in items:
        for kind, ref in (("winner", r.winner_to), ("loser", r.loser_to)):
            if ref is None:
                continue
            if ref.match not in by_key or ref.slot not in (0, 1) or ref in incoming:
                raise BracketError(f"Match {r.key} links to a missing or already fed slot {ref}.")
            incoming[ref] = Source("winner" if kind == "winner" else "loser", match=r.key)
    order = _play_order(items)
    counts: dict[Section, int] = {}
    for r in items:
        sec = Section(r.section)
        counts[sec] = max(counts.get(sec, 0), r.round)
    matches: list[Match[T]] = []
    byes: list[T] = []
    for r in order:
        sec = Section(r.section)
        sources: list[Source] = []
        for slot in (0, 1):
            src = incoming.get(SlotRef(r.key, slot))
            if src is None:
                entry = r.entries[slot]
                if entry is None or entry not in ids:
                    raise BracketError(f"Slot {slot} of {r.key} is neither fed by a match nor seeded.")
                src = Source("seed", seed=ids.index(entry) + 1)
                if r.round > 1:
                    byes.append(entry)
            sources.append(src)
        code, number = round_code(sec, r.round, counts[sec], size)
        matches.append(
            Match(
                key=r.key,
                section=sec,
                round=r.round,
                position=r.position,
                name=round_name(code, number),
                sources=(sources[0], sources[1]),
                entries=r.entries,
                winner_slot=r.winner_slot,
                winner_to=r.winner_to,
                loser_to=r.loser_to,
                final_if_won_by=r.final_if_won_by,
            )
        )
    byes.sort(key=ids.index)
    gf = None if grand_final is None else GrandFinal(grand_final)
    return Bracket(fmt, ids, size, tuple(matches), tuple(byes), third_place, gf)


def _play_order(rows: list[MatchRow[T]]) -> list[MatchRow[T]]:
    """A stable topological order: each match after those feeding it, else the given order."""
    index = {r.key: i for i, r in enumerate(rows)}
    waiting = [0] * len(rows)
    for r in rows:
        for ref in (r.winner_to, r.loser_to):
            if ref is not None:
                waiting[index[ref.match]] += 1
    heap = [i for i, w in enumerate(waiting) if w == 0]
    heapq.heapify(heap)
    out: list[MatchRow[T]] = []
    while heap:
        r = rows[heapq.heappop(heap)]
        out.append(r)
        for ref in (r.winner_to, r.loser_to):
            if ref is not None:
                j = index[ref.match]
                waiting[j] -= 1
                if waiting[j] == 0:
                    heapq.heappush(heap, j)
    if len(out) != len(rows):
        raise BracketError("The match links form a cycle.")
    return out


def to_rows(bracket: Bracket[T]) -> list[MatchRow[T]]:
    """The rows to store for a bracket, in play order."""
    return [
        MatchRow(
            m.key,
            m.section,
            m.round,
            m.position,
            m.entries,
            m.winner_slot,
            m.winner_to,
            m.loser_to,
            m.final_if_won_by,
        )
        for m in bracket.matches
    ]


# --------------------------------------------------------------------------------------- results


_CHAMPION_SECTIONS = (Section.MAIN, Section.WINNERS, Section.GRAND_FINAL)


def routing(bracket: Bracket[T], match_key: str, winner_slot: int) -> Routing[T]:
    """Where the winner and loser of ``match_key`` go if the entry in ``winner_slot`` wins."""
    m = bracket.match(match_key)
    if winner_slot not in (0, 1):
        raise BracketError("The winner slot is 0 or 1.")
    winner, loser = m.entries[winner_slot], m.entries[1 - winner_slot]
    if winner is None or loser is None:
        raise BracketError(f"Match {match_key} does not have both contestants yet.")
    ends = m.final_if_won_by is not None and m.final_if_won_by == winner_slot
    return Routing(
        winner=winner,
        loser=loser,
        winner_to=None if ends else m.winner_to,
        loser_to=None if ends else m.loser_to,
        ends_event=ends or (m.winner_to is None and m.section in _CHAMPION_SECTIONS),
    )


def advance(bracket: Bracket[T], match_key: str, winner_slot: int) -> Bracket[T]:
    """Record that the entry in ``winner_slot`` won ``match_key``; place winner and loser onward."""
    status = bracket.status(match_key)
    if status is MatchStatus.DECIDED:
        raise BracketError(f"Match {match_key} is already decided; reset it first.")
    if status is MatchStatus.NOT_NEEDED:
        raise BracketError(f"Match {match_key} is not played.")
    route = routing(bracket, match_key, winner_slot)
    changed: dict[str, Match[T]] = {match_key: replace(bracket.match(match_key), winner_slot=winner_slot)}
    for ref, entry in ((route.winner_to, route.winner), (route.loser_to, route.loser)):
        if ref is None:
            continue
        target = changed.get(ref.match, bracket.match(ref.match))
        if target.entries[ref.slot] is not None:
            raise BracketError(f"Slot {ref.slot} of {ref.match} is already taken.")
        changed[ref.match] = replace(target, entries=_set_slot(target.entries, ref.slot, entry))
    return replace(bracket, matches=tuple(changed.get(m.key, m) for m in bracket.matches))


def _set_slot(entries: tuple[T | None, T | None], slot: int, value: T | None) -> tuple[T | None, T | None]:
    return (value, entries[1]) if slot == 0 else (entries[0], value)


def dependents(bracket: Bracket[T], match_key: str) -> list[str]:
    """Every later match that the result of ``match_key`` can reach (through winners or losers), in
    play order."""
    seen: set[str] = set()
    queue = deque([match_key])
    while queue:
        m = bracket.match(queue.popleft())
        for ref in (m.winner_to, m.loser_to):
            if ref is not None and ref.match not in seen:
                seen.add(ref.match)
                queue.append(ref.match)
    return [m.key for m in bracket.matches if m.key in seen]


def reset_from(bracket: Bracket[T], match_key: str) -> Reset[T]:
    """Clear the result of ``match_key`` and everything built on it.

    The entries it sent on are taken out of their next slots; a later match that had been decided with
    such an entry loses its result too, recursively. ``match_key`` keeps its two contestants. The
    answer lists the later matches touched (``affected``) and those whose result was cleared.
    """
    current: dict[str, Match[T]] = {m.key: m for m in bracket.matches}
    affected: set[str] = set()
    cleared: set[str] = set()

    def undo(key: str) -> None:
        m = current[key]
        ws = m.winner_slot
        if ws is None:
            return
        current[key] = replace(m, winner_slot=None)
        if m.final_if_won_by is not None and m.final_if_won_by == ws:
            return
        for ref in (m.winner_to, m.loser_to):
            if ref is None:
                continue
            target = current[ref.match]
            if target.entries[ref.slot] is None:
                continue
            affected.add(ref.match)
            current[ref.match] = replace(target, entries=_set_slot(target.entries, ref.slot, None))
            if target.winner_slot is not None:
                cleared.add(ref.match)
                undo(ref.match)

    bracket.match(match_key)
    undo(match_key)
    order = [m.key for m in bracket.matches]
    return Reset(
        bracket=replace(bracket, matches=tuple(current[k] for k in order)),
        affected=tuple(k for k in order if k in affected),
        cleared_results=tuple(k for k in order if k in cleared),
    )
