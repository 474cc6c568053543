"""Services of the tournaments core: every lifecycle step, hand recording, corrections, brackets."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    SHUTOUT,
    TAKEOVER,
    TeamFactory,
    UserFactory,
    make_tournament,
    play_hand,
    win_match,
)
from tournaments import selectors
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.models import AuditEntry, Entry, HandRecord, Match, Stage, Tournament
from tournaments.services import Actor, hand_correct, hand_record, hand_undo
from tournaments.services.results import match_award
from tournaments.services.setup import (
    entries_seed,
    entry_add,
    entry_withdraw,
    staff_add,
    tournament_create,
    tournament_set_status,
    tournament_update,
)
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db


def round_matches(t: Tournament, number: int) -> list[Match]:
    return list(Match.objects.filter(stage__tournament=t, round__number=number).order_by("position"))


# --------------------------------------------------------------------------- setting up


def test_create_validates_variant_decks_dates_and_rule_options(organizer):
    with pytest.raises(ServiceError) as exc:
        tournament_create(owner=organizer, name="X", variant="bridge")
    assert "variant" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        tournament_create(owner=organizer, name="X", variant="tractor", decks=3)
    assert "decks" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        tournament_create(owner=organizer, name="   ", variant="tractor")
    assert "name" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        tournament_create(owner=organizer, name="X", options={"no_such_option": 1})
    assert "options.no_such_option" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        tournament_create(owner=organizer, name="X", options={"target_level": "Z"})
    assert "options.target_level" in exc.value.field_errors
    assert not Tournament.objects.exists()


def test_create_keeps_chinese_names_and_valid_options(organizer):
    t = tournament_create(owner=organizer, name="  北京  升级公开赛 ", options={"target_level": "A"})
    assert t.name == "北京 升级公开赛"
    assert t.options == {"target_level": "A"}
    assert AuditEntry.objects.filter(tournament=t, action="tournament.create").exists()


def test_status_flow_and_only_organizers_change_it(organizer, outsider):
    t = tournament_create(owner=organizer, name="Cup")
    with pytest.raises(NotAllowed):
        tournament_set_status(tournament=t, status="registration", actor=Actor(outsider))
    t = tournament_set_status(tournament=t, status="registration", actor=Actor(organizer))
    assert t.status == "registration"
    with pytest.raises(ServiceError) as exc:
        tournament_set_status(tournament=t, status="finished", actor=Actor(organizer))
    assert "status" in exc.value.field_errors


def test_co_organizer_can_update_and_options_freeze_once_running(organizer):
    co = UserFactory(username="co")
    t = make_tournament(owner=organizer, teams=2, start=False)
    staff_add(tournament=t, username="co", role="organizer", actor=Actor(organizer))
    t = tournament_update(tournament=t, actor=Actor(co), venue="上海")
    assert t.venue == "上海"
    tournament_start(tournament=t, actor=Actor(co))
    with pytest.raises(ServiceError) as exc:
        tournament_update(tournament=t, actor=Actor(co), options={"target_level": "A"})
    assert "options" in exc.value.field_errors


def test_entries_need_teams_for_partnership_and_unique_seeds(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    actor = Actor(organizer)
    team = TeamFactory()
    entry_add(tournament=t, actor=actor, team=team, seed=1)
    with pytest.raises(ServiceError) as exc:
        entry_add(tournament=t, actor=actor, team=team)
    assert "team" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        entry_add(tournament=t, actor=actor, team=TeamFactory(), seed=1)
    assert "seed" in exc.value.field_errors
    with pytest.raises(ServiceError) as exc:
        entry_add(tournament=t, actor=actor, player=team.player1)
    assert "team" in exc.value.field_errors
    assert t.entries.count() == 1


def test_seeding_and_withdrawal(organizer):
    t = make_tournament(owner=organizer, teams=3, start=False)
    a, b, c = t.entries.order_by("seed")
    entries_seed(tournament=t, seeds={a.pk: 3, b.pk: 1, c.pk: 2}, actor=Actor(organizer))
    assert [e.pk for e in t.entries.order_by("seed")] == [b.pk, c.pk, a.pk]
    with pytest.raises(ServiceError):
        entries_seed(tournament=t, seeds={a.pk: 1, b.pk: 1}, actor=Actor(organizer))
    entry_withdraw(entry=a, actor=Actor(organizer))
    tournament_start(tournament=t, actor=Actor(organizer))
    assert Match.objects.filter(stage__tournament=t).count() == 1


# --------------------------------------------------------------------------- brackets


@pytest.mark.parametrize("teams", [2, 3, 5, 8, 13, 16])
def test_start_builds_a_bracket_with_byes_to_the_top_seeds(organizer, teams):
    t = make_tournament(owner=organizer, teams=teams)
    matches = Match.objects.filter(stage__tournament=t)
    assert matches.count() == teams - 1
    assert t.status == "running"
    seeds_in_round1 = {e.seed for m in round_matches(t, 1) for e in (m.entry0, m.entry1) if e}
    size = 1 << (teams - 1).bit_length()
    byes = size - teams
    assert seeds_in_round1 == set(range(byes + 1, teams + 1))
    ready = matches.filter(status="ready")
    assert all(m.entry0_id and m.entry1_id for m in ready)
    assert sorted(m.table for m in ready) == list(range(1, ready.count() + 1))


def test_random_seeding_is_reproducible_and_rating_seeding_orders_by_rating(organizer):
    one = make_tournament(owner=organizer, teams=6, seeding="random", start=False)
    tournament_start(tournament=one, actor=Actor(organizer), seeding="random", random_seed=7)
    order_one = [e.team.rating for e in one.entries.order_by("seed")]
    two = make_tournament(owner=organizer, teams=6, start=False)
    for e, rating in zip(two.entries.order_by("id"), [e for e in order_one], strict=True):
        e.team.rating = rating
        e.team.save()
    tournament_start(tournament=two, actor=Actor(organizer), seeding="rating")
    ratings = [e.team.rating for e in two.entries.order_by("seed")]
    assert ratings == sorted(ratings, reverse=True)
    assert Stage.objects.get(tournament=one).random_seed == 7


def test_manual_seeding_needs_every_seed(organizer):
    t = tournament_create(owner=organizer, name="Cup")
    entry_add(tournament=t, actor=Actor(organizer), team=TeamFactory(), seed=1)
    entry_add(tournament=t, actor=Actor(organizer), team=TeamFactory())
    with pytest.raises(ServiceError) as exc:
        tournament_start(tournament=t, actor=Actor(organizer), seeding="manual")
    assert "seeding" in exc.value.field_errors
    assert not Match.objects.exists()


def test_winner_advances_and_the_tournament_finishes_with_a_third_place_match(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4, third_place=True)
    semi1, semi2 = round_matches(t, 1)
    win_match(semi1, 0, actor)
    final = Match.objects.get(stage__tournament=t, key=semi1.next_match.key)
    assert final.entry(semi1.next_slot) == semi1.entry0
    assert final.status == "pending"
    win_match(semi2, 1, actor)
    final.refresh_from_db()
    third = Match.objects.get(stage__tournament=t, key="3P")
    assert final.status == third.status == "ready"
    assert {third.entry0_id, third.entry1_id} == {semi1.entry1_id, semi2.entry0_id}
    win_match(final, 0, actor)
    t.refresh_from_db()
    assert t.status == "running"  # the third-place match is still to play
    win_match(third, 1, actor)
    t.refresh_from_db()
    assert t.status == "finished"
    places = {row.name: (row.rank, row.place) for row in selectors.elimination_standings(t)}
    final.refresh_from_db()
    third.refresh_from_db()
    assert places[final.winner.name] == (1, "1")
    assert places[final.loser.name] == (2, "2")
    assert places[third.winner.name] == (3, "3")
    assert places[third.loser.name] == (4, "4")


# --------------------------------------------------------------------------- recording hands


def test_first_hand_needs_the_dealer_and_later_hands_follow_the_rules(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=2)
    match = round_matches(t, 1)[0]
    with pytest.raises(ServiceError) as exc:
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor)
    assert "dealer" in exc.value.field_errors
    done = hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor, dealer=1, trump="h")
    assert done.hand.number == 1 and done.hand.trump == "H" and done.hand.dealer == 1
    assert done.match.state["levels"] == ["2", "5"] and done.match.state["dealer"] == 3
    with pytest.raises(ServiceError) as exc:
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=done.match.version, actor=actor, dealer=1)
    assert "seat 3" in exc.value.field_errors["dealer"][0]
    assert HandRecord.objects.filter(match=match).count() == 1


def test_stale_version_writes_nothing_and_reports_the_current_state(organizer):
    actor = Actor(organizer)
    match = round_matches(make_tournament(owner=organizer, teams=2), 1)[0]
    old_version = match.version
    play_hand(match, SHUTOUT, actor, dealer=0)
    with pytest.raises(StaleVersion) as exc:
        hand_record(match_id=match.pk, outcome=TAKEOVER, version=old_version, actor=actor)
    assert exc.value.current["hands_played"] == 1
    assert exc.value.current["version"] == old_version + 1
    assert HandRecord.objects.filter(match=match).count() == 1


def test_bad_figures_name_the_field_and_write_nothing(organizer):
    actor = Actor(organizer)
    match = round_matches(make_tournament(owner=organizer, teams=2), 1)[0]
    bad = {"attackers_points": 33, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
    with pytest.raises(ServiceError) as exc:
        hand_record(match_id=match.pk, outcome=bad, version=match.version, actor=actor, dealer=0)
    assert "outcome.attackers_points" in exc.value.field_errors
    match.refresh_from_db()
    assert match.hands_played == 0 and match.version == 1 and not AuditEntry.objects.filter(action="hand.record").exists()


def test_undo_and_correct_recompute_the_match(organizer):
    actor = Actor(organizer)
    match = round_matches(make_tournament(owner=organizer, teams=2), 1)[0]
    play_hand(match, SHUTOUT, actor, dealer=0)          # side 0: 2 → 5, side 0 keeps the deal (seat 2)
    play_hand(match, TAKEOVER, actor)                   # side 1 takes over, seat 3 deals
    match.refresh_from_db()
    assert match.state == {"levels": ["5", "2"], "dealer": 3, "a_failures": [0, 0]}
    done = hand_correct(match_id=match.pk, number=1, outcome=TAKEOVER, version=match.version, actor=actor)
    # Hand 1 is now a takeover (seat 1 deals hand 2), and hand 2 a takeover back to side 0 (seat 2).
    assert done.match.state["levels"] == ["2", "2"]
    assert [h.dealer for h in match.hands.order_by("number")] == [0, 1]
    m = hand_undo(match_id=match.pk, version=done.match.version, actor=actor)
    assert m.hands_played == 1 and m.state["dealer"] == 1
    actions = list(AuditEntry.objects.filter(target=f"match:{match.pk}").values_list("action", flat=True))
    assert {"hand.record", "hand.correct", "hand.undo"} <= set(actions)


def test_recording_after_the_match_is_won_is_refused(organizer):
    actor = Actor(organizer)
    match = win_match(round_matches(make_tournament(owner=organizer, teams=2), 1)[0], 0, actor)
    with pytest.raises(ServiceError) as exc:
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor)
    assert "match" in exc.value.field_errors


def test_correcting_a_finished_match_before_the_winner_played_on_moves_the_winner(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4)
    semi = win_match(round_matches(t, 1)[0], 0, actor)
    final = semi.next_match
    final.refresh_from_db()
    assert final.entry(semi.next_slot) == semi.entry0
    semi.refresh_from_db()
    hand_undo(match_id=semi.pk, version=semi.version, actor=actor)
    final.refresh_from_db()
    assert final.entry(semi.next_slot) is None
    semi.refresh_from_db()
    assert semi.status == "playing"


def test_correction_that_changes_a_winner_who_played_on_is_refused_unless_an_organizer_forces_it(organizer):
    scorer = UserFactory(username="scorer")
    t = make_tournament(owner=organizer, teams=4)
    staff_add(tournament=t, username="scorer", role="scorer", actor=Actor(organizer))
    semi1, semi2 = round_matches(t, 1)
    win_match(semi1, 0, Actor(scorer))
    win_match(semi2, 0, Actor(scorer))
    final = Match.objects.get(pk=semi1.next_match_id)
    play_hand(final, SHUTOUT, Actor(scorer), dealer=0)
    semi1.refresh_from_db()
    with pytest.raises(CorrectionRefused) as exc:
        hand_correct(match_id=semi1.pk, number=4, outcome=TAKEOVER, version=semi1.version, actor=Actor(scorer))
    assert final.key in exc.value.affected
    with pytest.raises(NotAllowed):
        hand_correct(match_id=semi1.pk, number=4, outcome=TAKEOVER, version=semi1.version, actor=Actor(scorer),
                     force=True)
    assert HandRecord.objects.filter(match=final).count() == 1
    done = hand_correct(match_id=semi1.pk, number=4, outcome=TAKEOVER, version=semi1.version,
                        actor=Actor(organizer), force=True)
    assert done.warnings and final.key in done.warnings[0]
    final.refresh_from_db()
    assert final.hands_played == 0 and final.entry(semi1.next_slot) is None and final.status == "pending"
    assert AuditEntry.objects.filter(action="match.reset", target=f"match:{final.pk}").exists()


def test_award_a_forfeit_advances_the_winner_and_records_the_reason(organizer):
    t = make_tournament(owner=organizer, teams=4)
    semi = round_matches(t, 1)[0]
    with pytest.raises(ServiceError) as exc:
        match_award(match_id=semi.pk, winner_side=1, reason=" ", actor=Actor(organizer))
    assert "reason" in exc.value.field_errors
    match_award(match_id=semi.pk, winner_side=1, reason="Side 0 did not show up", actor=Actor(organizer),
                kind="forfeit")
    semi.refresh_from_db()
    assert semi.status == "finished" and semi.winner_side == 1
    assert semi.adjustments.get().reason == "Side 0 did not show up"
    final = Match.objects.get(pk=semi.next_match_id)
    assert final.entry(semi.next_slot) == semi.entry1


def test_standings_against_a_hand_computed_table(organizer):
    """Four teams: seeds 1 and 4 meet (1 wins 2→A with four shut-outs: A−2 = +12 levels), seeds 2 and 3
    meet (3 wins after losing the deal once)."""
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4)
    m1, m2 = round_matches(t, 1)
    win_match(m1, 0, actor)
    play_hand(m2, TAKEOVER, actor, dealer=0)  # side 1 takes over at 2:2
    for _ in range(4):
        play_hand(m2, SHUTOUT, actor)          # side 1: 2→5→8→J→A, wins
    rows = selectors.elimination_standings(t)
    table = [(r.rank, r.entry.seed, r.wins, r.losses, r.level_difference) for r in rows]
    assert table == [
        (1, 1, 1, 0, 12),
        (1, 3, 1, 0, 12),
        (3, 2, 0, 1, -12),
        (3, 4, 0, 1, -12),
    ]


def test_private_tournament_is_hidden_from_the_public(organizer, outsider):
    from django.contrib.auth.models import AnonymousUser

    t = make_tournament(owner=organizer, teams=2, is_public=False)
    assert selectors.tournament_get_for_viewer(pk=t.pk, user=AnonymousUser()) is None
    assert selectors.tournament_get_for_viewer(pk=t.pk, user=outsider) is None
    assert selectors.tournament_get_for_viewer(pk=t.pk, user=organizer) == t


def test_entry_status_constraint(organizer):
    from django.db import IntegrityError, transaction

    t = make_tournament(owner=organizer, teams=2, start=False)
    team = TeamFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=t, team=team, player=team.player1)


@pytest.mark.parametrize(("grand_final", "matches"), [("single", 6), ("reset", 7), ("none", 5)])
def test_double_elimination_runs_to_a_champion(organizer, grand_final, matches):
    """Four teams: 2n − 2 matches (+1 reset, −1 without a grand final); seed 1 never loses."""
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4, start=False)
    tournament_start(tournament=t, actor=actor, format="double_elimination", grand_final=grand_final)
    assert Match.objects.filter(stage__tournament=t).count() == matches
    for _ in range(matches):
        ready = Match.objects.filter(stage__tournament=t, status="ready").order_by("position").first()
        if ready is None:
            break
        top_seeded = 0 if (ready.entry0.seed or 99) < (ready.entry1.seed or 99) else 1
        win_match(ready, top_seeded, actor)
    t.refresh_from_db()
    assert t.status == "finished"
    rows = selectors.elimination_standings(t)
    assert rows[0].entry.seed == 1 and rows[0].losses == 0
    if grand_final == "reset":
        assert Match.objects.get(stage__tournament=t, key="GF2").status == "void"
    losses = {r.entry.seed: r.losses for r in rows}
    assert all(losses[s] == 2 for s in (3, 4))


def test_standings_take_a_bounded_number_of_queries(organizer, django_assert_max_num_queries):
    """The query count does not grow with the tournament's size."""
    actor = Actor(organizer)
    for teams in (4, 16):
        t = make_tournament(owner=organizer, teams=teams, name=f"Q{teams}")
        for m in list(Match.objects.filter(stage__tournament=t, status="ready"))[:3]:
            win_match(m, 0, actor)
        with django_assert_max_num_queries(3):
            selectors.elimination_standings(t)


