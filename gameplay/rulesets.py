"""Rule sets: one frozen object per variant, built from named options with defaults.

>>> rs = ruleset("tractor")
>>> rs.variant, rs.decks, rs.players, rs.throw_allowed, rs.throw_penalty
('tractor', 2, 4, True, 0)
>>> ruleset("red-five", decks=3).kitty_size
6
>>> ruleset("tractor", {"throw_penalty": 10}).throw_penalty
10
>>> ruleset("tractor", {"throw_penalty": -5})
Traceback (most recent call last):
...
gameplay.errors.InvalidOption: Option “throw_penalty”: must be a multiple of 5 between 0 and 100, got -5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gameplay.errors import InvalidOption

VARIANTS = ("tractor", "chaodi", "red-five", "yongzhou-300")
ALL = frozenset(VARIANTS)


@dataclass(frozen=True)
class OptionSpec:
    """One named rule option: allowed values, default per variant and the variants it applies to."""

    name: str
    kind: str  # "bool", "choice", "points"
    defaults: Mapping[str, Any]
    choices: tuple[str, ...] = ()
    help_en: str = ""
    help_zh: str = ""

    @property
    def variants(self) -> frozenset[str]:
        return frozenset(self.defaults)


OPTION_SPECS: dict[str, OptionSpec] = {
    spec.name: spec
    for spec in (
        OptionSpec(
            "throw_allowed", "bool",
            {"tractor": True, "chaodi": True, "red-five": False, "yongzhou-300": False},
            help_en="Whether a throw (several combinations of one suit led together) may be led.",
            help_zh="是否允许甩牌。",
        ),
        OptionSpec(
            "throw_forced", "choice",
            {"tractor": "lowest_card", "chaodi": "lowest_card", "red-five": "lowest_card",
             "yongzhou-300": "lowest_card"},
            choices=("lowest_card", "fewest_cards"),
            help_en="Which failing component a failed throw forces: the lowest one (its highest card lowest, "
                    "then fewer cards, then ♦ ♣ ♥ ♠), or the one with the fewest cards (then the lowest).",
            help_zh="甩牌失败时必须出哪一个失败的牌型：最小者（最大一张牌最小，其次张数少，再按 ♦ ♣ ♥ ♠），"
                    "或张数最少者（同张数取最小）。",
        ),
        OptionSpec(
            "throw_penalty", "points",
            {"tractor": 0, "chaodi": 0, "red-five": 0, "yongzhou-300": 0},
            help_en="Points given to the other side for each card returned to the hand after a failed throw.",
            help_zh="甩牌失败时每退回一张牌罚给对方的分数。",
        ),
        OptionSpec(
            "wrap_k3_at_ace", "bool", {"tractor": False, "chaodi": True},
            help_en="At level A, K and the lowest rank of a suit are adjacent (KK33 is a tractor).",
            help_zh="打A时K与该花色最小的点数相连（KK33为拖拉机）。",
        ),
        OptionSpec(
            "must_beat_on_points", "bool",
            {"tractor": False, "chaodi": False, "red-five": False, "yongzhou-300": True},
            help_en="见分必打: when a point card shows in the trick, a player who can beat must beat.",
            help_zh="见分必打：本轮已出现分牌时，能大必须大。",
        ),
        OptionSpec(
            "must_beat_strength", "choice",
            {"tractor": "strongest_in_side_suit", "chaodi": "strongest_in_side_suit",
             "red-five": "strongest_in_side_suit", "yongzhou-300": "strongest_in_side_suit"},
            choices=("strongest_in_side_suit", "any"),
            help_en="With 见分必打, a beating play in the led side suit must be the strongest one "
                    "(trumps: any beating play); or any beating play everywhere.",
            help_zh="见分必打时，用所出副牌花色大牌须出最大的（主牌不限）；或任何能大的牌均可。",
        ),
        OptionSpec(
            "no_gifting_points", "bool",
            {"tractor": False, "chaodi": False, "red-five": False, "yongzhou-300": True},
            help_en="不许送分: a discard carries point cards only when nothing else is possible, lowest "
                    "values first; none at all when a beating play exists.",
            help_zh="不许送分：垫牌时只有别无选择才能垫分，且先垫小分；能大牌时不能垫分。",
        ),
        OptionSpec(
            "no_declaration", "choice",
            {"tractor": "no_trump", "chaodi": "kitty_card", "yongzhou-300": "no_trump"},
            choices=("no_trump", "kitty_card", "redeal"),
            help_en="Nobody declares trump (after the first hand): play no trump, turn the kitty's 4th "
                    "card, or redeal.",
            help_zh="无人亮主（首局以外）时：打无主、翻底牌第4张定主，或重新发牌。",
        ),
        OptionSpec(
            "first_hand_no_declaration", "choice",
            {"tractor": "redeal", "chaodi": "kitty_card", "yongzhou-300": "no_trump"},
            choices=("redeal", "no_trump", "kitty_card"),
            help_en="Nobody declares in the first hand of a match: redeal, no trump, or turn the kitty card "
                    "(chaodi: the holder of the other copy deals; both copies in the kitty: redeal).",
            help_zh="首局无人亮主时：重新发牌、打无主或翻底牌定主（炒地皮：另一张相同牌的持有者坐庄；两张都在底牌中则重新发牌）。",
        ),
        OptionSpec(
            "undecided_trump", "choice", {"red-five": "S"}, choices=("S", "H", "C", "D"),
            help_en="红五: the trump suit when the dealer does not choose in time.",
            help_zh="红五：庄家未及时选主时的主花色。",
        ),
        OptionSpec(
            "first_bidder", "choice", {"red-five": "schedule"}, choices=("schedule", "random"),
            help_en="红五: who bids first — the seat given by the tournament schedule, or a random seat.",
            help_zh="红五：首个叫分者由赛程指定，或随机。",
        ),
    )
}

ENGINE_OPTIONS: frozenset[str] = frozenset(OPTION_SPECS)
"""Names of all engine options (scoring options live in ``scoring`` under other names)."""


@dataclass(frozen=True)
class RuleSet:
    """The rules of one variant with its options resolved. Build with :func:`ruleset`."""

    variant: str
    decks: int
    players: int
    options: Mapping[str, Any] = field(repr=False, hash=False)
    throw_allowed: bool
    throw_forced: str
    throw_penalty: int
    wrap_k3_at_ace: bool
    must_beat_on_points: bool
    must_beat_strength: str
    no_gifting_points: bool

    @property
    def has_levels(self) -> bool:
        return self.variant in ("tractor", "chaodi")

    @property
    def removed_ranks(self) -> tuple[int, ...]:
        return (3, 4, 6) if self.variant == "yongzhou-300" else ()

    @property
    def deck_size(self) -> int:
        return 84 if self.variant == "yongzhou-300" else 54 * self.decks

    @property
    def kitty_size(self) -> int:
        if self.variant == "yongzhou-300":
            return 0
        return 6 if self.decks == 3 else 8

    @property
    def hand_size(self) -> int:
        return (self.deck_size - self.kitty_size) // self.players

    @property
    def max_width(self) -> int:
        """Copies of each card: 2, or 3 with three decks (triples exist)."""
        return self.decks

    @property
    def total_points(self) -> int:
        return 300 if self.decks == 3 or self.variant == "yongzhou-300" else 200

    @property
    def levels(self) -> tuple[int, ...]:
        """Playable levels as ranks (A = 14); empty without levels."""
        if self.variant == "tractor":
            return tuple(range(2, 15))
        if self.variant == "chaodi":
            return tuple(range(3, 15))
        return ()

    def option(self, name: str) -> Any:
        return self.options[name]


def _check_value(spec: OptionSpec, value: Any) -> Any:
    name = spec.name
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOption(name, f"Option “{name}”: must be true or false, got {value!r}.",
                                f"选项“{name}”：必须为 true 或 false，而不是 {value!r}。")
        return value
    if spec.kind == "choice":
        if value not in spec.choices:
            allowed = ", ".join(spec.choices)
            raise InvalidOption(name, f"Option “{name}”: must be one of {allowed}, got {value!r}.",
                                f"选项“{name}”：必须是 {allowed} 之一，而不是 {value!r}。")
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 100 or value % 5:
        raise InvalidOption(name, f"Option “{name}”: must be a multiple of 5 between 0 and 100, got {value!r}.",
                            f"选项“{name}”：必须是0到100之间5的倍数，而不是 {value!r}。")
    return value


def ruleset(variant: str, options: Mapping[str, Any] | None = None, *,
            decks: int | None = None, players: int | None = None) -> RuleSet:
    """Build the rule set of ``variant`` with ``options`` overriding the preset's defaults.

    ``decks`` applies to red-five (2 or 3), ``players`` to yongzhou-300 (3 or 4); other variants
    accept only their fixed values. Raises :class:`InvalidOption` naming the offending option
    ("variant", "decks" and "players" are named like options).
    """
    if variant not in ALL:
        raise InvalidOption("variant", f"Unknown variant {variant!r}: use one of {', '.join(VARIANTS)}.",
                            f"未知玩法 {variant!r}：可用 {', '.join(VARIANTS)}。")
    if decks is None:
        decks = 2
    if players is None:
        players = 4
    allowed_decks = (2, 3) if variant == "red-five" else (2,)
    if isinstance(decks, bool) or decks not in allowed_decks:
        raise InvalidOption("decks", f"{variant} is played with {' or '.join(map(str, allowed_decks))} decks, not {decks!r}.",
                            f"{variant} 使用 {' 或 '.join(map(str, allowed_decks))} 副牌，不能是 {decks!r}。")
    allowed_players = (3, 4) if variant == "yongzhou-300" else (4,)
    if isinstance(players, bool) or players not in allowed_players:
        raise InvalidOption("players", f"{variant} is played by {' or '.join(map(str, allowed_players))} players, not {players!r}.",
                            f"{variant} 的人数为 {' 或 '.join(map(str, allowed_players))}，不能是 {players!r}。")
    resolved: dict[str, Any] = {}
    for name, spec in OPTION_SPECS.items():
        if variant in spec.defaults:
            resolved[name] = spec.defaults[variant]
    for name, value in (options or {}).items():
        spec_opt = OPTION_SPECS.get(name)
        if spec_opt is None:
            raise InvalidOption(name, f"Unknown option “{name}”.", f"未知选项“{name}”。")
        if variant not in spec_opt.defaults:
            raise InvalidOption(name, f"Option “{name}” does not apply to {variant}.",
                                f"选项“{name}”不适用于 {variant}。")
        resolved[name] = _check_value(spec_opt, value)
    return RuleSet(
        variant=variant, decks=decks, players=players, options=dict(resolved),
        throw_allowed=resolved["throw_allowed"], throw_forced=resolved["throw_forced"],
        throw_penalty=resolved["throw_penalty"], wrap_k3_at_ace=resolved.get("wrap_k3_at_ace", False),
        must_beat_on_points=resolved["must_beat_on_points"],
        must_beat_strength=resolved["must_beat_strength"],
        no_gifting_points=resolved["no_gifting_points"],
    )


PRESETS: dict[str, RuleSet] = {v: ruleset(v) for v in VARIANTS}
"""The four seed variants with default options (red-five with 2 decks, yongzhou-300 with 4 players)."""
