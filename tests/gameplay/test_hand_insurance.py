"""Chaodi's insurance (定主, RULES.md §5.1) as its own action: the dealer shows the pair of the trump
level card after its declaration stands and before burying; later overturns must beat that pair in the
overturn order (BJ BJ > LJ LJ > ♠ > ♥ > ♣ > ♦)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from gameplay.bots import HeuristicBot, RandomBot, make_bot
from gameplay.cards import parse_cards
from gameplay.config import HandConfig
from gameplay.errors import IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from gameplay.events import Insure
from gameplay.hand import Hand
from gameplay.notation import InvalidLog, log_from_text, log_text, replay
from gameplay.simulate import play_out, simulate_hand
from scoring.partnership import MatchState

from .hand_helpers import arrange, bury_lowest, check_hand, deal_rounds, hand_of, pass_all

STATE = MatchState(levels=("8", "8"), dealer=0, hands_played=3)


def c(text: str) -> list[int]:
    return parse_cards(text)


def t(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def declared(seats: dict[int, str], declaration: str = "H8 BJ", *, kitty: str = "", seed: int = 0) -> Hand:
    """A later chaodi hand (level 8, dealer 0) dealt out, the dealer having declared ``declaration``."""
    h = Hand(HandConfig("chaodi", state=STATE), deck=arrange("chaodi", seats, kitty, seed=seed))
    h.deal_all()
    assert h.to_act() == ("declare", 0)
    assert h.declare(0, c(declaration)).value == "declare"
    assert h.phase == "kitty" and h.to_act() == ("bury", 0)
    return h


# ---------------------------------------------------------------- who, when, with what


def test_only_the_dealer_with_the_pair_of_the_trump_level_card_insures() -> None:
    h = declared({0: "H8 H8 BJ", 1: "D8 D8 BJ LJ LJ"})
    assert h.legal_insurances(0) == [t("H8 H8")]
    assert h.can_insure(0) and h.can_insure(0, c("H8 H8"))
    for seat in (1, 2, 3):
        assert h.legal_insurances(seat) == [] and not h.can_insure(seat, c("H8 H8"))
    with pytest.raises(OutOfTurn) as e:
        h.verify_insure(1, c("D8 D8"))
    assert "only the dealer (seat 1) insures" in str(e.value) and "RULES §5.1" in str(e.value)
    assert "只有庄家（1号座位）" in e.value.message("zh-hans")  # 0-based seat 0, as people count it
    with pytest.raises(IllegalPlay) as e2:
        h.verify_insure(0, c("H8 BJ"))  # the pair alone, no joker
    assert "pair of the trump level card, H8 H8" in str(e2.value)
    ev = h.insure(0)
    assert ev == Insure(0, t("H8 H8")) and h.log[-1] == ev
    assert h.declaration.kind == "insured" and h.declaration.strength == 3 and h.trump == "H"
    assert h.to_act() == ("bury", 0) and h.phase == "kitty"  # insuring does not end the kitty phase
    with pytest.raises(IllegalPlay, match="already insured"):
        h.verify_insure(0)
    assert h.legal_insurances(0) == []


def test_the_dealer_needs_the_pair() -> None:
    h = declared({0: "H8 BJ", 2: "H8"})  # the other ♥8 is the partner's
    assert h.legal_insurances(0) == []
    with pytest.raises(InvalidCards, match="does not hold H8 H8"):
        h.verify_insure(0)


def test_an_opponent_who_became_dealer_insures_its_declaration() -> None:
    deck = arrange("chaodi", {1: "S8 S8 LJ"})
    h = Hand(HandConfig("chaodi", state=STATE), deck=deck)
    h.deal_all()
    while h.to_act()[1] != 1:
        h.pass_(h.to_act()[1])
    h.declare(1, c("S8 LJ"))
    assert h.dealer == 1 and h.phase == "kitty"
    with pytest.raises(OutOfTurn, match="only the dealer"):
        h.verify_insure(0)  # the old dealer no longer is
    h.insure(1, c("S8 S8"))
    assert h.declaration.kind == "insured" and h.declaration.strength == 4


def test_wrong_phase_names_the_rule() -> None:
    deck = arrange("chaodi", {0: "H8 H8 BJ"})
    h = Hand(HandConfig("chaodi", state=STATE), deck=deck)
    with pytest.raises(WrongPhase) as e:
        h.verify_insure(0)  # still dealing
    assert "before it buries the kitty" in str(e.value) and "RULES §5.1" in str(e.value)
    assert "扣底之前" in e.value.message("zh-hans")
    h.deal_all()
    with pytest.raises(WrongPhase):
        h.insure(0, c("H8 H8"))  # declaring: the declaration does not stand yet
    h.declare(0, c("H8 BJ"))
    bury_lowest(h)
    assert h.phase in ("overturn", "play")
    with pytest.raises(WrongPhase, match="before it buries the kitty"):
        h.insure(0, c("H8 H8"))
    assert h.legal_insurances(0) == []


def test_no_insurance_without_a_declaration_in_a_first_hand_or_in_other_variants() -> None:
    # trump from the kitty's 4th card: nobody can declare (every joker is in the kitty)
    deck = arrange("chaodi", {0: "C8 C8 C5"}, kitty="LJ LJ BJ C5 BJ")  # seat 0 holds the other ♣5: it deals
    h = Hand(HandConfig("chaodi", state=STATE), deck=deck)
    h.deal_all()
    pass_all(h)
    assert h.trump == "C" and h.flipped == c("C5")[0] and h.phase == "kitty" and h.dealer == 0
    with pytest.raises(IllegalPlay, match="kitty card"):
        h.verify_insure(0, c("C8 C8"))
    # a match's first hand has no overturn round
    first = hand_of("chaodi", arrange("chaodi", {1: "H3 BJ H3"}), first_hand=True)
    deal_rounds(first, 2)
    first.declare(1, c("H3 BJ"))
    first.deal_all()
    assert first.phase == "kitty" and first.dealer == 1
    with pytest.raises(IllegalPlay, match="first hand"):
        first.verify_insure(1, c("H3 H3"))
    tractor = hand_of("tractor", arrange("tractor", {0: "H2 H2"}))
    with pytest.raises(IllegalPlay, match="chaodi only"):
        tractor.verify_insure(0)


# ---------------------------------------------------------------- what insurance changes


def test_after_insurance_a_joker_pair_still_overturns_but_a_weaker_pair_does_not() -> None:
    h = declared({0: "H8 H8 BJ", 1: "D8 D8 BJ LJ LJ"})
    h.insure(0, c("H8 H8"))  # ♥ pair stands
    bury_lowest(h)
    assert h.to_act() == ("overturn", 1)
    assert h.legal_overturns(1) == [t("LJ LJ")]  # ♦ pair + BJ no longer
    with pytest.raises(IllegalPlay) as e:
        h.overturn(1, c("D8 D8 BJ"))
    assert "stronger than what stands" in str(e.value)
    h.overturn(1, c("LJ LJ"))  # LJ LJ > ♥ pair
    assert h.trump is None and h.kitty_holder == 1


def test_without_insurance_the_same_weaker_overturn_succeeds() -> None:
    h = declared({0: "H8 H8 BJ", 1: "D8 D8 BJ LJ LJ"})
    bury_lowest(h)
    assert t("D8 D8 BJ") in h.legal_overturns(1)
    h.overturn(1, c("D8 D8 BJ"))
    assert h.trump == "D" and h.dealer == 0 and h.kitty_holder == 1


def test_spade_insurance_yields_only_to_joker_pairs() -> None:
    """♠ is the strongest suit pair: after a ♠ insurance only BJ BJ (or LJ LJ) overturns. (With two decks
    nobody else can hold LJ LJ here: the ♠ declaration shows one of the two little jokers.)"""
    h = declared({0: "S8 S8 LJ", 1: "H8 H8 BJ BJ"}, "S8 LJ")
    h.insure(0)
    assert h.declaration.strength == 4
    bury_lowest(h)
    assert h.to_act() == ("overturn", 1) and h.legal_overturns(1) == [t("BJ BJ")]
    with pytest.raises(IllegalPlay, match="stronger than what stands"):
        h.overturn(1, c("H8 H8 BJ"))
    h.overturn(1, c("BJ BJ"))
    assert h.trump is None


def test_the_original_declarer_is_still_kept_for_the_overturn_round() -> None:
    """The insuring dealer is the original declarer: it may overturn only after someone else has."""
    h = declared({0: "H8 H8 BJ", 1: "D8 D8 BJ LJ LJ"})
    h.insure(0)
    bury_lowest(h)
    assert h.overturner_original == 0
    pass_all(h, "overturn")
    assert h.phase == "play" and h.trump == "H" and h.to_act() == ("play", 0)


# ---------------------------------------------------------------- log and replay


def insured_hand() -> Hand:
    h = declared({0: "H8 H8 BJ", 1: "D8 D8 BJ LJ LJ"})
    h.insure(0)
    bury_lowest(h)
    play_out(h, [make_bot("heuristic", random.Random(s)) for s in range(4)])
    return h


def test_the_insure_event_is_logged_public_and_replays() -> None:
    h = insured_hand()
    check_hand(h, referee=True)  # replays the JSON log
    ev = Insure(0, t("H8 H8"))
    i = h.log.index(ev)
    assert [e.kind for e in h.log[i - 2:i + 2]] == ["trump", "take_kitty", "insure", "bury"]
    assert ev in h.public_events(None) and ev in h.observation(2).events
    again = replay(json.loads(h.dumps()))
    assert again.log == h.log and any(d.kind == "insured" for d in again.declarations)
    text = log_text(h.to_json())
    assert 'insure 0: H8 H8 ["insured"]' in text.splitlines()
    assert replay(log_from_text(text)).log == h.log


@pytest.mark.parametrize(("change", "words"), [
    (lambda e: e.update(seat=2), "only the dealer"),
    (lambda e: e.update(cards="H8 BJ"), "pair of the trump level card"),
    (lambda e: e.pop("cards"), "pair of the trump level card"),
])
def test_a_tampered_insure_event_is_refused(change, words: str) -> None:
    data = insured_hand().to_json()
    bad = copy.deepcopy(data)
    i = next(k for k, e in enumerate(bad["events"]) if e["kind"] == "insure")
    change(bad["events"][i])
    with pytest.raises(InvalidLog) as e:
        replay(bad)
    assert e.value.index == i and f"Event {i}" in str(e.value) and "refused" in str(e.value)
    assert words in str(e.value)


def test_an_insure_event_where_none_is_allowed_is_refused() -> None:
    data = insured_hand().to_json()
    bad = copy.deepcopy(data)
    i = next(k for k, e in enumerate(bad["events"]) if e["kind"] == "insure")
    ins = bad["events"].pop(i)
    j = next(k for k, e in enumerate(bad["events"]) if e["kind"] == "play")
    bad["events"].insert(j, ins)  # insurance in the play phase
    with pytest.raises(InvalidLog) as e:
        replay(bad)
    assert e.value.index == j and "before it buries the kitty" in str(e.value)


# ---------------------------------------------------------------- bots


def test_heuristic_insures_a_good_trump_suit_and_not_a_poor_one() -> None:
    bot = HeuristicBot(random.Random(0))
    good = declared({0: "H8 H8 BJ HA HA HK HK HQ HQ HJ HJ", 1: "S8"})
    assert bot.insure(good.observation(0), good.legal_insurances(0)) == t("H8 H8")
    poor = declared({0: "H8 H8 BJ SA SA SK SK SQ SQ SJ SJ S10 S10 S9 S9", 1: "S8"})
    assert poor.legal_insurances(0) == [t("H8 H8")]
    assert bot.insure(poor.observation(0), poor.legal_insurances(0)) is None


def test_random_bot_insures_or_not_and_runs_replay() -> None:
    bot = RandomBot(random.Random(1))
    h = declared({0: "H8 H8 BJ"})
    picks = {bot.insure(h.observation(0), h.legal_insurances(0)) for _ in range(40)}
    assert picks == {None, t("H8 H8")}
    found = 0
    for i in range(120):
        rec = simulate_hand("chaodi", 5, i, ["random"], keep_log=True)
        if any(e["kind"] == "insure" for e in rec["log"]["events"]):
            found += 1
            assert replay(rec["log"]).to_json() == rec["log"]
            if found == 2:
                break
    assert found
