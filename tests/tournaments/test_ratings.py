"""Club ratings (issue 33, docs/ratings.md): every final result rates its players in time order —
partners as a team, seated players by their rank at the table — byes and forfeits never, awarded results
only when the tournament says so; a correction, an undo or a deleted tournament recomputes from that
point, and recomputing everything from the stored results gives the same figures."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tests.tournaments.factories import TAKEOVER, UserFactory, make_tournament, play_hand, win_match
from tests.tournaments.test_table_corrections import RED_FIVE, played
from tournaments.formats.ratings import Game, Ledger, ModelOptions
from tournaments.models import Club, Match, PlayerRating, RatedMatch, RatingChange, RatingPool, Tournament
from tournaments.services import Actor, hand_correct, hand_undo
from tournaments.services.hands import match_confirm
from tournaments.services.ratings import ratings_forget, ratings_rebuild
from tournaments.services.results import match_award
from tournaments.services.setup import tournament_update
from tournaments.services.stages import swiss_next_round

# Real commits: the ratings follow each committed write (after-commit callbacks, as in production).
pytestmark = pytest.mark.django_db(transaction=True)


def players_of(match: Match, side: int) -> list[int]:
    team = match.entry(side).team  # type: ignore[union-attr]
    return [team.player1_id, team.player2_id]


def site(family: str = "partnership") -> RatingPool:
    return RatingPool.objects.get(club__isnull=True, family=family)


def table(pool: RatingPool) -> dict[int, tuple[float, float, int, int, int, list[int]]]:
    """Every stored rating of a pool, and its history rows, for comparing two computations."""
    return {r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.display, r.matches, r.trend, list(r.recent))
            for r in PlayerRating.objects.filter(pool=pool)}


def history(pool: RatingPool) -> list[tuple[Any, ...]]:
    return [(c.player_id, c.match_id, c.played_at, c.rank, round(c.mu_after, 9), round(c.sigma_after, 9),
             c.display_before, c.display_after, c.matches_after)
            for c in RatingChange.objects.filter(pool=pool).order_by("played_at", "match_id", "player_id")]


def snapshot() -> dict[tuple[int | None, str], tuple[Any, ...]]:
    return {(p.club_id, p.family): (table(p), history(p)) for p in RatingPool.objects.all()}


def first_ready(tournament: Tournament) -> Match:
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    assert match is not None
    return match


def test_a_won_partnership_match_rates_the_partners_as_a_team(organizer: Any) -> None:
    """The two winners go up together and the two losers down; each gets a history row; the figures are
    OpenSkill's Plackett–Luce for a team of two against a team of two."""
    tournament = make_tournament(owner=organizer, teams=4)
    match = win_match(first_ready(tournament), 0, Actor(organizer))
    winners, losers = players_of(match, 0), players_of(match, 1)
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(pool=site())}
    assert set(ratings) == {*winners, *losers}
    expected = Ledger(ModelOptions()).play(Game(1, (tuple(winners), tuple(losers)), (1, 2)))
    for change in expected:
        stored = ratings[change.player]
        assert stored.mu == pytest.approx(change.after.mu) and stored.sigma == pytest.approx(change.after.sigma)
        assert stored.display == change.after.display and stored.matches == 1
    assert all(ratings[p].display > 1500 > ratings[q].display for p in winners for q in losers)
    rows = RatingChange.objects.filter(pool=site(), match=match)
    assert sorted(rows.values_list("player_id", "rank")) == sorted([(p, 1) for p in winners] + [(p, 2) for p in losers])
    assert RatedMatch.objects.get(match=match).level_gap > 0


def test_an_unfinished_or_unconfirmed_match_is_not_rated(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=4, require_confirmation=True)
    match = win_match(first_ready(tournament), 1, Actor(organizer))
    assert match.confirmed_at is None and not PlayerRating.objects.exists()
    match_confirm(match_id=match.pk, actor=Actor(organizer))
    assert PlayerRating.objects.filter(pool=site()).count() == 4


def test_forfeits_are_never_rated_and_awards_only_when_the_tournament_says_so(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=4)
    one, two = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position")[:2]
    match_award(match_id=one.pk, winner_side=0, reason="no show", actor=Actor(organizer), kind="forfeit")
    match_award(match_id=two.pk, winner_side=1, reason="illness", actor=Actor(organizer))
    assert not RatedMatch.objects.exists() and not PlayerRating.objects.exists()
    tournament_update(tournament=tournament, actor=Actor(organizer), rate_awarded=True)
    assert list(RatedMatch.objects.values_list("match_id", flat=True)) == [two.pk]
    assert PlayerRating.objects.filter(pool=site()).count() == 4


