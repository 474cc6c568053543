"""Reads of the ratings (docs/ratings.md): the ladders, a player's history and recent matches, the
chart of a history, and the values that seeding "by rating" uses.

Who shows: a ladder lists the players the visitor may see (:func:`tournaments.selectors.people.players_visible`)
and never a player marked private (staff see everyone); a player's recent matches come only from
tournaments the visitor may see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank
from django.utils import timezone

from tournaments.formats.ratings import ModelOptions, combined, family_of
from tournaments.models import (
    Club,
    Entry,
    Match,
    Player,
    PlayerRating,
    RatedMatch,
    RatingChange,
    RatingFamily,
    RatingPool,
    Tournament,
)
from tournaments.selectors.matches import tournaments_visible
from tournaments.selectors.people import players_visible

SORTS = {  # the ladder's sortable columns → their natural order (best, most, rising most first; names A to Z)
    "rank": ("-display", "-mu", "player__name", "player_id"),
    "rating": ("-display", "-mu", "player__name", "player_id"),
    "matches": ("-matches", "-display", "player__name", "player_id"),
    "trend": ("-trend", "-display", "player__name", "player_id"),
    "name": ("player__name", "player_id"),
}
FAMILIES = tuple(RatingFamily.values)


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def family_of_request(value: str | None) -> str:
    return value if value in FAMILIES else RatingFamily.PARTNERSHIP


def clubs_visible(user: Any) -> QuerySet[Club]:
    """Clubs whose ladders the visitor may open (a club may keep its ladder to staff)."""
    clubs = Club.objects.all()
    return clubs if _is_staff(user) else clubs.filter(is_public=True)


def players_shown(user: Any) -> QuerySet[Player]:
    """Players whose ratings the visitor may see: those listed for them, never one marked private."""
    players = players_visible(user)
    return players if _is_staff(user) else players.filter(is_private=False)


def pool_of(club: Club | None, family: str) -> RatingPool | None:
    return RatingPool.objects.filter(club=club, family=family).first() if club else (
        RatingPool.objects.filter(club__isnull=True, family=family).first())


def ladder(*, user: Any, family: str, club: Club | None = None, sort: str = "rank",
           reverse: bool = False) -> QuerySet[PlayerRating]:
    """A ladder (the site's, or a club's) of one variant family: the ratings of the players the visitor
    may see, each with its ``rank`` among them (by displayed rating; equal ratings share a rank),
    ordered by ``sort`` (:data:`SORTS`; ``reverse`` turns it round)."""
    pool = pool_of(club, family)
    if pool is None:
        return PlayerRating.objects.none()
    order = SORTS.get(sort, SORTS["rank"])
    if reverse:
        order = tuple(o[1:] if o.startswith("-") else f"-{o}" for o in order)
    return (PlayerRating.objects.filter(pool=pool, player__in=players_shown(user).values("pk"))
            .select_related("player")
            .annotate(rank=Window(Rank(), order_by=[F("display").desc()]))
            .order_by(*order))


def rank_of(rating: PlayerRating, user: Any) -> int:
    """The rank of a rating on its ladder as the visitor sees it (1 + the shown players above it)."""
    above = PlayerRating.objects.filter(pool_id=rating.pool_id, display__gt=rating.display,
                                        player__in=players_shown(user).values("pk"))
    return 1 + above.count()


def initial_display(club: Club | None) -> int:
    """Where every player starts on the ladder (the chart's first point)."""
    return (ModelOptions(mu=club.rating_mu, sigma=club.rating_sigma) if club else ModelOptions()).initial_display


# --------------------------------------------------------------------------- a player's page


@dataclass(frozen=True)
class RecentMatch:
    """One rated match on a player's page: when, where, with whom, against whom, and what it did."""

    match_id: int
    played_at: Any
    tournament: str
    tournament_id: int
    rank: int
    sides: int
    partners: list[str]
    opponents: list[str]
    display_before: int
    display_after: int

    @property
    def change(self) -> int:
        return self.display_after - self.display_before

    @property
    def won(self) -> bool:
        return self.rank == 1


@dataclass
class PlayerRatings:
    """Everything a player's rating page shows for one pool."""

    player: Player
    pool: RatingPool | None
    rating: PlayerRating | None
    history: list[RatingChange] = field(default_factory=list)
    recent: list[RecentMatch] = field(default_factory=list)
    partners: list[tuple[str, int, int]] = field(default_factory=list)  # name, matches together, won
    pools: list[PlayerRating] = field(default_factory=list)


def player_ratings(*, player: Player, user: Any, family: str, club: Club | None = None,
                   recent: int = 10) -> PlayerRatings:
    """A player's rating in one pool, its whole history (for the chart), the recent matches from
    tournaments the visitor may see, and the partners most played with (partnerships)."""
    pool = pool_of(club, family)
    pools = list(PlayerRating.objects.filter(player=player).select_related("pool__club")
                 .order_by("pool__club__name", "pool__family"))
    if pool is None:
        return PlayerRatings(player, None, None, pools=pools)
    rating = next((r for r in pools if r.pool_id == pool.pk), None)
    history = list(RatingChange.objects.filter(pool=pool, player=player).order_by("played_at", "match_id"))
    seen = set(tournaments_visible(user).values_list("pk", flat=True))
    match_ids = [c.match_id for c in history]
    facts = {r.match_id: r for r in RatedMatch.objects.filter(match_id__in=match_ids)}
    tournament_of = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "stage__tournament_id"))
    names = dict(Tournament.objects.filter(pk__in=set(tournament_of.values()) & seen).values_list("pk", "name"))
    shown = [c for c in history if tournament_of.get(c.match_id) in names]
    people = {p for c in shown for side in facts[c.match_id].sides for p in side}
    name_of = dict(Player.objects.filter(pk__in=people).values_list("pk", "name"))
    hidden = set(Player.objects.filter(pk__in=people, is_private=True).values_list("pk", flat=True))
    staff = _is_staff(user)

    def label(p: int) -> str:
        return "—" if p in hidden and not staff else name_of.get(p, "?")

    together: Counter[int] = Counter()
    won: Counter[int] = Counter()
    rows: list[RecentMatch] = []
    for change in reversed(shown):
        sides = facts[change.match_id].sides
        mine = sides[change.side]
        partners = [p for p in mine if p != player.pk]
        for partner in partners:
            together[partner] += 1
            won[partner] += int(change.rank == 1)
        if len(rows) < recent:
            rows.append(RecentMatch(change.match_id, change.played_at, names[tournament_of[change.match_id]],
                                    tournament_of[change.match_id], change.rank, len(sides),
                                    [label(p) for p in partners],
                                    [label(p) for i, side in enumerate(sides) if i != change.side for p in side],
                                    change.display_before, change.display_after))
    partner_rows = [(name_of.get(p, "?"), n, won[p]) for p, n in together.most_common(5)
                    if p not in hidden or staff]
    return PlayerRatings(player, pool, rating, history, rows, partner_rows, pools)


