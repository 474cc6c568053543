"""Recording a physical hand trick by trick — a pure function from entered facts to derived state.

A scorer at a real table enters the hand's facts (:class:`HandFacts`: variant, dealer, trump or
bid, level, declarations and kitty if known) and then every trick in play order, one seat at a
time (:class:`TrickEntry` of :class:`Play`). The engine names who is to play, checks each trick as
it is entered against what is known so far (:func:`check_trick`), and, once every card has been
played, re-judges every trick with the full hands and derives the scoring outcome
(:func:`derive`). Everything is recomputed from the inputs, so correcting a trick is just calling
:func:`derive` again with the corrected list.

Two kinds of :class:`Issue`:

* **errors** (``blocking=True``) make a trick impossible to judge: a card not in the deck, more
  copies of a card than the decks hold, a seat out of turn, a wrong number of cards, a lead mixing
  suits, a bad forced component, cards after the hand is over. Later tricks are not judged.
* **flags** (``blocking=False``) record a broken rule the table played anyway (revoke, a throw
  where throws are not allowed, an illegal follow or lead found with the full hands, a throw
  entered as standing that should have failed, …). The trick still counts as played; an organizer
  rules on it.

>>> facts = HandFacts("tractor", dealer=0, trump="H", level="2")
>>> j = check_trick(facts, [], [Play(0, parse_cards("SA")), Play(1, parse_cards("S3"))])
>>> j.leader, j.next_seat, j.complete, j.errors
(0, 2, False, ())
>>> j = check_trick(facts, [], [Play(0, parse_cards("SA")), Play(2, parse_cards("S3"))])
>>> [e.code for e in j.errors]
['out_of_turn']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import variants
from gameplay.cards import CODE_NAMES, NCODES, format_cards, parse_cards, to_counts
from gameplay.combos import Combo, classify
from gameplay.config import HandConfig, context_for
from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, InvalidContext, InvalidOption, norm_lang
from gameplay.events import Event, Trick, event_from_json
from gameplay.events import Play as PlayEvent
from gameplay.hand import Hand
from gameplay.legality import SUIT_EN, SUIT_ZH, check_follow, check_lead, throw_check
from gameplay.order import Context
from gameplay.rulesets import RuleSet
from gameplay.tricks import trick_points, trick_winner
from scoring.errors import ScoringInputError
from scoring.partnership import HandResult, MatchState, initial_state
from scoring.redfive import RedFiveResult
from scoring.rules import PartnershipRules
from scoring.yongzhou import YongzhouResult
from variants import Declaring, Settlement

__all__ = ["RECORD_FORMAT", "HandFacts", "InvalidFacts", "Issue", "Play", "RecordedHand", "TrickEntry",
           "TrickJudgement", "check_trick", "derive", "facts_from_hand", "record_from_json", "record_to_json",
           "tricks_from_hand"]

RECORD_FORMAT = "shengji-record/1"

ERROR_CODES = ("not_in_deck", "too_many_copies", "out_of_turn", "wrong_count", "bad_forced", "mixed_lead",
               "hand_over", "earlier_trick_invalid", "outcome_invalid", "tie_break_missing")
"""Codes of blocking errors (stable identifiers for the web layer)."""
FLAG_CODES = ("revoke", "throw_not_allowed", "illegal_lead", "illegal_follow", "throw_should_fail",
              "throw_stood", "wrong_forced", "declaration_not_held")
"""Codes of non-blocking flags."""


class InvalidFacts(GameplayError):
    """Hand facts that cannot describe a hand; ``.field`` names the fact ("variant", "level", "dealer", …)."""

    code = "invalid_facts"

    def __init__(self, field_name: str, en: str, zh: str | None = None) -> None:
        super().__init__(en, zh)
        self.field = field_name


@dataclass(frozen=True)
class Issue:
    """One error or flag: a stable ``code``, the ``seat`` concerned, the 0-based ``tricks`` involved
    (a revoke names the trick that showed the void, then the trick that broke it) and messages in
    English and Simplified Chinese (tricks are numbered from 1 in messages)."""

    code: str
    seat: int | None
    tricks: tuple[int, ...]
    en: str
    zh: str
    blocking: bool

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "zh-hans")."""
        return self.zh if norm_lang(lang) == "zh-hans" else self.en

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "seat": self.seat, "tricks": list(self.tricks), "blocking": self.blocking,
                "en": self.en, "zh": self.zh}


def _error(code: str, seat: int | None, tricks: Iterable[int], en: str, zh: str) -> Issue:
    return Issue(code, seat, tuple(tricks), en, zh, True)


def _flag(code: str, seat: int | None, tricks: Iterable[int], en: str, zh: str) -> Issue:
    return Issue(code, seat, tuple(tricks), en, zh, False)


# ---------------------------------------------------------------- entered facts


def _codes(value: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_cards(value))
    return tuple(int(c) if not isinstance(c, str) else parse_cards(c)[0] for c in value)


