"""The replay of a tournament hand (/matches/{id}/hands/{n}/replay/, issue 28): a tournament page — its
title names the tournament, the match and the hand; it links back to the match and its live page; every
seat reads "Seat 1 · player" (or the wind); the declarations entered with the hand are shown; the cards
read with suit symbols, never codes; no paste forms, commands, record formats or JSON — in English and
简体中文. The generic /replay/ page keeps its forms."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from gameplay.cards import CODE_NAMES
from gameplay.hand import Hand
from gameplay.record import HandFacts, derive, record_to_json, tricks_from_hand
from tests.tournaments.test_trick_entry import C, client_for, ready_matches, tractor_hand
from tournaments.models import HandRecord, Match
from tournaments.selectors import seat_names

pytestmark = pytest.mark.django_db
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|BJ|SJ)(?![A-Za-z0-9])")


def visible_text(page: str) -> str:
    """The text a person sees: no scripts, styles, tags or attributes."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", body))


def declared_card(h: Hand) -> tuple[int, str]:
    """A seat that held a level card of the trump suit at the start of play, and that card."""
    rec = derive(HandFacts("tractor", dealer=0, trump=h.trump, level="2"), tricks_from_hand(h))
    assert rec.holdings is not None
    want = f"{h.trump or 'S'}2"
    for seat, cards in enumerate(rec.holdings):
        if any(CODE_NAMES[c] == want for c in cards):
            return seat, want
    return 0, want


def recorded_with_declaration(organizer: Any) -> tuple[Match, Hand, int, str]:
    """A match's first hand entered trick by trick with a declaration, as a scorer types it."""
    m, _other = ready_matches(organizer)
    api: APIClient = client_for(organizer)
    h = tractor_hand(5)
    seat, card = declared_card(h)
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2",
                                      declarations=((seat, (next(c for c, n in enumerate(CODE_NAMES)
                                                                 if n == card),)),)),
                            tricks_from_hand(h))
    d = api.post(C.format(m.pk) + "record/", {"record": record}, format="json")
    assert d.status_code == 201, d.json()
    done = api.post(C.format(m.pk) + "finish/", {"version": d.json()["version"], "ruling": "ok"}, format="json")
    assert done.status_code == 201, done.json()
    assert HandRecord.objects.get(match=m, number=1).trick_log["facts"]["declarations"]
    return m, h, seat, card


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_replay_of_a_tournament_hand_is_a_tournament_page(organizer: Any, client: Client, lang: str) -> None:
    m, h, seat, card = recorded_with_declaration(organizer)
    client.cookies["django_language"] = lang
    r = client.get(f"/matches/{m.pk}/hands/1/replay/")
    assert r.status_code == 200
    page = r.content.decode()
    text = visible_text(page)
    zh = lang == "zh-hans"
    tournament = m.stage.tournament
    # the title names the tournament, the match (its two teams) and the hand
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None
    assert tournament.name in htmllib.unescape(title.group(1))
    assert ("第1局回放" if zh else "Replay of hand 1") in text
    assert f"{m.entry0.name} – {m.entry1.name}" in text
    assert ("拖拉机" if zh else "Tractor") in text and " tractor " not in text
    # the way back to the match and to its live page
    assert f'href="/matches/{m.pk}/"' in page and f'href="/matches/{m.pk}/live/"' in page
    assert ("返回比赛" if zh else "Back to the match") in text
    # every seat by its number and player, counted from 1
    names = seat_names(m)
    for s, name in enumerate(names):
        assert (f"{s + 1}号座位 · {name}" if zh else f"Seat {s + 1} · {name}") in text
    assert "Seat 0" not in text and "0号座位" not in text
    assert ("首家：" if zh else "leader: ") in text and "首家:" not in text  # the colon of the language
    # the declaration entered with the hand is shown, by the seat's player, with the card's symbol
    decl = re.search(r'<ol class="replay-calls">(.*?)</ol>', page, re.S)
    assert decl is not None, "the declarations are missing"
    suit = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[card[0]]
    assert f"{names[seat]}" in visible_text(decl.group(1)) and f"{suit}2" in visible_text(decl.group(1))
    # no generic parts: forms, commands, record formats, JSON
    for generic in ("shengji-record", "simulate", 'name="log"', 'type="file"', 'class="replay-forms', "(JSON)",
                    'class="replay-json'):
        assert generic not in page, generic
    assert "{" not in text and "}" not in text
    # cards with suit symbols, never codes
    assert not CARD_CODE.findall(text), CARD_CODE.findall(text)[:5]
    assert 'title="S' not in page and 'title="H' not in page
    # every trick, named by the players
    assert page.count('class="replay-trick"') == len(h.tricks)


def test_a_hand_entered_by_its_totals_still_reads_as_the_tournament(organizer: Any, client: Client) -> None:
    from tests.tournaments.factories import SHUTOUT, play_hand
    from tournaments.services import Actor

    m, _other = ready_matches(organizer)
    play_hand(m, SHUTOUT, Actor(organizer))
    html = client.get(f"/matches/{m.pk}/hands/1/replay/").content.decode()
    assert "entered by its totals" in html and f'href="/matches/{m.pk}/"' in html and 'name="log"' not in html


def test_the_generic_replay_page_keeps_its_forms_and_shows_pasted_declarations(organizer: Any,
                                                                               client: Client) -> None:
    import json

    h = tractor_hand(5)
    seat, card = declared_card(h)
    code = next(c for c, n in enumerate(CODE_NAMES) if n == card)
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2", declarations=((seat, (code,)),)),
                            tricks_from_hand(h))
    html = client.post("/replay/", {"log": json.dumps(record)}).content.decode()
    assert 'name="log"' in html and "shengji-record/1" in html and "Hand log (JSON)" in html
    assert f"Seat {seat + 1}: declares" in visible_text(html)
    assert client.get("/replay/", {"variant": "tractor", "seed": "7"}).status_code == 200
