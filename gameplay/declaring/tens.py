"""Yongzhou 300's declaring (RULES §5.1): show a 10 while the cards are dealt (亮主), a second 10 of that suit
reinforces it (保主), a pair of 10s or of jokers overturns (反主). Whenever a declaration stands, every seat
that could overturn it is asked once; a seat that passes such an offer may not overturn again this hand.
The declarer leads; there is no kitty."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from gameplay.cards import BJ, LJ, SUITS, code_rank, code_suit
from gameplay.declaring.base import PAIR_ORDER, Declaration, DeclaringProtocol
from variants.behaviour import TensDeclaring


class Tens(DeclaringProtocol):
    declaring: ClassVar[str] = TensDeclaring.key

    def decl_level(self, seat: int) -> int | None:
        return 10

    def after_deal(self, seat: int) -> None:
        if self.hand.declaration is not None:
            self.offer([seat])

    def declared_while_dealing(self, seat: int) -> None:
        h = self.hand
        h.offers = []
        h.offered = set()
        self.offer([(seat + i) % h.n for i in range(1, h.n)])

    def offer(self, seats: Iterable[int]) -> None:
        """Seats that can overturn now and were not yet asked at this standing must answer."""
        h = self.hand
        for s in seats:
            if s in h.offered or s in h.forfeited or s in h.offers:
                continue
            if h.declaration is not None and h.declaration.seat == s:
                continue
            if self.candidates(s):
                h.offered.add(s)
                h.offers.append(s)

    def forfeit(self, seat: int, *, dealing: bool) -> None:
        h = self.hand
        if h.declaration is not None and (dealing or self.candidates(seat)):
            h.forfeited.add(seat)

    def judge(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        h = self.hand
        st = h.declaration
        cur = st.strength if st else 0
        if cards in ((LJ, LJ), (BJ, BJ)):
            strength = 6 if cards[0] == LJ else 7
            kind = "no_trump"
        else:
            if not cards or len(cards) > 2 or any(c >= 52 or code_rank(c) != 10 for c in cards) or \
                    (len(cards) == 2 and cards[0] != cards[1]):
                raise self.bad(seat, cards, "show a 10 (亮主), a second 10 of the declared suit (保主), or a pair of "
                               "10s or jokers (反主)", "须亮一张10（亮主）、同花色的第二张10（保主），或一对10或一对王（反主）")
            suit = SUITS[code_suit(cards[0])]
            if len(cards) == 1:
                if st is None:
                    return Declaration(seat, cards, "declare", suit, 1)
                if st.seat == seat and st.kind == "declare" and suit == st.suit and not h.overturned_once:
                    return Declaration(seat, st.cards + cards, "reinforce", suit, 1 + PAIR_ORDER[suit])
                raise self.bad(seat, cards, "trump is already declared: only the declarer may reinforce (保主) with "
                               "a second 10 of its suit, before any overturn", "已有人亮主：只有亮主者在无人反主时可用同花色第二张10保主")
            strength = 1 + PAIR_ORDER[suit]
            kind = "overturn" if st is not None else "declare"
        if st is not None:
            if seat in h.forfeited:
                raise self.bad(seat, cards, "this seat passed an offered overturn earlier and may not overturn any "
                               "more in this hand", "该座位曾放弃反主机会，本局不能再反主")
            if st.seat == seat:
                raise self.bad(seat, cards, "the seat's own declaration stands", "当前的主就是该座位亮的")
            if strength <= cur:
                raise self.bad(seat, cards, "an overturn must be stronger than what stands (BJ BJ > LJ LJ > ♠ > ♥ > "
                               "♣ > ♦ pairs > a single 10)", "反主须大于已亮的主（对大王 > 对小王 > 黑桃 > 红桃 > 梅花 > 方块对10 > 单张10）")
        suit_out = None if kind == "no_trump" else SUITS[code_suit(cards[0])]
        return Declaration(seat, cards, kind, suit_out, strength)

    def default_dealer(self) -> int | None:
        return None

    def dealer_from(self, d: Declaration) -> None:
        self.hand.dealer = d.seat

    def after_trump(self) -> None:
        h = self.hand
        h.begin_play(h.dealer if h.dealer is not None else h.start_seat)