@dataclass(frozen=True)
class HandFacts:
    """What the scorer knows before the first trick.

    ``dealer``: the dealer (庄家) for tractor, chaodi and red-five; for yongzhou-300 the declarer, or
    None when nobody declared (then ``leader`` — the start seat — is required). ``leader``: who
    leads the first trick (default: the dealer). ``level`` (tractor, chaodi): the level played;
    ``state``: the match state before the hand (its dealer side's level must be ``level``); without
    it the scoring result assumes a fresh match with both sides at ``level``. ``bid``: red-five's
    contract. ``declarations``: (seat, cards) shown during the deal, if known. ``kitty``: the dealt
    kitty, if known (kept for the record). ``buried``: the buried kitty, if known (otherwise derived
    at the end: the cards nobody played); ``buried_by``: who buried it (default: the dealer).
    ``tie_break`` (yongzhou-300): the seat that won the table's draw when several players tie for the
    most points (RULES §6.4); a tied hand without it is refused, as in the totals entry.
    ``options`` mixes engine and scoring options like :class:`gameplay.hand.HandConfig`.
    """

    variant: str
    dealer: int | None
    trump: str | None
    level: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: int | None = None
    players: int | None = None
    state: MatchState | None = None
    bid: int | None = None
    leader: int | None = None
    declarations: tuple[tuple[int, tuple[int, ...]], ...] = ()
    kitty: tuple[int, ...] | None = None
    buried: tuple[int, ...] | None = None
    buried_by: int | None = None
    tie_break: int | None = None

    # ------------------------------------------------------------ derived pieces

    def config(self) -> HandConfig:
        """The :class:`HandConfig` of the hand (the match state with the dealer set)."""
        return HandConfig(self.variant, dict(self.options), decks=self.decks, players=self.players,
                          state=self.match_state())

    def rules(self) -> RuleSet:
        try:
            return self.config().engine_rules()
        except InvalidOption as e:
            name = e.option if e.option in ("variant", "decks", "players") else f"options.{e.option}"
            raise InvalidFacts(name, e.en, e.zh) from e

    def match_state(self) -> MatchState | None:
        """The partnership match state before the hand, dealer set (None for the individual variants)."""
        if self.variant not in variants.PARTNERSHIP_KEYS:
            return None
        if self.state is not None:
            st = self.state
            return replace(st, dealer=self.dealer) if self.dealer is not None and st.dealer != self.dealer else st
        sr = HandConfig(self.variant, dict(self.options)).scoring_rules()
        assert isinstance(sr, PartnershipRules)
        lv = str(self.level) if self.level is not None else sr.levels[0]
        return replace(initial_state(sr, dealer=self.dealer or 0), levels=(lv, lv))

    def played_level(self) -> str | None:
        st = self.match_state()
        if st is None:
            return None
        return st.levels[st.dealer % 2]

    def first_leader(self) -> int:
        if self.leader is not None:
            return self.leader
        assert self.dealer is not None
        return self.dealer

    def context(self) -> Context:
        """The hand's :class:`Context` (raises :class:`InvalidFacts` naming the wrong fact)."""
        rules = self.rules()
        n = rules.players
        if self.dealer is None and not rules.spec.dealer_is_declarer:
            raise InvalidFacts("dealer", f"{self.variant} needs the dealer's seat (0–{n - 1}).",
                               f"{self.variant} 必须填写庄家座位（0–{n - 1}）。")
        for name in ("dealer", "leader", "buried_by", "tie_break"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n):
                raise InvalidFacts(name, f"“{name}” must be a seat number 0–{n - 1}, not {v!r}.",
                                   f"“{name}”必须是座位号 0–{n - 1}，而不是 {v!r}。")
        if self.dealer is None and self.leader is None:
            raise InvalidFacts("leader", "Nobody declared: give the seat that leads the first trick (the start seat).",
                               "无人叫主：请填写首轮首家座位（起始座位）。")
        if rules.spec.declaring is Declaring.BIDDING and (isinstance(self.bid, bool) or not isinstance(self.bid, int)):
            raise InvalidFacts("bid", "red-five needs the dealer's bid (the contract).", "红五必须填写庄家的叫分。")
        if self.state is not None and self.level is not None and self.dealer is not None \
                and str(self.state.levels[self.dealer % 2]) != str(self.level):
            raise InvalidFacts("level", f"The level {self.level} is not the dealer side's level "
                               f"{self.state.levels[self.dealer % 2]} in the match state.",
                               f"级别 {self.level} 与比赛状态中庄家一方的级别 {self.state.levels[self.dealer % 2]} 不符。")
        if rules.has_levels and self.level is None and self.state is None:
            raise InvalidFacts("level", f"{self.variant} needs the level being played (2–10, J, Q, K, A).",
                               f"{self.variant} 必须填写所打的级别（2–10、J、Q、K、A）。")
        try:
            ctx = context_for(rules, self.played_level(), self.trump)
        except InvalidContext as e:
            raise InvalidFacts(e.field, e.en, e.zh) from e
        for name in ("kitty", "buried"):
            cards = getattr(self, name)
            if cards is None:
                continue
            bad = [c for c in cards if not 0 <= c < NCODES or ctx.esuit[c] < 0]
            if bad:
                raise InvalidFacts(name, f"{format_cards(bad)} is not in the {rules.variant} deck.",
                                   f"{format_cards(bad)} 不在 {rules.variant} 的牌中。")
            if len(cards) != rules.kitty_size:
                raise InvalidFacts(name, f"The kitty of {rules.variant} has {rules.kitty_size} cards, not {len(cards)}.",
                                   f"{rules.variant} 的底牌为{rules.kitty_size}张，而不是{len(cards)}张。")
        for i, (seat, cards) in enumerate(self.declarations):
            if not 0 <= seat < n or not cards or any(ctx.esuit[c] < 0 for c in cards):
                raise InvalidFacts(f"declarations.{i}", "A declaration is a seat and the cards it showed.",
                                   "亮主须填写座位和所亮的牌。")
        return ctx

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        st = None
        if self.state is not None:
            st = {"levels": list(self.state.levels), "dealer": self.state.dealer,
                  "a_failures": list(self.state.a_failures), "hands_played": self.state.hands_played}
        return {"variant": self.variant, "options": dict(self.options), "decks": self.decks, "players": self.players,
                "state": st, "level": self.level, "trump": self.trump, "dealer": self.dealer, "leader": self.leader,
                "bid": self.bid,
                "declarations": [{"seat": s, "cards": format_cards(c)} for s, c in self.declarations],
                "kitty": None if self.kitty is None else format_cards(self.kitty),
                "buried": None if self.buried is None else format_cards(self.buried), "buried_by": self.buried_by,
                "tie_break": self.tie_break}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandFacts:
        try:
            st = data.get("state")
            state = None
            if st is not None:
                state = MatchState(levels=(str(st["levels"][0]), str(st["levels"][1])), dealer=int(st["dealer"]),
                                   a_failures=(int(st.get("a_failures", (0, 0))[0]), int(st.get("a_failures", (0, 0))[1])),
                                   hands_played=int(st.get("hands_played", 0)))
            decl = tuple((int(d["seat"]), _codes(d["cards"])) for d in data.get("declarations") or ())
            kitty = data.get("kitty")
            buried = data.get("buried")
            level = data.get("level")
            return cls(variant=str(data["variant"]), dealer=data.get("dealer"), trump=data.get("trump"),
                       level=None if level is None else str(level), options=dict(data.get("options") or {}),
                       decks=data.get("decks"), players=data.get("players"), state=state, bid=data.get("bid"),
                       leader=data.get("leader"), declarations=decl,
                       kitty=None if kitty is None else _codes(kitty), buried=None if buried is None else _codes(buried),
                       buried_by=data.get("buried_by"), tie_break=data.get("tie_break"))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            if isinstance(e, GameplayError):
                raise InvalidFacts("facts", e.en, e.zh) from e
            raise InvalidFacts("facts", f"The hand facts cannot be read: {e!r}.", f"牌局信息无法读取：{e!r}。") from e


