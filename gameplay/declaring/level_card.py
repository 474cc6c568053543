"""Tractor's declaring (RULES §5.1): show a level card while the cards are dealt; a pair of level cards
overturns a single one, a joker pair (no trump) overturns a pair; the first declarer of a match's first
hand deals."""

from __future__ import annotations

from typing import ClassVar

from gameplay.cards import BJ, CODE_NAMES, LJ, SUITS, code_rank, code_suit, make_code
from gameplay.declaring.base import Declaration, DeclaringProtocol
from variants.behaviour import LevelCardDeclaring


class LevelCard(DeclaringProtocol):
    declaring: ClassVar[str] = LevelCardDeclaring.key

    def judge(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        level = self.hand.decl_level(seat)
        assert level is not None
        st = self.hand.declaration
        cur = st.strength if st else 0
        if cards in ((LJ, LJ), (BJ, BJ)):
            strength = 3 if cards[0] == LJ else 4
            if strength <= cur:
                raise self.bad(seat, cards, "a joker pair must beat the standing declaration (BJ BJ > LJ LJ)",
                               "反无主须大于已亮的主（对大王 > 对小王）")
            return Declaration(seat, cards, "no_trump", None, strength)
        if not cards or any(c >= 52 or code_rank(c) != level for c in cards) or len(cards) > 2 or \
                (len(cards) == 2 and cards[0] != cards[1]):
            raise self.bad(seat, cards, f"show one level card ({CODE_NAMES[make_code(0, level)][1:]}), a pair of "
                           "level cards of one suit, or a pair of jokers", "须亮一张级牌、一对同花色级牌或一对王")
        suit = SUITS[code_suit(cards[0])]
        if len(cards) == 1:
            if st is not None:
                raise self.bad(seat, cards, "trump is already declared; only a pair can change it (first shown wins)",
                               "已有人亮主，只有对子才能反（先亮为准）")
            return Declaration(seat, cards, "declare", suit, 1)
        if st is None:
            return Declaration(seat, cards, "declare", suit, 2)
        if cur >= 2:
            raise self.bad(seat, cards, "a pair already stands (自保/反主/自反: the first one stands); only a joker "
                           "pair can overturn it", "已有对子（自保、反主、自反以先出现者为准），只能用对王反无主")
        if st.seat == seat:
            kind = "reinforce" if suit == st.suit else "self_overturn"
        else:
            if suit == st.suit:
                raise self.bad(seat, cards, "an overturn (反主) shows a pair of another suit", "反主须亮另一花色的一对级牌")
            kind = "overturn"
        return Declaration(seat, cards, kind, suit, 2)

    def candidate_cards(self, seat: int, level: int, *, overturn: bool) -> list[tuple[int, ...]]:
        """Those :meth:`judge` may accept: no single once trump is declared, only joker pairs once a pair
        stands (the refused ones would be judged and refused one by one)."""
        cands = super().candidate_cards(seat, level, overturn=overturn)
        st = self.hand.declaration
        if st is None:
            return cands
        if st.strength >= 2:
            return [cs for cs in cands if cs[0] >= 52]
        return [cs for cs in cands if len(cs) == 2]

    def dealer_from(self, d: Declaration) -> None:
        h = self.hand
        if h.first_hand:
            h.dealer = h.first_declarer
