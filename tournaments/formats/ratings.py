"""Ratings from match results, in memory: OpenSkill's Plackett–Luce model (docs/ratings.md).

Pure: no models, no Django. :mod:`tournaments.services.ratings` feeds it the stored facts of each
rated match in time order and stores what it answers; the benchmark and the tests drive it directly.

A player's skill is a normal belief (mean ``mu``, uncertainty ``sigma``). The displayed rating is the
conservative ``mu − 3·sigma`` on a familiar scale, ``1500 + 40·(mu − 3·sigma)``: a newcomer shows
1500 (0 on OpenSkill's ordinal), and a rating rises as the uncertainty shrinks, so a lucky first win
does not top the ladder.

>>> ledger = Ledger(ModelOptions())
>>> changes = ledger.play(Game(key=1, sides=((1, 2), (3, 4)), ranks=(1, 2)))
>>> [(c.player, c.before.display, c.after.display) for c in changes]
[(1, 1500, 1597), (2, 1500, 1597), (3, 1500, 1440), (4, 1500, 1440)]
>>> ledger.skill(1).matches, ledger.skill(5) is None
(1, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce, PlackettLuceRating

import variants

DISPLAY_BASE = 1500
DISPLAY_SCALE = 40
Z = 3  # the conservative value is mu − Z·sigma
TREND_MATCHES = 5  # the trend: the displayed rating's change over the player's last five rated matches


def family_of(variant: str) -> str:
    """The rating family of a variant: its results rate on one ladder. Tractor and chaodi share the
    partnership ladder (levels, partners); red five and Yongzhou each have their own.

    >>> [family_of(v) for v in ("tractor", "chaodi", "red-five", "yongzhou-300")]
    ['partnership', 'partnership', 'red-five', 'yongzhou']
    """
    spec = variants.get(variant)
    if spec.partnership:
        return "partnership"
    return "red-five" if spec.declaring.bids else "yongzhou"


def displayed(mu: float, sigma: float) -> int:
    """The displayed rating of a skill: ``1500 + 40·(mu − 3·sigma)``, rounded.

    >>> displayed(25.0, 25.0 / 3.0), displayed(30.0, 2.0)
    (1500, 2460)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


