"""A seat's engine action as the services receive it (``room_act``): its fields checked and the engine asked
(the engine verifies before it changes anything). Used by :mod:`online.services`."""

from __future__ import annotations

from typing import Any

from gameplay.cards import parse_cards
from gameplay.errors import GameplayError
from gameplay.hand import Hand
from online.answers import OnlineError

__all__ = ["ACTIONS", "engine_act", "parse_card_text"]

ACTIONS = ("declare", "pass", "bid", "name_trump", "insure", "bury", "overturn", "play")
"""The engine's actions a seat sends (``room_act``'s ``action``)."""


def parse_card_text(cards: Any) -> list[int]:
    if not isinstance(cards, str):
        raise OnlineError("bad_message", "Cards are written as text (\"H2 H2\").", "牌须写成文本（如 \"H2 H2\"）。",
                          field="cards")
    try:
        return parse_cards(cards)
    except GameplayError as e:
        raise OnlineError("bad_message", e.message("en"), e.message("zh-hans"), field="cards") from None


def engine_act(hand: Hand, seat: int, action: str, cards: Any, amount: Any, suit: Any) -> None:
    """Ask the engine (its own verify inside each action); a refusal raises GameplayError, nothing changed."""
    if action == "pass":
        hand.pass_(seat)
    elif action == "bid":
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise OnlineError("bad_message", "A bid needs a whole-number amount.", "叫分须为整数。", field="amount")
        hand.bid(seat, amount)
    elif action == "name_trump":
        if not isinstance(suit, str) or suit not in ("S", "H", "C", "D", "NT"):
            raise OnlineError("bad_message", "A suit is S, H, C, D or NT.", "花色须为 S、H、C、D 或 NT。", field="suit")
        hand.name_trump(seat, suit)
    else:
        codes = parse_card_text(cards)
        {"declare": hand.declare, "insure": hand.insure, "bury": hand.bury, "overturn": hand.overturn,
         "play": hand.play}[action](seat, codes)
