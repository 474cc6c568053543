"""Combinations (牌型) — RULES.md §3: single, pair, triple, tractor, throw; canonical decomposition.

A *unit* is one card (width 1), a pair (2) or a triple (3, three decks only). A tractor is two or
more units of one width at adjacent tiers (see :meth:`Context.adjacent`). A component is a unit
or a tractor; a throw is several components of one effective suit.

>>> from gameplay.rulesets import ruleset
>>> from gameplay.order import Context
>>> ctx = Context(ruleset("tractor"), "10", "H")
>>> [str(c) for c in decompose(ctx, parse_cards("SA SQ SQ SJ SJ"))]
['SQ SQ SJ SJ', 'SA']
>>> [str(c) for c in classify(ctx, parse_cards("S9 S8 S8 S4 S4")).display_components()]
['S9', 'S8 S8', 'S4 S4']
>>> classify(ctx, parse_cards("SJ SJ S9 S9")).shape
'tractor'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

from gameplay.cards import CODE_NAMES, NCODES, format_cards, parse_cards
from gameplay.errors import IllegalPlay, InvalidCards
from gameplay.order import Context

__all__ = ["Combo", "Component", "chains", "classify", "codes_desc", "covers", "decompose", "decompose_held", "decompose_suit",
           "format_cards", "highest_tractor_top", "longest_chain", "parse_cards"]

SHAPES = {1: "single", 2: "pair", 3: "triple"}


class Component(NamedTuple):
    """A single, pair, triple or tractor of one effective suit (immutable).

    ``codes`` are strongest first; ``top`` is the strength of the highest card (how components of
    one shape compare); ``width`` is 1/2/3 and ``length`` the number of units (≥ 2 for tractors).
    """

    suit: int
    width: int
    length: int
    top: int
    codes: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def is_tractor(self) -> bool:
        return self.length >= 2

    @property
    def shape(self) -> str:
        return "tractor" if self.length >= 2 else SHAPES[self.width]

    def priority(self) -> tuple[int, int, int]:
        """Larger first: more cards, wider units, then higher."""
        return (self.width * self.length, self.width, self.top)

    def __str__(self) -> str:
        return format_cards(self.codes)


@dataclass(frozen=True, slots=True)
class Combo:
    """A classified lead: its effective suit, shape and components (priority order, largest first)."""

    suit: int
    shape: str
    components: tuple[Component, ...]
    codes: tuple[int, ...]
    n: int = field(init=False, repr=False, compare=False)  # len(codes), set once

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", len(self.codes))

    @property
    def is_throw(self) -> bool:
        return len(self.components) > 1

    def display_components(self) -> list[Component]:
        """Components for display: highest first (e.g. 9, 88, 44)."""
        return sorted(self.components, key=lambda c: (-c.top, -c.size))

    def requirements(self) -> tuple[tuple[int, int], ...]:
        """(width, length) of each component with width ≥ 2, largest first."""
        return tuple((c.width, c.length) for c in self.components if c.width >= 2)

    def __str__(self) -> str:
        return format_cards(self.codes)


_new = object.__new__
_SET_COMBO = tuple(vars(Combo)[name].__set__ for name in ("suit", "shape", "components", "codes", "n"))


def new_combo(suit: int, shape: str, components: tuple[Component, ...], codes: tuple[int, ...]) -> Combo:
    """``Combo(suit, shape, components, codes)`` filled slot by slot (the frozen class's ``__init__``
    and ``__post_init__`` cost twice as much; a test compares them)."""
    c = _new(Combo)
    a, b, d, e, f = _SET_COMBO
    a(c, suit)
    b(c, shape)
    d(c, components)
    e(c, codes)
    f(c, len(codes))
    return c


# ---------------------------------------------------------------- chains (tractor paths)


def chains(ctx: Context, nodes: Iterable[int]) -> list[list[int]]:
    """All maximal simple paths (lowest first) through ``nodes`` along tractor adjacency, of length ≥ 2.

    Every tractor that can be formed from ``nodes`` is a contiguous slice of one of them.
    """
    nodeset = set(nodes)
    if len(nodeset) < 2:
        return []
    adj = ctx.adj_up
    has_pred = {b for a in nodeset for b in adj[a] if b in nodeset}
    starts = [a for a in nodeset if a not in has_pred]
    out: list[list[int]] = []
    seen: set[int] = set()
    for a in starts:
        _walk_chains(adj, nodeset, [a], seen, out)
    for a in nodeset:  # cycles (K–3 wrap) have no start node
        if a not in seen and a not in starts:
            _walk_chains(adj, nodeset, [a], seen, out)
    return out


def _walk_chains(adj: Sequence[Sequence[int]], nodeset: set[int], path: list[int], seen: set[int],
                 out: list[list[int]]) -> None:
    """:func:`chains` from ``path`` on (a module function, not a closure: a recursive closure is a
    reference cycle, which only the garbage collector frees)."""
    ext = False
    for b in adj[path[-1]]:
        if b in nodeset and b not in path:
            ext = True
            path.append(b)
            _walk_chains(adj, nodeset, path, seen, out)
            path.pop()
    seen.update(path)
    if not ext and len(path) >= 2:
        out.append(list(path))


def _chain_key(ctx: Context, path: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
    st = ctx.strength
    sk = ctx.sortkey
    return (len(path), max([st[c] for c in path]), tuple([-sk[c] for c in reversed(path)]))


def longest_chain(ctx: Context, nodes: Iterable[int]) -> list[int] | None:
    """The canonical tractor among ``nodes``: longest, then highest, then ♦ ♣ ♥ ♠ on equal tiers."""
    best: list[int] | None = None
    best_key: tuple[int, int, tuple[int, ...]] | None = None
    for path in chains(ctx, nodes):
        key = _chain_key(ctx, path)
        if best_key is None or key > best_key:
            best, best_key = path, key
    return best


def longest_len(ctx: Context, nodes: Sequence[int]) -> int:
    """Length of the longest tractor among ``nodes`` (0 if none)."""
    if len(nodes) < 2:
        return 0
    adj = ctx.adj_up
    nodeset = set(nodes)
    if not any(b in nodeset for a in nodes for b in adj[a]):
        return 0
    return max((len(p) for p in chains(ctx, nodeset)), default=0)


def highest_tractor_top(ctx: Context, nodes: Iterable[int], k: int) -> int | None:
    """Strength of the highest k-unit tractor among ``nodes`` (by its highest card), or None."""
    st = ctx.strength
    best: int | None = None
    for path in chains(ctx, nodes):
        for i in range(len(path) - k + 1):
            top = max([st[c] for c in path[i:i + k]])
            if best is None or top > best:
                best = top
    return best


def tractor_slices(ctx: Context, nodes: Iterable[int], k: int) -> list[tuple[int, ...]]:
    """Every distinct k-unit tractor (as a tuple of codes, lowest first) among ``nodes``."""
    out: set[tuple[int, ...]] = set()
    for path in chains(ctx, nodes):
        for i in range(len(path) - k + 1):
            out.add(tuple(path[i:i + k]))
    return sorted(out)


# ---------------------------------------------------------------- decomposition


class _Tables(NamedTuple):
    """Per-context constants for decomposition: each suit's codes strongest first, shared unit
    components per code (components are immutable, so one object serves every hand), the codes
    not in the deck."""

    suit_desc: tuple[tuple[int, ...], ...]  # effective suits 4 (trump) … 0
    units: tuple[tuple[Component | None, ...], ...]  # [width][code], widths 1…3
    invalid: tuple[int, ...]
    leads: tuple[tuple[Combo | None, ...], ...]  # [width][code]: the classified single / pair (immutable)
    desc: tuple[int, ...]  # all 54 codes strongest first (sort key descending; stable)


_TABLES: dict[int, tuple[Context, _Tables]] = {}
_BY_KEY: dict[object, _Tables] = {}


def _tables(ctx: Context) -> _Tables:
    hit = _TABLES.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    key = (ctx.rules, ctx.level, ctx.trump)  # what the tables depend on; many contexts may share them
    try:
        tables = _BY_KEY.get(key)
    except TypeError:  # rules that cannot be hashed: tables for this context alone
        tables = _build_tables(ctx)
    if tables is None:
        tables = _BY_KEY[key] = _build_tables(ctx)
        if len(_BY_KEY) > 1024:
            _BY_KEY.clear()
    if len(_TABLES) > 4096:
        _TABLES.clear()
    _TABLES[id(ctx)] = (ctx, tables)
    return tables


def _build_tables(ctx: Context) -> _Tables:
    es, st, sk = ctx.esuit, ctx.strength, ctx.sortkey
    suit_desc = tuple(tuple(sorted((c for c in range(NCODES) if es[c] == s), key=sk.__getitem__, reverse=True))
                      for s in range(4, -1, -1))
    units = tuple(tuple(Component(es[c], w, 1, st[c], (c,) * w) if es[c] >= 0 and w else None
                        for c in range(NCODES)) for w in range(4))
    leads = tuple(tuple(Combo(u.suit, SHAPES[w], (u,), u.codes) if u is not None else None for u in units[w])
                  if w else () for w in range(3))
    desc = tuple(sorted(range(NCODES), key=lambda c: -sk[c]))
    return _Tables(suit_desc, units, tuple(c for c in range(NCODES) if es[c] < 0), leads, desc)


def codes_desc(ctx: Context) -> tuple[int, ...]:
    """All 54 codes strongest first (``sorted(range(54), key=lambda c: -ctx.sortkey[c])``, built once per
    context)."""
    return _tables(ctx).desc


def _exact_run(ctx: Context, nodes: Sequence[int]) -> list[int] | None:
    """``nodes`` lowest first if they form one run of adjacent tiers and nothing else links them
    (then that run is the only, hence the canonical, tractor among them); else None."""
    adj = ctx.adj_up
    nodeset = set(nodes)
    links = 0
    for a in nodes:
        for b in adj[a]:
            if b in nodeset:
                links += 1
    if links != len(nodes) - 1:
        return None
    path = sorted(nodes, key=ctx.strength.__getitem__)
    for i in range(len(path) - 1):
        if path[i + 1] not in adj[path[i]]:
            return None
    return path


def _component(ctx: Context, suit: int, width: int, path: Sequence[int]) -> Component:
    st = ctx.strength
    codes = tuple(c for c in reversed(path) for _ in range(width))
    return Component(suit, width, len(path), max([st[c] for c in path]), codes)


def _priority(c: Component) -> tuple[int, int, int]:
    return (c[1] * c[2], c[1], c[3])


def decompose_suit(ctx: Context, counts: dict[int, int], suit: int) -> list[Component]:
    """Canonical decomposition of cards of one effective suit (RULES.md §3), priority order.

    Units are formed per card (three copies → a triple, two → a pair); then, per width from the
    widest, the longest tractor is taken repeatedly; then triples, pairs and singles remain.
    """
    singles: list[int] = []
    wide: list[int] = []
    for c, k in counts.items():
        if k >= 2:
            wide.append(c)
        else:
            singles.append(c)
    return _decomposed(ctx, counts, wide, singles, suit)


def decompose_held(ctx: Context, counts: Sequence[int], codes: Sequence[int], suit: int) -> list[Component]:
    """:func:`decompose_suit` of the cards of ``codes`` (of effective suit ``suit``) held in ``counts``
    (54 counts), the codes in the order the dict of ``decompose_suit`` would list them: the same
    components in the same order, without building the dict."""
    singles: list[int] = []
    wide: list[int] = []
    for c in codes:
        k = counts[c]
        if k >= 2:
            wide.append(c)
        elif k:
            singles.append(c)
    return _decomposed(ctx, counts, wide, singles, suit)


def _decomposed(ctx: Context, counts: dict[int, int] | Sequence[int], wide: list[int], singles: list[int],
                suit: int) -> list[Component]:
    """The decomposition of cards ``wide`` (held at least twice) and ``singles`` (once), each list in
    the order of the cards given."""
    singles.sort(key=ctx.strength.__getitem__, reverse=True)
    one = _tables(ctx).units[1]
    rest: list[Component] = [one[c] for c in singles]  # type: ignore[misc]
    if not wide:
        return rest
    return _wide_components(ctx, counts, wide, suit) + rest


_tuple_new = tuple.__new__


def _wide_components(ctx: Context, counts: dict[int, int] | Sequence[int], wide: list[int], suit: int,
                     presorted: bool = False) -> list[Component]:
    """Tractors, then triples and pairs, of the cards ``wide`` (held at least twice); with
    ``presorted`` the caller gives ``wide`` strongest first, so the units need no sorting."""
    adj = ctx.adj_up
    st = ctx.strength
    table = _tables(ctx).units
    out: list[Component] = []
    units: list[Component] = []
    triples = [c for c in wide if counts[c] >= 3]
    for width, nodes in ((3, triples), (2, [c for c in wide if counts[c] == 2] if triples else wide)):
        if not nodes:
            continue
        if len(nodes) >= 2:
            nodeset = set(nodes)
            links = 0
            for a in nodes:
                for b in adj[a]:
                    if b in nodeset:
                        links += 1
            if links:
                run = _exact_run(ctx, nodes) if links == len(nodes) - 1 else None
                if run is not None:  # one run and nothing else: no search
                    out.append(_component(ctx, suit, width, run))
                    continue
                while len(nodeset) >= 2:
                    path = longest_chain(ctx, nodeset)
                    if path is None:
                        break
                    out.append(_component(ctx, suit, width, path))
                    nodeset.difference_update(path)
                nodes = [c for c in nodes if c in nodeset]
        if len(nodes) > 1 and not presorted:  # units of one width: in priority order by their tops (stable)
            nodes.sort(key=st.__getitem__, reverse=True)
        tw = table[width]
        units.extend([tw[c] for c in nodes])  # type: ignore[misc]
    if len(out) > 1:
        out.sort(key=_priority, reverse=True)
    return out + units  # triples before pairs: the priority order


def decompose(ctx: Context, codes: Iterable[int]) -> list[Component]:
    """Canonical decomposition of any cards, effective suit by suit (trumps first), priority order."""
    codes = codes if isinstance(codes, (list, tuple)) else list(codes)
    t = _tables(ctx)
    cnt = [0] * NCODES
    try:
        for c in codes:
            cnt[c] += 1
    except (IndexError, TypeError):
        return _decompose_general(ctx, codes)
    for c in t.invalid:
        if cnt[c]:
            return _decompose_general(ctx, codes)  # raises, naming the card
    one, two = t.units[1], t.units[2]
    adj = ctx.adj_up
    out: list[Component] = []
    s = 5
    for desc in t.suit_desc:  # trumps first; each suit strongest first
        s -= 1
        wide = [c for c in desc if cnt[c] > 1]
        if not wide:
            out += [one[c] for c in desc if cnt[c]]  # type: ignore[misc]
            continue
        plain = True  # only pairs, no two adjacent: the pairs strongest first, no tractor search
        for a in wide:
            if cnt[a] > 2:
                plain = False
                break
            for b in adj[a]:
                if cnt[b] > 1:
                    plain = False
                    break
            if not plain:
                break
        if plain:
            out += [two[c] for c in wide]  # type: ignore[misc]
        else:  # held strongest first: the units come out in priority order without sorting
            out += _wide_components(ctx, cnt, wide, s, presorted=True)
        out += [one[c] for c in desc if cnt[c] == 1]  # type: ignore[misc]
    return out


def _decompose_general(ctx: Context, codes: Iterable[int]) -> list[Component]:
    """:func:`decompose` on a Counter (cards not in the deck: raises, naming the first)."""
    cnt = Counter(codes)
    es = ctx.esuit
    st = ctx.strength
    keys = sorted(cnt, key=ctx.sortkey.__getitem__, reverse=True)
    out: list[Component] = []
    singles: list[Component] = []
    wide: list[int] = []
    cur = -2
    for c in keys:
        s = es[c]
        if s != cur:
            if wide:
                out.extend(_wide_components(ctx, cnt, wide, cur))
                wide = []
            out.extend(singles)
            singles = []
            if s < 0:
                raise InvalidCards(f"{CODE_NAMES[c]} is not in the {ctx.rules.variant} deck.",
                                   f"{CODE_NAMES[c]} 不在 {ctx.rules.variant} 的牌中。")
            cur = s
        if cnt[c] >= 2:
            wide.append(c)
        else:
            singles.append(_tuple_new(Component, (s, 1, 1, st[c], (c,))))
    if wide:
        out.extend(_wide_components(ctx, cnt, wide, cur))
    out.extend(singles)
    return out


def classify(ctx: Context, codes: Sequence[int]) -> Combo:
    """Classify a lead: one effective suit, one component (its shape) or several (a throw).

    Whether a throw is allowed, and whether it stands, is for :mod:`gameplay.legality`.
    """
    if not codes:
        raise IllegalPlay("A play needs at least one card.", "出牌至少要一张。")
    es = ctx.esuit
    s = es[codes[0]]
    for c in codes:
        if es[c] != s or s < 0:
            if es[c] < 0 or s < 0:
                bad = c if es[c] < 0 else codes[0]
                raise InvalidCards(f"{CODE_NAMES[bad]} is not in the {ctx.rules.variant} deck.",
                                   f"{CODE_NAMES[bad]} 不在 {ctx.rules.variant} 的牌中。")
            raise IllegalPlay(
                f"A lead must be all of one suit (all trumps or all one side suit): {format_cards(codes)} mixes suits.",
                f"首家出牌必须是同一门（全是主牌或同一门副牌）：{format_cards(codes)} 混合了不同的花色。",
            )
    n = len(codes)
    if n == 1 or (n == 2 and codes[0] == codes[1]):
        one = _tables(ctx).leads[n][codes[0]]  # shared: a Combo is immutable
        assert one is not None
        return one
    cnt: dict[int, int] = {}
    for c in codes:
        cnt[c] = cnt.get(c, 0) + 1
    m = len(cnt)
    w = n // m
    sk = ctx.sortkey
    if 2 <= w <= 3 and m >= 2 and w * m == n:
        # an exact tractor (one run of adjacent tiers, each card w times, nothing else linking
        # them) is its own canonical decomposition: no search
        st = ctx.strength
        adj = ctx.adj_up
        nodes = sorted(cnt, key=st.__getitem__)
        links = 0
        for a in nodes:
            if cnt[a] != w:
                links = -1
                break
            for b in adj[a]:
                if b in cnt:
                    links += 1
        if links == m - 1:
            run = True
            for i in range(m - 1):
                if nodes[i + 1] not in adj[nodes[i]]:
                    run = False
                    break
            if run:  # adjacent tiers have distinct strengths: strongest first is the nodes reversed,
                # each w times (a sort of the codes, cheaper than building the list of repeats)
                ordered = tuple(sorted(codes, key=st.__getitem__, reverse=True))
                comp = _tuple_new(Component, (s, w, m, st[nodes[-1]], ordered))
                return new_combo(s, "tractor", (comp,), ordered)
    comps = tuple(decompose_suit(ctx, cnt, s))
    shape = comps[0].shape if len(comps) == 1 else "throw"
    return new_combo(s, shape, comps, tuple(sorted(codes, key=sk.__getitem__, reverse=True)))


# ---------------------------------------------------------------- structure matching


def unit_nodes(counts: dict[int, int], width: int) -> list[int]:
    return [c for c, k in counts.items() if k >= width]


def covers(ctx: Context, lead: Combo, counts: dict[int, int]) -> bool:
    """Whether cards ``counts`` show the lead's structure: for every tractor a tractor at least as
    long (same width), for every triple/pair a triple/pair, each card used once."""
    reqs = [r for r in lead.requirements()]
    if not reqs:
        return True
    return _cover(ctx, reqs, dict(counts))


def _cover(ctx: Context, reqs: list[tuple[int, int]], counts: dict[int, int]) -> bool:
    if not reqs:
        return True
    tractors = [r for r in reqs if r[1] >= 2]
    if not tractors:
        n3 = sum(1 for r in reqs if r[0] == 3)
        n2 = len(reqs) - n3
        have3 = sum(1 for k in counts.values() if k >= 3)
        have2 = sum(1 for k in counts.values() if k >= 2)
        return have3 >= n3 and have2 - n3 >= n2
    w, k = tractors[0]
    rest = list(reqs)
    rest.remove((w, k))
    for sl in tractor_slices(ctx, unit_nodes(counts, w), k):
        for c in sl:
            counts[c] -= w
        ok = _cover(ctx, rest, counts)
        for c in sl:
            counts[c] += w
        if ok:
            return True
    return False


def match_score(ctx: Context, lead: Combo, counts: dict[int, int]) -> tuple[int, ...]:
    """How much of the lead's structure cards of the led suit can show (lexicographic, larger =
    closer). A follow is legal iff its score equals the score of the follower's whole holding in
    the suit (RULES.md §4 "the exact test"). Exact maximum over all ways to use the cards."""
    comps = lead.components
    if len(comps) == 1:
        comp = comps[0]
        w = comp.width
        if w == 1:
            return ()
        if comp.length == 1:
            best = 0
            for k in counts.values():
                if k > best:
                    best = k
            m = min(best, w)
            return (m if m >= 2 else 0,)
        return _tractor_score(ctx, w, comp.length, counts)
    wide = [c for c in comps if c.width >= 2]
    if all(c.width == 2 and c.length == 1 for c in wide):
        # pairs and singles: every way matches the same pairs, one per card held twice (or three
        # times), in the order of the lead's pairs — what the search below finds, without it
        held = 0
        for k in counts.values():
            if k >= 2:
                held += 1
                if k > 3:
                    break  # a card that could show two pairs: the search below
        else:
            m = min(held, len(wide))
            return (2,) * m + (0,) * (len(wide) - m)
    best_t: tuple[int, ...] | None = None
    for t in _throw_scores(ctx, wide, dict(counts)):
        if best_t is None or t > best_t:
            best_t = t
    return best_t or ()


def _tractor_score(ctx: Context, w: int, k: int, counts: dict[int, int]) -> tuple[int, ...]:
    nodes = [c for c, n in counts.items() if n >= w]
    ll = min(longest_len(ctx, nodes), k)
    units = len(nodes) - ll
    extra = min(units, k - ll)
    if w == 3:
        pairs = sum(1 for n in counts.values() if n >= 2) - ll - extra
        return (ll, extra, min(pairs, k - ll - extra))
    return (ll, extra)


def _throw_scores(ctx: Context, comps: list[Component], counts: dict[int, int]) -> Iterator[tuple[int, ...]]:
    """All achievable score vectors for components matched in order (pruned to per-step maxima)."""
    if not comps:
        yield ()
        return
    comp = comps[0]
    rest = comps[1:]
    w, k = comp.width, comp.length
    if k == 1:
        widths = [x for x in range(w, 1, -1)]
        for x in widths:
            nodes = [c for c, n in counts.items() if n >= x]
            if nodes:
                for c in nodes:
                    counts[c] -= x
                    for t in _throw_scores(ctx, rest, counts):
                        yield (x, *t)
                    counts[c] += x
                return
        for t in _throw_scores(ctx, rest, counts):
            yield (0, *t)
        return
    nodes = [c for c, n in counts.items() if n >= w]
    ll = min(longest_len(ctx, nodes), k)
    slices: list[tuple[int, ...]] = tractor_slices(ctx, nodes, ll) if ll >= 2 else [()]
    for sl in slices:
        for c in sl:
            counts[c] -= w
        left = [c for c in nodes if counts[c] >= w]
        extra = min(len(left), k - ll)
        for chosen in combinations(sorted(left), extra):
            for c in chosen:
                counts[c] -= w
            if w == 3:
                pnodes = [c for c, n in counts.items() if n >= 2]
                np_ = min(len(pnodes), k - ll - extra)
                for pch in combinations(sorted(pnodes), np_):
                    for c in pch:
                        counts[c] -= 2
                    for t in _throw_scores(ctx, rest, counts):
                        yield (ll, extra, np_, *t)
                    for c in pch:
                        counts[c] += 2
            else:
                for t in _throw_scores(ctx, rest, counts):
                    yield (ll, extra, *t)
            for c in chosen:
                counts[c] += w
        for c in sl:
            counts[c] += w