def test_a_swiss_bye_is_not_rated(organizer: Any) -> None:
    tournament = make_tournament(owner=organizer, teams=3, start=False)
    from tournaments.services.stages import stage_create, stage_start

    stage = stage_create(tournament=tournament, actor=Actor(organizer), format="swiss", rounds=2)
    stage_start(stage=stage, actor=Actor(organizer), random_seed=1)
    bye = Match.objects.get(stage=stage, status="bye")
    played_match = Match.objects.get(stage=stage, status="ready")
    win_match(played_match, 0, Actor(organizer))
    assert not RatedMatch.objects.filter(match=bye).exists()
    assert PlayerRating.objects.filter(pool=site()).count() == 4
    swiss_next_round(stage=stage, actor=Actor(organizer))


def test_an_individual_table_rates_each_seat_by_its_rank(organizer: Any) -> None:
    """Red five: four seated players, ranked by their game points (the table's totals)."""
    match = played(organizer, "red-five", hands=3, figures=RED_FIVE)
    assert match.status == Match.Status.FINISHED and match.confirmed_at is not None
    fact = RatedMatch.objects.get(match=match)
    totals = match.state["totals"]
    seated = [s.entry.player_id for s in match.seats.order_by("seat")]
    assert fact.sides == [[p] for p in seated] and len(fact.ranks) == 4
    best = max(totals)
    assert all((rank == 1) == (total == best) for rank, total in zip(fact.ranks, totals, strict=True))
    ratings = {r.player_id: r.display for r in PlayerRating.objects.filter(pool=site("red-five"))}
    top = [p for p, t in zip(seated, totals, strict=True) if t == best]
    bottom = [p for p, t in zip(seated, totals, strict=True) if t == min(totals)]
    assert all(ratings[a] > ratings[b] for a in top for b in bottom)


def test_a_correction_or_an_undo_recomputes_from_that_match(organizer: Any) -> None:
    """Two matches of one elimination round; the earlier one is corrected to the other winner, then
    undone: each time the ratings are what a recompute of everything from the results gives."""
    tournament = make_tournament(owner=organizer, teams=4)
    actor = Actor(organizer)
    first, second = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position")[:2]
    win_match(first, 0, actor)
    win_match(second, 1, actor)
    before = snapshot()
    first.refresh_from_db()
    # The first hand of the first match becomes a takeover: the match is replayed, its result changes.
    corrected = hand_correct(match_id=first.pk, number=1, outcome=TAKEOVER, version=first.version, actor=actor,
                             force=True).match
    assert snapshot() != before
    after_correction = snapshot()
    ratings_rebuild()
    assert snapshot() == after_correction
    corrected.refresh_from_db()
    hand_undo(match_id=corrected.pk, version=corrected.version, actor=actor, force=True)
    corrected.refresh_from_db()
    assert corrected.status != Match.Status.FINISHED
    assert not RatedMatch.objects.filter(match=corrected).exists()
    assert not RatingChange.objects.filter(match=corrected).exists()
    undone = snapshot()
    ratings_rebuild()
    assert snapshot() == undone


def test_a_deleted_tournament_is_taken_out_of_the_ratings(organizer: Any) -> None:
    actor = Actor(organizer)
    gone = make_tournament(owner=organizer, teams=2, name="Gone")
    kept = make_tournament(owner=organizer, teams=2, name="Kept")
    win_match(first_ready(gone), 0, actor)
    win_match(first_ready(kept), 1, actor)
    with transaction.atomic():  # as tournament_delete does, in the deleting transaction
        ratings_forget(match_ids=Match.objects.filter(stage__tournament=gone).values_list("pk", flat=True))
        Match.objects.filter(stage__tournament=gone).delete()
        gone.delete()
    now = snapshot()
    ratings_rebuild()
    assert snapshot() == now
    assert PlayerRating.objects.filter(pool=site()).count() == 4
    assert all(r.matches == 1 for r in PlayerRating.objects.all())


