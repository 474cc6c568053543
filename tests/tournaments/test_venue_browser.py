"""In a browser (issue 15): an organizer revokes and reissues a table's link on the manage page; the
card's QR link opens the table's match on a phone, and the revoked one says why it no longer does."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.test_browser import log_in
from tests.tournaments.test_pages import PASSWORD, build_tournament
from tournaments.models import Match, VenueTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organizer_revokes_and_reissues_a_table_link(page: Any, live_server: Any) -> None:
    base = live_server.url
    owner = get_user_model().objects.create_user("venue_browser", password=PASSWORD)
    tournament = build_tournament(owner, teams=4, name="Venue Cup")
    match = Match.objects.get(stage__tournament=tournament, round__number=1, table=1)
    old = VenueTable.objects.get(tournament=tournament, number=1)

    page.goto(f"{base}/v/{old.token}/")
    assert page.url.endswith(f"/table/{match.pk}/")
    assert match.entry0.name in page.content()

    log_in(page, base, "venue_browser")
    page.goto(f"{base}/tournaments/{tournament.pk}/manage/#venue-tables")
    row = page.locator("#venue-table-list tr[data-table='1']")
    assert old.token in row.locator("a.token-link").get_attribute("href")
    page.screenshot(path="/tmp/dayd_manage_tables.png", full_page=False)
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    assert "is revoked" in page.content()
    page.locator("#venue-table-list tr[data-table='1']").get_by_role("button", name="Reissue").click()
    page.wait_for_load_state()
    new = VenueTable.objects.get(tournament=tournament, number=1, revoked_at=None)
    assert new.token in page.locator("#venue-table-list tr[data-table='1'] a.token-link").get_attribute("href")

    response = page.goto(f"{base}/v/{old.token}/")
    assert response is not None and response.status == 404
    assert "was revoked by the organizers" in page.locator("#venue-message").inner_text()
    page.screenshot(path="/tmp/dayd_revoked.png")
    page.goto(f"{base}/v/{new.token}/")
    assert page.url.endswith(f"/table/{match.pk}/")
