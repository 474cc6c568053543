"""Referee rulings for one trick, with explanations — the pure part of ``POST /api/v1/referee/trick``.

:func:`rule_trick` takes the exact JSON body of the API and returns a :class:`TrickRuling`
whose :meth:`TrickRuling.as_api` is the exact answer body. Malformed or impossible input raises
:class:`RequestInvalid` with messages per JSON path ("variant", "hands.1", "plays.2" …).

Holdings may be partial — a director types the cards that matter (say, the led suit's), not whole
hands: seats may show different numbers of cards, none at all, or be left out. Each seat's cards are
taken as all it holds, and the explanation says what that assumes ("seat 3 shows no spades, so it is
treated as void in spades"). Plays must still be held, copies may not exceed the decks, and no seat
may show more than a hand's cards.

A ``level`` is required for tractor and chaodi; for red-five and yongzhou-300 it must be absent
or null (a value is refused, so that a mistaken variant is noticed).

>>> r = rule_trick({"variant": "tractor", "level": "10", "trump": "H",
...                 "hands": {"0": "S9 S8 S8 S4 S4", "1": "SJ S2 S2 D3 D3", "2": "H2 H3 H4 H5 H6",
...                           "3": "C2 C3 C4 C5 C6"},
...                 "leader": 0, "plays": ["S9 S8 S8 S4 S4"]})
>>> r.as_api()["lead"]
{'shape': 'throw', 'components': ['S9', 'S8 S8', 'S4 S4'], 'throw_failed': True, 'forced': 'S9', 'beaten_by': 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gameplay.cards import CODE_NAMES, format_cards, to_counts
from gameplay.combos import Combo
from gameplay.errors import (
    GameplayError,
    IllegalPlay,
    InvalidCards,
    RequestInvalid,
    norm_lang,
)
from gameplay.legality import SHAPE_EN, SHAPE_ZH, check_follow, check_lead, suit_name, throw_check
from gameplay.order import TRUMP, Context
from gameplay.referee_request import parse_request
from gameplay.tricks import play_key, trick_points
from variants.seats import en_seat, seat_number, zh_seat

__all__ = ["RequestInvalid", "TrickRuling", "rule_trick"]

@dataclass
class TrickRuling:
    """A ruling: ``as_api()`` is the API answer; ``explanation`` sentences are in the request's language."""

    lead: dict[str, Any]
    plays: list[dict[str, Any]]
    winner: int | None
    points: int
    explanation: list[str] = field(default_factory=list)
    penalty: int = 0

    def as_api(self, *, explain: bool = False) -> dict[str, Any]:
        """The ruling's figures; with ``explain`` also ``"explanation"`` (the HTTP API sends it)."""
        out: dict[str, Any] = {"lead": dict(self.lead), "plays": [dict(p) for p in self.plays],
                               "winner": self.winner, "points": self.points}
        if explain:
            out["explanation"] = list(self.explanation)
        return out


