"""Chaodi's declaring (RULES §5.1, §5.2): a level card with the joker of its colour declares, a pair of
level cards with it insures (定主). A match's first hand declares while dealing (the declarer deals);
later hands ask each seat once after the deal, the dealer first. Nobody declaring turns a kitty card
(翻底). After the dealer buries the kitty comes the overturn round (炒底): stronger pairs with their
joker, or joker pairs, overturn; each overturner takes and re-buries the kitty."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from gameplay.cards import BJ, LJ, NCODES, SUITS, code_rank, code_suit, format_cards, make_code
from gameplay.declaring.base import MAX_REDEALS, PAIR_ORDER, Declaration, DeclaringProtocol
from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from variants import level_rank
from variants.behaviour import LevelCardAndJokerDeclaring
from variants.seats import en_seat, zh_seat

JOKER_OF = {"D": BJ, "H": BJ, "C": LJ, "S": LJ}
"""The joker of a suit's colour: red suits with the big joker, black with the little one."""

STRONGER = ("an overturn must be stronger than what stands (BJ BJ > LJ LJ > ♠ > ♥ > ♣ > ♦)",
            "反主须大于已亮的主（对大王 > 对小王 > 黑桃 > 红桃 > 梅花 > 方块）")


class LevelCardAndJoker(DeclaringProtocol):
    declaring: ClassVar[str] = LevelCardAndJokerDeclaring.key
    shows_first_kitty: ClassVar[bool] = True
    has_insurance: ClassVar[bool] = True

    def decl_level(self, seat: int) -> int | None:
        """Later hands: each side declares with its own level."""
        h = self.hand
        assert h.state is not None
        lv = h.level if h.first_hand else h.state.levels[seat % 2]
        assert lv is not None
        return level_rank(lv)

    def deal_window(self) -> bool:
        h = self.hand
        return h.first_hand and h.declaration is None

    def end_deal(self) -> None:
        h = self.hand
        if not h.first_hand:
            assert h.dealer is not None
            d = h.dealer
            self.start_round([d, (d + 2) % 4, (d + 1) % 4, (d + 3) % 4])
        elif h.declaration is not None:
            self.resolve()
        else:
            super().end_deal()

    def linear_round(self) -> bool:
        return not self.hand.first_hand

    def declared_in_round(self, seat: int) -> None:
        if self.hand.first_hand:
            super().declared_in_round(seat)
        else:
            self.resolve()

    def candidate_cards(self, seat: int, level: int, *, overturn: bool) -> list[tuple[int, ...]]:
        h = self.hand.hands[seat]
        cands: list[tuple[int, ...]] = []
        if h[LJ] >= 2:
            cands.append((LJ, LJ))
        if h[BJ] >= 2:
            cands.append((BJ, BJ))
        for s in range(4):
            c = make_code(s, level)
            j = JOKER_OF[SUITS[s]]
            if h[c] and h[j]:
                if not overturn:
                    cands.append((c, j))
                if h[c] >= 2:
                    cands.append((c, c, j))
        return cands

    def judge(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        h = self.hand
        level = h.decl_level(seat)
        if h.declaration is not None:
            raise self.bad(seat, cards, "trump is already declared (overturns come after the kitty, in later hands)",
                           "已有人亮主（反主在扣底之后，且不在首局）")
        lv = [c for c in cards if c < 52]
        jk = [c for c in cards if c >= 52]
        ok = len(jk) == 1 and 1 <= len(lv) <= 2 and all(c == lv[0] for c in lv) and code_rank(lv[0]) == level \
            and jk[0] == JOKER_OF[SUITS[code_suit(lv[0])]]
        if not ok:
            raise self.bad(seat, cards, "declare with a level card and the joker of its colour (♥/♦ with BJ, ♠/♣ "
                           "with LJ), or a pair of level cards with that joker (定主)",
                           "须亮一张级牌加同颜色的王（红桃/方块配大王，黑桃/梅花配小王），或一对级牌加该王（定主）")
        suit = SUITS[code_suit(lv[0])]
        if len(lv) == 2:
            if not h.first_hand and h.dealer is not None and seat != h.dealer and seat % 2 == h.dealer % 2:
                raise self.bad(seat, cards, "only the dealer insures (定主) with a pair of level cards; the partner "
                               "declares with one level card and the joker", "只有庄家可以用一对级牌定主；对家用一张级牌加王叫主")
            return Declaration(seat, cards, "insured", suit, PAIR_ORDER[suit])
        return Declaration(seat, cards, "declare", suit, 0)

    def judge_overturn(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        h = self.hand
        level = level_rank(str(h.level))
        st = h.declaration
        cur = st.strength if st else 0
        if cards in ((LJ, LJ), (BJ, BJ)):
            strength = 5 if cards[0] == LJ else 6
            if strength <= cur:
                raise self.bad(seat, cards, *STRONGER)
            return Declaration(seat, cards, "no_trump", None, strength)
        lv = [c for c in cards if c < 52]
        jk = [c for c in cards if c >= 52]
        if len(cards) != 3 or len(lv) != 2 or lv[0] != lv[1] or code_rank(lv[0]) != level or \
                jk[0] != JOKER_OF[SUITS[code_suit(lv[0])]]:
            raise self.bad(seat, cards, "an overturn (反主) shows a pair of level cards of one suit with the joker "
                           "of its colour, or a pair of jokers", "反主须亮一对同花色级牌加同颜色的王，或一对王")
        suit = SUITS[code_suit(lv[0])]
        if PAIR_ORDER[suit] <= cur:
            raise self.bad(seat, cards, *STRONGER)
        return Declaration(seat, cards, "overturn", suit, PAIR_ORDER[suit])

    # ------------------------------------------------------------ 翻底 and the dealer

    def turn_kitty_card(self, card: int) -> bool:
        """翻底 (seed 001): the holder of the other copy deals, at its side's level; with both copies in
        the kitty the dealer stays — a first hand has none yet: redeal."""
        h = self.hand
        holder = next((s for s in range(h.n) if h.hands[s][card]), None)
        if holder is not None:
            h.dealer = holder
        elif h.dealer is None and h.redeals < MAX_REDEALS:
            h.redeal()
            return False
        return True

    def kitty_card_names_trump(self, card: int) -> bool:
        return code_rank(card) != 2  # 2s are permanent trumps

    def dealer_from(self, d: Declaration) -> None:
        h = self.hand
        if h.first_hand:
            h.dealer = d.seat
        else:
            assert h.dealer is not None
            if d.seat % 2 != h.dealer % 2:
                h.dealer = d.seat

    # ------------------------------------------------------------ insurance (定主)

    def verify_insure(self, seat: int, cards: Sequence[int] | None) -> tuple[int, int]:
        """Check 定主 (RULES §5.1): after the dealer's own declaration stands, and before the dealer buries the
        kitty, the dealer may show a pair of the trump suit's level card; later overturns must then beat
        that pair in the overturn order. ``cards`` None: that pair. Returns the pair."""
        h = self.hand
        rule_en = ("insurance (定主, RULES §5.1) is shown by the dealer after its declaration stands and before "
                   "it buries the kitty")
        rule_zh = "定主（规则 §5.1）由庄家在其叫主成立后、扣底之前亮出"
        if h.phase != "kitty" or h.round_started:
            when = "the kitty is already buried" if h.round_started else f"the phase is {h.phase}"
            raise WrongPhase(f"{en_seat(seat)} cannot insure now ({when}): {rule_en}.",
                             f"{zh_seat(seat)}现在不能定主（{'已扣底' if h.round_started else h.phase + ' 阶段'}）："
                             f"{rule_zh}。")
        if h.first_hand:
            raise IllegalPlay(f"{en_seat(seat)} cannot insure: a match's first hand has no overturn round, so "
                              "there is nothing to insure against (RULES §5.2).",
                              f"{zh_seat(seat)}不能定主：首局没有反主炒底，无需定主（规则 §5.2）。")
        if seat != h.dealer:
            raise OutOfTurn(f"{en_seat(seat)} cannot insure: only the dealer ({en_seat(h.dealer, capital=False)}) insures (定主, "
                            "RULES §5.1).", f"{zh_seat(seat)}不能定主：只有庄家（{zh_seat(h.dealer)}）可以定主（规则 §5.1）。")
        d = h.declaration
        if d is None or d.seat != seat:
            why_en = "trump was set by the kitty card (翻底)" if d is None else f"trump was declared by {en_seat(d.seat, capital=False)}"
            why_zh = "主由翻底决定" if d is None else f"主由{zh_seat(d.seat)}叫出"
            raise IllegalPlay(f"{en_seat(seat)} cannot insure: {why_en}; the dealer insures its own declaration "
                              "(定主).", f"{zh_seat(seat)}不能定主：{why_zh}；庄家只能为自己叫的主定主。")
        if d.kind == "insured":
            raise IllegalPlay(f"{en_seat(seat)} cannot insure: the declaration is already insured (定主).",
                              f"{zh_seat(seat)}不能定主：已经定主。")
        pair = self.insurance_pair()
        assert pair is not None
        shown = pair if cards is None else tuple(sorted(cards))
        if shown != pair:
            raise self.bad(seat, shown, f"insurance (定主) shows a pair of the trump level card, {format_cards(pair)}",
                           f"定主须亮一对主花色的级牌 {format_cards(pair)}")
        if h.hands[seat][pair[0]] < 2:
            raise InvalidCards(f"{en_seat(seat)} does not hold {format_cards(pair)} to insure (定主).",
                               f"{zh_seat(seat)}手中没有 {format_cards(pair)} 可定主。")
        return pair

    def insurance_pair(self) -> tuple[int, int] | None:
        """The pair of the trump suit's level card (None without a trump suit or a level)."""
        h = self.hand
        if h.trump is None or h.level is None:
            return None
        c = make_code(SUITS.index(h.trump), level_rank(h.level))
        return (c, c)

    def legal_insurances(self, seat: int) -> list[tuple[int, ...]]:
        h = self.hand
        if h.phase != "kitty" or h.round_started or seat != h.dealer:
            return []
        try:
            return [self.verify_insure(seat, None)]
        except GameplayError:
            return []

    def insurance(self, seat: int, pair: tuple[int, int]) -> Declaration:
        """The declaration once insured: that pair's overturn strength (♠ > ♥ > ♣ > ♦, below joker pairs)."""
        d = self.hand.declaration
        assert d is not None and d.suit is not None
        return Declaration(seat, pair, "insured", d.suit, PAIR_ORDER[d.suit])

    # ------------------------------------------------------------ the overturn round (炒底)

    def after_bury(self, seat: int) -> None:
        h = self.hand
        if h.first_hand:
            super().after_bury(seat)
            return
        if not h.round_started:
            assert h.dealer is not None
            d = h.dealer
            h.round_started = True
            h.overturner_original = h.declaration.seat if h.declaration is not None else None
            h.round_order = [(d + 1 + i) % 4 for i in range(4)]
            h.turn_index = 0
        else:
            h.turn_index = (h.round_order.index(seat) + 1) % 4
        h.passes = 0
        h.phase = "overturn"
        self.advance_overturn()

    def legal_overturns(self, seat: int) -> list[tuple[int, ...]]:
        h = self.hand
        if h.phase != "overturn" or h.round_order[h.turn_index] != seat:
            return []
        if seat == h.overturner_original and not h.overturned_once:
            return []
        return self.candidates(seat, overturn=True)

    def verify_overturn(self, seat: int, cards: Sequence[int]) -> Declaration:
        h = self.hand
        if h.phase != "overturn":
            super().verify_overturn(seat, cards)
        who = h.round_order[h.turn_index]
        if seat != who:
            raise OutOfTurn(f"{en_seat(seat)} cannot overturn now: it is {en_seat(who, capital=False)}'s turn.",
                            f"{zh_seat(seat)}现在不能反主：轮到{zh_seat(who)}。")
        cs = tuple(sorted(cards))
        if seat == h.overturner_original and not h.overturned_once:
            raise self.bad(seat, cs, "the original declarer may overturn only after someone else has",
                           "原叫主玩家只有在别人反主之后才能反主")
        held = h.hands[seat]
        for c in set(cs):
            if not 0 <= c < NCODES or held[c] < cs.count(c):
                raise InvalidCards(f"{en_seat(seat)} does not hold {format_cards(cs)}.",
                                   f"{zh_seat(seat)}手中没有 {format_cards(cs)}。")
        return self.judge_overturn(seat, cs)

    def passed(self, seat: int, phase: str) -> None:
        if phase != "overturn":
            super().passed(seat, phase)
            return
        h = self.hand
        h.passes += 1
        h.turn_index = (h.turn_index + 1) % 4
        self.advance_overturn()

    def advance_overturn(self) -> None:
        h = self.hand
        while True:
            if h.passes >= h.n:
                assert h.dealer is not None
                h.begin_play(h.dealer)
                return
            seat = h.round_order[h.turn_index]
            if self.legal_overturns(seat):
                return
            h.passes += 1
            h.turn_index = (h.turn_index + 1) % 4
