"""A test table: four WebSocket clients (channels' communicator) on one room, and a test oracle that picks
each move from a server-side replay of the stored log (the client cannot see legal plays)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from gameplay.bots import make_bot
from gameplay.cards import CODE_NAMES, format_cards
from gameplay.events import Deal, Redeal, Shuffle, TakeKitty
from gameplay.hand import Hand
from gameplay.observation import observe
from online import services
from online.models import Room, RoomHand
from online.routing import websocket_urlpatterns

app = URLRouter(websocket_urlpatterns)


def run_async(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """A sync test running the async body ``fn`` (no pytest-asyncio needed)."""
    @functools.wraps(fn)
    def test(*args: Any, **kwargs: Any) -> None:
        async_to_sync(fn)(*args, **kwargs)
    return test
_ids = itertools.count()


class Client:
    """One socket: every frame it received is kept (the privacy checks read them all)."""

    def __init__(self, code: str, seat: int | None) -> None:
        self.comm = WebsocketCommunicator(app, f"/ws/play/{code}/")
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.sent: list[float] = []

    async def open(self, token: str = "", host: str | None = None) -> dict[str, Any]:
        ok, _ = await self.comm.connect()
        assert ok
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if host:
            hello["host"] = host
        await self.comm.send_json_to(hello)
        return await self.until_state()

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        frame = await self.comm.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        if frame.get("type") == "state":
            self.state = frame
        return frame

    async def until_state(self, version: int | None = None) -> dict[str, Any]:
        """Read until a state of ``version`` (or any state) arrives."""
        while True:
            f = await self.recv()
            if f["type"] == "state" and (version is None or f["version"] >= version):
                return f

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            f = await self.recv()
            if f["type"] == kind:
                return f

    async def until_error(self, ident: str) -> dict[str, Any]:
        """Read until the error that answers the action ``ident`` (an earlier action's error, still unread, is
        passed over: a move answered by another seat's newer state may be refused as stale afterwards)."""
        while True:
            f = await self.recv()
            if f["type"] == "error" and f.get("id") == ident:
                return f

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a frame, keeping under the server's 20 frames a second (a fast test client would be closed)."""
        now = time.monotonic()
        self.sent = [t for t in self.sent if now - t < 1.05]
        if len(self.sent) >= 18:
            await asyncio.sleep(1.05 - (now - self.sent[0]))
        self.sent.append(time.monotonic())
        await self.comm.send_json_to(frame)

    async def act(self, kind: str, **fields: Any) -> str:
        """Send an action at the version last seen; answers its id."""
        assert self.state is not None
        ident = f"a{next(_ids)}"
        await self.send({"type": kind, "id": ident, "version": self.state["version"], **fields})
        return ident

    async def move(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send an action and read until it is answered: a newer state (accepted, or another write came first)
        or its own error (an error of an earlier action is passed over)."""
        assert self.state is not None
        v = self.state["version"]
        ident = await self.act(kind, **fields)
        while True:
            f = await self.recv()
            if (f["type"] == "error" and f.get("id") == ident) or (f["type"] == "state" and f["version"] > v):
                return f


@database_sync_to_async
def room_now(code: str) -> tuple[Room, RoomHand | None, Hand | None]:
    room = Room.objects.get(code=code)
    rh = RoomHand.objects.filter(room=room).order_by("-number").first()
    hand = services.hand_from_log(rh.log) if rh is not None else None
    return room, rh, hand


def oracle_move(hand: Hand, rng: random.Random) -> tuple[int, str, dict[str, Any]]:
    """The move a bot would make for the seat to act, as a protocol frame: (seat, type, fields)."""
    kind, seat = hand.to_act()
    assert seat is not None, kind
    bot = make_bot("random", rng)
    obs = hand.observation(seat)
    if kind == "declare":
        opts = hand.legal_declarations(seat)
        choice = bot.declare(obs, opts) if opts else None
        return (seat, "declare", {"cards": format_cards(choice)}) if choice else (seat, "pass", {})
    if kind == "bid":
        b = bot.bid(obs, hand.legal_bids(seat))
        return (seat, "pass", {}) if b is None else (seat, "bid", {"amount": b})
    if kind == "name_trump":
        return seat, "name_trump", {"suit": bot.name_trump(obs)}
    if kind == "bury":
        ins = hand.legal_insurances(seat)
        if ins and rng.random() < 0.5 and not any(d.kind == "insured" for d in hand.declarations):
            return seat, "insure", {"cards": format_cards(ins[0])}
        return seat, "bury", {"cards": format_cards(bot.bury(obs, hand.rules.kitty_size))}
    if kind == "overturn":
        choice = bot.overturn(obs, hand.legal_overturns(seat))
        return (seat, "overturn", {"cards": format_cards(choice)}) if choice else (seat, "pass", {})
    assert kind == "play"
    legal = hand.legal_plays(seat)
    return seat, "play", {"cards": format_cards(bot.play(observe(hand, seat), legal))}


def seen_by(hand: Hand, seat: int) -> Counter[str]:
    """Every card ``seat`` may hold in this hand: per deck (a redeal starts another), its dealt cards and the
    kitty it took; the union over the decks."""
    allowed: Counter[str] = Counter()
    got: Counter[str] = Counter()
    for e in hand.log:
        if isinstance(e, (Shuffle, Redeal)):
            allowed |= got
            got = Counter()
        elif isinstance(e, Deal) and e.seat == seat:
            got.update(CODE_NAMES[c] for c in e.cards)
        elif isinstance(e, TakeKitty) and e.seat == seat:
            got.update(CODE_NAMES[c] for c in e.cards)
    return allowed | got


def check_privacy(frames: list[dict[str, Any]], seat: int | None, hands: dict[int, Hand]) -> int:
    """No frame shows a seat cards it may not see; a spectator sees no cards nor kitty before the hand ends.
    ``hands``: the finished hands by number. Returns the number of state frames checked."""
    n = 0
    for f in frames:
        if f.get("type") != "state" or f["hand"] is None:
            continue
        h = f["hand"]
        n += 1
        over = h["phase"] == "scored"
        if not over:
            assert h.get("result") is None
        if seat is None:
            assert "cards" not in h and "kitty" not in h
            continue
        full = hands.get(h["number"])
        if full is None:
            continue
        allowed = seen_by(full, seat)
        assert not Counter(h["cards"]) - allowed, (seat, h["cards"])
        assert len(h["cards"]) == h["counts"][seat]
        if h["kitty"] is not None:
            assert not Counter(h["kitty"]) - allowed
    return n
