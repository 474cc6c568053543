"""A finished hand's page (``/play/<code>/hands/<n>/``, docs/online.md "The pages"): the site's replay page
for the hand — every seat named by the room, the hands as dealt, the declarations, the kitty, the tricks
one by one (the stepper of ``js/replay-steps.js``), the result in words — in both languages, with the log
to open on ``/replay/`` and to download; 404 while the hand is played."""

from __future__ import annotations

import html as htmllib
import json
import re
from typing import Any

import pytest
from django.test import Client

from gameplay.notation import replay
from online import services
from online.models import Room, RoomHand, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def bot_room(settings: Any, variant: str, **kw: Any) -> Room:
    """A room of four bot seats whose first hand is over (no bot delay, no deal pace: ticks run inline)."""
    settings.ONLINE_BOT_DELAY_MS = 0
    settings.ONLINE_DEAL_INTERVAL_MS = 0
    services.drop_cache()
    made = services.room_create(variant=variant, seating="choice", **kw)
    code = made.room.code
    version = made.room.version
    for seat in range(4):
        version = services.seat_bot(code=code, host_token=made.host_token, seat=seat, bot="random",
                                    action_id=f"b{seat}", version=version).version
    return Room.objects.get(code=code)


@pytest.mark.parametrize("variant", ["tractor", "red-five"])
def test_the_hand_page_steps_through_the_hand(client: Client, settings: Any, variant: str) -> None:
    room = bot_room(settings, variant, hands=1) if variant == "red-five" else bot_room(settings, variant)
    Seat.objects.filter(room=room, seat=0).update(name="小明", bot=None)
    Seat.objects.filter(room=room, seat=2).update(name="Ann", bot=None)
    row = RoomHand.objects.get(room=room, number=1)
    assert row.finished
    hand = replay(row.log)
    page = client.get(f"/play/{room.code}/hands/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="replay-stepper"' in page and "js/replay-steps.js" in page  # trick by trick
    assert page.count('class="replay-trick"') == len(hand.tricks)
    assert f'href="/play/{room.code}/"' in page and "Replay of hand 1" in page
    assert "Seat 1 · 小明" in page and "Seat 3 · Ann" in page and "Seat 4 · Bot" in page
    assert 'class="replay-explanation"' in page  # the result in words
    form = re.search(r'<form method="post" action="/replay/"[^>]*>(.*?)</form>', page, re.S)
    assert form and 'id="open-replay"' in form.group(1)
    log = json.loads(htmllib.unescape(re.search(r'name="log" value="([^"]*)"', form.group(1)).group(1)))  # type: ignore[union-attr]
    assert log == row.log
    opened = client.post("/replay/", {"log": json.dumps(log)})  # a finished hand opens on /replay/
    assert opened.status_code == 200 and opened.content.decode().count('class="replay-trick"') == len(hand.tricks)
    zh = client.get(f"/play/{room.code}/hands/1/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "第1局回放" in zh and "第 1 局" in zh
    assert "1号座位 · 小明" in zh and "3号座位 · Ann" in zh and "在回放页打开" in zh and 'class="replay-explanation"' in zh
    download = client.get(f"/play/{room.code}/hands/1/?format=json")
    assert download.status_code == 200 and json.loads(download.content) == row.log


def test_no_page_while_the_hand_is_played(client: Client) -> None:
    made = services.room_create(variant="tractor", seating="choice", name="小明", seat=0)
    assert client.get(f"/play/{made.room.code}/hands/1/").status_code == 404  # nothing dealt yet
    RoomHand.objects.create(room=made.room, number=1, log={"format": "shengji-hand/1"}, finished=False)
    assert client.get(f"/play/{made.room.code}/hands/1/").status_code == 404  # being played