@dataclass(frozen=True)
class Play:
    """One seat's play: the cards it put out; for a failed throw (lead only) ``forced`` is the
    component it had to leave on the table (the rest went back to the hand)."""

    seat: int
    cards: tuple[int, ...]
    forced: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))
        if self.forced is not None:
            object.__setattr__(self, "forced", tuple(self.forced))

    @property
    def on_table(self) -> tuple[int, ...]:
        return self.forced if self.forced is not None else self.cards

    def to_json(self) -> dict[str, Any]:
        """The play as a ``shengji-hand/1`` play event (:meth:`gameplay.events.Event.to_json`)."""
        return PlayEvent(self.seat, self.cards, self.forced).to_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Play:
        ev = event_from_json({**data, "kind": "play"})
        assert isinstance(ev, PlayEvent)
        if ev.seat is None:
            raise InvalidCards("A play needs its seat.", "出牌须注明座位。")
        return cls(int(ev.seat), ev.cards, ev.forced)


@dataclass(frozen=True)
class TrickEntry:
    """One entered trick: the plays in play order, the leader's first (a trick being entered may
    hold fewer plays than players)."""

    plays: tuple[Play, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "plays", tuple(self.plays))

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.plays]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, Any]]) -> TrickEntry:
        return cls(tuple(Play.from_json(p) for p in data))


TrickLike = TrickEntry | Sequence[Play]


def _plays_of(t: TrickLike) -> tuple[Play, ...]:
    return t.plays if isinstance(t, TrickEntry) else tuple(t)


# ---------------------------------------------------------------- judgements


