"""Sub-multisets of (code, count) items: enumerated in a fixed order, and counted. What the legal follow
lists and throw leads are built from; :mod:`gameplay.legality` re-exports these names."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["count_submultisets", "submultiset_takes", "submultisets", "submultisets_recursive"]


def submultiset_takes(caps: Sequence[int], size: int, start: int = 0) -> Iterator[list[int]]:
    """How many of each item every distinct sub-multiset of ``size`` cards of items ``start``… takes
    (``caps[i]`` copies of item ``i``), in the order of :func:`submultisets`. The same list is
    yielded each time, updated in place: read it before asking for the next. Iterative: a step moves
    one card from the rightmost item that can give one to the items after it, refilled greedily."""
    n = len(caps)
    take = [0] * n
    if size == 0:
        yield take
        return
    if start >= n:
        return
    suffix = [0] * (n + 1)  # suffix[i]: cards in items i…
    for i in range(n - 1, start - 1, -1):
        suffix[i] = suffix[i + 1] + caps[i]
    if suffix[start] < size:
        return
    left = size
    for i in range(start, n):
        x = caps[i] if caps[i] < left else left
        take[i] = x
        left -= x
    while True:
        yield take
        rest = 0  # cards taken after position j
        j = n - 1
        while j >= start:
            tj = take[j]
            if tj and suffix[j + 1] > rest:
                take[j] = tj - 1
                left = rest + 1
                for i in range(j + 1, n):
                    x = caps[i] if caps[i] < left else left
                    take[i] = x
                    left -= x
                break
            rest += tj
            j -= 1
        else:
            return


def submultisets(items: list[tuple[int, int]], size: int, start: int = 0) -> Iterator[list[int]]:
    """Distinct sub-multisets of ``size`` cards from (code, count) items ``start``…: every choice of
    how many of each item to take, the first items taken as often as possible first (descending
    lexicographic order of the counts taken), each as a new list."""
    codes = [c for c, _ in items]
    n = len(items)
    for take in submultiset_takes([k for _, k in items], size, start):
        out: list[int] = []
        for i in range(start, n):
            if take[i]:
                out += [codes[i]] * take[i]
        yield out


def submultisets_recursive(items: list[tuple[int, int]], size: int, start: int = 0) -> Iterator[list[int]]:
    """The plain recursive enumeration, same order as :func:`submultisets` (the reference in tests)."""
    if size == 0:
        yield []
        return
    if start >= len(items):
        return
    remaining = sum(k for _, k in items[start:])
    if remaining < size:
        return
    code, cnt = items[start]
    for take in range(min(cnt, size), -1, -1):
        for rest in submultisets_recursive(items, size - take, start + 1):
            yield [code] * take + rest


def count_submultisets(counts: Sequence[int], size: int) -> int:
    """How many sub-multisets of ``size`` items there are with these multiplicities."""
    ways = [1] + [0] * size
    for k in counts:
        if k <= 0:
            continue
        new = [0] * (size + 1)
        for s in range(size + 1):
            if ways[s]:
                for t in range(min(k, size - s) + 1):
                    new[s + t] += ways[s]
        ways = new
    return ways[size]
