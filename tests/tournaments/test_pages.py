"""The tournament pages: every page loads in both languages against a finished tournament built through
the services; organizer/scorer pages check roles; the scoring page records, previews, refuses bad
figures and stale versions, undoes and corrects."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, HandRecord, Match, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import entry_add, player_create, staff_add, team_create, tournament_create
from tournaments.services.stages import tournament_start

pytestmark = pytest.mark.django_db

# The dealer side shuts the attackers out: +3 for the dealer side (2 → 5 → 8 → J → past J: 4 hands win).
SHUTOUT = {"attackers_points": 0, "kitty_points": 0, "last_trick": {"winner": "dealer", "largest": 1}}
PASSWORD = "a long enough password"


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username, password=PASSWORD)


def build_tournament(owner: Any, *, teams: int = 4, name: str = "春季杯 Spring Cup", is_public: bool = True,
                     third_place: bool = True, start: bool = True) -> Tournament:
    """A tractor elimination built only through the services: players, teams, entries, start."""
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name=name, variant="tractor", venue="棋牌室 Club room",
                                   starts_on=dt.date(2026, 4, 1), ends_on=dt.date(2026, 4, 2), is_public=is_public)
    for i in range(1, teams + 1):
        p1 = player_create(name=f"王{i} Wang{i}", club="东城", actor=actor)
        p2 = player_create(name=f"李{i} Li{i}", club="东城", actor=actor)
        team = team_create(name=f"队{i} Team{i}", player1=p1, player2=p2, rating=2000 - i, actor=actor)
        entry_add(tournament=tournament, team=team, seed=i, actor=actor)
    if start:
        tournament_start(tournament=tournament, actor=actor, seeding="manual", third_place=third_place)
    tournament.refresh_from_db()
    return tournament


def win(match: Match, side: int, actor: Actor) -> None:
    """``side`` deals first and shuts the attackers out four times: it passes J and wins."""
    for index in range(4):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                    dealer=side if index == 0 else None, trump="S")


def play_out(tournament: Tournament, actor: Actor) -> None:
    """Play every match (side 0 wins) until the tournament is finished."""
    while True:
        ready = list(Match.objects.filter(stage__tournament=tournament, status=Match.Status.READY))
        if not ready:
            break
        for match in ready:
            win(match, 0, actor)
    tournament.refresh_from_db()


@pytest.fixture
def owner() -> Any:
    return make_user("club_owner")


@pytest.fixture
def finished(owner: Any) -> Tournament:
    tournament = build_tournament(owner)
    play_out(tournament, Actor(owner))
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


@pytest.fixture
def running(owner: Any) -> Tournament:
    return build_tournament(owner, name="夏季杯 Summer Cup")


def login(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def final_of(tournament: Tournament) -> Match:
    return Match.objects.get(stage__tournament=tournament, next_match=None, round__number=2, key__startswith="R")


def first_match(tournament: Tournament) -> Match:
    return Match.objects.filter(stage__tournament=tournament, status=Match.Status.READY).order_by("table").first()


# --------------------------------------------------------------------------- every page loads

PUBLIC = ["tournament-list", "tournament-detail", "tournament-bracket", "tournament-tables", "tournament-standings",
          "match-detail"]
ORGANIZER = ["tournament-create", "tournament-manage", "match-score", "table-link"]


def page_url(name: str, tournament: Tournament) -> str:
    match = final_of(tournament)
    if name in ("tournament-list", "tournament-create"):
        return reverse(name)
    if name in ("match-detail", "match-score"):
        return reverse(name, args=[match.pk])
    if name == "table-link":
        return reverse(name, args=[match.scorer_token])
    return reverse(name, args=[tournament.pk])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("name", PUBLIC + ORGANIZER)
def test_every_page_loads_in_both_languages(client: Client, finished: Tournament, owner: Any, name: str,
                                            language: str) -> None:
    """Against a finished 4-team tournament with a third-place match, every page answers 200."""
    if name in ORGANIZER:
        login(client, owner)
    client.cookies["django_language"] = language
    response = client.get(page_url(name, finished), follow=name == "table-link")  # the link → /table/<id>/
    assert response.status_code == 200, name
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    if name != "tournament-create":
        assert "Spring Cup" in html


def test_home_shows_details_places_and_manage_link_for_organizers(client: Client, finished: Tournament,
                                                                   owner: Any) -> None:
    html = client.get(reverse("tournament-detail", args=[finished.pk])).content.decode()
    assert "棋牌室 Club room" in html and "2026-04-01" in html and "Tractor" in html
    assert "队1 Team1" in html  # the champion in the final places
    assert reverse("tournament-manage", args=[finished.pk]) not in html
    html = login(client, owner).get(reverse("tournament-detail", args=[finished.pk])).content.decode()
    assert reverse("tournament-manage", args=[finished.pk]) in html


def test_bracket_draws_rounds_and_highlights_winners(client: Client, finished: Tournament) -> None:
    html = client.get(reverse("tournament-bracket", args=[finished.pk])).content.decode()
    for label in ("Semi-final", "Final", "Third-place match"):
        assert label.lower() in html.lower(), label
    assert html.count('class="bm-slot won"') == 4  # two semis, the final, the third-place match
    final = final_of(finished)
    assert f'id="bm-{final.key}"' in html


def test_standings_refresh_themselves_with_an_htmx_partial(client: Client, finished: Tournament) -> None:
    url = reverse("tournament-standings", args=[finished.pk])
    html = client.get(url).content.decode()
    assert 'hx-trigger="tournament-changed from:body, every 60s"' in html and f'hx-get="{url}"' in html
    response = client.get(url, headers={"HX-Request": "true"})
    partial = response.content.decode()
    assert "<html" not in partial and "队1 Team1" in partial
    assert response.status_code == 286  # the tournament is over: htmx stops polling
    assert partial.index("队1 Team1") < partial.index("队2 Team2") < partial.index("队4 Team4")


def test_match_page_shows_seats_and_hand_history(client: Client, finished: Tournament) -> None:
    final = final_of(finished)
    html = client.get(reverse("match-detail", args=[final.pk])).content.decode()
    assert "王1 Wang1" in html and "李1 Li1" in html
    assert html.count('id="hand-') == 4
    assert "J" in html and "club_owner" in html
    partial = client.get(reverse("match-detail", args=[final.pk]), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in partial and 'id="hand-4"' in partial


def test_live_partials_keep_polling_while_play_goes_on(client: Client, running: Tournament) -> None:
    match = first_match(running)
    for url in (reverse("tournament-standings", args=[running.pk]), reverse("tournament-bracket", args=[running.pk]),
                reverse("match-detail", args=[match.pk]), reverse("tournament-tables", args=[running.pk])):
        response = client.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 200 and "<html" not in response.content.decode(), url


def test_the_nav_links_to_the_tournaments(client: Client, finished: Tournament) -> None:
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("tournament-list")}"' in html


def test_the_score_page_asks_for_throw_penalties_only_when_the_option_is_on(client: Client, owner: Any) -> None:
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name="Throw Cup", variant="tractor", options={"throw_penalties": True})
    for i in (1, 2):
        team = team_create(name=f"T{i}", player1=player_create(name=f"A{i}", actor=actor),
                           player2=player_create(name=f"B{i}", actor=actor), actor=actor)
        entry_add(tournament=tournament, team=team, seed=i, actor=actor)
    tournament_start(tournament=tournament, actor=actor)
    match = first_match(tournament)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    assert 'name="throw_penalties"' in client.get(url).content.decode()
    client.post(url, hand_post(match.version, attackers_points=70, throw_penalties=10))
    hand = HandRecord.objects.get(match=match)
    assert hand.outcome["throw_penalties"] == 10 and hand.result["attackers_total"] == 80
    running_match = first_match(build_tournament(owner, name="Plain Cup"))
    assert 'name="throw_penalties"' not in client.get(reverse("match-score", args=[running_match.pk])).content.decode()


def test_tables_page_lists_tables_with_next_dealer(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    win_actor = Actor(owner)
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=win_actor, dealer=1)
    html = client.get(reverse("tournament-tables", args=[running.pk])).content.decode()
    assert "Table 1" in html and "Table 2" in html
    assert "seat 4 (李" in html  # seat 2 (0-based 1) dealt and kept the deal: the partner (seat 4) deals next
    assert reverse("match-score", args=[match.pk]) not in html  # the public does not get score links


# --------------------------------------------------------------------------- permissions

@pytest.mark.parametrize("name", ["tournament-create", "tournament-manage", "match-score"])
def test_anonymous_visitors_are_sent_to_log_in(client: Client, running: Tournament, name: str) -> None:
    url = page_url(name, running) if name != "match-score" else reverse(name, args=[first_match(running).pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", ["tournament-manage", "match-score"])
def test_other_users_are_refused(client: Client, running: Tournament, name: str) -> None:
    login(client, make_user("stranger"))
    url = reverse(name, args=[running.pk if name == "tournament-manage" else first_match(running).pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "undo", "version": 1}).status_code == 403


def test_a_scorer_of_another_tournament_cannot_score_here(client: Client, running: Tournament, owner: Any) -> None:
    other = build_tournament(owner, name="Other Cup", teams=2)
    scorer = make_user("scorer_elsewhere")
    staff_add(tournament=other, username="scorer_elsewhere", role="scorer", actor=Actor(owner))
    login(client, scorer)
    assert client.get(reverse("match-score", args=[first_match(other).pk])).status_code == 200
    assert client.get(reverse("match-score", args=[first_match(running).pk])).status_code == 403
    assert client.get(reverse("tournament-manage", args=[other.pk])).status_code == 403


def test_a_private_tournament_is_hidden_from_the_public(client: Client, owner: Any) -> None:
    private = build_tournament(owner, name="Private Cup", is_public=False)
    match = first_match(private)
    urls = [reverse(n, args=[private.pk]) for n in
            ("tournament-detail", "tournament-bracket", "tournament-tables", "tournament-standings")]
    urls.append(reverse("match-detail", args=[match.pk]))
    assert "Private Cup" not in client.get(reverse("tournament-list")).content.decode()
    for url in urls:
        assert client.get(url).status_code == 404, url
    login(client, make_user("nosy"))
    for url in urls:
        assert client.get(url).status_code == 404, url
    staff_add(tournament=private, username="nosy", role="scorer", actor=Actor(owner))
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert "Private Cup" in client.get(reverse("tournament-list")).content.decode()


def test_a_wrong_table_token_is_not_found(client: Client, running: Tournament) -> None:
    assert client.get(reverse("table-link", args=["not-the-token"])).status_code == 404
    assert client.post(reverse("table-link", args=["not-the-token"]), {"action": "record"}).status_code == 404


# --------------------------------------------------------------------------- scoring at the table

def hand_post(version: int, **overrides: Any) -> dict[str, Any]:
    data = {"action": "record", "version": version, "dealer": 0, "trump": "H", "attackers_points": 0,
            "kitty_points": 0, "last_trick_winner": "dealer", "last_trick_largest": 1}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_a_scorer_records_a_hand_in_one_post(client: Client, running: Tournament, owner: Any) -> None:
    scorer = make_user("table_scorer")
    staff_add(tournament=running, username="table_scorer", role="scorer", actor=Actor(owner))
    match = first_match(running)
    url = reverse("match-score", args=[match.pk])
    login(client, scorer)
    page = client.get(url).content.decode()
    assert 'name="version"' in page and 'inputmode="numeric"' in page and "hx-post" in page
    response = client.post(url, hand_post(match.version))
    assert response.status_code == 302 and response["Location"] == url
    hand = HandRecord.objects.get(match=match)
    assert (hand.number, hand.dealer, hand.trump, hand.entered_by, hand.entered_via) == (1, 0, "H", scorer, "login")
    match.refresh_from_db()
    assert match.state["levels"] == ["5", "2"] and match.state["dealer"] == 2
    html = client.get(url).content.decode()
    assert "Hand 1 saved." in html and "Hand 2" in html
    assert 'name="dealer"' not in html  # only the first hand asks who deals


def test_the_table_link_records_hands_for_its_table(client: Client, running: Tournament) -> None:
    match = first_match(running)
    url = reverse("table-link", args=[match.scorer_token])
    response = client.post(url, hand_post(match.version, dealer=1))
    assert response.status_code == 302
    hand = HandRecord.objects.get(match=match)
    assert hand.entered_via == "token" and hand.entered_by is None and hand.dealer == 1


def test_bad_figures_are_shown_next_to_their_fields(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    response = client.post(url, hand_post(match.version, attackers_points=7))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Points come in multiples of 5; 7 is not one." in html
    assert 'id="field-attackers_points"' in html and 'class="field stepper has-error"' in html
    response = client.post(url, hand_post(match.version, dealer=None))
    assert "This field is required." in response.content.decode()
    assert not HandRecord.objects.filter(match=match).exists()


def test_bad_figures_in_chinese(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    login(client, owner)
    client.cookies["django_language"] = "zh-hans"
    html = client.post(reverse("match-score", args=[match.pk]), hand_post(match.version, kitty_points=12)).content.decode()
    assert "分数必须是 5 的倍数" in html


def test_a_stale_version_says_someone_else_recorded_first(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    old_version = match.version
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=old_version, actor=Actor(owner), dealer=0)
    response = client.post(url, hand_post(old_version, dealer=None, attackers_points=40))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Someone else recorded a hand first." in html
    match.refresh_from_db()
    assert f'name="version" value="{match.version}"' in html  # the fresh state, ready to save again
    assert 'value="40"' in html  # the figures typed are kept
    assert HandRecord.objects.filter(match=match).count() == 1


def test_the_score_page_notices_when_someone_else_changed_the_match(client: Client, running: Tournament,
                                                                    owner: Any) -> None:
    match = first_match(running)
    client.get(reverse("table-link", args=[match.scorer_token]))  # the grant goes into the session
    url = reverse("table-session", args=[match.pk])
    html = client.get(url).content.decode()
    assert f'hx-get="{url}?seen={match.version}"' in html
    assert client.get(f"{url}?seen={match.version}", headers={"HX-Request": "true"}).status_code == 204
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=0)
    changed = client.get(f"{url}?seen={match.version}", headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "Someone else changed this match meanwhile." in changed.content.decode()


def test_the_preview_shows_the_result_without_saving(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    response = client.post(url, hand_post(match.version, action="preview"), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html and "If you save this hand" in html and "goes up 3" in html
    assert "Next: seat 3" in html  # 0-based seat 2, as players say it
    # Without JavaScript the preview button renders the whole page with the preview.
    html = client.post(url, hand_post(match.version, action="preview")).content.decode()
    assert "<html" in html and "If you save this hand" in html
    errors = client.post(url, hand_post(match.version, action="preview", attackers_points=205),
                         headers={"HX-Request": "true"}).content.decode()
    assert "Check the figures" in errors
    assert not HandRecord.objects.filter(match=match).exists()


def test_the_preview_announces_a_match_win(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    actor = Actor(owner)
    for index in range(3):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                    dealer=0 if index == 0 else None)
    match.refresh_from_db()
    login(client, owner)
    html = client.post(reverse("match-score", args=[match.pk]), hand_post(match.version, action="preview", dealer=None),
                       headers={"HX-Request": "true"}).content.decode()
    assert "wins the match" in html


def test_undo_removes_the_last_hand(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    client.post(url, hand_post(match.version))
    match.refresh_from_db()
    response = client.post(url, {"action": "undo", "version": match.version}, follow=True)
    assert "The last hand was undone." in response.content.decode()
    assert not HandRecord.objects.filter(match=match).exists()
    stale = client.post(url, {"action": "undo", "version": 1}, follow=True).content.decode()
    assert "There is no hand to undo." in stale or "Someone else" in stale


def test_correcting_an_earlier_hand_recomputes_the_match(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    actor = Actor(owner)
    for index in range(2):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                    dealer=0 if index == 0 else None)
    match.refresh_from_db()
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    html = client.get(url + "?hand=1").content.decode()
    assert "Correct hand 1" in html and 'name="c-attackers_points"' in html
    data = {"action": "correct", "c-number": 1, "c-version": match.version, "c-trump": "S", "c-attackers_points": 40,
            "c-kitty_points": 0, "c-last_trick_winner": "dealer", "c-last_trick_largest": 1}
    response = client.post(url, data, follow=True)
    assert "Hand 1 corrected" in response.content.decode()
    match.refresh_from_db()
    assert match.state["levels"] == ["6", "2"]  # +1 then +3
    bad = client.post(url, {**data, "c-version": match.version, "c-attackers_points": 3}).content.decode()
    assert "Points come in multiples of 5" in bad


def test_a_correction_that_would_change_a_played_on_result_is_refused_unless_forced(
        client: Client, running: Tournament, owner: Any) -> None:
    actor = Actor(owner)
    semi = Match.objects.get(stage__tournament=running, key="R1-M1")
    win(semi, 0, actor)
    win(Match.objects.get(stage__tournament=running, key="R1-M2"), 0, actor)
    final = final_of(running)
    hand_record(match_id=final.pk, outcome=SHUTOUT, version=final.version, actor=actor, dealer=0)
    semi.refresh_from_db()
    winner = semi.winner
    scorer = make_user("semi_scorer")
    staff_add(tournament=running, username="semi_scorer", role="scorer", actor=actor)
    # Hand 4 scored 120 instead: the attackers take over and the semi-final is not won any more.
    data = {"action": "correct", "c-number": 4, "c-version": semi.version, "c-trump": "S", "c-attackers_points": 120,
            "c-kitty_points": 0, "c-last_trick_winner": "dealer", "c-last_trick_largest": 1}
    url = reverse("match-score", args=[semi.pk])
    html = login(client, scorer).post(url, data).content.decode()
    assert 'id="refused"' in html and "An organizer can force it" in html
    assert 'name="c-force"' not in html
    client.logout()
    login(client, owner)
    assert 'name="c-force"' in client.get(url + "?hand=4").content.decode()
    response = client.post(url, {**data, "c-force": "on"}, follow=True)
    html = response.content.decode()
    assert "Forced correction" in html
    semi.refresh_from_db()
    assert semi.status == Match.Status.PLAYING and semi.winner_side is None
    final.refresh_from_db()
    assert winner.pk not in (final.entry0_id, final.entry1_id) and final.hands_played == 0


def test_a_finished_tournament_can_still_be_corrected_and_runs_again(client: Client, finished: Tournament,
                                                                     owner: Any) -> None:
    """Corrections stay possible after the last match; a changed result reopens the tournament."""
    semi = Match.objects.get(stage__tournament=finished, key="R1-M1")
    data = {"action": "correct", "c-number": 4, "c-version": semi.version, "c-trump": "S", "c-attackers_points": 120,
            "c-kitty_points": 0, "c-last_trick_winner": "dealer", "c-last_trick_largest": 1, "c-force": "on"}
    html = login(client, owner).post(reverse("match-score", args=[semi.pk]), data, follow=True).content.decode()
    assert "The tournament is not running." not in html
    finished.refresh_from_db()
    assert finished.status == Tournament.Status.RUNNING


# --------------------------------------------------------------------------- organizer pages

def test_create_a_tournament_and_see_field_errors(client: Client) -> None:
    user = make_user("new_organizer")
    login(client, user)
    url = reverse("tournament-create")
    base = {"name": "秋季杯 Autumn Cup", "variant": "tractor", "decks": 2, "players_per_table": 4, "is_public": "on"}
    form = client.get(url).content.decode()
    # the rule options are labelled fields with the variant's standard rules filled in, no JSON box
    assert 'name="options"' not in form and "JSON" not in form
    assert 'name="opt__tractor__throw_allowed"' in form and 'name="opt__chaodi__target_level"' in form
    shown = {**base, "options_shown": "1", "opt__tractor__throw_allowed": "on", "opt__tractor__throw_forced": "lowest_card",
             "opt__tractor__target_level": "J"}
    html = client.post(url, {**shown, "opt__tractor__target_level": "Z"}).content.decode()
    assert 'class="field has-error" id="field-opt__tractor__target_level"' in html
    html = client.post(url, {**base, "starts_on": "2026-05-02", "ends_on": "2026-05-01"}).content.decode()
    assert "The tournament cannot end before it starts." in html
    # another variant's fields are not read: only the chosen variant's changes are stored
    response = client.post(url, {**shown, "opt__tractor__throw_penalties": "on", "opt__chaodi__throw_allowed": "",
                                 "opt__chaodi__target_level": "K", "venue": "Hall"})
    tournament = Tournament.objects.get(name="秋季杯 Autumn Cup")
    assert response.status_code == 302 and response["Location"] == reverse("tournament-manage", args=[tournament.pk])
    assert tournament.owner == user and tournament.options == {"throw_penalties": True}


def test_manage_adds_teams_seeds_staff_starts_and_awards(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=0, start=False, name="Club Night")
    url = reverse("tournament-manage", args=[tournament.pk])
    login(client, owner)
    for i in range(1, 4):
        response = client.post(url, {"action": "team", "player1": f"甲{i}", "player2": f"乙{i}", "club": "西城"})
        assert response.status_code == 302
    entries = list(tournament.entries.select_related("team__player1"))
    assert [e.team.name for e in entries] == ["甲1 / 乙1", "甲2 / 乙2", "甲3 / 乙3"]
    assert entries[0].team.player1.club == "西城"
    # One transaction: a bad seed leaves no stray players or teams.
    client.post(url, {"action": "seeds", **{f"seed_{e.pk}": n for n, e in enumerate(entries, start=1)}})
    html = client.post(url, {"action": "team", "player1": "丙", "player2": "丁", "seed": 1}).content.decode()
    assert "Another entry already has this seed." in html
    assert not tournament.entries.filter(team__player1__name="丙").exists()
    from tournaments.models import Player
    assert not Player.objects.filter(name="丙").exists()
    html = client.post(url, {"action": "seeds", f"seed_{entries[0].pk}": 2, f"seed_{entries[1].pk}": 2,
                             f"seed_{entries[2].pk}": 3}).content.decode()
    assert "Two entries cannot share a seed." in html
    html = client.post(url, {"action": "staff", "username": "ghost", "role": "scorer"}).content.decode()
    assert "No user has this name." in html
    make_user("helper")
    client.post(url, {"action": "staff", "username": "helper", "role": "scorer"})
    assert tournament.scorers.filter(username="helper").exists()
    client.post(url, {"action": "status", "status": "registration"})
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    response = client.post(url, {"action": "start", "seeding": "manual", "third_place": ""})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    html = client.get(url).content.decode()
    match = Match.objects.get(stage__tournament=tournament, status=Match.Status.READY)
    assert reverse("table-link", args=[match.scorer_token]) in html
    html = client.post(url, {"action": "award", "match": match.pk, "winner_side": 1, "kind": "forfeit",
                             "reason": ""}).content.decode()
    assert "This field is required." in html
    client.post(url, {"action": "award", "match": match.pk, "winner_side": 1, "kind": "forfeit",
                      "reason": "did not show up"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == 1
    assert Entry.objects.filter(tournament=tournament).count() == 3


def test_a_match_waiting_for_its_entries_shows_but_cannot_be_scored(client: Client, running: Tournament,
                                                                     owner: Any) -> None:
    final = final_of(running)
    assert final.status == Match.Status.PENDING
    html = client.get(reverse("match-detail", args=[final.pk])).content.decode()
    assert "waiting for entries" in html
    html = login(client, owner).get(reverse("match-score", args=[final.pk])).content.decode()
    assert "This match cannot be scored now" in html and 'id="hand-form"' not in html


def test_chaodi_at_level_a_asks_whether_the_dealer_side_played_an_a(client: Client, owner: Any) -> None:
    """Chaodi passes A only with an A in the first and last tricks: the form asks, at level A only."""
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name="炒地皮杯 Chaodi Cup", variant="chaodi")
    for i in (1, 2):
        team = team_create(name=f"C{i}", player1=player_create(name=f"甲{i}", actor=actor),
                           player2=player_create(name=f"乙{i}", actor=actor), actor=actor)
        entry_add(tournament=tournament, team=team, seed=i, actor=actor)
    tournament_start(tournament=tournament, actor=actor)
    match = first_match(tournament)
    url = reverse("match-score", args=[match.pk])
    login(client, owner)
    assert 'name="a_first_trick"' not in client.get(url).content.decode()
    for index in range(4):  # 3 → 6 → 9 → Q → A (A must be defended)
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=actor,
                    dealer=0 if index == 0 else None)
    match.refresh_from_db()
    assert match.state["levels"][0] == "A" and match.status == Match.Status.PLAYING
    html = client.get(url).content.decode()
    assert 'name="a_first_trick"' in html and 'name="a_last_trick"' in html
    missing = client.post(url, hand_post(match.version, dealer=None)).content.decode()
    assert 'id="field-a_first_trick"' in missing and "has-error" in missing
    response = client.post(url, hand_post(match.version, dealer=None, a_first_trick="yes", a_last_trick="yes"))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == 0
    assert HandRecord.objects.filter(match=match).last().outcome["a_first_trick"] is True
