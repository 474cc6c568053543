"""Trick-by-trick entry through the REST API (issue 16): a real hand entered play by play and trick by
trick gives the same recorded hand as its totals; corrections, versions (409), permissions, every kind of
engine error and flag, import/export of the record, the hand's log, and the live stream."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from gameplay.bots import make_bot
from gameplay.hand import Hand
from gameplay.record import FLAG_CODES, HandFacts, Play, record_to_json, tricks_from_hand
from gameplay.simulate import make_hand, play_out
from scoring.partnership import MatchState
from tests.gameplay.test_record import TRACTOR, complete, deal, play
from tests.tournaments.factories import SHUTOUT, make_tournament
from tests.tournaments.test_pages_formats import individual, table_of
from tournaments.models import AuditEntry, HandRecord, Match, TrickDraft
from tournaments.services import Actor, hand_record
from tournaments.views.tricks import live_events

pytestmark = pytest.mark.django_db
C = "/api/v1/matches/{}/trick-entry/"


def ready_matches(owner: Any, n: int = 2, **kw: Any) -> list[Match]:
    t = make_tournament(owner=owner, teams=2 * n, **kw)
    return list(Match.objects.filter(stage__tournament=t, status="ready").order_by("position"))


def client_for(user: Any) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def tractor_hand(seed: int = 11) -> Hand:
    """An engine-played tractor hand with seat 0 dealing at level 2 (a match's first hand)."""
    h = make_hand("tractor", seed, state=MatchState(levels=("2", "2"), dealer=0, hands_played=1))
    play_out(h, [make_bot("heuristic", random.Random(seed + s)) for s in range(4)])
    assert h.dealer == 0 and h.finished
    return h


def plays_json(trick: Any) -> list[dict[str, Any]]:
    return [p.to_json() for p in trick.plays]


def start(api: APIClient, match: Match, facts: dict[str, Any]) -> dict[str, Any]:
    r = api.post(C.format(match.pk), {"facts": facts}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def test_a_real_hand_entered_trick_by_trick_is_recorded_like_its_totals(organizer: Any) -> None:
    m1, m2 = ready_matches(organizer)
    h = tractor_hand()
    api = client_for(organizer)
    draft = start(api, m1, {"dealer": 0, "trump": h.trump or "NT"})
    assert draft["number"] == 1 and draft["derived"]["next_seat"] == 0 and draft["hand_facts"]["level"] == "2"
    tricks = tricks_from_hand(h)
    # the first trick play by play: the engine names who plays next, then the winner
    for i, p in enumerate(tricks[0].plays):
        r = api.post(C.format(m1.pk) + "plays/", {"version": draft["version"], "play": p.to_json()}, format="json")
        assert r.status_code == 200, r.json()
        draft = r.json()
        j = draft["judgement"]
        if i < 3:
            assert j["next_seat"] == tricks[0].plays[i + 1].seat and j["winner"] is None
        else:
            assert j["next_seat"] is None and j["winner"] == h.tricks[0][2] and j["points"] == h.tricks[0][3]
    # the rest trick by trick
    for n, t in enumerate(tricks[1:], start=2):
        r = api.put(C.format(m1.pk) + f"tricks/{n}/", {"version": draft["version"], "plays": plays_json(t)},
                    format="json")
        assert r.status_code == 200, r.json()
        draft = r.json()
    derived = draft["derived"]
    assert derived["complete"] and derived["outcome"] == h.outcome and derived["flags"] == []
    assert [t["winner"] for t in derived["tricks"]] == [t[2] for t in h.tricks]
    r = api.post(C.format(m1.pk) + "finish/", {"version": draft["version"]}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    # the same hand entered by its totals at the other table
    totals = hand_record(match_id=m2.pk, outcome=h.outcome, version=m2.version, actor=Actor(organizer),
                         dealer=0, trump=h.trump)
    recorded = HandRecord.objects.get(match=m1, number=1)
    assert recorded.outcome == totals.hand.outcome and recorded.result == totals.hand.result == body["result"]
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert m1.state == m2.state and m1.hands_played == 1 and not TrickDraft.objects.filter(match=m1).exists()
    assert recorded.trick_log["format"] == "shengji-record/1" and len(recorded.trick_log["tricks"]) == len(h.tricks)
    assert recorded.trick_log["tricks"] == [plays_json(t) for t in tricks]
    log = api.get(f"/api/v1/matches/{m1.pk}/hands/1/log/")
    assert log.status_code == 200 and log.json()["tricks"] == recorded.trick_log["tricks"]
    assert api.get(f"/api/v1/matches/{m2.pk}/hands/1/log/").status_code == 404
    actions = list(AuditEntry.objects.filter(target=f"match:{m1.pk}").values_list("action", flat=True))
    assert "hand.record" in actions and "trick.finish" in actions and actions.count("trick.play") == 4
    # the next hand's dealer comes from the match; a wrong one is refused naming the fact
    r = api.post(C.format(m1.pk), {"facts": {"dealer": 3, "trump": "S"}}, format="json")
    expected = m1.state["dealer"]
    if expected != 3:
        assert r.status_code == 400 and "facts.dealer" in r.json()["errors"]


def test_versions_refuse_a_second_device_and_the_draft_survives_a_reload(organizer: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    draft = start(api, m, {"dealer": 0, "trump": "H"})
    r = api.post(C.format(m.pk), {"facts": {"dealer": 0, "trump": "H"}}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "draft_exists"
    phone = APIClient()  # another device with the table's link
    phone.credentials(HTTP_X_TABLE_TOKEN=m.scorer_token)
    same = phone.get(C.format(m.pk)).json()
    assert same["version"] == draft["version"] and same["facts"] == {"dealer": 0, "trump": "H"}
    ok = phone.post(C.format(m.pk) + "plays/", {"version": same["version"], "play": {"seat": 0, "cards": "SA"}},
                    format="json")
    assert ok.status_code == 200
    stale = api.post(C.format(m.pk) + "plays/", {"version": draft["version"], "play": {"seat": 0, "cards": "SK"}},
                     format="json")
    body = stale.json()
    assert stale.status_code == 409 and body["code"] == "stale_version" and body["current"]["version"] == ok.json()["version"]
    assert body["detail"] and TrickDraft.objects.get(match=m).tricks == [[{"kind": "play", "seat": 0, "cards": "SA"}]]
    assert AuditEntry.objects.filter(action="trick.play", via="token").count() == 1


def test_permissions_follow_hand_entry(organizer: Any, outsider: Any) -> None:
    (m, _other) = ready_matches(organizer)
    assert APIClient().post(C.format(m.pk), {"facts": {"dealer": 0}}, format="json").status_code == 401
    r = client_for(outsider).post(C.format(m.pk), {"facts": {"dealer": 0}}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    assert client_for(organizer).get(C.format(m.pk)).status_code == 404
    assert client_for(organizer).get(C.format(999999)).status_code == 404


def test_every_blocking_error_is_refused_with_its_code_and_nothing_is_stored(organizer: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    d = start(api, m, {"dealer": 0, "trump": "H"})
    url = C.format(m.pk)
    api.post(url + "plays/", {"version": d["version"], "play": {"seat": 0, "cards": "SA SA"}}, format="json")
    d = api.get(url).json()
    cases = [({"seat": 2, "cards": "S3 S4"}, "out_of_turn"), ({"seat": 1, "cards": "S3"}, "wrong_count"),
             ({"seat": 1, "cards": "S3 S3 S3"}, "wrong_count"), ({"seat": 1, "cards": "SA S3"}, "too_many_copies")]
    for play_, code in cases:
        r = api.post(url + "plays/", {"version": d["version"], "play": play_}, format="json")
        body = r.json()
        assert r.status_code == 400 and body["code"] == "entry_refused", body
        assert code in [i["code"] for i in body["issues"]] and body["errors"]["play"]
    r = api.put(url + "tricks/2/", {"version": d["version"], "plays": [{"seat": 0, "cards": "SK HK"}]}, format="json")
    assert r.status_code == 400 and "earlier_trick_invalid" in [i["code"] for i in r.json()["issues"]]
    r = api.put(url + "tricks/1/", {"version": d["version"], "plays": [{"seat": 0, "cards": "SK HK"}]}, format="json")
    assert r.status_code == 400 and [i["code"] for i in r.json()["issues"]] == ["mixed_lead"]
    r = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 1, "cards": "S1 S3"}}, format="json")
    assert r.status_code == 400 and "play.cards" in r.json()["errors"]
    r = api.post(url + "finish/", {"version": d["version"]}, format="json")
    assert r.status_code == 400 and "tricks" in r.json()["errors"]
    assert api.get(url).json()["version"] == d["version"]  # nothing stored


def test_a_corrected_trick_re_derives_everything_after_it(organizer: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    url = C.format(m.pk)
    d = start(api, m, {"dealer": 0, "trump": "H"})
    t1 = [{"seat": 0, "cards": "SA"}, {"seat": 1, "cards": "S3"}, {"seat": 2, "cards": "S4"}, {"seat": 3, "cards": "S5"}]
    t2 = [{"seat": 0, "cards": "C3"}, {"seat": 1, "cards": "C4"}, {"seat": 2, "cards": "CA"}, {"seat": 3, "cards": "C5"}]
    for n, t in ((1, t1), (2, t2)):
        d = api.put(url + f"tricks/{n}/", {"version": d["version"], "plays": t}, format="json").json()
    assert [t["winner"] for t in d["derived"]["tricks"]] == [0, 2] and d["derived"]["next_seat"] == 2
    # trick 1 was really won by seat 3: trick 2's leader is now wrong, and the engine says so
    fixed = [{"seat": 0, "cards": "S9"}, {"seat": 1, "cards": "S3"}, {"seat": 2, "cards": "S4"}, {"seat": 3, "cards": "SA"}]
    r = api.put(url + "tricks/1/", {"version": d["version"], "plays": fixed}, format="json")
    assert r.status_code == 200, r.json()
    d = r.json()
    assert d["derived"]["tricks"][0]["winner"] == 3
    assert {e["code"] for e in d["derived"]["tricks"][1]["errors"]} == {"out_of_turn"}
    d = api.put(url + "tricks/2/", {"version": d["version"], "plays": [t2[3], t2[0], t2[1], t2[2]]}, format="json").json()
    assert d["derived"]["errors"] == [] and d["derived"]["tricks"][1]["winner"] == 2
    assert AuditEntry.objects.filter(action="trick.correct", target=f"match:{m.pk}").count() == 2
    d = api.post(url + "undo/", {"version": d["version"]}, format="json").json()
    assert len(d["tricks"][1]) == 3
    assert api.post(url + "discard/", {"version": d["version"]}, format="json").status_code == 204
    assert not TrickDraft.objects.filter(match=m).exists()


FLAG_HANDS = {
    "illegal_follow": (2, {0: "S9 S9", 1: "S5 S5 S3"}, {(0, 0): ("S9 S9", None), (0, 1): ("S5 S3", None)}, {}),
    "throw_should_fail": (3, {0: "SK SQ", 1: "SA"}, {(0, 0): ("SK SQ", None)}, {}),
    "throw_stood": (4, {0: "SA SA SK"}, {(0, 0): ("SA SA SK", "SK")}, {}),
    "wrong_forced": (5, {0: "SK SQ", 1: "SA"}, {(0, 0): ("SK SQ", "SK")}, {}),
    "illegal_lead": (6, {0: "SQ", 1: "SA SK"}, {(0, 0): ("SK SQ", "SQ")}, {"extra": {0: "SK"}, "drop": {0: (0, 80)}}),
    "revoke": (7, {0: "C9", 1: "D3 C5"}, {(0, 0): ("C9", None), (0, 1): ("D3", None)}, {}),
}


def flag_record(code: str) -> dict[str, Any]:
    from gameplay.cards import parse_cards

    if code == "declaration_not_held":
        hands, _ = deal(TRACTOR, 8, {})
        h2 = parse_cards("H2")[0]
        seat = next(s for s in (1, 3) if hands[s][h2] == 0)
        facts = HandFacts("tractor", dealer=0, trump="H", level="2", declarations=((seat, (h2,)),))
        return record_to_json(facts, play(facts, hands))
    seed, wants, script, kw = FLAG_HANDS[code]
    if "drop" in kw:
        kw = {**kw, "drop": {0: (0, parse_cards("SK")[0])}}
    plays = {k: Play(k[1], tuple(parse_cards(c)), None if f is None else tuple(parse_cards(f)))
             for k, (c, f) in script.items()}
    tricks, _rec = complete(TRACTOR, seed, wants, plays, **kw)
    return record_to_json(TRACTOR, tricks)


@pytest.mark.parametrize("code", [c for c in FLAG_CODES if c != "throw_not_allowed"])
def test_every_full_hand_flag_through_the_api_import_and_finish(organizer: Any, code: str) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    url = C.format(m.pk)
    r = api.post(url + "record/", {"record": flag_record(code)}, format="json")
    assert r.status_code == 201, r.json()
    d = r.json()
    flags = d["derived"]["flags"]
    assert code in [f["code"] for f in flags] and all(not f["blocking"] and f["message"] for f in flags)
    exported = api.get(url + "record/").json()
    assert exported["format"] == "shengji-record/1" and exported["tricks"] == d["tricks"]
    # flags never block, but the ruling must be recorded
    r = api.post(url + "finish/", {"version": d["version"]}, format="json")
    assert r.status_code == 400 and "ruling" in r.json()["errors"]
    r = api.post(url + "finish/", {"version": d["version"], "ruling": "TD: the hand stands."}, format="json")
    assert r.status_code == 201, r.json()
    log = HandRecord.objects.get(match=m, number=1).trick_log
    assert code in [f["code"] for f in log["flags"]] and log["ruling"] == "TD: the hand stands."


def test_throw_not_allowed_and_revoke_are_flagged_as_entered_at_a_red_five_table(organizer: Any) -> None:
    _t, stage = individual(organizer, "red-five")
    table = table_of(stage)
    api = client_for(organizer)
    url = C.format(table.pk)
    d = start(api, table, {"dealer": 2, "trump": "S", "bid": 100})
    for p in ({"seat": 2, "cards": "HA HK"}, {"seat": 3, "cards": "H3 H4"}, {"seat": 0, "cards": "H6 H7"}):
        d = api.post(url + "plays/", {"version": d["version"], "play": p}, format="json").json()
    r = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 1, "cards": "H8 H9"}}, format="json")
    j = r.json()["judgement"]
    assert r.status_code == 200 and [f["code"] for f in j["flags"]] == ["throw_not_allowed"] and j["winner"] == 2
    assert j["flags"][0]["message"] and j["flags"][0]["zh"]
    d = r.json()
    d = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 2, "cards": "C9"}}, format="json").json()
    r = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 3, "cards": "H5"}}, format="json")
    assert r.status_code == 200 and "revoke" not in [f["code"] for f in r.json()["judgement"]["flags"]]
    d = r.json()
    d = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 0, "cards": "C3"}}, format="json").json()
    d = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 1, "cards": "C4"}}, format="json").json()
    assert d["derived"]["tricks"][1]["winner"] == 3  # the red five (H5) is the top trump
    r = api.post(url + "plays/", {"version": d["version"], "play": {"seat": 3, "cards": "CA"}}, format="json")
    flags = r.json()["judgement"]["flags"]
    assert r.status_code == 200 and [f["code"] for f in flags] == ["revoke"] and flags[0]["tricks"] == [1, 2]


