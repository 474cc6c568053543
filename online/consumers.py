"""The table's WebSocket (docs/online.md, ``ws/play/<code>/``): parse one frame, call one service, answer.

Frames over 16 KiB are refused (``too_big``); more than 20 frames in a second closes the socket (4008).
The first frame is ``hello`` (a seat token, or "" to watch; the host token optionally). A seat's newer
connection wins: the older one is sent ``replaced`` and closed (4001).
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.generic.websocket import JsonWebsocketConsumer

from online import presence, scheduling, services, threads
from online.models import Room
from online.services import OnlineError

__all__ = ["MAX_FRAME", "RATE_LIMIT", "TableConsumer"]

log = logging.getLogger(__name__)

MAX_FRAME = 16 * 1024
RATE_LIMIT = 20
"""Frames per second a socket may send; one more closes it with code 4008."""
CLOSE_REPLACED, CLOSE_TOO_MANY, CLOSE_NO_ROOM = 4001, 4008, 4004
CARD_ACTIONS = ("declare", "insure", "bury", "overturn", "play")


class BadField(Exception):
    def __init__(self, field: str, en: str, zh: str) -> None:
        super().__init__(en)
        self.field, self.en, self.zh = field, en, zh


def _field(frame: dict[str, Any], name: str, kind: str, *, required: bool = True) -> Any:
    """``frame[name]`` checked: "id" (text, 1–64), "int", "text", "int?" (int or null), "text?"."""
    if name not in frame:
        if required:
            raise BadField(name, f"The field {name!r} is missing.", f"缺少字段 {name!r}。")
        return None
    v = frame[name]
    if kind.endswith("?") and v is None:
        return None
    base = kind.rstrip("?")
    if base == "int" and (not isinstance(v, int) or isinstance(v, bool)):
        raise BadField(name, f"The field {name!r} must be a whole number.", f"字段 {name!r} 须为整数。")
    if base in ("text", "id") and not isinstance(v, str):
        raise BadField(name, f"The field {name!r} must be text.", f"字段 {name!r} 须为文本。")
    if base == "id" and not 0 < len(v) <= 64:
        raise BadField(name, "An action id is 1 to 64 characters.", "动作 id 为 1 至 64 个字符。")
    return v


class TableConsumer(JsonWebsocketConsumer):
    """One socket at one table (a seat, or a spectator). Its handlers run on a table thread
    (:mod:`online.threads`): one at a time for this socket, side by side with other sockets'."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.send_on_loop = send  # the server's send, for the states passed on without a thread (below)
        await super().__call__(scope, receive, send)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] == "room.state":  # a new state: only passed on, so no thread hop and no database
            await self.room_state_on_loop(message)
            return
        await threads.on_table_thread(self.handle)(message)

    async def room_state_on_loop(self, event: dict[str, Any]) -> None:
        """The room's new state (online/fanout.py's ``views``), as JSON text that says ``"host": false``: either
        one text for this seat (its seat's group), or the room group's message, of which a seat's socket takes
        the text under its own channel (none: an older connection of the seat, or a seat given to someone
        else — it passes on nothing) and a spectator's the public one."""
        if self.closing:
            return
        text = event.get("text")
        if text is None:
            text = event["seats"].get(self.channel_name) if self.seat is not None else event.get("watch")
            if text is None:
                return
        if self.host:
            state = json.loads(text)
            state["you"]["host"] = True
            text = json.dumps(state)
        await self.send_on_loop({"type": "websocket.send", "text": text})

    def handle(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        handler(message)

    def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()
        self.seat: int | None = None
        self._token = ""
        self.host_token = ""
        self.host = False
        self.greeted = False
        self.closing = False
        self.frames: deque[float] = deque()
        if not Room.objects.filter(code=self.code).exists():
            self.close(code=CLOSE_NO_ROOM)
            return
        presence.process_started()  # sockets counted by a process that is gone (embedded default)
        scheduling.rearm()
        self.accept()

    # ------------------------------------------------------------ frames in

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if self.closing:
            return
        now = time.monotonic()
        self.frames.append(now)
        while self.frames and now - self.frames[0] > 1.0:
            self.frames.popleft()
        if len(self.frames) > RATE_LIMIT:
            self.closing = True
            self.close(code=CLOSE_TOO_MANY)
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode("utf-8")) > MAX_FRAME:
            self.error("too_big", "A frame is at most 16 KiB.", "每帧最多 16 KiB。")
            return
        try:
            frame = json.loads(raw)
        except ValueError:
            self.error("bad_message", "A frame is one JSON object.", "每帧须为一个 JSON 对象。")
            return
        if not isinstance(frame, dict):
            self.error("bad_message", "A frame is one JSON object.", "每帧须为一个 JSON 对象。")
            return
        self.receive_json(frame)

    def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type")
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        ident = content.get("id") if isinstance(content.get("id"), str) else None
        if handler is None:
            self.error("bad_message", f"Unknown message type {kind!r}.", f"未知消息类型 {kind!r}。", field="type", ident=ident)
            return
        if kind not in ("hello", "ping") and not self.greeted:
            self.error("bad_message", "Say hello first.", "请先发送 hello。", field="type", ident=ident)
            return
        try:
            handler(self, content)
        except BadField as e:
            self.error("bad_message", e.en, e.zh, field=e.field, ident=ident)
        except OnlineError as e:
            self.send_json({"type": "error", "code": e.code, "message": e.message, "field": e.field, "id": ident})
            if e.code == "stale":
                self.send_state()
        except Exception:  # never a crashed consumer: the write rolled back, the socket stays, the frame may be resent
            log.exception("online table %s: frame %r failed", self.code, kind)
            self.error("server_error", "The server could not handle this message; nothing was changed. Try again.",
                       "服务器未能处理此消息，未作任何更改。请重试。", ident=ident)

    # ------------------------------------------------------------ handlers

    def on_ping(self, frame: dict[str, Any]) -> None:
        if self.seat is not None:
            presence.seat_seen(code=self.code, seat=self.seat)
        self.send_json({"type": "pong"})

    def on_hello(self, frame: dict[str, Any]) -> None:
        if self.greeted:
            raise BadField("type", "This socket has said hello already.", "此连接已发送过 hello。")
        token = _field(frame, "token", "text")
        host = _field(frame, "host", "text?", required=False) or ""
        self.take(token, host)

    def take(self, token: str, host: str) -> None:
        conn = services.room_connect(code=self.code, token=token, channel=self.channel_name, host_token=host)
        self.greeted = True
        self.host_token, self.host, self.seat, self._token = host, conn.host, conn.seat, token
        for group in self.joined_groups():
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        if conn.replaced:
            async_to_sync(self.channel_layer.send)(conn.replaced, {"type": "seat.replaced", "by": self.channel_name})
        self.send_state()

    def joined_groups(self) -> list[str]:
        """The groups this socket is in once it has said hello: the room's, and its seat's if seated."""
        seat = [] if self.seat is None else [scheduling.seat_group(self.code, self.seat)]
        return [scheduling.room_group(self.code), *seat]

    def leave(self) -> None:
        if not self.greeted:
            return
        for group in self.joined_groups():
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        services.room_disconnect(code=self.code, seat=self.seat, channel=self.channel_name)
        self.greeted = False

    def on_join(self, frame: dict[str, Any]) -> None:
        name = _field(frame, "name", "text")
        seat = _field(frame, "seat", "int?", required=False)
        user = self.scope.get("user")
        joined = services.room_join(code=self.code, name=name, seat=seat, user=user)
        self.send_json({"type": "joined", "seat": joined.seat.seat, "token": joined.token})
        self.leave()  # this socket now plays the seat it took
        self.take(joined.token, self.host_token)

    def seat_token_required(self, frame: dict[str, Any]) -> None:
        if self.seat is None:
            raise OnlineError("not_seated", "This connection holds no seat at the table.", "此连接没有座位。")

    def on_action(self, frame: dict[str, Any]) -> None:
        kind = str(frame["type"])
        ident = _field(frame, "id", "id")
        version = _field(frame, "version", "int")
        self.seat_token_required(frame)
        cards = _field(frame, "cards", "text") if kind in CARD_ACTIONS else None
        amount = _field(frame, "amount", "int") if kind == "bid" else None
        suit = _field(frame, "suit", "text") if kind == "name_trump" else None
        answer = services.room_act(code=self.code, token=self._token, action=kind, action_id=ident, version=version,
                                   cards=cards, amount=amount, suit=suit)
        if answer.repeated:
            self.send_state()

    def on_ready(self, frame: dict[str, Any]) -> None:
        ident, version = _field(frame, "id", "id"), _field(frame, "version", "int")
        self.seat_token_required(frame)
        if services.seat_ready(code=self.code, token=self._token, action_id=ident, version=version).repeated:
            self.send_state()

    def on_rematch(self, frame: dict[str, Any]) -> None:
        ident, version = _field(frame, "id", "id"), _field(frame, "version", "int")
        self.seat_token_required(frame)
        if services.room_rematch(code=self.code, token=self._token, action_id=ident, version=version).repeated:
            self.send_state()

    def on_bot(self, frame: dict[str, Any]) -> None:
        ident, version = _field(frame, "id", "id"), _field(frame, "version", "int")
        seat = _field(frame, "seat", "int")
        bot = _field(frame, "bot", "text?")
        if not self.host:
            raise OnlineError("not_host", "Only the room's host places bots.", "只有房主可以安排机器人。")
        if services.seat_bot(code=self.code, host_token=self.host_token, seat=seat, bot=bot, action_id=ident,
                             version=version).repeated:
            self.send_state()

    HANDLERS: dict[str, Callable[[TableConsumer, dict[str, Any]], None]] = {}

    # ------------------------------------------------------------ frames out

    def error(self, code: str, en: str, zh: str, *, field: str | None = None, ident: str | None = None) -> None:
        self.send_json({"type": "error", "code": code, "message": {"en": en, "zh-hans": zh}, "field": field, "id": ident})

    def send_state(self) -> None:
        self.send_json(services.room_state(code=self.code, seat=self.seat, host=self.host))

    def seat_replaced(self, event: dict[str, Any]) -> None:
        """A newer connection took this seat."""
        if self.closing:
            return
        self.send_json({"type": "replaced"})
        self.closing = True
        self.leave()  # at once: the seat's count and group no longer include this socket
        self.close(code=CLOSE_REPLACED)

    def seat_removed(self, event: dict[str, Any]) -> None:
        """The host gave this seat to a bot or to another person (``services.seat_replace``): this socket's
        token no longer plays. The seat's counts were reset there: nothing more to take back."""
        if self.closing or self.seat is None:
            return
        self.send_json({"type": "replaced"})
        self.closing = True
        for group in self.joined_groups():
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        self.greeted = False
        self.close(code=CLOSE_REPLACED)

    def disconnect(self, code: int) -> None:
        self.leave()


TableConsumer.HANDLERS = {
    "hello": TableConsumer.on_hello, "ping": TableConsumer.on_ping, "join": TableConsumer.on_join,
    "ready": TableConsumer.on_ready, "rematch": TableConsumer.on_rematch, "bot": TableConsumer.on_bot,
    **dict.fromkeys(services.ACTIONS, TableConsumer.on_action),
}
