"""After a hand entered trick by trick, the next hand's forms preset nothing that changes a result and do
not ask again what the match already knows (issue 28): no trump chosen beforehand, the dealer shown (not
asked) on the trick-entry page and absent from the totals form; the first hand still asks for both."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from gameplay.record import tricks_from_hand
from tests.tournaments.test_trick_entry import C, client_for, plays_json, ready_matches, start, tractor_hand
from tournaments.models import Match
from tournaments.selectors import seat_names


def record_a_hand_trick_by_trick(organizer: Any, match: Match) -> None:
    h = tractor_hand()
    api = client_for(organizer)
    draft = start(api, match, {"dealer": 0, "trump": h.trump or "NT"})
    for n, trick in enumerate(tricks_from_hand(h), start=1):
        r = api.put(C.format(match.pk) + f"tricks/{n}/", {"version": draft["version"], "plays": plays_json(trick)},
                    format="json")
        assert r.status_code == 200, r.json()
        draft = r.json()
    assert api.post(C.format(match.pk) + "finish/", {"version": draft["version"]}, format="json").status_code == 201


def checked_or_selected_trump(html: str) -> list[str]:
    radios = re.findall(r'<input[^>]*name="trump"[^>]*>', html)
    options = re.search(r'<select id="f-trump".*?</select>', html, re.S)
    chosen = [r for r in radios if " checked" in r]
    if options:
        chosen += [o for o in re.findall(r"<option[^>]*>", options.group(0)) if "selected" in o and 'value=""' not in o]
    return chosen


def test_the_first_hand_asks_for_dealer_and_trump(organizer: Any) -> None:
    match = ready_matches(organizer, 1)[0]
    client = Client()
    client.force_login(organizer)
    tricks = client.get(f"/matches/{match.pk}/score/tricks/").content.decode()
    assert 'id="f-dealer"' in tricks and 'id="known-dealer"' not in tricks
    assert not checked_or_selected_trump(tricks)
    totals = client.get(f"/matches/{match.pk}/score/").content.decode()
    assert 'name="dealer"' in totals and not checked_or_selected_trump(totals)


def test_after_a_trick_by_trick_hand_nothing_is_preset_and_the_dealer_is_known(organizer: Any) -> None:
    match = ready_matches(organizer, 1)[0]
    record_a_hand_trick_by_trick(organizer, match)
    match.refresh_from_db()
    assert match.hands_played == 1
    client = Client()
    client.force_login(organizer)
    tricks = client.get(f"/matches/{match.pk}/score/tricks/").content.decode()
    assert 'id="f-dealer"' not in tricks and 'id="known-dealer"' in tricks
    known = re.search(r'id="known-dealer">(.*?)</p>', tricks, re.S)
    assert known is not None and seat_names(match)[match.state["dealer"]] in known.group(1)
    assert not checked_or_selected_trump(tricks)
    totals = client.get(f"/matches/{match.pk}/score/").content.decode()
    assert 'name="dealer"' not in totals and not checked_or_selected_trump(totals)
