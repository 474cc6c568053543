"""The pages of issue 6: stages (Swiss, round robin, table rounds) on the manage page, stage standings,
rounds and individual tables, red-five and Yongzhou scoring, confirmation at the table, check-in, call
time, the hand limit, CSV import with a preview, JSON export and import — and who may do what."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_pages import SHUTOUT, build_tournament, login, make_user, win
from tournaments.models import Entry, HandRecord, Match, Stage, TableSeat, Tournament
from tournaments.services import Actor, hand_record
from tournaments.services.setup import entry_add, player_create, tournament_create
from tournaments.services.stages import stage_create, stage_start

pytestmark = pytest.mark.django_db

RED_FIVE_HAND = {"action": "record", "dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
                 "dealer_won_last_trick": "yes", "red_five_0_played_by": 0, "red_five_0_won_by": 1}


@pytest.fixture
def owner() -> Any:
    return make_user("club_owner")


def swiss(owner: Any, *, teams: int = 4, rounds: int = 2, confirm: bool = False, options: dict | None = None,
          name: str = "瑞士制 Swiss Night") -> tuple[Tournament, Stage]:
    tournament = build_tournament(owner, teams=teams, start=False, name=name)
    if confirm or options:
        tournament.require_confirmation = confirm
        tournament.options = options or {}
        tournament.save()
    stage = stage_create(tournament=tournament, actor=Actor(owner), format="swiss", rounds=rounds)
    stage_start(stage=stage, actor=Actor(owner), random_seed=1)
    tournament.refresh_from_db()
    stage.refresh_from_db()
    return tournament, stage


def individual(owner: Any, variant: str, players: int = 4, *, start: bool = True,
               hands: int = 2) -> tuple[Tournament, Stage]:
    actor = Actor(owner)
    tournament = tournament_create(owner=owner, name=f"个人赛 {variant}", variant=variant)
    for i in range(players):
        entry_add(tournament=tournament, player=player_create(name=f"选手{i} P{i}", rating=1500 - i, actor=actor),
                  actor=actor)
    stage = stage_create(tournament=tournament, actor=actor, format="table_rounds", rounds=2, hands_per_table=hands)
    if start:
        stage_start(stage=stage, actor=actor, random_seed=4)
    tournament.refresh_from_db()
    stage.refresh_from_db()
    return tournament, stage


def table_of(stage: Stage) -> Match:
    return Match.objects.filter(stage=stage, section="table").order_by("round__number", "position").first()


def round_matches(stage: Stage, number: int = 1) -> list[Match]:
    return list(Match.objects.filter(stage=stage, round__number=number).exclude(status="bye").order_by("position"))


def manage(tournament: Tournament) -> str:
    return reverse("tournament-manage", args=[tournament.pk])


# --------------------------------------------------------------------------- every new page loads

@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_new_page_loads_in_both_languages(client: Client, owner: Any, language: str) -> None:
    tournament, stage = swiss(owner)
    win(round_matches(stage)[0], 0, Actor(owner))
    red, red_stage = individual(owner, "red-five")
    yong, yong_stage = individual(owner, "yongzhou-300")
    pending, _pending_stage = individual(owner, "red-five", start=False)
    table = table_of(red_stage)
    swiss_match = round_matches(stage)[0]
    login(client, owner)
    client.cookies["django_language"] = language
    urls = [reverse("tournament-import"), reverse("tournament-create"),
            reverse("table-confirm", args=[swiss_match.scorer_token, 1]),
            reverse("match-detail", args=[table.pk]), reverse("match-score", args=[table.pk]),
            reverse("table-link", args=[table_of(yong_stage).scorer_token])]
    for t in (tournament, red, yong, pending):
        urls += [reverse(name, args=[t.pk]) for name in ("tournament-detail", "tournament-bracket", "tournament-tables",
                                                         "tournament-standings", "tournament-manage")]
    for url in urls:
        response = client.get(url, follow=True)  # a table link goes on to /table/<id>/
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in response.content.decode(), url
    for url in (reverse("tournament-export", args=[tournament.pk]),
                reverse("standings-csv", args=[tournament.pk, stage.pk]),
                reverse("standings-csv", args=[red.pk, red_stage.pk])):
        assert client.get(url).status_code == 200, url


# --------------------------------------------------------------------------- stages on the manage page

def test_an_organizer_adds_a_swiss_stage_with_tiebreaks_and_starts_it(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=5, start=False, name="Swiss Cup")
    login(client, owner)
    url = manage(tournament)
    html = client.get(url).content.decode()
    assert 'value="swiss"' in html and 'value="round_robin"' in html and 'value="table_rounds"' not in html
    bad = client.post(url, {"action": "stage_create", "stage-format": "swiss", "stage-rounds": "",
                            "stage-tiebreaks": "match_wins, coin"}).content.decode()
    assert "Say how many rounds" in bad or "Tiebreaks are an ordered list" in bad
    assert not tournament.stages.exists()
    response = client.post(url, {"action": "stage_create", "stage-format": "swiss", "stage-rounds": 3,
                                 "stage-tiebreaks": "match_wins, level_difference, buchholz", "stage-qualifiers": 4})
    assert response.status_code == 302
    stage = tournament.stages.get()
    assert (stage.format, stage.rounds_planned, stage.qualifiers) == ("swiss", 3, 4)
    assert stage.tiebreaks == ["match_wins", "level_difference", "buchholz"]
    client.post(url, {"action": "stage_create", "stage-format": "single_elimination", "stage-source_stage": stage.pk,
                      "stage-seeding": "rating"})
    knockout = tournament.stages.get(number=2)
    assert knockout.source_stage == stage
    html = client.get(url).content.decode()
    assert 'name="action" value="stage_start"' in html and "Starts when the earlier stages are finished." in html
    response = client.post(url, {"action": "stage_start", "stage": stage.pk}, follow=True)
    assert "started" in response.content.decode()
    stage.refresh_from_db()
    assert stage.status == "running"
    assert Match.objects.filter(stage=stage, round__number=1, status="bye").count() == 1
    # The tables page and the home page show the pairings by board and the bye.
    for name in ("tournament-tables", "tournament-detail", "tournament-bracket"):
        html = client.get(reverse(name, args=[tournament.pk])).content.decode()
        assert 'id="pairing-S1-1"' in html and "bye (counts as a win)" in html, name


def test_red_five_gets_table_rounds_and_the_tables_show_seats_first_and_totals(client: Client, owner: Any) -> None:
    tournament, stage = individual(owner, "red-five", players=5, start=False)
    login(client, owner)
    html = client.get(manage(tournament)).content.decode()
    assert 'value="table_rounds"' in html and 'value="swiss"' not in html
    client.post(manage(tournament), {"action": "stage_start", "stage": stage.pk})
    table = table_of(stage)
    first = table.state["first"]
    seats = {s.seat: s.entry.name for s in TableSeat.objects.filter(match=table).select_related("entry__player")}
    html = client.get(reverse("tournament-tables", args=[tournament.pk])).content.decode()
    assert all(name in html for name in seats.values())
    assert f'data-seat="{first}"' in html and "Sitting out this round" in html
    client.post(reverse("match-score", args=[table.pk]), {**RED_FIVE_HAND, "version": table.version})
    html = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert '<span class="seat-total" aria-label="running total">-8</span>' in html


def test_swiss_pairing_is_refused_while_results_are_outstanding_unless_overridden(client: Client, owner: Any) -> None:
    tournament, stage = swiss(owner)
    first, _second = round_matches(stage)
    win(first, 0, Actor(owner))
    login(client, owner)
    html = client.get(manage(tournament)).content.decode()
    assert 'data-key="S1-2"' in html and 'name="override"' in html and "Pair round 2" in html
    response = client.post(manage(tournament), {"action": "swiss_pair", "stage": stage.pk})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="round-errors-{stage.pk}"' in html and "Results are outstanding at: S1-2" in html
    assert stage.rounds.count() == 1
    response = client.post(manage(tournament), {"action": "swiss_pair", "stage": stage.pk, "override": "on"})
    assert response.status_code == 302
    assert stage.rounds.count() == 2


def test_the_standings_page_has_one_table_per_stage_with_its_tiebreak_columns(client: Client, owner: Any) -> None:
    tournament, stage = swiss(owner)
    for match in round_matches(stage):
        win(match, 0, Actor(owner))
    html = client.get(reverse("tournament-standings", args=[tournament.pk])).content.decode()
    for label in ("Match points", "Level diff.", "Buchholz", "Sonneborn–Berger"):
        assert label in html, label
    winners = [m.entry0 for m in round_matches(stage)]
    rows = html[html.index("<tbody>"):]
    for w in winners:
        assert rows.index(f'data-entry="{w.pk}"') < rows.index(f'data-entry="{round_matches(stage)[0].entry1_id}"')
    # The two winners tie on everything that is known: they share rank 1.
    assert html.count('class="tied"') >= 2
    partial = client.get(reverse("tournament-standings", args=[tournament.pk]), headers={"HX-Request": "true"})
    assert partial.status_code == 200 and "<html" not in partial.content.decode()
    csv = client.get(reverse("standings-csv", args=[tournament.pk, stage.pk]))
    text = csv.content.decode("utf-8")
    assert csv["Content-Disposition"].startswith("attachment") and text.startswith("\ufeffRank,Entry,")
    assert winners[0].name in text and "Match points" in text.splitlines()[0]


def test_a_swiss_qualifier_feeds_a_knockout_and_every_page_shows_both_stages(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=4, start=False, name="Qualifier Cup")
    actor = Actor(owner)
    qualifier = stage_create(tournament=tournament, actor=actor, format="swiss", rounds=1, qualifiers=2)
    knockout = stage_create(tournament=tournament, actor=actor, format="double_elimination", source_stage=qualifier,
                            grand_final="reset")
    login(client, owner)
    client.post(manage(tournament), {"action": "stage_start", "stage": qualifier.pk})
    for match in round_matches(qualifier):
        win(match, 0, actor)
    html = client.get(manage(tournament)).content.decode()
    assert f'id="stage-{knockout.pk}"' in html and html.count('value="stage_start"') == 1
    response = client.post(manage(tournament), {"action": "stage_start", "stage": knockout.pk})
    assert response.status_code == 302
    knockout.refresh_from_db()
    assert knockout.status == "running"
    finalists = {m.entry0_id for m in round_matches(qualifier)}
    first = Match.objects.filter(stage=knockout, status="ready").get()
    assert {first.entry0_id, first.entry1_id} == finalists
    html = client.get(reverse("tournament-standings", args=[tournament.pk])).content.decode()
    assert html.index(f'id="standings-{knockout.pk}"') < html.index(f'id="standings-{qualifier.pk}"')
    html = client.get(reverse("tournament-bracket", args=[tournament.pk])).content.decode()
    assert 'class="bracket"' in html and 'id="pairing-S1-1"' in html


def test_a_double_elimination_starts_from_the_start_form(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=4, start=False, name="Double Cup")
    login(client, owner)
    client.post(manage(tournament), {"action": "start", "seeding": "manual", "format": "double_elimination",
                                     "grand_final": "reset", "absent": "withdraw"})
    stage = tournament.stages.get()
    assert (stage.format, stage.grand_final) == ("double_elimination", "reset")
    win(Match.objects.filter(stage=stage, status="ready").order_by("position").first(), 0, Actor(owner))
    for name in ("tournament-bracket", "tournament-standings", "tournament-tables", "tournament-detail"):
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 200, name


# --------------------------------------------------------------------------- confirmation at the table

def test_the_losing_side_confirms_with_the_table_link_and_the_winner_is_refused(client: Client, owner: Any) -> None:
    _tournament, stage = swiss(owner, teams=2, confirm=True)
    match = round_matches(stage)[0]
    token_actor = Actor(None, "token")
    for index in range(4):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=token_actor,
                    dealer=0 if index == 0 else None)
    match.refresh_from_db()
    assert match.status == "finished" and match.confirmed_at is None
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'id="awaiting"' in html and f"confirmation by the losing side, {match.entry1.name}." in html
    link = reverse("table-link", args=[match.scorer_token])
    html = client.get(link, follow=True).content.decode()
    assert reverse("table-session-confirm", args=[match.pk, 1]) in html and match.scorer_token not in html
    assert reverse("table-session-confirm", args=[match.pk, 0]) in html
    refused = client.post(reverse("table-confirm", args=[match.scorer_token, 0]))
    assert refused.status_code == 403 and "confirmed by the losing side" in refused.content.decode()
    match.refresh_from_db()
    assert match.confirmed_at is None
    assert client.get(reverse("table-confirm", args=["wrong-token", 1])).status_code == 404
    response = client.post(reverse("table-confirm", args=[match.scorer_token, 1]))
    assert response.status_code == 302 and response["Location"] == link
    match.refresh_from_db()
    assert match.confirmed_at is not None
    html = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'id="awaiting"' not in html


def test_an_organizer_confirms_on_behalf_of_a_side(client: Client, owner: Any) -> None:
    tournament, stage = swiss(owner, confirm=True)
    match = round_matches(stage)[0]
    win(match, 0, Actor(None, "token"))
    login(client, owner)
    html = client.get(manage(tournament)).content.decode()
    assert 'id="confirm"' in html and f'data-key="{match.key}"' in html
    response = client.post(manage(tournament), {"action": "confirm", "match": match.pk}, follow=True)
    assert "is confirmed" in response.content.decode()
    match.refresh_from_db()
    assert match.confirmed_at is not None and match.confirmed_by == owner


def test_the_create_and_details_forms_set_whether_results_need_confirmation(client: Client) -> None:
    login(client, make_user("new_organizer"))
    client.post(reverse("tournament-create"), {"name": "确认杯", "variant": "tractor", "decks": 2,
                                               "players_per_table": 4, "require_confirmation": "on"})
    tournament = Tournament.objects.get(name="确认杯")
    assert tournament.require_confirmation is True
    client.post(manage(tournament), {"action": "details", "name": "确认杯", "is_public": "on"})
    tournament.refresh_from_db()
    assert tournament.require_confirmation is False


def test_a_finished_individual_table_waits_for_an_organizer_when_confirmation_is_on(client: Client,
                                                                                    owner: Any) -> None:
    tournament, stage = individual(owner, "red-five", hands=1)
    tournament.require_confirmation = True
    tournament.save()
    table = table_of(stage)
    client.post(reverse("table-link", args=[table.scorer_token]), {**RED_FIVE_HAND, "version": table.version})
    table.refresh_from_db()
    assert table.status == "finished" and table.confirmed_at is None
    assert "waits for an organizer" in client.get(reverse("match-detail", args=[table.pk])).content.decode()
    assert client.get(reverse("table-confirm", args=[table.scorer_token, 1])).status_code == 404
    login(client, owner)
    client.post(manage(tournament), {"action": "confirm", "match": table.pk})
    table.refresh_from_db()
    assert table.confirmed_at is not None


# --------------------------------------------------------------------------- individual tables

def test_a_red_five_hand_is_previewed_and_recorded(client: Client, owner: Any) -> None:
    _tournament, stage = individual(owner, "red-five")
    table = table_of(stage)
    url = reverse("table-link", args=[table.scorer_token])
    html = client.get(url, follow=True).content.decode()
    for name in ("dealer", "bid", "trump", "dealer_points", "kitty_points", "dealer_won_last_trick",
                 "red_five_0_played_by", "red_five_1_won_by"):
        assert f'name="{name}"' in html, name
    assert 'name="red_five_2_played_by"' not in html  # two decks: at most two red fives
    preview = client.post(url, {**RED_FIVE_HAND, "action": "preview", "version": table.version},
                          headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in preview and 'data-values="-8,4,2,2"' in preview and "final score: -20." in preview
    assert not HandRecord.objects.filter(match=table).exists()
    response = client.post(url, {**RED_FIVE_HAND, "version": table.version})
    assert response.status_code == 302
    table.refresh_from_db()
    hand = HandRecord.objects.get(match=table)
    assert hand.entered_via == "token" and hand.outcome["red_fives"] == [{"played_by": 0, "won_by": 1}]
    assert table.state["totals"] == [-8, 4, 2, 2] and table.status == "playing"
    html = client.get(url, follow=True).content.decode()
    assert "Hand 1 saved." in html and "Hand 2 of 2" in html and 'id="hand-1"' in html
    assert 'id="undo-table-hand"' in html
    client.post(url, {"action": "undo", "version": table.version})
    table.refresh_from_db()
    assert table.hands_played == 0 and table.state["totals"] == [0, 0, 0, 0]
    assert "The last hand was undone." in client.get(url, follow=True).content.decode()
    client.post(url, {**RED_FIVE_HAND, "version": table.version})
    table.refresh_from_db()
    client.post(url, {**RED_FIVE_HAND, "version": table.version})
    table.refresh_from_db()
    assert table.status == "finished"
    assert "This table has played all its hands." in client.get(url, follow=True).content.decode()


def test_bad_red_five_figures_are_refused_next_to_their_fields(client: Client, owner: Any) -> None:
    _tournament, stage = individual(owner, "red-five")
    table = table_of(stage)
    login(client, owner)
    url = reverse("match-score", args=[table.pk])
    html = client.post(url, {**RED_FIVE_HAND, "version": table.version, "bid": 123, "kitty_points": 7}).content.decode()
    assert 'class="field stepper has-error" id="field-bid"' in html
    assert 'class="field stepper has-error" id="field-kitty_points"' in html
    assert "multiples of 5" in html
    # A red five played and won by the dealer is not a capture.
    html = client.post(url, {**RED_FIVE_HAND, "version": table.version, "red_five_0_won_by": 0}).content.decode()
    assert 'class="field has-error" id="field-red_five_0_played_by"' in html
    html = client.post(url, {**RED_FIVE_HAND, "version": table.version, "red_five_0_won_by": ""}).content.decode()
    assert "Give both seats of a captured ♥5, or neither." in html
    assert not HandRecord.objects.filter(match=table).exists()


def test_a_stale_table_hand_says_someone_else_recorded_first(client: Client, owner: Any) -> None:
    _tournament, stage = individual(owner, "red-five", hands=3)
    table = table_of(stage)
    url = reverse("table-link", args=[table.scorer_token])
    old = table.version
    client.post(url, {**RED_FIVE_HAND, "version": old})
    html = client.post(url, {**RED_FIVE_HAND, "version": old, "bid": 150}).content.decode()
    assert 'id="stale"' in html and 'value="150"' in html
    table.refresh_from_db()
    assert f'name="version" value="{table.version}"' in html and table.hands_played == 1


def test_a_yongzhou_hand_needs_points_summing_to_300(client: Client, owner: Any) -> None:
    _tournament, stage = individual(owner, "yongzhou-300")
    table = table_of(stage)
    url = reverse("table-link", args=[table.scorer_token])
    html = client.get(url, follow=True).content.decode()
    assert all(f'name="points_{seat}"' in html for seat in range(4)) and 'name="declarer"' in html
    data = {"action": "record", "version": table.version, "declarer": 1,
            "points_0": 100, "points_1": 100, "points_2": 50, "points_3": 40}
    html = client.post(url, data).content.decode()
    assert 'id="form-errors"' in html and "300" in html
    html = client.post(url, {**data, "points_3": 52}).content.decode()
    assert 'class="field stepper has-error" id="field-points_3"' in html
    assert not HandRecord.objects.filter(match=table).exists()
    preview = client.post(url, {**data, "points_3": 50, "action": "preview"}, headers={"HX-Request": "true"})
    assert "won the draw" in preview.content.decode()  # tied: the preview asks for the drawn seat
    preview = client.post(url, {**data, "points_3": 50, "tie_break": 1, "action": "preview"},
                          headers={"HX-Request": "true"})
    assert 'data-values="25,25,-25,-25"' in preview.content.decode()
    html = client.post(url, {**data, "points_3": 50, "tie_break": 2}).content.decode()
    assert 'class="field has-error" id="field-tie_break"' in html
    html = client.post(url, {**data, "points_3": 50}).content.decode()  # a tie needs the drawn seat
    assert 'class="field has-error" id="field-tie_break"' in html and "draw" in html
    assert client.post(url, {**data, "points_3": 50, "tie_break": 1}).status_code == 302
    table.refresh_from_db()
    assert table.state["totals"] == [25, 25, -25, -25]
    assert HandRecord.objects.get(match=table).outcome == {"points": [100, 100, 50, 50], "declarer": 1,
                                                           "tie_break": 1}


# --------------------------------------------------------------------------- check-in, call time, hand limit

def test_check_in_and_absent_entries_forfeit_at_the_start(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=4, start=False, name="Check-in Cup")
    entries = list(tournament.entries.order_by("seed"))
    login(client, owner)
    for entry in entries[:3]:
        assert client.post(manage(tournament), {"action": "checkin", "entry": entry.pk, "present": "1"}).status_code == 302
    client.post(manage(tournament), {"action": "checkin", "entry": entries[2].pk, "present": "0"})
    client.post(manage(tournament), {"action": "checkin", "entry": entries[2].pk, "present": "1"})
    assert Entry.objects.filter(tournament=tournament, checked_in_at__isnull=False).count() == 3
    html = client.get(manage(tournament)).content.decode()
    assert "Checked in: 3." in html and 'value="forfeit"' in html
    client.post(manage(tournament), {"action": "start", "seeding": "manual", "absent": "forfeit",
                                     "format": "single_elimination", "grand_final": "single"})
    forfeited = Match.objects.get(stage__tournament=tournament, entry1=entries[3])
    assert forfeited.status == "finished" and forfeited.winner_side == 0


def test_an_organizer_calls_time_on_a_playing_match(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=2, name="Time Cup")
    match = Match.objects.get(stage__tournament=tournament, status="ready")
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=1)
    login(client, owner)
    html = client.get(manage(tournament)).content.decode()
    assert 'name="action" value="call_time"' in html
    assert 'id="call-time-form"' in client.get(reverse("match-score", args=[match.pk])).content.decode()
    match.refresh_from_db()
    response = client.post(manage(tournament), {"action": "call_time", "match": match.pk, "version": match.version},
                           follow=True)
    assert "Time called at" in response.content.decode()
    match.refresh_from_db()
    assert match.status == "finished" and match.winner_side == 1 and match.time_called_at
    assert "time called at" in client.get(reverse("match-detail", args=[match.pk])).content.decode()


def test_the_match_page_shows_the_hand_limit_and_a_decided_result(client: Client, owner: Any) -> None:
    _tournament, stage = swiss(owner, teams=2, options={"hand_limit": 6})
    match = round_matches(stage)[0]
    for index in range(2):
        match.refresh_from_db()
        hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner),
                    dealer=0 if index == 0 else None)
    url = reverse("match-detail", args=[match.pk])
    html = client.get(url).content.decode()
    assert "hands played 2 / 6" in html and 'id="decided"' not in html
    # The stored result of the last hand says the trailing side cannot catch up any more.
    hand = HandRecord.objects.get(match=match, number=2)
    hand.result = {**hand.result, "decided": 0}
    hand.save()
    html = client.get(url).content.decode()
    assert 'id="decided"' in html and f"{match.entry0.name} has won" in html and "cannot catch up in the hands left" in html


# --------------------------------------------------------------------------- CSV import, JSON export and import

TEAMS_CSV = "team,player1,player2,club,rating\n红队 Red,张三,李四,东城,1800\n蓝队 Blue,王五,赵六,西城,abc\n"


def test_csv_import_previews_row_errors_and_writes_nothing_until_confirmed(client: Client, owner: Any) -> None:
    tournament = build_tournament(owner, teams=0, start=False, name="CSV Cup")
    login(client, owner)
    response = client.post(manage(tournament), {"action": "csv_preview", "text": TEAMS_CSV})
    html = response.content.decode()
    assert response.status_code == 200 and 'id="csv-preview"' in html
    assert 'class="row-error" data-line="3"' in html and "is not a whole number" in html
    assert 'id="csv-import-form"' not in html and "Nothing was imported" in html
    assert not tournament.entries.exists()
    good = TEAMS_CSV.replace(",abc", ",1700")
    upload = SimpleUploadedFile("teams.csv", ("\ufeff" + good).encode("utf-8"), content_type="text/csv")
    html = client.post(manage(tournament), {"action": "csv_preview", "file": upload}).content.decode()
    assert 'id="csv-import-form"' in html and "Import 2 entries" in html and "红队 Red" in html
    assert not tournament.entries.exists()
    response = client.post(manage(tournament), {"action": "csv_import", "csv_data": good}, follow=True)
    assert "2 entries imported." in response.content.decode()
    assert sorted(e.name for e in tournament.entries.all()) == ["红队 Red", "蓝队 Blue"]
    html = client.post(manage(tournament), {"action": "csv_import", "csv_data": good}).content.decode()
    assert "already entered" in html and tournament.entries.count() == 2
    html = client.post(manage(tournament), {"action": "csv_preview"}).content.decode()
    assert "Choose a file or paste the CSV." in html


def test_json_export_downloads_and_imports_back_as_a_new_tournament(client: Client, owner: Any) -> None:
    tournament, stage = swiss(owner)
    win(round_matches(stage)[0], 0, Actor(owner))
    login(client, owner)
    response = client.get(reverse("tournament-export", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content.decode("utf-8"))
    assert data["tournament"]["name"] == tournament.name and "瑞士制" in response.content.decode("utf-8")
    upload = SimpleUploadedFile("export.json", response.content, content_type="application/json")
    response = client.post(reverse("tournament-import"), {"file": upload})
    copy = Tournament.objects.exclude(pk=tournament.pk).get(name=tournament.name)
    assert response.status_code == 302 and response["Location"] == manage(copy)
    assert copy.owner == owner and copy.entries.count() == 4
    assert Match.objects.filter(stage__tournament=copy).count() == Match.objects.filter(stage__tournament=tournament).count()
    assert HandRecord.objects.filter(match__stage__tournament=copy).count() == 4
    bad = SimpleUploadedFile("bad.json", b"{not json", content_type="application/json")
    assert "This is not a JSON file" in client.post(reverse("tournament-import"), {"file": bad}).content.decode()
    other = SimpleUploadedFile("other.json", b'{"format": "something else"}', content_type="application/json")
    assert "Not a tournament export" in client.post(reverse("tournament-import"), {"file": other}).content.decode()
    assert Tournament.objects.filter(name=tournament.name).count() == 2


# --------------------------------------------------------------------------- permissions

MANAGE_POSTS = [
    {"action": "stage_create", "stage-format": "swiss", "stage-rounds": 2},
    {"action": "swiss_pair", "override": "on"},
    {"action": "stage_start"},
    {"action": "checkin", "present": "1"},
    {"action": "csv_preview", "text": TEAMS_CSV},
    {"action": "csv_import", "csv_data": TEAMS_CSV},
    {"action": "confirm"},
    {"action": "call_time", "version": 1},
]


def test_non_organizers_are_refused_and_anonymous_visitors_sent_to_log_in(client: Client, owner: Any) -> None:
    tournament, stage = swiss(owner)
    match = round_matches(stage)[0]
    entry = tournament.entries.first()
    ids = {"stage": stage.pk, "match": match.pk, "entry": entry.pk}
    urls = [reverse("tournament-export", args=[tournament.pk])]
    for data in MANAGE_POSTS:
        response = client.post(manage(tournament), {**ids, **data})
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), data["action"]
    for url in [*urls, reverse("tournament-import")]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url
    login(client, make_user("stranger"))
    for data in MANAGE_POSTS:
        assert client.post(manage(tournament), {**ids, **data}).status_code == 403, data["action"]
    for url in urls:
        assert client.get(url).status_code == 403, url
    assert stage.rounds.count() == 1 and tournament.stages.count() == 1
    assert not Entry.objects.filter(tournament=tournament, checked_in_at__isnull=False).exists()
    # Any signed-in user may import a tournament: it becomes theirs.
    assert client.get(reverse("tournament-import")).status_code == 200