def test_a_club_ladder_uses_the_clubs_options_and_recomputes_when_they_change(organizer: Any) -> None:
    club = Club.objects.create(name="长沙拖拉机协会", rating_sigma=6.0)
    tournament = make_tournament(owner=organizer, teams=2, club=club)
    win_match(first_ready(tournament), 0, Actor(organizer))
    club_pool = RatingPool.objects.get(club=club, family="partnership")
    club_sigmas = set(PlayerRating.objects.filter(pool=club_pool).values_list("sigma", flat=True))
    site_sigmas = set(PlayerRating.objects.filter(pool=site()).values_list("sigma", flat=True))
    assert max(club_sigmas) < 6.0 < min(site_sigmas)
    from tournaments.services.ratings import ratings_club_changed

    club.rating_sigma = 8.0
    club.save()
    ratings_club_changed(club=club)
    assert min(PlayerRating.objects.filter(pool=club_pool).values_list("sigma", flat=True)) > 6.0


def test_incremental_figures_equal_a_recompute_of_everything(organizer: Any) -> None:
    """Many results in two tournaments and a club, some confirmed out of order, one corrected: the
    figures kept up match by match are exactly those of a recompute from scratch."""
    actor = Actor(organizer)
    club = Club.objects.create(name="Paris Tractor Club", rating_margin=1.0)
    one = make_tournament(owner=organizer, teams=8, club=club, require_confirmation=True)
    two = make_tournament(owner=UserFactory(), teams=4)
    matches = list(Match.objects.filter(stage__tournament=one, status="ready").order_by("position"))
    for index, match in enumerate(matches):
        win_match(match, index % 2, actor)
    for match in reversed(matches):  # confirmed in the reverse order of finishing
        match_confirm(match_id=match.pk, actor=actor)
    for match in Match.objects.filter(stage__tournament=two, status="ready"):
        play_hand(match, TAKEOVER, Actor(two.owner))
        win_match(match, 1, Actor(two.owner))
    last = Match.objects.filter(stage__tournament=two, status="finished").order_by("position").first()
    assert last is not None
    hand_correct(match_id=last.pk, number=5, outcome=TAKEOVER, version=last.version, actor=Actor(two.owner))
    incremental = snapshot()
    rated = {key for key, (rows, _history) in incremental.items() if rows}
    assert rated == {(None, "partnership"), (club.pk, "partnership")}
    assert ratings_rebuild() == RatedMatch.objects.count() == 5  # 4 + 2 played, one made unfinished again
    assert snapshot() == incremental


def exact() -> dict[str, Any]:
    """Every stored figure of the ratings, to the last bit (no rounding), without the rows' ids."""
    key = ("pool__club_id", "pool__family", "player_id")
    return {
        "ratings": sorted(PlayerRating.objects.values_list(*key, "mu", "sigma", "display", "matches", "trend", "recent",
                                                           "last_at", "last_match"), key=repr),
        "history": sorted(RatingChange.objects.values_list(*key, "match_id", "played_at", "side", "rank", "mu_before",
                                                           "sigma_before", "mu_after", "sigma_after", "display_before",
                                                           "display_after", "matches_after"), key=repr),
        "pools": sorted(RatingPool.objects.filter(last_at__isnull=False).values_list(
            "club_id", "family", "last_at", "last_match", "dirty_at"), key=repr),
        "facts": sorted(RatedMatch.objects.values_list("match_id", "club_id", "family", "played_at", "sides", "ranks",
                                                       "level_gap"), key=repr),
    }