@dataclass(frozen=True)
class ModelOptions:
    """The model's parameters (a club's options): OpenSkill's defaults, and ``margin`` in levels —
    a partnership match won by more levels than the margin moves the ratings further (0: off)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    margin: float = 0.0

    def __post_init__(self) -> None:
        if not (self.sigma > 0 and self.beta > 0 and self.tau >= 0 and self.margin >= 0):
            raise ValueError("sigma and beta must be positive; tau and margin zero or more")

    def model(self) -> PlackettLuce:
        return PlackettLuce(mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau, margin=self.margin)

    @property
    def initial_display(self) -> int:
        return displayed(self.mu, self.sigma)


@dataclass(frozen=True)
class Skill:
    """A player's rating at one moment: the belief, the matches rated so far and the displayed
    ratings of the last few (``recent``: before the last :data:`TREND_MATCHES` matches and after each)."""

    mu: float
    sigma: float
    matches: int = 0
    recent: tuple[int, ...] = ()

    @property
    def display(self) -> int:
        return displayed(self.mu, self.sigma)

    @property
    def trend(self) -> int:
        """How far the displayed rating moved over the last :data:`TREND_MATCHES` rated matches."""
        return self.recent[-1] - self.recent[0] if len(self.recent) > 1 else 0


@dataclass(frozen=True)
class Game:
    """One rated match: ``sides`` (each a tuple of player ids: two partners, or one seated player),
    ``ranks`` (1 best; equal ranks tie) and, for partnerships, ``level_gap``: by how many levels the
    first-ranked side finished ahead (it widens the update when the options give a margin).
    ``key`` orders and names the game (the caller's (time, match id))."""

    key: object
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    level_gap: int = 0

    def __post_init__(self) -> None:
        players = [p for side in self.sides for p in side]
        if len(self.sides) < 2 or len(self.ranks) != len(self.sides) or not all(self.sides):
            raise ValueError("a game needs two or more sides, each with players, and one rank per side")
        if len(set(players)) != len(players):
            raise ValueError("a player appears twice in one game")

    @property
    def players(self) -> Iterator[tuple[int, int, int]]:
        """(player, side index, rank) for every player of the game."""
        for index, (side, rank) in enumerate(zip(self.sides, self.ranks, strict=True)):
            for player in side:
                yield player, index, rank


@dataclass(frozen=True)
class Change:
    """What one game did to one player's rating."""

    player: int
    key: object
    side: int
    rank: int
    before: Skill
    after: Skill


@dataclass
class Ledger:
    """Players' skills, updated game after game in the order given. ``skills`` may start from stored
    values (a recompute from a point in time starts from the skills just before it)."""

    options: ModelOptions
    skills: dict[int, Skill] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._model = self.options.model()

    def skill(self, player: int) -> Skill | None:
        return self.skills.get(player)

    def initial(self) -> Skill:
        return Skill(self.options.mu, self.options.sigma, 0, (self.options.initial_display,))

    def play(self, game: Game) -> list[Change]:
        """Rate one game; answers a change per player, in the order of the sides."""
        before = {p: self.skills.get(p) or self.initial() for p, _side, _rank in game.players}
        teams = [[PlackettLuceRating(before[p].mu, before[p].sigma) for p in side] for side in game.sides]
        if self.options.margin > 0 and len(game.sides) == 2 and game.ranks[0] != game.ranks[1]:
            # Scores instead of ranks, so that the model's margin sees how far the winner was ahead.
            ahead = max(int(game.level_gap), 1)
            scores = [float(ahead) if rank == min(game.ranks) else 0.0 for rank in game.ranks]
            rated = self._model.rate(teams, scores=scores)
        else:
            rated = self._model.rate(teams, ranks=[float(r) for r in game.ranks])
        changes = []
        for index, side in enumerate(game.sides):
            for position, player in enumerate(side):
                new = rated[index][position]
                old = before[player]
                display = displayed(new.mu, new.sigma)
                after = Skill(new.mu, new.sigma, old.matches + 1, (*old.recent, display)[-(TREND_MATCHES + 1):])
                self.skills[player] = after
                changes.append(Change(player, game.key, index, game.ranks[index], old, after))
        return changes

    def play_all(self, games: Iterable[Game]) -> list[Change]:
        out: list[Change] = []
        for game in games:
            out.extend(self.play(game))
        return out


def skill_from_history(displays: Sequence[int], mu: float, sigma: float, matches: int, initial_display: int) -> Skill:
    """A stored player's skill: the last ``mu``/``sigma``, the matches rated, and ``displays`` — the
    displayed ratings after the player's last few matches, oldest first (the initial display is put
    in front while fewer than :data:`TREND_MATCHES` + 1 matches were rated).

    >>> skill_from_history([1597, 1620], 26.9, 7.9, 2, 1500).recent
    (1500, 1597, 1620)
    """
    recent = tuple(displays)
    if matches < TREND_MATCHES + 1:
        recent = (initial_display, *recent)
    return Skill(mu, sigma, matches, recent[-(TREND_MATCHES + 1):])


def ranks_from_points(points: Sequence[float]) -> tuple[int, ...]:
    """Ranks at an individual table from each seat's total (game points or net): the highest total is
    1; equal totals share a rank, and the next rank counts them ("1224").

    >>> ranks_from_points([120, 40, 120, -10])
    (1, 3, 1, 4)
    """
    return tuple(1 + sum(1 for other in points if other > mine) for mine in points)


def combined(values: Sequence[float | None], fallback: float | None = None) -> float | None:
    """A side's seeding value from its players' values (each a rating, or a hand-typed fallback): the
    mean when every player has one, else ``fallback`` (the side's own hand-typed value), else the mean
    of those known, else None.

    >>> combined([1600, 1400]), combined([1600, None], 1550), combined([1600, None]), combined([None, None])
    (1500.0, 1550, 1600.0, None)
    """
    known = [float(v) for v in values if v is not None]
    if known and len(known) == len(values):
        return sum(known) / len(known)
    if fallback is not None:
        return fallback
    return sum(known) / len(known) if known else None


def same_skills(a: Mapping[int, Skill], b: Mapping[int, Skill], tolerance: float = 1e-9) -> bool:
    """Whether two sets of skills agree (the same players, means and uncertainties within ``tolerance``,
    matches and recent displays equal)."""
    if a.keys() != b.keys():
        return False
    return all(math.isclose(a[p].mu, b[p].mu, abs_tol=tolerance) and math.isclose(a[p].sigma, b[p].sigma, abs_tol=tolerance)
               and replace(a[p], mu=0.0, sigma=0.0) == replace(b[p], mu=0.0, sigma=0.0) for p in a)
