"""What a scorer enters for a physical hand (:mod:`gameplay.record`): the facts known before the first
trick (:class:`HandFacts`), the plays and tricks (:class:`Play`, :class:`TrickEntry`), the errors and
flags found in them (:class:`Issue`), and their stored JSON form ``shengji-record/1``
(:func:`record_to_json`, :func:`record_from_json`); :func:`facts_from_hand` and :func:`tricks_from_hand`
turn an engine-played hand into an entry. :mod:`gameplay.record` judges and derives from these.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import variants
from gameplay.cards import NCODES, format_cards, parse_cards
from gameplay.config import HandConfig, context_for
from gameplay.errors import GameplayError, InvalidCards, InvalidContext, InvalidOption, norm_lang
from gameplay.events import Play as PlayEvent
from gameplay.events import event_from_json
from gameplay.hand import Hand
from gameplay.order import Context
from gameplay.rulesets import RuleSet
from scoring.partnership import MatchState, initial_state
from scoring.rules import PartnershipRules

__all__ = ["ERROR_CODES", "FLAG_CODES", "RECORD_FORMAT", "HandFacts", "InvalidFacts", "Issue", "Play",
           "TrickEntry", "TrickLike", "entered_codes", "error_issue", "facts_from_hand", "flag_issue", "plays_of",
           "record_from_json", "record_to_json", "tricks_from_hand"]

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


def error_issue(code: str, seat: int | None, tricks: Iterable[int], en: str, zh: str) -> Issue:
    return Issue(code, seat, tuple(tricks), en, zh, True)


def flag_issue(code: str, seat: int | None, tricks: Iterable[int], en: str, zh: str) -> Issue:
    return Issue(code, seat, tuple(tricks), en, zh, False)


# ---------------------------------------------------------------- entered facts


def entered_codes(value: Any) -> tuple[int, ...]:
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
            raise InvalidFacts("dealer", f"{self.variant} needs the dealer's seat (0–{n - 1}, counted from 0).",
                               f"{self.variant} 必须填写庄家座位（0–{n - 1}，从 0 起算）。")
        for name in ("dealer", "leader", "buried_by", "tie_break"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n):
                raise InvalidFacts(name, f"“{name}” must be a seat number 0–{n - 1} (counted from 0), not {v!r}.",
                                   f"“{name}”必须是座位号 0–{n - 1}（从 0 起算），而不是 {v!r}。")
        if self.dealer is None and self.leader is None:
            raise InvalidFacts("leader", "Nobody declared: give the seat that leads the first trick (the start seat).",
                               "无人叫主：请填写首轮首家座位（起始座位）。")
        if rules.spec.declaring.bids and (isinstance(self.bid, bool) or not isinstance(self.bid, int)):
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
            decl = tuple((int(d["seat"]), entered_codes(d["cards"])) for d in data.get("declarations") or ())
            kitty = data.get("kitty")
            buried = data.get("buried")
            level = data.get("level")
            return cls(variant=str(data["variant"]), dealer=data.get("dealer"), trump=data.get("trump"),
                       level=None if level is None else str(level), options=dict(data.get("options") or {}),
                       decks=data.get("decks"), players=data.get("players"), state=state, bid=data.get("bid"),
                       leader=data.get("leader"), declarations=decl,
                       kitty=None if kitty is None else entered_codes(kitty), buried=None if buried is None else entered_codes(buried),
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


def plays_of(t: TrickLike) -> tuple[Play, ...]:
    return t.plays if isinstance(t, TrickEntry) else tuple(t)



# ---------------------------------------------------------------- the record log (JSON)


def record_to_json(facts: HandFacts, tricks: Sequence[TrickLike]) -> dict[str, Any]:
    """The stored record: ``{"format": "shengji-record/1", "facts": {...}, "tricks": [[play, ...], ...]}``;
    every play is a ``shengji-hand/1`` play event (``{"kind": "play", "seat", "cards", "forced"?}``)."""
    return {"format": RECORD_FORMAT, "facts": facts.to_json(),
            "tricks": [[p.to_json() for p in plays_of(t)] for t in tricks]}


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