def test_a_red_five_table_hand_is_recorded_through_the_table_service(organizer: Any) -> None:
    _t, stage = individual(organizer, "red-five")
    table = table_of(stage)
    facts = HandFacts("red-five", dealer=1, trump="S", bid=80, decks=2)
    hands, _kitty = deal(facts, 21, {})
    tricks = play(facts, hands)
    api = client_for(organizer)
    url = C.format(table.pk)
    r = api.post(url + "record/", {"record": record_to_json(facts, tricks)}, format="json")
    assert r.status_code == 201, r.json()
    d = r.json()
    assert d["derived"]["complete"]
    r = api.post(url + "finish/", {"version": d["version"]}, format="json")
    assert r.status_code == 201, r.json()
    hand = HandRecord.objects.get(match=table, number=1)
    assert hand.outcome == d["derived"]["outcome"] and hand.dealer == 1 and hand.trick_log is not None
    table.refresh_from_db()
    assert table.state["totals"] == hand.result["game_points"]
    assert AuditEntry.objects.filter(action="table.hand", target=f"match:{table.pk}").exists()


def test_import_refuses_another_variant_and_bad_records(organizer: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    url = C.format(m.pk)
    red = record_to_json(HandFacts("red-five", dealer=0, trump="S", bid=80), [])
    r = api.post(url + "record/", {"record": red}, format="json")
    assert r.status_code == 400 and "record.facts.variant" in r.json()["errors"]
    r = api.post(url + "record/", {"record": {"format": "nope"}}, format="json")
    assert r.status_code == 400 and "record" in r.json()["errors"]


def test_a_hand_recorded_by_totals_meanwhile_makes_the_draft_stale(organizer: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    d = start(api, m, {"dealer": 0, "trump": "H"})
    m.refresh_from_db()
    hand_record(match_id=m.pk, outcome=SHUTOUT, version=m.version, actor=Actor(organizer), dealer=0)
    r = api.post(C.format(m.pk) + "plays/", {"version": d["version"], "play": {"seat": 0, "cards": "SA"}},
                 format="json")
    assert r.status_code == 409 and r.json()["code"] == "hand_recorded"


def test_the_live_stream_sends_the_state_then_every_change(organizer: Any, client: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    d = start(api, m, {"dealer": 0, "trump": "H"})
    events = live_events(m.pk, seconds=5, poll=0.01)
    assert next(events).startswith("retry:")
    first = json.loads(next(events).split("data: ", 1)[1])
    assert first["hand"]["number"] == 1 and first["hand"]["next_seat"] == 0 and first["hand"]["trick"] is None
    api.post(C.format(m.pk) + "plays/", {"version": d["version"], "play": {"seat": 0, "cards": "SA"}}, format="json")
    second = json.loads(next(events).split("data: ", 1)[1])
    assert second["hand"]["trick"]["plays"] == [{"kind": "play", "seat": 0, "cards": "SA"}]
    assert second["hand"]["played"][0] == ["SA"] and second["hand"]["next_seat"] == 1
    assert second["levels"] is None or second["levels"] == ["2", "2"]
    page = client.get(f"/matches/{m.pk}/live/?big=1")
    assert page.status_code == 200 and b"live-big" in page.content
    stream = client.get(f"/matches/{m.pk}/live/stream/")
    assert stream.status_code == 200 and stream["Content-Type"].startswith("text/event-stream")
    stream.close()


def test_pages_need_a_scorer_or_the_table_link(organizer: Any, outsider: Any, client: Any) -> None:
    (m, _other) = ready_matches(organizer)
    assert client.get(f"/t/{m.scorer_token}/tricks/").status_code == 200
    assert client.get("/t/nope/tricks/").status_code == 404
    client.force_login(outsider)
    assert client.get(f"/matches/{m.pk}/score/tricks/").status_code == 403
    client.force_login(organizer)
    page = client.get(f"/matches/{m.pk}/score/tricks/")
    assert page.status_code == 200 and b"trick-config" in page.content
    assert b"trick-entry-link" in client.get(f"/matches/{m.pk}/score/").content
    m.stage.tournament.is_public = False
    m.stage.tournament.save()
    client.logout()
    assert client.get(f"/matches/{m.pk}/live/").status_code == 404


def test_the_schema_lists_the_trick_entry_api(client: Any) -> None:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/trick-entry/plays/", "/trick-entry/finish/", "/trick-entry/record/", "/hands/{number}/log/"):
        assert path in schema, path


def test_the_replay_page_steps_through_a_recorded_hand_and_a_pasted_record(organizer: Any, client: Any) -> None:
    (m, _other) = ready_matches(organizer)
    api = client_for(organizer)
    h = tractor_hand(5)
    record = record_to_json(HandFacts("tractor", dealer=0, trump=h.trump, level="2"), tricks_from_hand(h))
    d = api.post(C.format(m.pk) + "record/", {"record": record}, format="json").json()
    assert api.post(C.format(m.pk) + "finish/", {"version": d["version"]}, format="json").status_code == 201
    page = client.get(f"/matches/{m.pk}/hands/1/replay/")
    html = page.content.decode()
    assert page.status_code == 200 and 'id="replay-stepper"' in html and "replay-steps.js" in html
    assert html.count('class="replay-trick"') == len(h.tricks)
    assert f'id="trick-{len(h.tricks)}"' in html and "shengji-record/1" not in html  # a tournament page, no record formats
    pasted = client.post("/replay/", {"log": json.dumps(record)})
    assert pasted.status_code == 200 and pasted.content.decode().count('class="replay-trick"') == len(h.tricks)
    incomplete = dict(record, tricks=record["tricks"][:3])
    bad = client.post("/replay/", {"log": json.dumps(incomplete)})
    assert bad.status_code == 400 and "not a complete hand" in bad.content.decode()
    assert client.get(f"/matches/{m.pk}/hands/9/replay/").status_code == 404
