"""A complete recorded hand replayed through the engine's own :class:`~gameplay.hand.Hand`.

Once every card of a physical hand is entered (:mod:`gameplay.record`), each seat's holding at the
start of play is known: the cards it played. :func:`replay_record` places a hand at the play phase
with those holdings and the kitty nobody played (:func:`gameplay.position.hand_at_position`) and
plays the entered plays through it in order, under the recording policy: each play is first put to
the hand's own :meth:`~gameplay.hand.Hand.verify_play` (and a throw to the rules' throw check), a
rule break becomes a flag (:class:`~gameplay.record_facts.Issue`) instead of a refusal, and the play
stands as the table made it (:meth:`~gameplay.hand.Hand.place`). Trick winners, points, throw
penalties and the hand's scoring are then the hand's own (:meth:`~gameplay.hand.Hand.play`'s code,
:meth:`~gameplay.hand.Hand.score` once, after the last trick); the strict policy — a refusal — is
:meth:`~gameplay.hand.Hand.play` itself, for the online table and the bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gameplay.cards import NCODES, format_cards, to_counts
from gameplay.combos import classify
from gameplay.errors import IllegalPlay, InvalidCards
from gameplay.hand import Hand
from gameplay.legality import throw_check
from gameplay.order import Context
from gameplay.position import hand_at_position
from gameplay.record_facts import HandFacts, Issue, Play, error_issue, flag_issue
from scoring.errors import ScoringInputError
from variants.seats import en_seat, en_seats, zh_seat, zh_seats

__all__ = ["Replayed", "derived_kitty", "missing_cards", "replay_record", "start_holdings"]


@dataclass(frozen=True)
class Replayed:
    """The replay of a complete recorded hand: ``hand`` scored (None when it cannot be: ``problem``
    says why), ``flags`` the rule breaks found with the full hands, ``holdings`` each seat's cards
    at the start of play (count lists) and the buried ``kitty``."""

    hand: Hand | None
    flags: tuple[Issue, ...]
    holdings: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    problem: Issue | None = None


def missing_cards(have: Sequence[int], want: Sequence[int]) -> list[int]:
    """The cards of ``want`` not in ``have`` (as many copies as are lacking)."""
    left = to_counts(have)
    out = []
    for c in want:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out


def start_holdings(n: int, tricks: Sequence[Sequence[Play]]) -> list[list[int]]:
    """Each seat's count list at the start of play: every card it left on the table."""
    held = [[0] * NCODES for _ in range(n)]
    for plays in tricks:
        for p in plays:
            for c in p.on_table:
                held[p.seat][c] += 1
    return held


def derived_kitty(ctx: Context, tricks: Sequence[Sequence[Play]]) -> list[int]:
    """The kitty: every card of the decks nobody played."""
    played = [0] * NCODES
    for plays in tricks:
        for p in plays:
            for c in p.on_table:
                played[c] += 1
    full = to_counts(c for c in range(NCODES) if ctx.esuit[c] >= 0)
    return [c for c in range(NCODES) for _ in range(full[c] * ctx.rules.decks - played[c])]


def replay_record(facts: HandFacts, ctx: Context, tricks: Sequence[Sequence[Play]],
                  entry_flags: Sequence[Issue]) -> Replayed:
    """Replay the complete entered hand (``tricks``: every trick's plays, judged without error at
    entry; ``entry_flags``: the flags found then) and score it once."""
    n = ctx.rules.players
    held = start_holdings(n, tricks)
    kitty = derived_kitty(ctx, tricks)
    holdings = tuple(tuple(c for c in range(NCODES) for _ in range(h[c])) for h in held)
    flags = _declaration_flags(facts, ctx, held, kitty)
    leader = facts.first_leader()
    hand = hand_at_position(facts.config(), holdings, kitty, trump=ctx.trump, dealer=facts.dealer, leader=leader,
                            buried_by=facts.buried_by if facts.buried_by is not None else (
                                facts.dealer if facts.dealer is not None else leader),
                            contract=facts.bid, tie_break=facts.tie_break)
    found: list[Issue] = []
    lenient = _Lenient(entry_flags, found)
    try:
        for index, plays in enumerate(tricks):
            for p in plays:
                lenient.judge(hand, index, p)
                hand.place(p.seat, p.cards, p.forced)
    except ScoringInputError as e:
        return Replayed(None, (*found, *flags), holdings, tuple(kitty), error_issue(
            "outcome_invalid", None, (), f"The scoring core refuses the hand: {e.in_lang('en')}",
            f"计分核心拒绝了本手牌：{e.in_lang('zh-hans')}"))
    assert hand.finished
    if facts.tie_break is None and ctx.rules.spec.settlement.winner_deals_next:
        best = max(hand.points)
        tied = [s for s, p in enumerate(hand.points) if p == best]
        if len(tied) > 1:  # the hand drew a seat: a recorded hand names the table's draw instead
            return Replayed(None, (*found, *flags), holdings, tuple(kitty), error_issue(
                "tie_break_missing", None, (),
                f"{en_seats(tied).capitalize()} tie for the most points: give the seat that won the table's draw "
                "(tie_break).", f"{zh_seats(tied)}同分最高：请填写抽签胜出的座位（tie_break）。"))
    return Replayed(hand, (*found, *flags), holdings, tuple(kitty))