@dataclass(frozen=True)
class TrickJudgement:
    """The engine's view of one entered trick.

    ``leader``: who leads (the dealer, then each trick's winner); ``next_seat``: who plays next
    (None when complete); ``shape``: the lead's shape on the table (a failed throw: its forced
    component); ``winner`` and ``points`` when the trick is complete and has no error; ``penalty``:
    the throw penalty of a failed throw; ``errors`` block, ``flags`` do not (entry-time flags only:
    the full-hand re-judging flags are in :attr:`RecordedHand.flags`).
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


class _Walk:
    """What is known after the tricks judged so far (internal, mutable)."""

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
        self.leads: list[Combo | None] = []  # effective lead of each trick
        self.blocked_at: int | None = None

    @property
    def over(self) -> bool:
        return self.cards_played >= self.rules.hand_size

    def judge(self, plays: Sequence[Play]) -> TrickJudgement:
        ctx, n, index = self.ctx, self.n, len(self.judgements)
        tno = index + 1
        leader = self.leader
        errors: list[Issue] = []
        flags: list[Issue] = []
        variant = self.rules.variant
        if self.blocked_at is not None:
            b = self.blocked_at
            errors.append(_error("earlier_trick_invalid", None, (b,),
                                 f"Trick {b + 1} has an error or is incomplete: complete or correct it before "
                                 f"entering trick {tno}.",
                                 f"第{b + 1}轮有错误或尚未录完：请先录完或更正，再录入第{tno}轮。"))
            return self._done(index, leader, plays, None, None, 0, 0, errors, flags)
        if self.over:
            errors.append(_error("hand_over", None, (index,),
                                 f"Trick {tno}: the hand is over — every seat has played all "
                                 f"{self.rules.hand_size} of its cards.",
                                 f"第{tno}轮：本手牌已打完——每家的{self.rules.hand_size}张牌都已出完。"))
            return self._done(index, leader, plays, None, None, 0, 0, errors, flags)
        if len(plays) > n:
            errors.append(_error("out_of_turn", None, (index,), f"Trick {tno} has {len(plays)} plays for {n} players.",
                                 f"第{tno}轮有{len(plays)}手出牌，但只有{n}名玩家。"))
        for i, p in enumerate(plays[:n]):
            want = (leader + i) % n
            if p.seat != want:
                errors.append(_error("out_of_turn", p.seat, (index,),
                                     f"Trick {tno}: seat {p.seat} is entered out of turn — seat {want} plays "
                                     f"{'first (it leads)' if i == 0 else 'next'}.",
                                     f"第{tno}轮：{p.seat}号座位的出牌顺序不对——{'首家是' if i == 0 else '该出牌的是'}"
                                     f"{want}号座位。"))
            bad = sorted({c for c in (*p.cards, *(p.forced or ())) if not 0 <= c < NCODES or ctx.esuit[c] < 0})
            if bad:
                names = " ".join(CODE_NAMES[c] if 0 <= c < NCODES else str(c) for c in bad)
                errors.append(_error("not_in_deck", p.seat, (index,),
                                     f"Trick {tno}, seat {p.seat}: {names} is not in the {variant} deck.",
                                     f"第{tno}轮，{p.seat}号座位：{names} 不在 {variant} 的牌中。"))
            if not p.cards:
                errors.append(_error("wrong_count", p.seat, (index,),
                                     f"Trick {tno}, seat {p.seat}: a play needs at least one card.",
                                     f"第{tno}轮，{p.seat}号座位：出牌至少要一张。"))
        if errors:
            return self._done(index, leader, plays, None, None, 0, 0, errors, flags)
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
                    errors.append(_error(
                        "too_many_copies", p.seat, (index,),
                        f"Trick {tno}, seat {p.seat}: {names} — the {self.rules.decks} decks hold only "
                        f"{self.rules.decks} of each card, and the others were already played, buried or entered.",
                        f"第{tno}轮，{p.seat}号座位：{names}——{self.rules.decks}副牌每种只有{self.rules.decks}张，"
                        f"其余的已经出过、埋在底牌或已录入。"))
        lead_play = plays[0]
        combo: Combo | None = None
        try:
            combo = classify(ctx, lead_play.cards)
        except IllegalPlay:
            errors.append(_error("mixed_lead", leader, (index,),
                                 f"Trick {tno}: seat {leader} led {format_cards(lead_play.cards)}, which mixes suits; "
                                 "a lead is all trumps or all one side suit. Enter the cards the table played.",
                                 f"第{tno}轮：{leader}号座位首出 {format_cards(lead_play.cards)} 混合了不同的花色；"
                                 "首出必须全是主牌或同一门副牌。请录入实际出的牌。"))
        for p in plays[1:]:
            if p.forced is not None:
                errors.append(_error("bad_forced", p.seat, (index,),
                                     f"Trick {tno}, seat {p.seat}: only the lead can be a failed throw with a "
                                     "forced component.", f"第{tno}轮，{p.seat}号座位：只有首家甩牌失败才有强制出的牌。"))
        effective = combo
        penalty = 0
        if combo is not None and lead_play.forced is not None:
            forced = lead_play.forced
            ok = combo.is_throw and bool(forced) and not [c for c in _missing(lead_play.cards, forced)]
            fcombo = None
            if ok:
                try:
                    fcombo = classify(ctx, forced)
                except IllegalPlay:
                    fcombo = None
                ok = fcombo is not None and not fcombo.is_throw \
                    and any(sorted(comp.codes) == sorted(forced) for comp in combo.components)
            if not ok:
                errors.append(_error(
                    "bad_forced", leader, (index,),
                    f"Trick {tno}: the forced part {format_cards(forced)} of seat {leader}'s lead "
                    f"{format_cards(lead_play.cards)} must be one component (single, pair, triple or tractor) "
                    "of a throw.",
                    f"第{tno}轮：{leader}号座位首出 {format_cards(lead_play.cards)} 的强制出牌 {format_cards(forced)}"
                    " 必须是甩牌中的一个牌型（单张、对子、三张或拖拉机）。"))
            else:
                effective = fcombo
                penalty = (len(lead_play.cards) - len(forced)) * self.rules.throw_penalty
        if effective is not None:
            want_n = effective.n
            for p in plays[1:]:
                if len(p.cards) != want_n:
                    errors.append(_error("wrong_count", p.seat, (index,),
                                         f"Trick {tno}, seat {p.seat}: played {len(p.cards)} card(s) to a lead of "
                                         f"{want_n}; every seat plays as many cards as the lead left on the table.",
                                         f"第{tno}轮，{p.seat}号座位：出了{len(p.cards)}张牌，而首家出了{want_n}张；"
                                         "跟牌张数必须与首家桌面上的牌相同。"))
            if self.cards_played + want_n > self.rules.hand_size:
                errors.append(_error("hand_over", None, (index,),
                                     f"Trick {tno}: {want_n} card(s) each, but every seat has only "
                                     f"{self.rules.hand_size - self.cards_played} left.",
                                     f"第{tno}轮：每家出{want_n}张，但每家只剩{self.rules.hand_size - self.cards_played}张。"))
        if errors or combo is None or effective is None:
            return self._done(index, leader, plays, None, None, 0, 0, errors, flags)
        # flags known at entry: throws where not allowed, revokes
        if combo.is_throw and not self.rules.throw_allowed:
            flags.append(_flag("throw_not_allowed", leader, (index,),
                               f"Trick {tno}: seat {leader} threw {format_cards(lead_play.cards)} (several combinations "
                               f"at once); {variant} does not allow throws.",
                               f"第{tno}轮：{leader}号座位甩牌 {format_cards(lead_play.cards)}（多个牌型一起出），"
                               f"{variant} 不允许甩牌。"))
        es = ctx.esuit
        for p in plays:
            suits = {es[c] for c in p.cards}
            for s in sorted(suits):
                t0 = self.voids[p.seat].get(s)
                if t0 is not None:
                    flags.append(_flag(
                        "revoke", p.seat, (t0, index),
                        f"Revoke: seat {p.seat} showed it had no {SUIT_EN[s]} in trick {t0 + 1} (it played another "
                        f"suit), but played {SUIT_EN[s]} in trick {tno}.",
                        f"出错牌（藏牌）：{p.seat}号座位在第{t0 + 1}轮已表明没有{SUIT_ZH[s]}（垫了别的牌），"
                        f"却在第{tno}轮出了{SUIT_ZH[s]}。"))
        complete = len(plays) == n
        winner: int | None = None
        points = trick_points(ctx, (p.on_table for p in plays))
        if complete:
            i = trick_winner(ctx, effective, [p.on_table for p in plays])
            winner = (leader + i) % n
        return self._done(index, leader, plays, effective, winner, points, penalty, errors, flags)

    def _done(self, index: int, leader: int, plays: Sequence[Play], effective: Combo | None, winner: int | None,
              points: int, penalty: int, errors: list[Issue], flags: list[Issue]) -> TrickJudgement:
        nxt = None if len(plays) >= self.n else (leader + len(plays)) % self.n
        if errors:
            winner = None
        return TrickJudgement(index, leader, tuple(plays), nxt, effective.shape if effective is not None else None,
                              winner, points, penalty, tuple(errors), tuple(flags))

    def commit(self, j: TrickJudgement) -> None:
        """Record a judged trick (complete or not) as known."""
        self.judgements.append(j)
        if j.errors or j.winner is None:
            if self.blocked_at is None:
                self.blocked_at = j.index
        if j.errors:
            self.leads.append(None)
            return
        lead_play = j.plays[0]
        effective = classify(self.ctx, lead_play.on_table)
        self.leads.append(effective)
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


def _missing(have: Sequence[int], want: Sequence[int]) -> list[int]:
    left = to_counts(have)
    out = []
    for c in want:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out


def check_trick(facts: HandFacts, earlier_tricks: Sequence[TrickLike], plays: Sequence[Play]) -> TrickJudgement:
    """Check one trick being entered (1 to all plays) after ``earlier_tricks`` (complete tricks).

    Blocking problems are in ``errors``; ``flags`` hold what was broken but stands (entry-time:
    throws where not allowed, revokes). Raises :class:`InvalidFacts` for impossible facts.
    The full-hand re-judging happens in :func:`derive` once the hand is complete.
    """
    walk = _Walk(facts)
    for t in earlier_tricks:
        walk.commit(walk.judge(_plays_of(t)))
    return walk.judge(list(plays))


# ---------------------------------------------------------------- the derived hand


@dataclass(frozen=True)
class RecordedHand:
    """Everything derived from the facts and the entered tricks.

    ``tricks``: one judgement per entered trick. ``complete``: every card played and no error;
    then ``holdings`` (each seat's cards at the start of play), ``kitty`` (the buried kitty),
    ``flags`` (entry flags plus the full-hand re-judging), ``outcome`` (the scoring core's outcome
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
    """Judge every entered trick in order and, when the hand is complete, re-judge it with the full
    hands and score it. Pure: correcting a trick is calling it again with the corrected list."""
    walk = _Walk(facts)
    for t in tricks:
        walk.commit(walk.judge(_plays_of(t)))
    judgements = tuple(walk.judgements)
    errors = tuple(e for j in judgements for e in j.errors)
    entry_flags = [f for j in judgements for f in j.flags]
    complete = walk.over and not errors and all(j.winner is not None for j in judgements)
    last = judgements[-1] if judgements else None
    if complete:
        next_leader = next_seat = None
    elif last is not None and (last.errors or last.winner is None):
        next_leader, next_seat = last.leader, last.next_seat
    else:
        next_leader = next_seat = walk.leader
    if not complete:
        return RecordedHand(facts, judgements, False, errors, tuple(entry_flags), tuple(walk.points),
                            tuple(walk.penalties), next_leader, next_seat)
    holdings_by_trick = _holdings(walk)
    flags = tuple(entry_flags + _rejudge(walk, holdings_by_trick, entry_flags))
    kitty = _derived_kitty(walk)
    hand, problem = _score(walk, holdings_by_trick[0], kitty)
    if hand is None:
        assert problem is not None
        return RecordedHand(facts, judgements, False, (*errors, problem), flags, tuple(walk.points),
                            tuple(walk.penalties), next_leader, next_seat)
    return RecordedHand(facts, judgements, True, errors, flags, tuple(walk.points), tuple(walk.penalties),
                        None, None, holdings=tuple(tuple(h) for h in _codes_of(holdings_by_trick[0])),
                        kitty=tuple(kitty), kitty_points=sum(walk.ctx.points[c] for c in kitty),
                        outcome=hand.outcome, score_request=hand.score_request(), result=hand.result, hand=hand)


def _codes_of(counts: Sequence[Sequence[int]]) -> list[list[int]]:
    return [[c for c in range(NCODES) for _ in range(h[c])] for h in counts]


def _holdings(walk: _Walk) -> list[list[list[int]]]:
    """Per trick, each seat's count list at the trick's start (the cards it plays from then on)."""
    n = walk.n
    cur = [[0] * NCODES for _ in range(n)]
    out: list[list[list[int]]] = []
    for j in reversed(walk.judgements):
        for p in j.plays:
            for c in p.on_table:
                cur[p.seat][c] += 1
        out.append([list(h) for h in cur])
    out.reverse()
    return out


def _derived_kitty(walk: _Walk) -> list[int]:
    played = [0] * NCODES
    for j in walk.judgements:
        for p in j.plays:
            for c in p.on_table:
                played[c] += 1
    full = to_counts(c for c in range(NCODES) if walk.ctx.esuit[c] >= 0)
    return [c for c in range(NCODES) for _ in range(full[c] * walk.rules.decks - played[c])]


def _rejudge(walk: _Walk, holdings: list[list[list[int]]], entry_flags: list[Issue]) -> list[Issue]:
    """Flags found by re-judging every trick with the full hands (seat, trick and rule named)."""
    ctx, n = walk.ctx, walk.n
    flags: list[Issue] = []
    revoked = {(f.seat, f.tricks[0]) for f in entry_flags if f.code == "revoke"}
    not_allowed = {f.tricks[0] for f in entry_flags if f.code == "throw_not_allowed"}
    for j, hands in zip(walk.judgements, holdings, strict=True):
        tno = j.index + 1
        lead_play = j.plays[0]
        leader = j.leader
        try:
            combo = check_lead(ctx, hands[leader], lead_play.cards, seat=leader)
        except IllegalPlay as e:
            combo = classify(ctx, lead_play.cards)
            if j.index not in not_allowed:
                flags.append(_flag("illegal_lead", leader, (j.index,), f"Trick {tno}: {e.en}", f"第{tno}轮：{e.zh}"))
        except InvalidCards as e:
            combo = classify(ctx, lead_play.cards)
            flags.append(_flag("illegal_lead", leader, (j.index,),
                               f"Trick {tno}: {e.en} The cards a failed throw takes back must be played later.",
                               f"第{tno}轮：{e.zh} 甩牌失败收回的牌必须在之后打出。"))
        if combo.is_throw and ctx.rules.throw_allowed:
            others = {s: hands[s] for s in range(n) if s != leader}
            tc = throw_check(ctx, combo, others, leader)
            entered = lead_play.forced
            if tc.failed and tc.forced is not None:
                want = format_cards(tc.forced.codes)
                if entered is None:
                    flags.append(_flag(
                        "throw_should_fail", leader, (j.index,),
                        f"Trick {tno}: seat {leader}'s throw {format_cards(lead_play.cards)} was entered as standing, "
                        f"but seat {tc.beaten_by} could beat part of it: the throw fails and {want} is forced.",
                        f"第{tno}轮：{leader}号座位的甩牌 {format_cards(lead_play.cards)} 被录为成功，"
                        f"但{tc.beaten_by}号座位能大过其中一部分：甩牌失败，应强制出 {want}。"))
                elif sorted(entered) != sorted(tc.forced.codes):
                    flags.append(_flag(
                        "wrong_forced", leader, (j.index,),
                        f"Trick {tno}: seat {leader}'s failed throw {format_cards(lead_play.cards)} left "
                        f"{format_cards(entered)} on the table, but the rules force {want}.",
                        f"第{tno}轮：{leader}号座位甩牌 {format_cards(lead_play.cards)} 失败后留下了 "
                        f"{format_cards(entered)}，但规则要求强制出 {want}。"))
            elif entered is not None:
                flags.append(_flag(
                    "throw_stood", leader, (j.index,),
                    f"Trick {tno}: seat {leader}'s throw {format_cards(lead_play.cards)} was entered as failed, "
                    "but no other seat could beat any part of it: the throw stands.",
                    f"第{tno}轮：{leader}号座位的甩牌 {format_cards(lead_play.cards)} 被录为失败，"
                    "但其他玩家都大不过其中任何部分：甩牌成功。"))
        lead = walk.leads[j.index]
        assert lead is not None
        table: list[list[int]] = [list(lead_play.on_table)]
        for p in j.plays[1:]:
            if (p.seat, j.index) not in revoked:
                try:
                    check_follow(ctx, hands[p.seat], lead, p.cards, prior=table, seat=p.seat)
                except (IllegalPlay, InvalidCards) as e:
                    flags.append(_flag("illegal_follow", p.seat, (j.index,), f"Trick {tno}: {e.en}",
                                       f"第{tno}轮：{e.zh}"))
            table.append(list(p.cards))
    whole = holdings[0] if holdings else None
    if whole is not None:
        buried_by = walk.facts.buried_by if walk.facts.buried_by is not None else walk.facts.dealer
        kitty = _derived_kitty(walk)
        # chaodi (炒底): every overturner takes the kitty and buries anew, so a shown card may have
        # passed through the kitty to the dealer or a later overturner
        overturners_take_kitty = walk.rules.spec.declaring is Declaring.LEVEL_CARD_AND_JOKER
        takers = {walk.facts.dealer, *(s for s, _ in walk.facts.declarations)} if overturners_take_kitty else set()
        for i, (seat, cards) in enumerate(walk.facts.declarations):
            have = list(whole[seat])
            for other in takers - {seat, None}:
                assert other is not None
                for c in range(NCODES):
                    have[c] += whole[other][c]
            if seat == buried_by or overturners_take_kitty:
                for c in kitty:
                    have[c] += 1
            lacking = _missing([c for c in range(NCODES) for _ in range(have[c])], cards)
            if lacking:
                flags.append(_flag(
                    "declaration_not_held", seat, (),
                    f"Declaration {i + 1}: seat {seat} showed {format_cards(cards)}, but never played "
                    f"{format_cards(lacking)}" + (" nor buried it" if seat == buried_by or overturners_take_kitty else "") + ".",
                    f"第{i + 1}次亮主：{seat}号座位亮了 {format_cards(cards)}，但从未打出"
                    + ("或埋下" if seat == buried_by or overturners_take_kitty else "") + f" {format_cards(lacking)}。"))
    return flags


def _score(walk: _Walk, start: list[list[int]], kitty: list[int]) -> tuple[Hand | None, Issue | None]:
    """Score the complete hand through the engine's own bridge (:meth:`Hand.score`, which asks
    :func:`gameplay.outcome.settle`): a :class:`Hand` placed at the play phase by
    :meth:`Hand.from_position` with the holdings and the kitty, its tricks set to the entered ones."""
    facts = walk.facts
    ctx = walk.ctx
    n = walk.n
    holdings = _codes_of(start)
    leader = facts.first_leader()
    buried_by = facts.buried_by if facts.buried_by is not None else (facts.dealer if facts.dealer is not None
                                                                    else leader)
    if facts.tie_break is None and facts.rules().spec.settlement is Settlement.YONGZHOU:
        best = max(walk.points)
        tied = [s for s, p in enumerate(walk.points) if p == best]
        if len(tied) > 1:
            names = ", ".join(str(s) for s in tied)
            return None, _error("tie_break_missing", None, (),
                                f"Seats {names} tie for the most points: give the seat that won the table's draw "
                                f"(tie_break).",
                                f"座位 {names} 同分最高：请填写抽签胜出的座位（tie_break）。")
    try:
        h = Hand.from_position(facts.config(), holdings, kitty, trump=ctx.trump,
                               dealer=facts.dealer if facts.dealer is not None else leader)
        h.dealer = facts.dealer
        h.buried_by = buried_by
        h.contract = facts.bid
        h.ctx = ctx
        h.hands = [[0] * NCODES for _ in range(n)]
        h.nleft = [0] * n
        for j in walk.judgements:
            events: tuple[Event, ...] = tuple(PlayEvent(p.seat, p.cards, p.forced,
                                                       j.penalty if p.forced is not None else 0) for p in j.plays)
            h.log.extend(events)
            h.public_log.extend(events)
            assert j.winner is not None
            h.tricks.append((j.leader, events, j.winner, j.points))
            h.log.append(Trick(j.winner, (), j.points))
            h.public_log.append(h.log[-1])
            for p in j.plays:
                for c in p.on_table:
                    h.played[c] += 1
        h.points = list(walk.points)
        h.penalties = list(walk.penalties)
        h.tie_break = facts.tie_break
        h.score()
    except ScoringInputError as e:
        return None, _error("outcome_invalid", None, (), f"The scoring core refuses the hand: {e.in_lang('en')}",
                            f"计分核心拒绝了本手牌：{e.in_lang('zh-hans')}")
    return h, None


# ---------------------------------------------------------------- the record log (JSON)


def record_to_json(facts: HandFacts, tricks: Sequence[TrickLike]) -> dict[str, Any]:
    """The stored record: ``{"format": "shengji-record/1", "facts": {...}, "tricks": [[play, ...], ...]}``;
    every play is a ``shengji-hand/1`` play event (``{"kind": "play", "seat", "cards", "forced"?}``)."""
    return {"format": RECORD_FORMAT, "facts": facts.to_json(),
            "tricks": [[p.to_json() for p in _plays_of(t)] for t in tricks]}


def record_from_json(data: Mapping[str, Any] | str) -> tuple[HandFacts, list[TrickEntry]]:
    """Facts and tricks of a stored record (a dict or a JSON string); derive them with :func:`derive`."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise InvalidFacts("record", f"The record is not JSON: {e}.", f"记录不是 JSON：{e}。") from e
    if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT or not isinstance(data.get("tricks"), list):
        raise InvalidFacts("record", f"Not a hand record: expected an object with \"format\": \"{RECORD_FORMAT}\", "
                           "\"facts\" and \"tricks\".", "不是牌局记录：须为含 format、facts、tricks 的对象。")
    facts = HandFacts.from_json(data["facts"])
    tricks = []
    for i, t in enumerate(data["tricks"]):
        try:
            tricks.append(TrickEntry.from_json(t))
        except (GameplayError, KeyError, TypeError, ValueError) as e:
            en = e.en if isinstance(e, GameplayError) else repr(e)
            zh = e.zh if isinstance(e, GameplayError) else repr(e)
            raise InvalidFacts(f"tricks.{i}", f"Trick {i + 1} cannot be read: {en}", f"第{i + 1}轮无法读取：{zh}") from e
    return facts, tricks


# ---------------------------------------------------------------- from an engine-played hand


def facts_from_hand(hand: Hand) -> HandFacts:
    """The facts of a finished engine :class:`Hand` (what a scorer would enter for it)."""
    first_leader = hand.tricks[0][0] if hand.tricks else None
    decl = tuple((e.seat, e.cards) for e in hand.log if e.kind in ("declare", "overturn") and e.seat is not None)
    return HandFacts(hand.variant, dealer=hand.dealer, trump=hand.trump, level=hand.level,
                     options=dict(hand.config.options), decks=hand.config.decks, players=hand.config.players,
                     state=hand.match_state if hand.partnership else None, bid=hand.contract,
                     leader=first_leader, declarations=decl,
                     buried=tuple(hand.kitty) if hand.rules.kitty_size else None, buried_by=hand.buried_by,
                     tie_break=(hand.outcome or {}).get("tie_break"))


def tricks_from_hand(hand: Hand) -> list[TrickEntry]:
    """The tricks of an engine :class:`Hand` as entries (failed throws with their forced part)."""
    return [TrickEntry(tuple(Play(e.seat or 0, e.cards, e.forced if isinstance(e, PlayEvent) else None)
                             for e in plays)) for _, plays, _, _ in hand.tricks]