def test_confirmation_holds_the_bracket_until_the_losing_side_confirms(organizer):
    from tournaments.services.hands import match_confirm

    t = make_tournament(owner=organizer, teams=4, start=False)
    t.require_confirmation = True
    t.save()
    tournament_start(tournament=t, actor=Actor(organizer))
    semi = round_matches(t, 1)[0]
    scorer = Actor(None, "token")
    for index in range(4):
        play_hand(semi, SHUTOUT, scorer, dealer=0 if index == 0 else None)
    semi.refresh_from_db()
    final = Match.objects.get(pk=semi.next_match_id)
    assert semi.status == "finished" and semi.confirmed_at is None
    assert final.entry(semi.next_slot) is None
    assert [r.wins for r in selectors.elimination_standings(t)] == [0, 0, 0, 0]
    with pytest.raises(NotAllowed):
        match_confirm(match_id=semi.pk, actor=scorer, side=0)  # the winners cannot confirm their own win
    match_confirm(match_id=semi.pk, actor=scorer, side=1)
    final.refresh_from_db()
    assert final.entry(semi.next_slot) == semi.entry0
    assert AuditEntry.objects.filter(action="match.confirm").exists()
    with pytest.raises(ServiceError):
        match_confirm(match_id=semi.pk, actor=Actor(organizer))


