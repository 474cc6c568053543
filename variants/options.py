"""Every rule option, engine and scoring alike, in one table: typed values and per-variant defaults.

An option is named (the name is what tournaments store and the APIs accept), belongs to the engine
(:mod:`gameplay.rulesets`) or to scoring (:mod:`scoring.rules`), has a kind, and has a default for
each variant it applies to. Choices are ``StrEnum`` members, so a value compares equal to its JSON
string and serialises as it; no option is a positional boolean. ``gameplay`` and ``scoring`` check
values (scoring's composite values need scoring's own parsers) but take names and defaults from here.

>>> OPTIONS["throw_forced"].default(get("tractor"))
<ThrowForced.LOWEST_CARD: 'lowest_card'>
>>> OPTIONS["bid_range"].default(get("red-five"), decks=3)
(80, 300)
>>> sorted(engine_options(get("red-five")))[:3]
['first_bidder', 'must_beat_on_points', 'must_beat_strength']
>>> "wrap_k3_at_ace" in engine_options(get("red-five")), OPTIONS["target_level"].scope
(False, <Scope.SCORING: 'scoring'>)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from variants import CHAODI, RED_FIVE, TRACTOR, VARIANTS, YONGZHOU, Variant, get
from variants.tables import RED_FIVE_TABLE_2_DECKS, RED_FIVE_TABLE_3_DECKS, STANDARD_LEVEL_TABLE

# -- the enum-typed values ---------------------------------------------------------------------------


class ThrowForced(enum.StrEnum):
    """Which failing component a failed throw forces (RULES §4)."""

    LOWEST_CARD = "lowest_card"
    FEWEST_CARDS = "fewest_cards"


class MustBeatStrength(enum.StrEnum):
    """With 见分必打, how strong a beating play in the led side suit must be."""

    STRONGEST_IN_SIDE_SUIT = "strongest_in_side_suit"
    ANY = "any"


class NoDeclaration(enum.StrEnum):
    """What happens when nobody declares trump (RULES §5.1)."""

    NO_TRUMP = "no_trump"
    KITTY_CARD = "kitty_card"
    REDEAL = "redeal"


class TrumpSuit(enum.StrEnum):
    """A suit named as trump (red five's default when the dealer does not choose)."""

    S = "S"
    H = "H"
    C = "C"
    D = "D"


class FirstBidder(enum.StrEnum):
    """Red five: who bids first."""

    SCHEDULE = "schedule"
    RANDOM = "random"


class KittyMultiplier(enum.StrEnum):
    """How the kitty's points multiply when the attackers win the last trick.

    ``largest`` is the number of cards of the largest component of the winning play.
    """

    POWER_OF_TWO = "power_of_two"
    """tractor: 2^largest (single 2, pair 4, 2-pair tractor 16, 3-pair tractor 64)."""
    BY_CARDS = "by_cards"
    """chaodi: ×1 single, ×2 pair, ×cards for a tractor (4, 6, …) — i.e. ×largest."""
    FLAT = "flat"
    """×1 whatever the play."""
    DOUBLE = "double"
    """×2 whatever the play."""

    def multiplier(self, largest: int, cap: int | None = None) -> int:
        """The multiplier for a winning play whose largest component has ``largest`` cards.

        >>> KittyMultiplier.POWER_OF_TWO.multiplier(2), KittyMultiplier.POWER_OF_TWO.multiplier(8, cap=64)
        (4, 64)
        >>> KittyMultiplier.BY_CARDS.multiplier(1), KittyMultiplier.BY_CARDS.multiplier(6)
        (1, 6)
        """
        if self is KittyMultiplier.POWER_OF_TWO:
            value: int = 2 ** min(largest, 64)
        elif self is KittyMultiplier.BY_CARDS:
            value = largest
        elif self is KittyMultiplier.DOUBLE:
            value = 2
        else:
            value = 1
        return min(value, cap) if cap is not None else value


class HandLimitTie(enum.StrEnum):
    """At the hand limit with equal levels (RULES §7)."""

    DEALER_SIDE = "dealer_side"
    DRAW = "draw"
    DECIDING_HAND = "deciding_hand"


# -- the table ---------------------------------------------------------------------------------------


class Scope(enum.StrEnum):
    """Which part of the system reads an option."""

    ENGINE = "engine"
    SCORING = "scoring"


class Kind(enum.StrEnum):
    """The shape of an option's value."""

    BOOL = "bool"
    CHOICE = "choice"            # one member of ``choices`` (a StrEnum)
    POINTS = "points"            # a multiple of 5 between 0 and 100 (engine)
    VALUE = "value"              # anything else: scoring checks it (levels, tables, ranges, counts)


@dataclass(frozen=True)
class BySize:
    """A default that depends on the number of decks and players."""

    pick: Callable[[int, int], Any]


@dataclass(frozen=True)
class OptionSpec:
    """One named rule option: its kind, allowed values and a default for each variant it applies to."""

    name: str
    scope: Scope
    kind: Kind
    defaults: Mapping[str, Any]
    """Variant key → default (a :class:`BySize` when it depends on decks/players)."""
    choices: tuple[enum.StrEnum, ...] = ()
    """For ``Kind.CHOICE``: the allowed members, in the order error messages list them."""
    help_en: str = field(default="", repr=False)
    help_zh: str = field(default="", repr=False)

    @property
    def variants(self) -> frozenset[str]:
        """Keys of the variants this option applies to."""
        return frozenset(self.defaults)

    def applies_to(self, variant: Variant | str) -> bool:
        return get(variant).options_key in self.defaults

    def default(self, variant: Variant | str, *, decks: int | None = None, players: int | None = None) -> Any:
        """The default for ``variant`` (``KeyError`` if the option does not apply to it)."""
        v = get(variant)
        value = self.defaults[v.options_key]
        if isinstance(value, BySize):
            return value.pick(decks or v.default_decks, players or v.default_players)
        return value

    def coerce(self, value: Any) -> Any:
        """A valid choice as its enum member (other kinds pass through)."""
        if self.kind is Kind.CHOICE and self.choices:
            return type(self.choices[0])(value)
        return value


def _all(value: Any) -> dict[str, Any]:
    return {key: value for key in VARIANTS}


def _levels(**values: Any) -> dict[str, Any]:
    """Defaults for the partnership (level) variants: ``tractor=…, chaodi=…``."""
    return {TRACTOR.key: values["tractor"], CHAODI.key: values["chaodi"]}


def _both(value: Any) -> dict[str, Any]:
    return _levels(tractor=value, chaodi=value)


_E, _S = Scope.ENGINE, Scope.SCORING

_SPECS: tuple[OptionSpec, ...] = (
    # -- engine (RULES §3–§5) --
    OptionSpec(
        "throw_allowed", _E, Kind.BOOL,
        {TRACTOR.key: True, CHAODI.key: True, RED_FIVE.key: False, YONGZHOU.key: False},
        help_en="Whether a throw (several combinations of one suit led together) may be led.",
        help_zh="是否允许甩牌。",
    ),
    OptionSpec(
        "throw_forced", _E, Kind.CHOICE, _all(ThrowForced.LOWEST_CARD),
        choices=(ThrowForced.LOWEST_CARD, ThrowForced.FEWEST_CARDS),
        help_en="Which failing component a failed throw forces: the lowest one (its highest card lowest, "
                "then fewer cards, then ♦ ♣ ♥ ♠), or the one with the fewest cards (then the lowest).",
        help_zh="甩牌失败时必须出哪一个失败的牌型：最小者（最大一张牌最小，其次张数少，再按 ♦ ♣ ♥ ♠），"
                "或张数最少者（同张数取最小）。",
    ),
    OptionSpec(
        "throw_penalty", _E, Kind.POINTS, _all(0),
        help_en="Points given to the other side for each card returned to the hand after a failed throw.",
        help_zh="甩牌失败时每退回一张牌罚给对方的分数。",
    ),
    OptionSpec(
        "wrap_k3_at_ace", _E, Kind.BOOL, _levels(tractor=False, chaodi=True),
        help_en="At level A, K and the lowest rank of a suit are adjacent (KK33 is a tractor).",
        help_zh="打A时K与该花色最小的点数相连（KK33为拖拉机）。",
    ),
    OptionSpec(
        "must_beat_on_points", _E, Kind.BOOL,
        {TRACTOR.key: False, CHAODI.key: False, RED_FIVE.key: False, YONGZHOU.key: True},
        help_en="见分必打: when a point card shows in the trick, a player who can beat must beat.",
        help_zh="见分必打：本轮已出现分牌时，能大必须大。",
    ),
    OptionSpec(
        "must_beat_strength", _E, Kind.CHOICE, _all(MustBeatStrength.STRONGEST_IN_SIDE_SUIT),
        choices=(MustBeatStrength.STRONGEST_IN_SIDE_SUIT, MustBeatStrength.ANY),
        help_en="With 见分必打, a beating play in the led side suit must be the strongest one "
                "(trumps: any beating play); or any beating play everywhere.",
        help_zh="见分必打时，用所出副牌花色大牌须出最大的（主牌不限）；或任何能大的牌均可。",
    ),
    OptionSpec(
        "no_gifting_points", _E, Kind.BOOL,
        {TRACTOR.key: False, CHAODI.key: False, RED_FIVE.key: False, YONGZHOU.key: True},
        help_en="不许送分: a discard carries point cards only when nothing else is possible, lowest "
                "values first; none at all when a beating play exists.",
        help_zh="不许送分：垫牌时只有别无选择才能垫分，且先垫小分；能大牌时不能垫分。",
    ),
    OptionSpec(
        "no_declaration", _E, Kind.CHOICE,
        {TRACTOR.key: NoDeclaration.NO_TRUMP, CHAODI.key: NoDeclaration.KITTY_CARD,
         YONGZHOU.key: NoDeclaration.NO_TRUMP},
        choices=(NoDeclaration.NO_TRUMP, NoDeclaration.KITTY_CARD, NoDeclaration.REDEAL),
        help_en="Nobody declares trump (after the first hand): play no trump, turn the kitty's 4th "
                "card, or redeal.",
        help_zh="无人亮主（首局以外）时：打无主、翻底牌第4张定主，或重新发牌。",
    ),
    OptionSpec(
        "first_hand_no_declaration", _E, Kind.CHOICE,
        {TRACTOR.key: NoDeclaration.REDEAL, CHAODI.key: NoDeclaration.KITTY_CARD,
         YONGZHOU.key: NoDeclaration.NO_TRUMP},
        choices=(NoDeclaration.REDEAL, NoDeclaration.NO_TRUMP, NoDeclaration.KITTY_CARD),
        help_en="Nobody declares in the first hand of a match: redeal, no trump, or turn the kitty card "
                "(chaodi: the holder of the other copy deals; both copies in the kitty: redeal).",
        help_zh="首局无人亮主时：重新发牌、打无主或翻底牌定主（炒地皮：另一张相同牌的持有者坐庄；两张都在底牌中则重新发牌）。",
    ),
    OptionSpec(
        "undecided_trump", _E, Kind.CHOICE, {RED_FIVE.key: TrumpSuit.S},
        choices=(TrumpSuit.S, TrumpSuit.H, TrumpSuit.C, TrumpSuit.D),
        help_en="红五: the trump suit when the dealer does not choose in time.",
        help_zh="红五：庄家未及时选主时的主花色。",
    ),
    OptionSpec(
        "first_bidder", _E, Kind.CHOICE, {RED_FIVE.key: FirstBidder.SCHEDULE},
        choices=(FirstBidder.SCHEDULE, FirstBidder.RANDOM),
        help_en="红五: who bids first — the seat given by the tournament schedule, or a random seat.",
        help_zh="红五：首个叫分者由赛程指定，或随机。",
    ),
    # -- scoring: partnership variants (RULES §6.1, §6.2, §7) --
    OptionSpec("level_table", _S, Kind.VALUE, _both(STANDARD_LEVEL_TABLE),
               help_en="The level table: zero window, bands of attackers' points, step.",
               help_zh="升级表：零分档、攻方得分档、每多少分多升一级。"),
    OptionSpec("kitty_multiplier", _S, Kind.CHOICE,
               _levels(tractor=KittyMultiplier.POWER_OF_TWO, chaodi=KittyMultiplier.BY_CARDS),
               choices=tuple(KittyMultiplier),
               help_en="How the kitty's points multiply when the attackers win the last trick.",
               help_zh="攻方赢得末轮时底分的倍数。"),
    OptionSpec("kitty_multiplier_cap", _S, Kind.VALUE, _levels(tractor=64, chaodi=None),
               help_en="The highest kitty multiplier (null: none).", help_zh="底分倍数上限（null：不限）。"),
    OptionSpec("target_level", _S, Kind.VALUE, _levels(tractor="J", chaodi="A"),
               help_en="The level whose defence wins the match.", help_zh="守住即赢得比赛的级别。"),
    OptionSpec("must_play_levels", _S, Kind.VALUE, _both(None),
               help_en="Levels a side must defend before going past (null: the target level).",
               help_zh="必须守住才能越过的级别（null：目标级别）。"),
    OptionSpec("a_pass_conditions", _S, Kind.BOOL, _levels(tractor=False, chaodi=True),
               help_en="At level A the dealer side passes only with an A in the first and the last trick, the last "
                       "trick won and the attackers below the takeover.",
               help_zh="打A时庄家方须首轮和末轮出A、赢得末轮且攻方未到上台分才算过A。"),
    OptionSpec("a_failure_limit", _S, Kind.VALUE, _levels(tractor=None, chaodi=3),
               help_en="Failed A attempts after which the deal passes even below the takeover (null: never).",
               help_zh="打A失败多少次后即使攻方未上台也交出庄家（null：从不）。"),
    OptionSpec("a_failure_reset_level", _S, Kind.VALUE, _both(None),
               help_en="The level a side goes back to on reaching the A failure limit (null: it stays at A).",
               help_zh="打A失败达到上限时退回的级别（null：留在A）。"),
    OptionSpec("a_failures_reset_on_deal_loss", _S, Kind.BOOL, _both(False),
               help_en="Whether losing the deal clears the failed attempts at A.",
               help_zh="失去坐庄时是否清零打A失败次数。"),
    OptionSpec("throw_penalties", _S, Kind.BOOL, _both(False),
               help_en="Whether the outcome's throw penalties are added to the attackers' total.",
               help_zh="是否把甩牌罚分计入攻方总分。"),
    OptionSpec("hand_limit", _S, Kind.VALUE, _both(None),
               help_en="The most hands a match lasts (null: no limit).", help_zh="一场比赛的最多局数（null：不限）。"),
    OptionSpec("hand_limit_tie", _S, Kind.CHOICE, _both(HandLimitTie.DEALER_SIDE),
               choices=tuple(HandLimitTie),
               help_en="At the hand limit with equal levels: the dealer side wins, a draw, or a deciding hand.",
               help_zh="达到局数上限且级别相同时：庄家方胜、平局或加赛一局。"),
    # -- scoring: red five (RULES §6.3) --
    OptionSpec("bid_range", _S, Kind.VALUE,
               {RED_FIVE.key: BySize(lambda decks, players: (80, 300) if decks == 3 else (60, 200))},
               help_en="The lowest and the highest bid.", help_zh="最低和最高叫分。"),
    OptionSpec("bid_increment", _S, Kind.VALUE, {RED_FIVE.key: (5, 15)},
               help_en="Each bid is this much higher than the last.", help_zh="每次叫分比上一次高出的幅度。"),
    OptionSpec("game_point_table", _S, Kind.VALUE,
               {RED_FIVE.key: BySize(lambda decks, players:
                                     RED_FIVE_TABLE_3_DECKS if decks == 3 else RED_FIVE_TABLE_2_DECKS)},
               help_en="The dealer's game points by the dealer's final.", help_zh="按庄家最终分计算的庄家局分。"),
    OptionSpec("red_five_capture_points", _S, Kind.VALUE, {RED_FIVE.key: 20},
               help_en="± points on the dealer's final per captured ♥5.", help_zh="每捉一张红五，庄家最终分加减的分数。"),
    OptionSpec("red_five_capture_game_points", _S, Kind.VALUE, {RED_FIVE.key: 2},
               help_en="Game points the owner of a captured ♥5 pays the capturer.", help_zh="被捉红五的主人付给捉者的局分。"),
    # -- scoring: yongzhou-300 (RULES §6.4) --
    OptionSpec("net_base", _S, Kind.VALUE, {YONGZHOU.key: BySize(lambda decks, players: 300 // players)},
               help_en="Each player's net is points minus this base (base × players = 300).",
               help_zh="每人净分 = 得分 − 基数（基数 × 人数 = 300）。"),
    OptionSpec("partnership_mode", _S, Kind.BOOL, {YONGZHOU.key: False},
               help_en="Four players in two partnerships (seats 0+2, 1+3).", help_zh="四人分两队（座位0+2、1+3）。"),
)

OPTIONS: Mapping[str, OptionSpec] = MappingProxyType({spec.name: spec for spec in _SPECS})
"""Every option by name: the engine's first, then scoring's."""
ENGINE_OPTIONS: frozenset[str] = frozenset(s.name for s in _SPECS if s.scope is Scope.ENGINE)
SCORING_OPTIONS: frozenset[str] = frozenset(s.name for s in _SPECS if s.scope is Scope.SCORING)


def engine_options(variant: Variant | str) -> frozenset[str]:
    """Names of the engine options that apply to ``variant``."""
    return frozenset(s.name for s in _SPECS if s.scope is Scope.ENGINE and s.applies_to(variant))


def scoring_options(variant: Variant | str) -> frozenset[str]:
    """Names of the scoring options that apply to ``variant``."""
    return frozenset(s.name for s in _SPECS if s.scope is Scope.SCORING and s.applies_to(variant))


def defaults(variant: Variant | str, scope: Scope, *, decks: int | None = None,
             players: int | None = None) -> dict[str, Any]:
    """Every option of ``scope`` that applies to ``variant`` with its default, in table order."""
    return {s.name: s.default(variant, decks=decks, players=players)
            for s in _SPECS if s.scope is scope and s.applies_to(variant)}
