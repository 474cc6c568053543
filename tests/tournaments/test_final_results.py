"""A finished match whose result is final is not undone from a table link (issue 28): the table's page
offers neither "undo the last hand" nor corrections, and the services refuse both; an organizer still can.
While the losing side has not yet confirmed (a tournament asking for confirmation), the table may."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.factories import make_tournament, win_match
from tournaments.errors import NotAllowed
from tournaments.models import Match
from tournaments.services import Actor
from tournaments.services.hands import hand_undo


def finished(organizer: Any, *, require_confirmation: bool) -> Match:
    tournament = make_tournament(owner=organizer, teams=4, require_confirmation=require_confirmation)
    match = Match.objects.filter(stage__tournament=tournament, status="ready").order_by("position").first()
    assert match is not None
    return win_match(match, 0, Actor(organizer))


def table_page(match: Match) -> tuple[Client, str]:
    client = Client()
    page = client.get(f"/t/{match.scorer_token}/", follow=True)
    assert page.status_code == 200
    return client, page.content.decode()


def test_a_final_result_is_not_offered_for_undo_or_correction_through_the_table_link(organizer: Any) -> None:
    match = finished(organizer, require_confirmation=False)
    assert match.confirmed_at is not None
    client, html = table_page(match)
    assert 'id="undo-hand"' not in html and "?hand=1#correct" not in html and 'id="result-final"' in html
    corrected = client.get(f"/table/{match.pk}/?hand=1").content.decode()
    assert 'id="correct"' not in corrected
    with pytest.raises(NotAllowed):
        hand_undo(match_id=match.pk, version=match.version, actor=Actor(None, "token"))
    # the organizer, signed in, still can
    organizer_client = Client()
    organizer_client.force_login(organizer)
    own = organizer_client.get(f"/matches/{match.pk}/score/").content.decode()
    assert 'id="undo-hand"' in own and "?hand=1#correct" in own
    undone = hand_undo(match_id=match.pk, version=match.version, actor=Actor(organizer))
    assert undone.status != Match.Status.FINISHED


def test_an_unconfirmed_result_can_still_be_put_right_at_the_table(organizer: Any) -> None:
    match = finished(organizer, require_confirmation=True)
    assert match.confirmed_at is None
    _client, html = table_page(match)
    assert 'id="undo-hand"' in html and 'id="result-final"' not in html
