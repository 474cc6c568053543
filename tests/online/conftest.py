"""Online play tests: ticks run inline (no bot delay, no deal pace); the channel layer is whatever the
settings give (in memory, or channels-redis when CHANNEL_REDIS_URL is set: CI's second run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from online import services


@pytest.fixture(autouse=True)
def _inline_ticks(settings: pytest.FixtureRequest) -> Iterator[None]:
    settings.ONLINE_BOT_DELAY_MS = 0  # type: ignore[attr-defined]
    settings.ONLINE_DEAL_INTERVAL_MS = 0  # type: ignore[attr-defined]
    services.drop_cache()
    yield
    services.drop_cache()
