"""The live pages' WebSockets (docs/tournaments.md, "Live pages"): a watcher listens, it never writes.

* ``ws/live/tournaments/<id>/``: the pages that refresh when the tournament changes (standings, tables,
  bracket, a match's page, a scoring page). Sends ``{"type": "changed", "stamp": …}`` at once (the
  stamp now: a page drawn before a change sees it differ) and after every committed write.
* ``ws/live/matches/<id>/``: a match's live table. Sends ``{"type": "state", "state": …}`` at once and
  after every write to the match (the state ``live_state`` gives, computed once per change by
  ``services.live_push``).

Who may watch is checked at connect (``can_view``, as the pages; a session holding a table's grant may
also follow that table's tournament, as its scoring page does); a refused visitor's socket is closed
before it opens (code 4003: an HTTP 403). After that a watcher costs no thread and no query: the consumer
waits on its groups and forwards what arrives. Frames sent by the browser are ignored.

Every watcher is also in the tournament's access group (``live-a-<tournament id>``). When the tournament
is made private or goes back to draft, the service sends ``live.access`` there (after the commit): each
watcher checks again, and one no longer allowed is sent ``{"type": "closed", "reason": "not_visible"}``
and closed with 4003 (its page falls back and its next connection is refused, as any other). A
tournament's watcher joins that group before its first check; a match's watcher (the tournament known
only from the match) joins it after, then checks once more, so a change in between is not missed.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournaments.models import Match, Tournament, VenueTable
from tournaments.permissions import can_view
from tournaments.selectors.stamps import changes_stamp
from tournaments.services import trick_entry
from tournaments.services.live_push import LIVE_RELATED, access_group, match_group, tournament_group
from tournaments.views.table_grants import SESSION_KEY

__all__ = ["CLOSE_REFUSED", "MatchLiveConsumer", "TournamentLiveConsumer"]

logger = logging.getLogger(__name__)

CLOSE_REFUSED = 4003
CLOSE_LAYER_DOWN = 1011


def session_follows(scope: dict[str, Any], tournament_id: int) -> bool:
    """Whether the visitor's session holds a live table grant (``/t/<token>/``) for a match of the tournament."""
    session = scope.get("session")
    grants = (session.get(SESSION_KEY) if session is not None else None) or {}
    now = time.time()
    for key, grant in grants.items():
        token = str(grant.get("token") or "")
        if not str(key).isdigit() or not token or grant.get("until", 0) <= now:
            continue
        venue = str(grant.get("venue") or "")
        if venue and not VenueTable.objects.filter(token=venue, revoked_at__isnull=True).exists():
            continue
        if Match.objects.filter(pk=int(key), scorer_token=token, stage__tournament_id=tournament_id).exists():
            return True
    return False


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """Join the page's group (and the tournament's access group), send the first message, then forward
    the group's messages."""

    group = ""
    access = ""
    pk = 0
    tournament_id: int | None = None

    def opening(self, pk: int) -> dict[str, Any] | None:
        """The first message for object ``pk``, or None if the visitor may not watch it (sync: the database).
        Sets ``tournament_id``."""
        raise NotImplementedError

    def allowed(self, pk: int) -> bool:
        """Whether the visitor may still watch object ``pk`` (sync: the database)."""
        raise NotImplementedError

    def group_for(self, pk: int) -> str:
        raise NotImplementedError

    def tournament_of(self, pk: int) -> int | None:
        """The tournament of object ``pk`` when known without the database (a tournament's own page)."""
        return None

    async def connect(self) -> None:
        pk = self.pk = int(self.scope["url_route"]["kwargs"]["pk"])
        group = self.group_for(pk)
        early = self.tournament_of(pk)
        try:
            # Joined before the first message is read, so a change in between is not lost: the group's
            # messages wait until connect() has returned, and arrive after the first message.
            await self.channel_layer.group_add(group, self.channel_name)
            self.group = group
            if early is not None:
                await self.join_access(early)
        except Exception as exc:  # the layer is down: the page falls back to polling
            logger.warning("live watcher not joined to %s: %r", group, exc)
            await self.leave()
            await self.close(code=CLOSE_LAYER_DOWN)
            return
        first = await database_sync_to_async(self.opening)(pk)
        if first is not None and early is None and self.tournament_id is not None:
            try:
                await self.join_access(self.tournament_id)
            except Exception as exc:
                logger.warning("live watcher not joined to %s: %r", access_group(self.tournament_id), exc)
                await self.leave()
                await self.close(code=CLOSE_LAYER_DOWN)
                return
            if not await database_sync_to_async(self.allowed)(pk):  # made private in between
                first = None
        if first is None:
            await self.leave()
            await self.close(code=CLOSE_REFUSED)
            return
        await self.accept()
        await self.send_json(first)

    async def join_access(self, tournament_id: int) -> None:
        self.access = access_group(tournament_id)
        await self.channel_layer.group_add(self.access, self.channel_name)

    async def leave(self) -> None:
        for name in ("group", "access"):
            group = getattr(self, name)
            if group:
                setattr(self, name, "")
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception as exc:  # the group expires by itself
                    logger.warning("live watcher not removed from %s: %r", group, exc)

    async def live_access(self, event: dict[str, Any]) -> None:
        """Who may watch the tournament changed: check again; a watcher no longer allowed is closed."""
        if not self.group:
            return
        if await database_sync_to_async(self.allowed)(self.pk):
            return
        await self.leave()
        await self.send_json({"type": "closed", "reason": "not_visible"})
        await self.close(code=CLOSE_REFUSED)

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """A watcher has nothing to say: its frames are ignored."""


class TournamentLiveConsumer(LiveConsumer):
    """``ws/live/tournaments/<id>/``: the tournament's change stamp, now and after every change."""

    def group_for(self, pk: int) -> str:
        return tournament_group(pk)

    def tournament_of(self, pk: int) -> int | None:
        return pk

    def allowed(self, pk: int) -> bool:
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            return False
        return can_view(self.scope.get("user"), tournament) or session_follows(self.scope, pk)

    def opening(self, pk: int) -> dict[str, Any] | None:
        self.tournament_id = pk
        if not self.allowed(pk):
            return None
        return {"type": "changed", "stamp": changes_stamp(pk)}

    async def live_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "stamp": event["stamp"]})


class MatchLiveConsumer(LiveConsumer):
    """``ws/live/matches/<id>/``: the match's live table, now and after every write to the match."""

    def group_for(self, pk: int) -> str:
        return match_group(pk)

    def opening(self, pk: int) -> dict[str, Any] | None:
        match = Match.objects.select_related(*LIVE_RELATED).filter(pk=pk).first()
        if match is None or not can_view(self.scope.get("user"), match.stage.tournament):
            return None
        self.tournament_id = match.stage.tournament_id
        return {"type": "state", "state": trick_entry.live_state(match)}

    def allowed(self, pk: int) -> bool:
        tournament = Tournament.objects.filter(stages__matches__pk=pk).first()
        return tournament is not None and can_view(self.scope.get("user"), tournament)

    async def live_state(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "state": event["state"]})