def test_time_called_gives_the_match_to_the_higher_level(organizer):
    from tournaments.services.hands import match_call_time

    t = make_tournament(owner=organizer, teams=2)
    m = round_matches(t, 1)[0]
    play_hand(m, TAKEOVER, Actor(organizer), dealer=0)   # side 1 takes over, 2:2
    play_hand(m, SHUTOUT, Actor(organizer))              # side 1 → 5
    m.refresh_from_db()
    with pytest.raises(NotAllowed):
        match_call_time(match_id=m.pk, version=m.version, actor=Actor(UserFactory(username="nobody")))
    match_call_time(match_id=m.pk, version=m.version, actor=Actor(organizer))
    m.refresh_from_db()
    assert m.status == "finished" and m.winner_side == 1 and m.time_called_at
    t.refresh_from_db()
    assert t.status == "finished"
    with pytest.raises(ServiceError):
        hand_record(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=Actor(organizer))


def test_hand_limit_ends_the_match_at_the_higher_level(organizer):
    t = make_tournament(owner=organizer, teams=2, options={"hand_limit": 2})
    m = round_matches(t, 1)[0]
    play_hand(m, SHUTOUT, Actor(organizer), dealer=1)   # side 1 → 5
    play_hand(m, TAKEOVER, Actor(organizer))            # side 0 takes over, no gain: limit reached
    m.refresh_from_db()
    assert m.status == "finished" and m.winner_side == 1 and m.state["hands_played"] == 2


