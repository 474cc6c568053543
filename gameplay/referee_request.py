"""The referee API's request (``POST /api/v1/referee/trick``), read and checked field group by field
group: the rules (variant, options, decks, players, level, trump), the hands, the leader and the plays.
Every wrong field is named by its JSON path ("variant", "hands.1", "plays.2" …) in
:class:`RequestInvalid`; a group is read only once the groups it needs are right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameplay.cards import format_cards, parse_cards, to_counts
from gameplay.errors import InvalidCards, InvalidContext, InvalidOption, RequestInvalid
from gameplay.order import Context
from gameplay.rulesets import RuleSet, ruleset
from variants.seats import en_seat, zh_seat

KNOWN_FIELDS = {"variant", "options", "players", "decks", "level", "trump", "hands", "leader", "plays"}


class _Errors:
    """The messages per JSON path, in the request's language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.errors: dict[str, list[str]] = {}

    def add(self, path: str, en: str, zh: str) -> None:
        self.errors.setdefault(path, []).append(zh if self.lang == "zh-hans" else en)

    def raise_if_any(self) -> None:
        if self.errors:
            raise RequestInvalid(self.errors, self.lang)


def _read_rules(payload: Mapping[str, Any], errs: _Errors) -> RuleSet:
    """The variant, its option overrides, decks and players (unknown fields refused here too)."""
    for key in payload:
        if key not in KNOWN_FIELDS:
            errs.add(str(key), f"Unknown field “{key}”.", f"未知字段“{key}”。")
    variant = payload.get("variant")
    options = payload.get("options") or {}
    if not isinstance(options, Mapping):
        errs.add("options", "“options” must be an object of rule overrides.", "“options”必须是规则选项的对象。")
        options = {}
    rules = None
    try:
        rules = ruleset(str(variant) if variant is not None else "", dict(options),
                        decks=payload.get("decks"), players=payload.get("players"))
    except InvalidOption as e:
        path = e.option if e.option in ("variant", "decks", "players") else f"options.{e.option}"
        if variant is None and e.option == "variant":
            errs.add("variant", "The variant is required: tractor, chaodi, red-five or yongzhou-300.",
                     "必须填写玩法：tractor、chaodi、red-five 或 yongzhou-300。")
        else:
            errs.add(path, e.message("en"), e.message("zh-hans"))
    errs.raise_if_any()
    assert rules is not None
    return rules


def _read_context(payload: Mapping[str, Any], rules: RuleSet, errs: _Errors) -> Context:
    """The level being played and the trump suit, under ``rules``."""
    ctx = None
    level = payload.get("level")
    try:
        ctx = Context(rules, level, payload.get("trump"))
    except InvalidContext as e:
        if e.field == "level" and rules.has_levels and level is None:
            errs.add("level", f"{rules.variant} needs the level being played (2–10, J, Q, K, A).",
                     f"{rules.variant} 必须填写所打的级别（2–10、J、Q、K、A）。")
        else:
            errs.add(e.field, e.message("en"), e.message("zh-hans"))
    errs.raise_if_any()
    assert ctx is not None
    return ctx


def _read_hands(payload: Mapping[str, Any], ctx: Context, errs: _Errors) -> dict[int, list[int]]:
    """Each seat's cards as entered (every seat of the table, a seat left out holding none), each
    card in the deck; then no seat over a hand's cards and no card over the decks' copies."""
    rules = ctx.rules
    n = rules.players
    raw_hands = payload.get("hands")
    hands: dict[int, list[int]] = {}
    if not isinstance(raw_hands, Mapping):
        errs.add("hands", f"“hands” must map seat numbers 0–{n - 1} (counted from 0) to the cards they hold "
                 "(only those that matter).", f"“hands”必须把座位号 0–{n - 1}（从 0 起算）对应到其手中的牌（只需相关的牌）。")
        errs.raise_if_any()
        raise AssertionError
    for key, text in raw_hands.items():
        path = f"hands.{key}"
        if not (isinstance(key, str | int) and str(key).isdigit() and int(key) < n):
            errs.add(path, f"There is no seat “{key}”: the keys of “hands” are seat numbers 0–{n - 1}, counted from 0.",
                     f"没有座位“{key}”：“hands”的键是座位号 0–{n - 1}（从 0 起算）。")
            continue
        if not isinstance(text, str | list):
            errs.add(path, "Cards must be a string like “S9 S8 S8”.", "手牌必须是形如“S9 S8 S8”的字符串。")
            continue
        try:
            codes = parse_cards(text)
        except InvalidCards as e:
            errs.add(path, e.message("en"), e.message("zh-hans"))
            continue
        bad = [c for c in codes if ctx.esuit[c] < 0]
        if bad:
            names = format_cards(bad)
            errs.add(path, f"{names} is not in the {rules.variant} deck.", f"{names} 不在 {rules.variant} 的牌中。")
            continue
        hands[int(key)] = codes
    errs.raise_if_any()
    # Holdings may be partial: a seat absent or empty shows no cards, and seats may show different numbers.
    for seat in range(n):
        hands.setdefault(seat, [])
    _check_holdings(rules, hands, errs)
    return hands


