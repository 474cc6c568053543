"""Hand entry that cannot record a plausible wrong hand: nothing that changes the result is preset, the
server refuses an empty one next to its field, and the page says who deals and who attacks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_pages import SHUTOUT, build_tournament, first_match, hand_post, login, make_user
from tests.tournaments.test_pages_formats import RED_FIVE_HAND, individual, table_of
from tournaments.models import HandRecord, Tournament
from tournaments.services import Actor, hand_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return make_user("entry_owner")


@pytest.fixture
def running(owner: Any) -> Tournament:
    return build_tournament(owner)


def checked(html: str, name: str) -> list[str]:
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*checked', html)


def test_nothing_that_changes_the_result_is_preset(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    login(client, owner)
    html = client.get(reverse("match-score", args=[match.pk])).content.decode()
    for name in ("dealer", "trump", "last_trick_winner", "last_trick_largest"):
        assert f'name="{name}"' in html and checked(html, name) == [], name
    for name in ("attackers_points", "kitty_points"):
        tag = re.search(rf'<input type="number" name="{name}"[^>]*>', html)
        assert tag is not None and "value=" not in tag.group(0), name
    # The save button is gated by the page's script; the line names what is still to choose.
    assert 'data-gated' in html and 'data-save-gate' in html
    assert 'data-field="trump"' in html and 'data-field="attackers_points"' in html
    assert 'data-field="last_trick_largest" data-when="last_trick_winner" data-when-value="attackers"' in html
    assert "First hand: choose who deals." in html


@pytest.mark.parametrize(("field", "message"), [
    ("trump", "Choose the trump suit, or “No trump”."),
    ("attackers_points", "Enter the attackers&#x27; trick points (0 if they took none)."),
    ("kitty_points", "Enter the points in the kitty (0 if none)."),
    ("last_trick_winner", "Say which side won the last trick."),
])
def test_the_server_refuses_a_hand_with_a_figure_not_chosen(client: Client, running: Tournament, owner: Any,
                                                             field: str, message: str) -> None:
    match = first_match(running)
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    response = client.post(url, {**hand_post(match.version), field: ""})
    html = response.content.decode()
    assert response.status_code == 200 and message in html
    assert re.search(rf'class="field[^"]* has-error" id="field-{field}"', html)
    assert not HandRecord.objects.filter(match=match).exists()


def test_the_errors_are_in_chinese_too(client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    login(client, owner)
    client.cookies["django_language"] = "zh-hans"
    html = client.post(reverse("match-score", args=[match.pk]),
                       {**hand_post(match.version), "trump": "", "last_trick_winner": ""}).content.decode()
    assert "请选择主牌花色，或“无主”。" in html and "请说明最后一轮由哪一方赢得。" in html


def test_the_attackers_last_trick_needs_its_size_and_no_trump_is_a_choice(
        client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    post = {**hand_post(match.version), "last_trick_winner": "attackers", "last_trick_largest": ""}
    html = client.post(url, post).content.decode()
    assert "The attackers won the last trick: say how large its winning play was" in html
    assert not HandRecord.objects.filter(match=match).exists()
    # The dealer side won it: the size does not matter and is not asked.
    assert client.post(url, {**hand_post(match.version), "trump": "NT", "last_trick_largest": ""}).status_code == 302
    hand = HandRecord.objects.get(match=match)
    assert hand.trump == "" and hand.outcome["last_trick"] == {"winner": "dealer", "largest": 1}


def test_the_form_says_who_deals_and_who_attacks_with_the_team_names(
        client: Client, running: Tournament, owner: Any) -> None:
    match = first_match(running)
    hand_record(match_id=match.pk, outcome=SHUTOUT, version=match.version, actor=Actor(owner), dealer=1, trump="S")
    match.refresh_from_db()
    login(client, owner)
    url = reverse("match-score", args=[match.pk])
    html = client.get(url).content.decode()
    dealer = match.state["dealer"]
    dealers, attackers = match.entry(dealer % 2), match.entry(1 - dealer % 2)
    line = re.search(r'<p class="deal-line" id="deal-line">(.*?)</p>', html, re.S)
    assert line is not None
    assert f"({match.entry(dealer % 2).team.player2.name if dealer >= 2 else dealers.team.player1.name})" in line.group(1)
    assert f"{dealers.name} is the dealer side, playing its level {match.state['levels'][dealer % 2]}; " \
           f"{attackers.name} attacks." in line.group(1)
    preview = client.post(url, {**hand_post(match.version, dealer=None), "action": "preview", "attackers_points": 120},
                          headers={"HX-Request": "true"}).content.decode()
    assert f"{dealers.name} is the dealer side; {attackers.name} attacks." in preview
    gain = re.search(r'data-level-gain="(\d+)"', preview)
    assert gain is not None and gain.group(1) != "0"
    assert f"{attackers.name} (attackers) scores 120 in all: it takes the deal and goes up {gain.group(1)}." in preview
    client.cookies["django_language"] = "zh-hans"
    html = client.get(url).content.decode()
    assert f"{dealers.name}为庄家方，打 {match.state['levels'][dealer % 2]}；{attackers.name}为闲家，抓分。" in html


def test_the_individual_tables_preset_nothing_either(client: Client, owner: Any) -> None:
    _tournament, stage = individual(owner, "red-five")
    table = table_of(stage)
    url = reverse("table-link", args=[table.scorer_token])
    html = client.get(url, follow=True).content.decode()
    assert checked(html, "dealer_won_last_trick") == [] and checked(html, "trump") == []
    for name in ("dealer_points", "kitty_points"):
        tag = re.search(rf'<input type="number" name="{name}"[^>]*>', html)
        assert tag is not None and "value=" not in tag.group(0), name
    assert 'data-field="dealer_won_last_trick"' in html
    for field, message in (("dealer_points", "Enter the dealer&#x27;s trick points (0 if none)."),
                           ("dealer_won_last_trick", "Say whether the dealer won the last trick.")):
        html = client.post(url, {**RED_FIVE_HAND, "version": table.version, field: ""}).content.decode()
        assert message in html and re.search(rf'has-error" id="field-{field}"', html), field
    assert not HandRecord.objects.filter(match=table).exists()

    _tournament, stage = individual(owner, "yongzhou-300")
    table = table_of(stage)
    url = reverse("table-link", args=[table.scorer_token])
    html = client.get(url, follow=True).content.decode()
    tag = re.search(r'<input type="number" name="points_0"[^>]*>', html)
    assert tag is not None and "value=" not in tag.group(0)
    data = {"action": "record", "version": table.version, "declarer": 1,
            "points_0": 100, "points_1": 100, "points_2": 100, "points_3": ""}
    html = client.post(url, data).content.decode()
    assert "Enter this player&#x27;s points (0 if none)." in html
    assert not HandRecord.objects.filter(match=table).exists()
