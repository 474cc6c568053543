"""The end of trick entry in words (issue 28): a complete hand's draft carries ``derived.summary`` (small
tables and the scoring core's sentences, in the visitor's language) and the finish answer carries it
with links to the hand's replay and the match — so the page needs no JSON. Partnership variants: the
points each side took, the kitty, the last trick, the level change and the next dealer by seat and
player; red five and Yongzhou: game points / net per seat and player."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.record import HandFacts, record_to_json, tricks_from_hand
from tests.gameplay.test_record import deal, play
from tests.tournaments.test_pages_formats import individual, table_of
from tests.tournaments.test_trick_entry import C, client_for, ready_matches, tractor_hand
from tournaments.selectors import seat_names

pytestmark = pytest.mark.django_db


def cells(summary: dict[str, Any]) -> list[str]:
    return [cell for table in summary["tables"] for row in table["rows"] for cell in row] + \
        [h for table in summary["tables"] for h in (table["head"] or [])]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_a_complete_partnership_hand_reads_in_words_and_links_on(organizer: Any, lang: str) -> None:
    m, _other = ready_matches(organizer)
    api = client_for(organizer)
    h = tractor_hand(5)
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2"), tricks_from_hand(h))
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    d = api.post(C.format(m.pk) + "record/", {"record": record}, format="json", **headers).json()
    assert d["derived"]["complete"]
    summary = d["derived"]["summary"]
    text = " ".join(cells(summary))
    names = seat_names(m)
    zh = lang == "zh-hans"
    assert (f"闲家（{m.entry1.name}）" if zh else f"Attackers ({m.entry1.name})") in text
    assert (f"庄家方（{m.entry0.name}）" if zh else f"Dealer's side ({m.entry0.name})") in text
    assert f"{h.outcome['attackers_points']} 分" in text if zh else f"{h.outcome['attackers_points']} points" in text
    last = h.tricks[-1][2]
    assert (f"{last + 1}号座位 · {names[last]}" if zh else f"Seat {last + 1} · {names[last]}") in text
    assert ("下一局庄家" if zh else "Next dealer") in text and ("底牌" if zh else "Kitty") in text
    assert summary["sentences"] and all("{" not in s for s in summary["sentences"])
    if zh:
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in s) for s in summary["sentences"])
    done = api.post(C.format(m.pk) + "finish/", {"version": d["version"]}, format="json", **headers)
    assert done.status_code == 201
    body = done.json()
    assert body["summary"] == summary
    assert body["links"] == {"replay": f"/matches/{m.pk}/hands/1/replay/", "match": f"/matches/{m.pk}/"}


@pytest.mark.parametrize("variant", ["red-five", "yongzhou-300"])
def test_an_individual_table_hand_reads_per_seat_and_player(organizer: Any, variant: str) -> None:
    _t, stage = individual(organizer, variant)
    table = table_of(stage)
    names = [s.entry.name for s in table.seats.order_by("seat")]
    if variant == "red-five":
        facts = HandFacts("red-five", dealer=1, trump="S", bid=80, decks=2)
    else:
        facts = HandFacts("yongzhou-300", dealer=1, trump="S", players=4)
    hands, _kitty = deal(facts, 21, {})
    api = client_for(organizer)
    r = api.post(C.format(table.pk) + "record/", {"record": record_to_json(facts, play(facts, hands))}, format="json")
    assert r.status_code == 201, r.json()
    d = r.json()
    if not d["derived"]["complete"]:  # a Yongzhou tie for the most points needs the table's draw
        pytest.skip("this deal needs a tie break")
    summary = d["derived"]["summary"]
    per_seat = next(t for t in summary["tables"] if t["head"])
    assert per_seat["head"][2] == ("Game points" if variant == "red-five" else "Net")
    assert [row[0] for row in per_seat["rows"]] == [f"Seat {s + 1} · {n}" for s, n in enumerate(names)]
    assert [int(row[1]) for row in per_seat["rows"]] == d["derived"]["points"]
    assert all(row[2].lstrip("+−").isdigit() for row in per_seat["rows"])
    assert summary["sentences"]


def test_an_incomplete_hand_has_no_summary(organizer: Any) -> None:
    m, _other = ready_matches(organizer)
    api = client_for(organizer)
    d = api.post(C.format(m.pk), {"facts": {"dealer": 0, "trump": "H"}}, format="json").json()
    assert "summary" not in d["derived"]
