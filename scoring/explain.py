"""Explanations of a scored hand, sentence by sentence, in English or Simplified Chinese.

Used by the calculator page: which band of the table applied, the kitty multiplier and why, why a
level stopped at a must-play level, the A-pass conditions, the red-five band, the Yongzhou nets.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import normalize_lang
from scoring.partnership import HandResult, MatchState, PartnershipOutcome
from scoring.redfive import RedFiveOutcome, RedFiveResult
from scoring.rules import KittyMultiplier, PartnershipRules, RedFiveRules, YongzhouRules
from scoring.yongzhou import YongzhouOutcome, YongzhouResult
from variants.seats import seat_number, seat_numbers, side_number

SENTENCES: dict[str, tuple[str, str]] = {
    # --- partnership: kitty
    "kitty_dealer": (
        "The dealer's side won the last trick: the kitty's {kitty} points do not count for the attackers.",
        "庄家方赢得最后一轮：底牌的 {kitty} 分不计入闲家。",
    ),
    "kitty_dealer_empty": (
        "The dealer's side won the last trick: no kitty bonus for the attackers.",
        "庄家方赢得最后一轮：闲家没有抠底得分。",
    ),
    "kitty_power_of_two": (
        "The attackers won the last trick; its largest component has {largest} card(s), so the kitty "
        "counts ×2^{largest} = ×{raw}.",
        "闲家赢得最后一轮（抠底）；最大牌型为 {largest} 张，底分翻 2^{largest} = {raw} 倍。",
    ),
    "kitty_by_cards": (
        "The attackers won the last trick; its largest component has {largest} card(s): a single counts ×1, "
        "a pair ×2, a tractor ×its number of cards — here ×{raw}.",
        "闲家赢得最后一轮（抠底）；最大牌型为 {largest} 张：单张 ×1，对子 ×2，拖拉机按张数翻倍——此处 ×{raw}。",
    ),
    "kitty_flat": (
        "The attackers won the last trick: the kitty counts ×1.",
        "闲家赢得最后一轮（抠底）：底分 ×1。",
    ),
    "kitty_double": (
        "The attackers won the last trick: the kitty counts ×2.",
        "闲家赢得最后一轮（抠底）：底分 ×2。",
    ),
    "kitty_cap": ("The multiplier is capped at ×{cap}.", "倍数最高为 {cap} 倍。"),
    "kitty_bonus": (
        "Kitty bonus: {kitty} × {mult} = {bonus} points.",
        "抠底得分：{kitty} × {mult} = {bonus} 分。",
    ),
    "penalties": (
        "Throw penalties: {penalties} points to the attackers.",
        "甩牌罚分：闲家 {penalties} 分。",
    ),
    "total": ("The attackers' total: {parts} = {total} points.", "闲家总得分：{parts} = {total} 分。"),
    "total_floor": ("A total below 0 counts as 0.", "总分低于 0 按 0 计。"),
    "part_tricks": ("{value} in tricks", "牌面 {value}"),
    "part_kitty": ("{value} from the kitty", "抠底 {value}"),
    "part_penalties": ("{value} in throw penalties", "罚分 {value}"),
    # --- partnership: level table
    "band_zero": (
        "The attackers scored 0: the dealer's side goes up {gain} level(s).",
        "闲家得 0 分（光头）：庄家方升 {gain} 级。",
    ),
    "band_dealer": (
        "{total} points falls in the {range} band of the level table: the dealer's side goes up {gain} level(s).",
        "{total} 分在升级表的 {range} 档：庄家方升 {gain} 级。",
    ),
    "band_dealer_none": (
        "{total} points falls in the {range} band of the level table: the dealer's side keeps the deal without going up.",
        "{total} 分在升级表的 {range} 档：庄家方保庄，不升级。",
    ),
    "band_takeover": (
        "{total} points falls in the {range} band of the level table: the attackers take the deal without going up.",
        "{total} 分在升级表的 {range} 档：闲家上台，不升级。",
    ),
    "band_attackers": (
        "{total} points falls in the {range} band of the level table: the attackers take the deal and go up {gain} level(s).",
        "{total} 分在升级表的 {range} 档：闲家上台并升 {gain} 级。",
    ),
    "band_extra": (
        "{total} points: the {range} band gives {band_gain} level(s), and every further {step} points one more: "
        "{gain} levels for the attackers.",
        "{total} 分：{range} 档升 {band_gain} 级，此后每多 {step} 分再升一级：闲家共升 {gain} 级。",
    ),
    "range": ("{low}–{high}", "{low}–{high}"),
    "range_open": ("{low} and more", "{low} 及以上"),
    # --- partnership: A
    "a_attempt": (
        "Side {side} played at A, so passing A needs three conditions: an A from the dealer's side in the first "
        "and in the last trick ({first}); the dealer's side winning the last trick ({second}); the attackers "
        "below {takeover} points ({third}).",
        "第 {side} 方打 A，过 A 需三个条件：庄家方在第一轮和最后一轮都出 A（{first}）；庄家方赢得最后一轮（{second}）；"
        "闲家得分低于 {takeover}（{third}）。",
    ),
    "met": ("met", "满足"),
    "not_met": ("not met", "不满足"),
    "a_passed": ("All three hold: side {side} passes A.", "三个条件都满足：第 {side} 方过 A。"),
    "a_failed": (
        "The attempt failed: side {side} has failed at A {count} time(s) in a row{limit}.",
        "打 A 失败：第 {side} 方已连续 {count} 次打 A 失败{limit}。",
    ),
    "a_limit": (" (the limit is {limit})", "（上限 {limit} 次）"),
    "a_keeps": (
        "Below {takeover} points the dealer's side keeps the deal, without going up.",
        "闲家未到 {takeover} 分，庄家方保庄，不升级。",
    ),
    "a_forced": (
        "That is {limit} failed attempts: the deal passes to the attackers although they scored below {takeover}.",
        "已达 {limit} 次失败：即使闲家未到 {takeover} 分，庄家方也必须下庄。",
    ),
    "a_reset": (
        "Side {side}'s count of failed A attempts starts again from 0.",
        "第 {side} 方打 A 失败次数重新从 0 计。",
    ),
    "a_stays": ("Side {side} stays at A.", "第 {side} 方仍停在 A。"),
    "a_drops": ("Side {side} goes back to {level}.", "第 {side} 方退回 {level}。"),
    # --- partnership: levels, deal, match
    "moves": ("Side {side} goes from {before} to {after}.", "第 {side} 方从 {before} 升到 {after}。"),
    "stopped": (
        "Side {side} stops at {level}: it is a must-play level, and a side goes past it only by going up as "
        "the dealer's side at {level} (it must defend it).",
        "第 {side} 方停在 {level}：这是必打级，只有作为庄家方在 {level} 升级（守住）后才能越过。",
    ),
    "landed_must_play": (
        "{level} is a must-play level: side {side} goes past it only by going up as the dealer's side at {level}.",
        "{level} 是必打级：第 {side} 方只有作为庄家方在 {level} 升级后才能越过。",
    ),
    "capped": ("Side {side} cannot go past A.", "第 {side} 方不能超过 A。"),
    "deal_stays": (
        "The dealer's side keeps the deal: seat {seat}, the dealer's partner, deals next.",
        "庄家方保庄：下一局由庄家的对家（{seat}号座位）坐庄。",
    ),
    "deal_changes": (
        "The attackers take the deal: seat {seat}, the dealer's next player, deals next.",
        "闲家上台：下一局由原庄家的下家（{seat}号座位）坐庄。",
    ),
    "win_target": (
        "Side {side} went up as the dealer's side at {target}, the target level: side {side} wins the match.",
        "第 {side} 方作为庄家方在目标级 {target} 升级：第 {side} 方赢得比赛。",
    ),
    "win_passed": (
        "Side {side} went past the target level {target}: side {side} wins the match.",
        "第 {side} 方越过目标级 {target}：第 {side} 方赢得比赛。",
    ),
    "win_limit_level": (
        "The match's hand limit ({limit}) is reached: side {side}, at the higher level, wins the match.",
        "已达本场局数上限（{limit} 局）：级别较高的第 {side} 方赢得比赛。",
    ),
    "win_limit_dealer": (
        "The match's hand limit ({limit}) is reached with both sides at the same level: side {side}, the "
        "dealer's side of the last hand, wins the match.",
        "已达本场局数上限（{limit} 局）且双方同级：最后一局的庄家方第 {side} 方赢得比赛。",
    ),
    # --- red five
    "rf_kitty_lost": (
        "The dealer did not win the last trick: the kitty's {kitty} points do not count for the dealer.",
        "庄家未赢得最后一轮：底牌的 {kitty} 分不计入庄家。",
    ),
    "rf_final": ("The dealer's final: {parts} = {final}.", "庄家最终牌分：{parts} = {final}。"),
    "rf_part_tricks": ("{value} in tricks", "牌面 {value}"),
    "rf_part_kitty": ("{value} from the kitty", "底牌 {value}"),
    "rf_part_red_fives": ("{value} for red fives", "红五 {value}"),
    "rf_part_bid": ("{value} bid", "叫分 {value}"),
    "rf_band": (
        "{final} falls in the {range} band ({decks} decks): the dealer gets {dealer} game points and each defender {each}.",
        "{final} 在 {range} 档（{decks} 副牌）：庄家 {dealer} 游戏积分，每位闲家 {each}。",
    ),
    "rf_range_low": ("“{high} or less”", "“小于等于 {high}”"),
    "rf_range_high": ("“more than {low}”", "“大于 {low}”"),
    "rf_range": ("{low} … {high}", "{low} … {high}"),
    "rf_transfer": (
        "Seat {payer}'s red five was captured by seat {payee}: seat {payer} pays {amount} game points to seat {payee}.",
        "{payer}号座位的红五被{payee}号座位抓：{payer}号座位付给{payee}号座位 {amount} 游戏积分。",
    ),
    "rf_total": ("Game points by seat: {points}.", "各座位游戏积分：{points}。"),
    # --- yongzhou
    "yz_net": ("Each player's net is their points − {base}: {net}.", "每人净分 = 捡分 − {base}：{net}。"),
    "yz_next": (
        "Seat {seat} scored the most ({points}) and is dealt to first next hand.",
        "{seat}号座位捡分最多（{points} 分），下一局从该座位开始发牌。",
    ),
    "yz_tie_drawn": (
        "Seats {seats} tie for the most points; seat {seat}, drawn at the table, is dealt to first next hand.",
        "{seats}号座位并列最高分；抽签选中的{seat}号座位下一局先发牌。",
    ),
    "yz_tie_first": (
        "Seats {seats} tie for the most points; seat {seat}, the first of them in seat order, is dealt to first "
        "next hand (no draw was entered).",
        "{seats}号座位并列最高分；未录入抽签结果，按座位顺序由{seat}号座位下一局先发牌。",
    ),
    "yz_sides": (
        "Side nets (seats 1+3, seats 2+4): {a} and {b}.",
        "两方净分（1+3号座位，2+4号座位）：{a} 和 {b}。",
    ),
    "yz_draw_first_last": (
        "One side took both the first and the last place: the hand is a draw.",
        "同一阵营获得第一名和最后一名：本局平局。",
    ),
    "yz_draw_equal": ("Both sides have the same net: the hand is a draw.", "两方净分相同：本局平局。"),
    "yz_side_wins": ("Side {side} wins the hand.", "第 {side} 方本局获胜。"),
}


_SEAT_PARAMS = ("seat", "payer", "payee")
"""Parameters that are one seat (0-based, as the results carry them)."""


def _t(lang: str, key: str, **params: Any) -> str:
    """The sentence ``key`` in ``lang``. Seats and sides come 0-based, as results carry them, and are
    said as people count them (:mod:`variants.seats`): seat 0 is "seat 1", side 0 "side 1"."""
    en, zh = SENTENCES[key]
    zh_wanted = lang == "zh-hans"
    for name in _SEAT_PARAMS:
        if name in params:
            params[name] = seat_number(params[name])
    if "side" in params:
        params["side"] = side_number(params["side"])
    if "seats" in params:
        params["seats"] = seat_numbers(params["seats"], "、" if zh_wanted else ", ")
    return (zh if zh_wanted else en).format(**params)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _range(lang: str, low: int, high: int | None) -> str:
    if high is None:
        return _t(lang, "range_open", low=low)
    return _t(lang, "range", low=low, high=high)


def _kitty_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                     new_state: MatchState, lang: str) -> list[str]:
    """The kitty: the dealer side keeps it, or the attackers' multiplier (and its cap) and bonus."""
    out: list[str] = []
    if result.kitty_multiplier == 0:
        key = "kitty_dealer" if outcome.kitty_points else "kitty_dealer_empty"
        out.append(_t(lang, key, kitty=outcome.kitty_points))
    else:
        largest = outcome.last_trick.largest or 0
        policy = rules.kitty_multiplier
        raw = policy.multiplier(largest)
        out.append(_t(lang, f"kitty_{policy.value}", largest=largest, raw=raw))
        if (
            policy in (KittyMultiplier.POWER_OF_TWO, KittyMultiplier.BY_CARDS)
            and raw != result.kitty_multiplier
        ):
            out.append(_t(lang, "kitty_cap", cap=rules.kitty_multiplier_cap))
        out.append(
            _t(
                lang,
                "kitty_bonus",
                kitty=outcome.kitty_points,
                mult=result.kitty_multiplier,
                bonus=result.kitty_bonus,
            )
        )
    return out


