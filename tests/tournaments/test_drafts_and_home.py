"""Drafts are their organizers' alone (list, detail, standings, API: 404 or absent for everyone
else), and the home page leads to the tournaments a visitor may see (issue 15)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.selectors import tournaments_current, tournaments_visible
from tournaments.services import Actor
from tournaments.services.setup import staff_add, tournament_create

pytestmark = pytest.mark.django_db


def user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password="a long enough password")


@pytest.fixture
def cast() -> dict[str, Any]:
    owner, co, scorer, stranger = user("owner"), user("co"), user("scorer"), user("stranger")
    draft = tournament_create(owner=owner, name="草稿杯 Draft Cup")
    staff_add(tournament=draft, username="co", role="organizer", actor=Actor(owner))
    staff_add(tournament=draft, username="scorer", role="scorer", actor=Actor(owner))
    running = tournament_create(owner=owner, name="进行中 Running Open")
    Tournament.objects.filter(pk=running.pk).update(status=Tournament.Status.RUNNING)
    finished = tournament_create(owner=owner, name="已结束 Finished Cup")
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    hidden = tournament_create(owner=owner, name="私密 Private Night", is_public=False)
    Tournament.objects.filter(pk=hidden.pk).update(status=Tournament.Status.RUNNING)
    return {"owner": owner, "co": co, "scorer": scorer, "stranger": stranger, "draft": draft,
            "running": running, "finished": finished, "hidden": hidden}


def client_for(u: Any) -> Client:
    c = Client()
    if u is not None:
        c.force_login(u)
    return c


PAGES = ["tournament-detail", "tournament-standings", "tournament-bracket", "tournament-tables"]


@pytest.mark.parametrize("who", [None, "stranger"])
def test_a_draft_is_not_public(cast: dict[str, Any], who: str | None) -> None:
    c = client_for(cast[who] if who else None)
    draft = cast["draft"]
    listing = c.get(reverse("tournament-list")).content.decode()
    assert "Draft Cup" not in listing and "Running Open" in listing
    for name in PAGES:
        assert c.get(reverse(name, args=[draft.pk])).status_code == 404, name
    assert c.get(f"/api/v1/tournaments/{draft.pk}/").status_code == 404
    api = c.get("/api/v1/tournaments/").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert draft.pk not in {row["id"] for row in rows}
    assert "Draft Cup" not in c.get(reverse("home")).content.decode()


@pytest.mark.parametrize("who", ["owner", "co", "scorer"])
def test_its_own_staff_see_a_draft(cast: dict[str, Any], who: str) -> None:
    c = client_for(cast[who])
    draft = cast["draft"]
    assert "Draft Cup" in c.get(reverse("tournament-list")).content.decode()
    for name in PAGES:
        assert c.get(reverse(name, args=[draft.pk])).status_code == 200, name
    assert c.get(f"/api/v1/tournaments/{draft.pk}/").status_code == 200


def test_private_tournaments_stay_visible_to_their_scorers_once_past_draft(cast: dict[str, Any]) -> None:
    hidden = cast["hidden"]
    staff_add(tournament=hidden, username="scorer", role="scorer", actor=Actor(cast["owner"]))
    assert hidden in tournaments_visible(cast["scorer"])
    assert hidden not in tournaments_visible(cast["stranger"])
    assert cast["draft"] in tournaments_visible(cast["scorer"])  # its own scorer, invited before the start
    assert cast["draft"] not in tournaments_visible(cast["stranger"])


def test_the_home_page_leads_to_the_current_tournaments(cast: dict[str, Any]) -> None:
    html = Client().get(reverse("home")).content.decode()
    running_link = reverse("tournament-detail", args=[cast["running"].pk])
    finished_link = reverse("tournament-detail", args=[cast["finished"].pk])
    assert f'href="{running_link}"' in html and f'href="{finished_link}"' in html
    assert html.index("Running Open") < html.index("Finished Cup")  # running first
    assert "Private Night" not in html and "Draft Cup" not in html
    assert f'href="{reverse("tournament-list")}"' in html
    assert [t.name for t in tournaments_current(None)] == ["进行中 Running Open", "已结束 Finished Cup"]


def test_the_home_page_says_when_nothing_runs(db: Any) -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("home")).content.decode()
    assert "现在没有进行中的赛事" in html


def test_the_home_page_shows_a_newcomer_how_to_start(db: Any, django_user_model: Any) -> None:
    """Log in and "new tournament" are on the home page itself, not only in the menu or the list."""
    html = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("home")).content.decode()
    create = reverse("tournament-create")
    assert f'id="home-new-tournament" href="{create}"' in html and "新建赛事" in html
    assert f'id="home-log-in" href="{reverse("login")}?next={create}"' in html
    client = Client()
    client.force_login(django_user_model.objects.create_user("club-organizer", password="x-12345678"))
    signed_in = client.get(reverse("home")).content.decode()
    assert 'id="home-new-tournament"' in signed_in and 'id="home-log-in"' not in signed_in
