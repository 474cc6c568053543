"""Recording a physical hand trick by trick — a pure function from entered facts to derived state.

A scorer at a real table enters the hand's facts (:class:`HandFacts`: variant, dealer, trump or
bid, level, declarations and kitty if known) and then every trick in play order, one seat at a
time (:class:`TrickEntry` of :class:`Play`). The engine names who is to play, checks each trick as
it is entered against what is known so far (:func:`check_trick`, or :class:`Recording` kept from
play to play so that each play is judged once), and, once every card has been played, replays the
hand through the engine's own :class:`Hand` with the full hands (:mod:`gameplay.record_replay`:
the rule breaks found then are flags) and scores it, once (:func:`derive`). Everything is derived
from the inputs, so correcting a trick is just calling :func:`derive` again with the corrected list.

Two kinds of :class:`Issue`:

* **errors** (``blocking=True``) make a trick impossible to judge: a card not in the deck, more
  copies of a card than the decks hold, a seat out of turn, a wrong number of cards, a lead mixing
  suits, a bad forced component, cards after the hand is over. Later tricks are not judged.
* **flags** (``blocking=False``) record a broken rule the table played anyway (revoke, a throw
  where throws are not allowed, an illegal follow or lead found with the full hands, a throw
  entered as standing that should have failed, …). The trick still counts as played; an organizer
  rules on it.

>>> from gameplay.cards import parse_cards
>>> facts = HandFacts("tractor", dealer=0, trump="H", level="2")
>>> j = check_trick(facts, [], [Play(0, parse_cards("SA")), Play(1, parse_cards("S3"))])
>>> j.leader, j.next_seat, j.complete, j.errors
(0, 2, False, ())
>>> j = check_trick(facts, [], [Play(0, parse_cards("SA")), Play(2, parse_cards("S3"))])
>>> [e.code for e in j.errors]
['out_of_turn']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gameplay.cards import CODE_NAMES, NCODES, format_cards, to_counts
from gameplay.combos import Combo, classify
from gameplay.errors import IllegalPlay
from gameplay.hand import Hand
from gameplay.legality import SUIT_EN, SUIT_ZH
from gameplay.record_facts import (
    ERROR_CODES,
    FLAG_CODES,
    RECORD_FORMAT,
    HandFacts,
    InvalidFacts,
    Issue,
    Play,
    TrickEntry,
    TrickLike,
    error_issue,
    facts_from_hand,
    flag_issue,
    plays_of,
    record_from_json,
    record_to_json,
    tricks_from_hand,
)
from gameplay.record_replay import missing_cards, replay_record
from gameplay.tricks import trick_points, trick_winner
from scoring.partnership import HandResult
from scoring.redfive import RedFiveResult
from scoring.yongzhou import YongzhouResult
from variants.seats import en_seat, zh_seat

__all__ = ["ERROR_CODES", "FLAG_CODES", "RECORD_FORMAT", "HandFacts", "InvalidFacts", "Issue", "Play",
           "RecordedHand", "Recording", "TrickEntry", "TrickJudgement", "check_trick", "derive", "facts_from_hand",
           "record_from_json", "record_to_json", "tricks_from_hand"]


# ---------------------------------------------------------------- judgements


@dataclass(frozen=True)
class TrickJudgement:
    """The engine's view of one entered trick.

    ``leader``: who leads (the dealer, then each trick's winner); ``next_seat``: who plays next
    (None when complete); ``shape``: the lead's shape on the table (a failed throw: its forced
    component); ``winner`` and ``points`` when the trick is complete and has no error; ``penalty``:
    the throw penalty of a failed throw; ``errors`` block, ``flags`` do not (entry-time flags only:
    the flags found with the full hands are in :attr:`RecordedHand.flags`).
    """

    index: int
    leader: int
    plays: tuple[Play, ...]
    next_seat: int | None
    shape: str | None
    winner: int | None
    points: int
    penalty: int
    errors: tuple[Issue, ...]
    flags: tuple[Issue, ...]

    @property
    def complete(self) -> bool:
        return self.next_seat is None and not self.errors

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "leader": self.leader, "plays": [p.to_json() for p in self.plays],
                "next_seat": self.next_seat, "shape": self.shape, "winner": self.winner, "points": self.points,
                "penalty": self.penalty, "errors": [e.to_json() for e in self.errors],
                "flags": [f.to_json() for f in self.flags]}


class Recording:
    """A physical hand being recorded: what is known after the tricks judged so far, kept from one
    entered play to the next (the entry service keeps one per draft, so that each play is judged
    once). :meth:`judge` checks a trick being entered against it (1 to all plays), :meth:`commit`
    adds a judged trick, :meth:`add` does both; :meth:`derived` is the :class:`RecordedHand` —
    once the hand is complete, replayed through the engine's :class:`Hand` and scored, once."""

    def __init__(self, facts: HandFacts) -> None:
        self.facts = facts
        self.ctx = facts.context()
        self.rules = self.ctx.rules
        self.n = self.rules.players
        self.seen = to_counts(facts.buried or ())
        self.cards_played = 0  # per seat (every seat plays the same number per trick)
        self.leader = facts.first_leader()
        self.voids: list[dict[int, int]] = [{} for _ in range(self.n)]  # seat -> {suit: trick that showed it}
        self.points = [0] * self.n
        self.penalties = [0] * self.n
        self.judgements: list[TrickJudgement] = []
        self.blocked_at: int | None = None
        self._derived: RecordedHand | None = None

    @classmethod
    def of(cls, facts: HandFacts, tricks: Sequence[TrickLike]) -> Recording:
        """The recording after ``tricks`` (each judged once, in order)."""
        rec = cls(facts)
        for t in tricks:
            rec.add(plays_of(t))
        return rec

    @property
    def over(self) -> bool:
        return self.cards_played >= self.rules.hand_size

    def add(self, plays: Sequence[Play]) -> TrickJudgement:
        """Judge the next trick (complete or being entered) and add it."""
        j = self.judge(plays)
        self.commit(j)
        return j

    def judge(self, plays: Sequence[Play]) -> TrickJudgement:
        """Judge a trick being entered (1 to all plays), in stages: what blocks reading it at all (an
        earlier trick, the hand over, the order, the deck, an empty play), then the copies of each
        card, the lead and a failed throw's forced part, the number of cards; flags known at entry
        (a throw where not allowed, a revoke); the winner once complete."""
        index, leader = len(self.judgements), self.leader
        errors = self._entry_errors(index, plays)
        if errors:
            return self._done(index, leader, plays, None, None, 0, 0, errors, [])
        errors = self._copy_errors(index, plays)
        combo = self._lead_combo(index, plays, errors)
        effective, penalty = self._effective_lead(index, plays, combo, errors)
        if effective is not None:
            self._count_errors(index, plays, effective, errors)
        if errors or combo is None or effective is None:
            return self._done(index, leader, plays, None, None, 0, 0, errors, [])
        flags = self._entry_flags(index, plays, combo)
        winner: int | None = None
        points = trick_points(self.ctx, (p.on_table for p in plays))
        if len(plays) == self.n:
            i = trick_winner(self.ctx, effective, [p.on_table for p in plays])
            winner = (leader + i) % self.n
        return self._done(index, leader, plays, effective, winner, points, penalty, errors, flags)

    def _entry_errors(self, index: int, plays: Sequence[Play]) -> list[Issue]:
        """An earlier trick blocked or the hand over (alone); else the order of play, cards not in the
        deck and empty plays."""
        ctx, n, tno, leader = self.ctx, self.n, index + 1, self.leader
        variant = self.rules.variant
        errors: list[Issue] = []
        if self.blocked_at is not None:
            b = self.blocked_at
            errors.append(error_issue("earlier_trick_invalid", None, (b,),
                                 f"Trick {b + 1} has an error or is incomplete: complete or correct it before "
                                 f"entering trick {tno}.",
                                 f"第{b + 1}轮有错误或尚未录完：请先录完或更正，再录入第{tno}轮。"))
            return errors
        if self.over:
            errors.append(error_issue("hand_over", None, (index,),
                                 f"Trick {tno}: the hand is over — every seat has played all "
                                 f"{self.rules.hand_size} of its cards.",
                                 f"第{tno}轮：本手牌已打完——每家的{self.rules.hand_size}张牌都已出完。"))
            return errors
        if len(plays) > n:
            errors.append(error_issue("out_of_turn", None, (index,), f"Trick {tno} has {len(plays)} plays for {n} players.",
                                 f"第{tno}轮有{len(plays)}手出牌，但只有{n}名玩家。"))
        for i, p in enumerate(plays[:n]):
            want = (leader + i) % n
            if p.seat != want:
                errors.append(error_issue("out_of_turn", p.seat, (index,),
                                     f"Trick {tno}: {en_seat(p.seat, capital=False)} is entered out of turn — {en_seat(want, capital=False)} plays "
                                     f"{'first (it leads)' if i == 0 else 'next'}.",
                                     f"第{tno}轮：{zh_seat(p.seat)}的出牌顺序不对——{'首家是' if i == 0 else '该出牌的是'}"
                                     f"{zh_seat(want)}。"))
            bad = sorted({c for c in (*p.cards, *(p.forced or ())) if not 0 <= c < NCODES or ctx.esuit[c] < 0})
            if bad:
                names = " ".join(CODE_NAMES[c] if 0 <= c < NCODES else str(c) for c in bad)
                errors.append(error_issue("not_in_deck", p.seat, (index,),
                                     f"Trick {tno}, {en_seat(p.seat, capital=False)}: {names} is not in the {variant} deck.",
                                     f"第{tno}轮，{zh_seat(p.seat)}：{names} 不在 {variant} 的牌中。"))
            if not p.cards:
                errors.append(error_issue("wrong_count", p.seat, (index,),
                                     f"Trick {tno}, {en_seat(p.seat, capital=False)}: a play needs at least one card.",
                                     f"第{tno}轮，{zh_seat(p.seat)}：出牌至少要一张。"))
        return errors

    def _copy_errors(self, index: int, plays: Sequence[Play]) -> list[Issue]:
        """Cards entered more often than the decks hold, counting those already played or buried."""
        tno = index + 1
        errors: list[Issue] = []
        # copies: cards already seen (played, buried) plus this trick's cards
        used = list(self.seen)
        for p in plays:
            for c in p.cards:
                used[c] += 1
        over = [c for c in range(NCODES) if used[c] > self.rules.decks]
        if over:
            for p in plays:
                mine = sorted({c for c in p.cards if c in over})
                if mine:
                    names = format_cards(mine)
                    errors.append(error_issue(
                        "too_many_copies", p.seat, (index,),
                        f"Trick {tno}, {en_seat(p.seat, capital=False)}: {names} — the {self.rules.decks} decks hold only "
                        f"{self.rules.decks} of each card, and the others were already played, buried or entered.",
                        f"第{tno}轮，{zh_seat(p.seat)}：{names}——{self.rules.decks}副牌每种只有{self.rules.decks}张，"
                        f"其余的已经出过、埋在底牌或已录入。"))
        return errors

    def _lead_combo(self, index: int, plays: Sequence[Play], errors: list[Issue]) -> Combo | None:
        """The lead classified (None, with the error, when it mixes suits); a forced part on a follow is
        an error too."""
        ctx, tno, leader = self.ctx, index + 1, self.leader
        lead_play = plays[0]
        combo: Combo | None = None
        try:
            combo = classify(ctx, lead_play.cards)
        except IllegalPlay:
            errors.append(error_issue("mixed_lead", leader, (index,),
                                 f"Trick {tno}: {en_seat(leader, capital=False)} led {format_cards(lead_play.cards)}, which mixes suits; "
                                 "a lead is all trumps or all one side suit. Enter the cards the table played.",
                                 f"第{tno}轮：{zh_seat(leader)}首出 {format_cards(lead_play.cards)} 混合了不同的花色；"
                                 "首出必须全是主牌或同一门副牌。请录入实际出的牌。"))
        for p in plays[1:]:
            if p.forced is not None:
                errors.append(error_issue("bad_forced", p.seat, (index,),
                                     f"Trick {tno}, {en_seat(p.seat, capital=False)}: only the lead can be a failed throw with a "
                                     "forced component.", f"第{tno}轮，{zh_seat(p.seat)}：只有首家甩牌失败才有强制出的牌。"))
        return combo

    def _effective_lead(self, index: int, plays: Sequence[Play], combo: Combo | None,
                        errors: list[Issue]) -> tuple[Combo | None, int]:
        """(the lead as it stands on the table, the throw penalty): a failed throw's forced part must be
        one component of the throw."""
        ctx, tno, leader = self.ctx, index + 1, self.leader
        lead_play = plays[0]
        effective = combo
        penalty = 0
        if combo is not None and lead_play.forced is not None:
            forced = lead_play.forced
            ok = combo.is_throw and bool(forced) and not missing_cards(lead_play.cards, forced)
            fcombo = None
            if ok:
                try:
                    fcombo = classify(ctx, forced)
                except IllegalPlay:
                    fcombo = None
                ok = fcombo is not None and not fcombo.is_throw \
                    and any(sorted(comp.codes) == sorted(forced) for comp in combo.components)
            if not ok:
                errors.append(error_issue(
                    "bad_forced", leader, (index,),
                    f"Trick {tno}: the forced part {format_cards(forced)} of {en_seat(leader, capital=False)}'s lead "
                    f"{format_cards(lead_play.cards)} must be one component (single, pair, triple or tractor) "
                    "of a throw.",
                    f"第{tno}轮：{zh_seat(leader)}首出 {format_cards(lead_play.cards)} 的强制出牌 {format_cards(forced)}"
                    " 必须是甩牌中的一个牌型（单张、对子、三张或拖拉机）。"))
            else:
                effective = fcombo
                penalty = (len(lead_play.cards) - len(forced)) * self.rules.throw_penalty
        return effective, penalty

    def _count_errors(self, index: int, plays: Sequence[Play], effective: Combo, errors: list[Issue]) -> None:
        """Every follow as many cards as the lead left on the table, and no more than the hands hold."""
        tno = index + 1
        want_n = effective.n
        for p in plays[1:]:
            if len(p.cards) != want_n:
                errors.append(error_issue("wrong_count", p.seat, (index,),
                                     f"Trick {tno}, {en_seat(p.seat, capital=False)}: played {len(p.cards)} card(s) to a lead of "
                                     f"{want_n}; every seat plays as many cards as the lead left on the table.",
                                     f"第{tno}轮，{zh_seat(p.seat)}：出了{len(p.cards)}张牌，而首家出了{want_n}张；"
                                     "跟牌张数必须与首家桌面上的牌相同。"))
        if self.cards_played + want_n > self.rules.hand_size:
            errors.append(error_issue("hand_over", None, (index,),
                                 f"Trick {tno}: {want_n} card(s) each, but every seat has only "
                                 f"{self.rules.hand_size - self.cards_played} left.",
                                 f"第{tno}轮：每家出{want_n}张，但每家只剩{self.rules.hand_size - self.cards_played}张。"))

    def _entry_flags(self, index: int, plays: Sequence[Play], combo: Combo) -> list[Issue]:
        """Flags known at entry: a throw where the variant allows none, a revoke (a suit played after a
        trick showed the seat void in it)."""
        ctx, tno, leader = self.ctx, index + 1, self.leader
        variant = self.rules.variant
        lead_play = plays[0]
        flags: list[Issue] = []
        if combo.is_throw and not self.rules.throw_allowed:
            flags.append(flag_issue("throw_not_allowed", leader, (index,),
                               f"Trick {tno}: {en_seat(leader, capital=False)} threw {format_cards(lead_play.cards)} (several combinations "
                               f"at once); {variant} does not allow throws.",
                               f"第{tno}轮：{zh_seat(leader)}甩牌 {format_cards(lead_play.cards)}（多个牌型一起出），"
                               f"{variant} 不允许甩牌。"))
        es = ctx.esuit
        for p in plays:
            suits = {es[c] for c in p.cards}
            for s in sorted(suits):
                t0 = self.voids[p.seat].get(s)
                if t0 is not None:
                    flags.append(flag_issue(
                        "revoke", p.seat, (t0, index),
                        f"Revoke: {en_seat(p.seat, capital=False)} showed it had no {SUIT_EN[s]} in trick {t0 + 1} (it played another "
                        f"suit), but played {SUIT_EN[s]} in trick {tno}.",
                        f"出错牌（藏牌）：{zh_seat(p.seat)}在第{t0 + 1}轮已表明没有{SUIT_ZH[s]}（垫了别的牌），"
                        f"却在第{tno}轮出了{SUIT_ZH[s]}。"))
        return flags

    def _done(self, index: int, leader: int, plays: Sequence[Play], effective: Combo | None, winner: int | None,
              points: int, penalty: int, errors: list[Issue], flags: list[Issue]) -> TrickJudgement:
        nxt = None if len(plays) >= self.n else (leader + len(plays)) % self.n
        if errors:
            winner = None
        return TrickJudgement(index, leader, tuple(plays), nxt, effective.shape if effective is not None else None,
                              winner, points, penalty, tuple(errors), tuple(flags))

    def commit(self, j: TrickJudgement) -> None:
        """Record a judged trick (complete or not) as known: the next in order (:meth:`judge`'s)."""
        assert j.index == len(self.judgements), "tricks are committed in order"
        self._derived = None
        self.judgements.append(j)
        if j.errors or j.winner is None:
            if self.blocked_at is None:
                self.blocked_at = j.index
        if j.errors:
            return
        lead_play = j.plays[0]
        effective = classify(self.ctx, lead_play.on_table)
        es = self.ctx.esuit
        for p in j.plays:
            for c in p.on_table:
                self.seen[c] += 1
            if p is not lead_play and p.seat is not None and any(es[c] != effective.suit for c in p.cards):
                self.voids[p.seat].setdefault(effective.suit, j.index)
        if j.winner is not None:
            self.cards_played += effective.n
            self.points[j.winner] += j.points
            self.penalties[j.leader] += j.penalty
            self.leader = j.winner


    def derived(self) -> RecordedHand:
        """Everything derived from the tricks so far (worked out once until the next :meth:`commit`):
        a complete hand is replayed through the engine's :class:`Hand` and scored here, once."""
        if self._derived is None:
            self._derived = self._derive()
        return self._derived

    def _derive(self) -> RecordedHand:
        facts, judgements = self.facts, tuple(self.judgements)
        errors = tuple(e for j in judgements for e in j.errors)
        entry_flags = tuple(f for j in judgements for f in j.flags)
        complete = self.over and not errors and all(j.winner is not None for j in judgements)
        last = judgements[-1] if judgements else None
        if complete:
            next_leader = next_seat = None
        elif last is not None and (last.errors or last.winner is None):
            next_leader, next_seat = last.leader, last.next_seat
        else:
            next_leader = next_seat = self.leader
        points, penalties = tuple(self.points), tuple(self.penalties)
        if not complete:
            return RecordedHand(facts, judgements, False, errors, entry_flags, points, penalties, next_leader,
                                next_seat)
        replayed = replay_record(facts, self.ctx, [j.plays for j in judgements], entry_flags)
        flags = (*entry_flags, *replayed.flags)
        h = replayed.hand
        if h is None:
            assert replayed.problem is not None
            return RecordedHand(facts, judgements, False, (*errors, replayed.problem), flags, points, penalties,
                                next_leader, next_seat)
        return RecordedHand(facts, judgements, True, errors, flags, tuple(h.points), tuple(h.penalties), None, None,
                            holdings=replayed.holdings, kitty=replayed.kitty, kitty_points=h.kitty_points(),
                            outcome=h.outcome, score_request=h.score_request(), result=h.result, hand=h)