def visible_match_tournaments(user: Any, match_ids: Sequence[int]) -> dict[int, int]:
    """match id → tournament id, for the matches of ``match_ids`` in tournaments ``user`` may see."""
    seen = tournaments_visible(user).values("pk")
    return dict(Match.objects.filter(pk__in=list(match_ids), stage__tournament__in=seen)
                .values_list("pk", "stage__tournament_id"))


# --------------------------------------------------------------------------- the chart


@dataclass(frozen=True)
class Chart:
    """A rating history drawn as an SVG line (server-rendered): the path, the ticks and the points."""

    width: int
    height: int
    path: str
    points: list[tuple[float, float, int]]
    y_ticks: list[tuple[float, int]]
    x_labels: list[tuple[float, str]]
    left: int
    bottom: int


def rating_chart(history: Sequence[RatingChange], *, initial: int, width: int = 420, height: int = 240) -> Chart | None:
    """The displayed rating after each rated match (starting from ``initial``), scaled into a
    ``width``×``height`` view box with room for the axis labels; None without a match."""
    if not history:
        return None
    values = [initial] + [c.display_after for c in history]
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 50))
    low, high = (low // step) * step, -(-high // step) * step
    left, right, top, bottom = 44, 12, 12, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    span = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return round(left + plot_w * i / span, 1)

    def y(v: int) -> float:
        return round(top + plot_h * (high - v) / max(high - low, 1), 1)

    points = [(x(i), y(v), v) for i, v in enumerate(values)]
    path = "M" + " L".join(f"{px},{py}" for px, py, _v in points)
    ticks = [(y(v), v) for v in range(int(low), int(high) + 1, step)]
    dates = [None] + [c.played_at for c in history]
    marks = sorted({1, len(values) // 2, len(values) - 1})
    labels = [(x(i), f"{timezone.localtime(dates[i]):%Y-%m-%d}") for i in marks if dates[i] is not None]
    return Chart(width, height, path, points, ticks, labels, left, height - bottom)


def _nice_step(span: int) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return 2000


# --------------------------------------------------------------------------- seeding


def seeding_ratings(tournament: Tournament, entries: Iterable[Entry]) -> dict[int, float]:
    """The value each entry is seeded by "by rating": its players' ratings in the tournament's pool
    (its club's ladder, else the site's, for its variant family). A team with a rated player is the
    mean of its two players (:func:`tournaments.formats.ratings.combined`; an unrated partner counts
    with the hand-typed rating); a team or player not rated at all keeps the hand-typed rating.
    Entries with no value at all are left out."""
    pool = pool_of(tournament.club, family_of(tournament.variant))
    items = list(entries)
    ids = {p for e in items for p in ((e.team.player1_id, e.team.player2_id) if e.team else (e.player_id,))}
    rated = dict(PlayerRating.objects.filter(pool=pool, player__in=ids)
                 .values_list("player_id", "display")) if pool else {}

    def typed(value: int | None) -> float | None:
        return None if value is None else float(value)

    def value(p: Player) -> float | None:
        return float(rated[p.pk]) if p.pk in rated else typed(p.rating)

    out = {}
    for e in items:
        if e.team is not None:
            team = e.team
            if team.player1_id in rated or team.player2_id in rated:
                v = combined([value(team.player1), value(team.player2)], typed(team.rating))
            else:
                v = typed(team.rating) if team.rating is not None else combined(
                    [typed(team.player1.rating), typed(team.player2.rating)])
        else:
            assert e.player is not None
            v = value(e.player)
        if v is not None:
            out[e.pk] = v
    return out
