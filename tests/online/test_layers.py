"""The embedded default's channel layer: Channels' in-memory layer with its expiry sweep rate-limited."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from online import layers
from online.layers import SweptInMemoryChannelLayer


def test_the_embedded_default_uses_the_swept_layer() -> None:
    if getattr(settings, "CHANNEL_REDIS_URL", ""):
        pytest.skip("this run uses the Redis channel layer")
    assert isinstance(get_channel_layer(), SweptInMemoryChannelLayer)


def test_messages_still_expire_and_groups_still_deliver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Delivery is Channels' own; only the sweep is rarer: a sweep within SWEEP_SECONDS of the last does
    nothing, the next one drops an expired message and the channel's memberships as Channels does."""
    clock = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock[0])

    async def run() -> None:
        layer = SweptInMemoryChannelLayer(expiry=60)
        await layer.group_add("room", "a.one")
        await layer.group_add("room", "a.two")
        await layer.group_send("room", {"type": "x", "n": 1})
        assert (await layer.receive("a.one"))["n"] == 1  # delivered as ever
        # a message left unread past its expiry: the swept layer drops it at its next sweep, not before
        layer.channels["a.two"]._queue[0] = (0.0, layer.channels["a.two"]._queue[0][1])  # expired long ago
        clock[0] += layers.SWEEP_SECONDS / 2
        layer._clean_expired()
        assert "a.two" in layer.channels and "a.two" in layer.groups["room"]
        clock[0] += layers.SWEEP_SECONDS
        layer._clean_expired()
        assert "a.two" not in layer.channels and "a.two" not in layer.groups["room"]
        assert "a.one" in layer.groups["room"]

    asyncio.run(run())