class _Lenient:
    """The recording policy: a play is judged by the hand's own rules, and what they refuse is
    flagged rather than raised. A revoke or a throw where throws are not allowed was already
    flagged at entry: its follow or lead is not flagged again."""

    def __init__(self, entry_flags: Sequence[Issue], found: list[Issue]) -> None:
        self.revoked = {(f.seat, f.tricks[0]) for f in entry_flags if f.code == "revoke"}  # where it showed the void
        self.not_allowed = {f.tricks[0] for f in entry_flags if f.code == "throw_not_allowed"}
        self.found = found

    def judge(self, hand: Hand, index: int, p: Play) -> None:
        tno = index + 1
        if hand.trick_lead is not None:  # a follow
            try:
                hand.verify_play(p.seat, p.cards)
            except (IllegalPlay, InvalidCards) as e:
                if (p.seat, index) not in self.revoked:
                    self.found.append(flag_issue("illegal_follow", p.seat, (index,), f"Trick {tno}: {e.en}",
                                                 f"第{tno}轮：{e.zh}"))
            return
        leader, cards = p.seat, p.cards
        try:
            hand.verify_play(leader, cards)
        except IllegalPlay as e:
            if index not in self.not_allowed:
                self.found.append(flag_issue("illegal_lead", leader, (index,), f"Trick {tno}: {e.en}",
                                             f"第{tno}轮：{e.zh}"))
        except InvalidCards as e:
            self.found.append(flag_issue("illegal_lead", leader, (index,),
                                         f"Trick {tno}: {e.en} The cards a failed throw takes back must be played later.",
                                         f"第{tno}轮：{e.zh} 甩牌失败收回的牌必须在之后打出。"))
        ctx = hand.ctx
        assert ctx is not None
        combo = classify(ctx, cards)
        if not (combo.is_throw and ctx.rules.throw_allowed):
            return
        tc = throw_check(ctx, combo, {s: h for s, h in enumerate(hand.hands) if s != leader}, leader)
        entered, shown = p.forced, format_cards(cards)
        if tc.failed and tc.forced is not None:
            want = format_cards(tc.forced.codes)
            if entered is None:
                self.found.append(flag_issue(
                    "throw_should_fail", leader, (index,),
                    f"Trick {tno}: {en_seat(leader, capital=False)}'s throw {shown} was entered as standing, "
                    f"but {en_seat(tc.beaten_by, capital=False)} could beat part of it: the throw fails and {want} is forced.",
                    f"第{tno}轮：{zh_seat(leader)}的甩牌 {shown} 被录为成功，"
                    f"但{zh_seat(tc.beaten_by)}能大过其中一部分：甩牌失败，应强制出 {want}。"))
            elif sorted(entered) != sorted(tc.forced.codes):
                self.found.append(flag_issue(
                    "wrong_forced", leader, (index,),
                    f"Trick {tno}: {en_seat(leader, capital=False)}'s failed throw {shown} left "
                    f"{format_cards(entered)} on the table, but the rules force {want}.",
                    f"第{tno}轮：{zh_seat(leader)}甩牌 {shown} 失败后留下了 "
                    f"{format_cards(entered)}，但规则要求强制出 {want}。"))
        elif entered is not None:
            self.found.append(flag_issue(
                "throw_stood", leader, (index,),
                f"Trick {tno}: {en_seat(leader, capital=False)}'s throw {shown} was entered as failed, "
                "but no other seat could beat any part of it: the throw stands.",
                f"第{tno}轮：{zh_seat(leader)}的甩牌 {shown} 被录为失败，"
                "但其他玩家都大不过其中任何部分：甩牌成功。"))


def _declaration_flags(facts: HandFacts, ctx: Context, whole: Sequence[Sequence[int]], kitty: Sequence[int]
                       ) -> list[Issue]:
    """A declaration whose cards its seat never played (nor buried, nor took with the kitty)."""
    flags: list[Issue] = []
    buried_by = facts.buried_by if facts.buried_by is not None else facts.dealer
    # chaodi (炒底): every overturner takes the kitty and buries anew, so a shown card may have
    # passed through the kitty to the dealer or a later overturner
    overturners_take_kitty = ctx.rules.spec.declaring.overturners_take_kitty
    takers = {facts.dealer, *(s for s, _ in facts.declarations)} if overturners_take_kitty else set()
    for i, (seat, cards) in enumerate(facts.declarations):
        have = list(whole[seat])
        for other in takers - {seat, None}:
            assert other is not None
            for c in range(NCODES):
                have[c] += whole[other][c]
        if seat == buried_by or overturners_take_kitty:
            for c in kitty:
                have[c] += 1
        lacking = missing_cards([c for c in range(NCODES) for _ in range(have[c])], cards)
        if lacking:
            flags.append(flag_issue(
                "declaration_not_held", seat, (),
                f"Declaration {i + 1}: {en_seat(seat, capital=False)} showed {format_cards(cards)}, but never played "
                f"{format_cards(lacking)}" + (" nor buried it" if seat == buried_by or overturners_take_kitty else "") + ".",
                f"第{i + 1}次亮主：{zh_seat(seat)}亮了 {format_cards(cards)}，但从未打出"
                + ("或埋下" if seat == buried_by or overturners_take_kitty else "") + f" {format_cards(lacking)}。"))
    return flags
