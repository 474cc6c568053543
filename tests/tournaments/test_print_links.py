"""Printing gaps (issue 15): every print link on every page of the demo tournaments answers 200; the
standings PDF gives every entry a place; a knockout not drawn yet prints who has qualified so far;
PDF file names say the tournament and the document."""

from __future__ import annotations

import io
import re
from html import unescape
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.test_pages import build_tournament, make_user, win
from tournaments.demo import DEMO_ORGANIZER, load_demo
from tournaments.documents import Document, file_names
from tournaments.models import Match, Stage, Tournament
from tournaments.services import Actor
from tournaments.services.stages import stage_create, stage_start, swiss_next_round

pytestmark = pytest.mark.django_db

HREF = re.compile(r'href="([^"]+)"')


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def print_links(html: str) -> set[str]:
    return {unescape(h) for h in HREF.findall(html) if "/print" in h and not h.startswith("http")}


def pages_of(tournament: Tournament) -> list[str]:
    urls = [reverse(name, args=[tournament.pk]) for name in (
        "tournament-detail", "tournament-bracket", "tournament-tables", "tournament-standings", "tournament-manage",
        "print-jobs")]
    urls += [reverse("match-detail", args=[pk]) for pk in
             Match.objects.filter(stage__tournament=tournament).exclude(status__in=["bye", "void"])
             .values_list("pk", flat=True)]
    return urls


@pytest.mark.parametrize("who", ["organizer", "visitor"])
def test_every_print_link_on_every_demo_page_answers_200(who: str, settings: Any, monkeypatch: Any) -> None:
    """Every document is built and its HTML rendered; WeasyPrint itself is left out (the PDFs are read
    back in the tests below and in test_documents)."""
    settings.PDF_ANON_PER_MINUTE = 10_000
    monkeypatch.setattr(Document, "render_pdf", lambda self, **kw: (self.render_html(for_pdf=True) and b"%PDF-", 1))
    load_demo()
    client = Client()
    if who == "organizer":
        client.force_login(get_user_model().objects.get(username=DEMO_ORGANIZER))
    seen: set[str] = set()
    pages = 0
    for tournament in Tournament.objects.all():
        for url in pages_of(tournament):
            page = client.get(url)
            if page.status_code != 200:  # the manage and print pages are the organizers'
                assert who == "visitor" and page.status_code in (302, 403), (url, page.status_code)
                continue
            pages += 1
            for link in print_links(page.content.decode()) - seen:
                seen.add(link)
                response = client.get(link, follow=True)
                assert response.status_code == 200, (url, link, response.status_code)
                path = urlsplit(link).path
                if path.endswith(".pdf") and response.redirect_chain == []:
                    assert response["Content-Type"] == "application/pdf", link
    assert pages >= 10
    assert len(seen) >= (20 if who == "organizer" else 3)


def test_no_bracket_print_link_for_an_event_without_a_bracket(client: Client) -> None:
    owner = make_user("swiss_only")
    tournament = build_tournament(owner, teams=4, start=False, name="Swiss Only")
    stage_start(stage=stage_create(tournament=tournament, actor=Actor(owner), format="swiss", rounds=2),
                actor=Actor(owner), random_seed=1)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert reverse("print-standings-pdf", args=[tournament.pk]) in page
    assert reverse("print-bracket-pdf", args=[tournament.pk]) not in page
    elimination = build_tournament(owner, teams=4, name="Knockout")
    assert reverse("print-bracket-pdf", args=[elimination.pk]) in client.get(
        reverse("tournament-detail", args=[elimination.pk])).content.decode()


def test_the_standings_pdf_gives_every_entry_a_place(client: Client, settings: Any) -> None:
    settings.PDF_ANON_MAX_AGE = 0  # a visitor would otherwise get the render of a minute ago
    owner = make_user("places")
    tournament = build_tournament(owner, teams=8, third_place=False, name="Eight Cup")
    for m in Match.objects.filter(stage__tournament=tournament, round__number=1, status=Match.Status.READY):
        win(m, 0, Actor(owner))
    text = pdf_text(client.get(reverse("print-standings-pdf", args=[tournament.pk])).content)
    rows = [line for line in text.splitlines() if "Team" in line and "队" in line]
    assert len(rows) == 8
    places = [line.split()[3] for line in rows]  # rank, name (队n Teamn), place, …
    assert places.count("1–4") == 4 and places.count("5") == 4, rows  # the quarter-final losers share 5th
    while ready := list(Match.objects.filter(stage__tournament=tournament, status=Match.Status.READY)):
        for m in ready:
            win(m, 0, Actor(owner))
    text = pdf_text(client.get(reverse("print-standings-pdf", args=[tournament.pk])).content)
    places = sorted(line.split()[3] for line in text.splitlines() if "Team" in line and "队" in line)
    assert places == ["1", "2", "3", "3", "5", "5", "5", "5"], text


def test_a_knockout_before_its_draw_prints_who_has_qualified_so_far(client: Client) -> None:
    owner = make_user("qualifier")
    actor = Actor(owner)
    tournament = build_tournament(owner, teams=4, start=False, name="Qualifier Cup")
    swiss = stage_create(tournament=tournament, actor=actor, format="swiss", rounds=2, qualifiers=2)
    knockout = stage_create(tournament=tournament, actor=actor, format="single_elimination", source_stage=swiss)
    stage_start(stage=swiss, actor=actor, random_seed=1)
    for m in Match.objects.filter(stage=swiss, status=Match.Status.READY):
        win(m, 0, actor)
    url = reverse("print-bracket-pdf", args=[tournament.pk]) + f"?stage={knockout.pk}"
    response = client.get(url)
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "The bracket is not drawn yet." in text and "Qualified so far (after 1 round)" in text
    winners = [m.entry0.name for m in Match.objects.filter(stage=swiss, round__number=1, section="swiss")]
    for name in winners:
        assert name.split()[-1] in text
    swiss_next_round(stage=swiss, actor=actor)
    assert knockout.status == Stage.Status.PENDING


def test_pdf_file_names_say_the_tournament_and_the_document(client: Client) -> None:
    owner = make_user("names")
    tournament = build_tournament(owner, teams=4, name="Demo Open 2026")
    response = client.get(reverse("print-standings-pdf", args=[tournament.pk]))
    assert response["Content-Disposition"] == 'inline; filename="demo-open-2026-standings.pdf"'
    chinese = build_tournament(owner, teams=4, name="春季公开赛")
    header = client.get(reverse("print-standings-pdf", args=[chinese.pk]))["Content-Disposition"]
    assert f'filename="tournament-{chinese.pk}-standings.pdf"' in header
    assert "filename*=UTF-8''%E6%98%A5%E5%AD%A3%E5%85%AC%E5%BC%80%E8%B5%9B-standings.pdf" in header
    assert file_names(chinese, "bracket", "round 2") == (f"tournament-{chinese.pk}-bracket-round-2.pdf",
                                                         "春季公开赛-bracket-round-2.pdf")
