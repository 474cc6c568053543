"""Red five's bidding (RULES §5.3): after the deal, seats bid game points in turn (a pass is final); the
highest bidder becomes the dealer, names trump and takes the kitty. Nobody declares cards."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import ClassVar

from gameplay.cards import SUITS
from gameplay.declaring.base import Declaration, DeclaringProtocol
from gameplay.errors import IllegalPlay, OutOfTurn
from scoring.rules import RedFiveRules
from variants.behaviour import BiddingDeclaring
from variants.seats import en_seat, zh_seat


class Bidding(DeclaringProtocol):
    declaring: ClassVar[str] = BiddingDeclaring.key

    def first_bidder(self, configured: int | None, rng: random.Random) -> int | None:
        if configured is not None:
            return configured
        if self.hand.rules.option("first_bidder") != "random":
            return 0
        drawn = rng.randrange(self.hand.n)
        # kept in the hand's config, so its log (to_json) replays the same hand without the seed
        self.hand.config = replace(self.hand.config, first_bidder=drawn)
        return drawn

    def deal_window(self) -> bool:
        return False

    def end_deal(self) -> None:
        h = self.hand
        h.phase = "bid"
        h.bid_turn = h.first_bidder

    def judge(self, seat: int, cards: tuple[int, ...]) -> Declaration:
        raise IllegalPlay("red-five has no declaring: the dealer is found by bidding.", "红五不亮主：以叫分定庄。")

    def rules(self) -> RedFiveRules:
        sc = self.hand.scoring
        assert isinstance(sc, RedFiveRules)
        return sc

    def bid_range(self) -> tuple[int, int]:
        return self.rules().bid_range

    def legal_bids(self, seat: int) -> list[int]:
        h = self.hand
        if h.phase != "bid" or h.bid_turn != seat:
            return []
        lo, hi = self.bid_range()
        inc_lo, inc_hi = self.rules().bid_increment
        if h.contract is None:
            start, stop = lo, min(hi, lo + inc_hi)
        else:
            start, stop = h.contract + inc_lo, min(hi, h.contract + inc_hi)
        return list(range(start, stop + 1, 5))

    def verify_bid(self, seat: int, amount: int) -> None:
        h = self.hand
        if h.phase != "bid":
            super().verify_bid(seat, amount)
        if seat != h.bid_turn:
            raise OutOfTurn(f"{en_seat(seat)} bid out of turn: {en_seat(h.bid_turn, capital=False)} is to bid.",
                            f"{zh_seat(seat)}没有轮到叫分：现在轮到{zh_seat(h.bid_turn)}。")
        if amount not in self.legal_bids(seat):
            lo, hi = self.bid_range()
            last = "" if h.contract is None else f" the last bid is {h.contract}, so"
            raise IllegalPlay(f"{en_seat(seat)} cannot bid {amount}: bids run {lo}–{hi} in steps of 5;{last} a bid "
                              f"must be one of {self.legal_bids(seat)} (5 to 15 above the last).",
                              f"{zh_seat(seat)}不能叫 {amount} 分：叫分范围 {lo}–{hi}，每次比上家高5至15分，可叫 {self.legal_bids(seat)}。")

    def made_bid(self, seat: int, amount: int) -> None:
        """``seat`` bid ``amount`` (checked and logged)."""
        h = self.hand
        h.contract = amount
        h.bidder = seat
        h.bids.append((seat, amount))
        self.after_bid()

    def passed(self, seat: int, phase: str) -> None:
        if phase != "bid":
            super().passed(seat, phase)
            return
        h = self.hand
        h.bid_passed.add(seat)
        h.bids.append((seat, None))
        self.after_bid()

    def after_bid(self) -> None:
        h = self.hand
        lo, hi = self.bid_range()
        n = h.n
        winner = None
        if h.contract is not None and h.contract >= hi:
            winner = h.bidder
        elif h.bidder is not None and len(h.bid_passed) >= n - 1 and h.bidder not in h.bid_passed:
            winner = h.bidder
        elif len(h.bid_passed) >= n:
            if h.bidder is None:
                winner = h.first_bidder
                h.contract = lo
            else:
                winner = h.bidder
        if winner is not None:
            h.dealer = winner
            h.bidder = winner
            h.phase = "trump"
            return
        assert h.bid_turn is not None
        s = h.bid_turn
        for _ in range(n):
            s = (s + 1) % n
            if s not in h.bid_passed:
                break
        h.bid_turn = s

    def verify_name_trump(self, seat: int, suit: str) -> None:
        h = self.hand
        if h.phase != "trump":
            super().verify_name_trump(seat, suit)
        if seat != h.dealer:
            raise OutOfTurn(f"{en_seat(seat)} cannot name trump: the dealer ({en_seat(h.dealer, capital=False)}) does.",
                            f"{zh_seat(seat)}不能定主：由庄家（{zh_seat(h.dealer)}）定主。")
        if suit not in SUITS:
            raise IllegalPlay(f"{suit!r} is not a trump suit: red-five names S, H, C or D (no no-trump).",
                              f"{suit!r} 不是主花色：红五须选 S、H、C 或 D（不能无主）。")