def _t(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh-hans" else en


def _context_text(ctx: Context, lang: str) -> str:
    variant = ctx.rules.variant
    extra_en = extra_zh = ""
    size = ctx.rules.spec.size_label(ctx.rules.decks, ctx.rules.players)
    if size is not None:
        extra_en, extra_zh = f", {size[0]}", f"，{size[1]}"
    level_en = level_zh = ""
    if ctx.level is not None:
        name = CODE_NAMES[ctx.level - 2][1:]
        level_en, level_zh = f", level {name}", f"，打{name}"
    trump_en = suit_name(ctx.trump_suit, "en") if ctx.trump_suit is not None else "no trump"
    trump_zh = suit_name(ctx.trump_suit, "zh-hans") + "为主" if ctx.trump_suit is not None else "无主"
    if ctx.trump_suit is not None:
        trump_en = f"{trump_en} are trumps"
    return _t(lang, f"Rules: {variant}{extra_en}{level_en}, {trump_en}.",
              f"规则：{variant}{extra_zh}{level_zh}，{trump_zh}。")


def _assumptions(ctx: Context, hands: Mapping[int, list[int]], leader: int, lead: Combo, lang: str) -> list[str]:
    """What the ruling assumes about holdings entered in part: each seat's cards are all it has.

    A seat that shows no card of the led suit is treated as void in it (always said: the ruling
    depends on it). When the seats show different numbers of cards (or none), the hands are partial
    and every other seat's cards of the led suit are taken as all it has; with 见分必打, a seat short of
    a side suit that shows no trumps is treated as having none to ruff with.
    """
    n = ctx.rules.players
    s = lead.suit
    sname = suit_name(s, lang)
    sizes = [len(hands[seat]) for seat in range(n)]
    partial = len(set(sizes)) > 1 or 0 in sizes
    out: list[str] = []
    if partial:
        listed_en = ", ".join(f"{en_seat(seat, capital=False)}: {size}" for seat, size in enumerate(sizes))
        listed_zh = "，".join(f"{seat_number(seat)}号{size}张" for seat, size in enumerate(sizes))
        out.append(_t(lang, f"Partial hands ({listed_en} cards entered): each seat's cards are taken as all it holds.",
                      f"手牌不全（输入了{listed_zh}）：每个座位输入的牌视为其全部手牌。"))
    for i in range(1, n):
        seat = (leader + i) % n
        mine = [c for c in hands[seat] if ctx.esuit[c] == s]
        if not mine:
            out.append(_t(lang, f"{en_seat(seat)} shows no {sname}, so it is treated as void in {sname}.",
                          f"{zh_seat(seat)}没有列出{sname}，因此按{sname}绝门处理。"))
        elif partial:
            out.append(_t(lang, f"{en_seat(seat)}'s {sname} as entered ({format_cards(mine)}) are taken as all it has.",
                          f"{zh_seat(seat)}输入的{sname}（{format_cards(mine)}）视为其全部{sname}。"))
        if partial and ctx.rules.must_beat_on_points and s != TRUMP and len(mine) < len(lead.codes) \
                and not any(ctx.esuit[c] == TRUMP for c in hands[seat]):
            out.append(_t(lang, f"{en_seat(seat)} shows no trumps either, so it is treated as having none to ruff with "
                                "(见分必打).",
                          f"{zh_seat(seat)}也没有列出主牌，按无主牌可毙处理（见分必打）。"))
    return out


def rule_trick(payload: Mapping[str, Any], lang: str = "en") -> TrickRuling:
    """Rule on one trick described by the referee API's JSON body (see module doc): the lead, a
    throw's check, each follow, then the winner."""
    lang = norm_lang(lang)
    ctx, hands, leader, plays = parse_request(payload, lang)
    counts = {s: to_counts(h) for s, h in hands.items()}
    expl: list[str] = [_context_text(ctx, lang)]
    lead_play = plays[0]
    lead_info: dict[str, Any] = {"shape": None, "components": [], "throw_failed": False, "forced": None,
                                 "beaten_by": None}
    try:
        combo = check_lead(ctx, counts[leader], lead_play, seat=leader)
    except GameplayError as e:
        return _illegal_lead(ctx, leader, plays, e, lead_info, expl, lang)
    lead_info["shape"] = combo.shape
    lead_info["components"] = [str(c) for c in combo.display_components()]
    sname = suit_name(combo.suit, lang)
    shape_words = SHAPE_ZH[combo.shape] if lang == "zh-hans" else SHAPE_EN[combo.shape]
    expl.append(_t(lang, f"{en_seat(leader)} leads {format_cards(lead_play)} ({shape_words} of {sname}"
                   + (": " + ", ".join(lead_info["components"]) if combo.is_throw else "") + ").",
                   f"{zh_seat(leader)}首出 {format_cards(lead_play)}（{sname}{shape_words}"
                   + ("：" + "、".join(lead_info["components"]) if combo.is_throw else "") + "）。"))
    expl.extend(_assumptions(ctx, hands, leader, combo, lang))
    effective_lead, table_lead, penalty = combo, list(lead_play), 0
    if combo.is_throw:
        forced, penalty = _judge_throw(ctx, counts, leader, combo, lead_info, expl, lang)
        if forced is not None:
            effective_lead, table_lead = forced, list(forced.codes)
    seat_plays: list[dict[str, Any]] = [{"seat": leader, "cards": format_cards(lead_play), "legal": True,
                                         "reason": None}]
    table: list[list[int]] = [table_lead]
    all_legal = _judge_follows(ctx, counts, leader, plays, effective_lead, table, seat_plays, expl, lang)
    points = trick_points(ctx, table)
    winner, sentence = _trick_end(ctx, leader, len(plays), effective_lead, table, all_legal, points, lang)
    expl.append(sentence)
    return TrickRuling(lead_info, seat_plays, winner, points, expl, penalty)


def _illegal_lead(ctx: Context, leader: int, plays: list[list[int]], e: GameplayError, lead_info: dict[str, Any],
                  expl: list[str], lang: str) -> TrickRuling:
    """The ruling when the lead is refused: its shape where it has one, the follows not judged."""
    lead_play = plays[0]
    seat_plays: list[dict[str, Any]] = [{"seat": leader, "cards": format_cards(lead_play), "legal": False,
                                         "reason": e.message(lang)}]
    expl.append(e.message(lang))
    try:
        from gameplay.combos import classify
        c2 = classify(ctx, lead_play)
        lead_info["shape"] = c2.shape
        lead_info["components"] = [str(c) for c in c2.display_components()]
    except GameplayError:
        lead_info["shape"] = None
    n = ctx.rules.players
    for i in range(1, len(plays)):
        seat = (leader + i) % n
        reason = _t(lang, "Not judged: the lead is not a legal play.", "无法判定：首家出牌不合规。")
        seat_plays.append({"seat": seat, "cards": format_cards(plays[i]), "legal": False, "reason": reason})
    return TrickRuling(lead_info, seat_plays, None, trick_points(ctx, plays), expl)


def _judge_throw(ctx: Context, counts: Mapping[int, list[int]], leader: int, combo: Combo,
                 lead_info: dict[str, Any], expl: list[str], lang: str) -> tuple[Combo | None, int]:
    """A throw's check against the other seats' cards: (the forced component, the penalty) when it
    fails — the failure explained — else (None, 0)."""
    n = ctx.rules.players
    s = combo.suit
    sname = suit_name(s, lang)
    others = {seat: counts[seat] for seat in range(n) if seat != leader}
    tc = throw_check(ctx, combo, others, leader)
    if not tc.failed:
        expl.append(_t(lang, "The throw stands: no other player holds a higher combination of the same shape in "
                             f"{sname}.", "甩牌成功：其他玩家都没有同花色同牌型更大的牌。"))
        return None, 0
    assert tc.forced is not None and tc.beaten_by is not None
    forced = tc.forced
    lead_info["throw_failed"] = True
    lead_info["forced"] = format_cards(forced.codes)
    lead_info["beaten_by"] = tc.beaten_by
    failed_comp = forced.components[0]
    holder = counts[tc.beaten_by]
    bigger = [c for c in ctx.suit_codes[s] if holder[c] >= failed_comp.width
              and ctx.strength[c] > failed_comp.top]
    shown = " ".join(CODE_NAMES[c] for c in reversed(bigger[-3:]))
    if ctx.rules.throw_forced == "lowest_card":
        how_en, how_zh = "the lowest failing component", "失败牌型中最小的一个"
    else:
        how_en = "the failing component with the fewest cards, the lowest of those"
        how_zh = "失败牌型中张数最少、最小的一个"
    expl.append(_t(
        lang,
        f"The throw fails: {en_seat(tc.beaten_by, capital=False)} holds a higher {SHAPE_EN[failed_comp.shape][2:]} of {sname} "
        f"({shown}) than {failed_comp}. {en_seat(leader)} must play {lead_info['forced']} instead ({how_en}); "
        f"the other cards go back to the hand.",
        f"甩牌失败：{zh_seat(tc.beaten_by)}有比 {failed_comp} 大的{sname}{SHAPE_ZH[failed_comp.shape]}（{shown}）。"
        f"{zh_seat(leader)}必须改出 {lead_info['forced']}（{how_zh}），其余的牌收回手中。"))
    penalty = tc.penalty
    if penalty:
        expl.append(_t(lang, f"Throw penalty: {penalty} points ({tc.returned} card(s) returned).",
                       f"甩牌罚分：{penalty}分（退回{tc.returned}张牌）。"))
    return forced, penalty


def _judge_follows(ctx: Context, counts: Mapping[int, list[int]], leader: int, plays: list[list[int]],
                   lead: Combo, table: list[list[int]], seat_plays: list[dict[str, Any]], expl: list[str],
                   lang: str) -> bool:
    """Each follow in turn against the lead and the plays before it (added to ``table``), legal or
    not with the rule it breaks; whether all were legal."""
    n = ctx.rules.players
    s = lead.suit
    all_legal = True
    for i in range(1, len(plays)):
        seat = (leader + i) % n
        play = plays[i]
        try:
            check_follow(ctx, counts[seat], lead, play, prior=table, seat=seat)
            seat_plays.append({"seat": seat, "cards": format_cards(play), "legal": True, "reason": None})
            key = play_key(ctx, lead, play)
            if key is None:
                how = _t(lang, "follows without beating (a discard)" if any(ctx.esuit[c] != s for c in play)
                         else "follows suit", "垫牌" if any(ctx.esuit[c] != s for c in play) else "跟牌")
            elif key[0] == 1:
                how = _t(lang, "ruffs with trumps", "用主牌毙")
            else:
                how = _t(lang, "follows suit", "跟牌")
            expl.append(_t(lang, f"{en_seat(seat)} plays {format_cards(play)}: legal, {how}.",
                           f"{zh_seat(seat)}出 {format_cards(play)}：合规，{how}。"))
        except (IllegalPlay, InvalidCards) as e:
            all_legal = False
            seat_plays.append({"seat": seat, "cards": format_cards(play), "legal": False, "reason": e.message(lang)})
            expl.append(e.message(lang))
        table.append(play)
    return all_legal


def _trick_end(ctx: Context, leader: int, played: int, lead: Combo, table: list[list[int]], all_legal: bool,
               points: int, lang: str) -> tuple[int | None, str]:
    """(the winner, the closing sentence): who wins and why, or why there is no winner yet."""
    n = ctx.rules.players
    if all_legal and played == n:
        best, best_key = 0, play_key(ctx, lead, table[0])
        assert best_key is not None
        for i in range(1, n):
            k = play_key(ctx, lead, table[i])
            if k is not None and k > best_key:
                best, best_key = i, k
        winner = (leader + best) % n
        why = _t(lang, "(the highest play that covers the lead's structure; among equal plays the first played wins)",
                 "（能盖过首家牌型的最大者；大小相同先出为大）")
        if best_key[0] == 1 and lead.suit != TRUMP:
            why = _t(lang, "(the highest trump play covering the lead's structure)", "（盖过首家牌型的最大主牌）")
        return winner, _t(lang, f"{en_seat(winner)} wins the trick with {format_cards(table[best])} {why}; "
                                f"the trick holds {points} points.",
                          f"{zh_seat(winner)}以 {format_cards(table[best])} 赢得本轮{why}；本轮共{points}分。")
    if played < n:
        return None, _t(lang, f"The trick is not complete yet ({played} of {n} plays); points so far: {points}.",
                        f"本轮尚未出完（{played}/{n}）；目前共{points}分。")
    return None, _t(lang, f"No winner: an illegal play must be taken back first. Points on the table: {points}.",
                    f"不合规的出牌须先收回，暂无赢家。桌面共{points}分。")
