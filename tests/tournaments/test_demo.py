"""The demo looks like a real event (issue 15): its hands are played by the engine's bots and
recorded through the hand services, so levels, scores and standings vary — and every stored hand
scores the same again through the scoring core. Deterministic and fast."""

from __future__ import annotations

import time

import pytest
from django.db import transaction

from tournaments.demo import DEMO_RED_FIVE, DEMO_SWISS, DEMO_TOURNAMENT, load_demo
from tournaments.models import HandRecord, Match, Stage, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services.hands import replay_hands
from tournaments.services.table_hands import score_table_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> float:
    started = time.perf_counter()
    load_demo()
    return time.perf_counter() - started


def test_finished_matches_end_at_varied_levels_and_load_fast(demo: float) -> None:
    assert demo < 30, f"load_demo took {demo:.1f} s"
    for name in (DEMO_TOURNAMENT, DEMO_SWISS):
        finished = Match.objects.filter(stage__tournament__name=name, status=Match.Status.FINISHED)
        assert finished.count() >= 4, name
        finals = {tuple(m.state["levels"]) for m in finished}
        hands = {m.hands_played for m in finished}
        assert len(finals) >= 3, (name, finals)  # not every match reads "A : 2"
        assert len(hands) >= 2, (name, hands)
    main = Tournament.objects.get(name=DEMO_TOURNAMENT)
    assert Match.objects.filter(stage__tournament=main, status=Match.Status.FINISHED).count() == 9
    assert Match.objects.filter(stage__tournament=main, status=Match.Status.PLAYING).count() == 2


def test_red_five_standings_have_differing_points(demo: float) -> None:
    event = Tournament.objects.get(name=DEMO_RED_FIVE)
    hands = HandRecord.objects.filter(match__stage__tournament=event)
    assert hands.count() == 3 * 4 + 2
    assert len({h.outcome["bid"] for h in hands}) > 1 and len({h.outcome["dealer"] for h in hands}) > 1
    totals = [total for m in Match.objects.filter(stage__tournament=event, hands_played__gt=0)
              for total in m.state["totals"]]
    assert any(totals) and len(set(totals)) >= 3, totals
    (table,) = tournament_standings(event)
    points = [row["game_points"] for row in table.rows]
    assert len(points) == 14 and any(points) and len(set(points)) >= 4, points


def test_every_stored_hand_passes_the_scoring_core(demo: float) -> None:
    checked = 0
    for match in Match.objects.filter(hands_played__gt=0).select_related("stage__tournament"):
        hands = list(match.hands.order_by("number"))
        tournament = match.stage.tournament
        if match.stage.format == Stage.Format.TABLE_ROUNDS:
            for hand in hands:
                assert score_table_hand(match, hand.outcome) == hand.result
        else:
            replay = replay_hands(tournament, hands[0].dealer, [h.outcome for h in hands])
            assert replay.results == [h.result for h in hands]
            assert replay.dealers == [h.dealer for h in hands]
            assert replay.state == match.state
        checked += len(hands)
    assert checked == HandRecord.objects.count() > 100


class _RollBack(Exception):
    pass


def test_the_demo_is_deterministic(db: None) -> None:
    def picture() -> list[tuple[object, ...]]:
        return list(HandRecord.objects.order_by("match__stage__tournament__name", "match__round__number",
                                                "match__position", "number")
                    .values_list("match__stage__tournament__name", "number", "dealer", "trump", "outcome"))

    try:
        with transaction.atomic():
            load_demo()
            first = picture()
            raise _RollBack
    except _RollBack:
        pass
    assert not HandRecord.objects.exists()
    load_demo()
    assert picture() == first