def _check_holdings(rules: RuleSet, hands: dict[int, list[int]], errs: _Errors) -> None:
    for seat, h in sorted(hands.items()):
        if len(h) > rules.hand_size:
            errs.add(f"hands.{seat}", f"{en_seat(seat)} has {len(h)} cards; a hand of {rules.variant} has at most "
                     f"{rules.hand_size}.", f"{zh_seat(seat)}有{len(h)}张牌；{rules.variant} 每手最多{rules.hand_size}张。")
    total = to_counts(c for h in hands.values() for c in h)
    over = [c for c in range(54) if total[c] > rules.decks]
    if over:
        for seat, h in sorted(hands.items()):
            mine = sorted({c for c in h if c in over})
            if mine:
                names = format_cards(mine)
                errs.add(f"hands.{seat}", f"{names}: the hands hold more copies than the {rules.decks} decks contain.",
                         f"{names}：各家手牌中的张数超过了{rules.decks}副牌的数量。")


def _read_leader(payload: Mapping[str, Any], n: int, errs: _Errors) -> int:
    """The seat that leads (counted from 0); -1, with the error, when it is not one."""
    raw_leader = payload.get("leader")
    leader = raw_leader if isinstance(raw_leader, int) and not isinstance(raw_leader, bool) else -1
    if not 0 <= leader < n:
        errs.add("leader", f"“leader” must be a seat number 0–{n - 1}, counted from 0.",
                 f"“leader”必须是座位号 0–{n - 1}（从 0 起算）。")
    return leader


def _read_plays(payload: Mapping[str, Any], hands: dict[int, list[int]], leader: int, n: int,
                errs: _Errors) -> list[list[int]]:
    """The plays in order, the leader's first (1 to all players'), each held by its seat when the
    leader is known."""
    raw_plays = payload.get("plays")
    plays: list[list[int]] = []
    if not isinstance(raw_plays, list) or not raw_plays:
        errs.add("plays", "“plays” must list 1 to all players' plays, the leader's first.",
                 "“plays”必须按顺序列出1到全部玩家的出牌，首家在前。")
        return plays
    if len(raw_plays) > n:
        errs.add("plays", f"Too many plays: {len(raw_plays)} for {n} players.", f"出牌过多：{n}人只能出{n}手牌。")
        return plays
    for i, text in enumerate(raw_plays):
        path = f"plays.{i}"
        try:
            if not isinstance(text, str | list):
                raise InvalidCards("A play must be a string like “S9 S8 S8”.", "出牌必须是形如“S9 S8 S8”的字符串。")
            codes = parse_cards(text)
            if not codes:
                raise InvalidCards("A play needs at least one card.", "出牌至少要一张。")
        except InvalidCards as e:
            errs.add(path, e.message("en"), e.message("zh-hans"))
            plays.append([])
            continue
        plays.append(codes)
        if 0 <= leader < n:
            seat = (leader + i) % n
            left = to_counts(hands.get(seat, []))
            lacking = []
            for c in codes:
                if left[c] > 0:
                    left[c] -= 1
                else:
                    lacking.append(c)
            if lacking:
                names = format_cards(lacking)
                errs.add(path, f"{en_seat(seat)} does not hold {names}.", f"{zh_seat(seat)}手中没有 {names}。")
    return plays


def parse_request(payload: Mapping[str, Any], lang: str) -> tuple[Context, dict[int, list[int]], int, list[list[int]]]:
    """(context, hands per seat, leader, plays) of a referee request; raises :class:`RequestInvalid`
    naming every wrong field of the first group that has one (the hands, leader and plays together)."""
    errs = _Errors(lang)
    if not isinstance(payload, Mapping):
        errs.add("body", "The request must be a JSON object.", "请求必须是 JSON 对象。")
        errs.raise_if_any()
    rules = _read_rules(payload, errs)
    ctx = _read_context(payload, rules, errs)
    hands = _read_hands(payload, ctx, errs)
    leader = _read_leader(payload, rules.players, errs)
    plays = _read_plays(payload, hands, leader, rules.players, errs)
    errs.raise_if_any()
    return ctx, hands, leader, plays
