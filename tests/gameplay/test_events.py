"""Typed log events (gameplay.events) and the declaring protocols chosen by the variant (gameplay.declaring)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import variants
from gameplay import events as ev
from gameplay.config import HandConfig
from gameplay.declaring import PROTOCOLS
from gameplay.hand import Hand
from gameplay.notation import event_from_text, event_text, log_from_text
from variants.behaviour import BEHAVIOURS

GOLDEN = Path(__file__).parent / "golden"
PAYLOAD = {ev.Declare: ("declared", str), ev.Pass: ("phase", str), ev.Bid: ("amount", int),
           ev.NameTrump: ("suit", str), ev.Trick: ("points", int), ev.Scored: ("outcome", str),
           ev.TakeKitty: ("shown", bool), ev.Overturn: ("declared", str)}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_stored_events_read_typed_and_write_back_unchanged(path: Path) -> None:
    """Every event of the stored golden logs becomes its own class with a typed payload, and writes back to
    exactly the stored JSON and text."""
    data = log_from_text(path.read_text(encoding="utf-8"))
    kinds = set()
    for raw in data["events"]:
        e = ev.event_from_json(raw)
        assert type(e) is ev.KINDS[raw["kind"]] and e.kind == raw["kind"]
        assert e.to_json() == raw
        assert event_from_text(event_text(e)) == e
        if type(e) in PAYLOAD:
            name, typ = PAYLOAD[type(e)]
            assert isinstance(getattr(e, name), typ), (raw, name)
        kinds.add(e.kind)
    assert {"shuffle", "deal", "play", "trick", "scored"} <= kinds and kinds & {"trump", "name_trump"}


def test_trump_payload_no_trump_is_none_and_NT_in_the_log() -> None:
    e = ev.event_from_json({"kind": "trump", "seat": 2, "value": "NT"})
    assert e == ev.Trump(2, (), None) and e.to_json()["value"] == "NT"
    assert ev.event_from_json({"kind": "trump", "seat": 2, "value": "H"}) == ev.Trump(2, (), "H")


@pytest.mark.parametrize("raw", [{"kind": "nope"}, {"kind": "bid", "seat": 1, "value": "120"},
                                 {"kind": "take_kitty", "seat": 0, "value": "hidden"}, {"kind": "trick", "seat": 1}])
def test_malformed_events_are_refused(raw: dict) -> None:
    with pytest.raises((KeyError, TypeError, ValueError)):
        ev.event_from_json(raw)


def test_redact_hides_cards_by_kind() -> None:
    deal = ev.Deal(1, (5,))
    assert ev.redact(deal, 1) == deal and ev.redact(deal, 2) == ev.Deal(1, ())
    assert ev.redact(ev.Shuffle(None, (1, 2)), None).cards == ()
    shown = ev.TakeKitty(0, (1, 2), True)
    assert ev.redact(shown, None) == shown and ev.redact(ev.TakeKitty(0, (1, 2)), None).cards == ()


@pytest.mark.parametrize("key", variants.VARIANT_KEYS)
def test_the_hand_asks_the_variant_for_its_declaring_protocol(key: str) -> None:
    v = variants.get(key)
    hand = Hand(HandConfig(key), seed=3)
    assert type(hand.protocol) is PROTOCOLS[v.declaring] and hand.protocol.declaring == v.declaring.key
    assert set(PROTOCOLS) == {cls.key for cls in BEHAVIOURS if issubclass(cls, variants.Declaring)}


def test_scored_outcome_is_the_sorted_outcome_json() -> None:
    import random

    from gameplay.bots import make_bot
    from gameplay.simulate import play_out

    hand = Hand(HandConfig("tractor"), seed=11)
    play_out(hand, [make_bot("random", random.Random(s)) for s in range(4)])
    last = hand.log[-1]
    assert isinstance(last, ev.Scored) and json.loads(last.outcome) == hand.outcome


def test_an_observations_events_are_a_fixed_view_of_the_public_log() -> None:
    """Observations view the public log instead of copying it: the view reads like the tuple it
    replaces and does not change when the log grows."""
    from gameplay.events import LogView
    from gameplay.hand import Hand, HandConfig

    h = Hand(HandConfig("tractor"), seed=3)
    for _ in range(10):
        h.deal()
    obs = h.observation(0)
    before = tuple(h.public_log)
    assert isinstance(obs.events, LogView)
    assert obs.events == before and before == obs.events and list(obs.events) == list(before)
    assert len(obs.events) == len(before) and obs.events[-1] is before[-1] and obs.events[0] is before[0]
    assert obs.events[2:5] == before[2:5] and hash(obs.events) == hash(before)
    with pytest.raises(IndexError):
        obs.events[len(before)]
    h.deal()
    assert obs.events == before and len(h.observation(0).events) == len(before) + 1
    assert h.observation(0).events != obs.events
