"""Input errors of the scoring core, with messages in English and Simplified Chinese.

Every refusal names the field (as a JSON path such as ``outcome.attackers_points`` or
``state.levels.1``) and says why. Messages are kept as (code, parameters) and rendered on demand,
so one error can be shown in either language.

>>> error = ScoringInputError([Problem("outcome.kitty_points", "multiple_of_5", {"value": 12})])
>>> error.field_errors
{'outcome.kitty_points': ['Points come in multiples of 5; 12 is not one.']}
>>> error.in_lang("zh-hans").field_errors
{'outcome.kitty_points': ['分数必须是 5 的倍数；12 不是。']}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from variants.seats import en_seat, en_seats, zh_seat, zh_seats

LANGUAGES: tuple[str, ...] = ("en", "zh-hans")


def normalize_lang(lang: str | None) -> str:
    """Map a language tag to ``"en"`` or ``"zh-hans"`` (any ``zh`` tag is Simplified Chinese).

    >>> normalize_lang("zh-CN"), normalize_lang("zh_Hans"), normalize_lang("fr"), normalize_lang(None)
    ('zh-hans', 'zh-hans', 'en', 'en')
    """
    if lang and lang.strip().lower().replace("_", "-").startswith("zh"):
        return "zh-hans"
    return "en"


MESSAGES: dict[str, tuple[str, str]] = {
    # --- shapes and types
    "required": ("This field is required.", "此项为必填项。"),
    "unknown_field": ("Unknown field.", "未知字段。"),
    "type_int": ("Must be a whole number.", "必须是整数。"),
    "type_bool": ("Must be true or false.", "必须是 true 或 false。"),
    "type_str": ("Must be a string.", "必须是字符串。"),
    "type_list": ("Must be a list.", "必须是列表。"),
    "type_object": ("Must be an object (names mapped to values).", "必须是对象（名称到值的映射）。"),
    "list_length": ("Must have exactly {n} entries (got {got}).", "必须恰好有 {n} 项（实际 {got} 项）。"),
    "choice": ("Must be one of: {choices} (got {value}).", "必须是以下之一：{choices}（实际为 {value}）。"),
    "range": (
        "Must be between {low} and {high} (got {value}).",
        "必须在 {low} 到 {high} 之间（实际为 {value}）。",
    ),
    "min": ("Must be at least {low} (got {value}).", "至少为 {low}（实际为 {value}）。"),
    # --- variant, decks, players, options
    "unknown_variant": (
        "Unknown variant {value}; expected one of: {choices}.",
        "未知玩法 {value}；应为以下之一：{choices}。",
    ),
    "decks_fixed": (
        "{variant} is played with {expected} decks (got {value}).",
        "{variant} 使用 {expected} 副牌（实际为 {value}）。",
    ),
    "players_fixed": (
        "{variant} is played by {expected} players (got {value}).",
        "{variant} 为 {expected} 人玩法（实际为 {value}）。",
    ),
    "not_applicable": ("Does not apply to {variant}.", "不适用于 {variant}。"),
    "unknown_option": (
        "Not a scoring option; the scoring options are listed in docs/scoring.md.",
        "不是计分选项；计分选项见 docs/scoring.md。",
    ),
    "option_not_for_variant": (
        "This scoring option does not apply to {variant}.",
        "此计分选项不适用于 {variant}。",
    ),
    "positive_int_or_null": ("Must be a positive whole number or null.", "必须是正整数或 null。"),
    "level_table": (
        'Must be "standard" or an object {{"zero": levels or null, "bands": [[lowest points, "dealer" or '
        '"attackers", levels], …], "step": points or null}}: {reason}.',
        '必须是 "standard" 或对象 {{"zero": 级数或 null, "bands": [[最低分, "dealer" 或 "attackers", 级数], …], '
        '"step": 分数或 null}}：{reason}。',
    ),
    "game_point_table": (
        "Must be a list of [highest dealer's final or null, dealer's game points] with rising bounds, "
        "the last bound null, game points divisible by 3: {reason}.",
        "必须是 [庄家最终牌分上限或 null, 庄家游戏积分] 的列表，上限递增，最后一项为 null，积分能被 3 整除：{reason}。",
    ),
    "pair_range": (
        "Must be [low, high], whole multiples of 5 with 0 < low ≤ high (got {value}).",
        "必须是 [下限, 上限]，均为 5 的倍数且 0 < 下限 ≤ 上限（实际为 {value}）。",
    ),
    "reset_level": (
        "Must be null (the side stays at A) or a level below A (got {value}).",
        "必须为 null（停在 A）或低于 A 的级（实际为 {value}）。",
    ),
    "net_base_sum": (
        "net_base × players must be 300 so that nets add up to zero (got {value} × {players}).",
        "net_base × 人数必须等于 300，净分之和才为零（实际为 {value} × {players}）。",
    ),
    "partnership_mode_players": ("The partnership mode needs 4 players.", "对家模式需要 4 名玩家。"),
    # --- points
    "multiple_of_5": (
        "Points come in multiples of 5; {value} is not one.",
        "分数必须是 5 的倍数；{value} 不是。",
    ),
    "points_range": (
        "Must be between 0 and {high} points, the total in the deck (got {value}).",
        "必须在 0 到 {high} 分（整副牌的总分）之间（实际为 {value}）。",
    ),
    "points_over_total": (
        "{a} + {b} kitty points = {sum} exceeds the {total} points in the deck.",
        "{a} + 底牌 {b} 分 = {sum}，超过整副牌的总分 {total}。",
    ),
    "kitty_capacity": (
        "A kitty of {cards} cards holds at most {high} points (got {value}).",
        "{cards} 张底牌最多 {high} 分（实际为 {value}）。",
    ),
    "largest_shape": (
        "The largest component is 1 card (a single) or an even number of cards (a pair or tractor), "
        "at most {high} (got {value}).",
        "最大牌型为 1 张（单张）或偶数张（对子、拖拉机），最多 {high} 张（实际为 {value}）。",
    ),
    "last_trick_winner": (
        'Must be "dealer" or "attackers" (got {value}).',
        '必须是 "dealer" 或 "attackers"（实际为 {value}）。',
    ),
    "largest_required": (
        "Required when the attackers win the last trick: it sets the kitty multiplier.",
        "闲家赢得最后一轮时必填：它决定抠底倍数。",
    ),
    "throw_penalties_off": (
        "Throw penalties are not enabled (scoring option throw_penalties); leave it 0 or out.",
        "未启用甩牌罚分（计分选项 throw_penalties）；请填 0 或不填。",
    ),
    # --- levels and match state
    "level_invalid": (
        "{value} is not a level of {variant}; levels run {first} to A.",
        "{value} 不是 {variant} 的级；级从 {first} 到 A。",
    ),
    "level_past_target": (
        "{value} is past the target level {target}: that side has already won the match.",
        "{value} 已超过目标级 {target}：该方已经赢得比赛。",
    ),
    "match_over": ("The match is already won by side {side}.", "比赛已由第 {side} 方获胜。"),
    "a_flags_required": (
        "Required: the dealer's side plays at A, and passing A needs an A from the dealer's side in the "
        "first and the last trick.",
        "必填：庄家方打 A，过 A 需要庄家方在第一轮和最后一轮都出过 A。",
    ),
    "a_failures_off": (
        "Failed A attempts are counted only with the A-pass conditions (scoring option a_pass_conditions).",
        "只有启用过 A 条件（计分选项 a_pass_conditions）时才记录打 A 失败次数。",
    ),
    "a_failures_not_at_a": (
        "Side {side} is not at A, so it cannot have failed A attempts (got {value}).",
        "第 {side} 方不在 A，不可能有打 A 失败次数（实际为 {value}）。",
    ),
    "a_failures_limit": (
        "Must be below the limit of {limit} failed A attempts: on reaching it the deal passes and the count restarts (got {value}).",
        "必须小于打 A 失败上限 {limit}：达到上限即下庄并重新计数（实际为 {value}）。",
    ),
    # --- red five
    "bid_range": (
        "Bids run from {low} to {high} with {decks} decks (got {value}).",
        "{decks} 副牌时叫分范围为 {low} 到 {high}（实际为 {value}）。",
    ),
    "trump_suit": (
        "Must be a suit: S, H, C or D (red-five has no no-trump; got {value}).",
        "必须是花色：S、H、C 或 D（红五没有无主；实际为 {value}）。",
    ),
    "red_five_cross": (
        "A red five is captured only across sides: played by the dealer ({dealer_seat}) and won by a "
        "defender, or played by a defender and won by the dealer (got played_by {played_by}, won_by {won_by}).",
        "红五只能被对方抓：庄家（{dealer_seat_zh}）出的被闲家赢走，或闲家出的被庄家赢走"
        "（实际 played_by {played_by}，won_by {won_by}）。",
    ),
    "red_five_count": (
        "With {decks} decks there are only {decks} red fives (♥5) (got {value}).",
        "{decks} 副牌只有 {decks} 张红五（♥5）（实际为 {value}）。",
    ),
    "red_five_dealer_low": (
        "The dealer won {n} red five(s) in tricks, 5 points each, so dealer_points must be at least {low} (got {value}).",
        "庄家在牌墩中赢得 {n} 张红五，每张 5 分，dealer_points 至少为 {low}（实际为 {value}）。",
    ),
    "red_five_dealer_high": (
        "The defenders won {n} red five(s) in tricks, 5 points each, so with {kitty} kitty points "
        "dealer_points can be at most {high} (got {value}).",
        "闲家在牌墩中赢得 {n} 张红五，每张 5 分；底牌 {kitty} 分时 dealer_points 最多为 {high}（实际为 {value}）。",
    ),
    # --- yongzhou
    "points_sum": (
        "The players' points must add up to {total} (got {value}).",
        "各家分数之和必须为 {total}（实际为 {value}）。",
    ),
    "tie_break_required": (
        "{Seats_en} tie for the most points: say which of them won the draw to deal first next hand "
        "(RULES.md §6.4).",
        "{seats_zh}并列最高分：请填写抽签胜出、下一局先发牌的座位（规则 §6.4）。",
    ),
    # --- recorded hands
    "dealer_twice": (
        "The dealer is named twice with different seats: {top} here and {inner} in outcome.dealer. Name it "
        "once (in the outcome) or give the same seat.",
        "庄家填了两次且座位不同：此处为 {top}，outcome.dealer 为 {inner}。请只填一次（在 outcome 中）或填相同座位。",
    ),
    "tie_break_not_tied": (
        "{seat_en} is not among the seats tied for the most points ({seats_en}).",
        "{seat_zh}不在并列最高分的座位（{seats_zh}）之中。",
    ),
}


REASONS_ZH: dict[str, str] = {
    "not a table": "不是表",
    "bands must be a list": "bands 必须是列表",
    "each band is [lowest points, side, levels]": "每档为 [最低分, 方, 级数]",
    'each band is [whole number of points, "dealer" or "attackers", whole number of levels]': (
        '每档为 [整数分, "dealer" 或 "attackers", 整数级数]'
    ),
    "zero must be a whole number of levels or null": "zero 必须是整数级数或 null",
    "step must be a whole number of points or null": "step 必须是整数分或 null",
    "bands is empty": "bands 为空",
    "the first band must start at 0": "第一档必须从 0 开始",
    "lowest points must be multiples of 5 and gains at least 0": "最低分必须是 5 的倍数，级数至少为 0",
    "lowest points must rise from band to band": "各档最低分必须递增",
    "dealer bands must come before attacker bands": "庄家档必须在闲家档之前",
    "dealer gains must not rise as the attackers score more": "闲家得分越多，庄家升级数不能增加",
    "attacker gains must not fall as the attackers score more": "闲家得分越多，闲家升级数不能减少",
    "the table needs dealer bands first and at least one attackers band": "表必须先有庄家档，并至少有一个闲家档",
    "zero must be a whole number of levels (at least 0) or null": "zero 必须是不小于 0 的整数级数或 null",
    "step must be a positive multiple of 5 or null": "step 必须是 5 的正倍数或 null",
    "not a list": "不是列表",
    "each band is [highest or null, game points]": "每档为 [上限或 null, 游戏积分]",
    "bounds and game points must be whole numbers": "上限和游戏积分必须是整数",
    "at least two bands": "至少两档",
    "only the last bound is null": "只有最后一档的上限为 null",
    "bounds must be multiples of 5": "上限必须是 5 的倍数",
    "game points must be whole numbers divisible by 3 (the three defenders share them)": (
        "游戏积分必须是能被 3 整除的整数（由三位闲家平分）"
    ),
    "bounds must rise": "上限必须递增",
}
"""Chinese for the English reasons given by the level-table and game-point-table checks."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: where (a JSON path), what (a message code) and details."""

    field: str
    code: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` (``"en"`` or ``"zh-hans"``)."""
        en, zh = MESSAGES[self.code]
        chinese = normalize_lang(lang) == "zh-hans"
        params = {key: _show(value) for key, value in self.params.items()} | _seat_words(self.params)
        if chinese and "reason" in params:
            params["reason"] = REASONS_ZH.get(params["reason"], params["reason"])
        return (zh if chinese else en).format(**params)


def _seat_words(params: Mapping[str, Any]) -> dict[str, str]:
    """The seats among ``params`` as people read them (1–4; the params themselves stay 0-based):
    ``dealer`` → ``dealer_seat``/``dealer_seat_zh``; ``seats`` → ``seats_en`` (``Seats_en`` to open a
    sentence)/``seats_zh``, and then a seat ``value`` → ``seat_en``/``seat_zh``."""
    words: dict[str, str] = {}
    dealer, seats, value = params.get("dealer"), params.get("seats"), params.get("value")
    if isinstance(dealer, int) and not isinstance(dealer, bool):
        words |= {"dealer_seat": en_seat(dealer, capital=False), "dealer_seat_zh": zh_seat(dealer)}
    if isinstance(seats, (list, tuple)):
        listed = en_seats(seats)
        words |= {"seats_en": listed, "Seats_en": listed.capitalize(), "seats_zh": zh_seats(seats)}
        if isinstance(value, int) and not isinstance(value, bool):
            words |= {"seat_en": en_seat(value), "seat_zh": zh_seat(value)}
    return words


def _show(value: Any) -> str:
    """Render a parameter the same way in both languages (JSON-like for lists and strings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(item) for item in value) + "]"
    if isinstance(value, str):
        return value
    return str(value)


class ScoringInputError(ValueError):
    """Input the scoring core refuses; ``field_errors`` maps JSON paths to messages.

    ``problems`` keeps the language-neutral form; ``in_lang`` re-renders the messages.
    """

    def __init__(self, problems: Sequence[Problem], lang: str = "en") -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.lang: str = normalize_lang(lang)
        self.field_errors: dict[str, list[str]] = {}
        for problem in self.problems:
            self.field_errors.setdefault(problem.field, []).append(problem.message(self.lang))
        summary = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in self.field_errors.items())
        super().__init__(summary or "invalid scoring input")

    @property
    def codes(self) -> dict[str, list[str]]:
        """The message codes per field (stable identifiers for the web layer and tests)."""
        result: dict[str, list[str]] = {}
        for problem in self.problems:
            result.setdefault(problem.field, []).append(problem.code)
        return result

    def in_lang(self, lang: str) -> ScoringInputError:
        """The same error with its messages in ``lang``."""
        return ScoringInputError(self.problems, lang)


class Problems:
    """Collects problems so that one refusal reports every wrong field at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, field_path: str, code: str, **params: Any) -> None:
        self.items.append(Problem(field_path, code, params))

    def extend(self, problems: Sequence[Problem]) -> None:
        self.items.extend(problems)

    def has(self, field_path: str) -> bool:
        """Whether ``field_path`` or a field under it already has a problem."""
        return any(p.field == field_path or p.field.startswith(field_path + ".") for p in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.items)

    def raise_if_any(self, lang: str = "en") -> None:
        if self.items:
            raise ScoringInputError(self.items, lang)
