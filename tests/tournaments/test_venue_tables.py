"""A physical table keeps its link all day (issue 15): ``/v/<token>/`` opens whatever is played at that
table now, a card printed before round 1 opens round 2's match there, organizers revoke and reissue."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.test_pages import build_tournament, login, make_user, win
from tests.tournaments.test_pages_formats import individual
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import AuditEntry, Match, Stage, VenueTable
from tournaments.services import Actor
from tournaments.services.stages import stage_create, stage_start, swiss_next_round
from tournaments.services.venue import venue_table_reissue, venue_table_revoke, venue_tables_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return make_user("venue_owner")


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def live(tournament: Any, number: int) -> VenueTable:
    return VenueTable.objects.get(tournament=tournament, number=number, revoked_at=None)


def swiss_before_round_1(owner: Any) -> tuple[Any, Stage]:
    tournament = build_tournament(owner, teams=4, start=False, name="Demo Open 2026")
    stage = stage_create(tournament=tournament, actor=Actor(owner), format="swiss", rounds=2)
    return tournament, stage


def test_a_card_printed_before_round_1_opens_round_2s_match_at_that_table(client: Client, owner: Any) -> None:
    tournament, stage = swiss_before_round_1(owner)
    login(client, owner)
    response = client.post(reverse("tournament-manage", args=[tournament.pk]), {"action": "venue_tables", "count": 2})
    assert response.status_code == 302
    assert sorted(VenueTable.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    pdf = client.get(reverse("print-venue-cards-pdf", args=[tournament.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert 'filename="demo-open-2026-venue-cards.pdf"' in pdf["Content-Disposition"]
    text = re.sub(r"\s+", "", pdf_text(pdf.content))
    printed = re.findall(r"/v/([A-Za-z0-9_-]{32})/", text)
    assert printed == [live(tournament, 1).token, live(tournament, 2).token]  # one card per table, in order
    card_url = reverse("venue-link", args=[printed[0]])

    stage_start(stage=stage, actor=Actor(owner), random_seed=1)
    table_1 = Match.objects.get(stage=stage, round__number=1, table=1)
    visitor = Client()
    opened = visitor.get(card_url)
    assert opened.status_code == 302 and opened["Location"] == reverse("table-session", args=[table_1.pk])
    for m in Match.objects.filter(stage=stage, round__number=1, status=Match.Status.READY):
        win(m, 0, Actor(owner))
    between = visitor.get(card_url)
    assert between.status_code == 200
    assert "Nothing is being played at this table now." in between.content.decode()
    assert table_1.key in between.content.decode()  # "Last here: …"

    swiss_next_round(stage=stage, actor=Actor(owner))
    round_2 = Match.objects.get(stage=stage, round__number=2, table=1)
    opened = visitor.get(card_url)
    assert opened["Location"] == reverse("table-session", args=[round_2.pk])
    page = visitor.get(opened["Location"])
    assert page.status_code == 200 and round_2.entry0.name in page.content.decode()


def test_a_revoked_link_404s_with_a_clear_message_and_reissue_gives_a_new_one(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=4, name="Revoke Cup")
    match = Match.objects.get(stage__tournament=tournament, round__number=1, table=1)
    old = live(tournament, 1)
    scorer = Client()
    granted = scorer.get(reverse("venue-link", args=[old.token]))
    assert granted["Location"] == reverse("table-session", args=[match.pk])
    assert scorer.get(granted["Location"]).status_code == 200

    login(client, owner)
    client.post(reverse("tournament-manage", args=[tournament.pk]), {"action": "venue_revoke", "table": 1})
    refused = Client().get(reverse("venue-link", args=[old.token]))
    assert refused.status_code == 404
    assert "was revoked by the organizers" in refused.content.decode()
    assert scorer.get(granted["Location"]).status_code == 404  # the grant it gave ends too
    assert AuditEntry.objects.filter(tournament=tournament, action="venue_table.revoke", target="table:1").exists()

    client.post(reverse("tournament-manage", args=[tournament.pk]), {"action": "venue_reissue", "table": 1})
    new = live(tournament, 1)
    assert new.token != old.token
    assert Client().get(reverse("venue-link", args=[new.token]))["Location"] == reverse("table-session",
                                                                                         args=[match.pk])
    assert Client().get(reverse("venue-link", args=[old.token])).status_code == 404
    page = client.get(reverse("tournament-manage", args=[tournament.pk])).content.decode()
    assert new.token in page and old.token not in page
    unknown = Client().get(reverse("venue-link", args=["no-such-token"]))
    assert unknown.status_code == 404 and "This table link does not exist" in unknown.content.decode()


def test_only_organizers_revoke_and_bad_numbers_say_why(owner: Any) -> None:
    tournament = build_tournament(owner, teams=4)
    with pytest.raises(NotAllowed):
        venue_table_revoke(tournament=tournament, number=1, actor=Actor(make_user("someone")))
    with pytest.raises(ServiceError) as no_table:
        venue_table_reissue(tournament=tournament, number=9, actor=Actor(owner))
    assert "no table 9" in str(no_table.value.field_errors["table"])
    with pytest.raises(ServiceError) as bad_count:
        venue_tables_add(tournament=tournament, count=0, actor=Actor(owner))
    assert "from 1 to 500" in str(bad_count.value.field_errors["count"])
    venue_table_revoke(tournament=tournament, number=1, actor=Actor(owner))
    with pytest.raises(ServiceError):
        venue_table_revoke(tournament=tournament, number=1, actor=Actor(owner))


def test_an_individual_table_is_opened_by_its_tables_link(client: Client, owner: Any) -> None:
    tournament, stage = individual(owner, "red-five", players=4)
    table = Match.objects.get(stage=stage, round__number=1)
    response = Client().get(reverse("venue-link", args=[live(tournament, table.table).token]))
    assert response["Location"] == reverse("table-session", args=[table.pk])


def test_the_rounds_table_cards_print_the_permanent_link(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=4, name="Cards Cup")
    round_1 = Match.objects.filter(stage__tournament=tournament, round__number=1).first().round
    login(client, owner)
    pdf = client.get(reverse("print-table-cards-pdf", args=[tournament.pk, round_1.pk]))
    assert 'filename="cards-cup-table-cards-round-1.pdf"' in pdf["Content-Disposition"]
    text = re.sub(r"\s+", "", pdf_text(pdf.content))
    assert reverse("venue-link", args=[live(tournament, 1).token]) in text
    assert Client().get(reverse("print-table-cards-pdf", args=[tournament.pk, round_1.pk])).status_code == 302
