"""The data model of an elimination bracket (seeding, matches, slots, routing, the bracket itself)
and the names of its rounds — plain Python, no Django. :mod:`tournaments.formats.brackets` builds,
stores and advances brackets on it (and re-exports these names)."""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, Literal, TypeVar

T = TypeVar("T", bound=Hashable)

MIN_ENTRIES = 2
MAX_ENTRIES = 512


class BracketError(ValueError):
    """A bracket cannot be built, or a result cannot be applied as asked."""


# --------------------------------------------------------------------------------------------- seeding


class SeedingMethod(enum.StrEnum):
    MANUAL = "manual"
    RATING = "rating"
    RANDOM = "random"


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One competitor to seed: an opaque id (a team or player primary key, say) with optional data."""

    id: T
    rating: float | None = None
    seed: int | None = None


def seed_order(
    entries: Iterable[Entry[T]], method: SeedingMethod | str, *, rng: random.Random | None = None
) -> list[T]:
    """The entry ids, best seed first.

    * ``"manual"``: by the entries' ``seed`` numbers (distinct, from 1); entries without one follow in
      the given order. With no seed numbers at all the given order is kept.
    * ``"rating"``: highest rating first; entries without a rating last; ties by manual seed number,
      then by the given order (so pass entries in a stable order, e.g. by registration).
    * ``"random"``: a shuffle of the given order by ``rng`` (required: ``random.Random(seed)``), so the
      same seed and the same input order give the same draw.

    >>> seed_order([Entry("a", 1500), Entry("b", 1700), Entry("c", 1500)], "rating")
    ['b', 'a', 'c']
    >>> seed_order([Entry("a", seed=2), Entry("b"), Entry("c", seed=1)], "manual")
    ['c', 'a', 'b']
    """
    items = list(entries)
    ids = [e.id for e in items]
    if len(set(ids)) != len(ids):
        raise BracketError("An entry appears twice.")
    try:
        how = SeedingMethod(method)
    except ValueError:
        raise BracketError(f"Unknown seeding method {method!r}.") from None
    seeds = [e.seed for e in items if e.seed is not None]
    if len(set(seeds)) != len(seeds):
        raise BracketError("Two entries have the same seed number.")
    if any(s < 1 for s in seeds):
        raise BracketError("Seed numbers start at 1.")
    indexed = list(enumerate(items))
    if how is SeedingMethod.MANUAL:
        indexed.sort(key=lambda p: (p[1].seed is None, p[1].seed or 0, p[0]))
    elif how is SeedingMethod.RATING:
        indexed.sort(
            key=lambda p: (
                p[1].rating is None,
                -(p[1].rating or 0),
                p[1].seed is None,
                p[1].seed or 0,
                p[0],
            )
        )
    else:
        if rng is None:
            raise BracketError("Random seeding needs a random.Random(seed) so the draw can be replayed.")
        rng.shuffle(indexed)
    return [e.id for _, e in indexed]


def bracket_size(n: int) -> int:
    """The number of slots of the first round: the smallest power of two holding ``n`` entries.

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 16, 17, 512)]
    [2, 4, 4, 8, 16, 32, 512]
    """
    if n < 1:
        raise BracketError("A bracket needs entries.")
    return 1 << (n - 1).bit_length()


def seeding_positions(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two ``size``: slots 2i and 2i+1 meet in round 1.

    >>> seeding_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise BracketError("The bracket size must be a power of two, at least 2.")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


# ---------------------------------------------------------------------------------------- data model


class Section(enum.StrEnum):
    MAIN = "main"  # single elimination
    THIRD_PLACE = "third_place"
    WINNERS = "winners"  # double elimination
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"


class GrandFinal(enum.StrEnum):
    """How a double elimination ends."""

    SINGLE = "single"  # one match between the two bracket champions
    RESET = "reset"  # a second match if the losers'-bracket champion wins the first
    NONE = "none"  # no grand final: the winners'-bracket champion wins the event


class MatchStatus(enum.StrEnum):
    WAITING = "waiting"  # a slot waits for an earlier match
    READY = "ready"
    DECIDED = "decided"
    NOT_NEEDED = "not_needed"  # the grand-final reset when the winners'-bracket champion won the first


@dataclass(frozen=True)
class SlotRef:
    """A slot (0 or 1) of a match, named by key."""

    match: str
    slot: int


@dataclass(frozen=True)
class Source:
    """Where a slot's entry comes from: placed at generation (with its seed number), or the winner or
    loser of an earlier match. For drawing "Winner of R1-M3" before it is known."""

    kind: Literal["seed", "winner", "loser"]
    seed: int | None = None
    match: str | None = None


@dataclass(frozen=True)
class Match(Generic[T]):
    key: str
    section: Section
    round: int
    position: int
    name: str
    sources: tuple[Source, Source]
    entries: tuple[T | None, T | None] = (None, None)
    winner_slot: int | None = None
    winner_to: SlotRef | None = None
    loser_to: SlotRef | None = None
    final_if_won_by: int | None = None

    @property
    def decided(self) -> bool:
        return self.winner_slot is not None

    @property
    def winner(self) -> T | None:
        return None if self.winner_slot is None else self.entries[self.winner_slot]

    @property
    def loser(self) -> T | None:
        return None if self.winner_slot is None else self.entries[1 - self.winner_slot]


@dataclass(frozen=True)
class Bye(Generic[T]):
    """A round-1 position without a match: ``entry`` (seed ``seed``) goes straight to ``advances_to``."""

    entry: T
    seed: int
    advances_to: SlotRef


@dataclass(frozen=True)
class RoundView(Generic[T]):
    """One column of the drawn bracket. ``code``/``number`` let the UI translate the name itself
    (see :func:`round_name`)."""

    section: Section
    round: int
    name: str
    code: str
    number: int
    cells: tuple[Match[T] | Bye[T] | None, ...]


@dataclass(frozen=True)
class Routing(Generic[T]):
    """Where the two contestants of a match go for a given winner (``None``: nowhere further)."""

    winner: T
    loser: T
    winner_to: SlotRef | None
    loser_to: SlotRef | None
    ends_event: bool


@dataclass(frozen=True)
class Reset(Generic[T]):
    bracket: Bracket[T]
    affected: tuple[str, ...]  # later matches that lost an entry (in play order)
    cleared_results: tuple[str, ...]  # of those, the ones whose result was cleared


@dataclass(frozen=True)
class Bracket(Generic[T]):
    format: Literal["single", "double"]
    seeds: tuple[T, ...]  # seed number = index + 1
    size: int
    matches: tuple[Match[T], ...]  # in a play order: every match after the matches feeding it
    byes: tuple[T, ...]
    third_place: bool = False
    grand_final: GrandFinal | None = None

    @cached_property
    def _index(self) -> dict[str, int]:
        return {m.key: i for i, m in enumerate(self.matches)}

    @cached_property
    def _feeders(self) -> dict[str, tuple[str, ...]]:
        feeders: dict[str, list[str]] = {m.key: [] for m in self.matches}
        for m in self.matches:
            for ref in (m.winner_to, m.loser_to):
                if ref is not None:
                    feeders[ref.match].append(m.key)
        return {k: tuple(v) for k, v in feeders.items()}

    def match(self, key: str) -> Match[T]:
        try:
            return self.matches[self._index[key]]
        except KeyError:
            raise BracketError(f"No match {key!r} in this bracket.") from None

    def seed_of(self, entry: T) -> int:
        return self.seeds.index(entry) + 1

    def status(self, key: str) -> MatchStatus:
        m = self.match(key)
        if m.decided:
            return MatchStatus.DECIDED
        for feeder in self._feeders[key]:
            f = self.match(feeder)
            if f.winner_slot is not None and f.winner_slot == f.final_if_won_by:
                return MatchStatus.NOT_NEEDED
        if m.entries[0] is None or m.entries[1] is None:
            return MatchStatus.WAITING
        return MatchStatus.READY

    def ready(self) -> list[Match[T]]:
        """Matches that can be played now, in play order."""
        return [m for m in self.matches if self.status(m.key) is MatchStatus.READY]

    @property
    def finished(self) -> bool:
        return all(self.status(m.key) in (MatchStatus.DECIDED, MatchStatus.NOT_NEEDED) for m in self.matches)

    @property
    def champion(self) -> T | None:
        if self.format == "single":
            return self._final_winner(Section.MAIN)
        gf = self.grand_final
        if gf is GrandFinal.NONE:
            return self._final_winner(Section.WINNERS)
        gf1 = self.match("GF1")
        if gf1.winner_slot is None:
            return None
        if gf is GrandFinal.SINGLE or gf1.winner_slot == gf1.final_if_won_by:
            return gf1.winner
        return self.match("GF2").winner

    @property
    def third(self) -> T | None:
        """The winner of the third-place match, or the only semi-final loser when there are 3 entries."""
        if self.format != "single" or not self.third_place or len(self.seeds) < 3:
            return None
        if len(self.seeds) == 3:
            return self._final_round(Section.MAIN, -2)[0].loser
        return self.match("3P").winner

    def _final_round(self, section: Section, offset: int = -1) -> list[Match[T]]:
        rounds = sorted({m.round for m in self.matches if m.section is section})
        r = rounds[offset]
        return [m for m in self.matches if m.section is section and m.round == r]

    def _final_winner(self, section: Section) -> T | None:
        return self._final_round(section)[0].winner

    def rounds(self, section: Section | None = None) -> list[RoundView[T]]:
        """The rounds of one section (all by default) with their existing matches in display order."""
        sections = [section] if section is not None else list(Section)
        views: list[RoundView[T]] = []
        for sec in sections:
            ms = sorted((m for m in self.matches if m.section is sec), key=lambda m: (m.round, m.position))
            for r in sorted({m.round for m in ms}):
                cells = tuple(m for m in ms if m.round == r)
                code, number = round_code(sec, r, self._round_count(sec), self.size)
                views.append(RoundView(sec, r, cells[0].name, code, number, cells))
        return views

    def tree(self) -> list[RoundView[T]]:
        """The main (or winners') bracket as a full binary tree for drawing: round ``r`` has
        ``size / 2**r`` cells, a round-1 cell being a :class:`Match` or a :class:`Bye`. The third-place
        match and the losers' bracket are not in the tree: see :meth:`rounds`."""
        sec = Section.MAIN if self.format == "single" else Section.WINNERS
        by_pos = {(m.round, m.position): m for m in self.matches if m.section is sec}
        positions = seeding_positions(self.size)
        total = self._round_count(sec)
        views: list[RoundView[T]] = []
        for r in range(1, total + 1):
            cells: list[Match[T] | Bye[T] | None] = []
            for p in range(1, self.size // 2**r + 1):
                m = by_pos.get((r, p))
                if m is None and r == 1:
                    seed = min(positions[2 * p - 2], positions[2 * p - 1])
                    cells.append(Bye(self.seeds[seed - 1], seed, bye_target(self, seed)))
                else:
                    cells.append(m)
            code, number = round_code(sec, r, total, self.size)
            views.append(RoundView(sec, r, round_name(code, number), code, number, tuple(cells)))
        return views

    def _round_count(self, section: Section) -> int:
        return max((m.round for m in self.matches if m.section is section), default=0)


def bye_target(bracket: Bracket[T], seed: int) -> SlotRef:
    for m in bracket.matches:
        for slot, src in enumerate(m.sources):
            if src.kind == "seed" and src.seed == seed:
                return SlotRef(m.key, slot)
    raise BracketError(f"Seed {seed} is nowhere in the bracket.")  # pragma: no cover


# ------------------------------------------------------------------------------------------ names

_NAMES: dict[str, tuple[str, str]] = {
    "final": ("final", "决赛"),
    "semi-final": ("semi-final", "半决赛"),
    "quarter-final": ("quarter-final", "四分之一决赛"),
    "round-of": ("round of {n}", "{n}强赛"),
    "third-place": ("third-place match", "三四名决赛"),
    "winners-round": ("winners' round {n}", "胜者组第{n}轮"),
    "winners-final": ("winners' final", "胜者组决赛"),
    "losers-round": ("losers' round {n}", "败者组第{n}轮"),
    "losers-final": ("losers' final", "败者组决赛"),
    "grand-final": ("grand final", "总决赛"),
    "grand-final-reset": ("grand final reset", "总决赛加赛"),
}


def round_name(code: str, number: int = 0, lang: str = "en") -> str:
    """A round's name from its code (see :class:`RoundView`) in ``"en"`` or ``"zh-hans"``.

    >>> round_name("round-of", 16), round_name("round-of", 16, "zh-hans"), round_name("final", lang="zh-hans")
    ('round of 16', '16强赛', '决赛')
    """
    en, zh = _NAMES[code]
    return (zh if lang.lower().startswith("zh") else en).format(n=number)


def round_code(section: Section, r: int, total: int, size: int) -> tuple[str, int]:
    if section is Section.MAIN:
        left = total - r
        if left <= 2:
            return ("final", "semi-final", "quarter-final")[left], 0
        return "round-of", size >> (r - 1)
    if section is Section.THIRD_PLACE:
        return "third-place", 0
    if section is Section.WINNERS:
        return ("winners-final", 0) if r == total else ("winners-round", r)
    if section is Section.LOSERS:
        return ("losers-final", 0) if r == total else ("losers-round", r)
    return ("grand-final", 0) if r == 1 else ("grand-final-reset", 0)
