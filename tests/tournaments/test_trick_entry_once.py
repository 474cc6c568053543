"""Trick entry judges each entered play once and scores a complete hand once (issue 29): a request
rebuilds the hand from the stored tricks (each judged once), judges the new play once against that
state and answers from it; finishing records the hand the engine scored, without scoring it again."""

from __future__ import annotations

from typing import Any

import pytest

import gameplay.hand
import gameplay.record
import tournaments.services.hands
from gameplay.record import Recording, tricks_from_hand
from tests.tournaments.test_trick_entry import C, client_for, plays_json, ready_matches, start, tractor_hand
from tournaments.models import HandRecord

pytestmark = pytest.mark.django_db


def counting(monkeypatch: Any, owner: Any, name: str, calls: list[str]) -> None:
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def test_one_play_added_to_a_ten_trick_draft_is_judged_once(organizer: Any, monkeypatch: Any) -> None:
    (m, *_rest) = ready_matches(organizer)
    h = tractor_hand()
    api = client_for(organizer)
    draft = start(api, m, {"dealer": 0, "trump": h.trump or "NT"})
    tricks = tricks_from_hand(h)
    for n, t in enumerate(tricks[:10], start=1):
        r = api.put(C.format(m.pk) + f"tricks/{n}/", {"version": draft["version"], "plays": plays_json(t)},
                    format="json")
        assert r.status_code == 200, r.json()
        draft = r.json()
    calls: list[str] = []
    counting(monkeypatch, Recording, "judge", calls)
    counting(monkeypatch, gameplay.record, "replay_record", calls)
    r = api.post(C.format(m.pk) + "plays/", {"version": draft["version"], "play": tricks[10].plays[0].to_json()},
                 format="json")
    assert r.status_code == 200, r.json()
    # 10 stored tricks judged once each to rebuild the state, the new play once; nothing again for the answer
    assert calls == ["judge"] * 11
    body = r.json()
    assert body["judgement"]["next_seat"] == tricks[10].plays[1].seat
    assert len(body["derived"]["tricks"]) == 11 and body["derived"]["next_seat"] == tricks[10].plays[1].seat


def test_the_last_play_replays_the_hand_once_and_finishing_scores_it_once(organizer: Any, monkeypatch: Any) -> None:
    (m, *_rest) = ready_matches(organizer)
    h = tractor_hand()
    api = client_for(organizer)
    draft = start(api, m, {"dealer": 0, "trump": h.trump or "NT"})
    tricks = tricks_from_hand(h)
    for n, t in enumerate(tricks[:-1], start=1):
        r = api.put(C.format(m.pk) + f"tricks/{n}/", {"version": draft["version"], "plays": plays_json(t)},
                    format="json")
        draft = r.json()
    calls: list[str] = []
    counting(monkeypatch, gameplay.record, "replay_record", calls)
    counting(monkeypatch, gameplay.hand, "settle", calls)
    r = api.put(C.format(m.pk) + f"tricks/{len(tricks)}/", {"version": draft["version"],
                                                            "plays": plays_json(tricks[-1])}, format="json")
    assert r.status_code == 200 and r.json()["derived"]["complete"], r.json()
    assert calls == ["replay_record", "settle"]
    calls.clear()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the hand was scored again")

    monkeypatch.setattr(tournaments.services.hands, "score_outcome", refused)
    r = api.post(C.format(m.pk) + "finish/", {"version": r.json()["version"]}, format="json")
    assert r.status_code == 201, r.json()
    assert calls == ["replay_record", "settle"]  # derived once at the finish, scored by the engine only
    recorded = HandRecord.objects.get(match=m, number=1)
    assert recorded.outcome == h.outcome and recorded.result == r.json()["result"]
