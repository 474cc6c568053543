"""Hypothesis properties of the hand-entry service: whatever figures arrive, either a valid hand is
stored (and it equals what scoring computes) or nothing is stored at all.

The inputs range from almost-right tractor figures (numbers off by a little, wrong types, missing or
extra keys) to arbitrary JSON-ish values, with a version and a dealer that are sometimes wrong too.
The only acceptable refusals are ServiceError (400 in the API) and StaleVersion (409); anything else
would be a 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.api import score_hand_request
from scoring.errors import ScoringInputError
from tests.tournaments.factories import UserFactory, make_tournament
from tournaments.errors import ServiceError, StaleVersion
from tournaments.models import AuditEntry, HandRecord, Match
from tournaments.services import Actor, hand_record, hand_undo
from tournaments.services.hands import initial_state

pytestmark = pytest.mark.django_db

json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=8)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
points = st.one_of(st.integers(-20, 220).map(lambda n: n - n % 5), st.integers(-20, 220), json_scalars)
near_valid = st.fixed_dictionaries(
    {"attackers_points": points, "kitty_points": st.one_of(st.integers(0, 40).map(lambda n: n - n % 5), json_scalars)},
    optional={
        "last_trick": st.one_of(
            st.fixed_dictionaries({"winner": st.sampled_from(["dealer", "attackers", "nobody", "", 1]) | json_scalars,
                                   "largest": st.integers(-1, 6) | json_scalars}),
            json_values),
        "extra": json_values,
    },
)
outcomes = st.one_of(near_valid, near_valid, json_values)
dealers = st.one_of(st.sampled_from([0, 1, 2, 3]), st.sampled_from([None, -1, 4, True, "0", 1.0]))
PROFILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@pytest.fixture
def played():
    """A running match with one hand already recorded (so a second hand uses the carried state)."""
    owner = UserFactory(username="prop-owner")
    t = make_tournament(owner=owner, teams=4)
    fresh, used = Match.objects.filter(stage__tournament=t, status="ready").order_by("position")[:2]
    hand_record(match_id=used.pk, outcome={"attackers_points": 85, "kitty_points": 0,
                                           "last_trick": {"winner": "dealer", "largest": 1}},
                version=used.version, actor=Actor(owner), dealer=1)
    return {"actor": Actor(owner), "fresh": fresh.pk, "used": used.pk}


def snapshot(match_id: int) -> tuple[Any, ...]:
    m = Match.objects.get(pk=match_id)
    return (m.version, m.hands_played, m.state, m.status, m.winner_side,
            list(HandRecord.objects.filter(match_id=match_id).order_by("number").values_list("number", "outcome")),
            AuditEntry.objects.filter(target=f"match:{match_id}").count())


def expected(match: Match, outcome: Any, dealer: Any) -> dict[str, Any] | None:
    """What scoring says about these figures on this match (None when scoring refuses them)."""
    tournament = match.stage.tournament
    state = match.state if match.hands_played else initial_state(tournament, dealer if isinstance(dealer, int) else 0)
    try:
        return score_hand_request({"variant": tournament.variant, "options": {}, "state": dict(state),
                                   "outcome": outcome})
    except ScoringInputError:
        return None


def check_one(match_id: int, actor: Actor, outcome: Any, dealer: Any, version_shift: Any) -> None:
    before = snapshot(match_id)
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    version = match.version + version_shift if isinstance(version_shift, int) else version_shift
    want = expected(match, outcome, dealer)
    try:
        done = hand_record(match_id=match_id, outcome=outcome, version=version, actor=actor, dealer=dealer)
    except (ServiceError, StaleVersion) as exc:
        assert snapshot(match_id) == before, f"refused ({exc}) but something was written"
        if isinstance(exc, ServiceError):
            assert exc.field_errors and all(msgs and all(isinstance(m, str) and m for m in msgs)
                                            for msgs in exc.field_errors.values())
        dealer_ok = (dealer in (0, 1, 2, 3) and not isinstance(dealer, bool)) if match.hands_played == 0 else (
            dealer is None or dealer == match.state.get("dealer"))
        current = type(version_shift) is int and version_shift == 0  # 0.0 and False are not a version sent
        if current and dealer_ok and want is not None:
            raise AssertionError(f"scoring accepts {outcome!r} but the service refused it: {exc}") from exc
        return
    # Stored: exactly one more hand, equal to what scoring computes, and everything consistent.
    assert version_shift == 0 and want is not None, f"the service stored {outcome!r} that scoring refuses"
    after = Match.objects.get(pk=match_id)
    hand = HandRecord.objects.get(pk=done.hand.pk)
    assert hand.number == before[1] + 1 and after.hands_played == before[1] + 1
    assert after.version == before[0] + 1
    assert hand.outcome == dict(outcome)
    assert hand.result == want and done.result == want
    assert after.state == want["state"]
    assert AuditEntry.objects.filter(target=f"match:{match_id}").count() == before[6] + 1
    # Put the match back so the next example starts from the same place.
    hand_undo(match_id=match_id, version=after.version, actor=actor)


@PROFILE
@given(outcome=outcomes, dealer=dealers, version_shift=st.sampled_from([0, 0, 0, 0, -1, 1]) | json_scalars)
def test_first_hand_is_stored_whole_or_not_at_all(played, outcome, dealer, version_shift):
    check_one(played["fresh"], played["actor"], outcome, dealer, version_shift)


@PROFILE
@given(outcome=outcomes, dealer=st.none() | dealers, version_shift=st.sampled_from([0, 0, 0, -1]))
def test_later_hand_is_stored_whole_or_not_at_all(played, outcome, dealer, version_shift):
    check_one(played["used"], played["actor"], outcome, dealer, version_shift)


@PROFILE
@given(outcome=near_valid)
def test_the_api_answers_201_or_a_4xx_with_a_message(played, outcome, client):
    """The same through ``POST /api/v1/matches/{id}/hands/``: 201 with scoring's result, or a 4xx whose
    body has a ``detail`` and nothing stored."""
    from rest_framework.authtoken.models import Token

    match_id = played["used"]
    before = snapshot(match_id)
    match = Match.objects.select_related("stage__tournament").get(pk=match_id)
    key = Token.objects.get_or_create(user=played["actor"].user)[0].key
    want = expected(match, outcome, None)
    r = client.post(f"/api/v1/matches/{match_id}/hands/", {"version": match.version, "outcome": outcome},
                    content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}")
    assert r.status_code in (201, 400), r.content
    if r.status_code == 400:
        body = r.json()
        assert body["detail"] and body["code"], (outcome, body)
        assert body["code"] != "invalid" or body["errors"], (outcome, body)  # invalid input names its fields
        assert snapshot(match_id) == before
        assert want is None, f"scoring accepts {outcome!r} but the API refused it: {r.json()}"
        return
    assert want is not None and r.json()["result"] == want
    hand_undo(match_id=match_id, version=r.json()["match"]["version"], actor=played["actor"])
