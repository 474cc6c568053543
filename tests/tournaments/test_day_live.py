"""Live pages follow the tournament without a reload: a per-tournament change stamp in the cache, moved
after every committed write, and an endpoint that answers from the cache alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_pages import SHUTOUT, build_tournament, first_match, make_user
from tournaments.models import Tournament
from tournaments.selectors.stamps import changes_stamp
from tournaments.services import Actor, hand_correct, hand_record, hand_undo

pytestmark = pytest.mark.django_db


@pytest.fixture
def running() -> Tournament:
    return build_tournament(make_user("live_owner"))


def changes(client: Client, tournament: Tournament, since: str) -> Any:
    return client.get(reverse("tournament-changes", args=[tournament.pk]), {"since": since})


def test_the_change_endpoint_answers_from_the_cache_without_a_query(
        client: Client, running: Tournament, django_assert_num_queries: Any) -> None:
    stamp = changes_stamp(running.pk)
    with django_assert_num_queries(0):
        same = changes(client, running, stamp)
        old = changes(client, running, "an-old-stamp")
    assert same.status_code == 204 and same["Cache-Control"] == "no-store"
    assert old.status_code == 200 and old.json() == {"stamp": stamp}


def test_each_committed_hand_action_moves_the_stamp(
        client: Client, running: Tournament, django_capture_on_commit_callbacks: Any) -> None:
    match = first_match(running)
    actor = Actor(running.owner)
    seen = [changes_stamp(running.pk)]

    def moved() -> None:
        stamp = changes_stamp(running.pk)
        assert stamp not in seen
        answer = changes(client, running, seen[-1])
        assert answer.status_code == 200 and answer.json() == {"stamp": stamp}
        assert changes(client, running, stamp).status_code == 204
        seen.append(stamp)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor, dealer=0, trump="S")
    assert changes_stamp(running.pk) == seen[-1]  # nothing moves before the commit
    for callback in callbacks:
        callback()
    moved()
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(match_id=match.pk, number=1, outcome={**SHUTOUT, "attackers_points": 40},
                     version=match.version, actor=actor)
    moved()
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        hand_undo(match_id=match.pk, version=match.version, actor=actor)
    moved()


def test_the_live_pages_carry_the_stamp_and_listen_for_changes(client: Client, running: Tournament) -> None:
    match = first_match(running)
    stamp = changes_stamp(running.pk)
    for url in (reverse("tournament-standings", args=[running.pk]), reverse("tournament-tables", args=[running.pk]),
                reverse("tournament-bracket", args=[running.pk]), reverse("match-detail", args=[match.pk])):
        html = client.get(url).content.decode()
        assert f'data-stamp="{stamp}"' in html, url
        assert 'hx-trigger="tournament-changed from:body' in html, url
        assert "js/live-changes.js" in html, url
