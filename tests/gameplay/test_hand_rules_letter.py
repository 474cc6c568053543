"""RULES.md §5.1 翻底 (the holder of the other copy deals), §5.2 the chaodi kitty shown to all, and
yongzhou-300's drawn tie for the next dealer (§6.4) in whole hands and in simulations."""

from __future__ import annotations

import itertools

import pytest
from gameplay.replay_views import replay_context

from gameplay.cards import parse_cards
from gameplay.hand import Hand, HandConfig, replay
from gameplay.simulate import YONGZHOU_SESSION, simulate_hand, simulate_hands
from scoring.api import score_hand_request
from scoring.partnership import MatchState

from .hand_helpers import arrange, bury_lowest, hand_of, pass_all


def c(text: str) -> list[int]:
    return parse_cards(text)


STATE = MatchState(levels=("7", "9"), dealer=2, hands_played=3)


def flipped_hand(kitty: str, seats: dict[int, str], *, state: MatchState | None = STATE) -> Hand:
    deck = arrange("chaodi", seats, kitty=kitty, start=state.dealer if state else 0)
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    h.deal_all()
    pass_all(h)
    return h


@pytest.mark.parametrize(("fourth", "holder", "trump", "level"), [
    ("C9", 1, "C", "9"),   # an opponent of the dealer holds the other ♣9: it deals at its side's level
    ("S2", 0, None, "7"),  # a 2: no trump; the dealer's partner holds the other ♠2
    ("BJ", 3, None, "9"),  # a joker: no trump
    ("H5", 2, "H", "7"),   # the dealer itself holds the other copy: it stays
])
def test_chaodi_flip_makes_the_holder_of_the_other_copy_the_dealer(fourth: str, holder: int, trump: str | None,
                                                                  level: str) -> None:
    h = flipped_hand(f"D4 D5 D6 {fourth}", {holder: fourth})
    assert h.flipped == c(fourth)[0] and h.trump == trump
    assert h.dealer == holder and h.level == level and h.kitty_holder == holder
    assert h.state is not None and h.state.dealer == holder
    trump_ev = next(e for e in h.log if e.kind == "trump")
    assert trump_ev.seat == holder and trump_ev.cards == tuple(c(fourth))
    bury_lowest(h)
    pass_all(h, "overturn")
    assert h.to_act() == ("play", holder)  # the new dealer leads


def test_chaodi_flip_with_both_copies_in_the_kitty_leaves_the_dealer() -> None:
    h = flipped_hand("D4 C9 D6 C9", {})
    assert h.flipped == c("C9")[0] and h.trump == "C" and h.dealer == 2 and h.level == "7"


def test_chaodi_first_hand_nobody_declares_the_flip_decides_trump_and_dealer() -> None:
    deck = arrange("chaodi", {3: "H5"}, kitty="D4 D5 D6 H5 LJ LJ BJ BJ")  # every joker in the kitty
    h = hand_of("chaodi", deck, first_hand=True)
    assert h.rules.option("first_hand_no_declaration") == "kitty_card"
    h.deal_all()
    pass_all(h)
    assert h.redeals == 0 and h.trump == "H" and h.dealer == 3 and h.level == "3"
    assert h.kitty_holder == 3


def test_chaodi_first_hand_both_copies_in_the_kitty_redeals() -> None:
    deck = arrange("chaodi", {}, kitty="D4 D5 D6 H5 LJ LJ H5 BJ")
    h = hand_of("chaodi", deck, first_hand=True)
    while not any(e.kind == "redeal" for e in h.log):
        if h.to_act()[0] == "deal":
            h.deal()
        else:
            seat = h.to_act()[1]
            assert seat is not None
            h.pass_(seat)
    kinds = [e.kind for e in h.log]
    assert h.redeals == 1 and kinds[-1] == "redeal" and "trump" not in kinds and h.phase == "deal"


# ---------------------------------------------------------------- §5.2 the kitty shown


