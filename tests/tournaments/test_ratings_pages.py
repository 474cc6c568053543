"""What people see of the ratings (issue 33, docs/ratings.md): the ladder of the site and of a club
(sortable, ranks, ratings, matches, trend, CSV with neutralised cells), a player's page (the history as a
server-rendered SVG chart, recent matches, partners), the API, seeding by rating and the standings PDF
with ratings; players marked private stay off all of it. Both languages."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import PlayerFactory, TeamFactory, UserFactory, make_tournament, win_match
from tests.tournaments.test_documents import pdf_text
from tournaments import documents as docs
from tournaments.formats.ratings import DISPLAY_BASE
from tournaments.models import Club, Entry, Match, Player, PlayerRating, Tournament
from tournaments.selectors.ratings import rating_chart
from tournaments.services import Actor
from tournaments.services.ratings import ratings_rebuild
from tournaments.services.setup import entry_add, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db


def league(owner: Any, *, club: Club | None = None, weeks: int = 2) -> list[Tournament]:
    """``weeks`` tournaments of four teams; seed 1 wins every match it plays. Ratings computed from them."""
    out = []
    for week in range(weeks):
        t = make_tournament(owner=owner, teams=4, name=f"周赛 Week {week + 1}", club=club)
        for match in Match.objects.filter(stage__tournament=t, status="ready").order_by("position"):
            win_match(match, 0, Actor(owner))
        final = Match.objects.filter(stage__tournament=t, status="ready").first()
        if final is not None:
            win_match(final, 0, Actor(owner))
        out.append(t)
    ratings_rebuild()  # plain `db` tests do not run the after-commit hook: compute as it would have
    return out


def ladder_rows(html: str) -> list[list[str]]:
    body = html.split('id="ladder"', 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S) if "<td" in row]


def test_the_site_ladder_ranks_players_by_displayed_rating_and_sorts_by_any_column(client: Client) -> None:
    league(UserFactory())
    html = client.get("/ratings/").content.decode()
    rows = ladder_rows(html)
    ratings = {r.player.name: r for r in PlayerRating.objects.filter(pool__club__isnull=True).select_related("player")}
    assert len(rows) == len(ratings) == 16  # two weeks of four new teams
    shown = [int(row[2]) for row in rows]
    assert shown == sorted(shown, reverse=True) and rows[0][0] == "1"
    for _rank, name, rating, matches, _trend in rows:
        stored = next(r for n, r in ratings.items() if name.startswith(n))  # the cell: name, then club
        assert (stored.display, stored.matches) == (int(rating), int(matches))
    by_matches = [int(row[3]) for row in ladder_rows(client.get("/ratings/?sort=matches").content.decode())]
    assert by_matches == sorted(by_matches, reverse=True) and max(by_matches) == 2  # the finalists
    names = [row[1] for row in ladder_rows(client.get("/ratings/?sort=name").content.decode())]
    assert names == sorted(names)
    turned = client.get("/ratings/?sort=name&reverse=1").content.decode()
    assert [row[1] for row in ladder_rows(turned)] == names[::-1] and 'aria-sort="descending"' in turned


def test_a_club_ladder_counts_only_its_tournaments(client: Client) -> None:
    club = Club.objects.create(name="上海升级社")
    owner = UserFactory()
    league(owner, weeks=1)
    league(owner, club=club, weeks=1)
    site = ladder_rows(client.get("/ratings/").content.decode())
    mine = ladder_rows(client.get(f"/ratings/clubs/{club.pk}/").content.decode())
    assert len(site) == 16 and len(mine) == 8
    assert client.get(f"/ratings/?club={club.pk}&family=partnership").url == f"/ratings/clubs/{club.pk}/?family=partnership"
    Club.objects.filter(pk=club.pk).update(is_public=False)
    assert client.get(f"/ratings/clubs/{club.pk}/").status_code == 404


def test_the_ladder_speaks_chinese(client: Client) -> None:
    league(UserFactory(), weeks=1)
    html = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "等级分" in html and "排名" in html and "走势" in html and "拖拉机与炒地皮" in html
    with translation.override("en"):
        english = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Trend" in english and "Ratings" in english


def test_a_players_page_draws_the_history_and_lists_matches_and_partners(client: Client) -> None:
    league(UserFactory())
    best = PlayerRating.objects.filter(pool__club__isnull=True).order_by("-display").select_related("player").first()
    assert best is not None
    html = client.get(f"/ratings/players/{best.player_id}/").content.decode()
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'viewBox="0 0 420 240"' in svg and svg.count("<circle") == best.matches + 1  # the start and each match
    assert re.search(r'<path class="line" d="M[\d.]+,[\d.]+( L[\d.]+,[\d.]+){' + str(best.matches) + '}"', svg)
    assert html.count("周赛 Week") >= best.matches and 'id="partners"' in html
    assert str(best.display) in html


def test_the_chart_scales_the_history_into_its_box() -> None:
    class Row:
        def __init__(self, value: int, day: int) -> None:
            import datetime as dt

            self.display_after = value
            self.played_at = dt.datetime(2026, 3, day, tzinfo=dt.UTC)

    chart = rating_chart([Row(1600, 1), Row(1550, 2), Row(1700, 3)], initial=DISPLAY_BASE)  # type: ignore[list-item]
    assert chart is not None and len(chart.points) == 4
    ys = [y for _x, y, _v in chart.points]
    assert min(ys) >= 12 and max(ys) <= chart.bottom  # inside the plot
    assert ys[3] == min(ys) and ys[0] == max(ys)  # 1700 highest, 1500 lowest
    assert [label for _x, label in chart.x_labels] == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert rating_chart([], initial=1500) is None


def test_private_players_stay_off_public_pages_the_api_and_the_csv(client: Client) -> None:
    league(UserFactory(), weeks=1)
    hidden = Player.objects.filter(ratings__isnull=False).order_by("pk").first()
    assert hidden is not None
    Player.objects.filter(pk=hidden.pk).update(is_private=True)
    assert hidden.name not in client.get("/ratings/").content.decode()
    assert client.get(f"/ratings/players/{hidden.pk}/").status_code == 404
    assert hidden.name not in client.get("/players/").content.decode()
    assert hidden.name not in client.get("/ratings/csv/").content.decode("utf-8-sig")
    assert client.get(f"/api/v1/ratings/players/{hidden.pk}/").status_code == 404
    assert hidden.pk not in [r["player"]["id"] for r in client.get("/api/v1/ratings/").json()["results"]]
    staff = Client()
    staff.force_login(UserFactory(username="staffer", is_staff=True))
    assert hidden.name in staff.get("/ratings/").content.decode()


def test_the_csv_export_neutralises_formula_cells(client: Client) -> None:
    league(UserFactory(), weeks=1)
    sneaky = Player.objects.filter(ratings__isnull=False).order_by("pk").first()
    assert sneaky is not None
    Player.objects.filter(pk=sneaky.pk).update(name="=HYPERLINK(\"http://x\")", club="@SUM(1)")
    response = client.get("/ratings/csv/?family=partnership")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["Rank", "Player", "Club", "Rating", "Matches", "Trend"]
    row = next(r for r in rows[1:] if "HYPERLINK" in r[1])
    assert row[1].startswith("'=") and row[2].startswith("'@")
    assert len(rows) == 1 + PlayerRating.objects.filter(pool__club__isnull=True).count()


def test_the_api_gives_the_ladder_by_club_and_family_and_a_players_history(client: Client) -> None:
    club = Club.objects.create(name="Paris Tractor Club")
    league(UserFactory(), club=club, weeks=1)
    site = client.get("/api/v1/ratings/").json()
    assert site["count"] == 8 and [r["rank"] for r in site["results"]][:1] == [1]
    assert site["results"][0]["rating"] >= site["results"][-1]["rating"]
    assert client.get(f"/api/v1/ratings/?club={club.pk}").json()["count"] == 8
    assert client.get("/api/v1/ratings/?family=red-five").json()["count"] == 0
    bad = client.get("/api/v1/ratings/?family=poker")
    assert bad.status_code == 400 and "family" in bad.json()["errors"]
    top = site["results"][0]
    history = client.get(f"/api/v1/ratings/players/{top['player']['id']}/?club={club.pk}").json()
    assert history["rating"]["rating"] == top["rating"] and history["club"] == club.pk
    assert len(history["history"]) == top["matches"]
    assert history["history"][0]["rating_before"] == DISPLAY_BASE
    assert history["history"][-1]["rating_after"] == top["rating"]
    assert all(row["match"] is not None for row in history["history"])


def test_the_api_ladder_filters_by_club(client: Client) -> None:
    """``?club=<id>`` gives that club's ladder only (its tournaments' players, rated with its options),
    not the site's; a value that is not a club id, an unknown club or one whose ladder is not public (to
    a visitor) is a 400 naming ``club``; staff see a hidden club's ladder."""
    paris = Club.objects.create(name="Paris Tractor Club", rating_sigma=6.0)
    lyon = Club.objects.create(name="Lyon Tractor Club", is_public=False)
    owner = UserFactory()
    for club in (paris, lyon, None):
        league(owner, club=club, weeks=1)

    def ladder(query: str, who: Client = client) -> dict[int, int]:
        body = who.get(f"/api/v1/ratings/{query}").json()
        assert body["count"] == len(body["results"]), body
        return {row["player"]["id"]: row["rating"] for row in body["results"]}

    def players(club: Club | None) -> set[int]:
        rows = PlayerRating.objects.filter(pool__family="partnership")
        rows = rows.filter(pool__club=club) if club else rows.filter(pool__club__isnull=True)
        return set(rows.values_list("player_id", flat=True))

    site, in_paris = ladder(""), ladder(f"?club={paris.pk}")
    assert len(site) == 24 and set(site) == players(None)
    assert len(in_paris) == 8 and set(in_paris) == players(paris) < set(site)
    assert in_paris != {p: site[p] for p in in_paris}  # the club's own options (σ₀ = 6): its own figures
    assert ladder(f"?club={paris.pk}&family=red-five") == {}
    for bad in ("abc", "-1", "1.5", "²", str(lyon.pk), "999999999", str(2**63)):
        answer = client.get("/api/v1/ratings/", {"club": bad})
        assert answer.status_code == 400 and "club" in answer.json()["errors"], (bad, answer.content)
        assert answer.json()["detail"], answer.content  # every 4xx says why (tests/proof/test_fuzz_api.py)
        history = client.get(f"/api/v1/ratings/players/{next(iter(in_paris))}/", {"club": bad})
        assert history.status_code == 400 and "club" in history.json()["errors"], (bad, history.content)
    for odd in ("²", "٣", str(2**63)):  # digits that are not ASCII, an id too big: no such player, not a 500
        assert client.get(f"/api/v1/ratings/players/{odd}/").status_code == 404
    chinese = client.get("/api/v1/ratings/?club=x", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["errors"]["club"]
    assert "俱乐部" in str(chinese)
    staff = Client()
    staff.force_login(UserFactory(username="ladder-staff", is_staff=True))
    assert set(ladder(f"?club={lyon.pk}", staff)) == players(lyon)
    assert not set(ladder(f"?club={lyon.pk}", staff)) & set(in_paris)


def test_seeding_by_rating_uses_the_ratings_and_the_hand_typed_value_for_the_unrated(organizer: Any) -> None:
    """The champions of two weeks, entered again under new team names, are seeded above a team whose
    hand-typed rating is higher; an unrated team keeps its hand-typed rating."""
    weeks = league(organizer)
    champion = Entry.objects.get(tournament=weeks[0], seed=1).team
    assert champion is not None
    rated = PlayerRating.objects.get(pool__club__isnull=True, player=champion.player1)
    t = tournament_create(owner=organizer, name="Seeded", variant="tractor")
    again = TeamFactory(player1=champion.player1, player2=champion.player2, rating=1000)
    newcomers = [TeamFactory(player1=PlayerFactory(rating=None), player2=PlayerFactory(rating=None), rating=r)
                 for r in (rated.display - 10, rated.display - 20, 1200)]
    for team in [*newcomers, again]:
        entry_add(tournament=t, actor=Actor(organizer), team=team)
    tournament_start(tournament=t, actor=Actor(organizer), seeding="rating")
    seeds = dict(Entry.objects.filter(tournament=t).values_list("team_id", "seed"))
    assert seeds[again.pk] == 1  # its players' ratings, not its hand-typed 1000
    assert [seeds[team.pk] for team in newcomers] == [2, 3, 4]


def test_the_standings_pdf_can_show_ratings(organizer: Any) -> None:
    """The standings PDF, as printed from the tournament's page with ``?ratings=1``, has a Rating column
    (a team: its players' mean rating); without it, none."""
    t = league(organizer, weeks=1)[0]
    plain, _pages = docs.pdf_bytes(docs.StandingsDocument(tournament=t, stage=t.stages.get()))
    response = Client().get(reverse("print-standings-pdf", args=[t.pk]) + "?ratings=1")
    assert response.status_code == 200
    text = pdf_text(response.content)[0]
    assert "Rating" in text and "Rating" not in pdf_text(plain)[0]
    winner = Entry.objects.get(tournament=t, seed=1).team
    assert winner is not None
    both = PlayerRating.objects.filter(pool__club__isnull=True, player__in=[winner.player1, winner.player2])
    assert str(round(sum(r.display for r in both) / 2)) in text
