"""The embedded default's channel layer: Channels' in-memory layer, its expiry sweep run at most twice a second.

``channels.layers.InMemoryChannelLayer`` looks at every channel and every group membership of the process
for expired entries on each ``send``, ``receive``, ``group_add`` and ``group_send``: with a few hundred
sockets (a seat group and the room's group each) that sweep was a fifth of the process's CPU, repeated six
times for one play (one group send, five receives). Expiry is measured in seconds (messages after
``expiry``, 60 s; memberships after ``group_expiry``, a day), so sweeping every ``SWEEP_SECONDS`` instead
changes nothing anyone can see. Production runs ``channels_redis`` (README), which has no such sweep.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

__all__ = ["SWEEP_SECONDS", "SweptInMemoryChannelLayer"]

SWEEP_SECONDS = 0.5


class SweptInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]  # Channels is untyped
    """The in-memory layer with its expiry sweep rate-limited (see the module's docstring)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        super()._clean_expired()