def test_elimination_refuses_a_drawn_award(organizer):
    t = make_tournament(owner=organizer, teams=2)
    with pytest.raises(ServiceError) as exc:
        match_award(match_id=round_matches(t, 1)[0].pk, winner_side=None, reason="both late", actor=Actor(organizer))
    assert "winner_side" in exc.value.field_errors


def test_a_reset_match_loses_its_awarded_result_too(organizer):
    """A later match reset by a corrected earlier result is played afresh: an award it had goes with it
    (it would otherwise decide the match again), and the reset's audit entry keeps what was removed."""
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4)
    semi1, semi2 = round_matches(t, 1)
    win_match(semi1, 0, actor)
    win_match(semi2, 0, actor)
    final = Match.objects.get(pk=semi1.next_match_id)
    match_award(match_id=final.pk, winner_side=1, reason="No show", actor=actor, kind="forfeit")
    semi1.refresh_from_db()
    hand_correct(match_id=semi1.pk, number=4, outcome=TAKEOVER, version=semi1.version, actor=actor, force=True)
    final.refresh_from_db()
    assert final.winner_side is None and final.status == "pending" and not final.adjustments.exists()
    reset = AuditEntry.objects.filter(action="match.reset", target=f"match:{final.pk}").latest("id")
    assert reset.data["removed_awards"] == [{"kind": "forfeit", "winner_side": 1, "reason": "No show"}]