def _total_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                     new_state: MatchState, lang: str) -> list[str]:
    """The throw penalties and the attackers' total, when more than their trick points make it."""
    out: list[str] = []
    if result.throw_penalties:
        out.append(_t(lang, "penalties", penalties=_signed(result.throw_penalties)))
    parts = [_t(lang, "part_tricks", value=outcome.attackers_points)]
    if result.kitty_bonus:
        parts.append("+ " + _t(lang, "part_kitty", value=result.kitty_bonus))
    if result.throw_penalties:
        sign = "+" if result.throw_penalties > 0 else "−"
        parts.append(f"{sign} " + _t(lang, "part_penalties", value=abs(result.throw_penalties)))
    if len(parts) > 1:
        out.append(_t(lang, "total", parts=" ".join(parts), total=result.attackers_total))
    raw_total = outcome.attackers_points + result.kitty_bonus + result.throw_penalties
    if raw_total < 0:
        out.append(_t(lang, "total_floor"))
    return out


def _band_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                    new_state: MatchState, lang: str) -> list[str]:
    """The level table's band the total falls in, and what it gives."""
    out: list[str] = []
    lookup = result.lookup
    total = result.attackers_total
    band_range = _range(lang, lookup.band_lowest, lookup.band_highest)
    if lookup.zero_window:
        out.append(_t(lang, "band_zero", gain=lookup.gain))
    elif lookup.extra_levels:
        out.append(
            _t(
                lang,
                "band_extra",
                total=total,
                range=band_range,
                band_gain=lookup.band_gain,
                step=rules.level_table.step,
                gain=lookup.gain,
            )
        )
    elif lookup.side == "dealer":
        key = "band_dealer" if lookup.gain else "band_dealer_none"
        out.append(_t(lang, key, total=total, range=band_range, gain=lookup.gain))
    else:
        key = "band_attackers" if lookup.gain else "band_takeover"
        out.append(_t(lang, key, total=total, range=band_range, gain=lookup.gain))
    return out


