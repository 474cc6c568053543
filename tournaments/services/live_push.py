"""The live pages' push (docs/tournaments.md, "Live pages"): after every committed write to a tournament,
one small message to the WebSocket group of its watchers, and to the group of each written match's live
table that match's new live state, computed here once per change (not once per watcher).

Groups: ``live-t-<tournament id>`` gets ``{"type": "live.changed", "stamp": …}`` (the new change stamp,
the same as the stamp endpoint's); ``live-m-<match id>`` gets ``{"type": "live.state", "state": …}``
(:func:`tournaments.services.trick_entry.live_state`); ``live-a-<tournament id>`` (every watcher of the
tournament and of its matches) gets ``{"type": "live.access"}`` when the tournament is made private or
goes back to draft (:func:`push_access`), on which each watcher checks again who may watch. The consumers (``tournaments/consumers.py``)
forward them to the browsers.

A push never fails or holds up a write: it runs after the commit (the ``tournament_changed`` signal of
``services.common``), every error is logged and dropped, a send that takes over ``PUSH_TIMEOUT`` seconds
is given up, and after a failure (Redis down) pushes are skipped for ``PAUSE_AFTER_FAILURE`` seconds so
a dead layer costs one timeout, not one per write. The pages then catch up through their fallback
(the stamp endpoint, the Server-Sent Events stream) or their next reconnection.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer

from tournaments.models import Match
from tournaments.services.trick_entry import live_state

logger = logging.getLogger(__name__)

PUSH_TIMEOUT = 2.0
PAUSE_AFTER_FAILURE = 10.0
# What live_state reads with the match, in the same statement (the seats' names come from the entries).
LIVE_RELATED = ("stage__tournament", "round", "entry0__team", "entry0__player", "entry1__team", "entry1__player")

_failure = {"until": 0.0}
_failure_lock = threading.Lock()


def tournament_group(tournament_id: int) -> str:
    return f"live-t-{tournament_id}"


def match_group(match_id: int) -> str:
    return f"live-m-{match_id}"


def access_group(tournament_id: int) -> str:
    """Every watcher of the tournament and of its matches' live tables: told when who may watch changes."""
    return f"live-a-{tournament_id}"


def push_access(tournament_id: int) -> bool:
    """Who may watch tournament ``tournament_id`` changed (made private, back to draft): each of its
    watchers checks again and a watcher no longer allowed is closed (4003). Sent after the commit by the
    services that change it; never raises."""
    layer = get_channel_layer()
    if layer is None:
        return False
    group = access_group(tournament_id)
    if not may_have_watchers(layer, group):
        return True
    return send(layer, [(group, {"type": "live.access"})])


def may_have_watchers(layer: BaseChannelLayer, group: str) -> bool:
    """False only when the layer is this process's memory and nobody is in the group (then nothing is
    computed nor sent); with channels-redis the members live in Redis, so the push is always sent."""
    if isinstance(layer, InMemoryChannelLayer):
        return bool(layer.groups.get(group))
    return True


def match_live_state(match_id: int) -> dict[str, Any] | None:
    """The live table's state of one match, as the page and the stream show it (None: no such match)."""
    match = Match.objects.select_related(*LIVE_RELATED).filter(pk=match_id).first()
    return None if match is None else live_state(match)


def push_changes(sender: Any = None, *, tournament_id: int, stamp: str, match_ids: Sequence[int] = (),
                 **kwargs: Any) -> bool:
    """Receiver of ``tournament_changed``: the new stamp to the tournament's watchers, the new live state
    to each written match's watchers. False when nothing could be sent (logged)."""
    layer = get_channel_layer()
    if layer is None or time.monotonic() < _failure["until"]:
        return False
    messages: list[tuple[str, dict[str, Any]]] = []
    group = tournament_group(tournament_id)
    if may_have_watchers(layer, group):
        messages.append((group, {"type": "live.changed", "stamp": stamp}))
    for match_id in match_ids:
        group = match_group(match_id)
        if may_have_watchers(layer, group):
            state = match_live_state(match_id)
            if state is not None:
                messages.append((group, {"type": "live.state", "state": state}))
    return send(layer, messages)


def send(layer: BaseChannelLayer, messages: Sequence[tuple[str, dict[str, Any]]]) -> bool:
    """``group_send`` each message from sync code, within ``PUSH_TIMEOUT`` seconds; never raises."""
    if not messages:
        return True

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async def bounded() -> None:
        await asyncio.wait_for(send_all(), PUSH_TIMEOUT)

    try:
        async_to_sync(bounded)()
    except Exception as exc:  # the layer's errors are many (Redis down, timeout, full); none may fail a write
        with _failure_lock:
            _failure["until"] = time.monotonic() + PAUSE_AFTER_FAILURE
        logger.warning("live push failed (%r); pushes paused for %.0f s, the pages fall back to polling",
                       exc, PAUSE_AFTER_FAILURE)
        return False
    return True


def reset_failure() -> None:
    """Forget a past failure (tests, and a server that knows its layer is back)."""
    with _failure_lock:
        _failure["until"] = 0.0