def check_trick(facts: HandFacts, earlier_tricks: Sequence[TrickLike], plays: Sequence[Play]) -> TrickJudgement:
    """Check one trick being entered (1 to all plays) after ``earlier_tricks`` (complete tricks).

    Blocking problems are in ``errors``; ``flags`` hold what was broken but stands (entry-time:
    throws where not allowed, revokes). Raises :class:`InvalidFacts` for impossible facts.
    The full hands are judged in :func:`derive` once the hand is complete (:mod:`gameplay.record_replay`).
    """
    return Recording.of(facts, earlier_tricks).judge(list(plays))


# ---------------------------------------------------------------- the derived hand


@dataclass(frozen=True)
class RecordedHand:
    """Everything derived from the facts and the entered tricks.

    ``tricks``: one judgement per entered trick. ``complete``: every card played and no error;
    then ``holdings`` (each seat's cards at the start of play), ``kitty`` (the buried kitty),
    ``flags`` (entry flags plus those of the full-hand replay), ``outcome`` (the scoring core's outcome
    object, as :attr:`gameplay.hand.Hand.outcome`), ``score_request`` (the body of
    ``POST /api/v1/scoring/hand``) and ``result`` are set. ``points``: points won per seat so far;
    ``penalties``: throw penalties per leading seat. ``next_leader`` and ``next_seat``: who leads
    the next trick and who plays next (None when the hand is over).
    """

    facts: HandFacts
    tricks: tuple[TrickJudgement, ...]
    complete: bool
    errors: tuple[Issue, ...]
    flags: tuple[Issue, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    next_leader: int | None
    next_seat: int | None
    holdings: tuple[tuple[int, ...], ...] | None = None
    kitty: tuple[int, ...] | None = None
    kitty_points: int | None = None
    outcome: dict[str, Any] | None = None
    score_request: dict[str, Any] | None = None
    result: HandResult | RedFiveResult | YongzhouResult | None = field(default=None, compare=False)
    hand: Hand | None = field(default=None, compare=False, repr=False)
    """The scored engine :class:`Hand` (a ``position`` log with the entered plays), for the replay page."""

    def winners(self) -> list[int | None]:
        return [t.winner for t in self.tricks]

    def hand_log(self) -> dict[str, Any] | None:
        """The ``shengji-hand/1`` log of the complete hand (see :func:`record_to_json` for the record)."""
        return None if self.hand is None else self.hand.to_json()

    def to_json(self) -> dict[str, Any]:
        out = record_to_json(self.facts, [TrickEntry(t.plays) for t in self.tricks])
        out["derived"] = {"tricks": [t.to_json() for t in self.tricks], "complete": self.complete,
                          "errors": [e.to_json() for e in self.errors], "flags": [f.to_json() for f in self.flags],
                          "points": list(self.points), "penalties": list(self.penalties),
                          "next_leader": self.next_leader, "next_seat": self.next_seat,
                          "kitty": None if self.kitty is None else format_cards(self.kitty),
                          "kitty_points": self.kitty_points, "outcome": self.outcome,
                          "score_request": self.score_request}
        return out


def derive(facts: HandFacts, tricks: Sequence[TrickLike]) -> RecordedHand:
    """Judge every entered trick in order and, when the hand is complete, replay it through the
    engine's :class:`Hand` with the full hands and score it. Pure: correcting a trick is calling it
    again with the corrected list."""
    return Recording.of(facts, tricks).derived()