def _a_pass_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                      new_state: MatchState, lang: str) -> list[str]:
    """The dealer side's A-pass attempt at the top level, when there was one, and its consequences."""
    out: list[str] = []
    side = result.dealer_side
    takeover = rules.level_table.takeover
    check = result.a_pass
    if check is None:
        return out

    def mark(flag: bool) -> str:
        return _t(lang, "met" if flag else "not_met")

    out.append(
        _t(
            lang,
            "a_attempt",
            side=side,
            takeover=takeover,
            first=mark(check.a_in_first_and_last_trick),
            second=mark(check.dealer_won_last_trick),
            third=mark(check.attackers_below_takeover),
        )
    )
    if check.passed:
        out.append(_t(lang, "a_passed", side=side))
    else:
        limit = _t(lang, "a_limit", limit=rules.a_failure_limit) if rules.a_failure_limit else ""
        out.append(_t(lang, "a_failed", side=side, count=result.a_failures, limit=limit))
        if result.forced_handover:
            out.append(_t(lang, "a_forced", limit=rules.a_failure_limit, takeover=takeover))
        elif not result.deal_changes:
            out.append(_t(lang, "a_keeps", takeover=takeover))
        if result.a_failure_reset:
            out.append(_t(lang, "a_reset", side=side))
        if new_state.levels[side] == rules.top_level:
            out.append(_t(lang, "a_stays", side=side))
        else:
            out.append(_t(lang, "a_drops", side=side, level=new_state.levels[side]))
    return out