def test_results_added_one_by_one_equal_a_recompute_exactly(organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result here is later than everything rated, so each is added on top of the stored ratings
    (the incremental update, no recompute queued): partnership matches of a club with options of its own
    (a margin) and of the site, and red-five tables of the club and of the site. A recompute of everything
    from the results gives exactly the same figures, bit for bit."""
    from tournaments.services import ratings as rating_services

    queued: list[int] = []
    monkeypatch.setattr(rating_services, "queue_recompute", lambda ids: queued.extend(ids))
    actor = Actor(organizer)
    club = Club.objects.create(name="上海升级俱乐部", rating_margin=2.0, rating_beta=5.0, rating_tau=0.1)
    tournaments = [make_tournament(owner=organizer, teams=4, club=club), make_tournament(owner=organizer, teams=4)]
    for index in range(6):  # the two tournaments' matches one after the other, in turn
        match = Match.objects.filter(stage__tournament=tournaments[index % 2], status="ready").order_by("pk").first()
        if match is not None:
            win_match(match, index % 2, actor)
    played(organizer, "red-five", club=club)
    played(organizer, "red-five")
    assert queued == []  # every result went the incremental way
    incremental = exact()
    assert {(c, f) for c, f, *_rest in incremental["pools"]} == {
        (None, "partnership"), (club.pk, "partnership"), (None, "red-five"), (club.pk, "red-five")}
    assert len(incremental["facts"]) == 8
    ratings_rebuild()
    assert exact() == incremental


def test_a_result_later_than_everything_rated_is_added_in_a_few_statements(
        organizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The incremental update of one finished match (the site's and its club's ladders): a check without
    a lock, the pools locked, the match's facts and stored facts read, the players' ratings read, and the
    writes — one statement on PostgreSQL (four on SQLite); its figures are a recompute's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.conftest import uses_postgres
    from tournaments.services import ratings as rating_services

    actor = Actor(organizer)
    club = Club.objects.create(name="Lyon Tractor Club")
    tournament = make_tournament(owner=organizer, teams=4, club=club)
    win_match(first_ready(tournament), 0, actor)  # the pools exist, the players are rated
    sync, held = rating_services.ratings_sync, []
    monkeypatch.setattr(rating_services, "ratings_sync", lambda *, match_ids: held.extend(match_ids) or [])
    second = win_match(first_ready(tournament), 1, actor)
    monkeypatch.undo()
    assert set(held) == {second.pk} and not RatedMatch.objects.filter(match=second).exists()
    with CaptureQueriesContext(connection) as queries:
        assert sync(match_ids=held) == []
    statements = [q["sql"] for q in queries.captured_queries
                  if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]
    assert len(statements) == (5 if uses_postgres() else 8), statements
    assert RatingChange.objects.filter(match=second).count() == 8  # four players, two ladders
    incremental = exact()
    ratings_rebuild()
    assert exact() == incremental


def test_the_rating_arithmetic_doctests() -> None:
    import doctest

    from tournaments.formats import ratings

    result = doctest.testmod(ratings)
    assert result.attempted >= 6 and result.failed == 0


def test_a_level_margin_widens_an_upset_win_by_many_levels() -> None:
    """OpenSkill's margin: scores (the winner's level gap) instead of ranks; a win by more levels than the
    margin moves the ratings further when the sides' ratings differ — and not at all when they are equal."""
    strong, weak = {1: 30.0, 2: 30.0}, {3: 20.0, 4: 20.0}

    def upset(margin: float, gap: int, skills: dict[int, float]) -> float:
        from tournaments.formats.ratings import Skill

        ledger = Ledger(ModelOptions(margin=margin), {p: Skill(mu, 5.0, 3) for p, mu in skills.items()})
        changes = ledger.play(Game(1, ((3, 4), (1, 2)), (1, 2), level_gap=gap))
        return next(c.after.mu - c.before.mu for c in changes if c.player == 3)

    both = {**strong, **weak}
    assert upset(2.0, 10, both) != pytest.approx(upset(0.0, 10, both))
    assert upset(2.0, 1, both) == pytest.approx(upset(0.0, 1, both))  # within the margin: as without one
    equal = {p: 25.0 for p in both}
    assert upset(2.0, 10, equal) == pytest.approx(upset(0.0, 10, equal))


def test_a_game_refuses_a_player_on_both_sides_and_ranks_follow_the_totals() -> None:
    from tournaments.formats.ratings import ranks_from_points

    with pytest.raises(ValueError, match="twice"):
        Game(1, ((1, 2), (2, 3)), (1, 2))
    assert ranks_from_points([-30, 60, 60]) == (3, 1, 1)


def test_a_failing_rating_update_never_fails_the_result(organizer: Any, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """The ratings follow after the result's commit: if they fail, the result stands, the failure is
    logged, and the next sync (or ``manage.py ratings``) catches up."""
    from tournaments.services import ratings as rating_services

    def broken(*, match_ids: Any) -> list[int]:
        raise RuntimeError("ratings down")

    monkeypatch.setattr(rating_services, "ratings_sync", broken)
    tournament = make_tournament(owner=organizer, teams=2)
    match = win_match(first_ready(tournament), 0, Actor(organizer))
    assert match.status == Match.Status.FINISHED and not RatedMatch.objects.exists()
    assert "ratings not updated" in caplog.text
    monkeypatch.undo()
    rating_services.ratings_sync(match_ids=[match.pk])
    assert PlayerRating.objects.filter(pool=site()).count() == 4