def test_chaodi_kitty_as_dealt_is_shown_to_all_later_buries_stay_hidden() -> None:
    state = MatchState(levels=("8", "8"), dealer=0, hands_played=3)
    deck = arrange("chaodi", {0: "C8 LJ", 1: "S8 S8 LJ"}, kitty="D4 D5 D6 D7 D9 DJ DQ DK")
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    h.deal_all()
    h.declare(0, c("C8 LJ"))
    dealt_kitty = tuple(c("D4 D5 D6 D7 D9 DJ DQ DK"))
    for seat in range(4):
        obs = h.observation(seat)
        assert obs.shown_kitty == dealt_kitty
        taken = [e for e in obs.events if e.kind == "take_kitty"]
        assert len(taken) == 1 and taken[0].cards == dealt_kitty and taken[0].value == "shown"
    assert next(e for e in h.public_events(None) if e.kind == "take_kitty").cards == dealt_kitty
    bury_lowest(h)
    h.overturn(1, c("S8 S8 LJ"))  # 炒底: the overturner takes the buried kitty
    bury_lowest(h)
    for seat in (0, 2, 3):
        obs = h.observation(seat)
        takes = [e for e in obs.events if e.kind == "take_kitty"]
        assert takes[0].cards == dealt_kitty and takes[1].cards == ()  # the re-take stays hidden
        assert all(e.cards == () for e in obs.events if e.kind == "bury" and e.seat != seat)
    view = replay_context(h)
    assert sorted(x["code"] for x in view["kitty_shown"]) == sorted(["D4", "D5", "D6", "D7", "D9", "DJ", "DQ", "DK"])


def test_tractor_kitty_stays_hidden_from_the_others() -> None:
    state = MatchState(levels=("2", "2"), dealer=0, hands_played=3)
    h = Hand(HandConfig("tractor", state=state), seed=3)
    h.deal_all()
    pass_all(h)
    assert h.phase == "kitty"
    assert h.observation(1).shown_kitty is None
    assert all(e.cards == () for e in h.observation(1).events if e.kind == "take_kitty")


def test_chaodi_shown_kitty_is_in_the_replayed_log() -> None:
    rec = simulate_hand("chaodi", 5, 0, ["heuristic", "random"], keep_log=True)
    h = replay(rec["log"])
    first = next(e for e in h.log if e.kind == "take_kitty")
    assert first.value == "shown" and len(first.cards) == 8


# ---------------------------------------------------------------- yongzhou ties


def _tied_hands(players: int) -> list[dict]:
    recs = simulate_hands("yongzhou-300", 1, 0, 120, ["heuristic", "random"], players=players, keep_log=True)
    out = [r for r in recs if r["points"].count(max(r["points"])) > 1]
    assert out, "no tied hand found"
    return out[:3]


@pytest.mark.parametrize("players", [3, 4])
def test_yongzhou_whole_hand_tie_is_drawn_and_recorded(players: int) -> None:
    for rec in _tied_hands(players):
        pts = rec["points"]
        tied = [s for s, p in enumerate(pts) if p == max(pts)]
        draw = rec["outcome"]["tie_break"]
        assert draw in tied
        h = replay(rec["log"])  # the replay draws the same seat
        assert h.outcome is not None and h.outcome["tie_break"] == draw
        assert score_hand_request(h.score_request())["next_dealer"] == draw


def test_yongzhou_untied_hand_has_no_tie_break() -> None:
    rec = next(r for i in range(20)
               if (r := simulate_hand("yongzhou-300", 1, i, ["heuristic", "random"], players=4))["points"].count(
                   max(r["points"])) == 1)
    assert "tie_break" not in rec["outcome"]


def test_simulated_yongzhou_hands_are_dealt_from_the_last_winner() -> None:
    recs = simulate_hands("yongzhou-300", 4, 0, YONGZHOU_SESSION + 2, ["heuristic", "random"], players=3)
    for prev, rec in itertools.pairwise(recs):
        if rec["index"] % YONGZHOU_SESSION == 0:
            assert rec["start_seat"] == 0  # a new session: the first seated player
        else:
            assert rec["start_seat"] == prev["next_dealer"]
    assert recs[0]["start_seat"] == 0
    assert any(r["start_seat"] != r["index"] % 3 for r in recs)  # not a plain rotation
    # chunks (one starting inside a session) give the same hands as one run
    assert simulate_hands("yongzhou-300", 4, 5, 5, ["heuristic", "random"], players=3) == recs[5:]
