"""Swiss, round robin, a Swiss qualifier into a knockout, individual table rounds (red five, Yongzhou)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    SHUTOUT,
    TAKEOVER,
    PlayerFactory,
    make_tournament,
    play_hand,
    win_match,
)
from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import Entry, Match, Stage, TableSeat
from tournaments.services import Actor
from tournaments.services.hands import match_confirm
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import stage_create, stage_start, swiss_next_round, table_round_draw
from tournaments.services.table_hands import table_hand_record

pytestmark = pytest.mark.django_db


def play_round(stage: Stage, actor: Actor, number: int) -> None:
    """Side 0 wins every match of the round (the entry listed first)."""
    for m in Match.objects.filter(stage=stage, round__number=number, status="ready").order_by("position"):
        win_match(m, 0, actor)


def test_swiss_rounds_pair_by_score_without_rematches_and_rotate_byes(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=7, start=False)
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=3)
    stage_start(stage=stage, actor=actor, random_seed=1)
    t.refresh_from_db()
    assert t.status == "running"
    met: set[frozenset[int]] = set()
    bye_entries = []
    for number in (1, 2, 3):
        if number > 1:
            swiss_next_round(stage=stage, actor=actor)
        matches = list(Match.objects.filter(stage=stage, round__number=number))
        byes = [m for m in matches if m.status == "bye"]
        assert len(byes) == 1
        bye_entries.append(byes[0].entry0_id)
        for m in matches:
            if m.status != "bye":
                pair = frozenset((m.entry0_id, m.entry1_id))
                assert pair not in met
                met.add(pair)
        seated = [e for m in matches for e in (m.entry0_id, m.entry1_id) if e]
        assert sorted(seated) == sorted(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
        play_round(stage, actor, number)
    assert len(set(bye_entries)) == 3
    with pytest.raises(ServiceError):
        swiss_next_round(stage=stage, actor=actor)
    stage.refresh_from_db()
    assert stage.status == "finished"
    table = selectors.stage_standings(stage)
    assert table.kind == "matches"
    assert [k for k, _ in table.columns][:4] == ["played", "wins", "draws", "losses"]
    top = table.rows[0]
    assert top.values["match_wins"] == 3 and top.rank == 1


def test_next_swiss_round_waits_for_outstanding_results_unless_overridden(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4, start=False)
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=2)
    stage_start(stage=stage, actor=actor, random_seed=3)
    first = Match.objects.filter(stage=stage, round__number=1).order_by("position").first()
    win_match(first, 0, actor)
    with pytest.raises(ServiceError) as exc:
        swiss_next_round(stage=stage, actor=actor)
    assert "S1-2" in exc.value.field_errors["stage"][0]
    swiss_next_round(stage=stage, actor=actor, override=True)
    assert Match.objects.filter(stage=stage, round__number=2).count() == 2


def test_confirmation_is_needed_before_a_swiss_result_counts(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=2, start=False)
    t.require_confirmation = True
    t.save()
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=2)
    stage_start(stage=stage, actor=actor, random_seed=3)
    m = Match.objects.get(stage=stage, round__number=1)
    for index in range(4):
        play_hand(m, SHUTOUT, Actor(None, "token"), dealer=0 if index == 0 else None)
    assert selectors.stage_standings(stage).rows[0].values["match_wins"] == 0
    with pytest.raises(ServiceError):
        swiss_next_round(stage=stage, actor=actor)
    match_confirm(match_id=m.pk, actor=Actor(None, "token"), side=1)
    rows = selectors.stage_standings(stage).rows
    assert rows[0].values["match_wins"] == 1 and rows[0].entry == m.entry0


def test_round_robin_every_pair_meets_once(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=5, start=False)
    stage = stage_create(tournament=t, actor=actor, format="round_robin")
    stage_start(stage=stage, actor=actor)
    matches = Match.objects.filter(stage=stage).exclude(status="bye")
    pairs = [frozenset((m.entry0_id, m.entry1_id)) for m in matches]
    assert len(pairs) == 10 and len(set(pairs)) == 10
    assert Match.objects.filter(stage=stage, status="bye").count() == 5


def test_swiss_qualifier_into_a_knockout(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=6, start=False)
    swiss = stage_create(tournament=t, actor=actor, format="swiss", rounds=2, qualifiers=4)
    knockout = stage_create(tournament=t, actor=actor, format="single_elimination", source_stage=swiss)
    stage_start(stage=swiss, actor=actor, random_seed=5)
    with pytest.raises(ServiceError):
        stage_start(stage=knockout, actor=actor)
    play_round(swiss, actor, 1)
    swiss_next_round(stage=swiss, actor=actor)
    play_round(swiss, actor, 2)
    swiss.refresh_from_db()
    assert swiss.status == "finished"
    top4 = [row.entry.pk for row in selectors.stage_standings(swiss).rows[:4]]
    stage_start(stage=knockout, actor=actor)
    semis = Match.objects.filter(stage=knockout, round__number=1).order_by("position")
    assert {e for m in semis for e in (m.entry0_id, m.entry1_id)} == set(top4)
    # Seed 1 of the knockout is the Swiss winner and meets seed 4.
    assert semis[0].entry0_id == top4[0] and semis[0].entry1_id == top4[3]
    standings = selectors.tournament_standings(t)
    assert [s.stage.pk for s in standings] == [knockout.pk, swiss.pk]


def test_only_matching_formats_per_variant(organizer):
    actor = Actor(organizer)
    red = tournament_create(owner=organizer, name="红五", variant="red-five")
    with pytest.raises(ServiceError):
        stage_create(tournament=red, actor=actor, format="swiss", rounds=3)
    t = make_tournament(owner=organizer, teams=2, start=False)
    with pytest.raises(ServiceError):
        stage_create(tournament=t, actor=actor, format="table_rounds", rounds=3)
    with pytest.raises(ServiceError) as exc:
        stage_create(tournament=t, actor=actor, format="swiss", rounds=3, tiebreaks_order=["coin"])
    assert "tiebreaks" in exc.value.field_errors


def individual(organizer, variant: str, players: int, **kwargs):
    actor = Actor(organizer)
    t = tournament_create(owner=organizer, name=f"{variant} event", variant=variant, **kwargs)
    for _ in range(players):
        entry_add(tournament=t, actor=actor, player=PlayerFactory())
    return t, actor


def test_red_five_table_rounds_with_sit_outs_and_cumulative_game_points(organizer):
    t, actor = individual(organizer, "red-five", 9)
    stage = stage_create(tournament=t, actor=actor, format="table_rounds", rounds=2, hands_per_table=2)
    stage_start(stage=stage, actor=actor, random_seed=11)
    tables = list(Match.objects.filter(stage=stage, round__number=1).order_by("position"))
    assert len(tables) == 2 and all(TableSeat.objects.filter(match=m).count() == 4 for m in tables)
    stage.refresh_from_db()
    assert len(stage.settings["sit_outs"]["1"]) == 1
    outcome = {"dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
               "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}]}
    for m in tables:
        for _ in range(2):
            m.refresh_from_db()
            table_hand_record(match_id=m.pk, outcome=outcome, version=m.version, actor=actor)
    m = tables[0]
    m.refresh_from_db()
    assert m.status == "finished" and m.state["totals"] == [-16, 8, 4, 4]
    with pytest.raises(ServiceError):
        table_hand_record(match_id=m.pk, outcome=outcome, version=m.version, actor=actor)
    table = selectors.stage_standings(stage)
    assert table.kind == "tables"
    seat1 = TableSeat.objects.get(match=m, seat=1).entry
    row = next(r for r in table.rows if r.entry == seat1)
    assert row.values["game_points"] == 8
    assert sum(r.values["game_points"] for r in table.rows) == 0
    table_round_draw(stage=stage, actor=actor)
    stage.refresh_from_db()
    sat_out = stage.settings["sit_outs"]
    assert sat_out["1"] != sat_out["2"]


def test_yongzhou_three_player_tables_and_net_standings(organizer):
    t, actor = individual(organizer, "yongzhou-300", 7, players_per_table=4)
    stage = stage_create(tournament=t, actor=actor, format="table_rounds", rounds=1, hands_per_table=1)
    stage_start(stage=stage, actor=actor, random_seed=2)
    tables = list(Match.objects.filter(stage=stage).order_by("position"))
    sizes = sorted(TableSeat.objects.filter(match=m).count() for m in tables)
    assert sizes == [3, 4]
    for m in tables:
        n = m.state["players"]
        points = [20, 130, 150] if n == 3 else [20, 130, 100, 50]
        bad = {"points": [10] * n}
        with pytest.raises(ServiceError) as exc:
            table_hand_record(match_id=m.pk, outcome=bad, version=m.version, actor=actor)
        assert "outcome.points" in exc.value.field_errors
        table_hand_record(match_id=m.pk, outcome={"points": points}, version=m.version, actor=actor)
    rows = selectors.stage_standings(stage).rows
    assert rows[0].values["net"] == 55 or rows[0].values["net"] == 50
    assert sum(r.values["net"] for r in rows) == 0
    stage.refresh_from_db()
    assert stage.status == "finished"


def test_forfeit_in_swiss_counts_as_a_win_and_a_loss(organizer):
    from tournaments.services.results import match_award

    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=2, start=False)
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=1)
    stage_start(stage=stage, actor=actor, random_seed=1)
    m = Match.objects.get(stage=stage)
    match_award(match_id=m.pk, winner_side=1, reason="no show", actor=actor, kind="forfeit")
    rows = selectors.stage_standings(stage).rows
    assert rows[0].entry == m.entry1 and rows[0].values["match_wins"] == 1


def test_draw_counts_half_with_a_fixed_deal_limit(organizer):
    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=2, start=False, options={"hand_limit": 2, "hand_limit_tie": "draw"})
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=1)
    stage_start(stage=stage, actor=actor, random_seed=1)
    m = Match.objects.get(stage=stage)
    play_hand(m, TAKEOVER, actor, dealer=1)
    play_hand(m, TAKEOVER, actor)
    m.refresh_from_db()
    assert m.status == "finished" and m.is_draw and m.winner_side is None
    assert [r.values["match_wins"] for r in selectors.stage_standings(stage).rows] == [0.5, 0.5]


def test_table_undo_and_correct_recompute_the_totals_and_any_player_confirms(organizer):
    from tournaments.errors import NotAllowed
    from tournaments.services.table_hands import table_hand_correct, table_hand_undo

    t, actor = individual(organizer, "yongzhou-300", 4)
    t.require_confirmation = True
    t.save()
    stage = stage_create(tournament=t, actor=actor, format="table_rounds", rounds=1, hands_per_table=2)
    stage_start(stage=stage, actor=actor, random_seed=2)
    m = Match.objects.get(stage=stage)
    table_hand_record(match_id=m.pk, outcome={"points": [20, 130, 100, 50]}, version=m.version, actor=actor)
    m.refresh_from_db()
    table_hand_record(match_id=m.pk, outcome={"points": [75, 75, 75, 75], "tie_break": 2}, version=m.version, actor=actor)
    m.refresh_from_db()
    assert m.status == "finished" and m.confirmed_at is None and m.state["totals"] == [-55, 55, 25, -25]
    m = table_hand_correct(match_id=m.pk, number=1, outcome={"points": [100, 100, 50, 50], "tie_break": 1}, version=m.version,
                           actor=actor)
    assert m.state["totals"] == [25, 25, -25, -25]
    with pytest.raises(ServiceError) as exc:
        table_hand_correct(match_id=m.pk, number=2, outcome={"points": [1, 2, 3, 4]}, version=m.version, actor=actor)
    assert "outcome.points.0" in exc.value.field_errors
    with pytest.raises(NotAllowed):
        match_confirm(match_id=m.pk, actor=Actor(None, "token"))
    match_confirm(match_id=m.pk, actor=Actor(None, "token"), side=2)
    m.refresh_from_db()
    assert m.confirmed_at is not None
    m = table_hand_undo(match_id=m.pk, version=m.version, actor=actor)
    assert m.status == "playing" and m.hands_played == 1 and m.confirmed_at is None
    assert m.state["totals"] == [25, 25, -25, -25]


def test_stage_and_round_names_follow_the_visitors_language(organizer):
    from django.utils import translation

    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=4, start=False)
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=2)
    stage_start(stage=stage, actor=actor, random_seed=1)
    rnd = stage.rounds.get()
    with translation.override("en"):
        assert str(stage) == "Swiss" and str(rnd) == "Round 1"
    assert rnd.name == "round:1" and stage.name == ""


def test_the_swiss_bye_goes_to_the_lowest_entry_by_the_stages_own_standings(organizer):
    """Two entries lost round 1 with no bye yet: the one the standings' tiebreaks (level difference)
    place lower gets the bye, even when it is the higher seed."""
    from tournaments.services.results import match_award

    actor = Actor(organizer)
    t = make_tournament(owner=organizer, teams=5, start=False)
    stage = stage_create(tournament=t, actor=actor, format="swiss", rounds=2)
    stage_start(stage=stage, actor=actor, random_seed=1)
    seed_of = {e.pk: e.seed for e in Entry.objects.filter(tournament=t)}
    played = [m for m in Match.objects.filter(stage=stage, round__number=1, status="ready").order_by("position")]
    assert len(played) == 2
    # The higher-seeded loser loses a played match by many levels; the other loses an awarded match (no levels).
    played.sort(key=lambda m: min(seed_of[m.entry0_id], seed_of[m.entry1_id]))
    heavy, awarded = played
    heavy_loser_side = 0 if seed_of[heavy.entry0_id] > seed_of[heavy.entry1_id] else 1
    win_match(heavy, 1 - heavy_loser_side, actor)
    awarded_loser_side = 0 if seed_of[awarded.entry0_id] > seed_of[awarded.entry1_id] else 1
    match_award(match_id=awarded.pk, winner_side=1 - awarded_loser_side, reason="no show", actor=actor)
    heavy_loser = heavy.entry(heavy_loser_side).pk
    awarded_loser = awarded.entry(awarded_loser_side).pk
    rows = [row.entry.pk for row in selectors.stage_standings(stage).rows]
    assert rows.index(heavy_loser) > rows.index(awarded_loser)  # the standings place the heavy loser lower
    assert seed_of[heavy_loser] < seed_of[awarded_loser]  # though it is the higher seed
    swiss_next_round(stage=stage, actor=actor)
    bye = Match.objects.get(stage=stage, round__number=2, status="bye")
    assert bye.entry0_id == heavy_loser
