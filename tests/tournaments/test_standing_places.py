"""Every entry has a place in the API too (issue 29): ``place`` and ``place_range`` of the standings
endpoints are the places the printed standings show (one function: ``StandingRow.standing_place``), and
the standings page's place badges agree — eliminations of 4 with and without a third-place match, 8
teams mid-way, a Swiss stage."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import make_tournament, win_match
from tournaments.models import Match, Stage, Tournament
from tournaments.services import Actor
from tournaments.services.stages import stage_create, stage_start

pytestmark = pytest.mark.django_db

ROW = re.compile(r"<tr[^>]*>\s*<td class=\"num\">(\d+)</td><td class=\"name\">(.*?)</td>(.*?)</tr>", re.S)
CELL = re.compile(r"<td class=\"num\">(.*?)</td>", re.S)
PAGE_ROW = re.compile(r"<tr[^>]*data-entry=\"(\d+)\"[^>]*>(.*?)</tr>", re.S)


def api_rows(tournament: Tournament) -> list[dict[str, Any]]:
    rows = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    stage = tournament.stages.order_by("-number").first()
    assert stage is not None
    table = APIClient().get(f"/api/v1/stages/{stage.pk}/standings/").json()
    by_stage = {row["entry"]: (row["place"], row["place_range"]) for row in table["rows"]}
    assert by_stage == {row["entry"]: (row["place"], row["place_range"]) for row in rows}
    return rows


def printed(client: Client, tournament: Tournament) -> dict[str, tuple[str, list[str]]]:
    """Name → (rank, cells) of the printed standings (the print page: the PDF's HTML)."""
    html = client.get(reverse("print-standings", args=[tournament.pk])).content.decode()
    return {unescape(name).strip(): (rank, [unescape(c).strip() for c in CELL.findall(cells)])
            for rank, name, cells in ROW.findall(html)}


def page_badges(client: Client, tournament: Tournament) -> dict[int, str]:
    """Entry → the decided place the standings page shows beside its name ("place 3")."""
    html = client.get(reverse("tournament-standings", args=[tournament.pk])).content.decode()
    out = {}
    for entry, cells in PAGE_ROW.findall(html):
        badge = re.search(r'class="place place-(\d+)"', cells)
        if badge:
            out[int(entry)] = badge.group(1)
    return out


def places(tournament: Tournament, client: Client) -> dict[str, tuple[str | None, str | None]]:
    """Name → (place, place_range) from the API, checked against the printed standings and the page."""
    rows = api_rows(tournament)
    paper = printed(client, tournament)
    badges = page_badges(client, tournament)
    assert len(paper) == len(rows)
    elimination = "alive" in rows[0]
    for row in rows:
        rank, cells = paper[row["name"]]
        assert (row["place"] is None) != (row["place_range"] is None), row  # exactly one of the two
        assert int(rank) == row["rank"]
        shown = cells[0] if elimination else rank  # the place column; else the rank, shared on a tie
        assert (row["place"] or row["place_range"]) == shown, (row, cells)
        if row["entry"] in badges:
            assert badges[row["entry"]] == row["place"], row
    return {row["name"]: (row["place"], row["place_range"]) for row in rows}


def ready(tournament: Tournament, section: str | None = None) -> list[Match]:
    matches = Match.objects.filter(stage__tournament=tournament, status=Match.Status.READY).order_by("position")
    return list(matches.filter(section=section) if section else matches)


def values(table: dict[str, tuple[str | None, str | None]]) -> list[tuple[str | None, str | None]]:
    return sorted(table.values(), key=lambda v: (v[0] or "0", v[1] or ""))


def test_four_without_a_third_place_match(client: Client) -> None:
    t = make_tournament(teams=4)
    actor = Actor(t.owner)
    assert values(places(t, client)) == [(None, "1–4")] * 4
    semis = ready(t)
    assert len(semis) == 2
    for m in semis:
        win_match(m, 0, actor)
    table = places(t, client)
    assert values(table) == [(None, "1–2"), (None, "1–2"), ("3", None), ("3", None)]
    win_match(ready(t)[0], 1, actor)
    assert values(places(t, client)) == [("1", None), ("2", None), ("3", None), ("3", None)]


def test_four_with_a_third_place_match(client: Client) -> None:
    t = make_tournament(teams=4, third_place=True)
    actor = Actor(t.owner)
    for m in ready(t):
        win_match(m, 0, actor)
    # the semi-final losers still play for 3rd: a range, not a shared 3rd place
    assert values(places(t, client)) == [(None, "1–2"), (None, "1–2"), (None, "3–4"), (None, "3–4")]
    win_match(ready(t, "third_place")[0], 0, actor)
    assert values(places(t, client)) == [(None, "1–2"), (None, "1–2"), ("3", None), ("4", None)]
    win_match(ready(t, "main")[0], 0, actor)
    table = places(t, client)
    assert values(table) == [("1", None), ("2", None), ("3", None), ("4", None)]
    assert sorted(page_badges(client, t).values()) == ["1", "2", "3", "4"]


def test_eight_teams_midway(client: Client) -> None:
    t = make_tournament(teams=8)
    actor = Actor(t.owner)
    for m in ready(t):
        win_match(m, 0, actor)
    assert values(places(t, client)) == [(None, "1–4")] * 4 + [("5", None)] * 4  # quarter-final losers share 5th
    for m in ready(t):
        win_match(m, 1, actor)
    assert values(places(t, client)) == [(None, "1–2")] * 2 + [("3", None)] * 2 + [("5", None)] * 4
    win_match(ready(t)[0], 0, actor)
    assert values(places(t, client)) == [("1", None), ("2", None)] + [("3", None)] * 2 + [("5", None)] * 4


def test_swiss_rows_have_their_rank_as_place(client: Client) -> None:
    t = make_tournament(teams=6, start=False)
    actor = Actor(t.owner)
    stage = stage_start(stage=stage_create(tournament=t, actor=actor, format=Stage.Format.SWISS, rounds=3),
                        actor=actor, random_seed=3)
    assert stage.status == Stage.Status.RUNNING
    for m in ready(t):
        win_match(m, 0, actor)
    table = places(t, client)
    assert all(rng is None and place is not None and place.isdigit() for place, rng in table.values())
    rows = api_rows(t)
    assert [row["place"] for row in rows] == [str(row["rank"]) for row in rows]
    assert len({row["place"] for row in rows}) < len(rows)  # three winners, three losers: shared places
    assert all(row["shared"] == ([r["rank"] for r in rows].count(row["rank"]) > 1) for row in rows)
