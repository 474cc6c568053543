"""The words the play rules' messages use: suits, lead shapes, the player who played (a seat counted
from 1, :mod:`variants.seats`) — in English and Chinese."""

from __future__ import annotations

from gameplay.order import TRUMP
from variants.seats import en_seat, zh_seat

SUIT_EN = {0: "diamonds", 1: "clubs", 2: "hearts", 3: "spades", TRUMP: "trumps"}
SUIT_ZH = {0: "方块", 1: "梅花", 2: "红桃", 3: "黑桃", TRUMP: "主牌"}
SHAPE_EN = {"single": "a single", "pair": "a pair", "triple": "a triple", "tractor": "a tractor",
            "throw": "a throw"}
SHAPE_ZH = {"single": "单张", "pair": "对子", "triple": "三张", "tractor": "拖拉机", "throw": "甩牌"}


def player_en(seat: int | None) -> str:
    """Who played, in a message: the seat (counted from 1), or "The player" when unknown."""
    return "The player" if seat is None else en_seat(seat)


def player_zh(seat: int | None) -> str:
    """:func:`player_en` in Chinese."""
    return "该玩家" if seat is None else zh_seat(seat)


def suit_name(suit: int, lang: str = "en") -> str:
    """A suit's name (``TRUMP``: the trumps) in English, or in Chinese for a ``zh`` language."""
    return SUIT_ZH[suit] if lang.startswith("zh") else SUIT_EN[suit]