def _level_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                     new_state: MatchState, lang: str) -> list[str]:
    """The gaining side's move (stopped, capped, on a level to play), and who deals next."""
    out: list[str] = []
    gaining = result.gaining_side
    if gaining is not None and result.level_gain > 0:
        before, after = state.levels[gaining], new_state.levels[gaining]
        if result.levels_moved:
            out.append(_t(lang, "moves", side=gaining, before=_canonical(before), after=after))
        if result.stopped_at is not None:
            out.append(_t(lang, "stopped", side=gaining, level=result.stopped_at))
        elif result.capped_at_top:
            out.append(_t(lang, "capped", side=gaining))
        elif after in rules.must_play_levels and result.levels_moved and result.match_winner is None:
            out.append(_t(lang, "landed_must_play", side=gaining, level=after))
    key = "deal_changes" if result.deal_changes else "deal_stays"
    out.append(_t(lang, key, seat=result.next_dealer))
    return out


def _match_sentences(rules: PartnershipRules, state: MatchState, outcome: PartnershipOutcome, result: HandResult,
                     new_state: MatchState, lang: str) -> list[str]:
    """The match's winner, when this hand ended it, and how."""
    out: list[str] = []
    winner = result.match_winner
    if winner is not None:
        if result.match_end == "hand_limit":
            levels = new_state.levels
            key = "win_limit_dealer" if levels[0] == levels[1] else "win_limit_level"
            out.append(_t(lang, key, limit=rules.hand_limit, side=winner))
        elif result.dealer_level == rules.target_level and winner == result.dealer_side:
            out.append(_t(lang, "win_target", side=winner, target=rules.target_level))
        else:
            out.append(_t(lang, "win_passed", side=winner, target=rules.target_level))
    return out


