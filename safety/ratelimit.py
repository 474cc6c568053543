"""A small fixed-window rate limit in the cache: ``hit(name, key, limit)`` counts one request and
answers how many seconds to wait when the limit is passed (None when allowed).

With several processes the cache must be shared (Redis, the database cache) for the limit to hold
across them; with the default per-process memory cache each process counts on its own.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def hit(name: str, key: str, limit: int, window: int = 60) -> int | None:
    """Count a request of ``key`` (e.g. an address) for ``name``; None if within ``limit`` per
    ``window`` seconds, else the seconds until the window ends (for ``Retry-After``)."""
    now = int(time.time())
    start = now - now % window
    cache_key = f"ratelimit:{name}:{key}:{start}"
    cache.add(cache_key, 0, window + 5)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, window + 5)
        count = 1
    if count > limit:
        return max(1, start + window - now)
    return None