_PARTNERSHIP_STAGES = (_kitty_sentences, _total_sentences, _band_sentences, _a_pass_sentences, _level_sentences,
                       _match_sentences)
"""The stages of a tractor/chaodi hand's explanation, in the order of the scoring (RULES.md §6–§7)."""


def explain_partnership(
    rules: PartnershipRules,
    state: MatchState,
    outcome: PartnershipOutcome,
    result: HandResult,
    new_state: MatchState,
    lang: str = "en",
) -> list[str]:
    """Sentences explaining a tractor/chaodi hand, stage by stage (:data:`_PARTNERSHIP_STAGES`)."""
    lang = normalize_lang(lang)
    return [sentence for stage in _PARTNERSHIP_STAGES
            for sentence in stage(rules, state, outcome, result, new_state, lang)]


def _canonical(level: str) -> str:
    value = level.strip().upper()
    return "10" if value == "T" else value


def explain_red_five(
    rules: RedFiveRules, outcome: RedFiveOutcome, result: RedFiveResult, lang: str = "en"
) -> list[str]:
    """Sentences explaining a red-five settlement."""
    lang = normalize_lang(lang)
    out: list[str] = []
    if not outcome.dealer_won_last_trick and outcome.kitty_points:
        out.append(_t(lang, "rf_kitty_lost", kitty=outcome.kitty_points))
    parts = [_t(lang, "rf_part_tricks", value=outcome.dealer_points)]
    if result.kitty_counted:
        parts.append("+ " + _t(lang, "rf_part_kitty", value=result.kitty_counted))
    if result.red_five_adjustment:
        sign = "+" if result.red_five_adjustment > 0 else "−"
        parts.append(f"{sign} " + _t(lang, "rf_part_red_fives", value=abs(result.red_five_adjustment)))
    parts.append("− " + _t(lang, "rf_part_bid", value=outcome.bid))
    out.append(_t(lang, "rf_final", parts=" ".join(parts), final=result.dealer_final))
    band = result.band
    if band.lowest is None:
        band_range = _t(lang, "rf_range_low", high=band.highest)
    elif band.highest is None:
        band_range = _t(lang, "rf_range_high", low=band.lowest - 5)
    else:
        band_range = _t(lang, "rf_range", low=band.lowest, high=band.highest)
    out.append(
        _t(
            lang,
            "rf_band",
            final=result.dealer_final,
            range=band_range,
            decks=rules.decks,
            dealer=_signed(band.dealer),
            each=_signed(band.each_defender),
        )
    )
    for payer, payee, amount in result.transfers:
        out.append(_t(lang, "rf_transfer", payer=payer, payee=payee, amount=amount))
    out.append(_t(lang, "rf_total", points=", ".join(_signed(value) for value in result.game_points)))
    return out


def explain_yongzhou(
    rules: YongzhouRules, outcome: YongzhouOutcome, result: YongzhouResult, lang: str = "en"
) -> list[str]:
    """Sentences explaining a yongzhou-300 settlement."""
    lang = normalize_lang(lang)
    out = [_t(lang, "yz_net", base=rules.net_base, net=", ".join(_signed(value) for value in result.net))]
    if len(result.tied_winners) == 1:
        out.append(_t(lang, "yz_next", seat=result.next_dealer, points=outcome.points[result.next_dealer]))
    else:
        key = "yz_tie_drawn" if outcome.tie_break is not None else "yz_tie_first"
        out.append(_t(lang, key, seats=result.tied_winners, seat=result.next_dealer))
    if result.side_net is not None:
        out.append(_t(lang, "yz_sides", a=_signed(result.side_net[0]), b=_signed(result.side_net[1])))
        if result.draw_reason == "first_and_last":
            out.append(_t(lang, "yz_draw_first_last"))
        elif result.draw_reason == "equal":
            out.append(_t(lang, "yz_draw_equal"))
        else:
            out.append(_t(lang, "yz_side_wins", side=result.winning_side))
    return out
