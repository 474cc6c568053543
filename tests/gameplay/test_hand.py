"""The whole-hand state machine (RULES.md §5): dealing, declaring per variant, kitty, play, outcome."""

from __future__ import annotations

import pytest

from gameplay.cards import format_cards, parse_cards
from gameplay.config import HandConfig
from gameplay.errors import IllegalPlay, InvalidCards, OutOfTurn, WrongPhase
from gameplay.hand import Hand
from scoring.api import score_hand_request
from scoring.partnership import MatchState

from .hand_helpers import arrange, bury_lowest, deal_rounds, hand_of, pass_all


def c(text: str) -> list[int]:
    return parse_cards(text)


# ---------------------------------------------------------------- dealing


def test_deal_one_card_at_a_time_in_play_order_from_a_fixed_deck() -> None:
    deck = arrange("tractor", {0: "SA", 1: "HA", 2: "CA", 3: "DA"}, start=2)
    h = Hand(HandConfig("tractor", state=MatchState(levels=("2", "2"), dealer=2, hands_played=1)), deck=deck)
    assert h.start_seat == 2
    seats = [h.deal().seat for _ in range(5)]
    assert seats == [2, 3, 0, 1, 2]
    assert h.seat_cards(2)[0] == c("CA")[0] or c("CA")[0] in h.seat_cards(2)
    assert h.log[0].kind == "shuffle" and len(h.log[0].cards) == 108


def test_seeded_deal_is_reproducible_and_a_redeal_is_logged() -> None:
    a = Hand(HandConfig("tractor"), seed=5)
    b = Hand(HandConfig("tractor"), seed=5)
    assert a.deck == b.deck and a.first_hand
    a.deal_all()
    pass_all(a)  # first hand, nobody declares → redeal (RULES §5.1 [decided])
    assert a.phase == "deal" and a.redeals == 1 and a.log[-1].kind == "redeal"
    assert a.deck != b.deck


def test_legal_declarations_follow_the_cards_dealt() -> None:
    deck = arrange("tractor", {1: "H2 C5 H2"})
    h = hand_of("tractor", deck)
    h.deal()
    assert h.legal_declarations(1) == []
    h.deal()  # seat 1 receives H2
    assert [format_cards(x) for x in h.legal_declarations(1)] == ["H2"]
    deal_rounds(h, 2)
    h.deal()
    h.deal()  # seat 1 receives its second H2
    assert sorted(format_cards(x) for x in h.legal_declarations(1)) == ["H2", "H2 H2"]


# ---------------------------------------------------------------- tractor


def test_tractor_first_shown_then_first_pair_stands_then_joker_pairs() -> None:
    deck = arrange("tractor", {0: "LJ LJ", 1: "H2 H2", 2: "S2 S2", 3: "D2 BJ BJ"}, start=0)
    h = hand_of("tractor", deck, first_hand=True)
    deal_rounds(h, 1)
    ev = h.declare(1, c("H2"))
    assert (ev.kind, ev.value) == ("declare", "declare") and h.declaration.suit == "H"
    with pytest.raises(IllegalPlay) as e:
        h.declare(3, c("D2"))
    assert "first shown" in str(e.value) and "先亮为准" in e.value.message("zh-hans")
    deal_rounds(h, 1)
    assert h.declare(2, c("S2 S2")).value == "overturn"
    with pytest.raises(IllegalPlay) as e2:
        h.declare(1, c("H2 H2"))  # 自保 comes too late: the first pair stands
    assert "first one stands" in str(e2.value)
    h.declare(0, c("LJ LJ"))
    assert h.declaration.suit is None
    deal_rounds(h, 1)
    h.declare(3, c("BJ BJ"))
    with pytest.raises(IllegalPlay):
        h.declare(0, c("LJ LJ"))
    h.deal_all()
    pass_all(h)
    assert h.trump is None and h.dealer == 1  # 争庄: the first declarer deals
    assert h.phase == "kitty" and h.kitty_holder == 1


def test_tractor_reinforce_and_self_overturn() -> None:
    deck = arrange("tractor", {1: "H2 H2 C2 C2"})
    h = hand_of("tractor", deck)
    deal_rounds(h, 1)
    h.declare(1, c("H2"))
    deal_rounds(h, 1)
    assert h.can_declare(1, c("H2 H2")) and h.judge_declaration(1, c("H2 H2")).kind == "reinforce"
    deal_rounds(h, 2)
    assert h.declare(1, c("C2 C2")).value == "self_overturn"
    assert h.declaration.suit == "C"


def test_tractor_later_hand_without_declaration_is_no_trump_and_dealer_stays() -> None:
    h = Hand(HandConfig("tractor", state=MatchState(levels=("5", "9"), dealer=3, hands_played=4)), seed=11)
    h.deal_all()
    pass_all(h)
    assert h.trump is None and h.dealer == 3 and h.level == "9"
    assert h.log[-2].kind == "trump" and h.log[-2].value == "NT"


def test_out_of_turn_and_wrong_phase_errors_name_the_seat() -> None:
    h = Hand(HandConfig("tractor"), seed=3)
    with pytest.raises(WrongPhase):
        h.bury(0, [])
    with pytest.raises(WrongPhase):
        h.play(0, c("S3"))
    h.deal_all()
    kind, seat = h.to_act()
    assert kind == "declare"
    other = (seat + 1) % 4
    with pytest.raises(OutOfTurn) as e:
        h.pass_(other)
    # messages count seats from 1, as people do: the 0-based seat ``other`` is "Seat other+1"
    assert f"Seat {other + 1} cannot pass now" in str(e.value) and f"{other + 1}号座位" in e.value.message("zh-hans")
    assert f"seat {seat + 1}'s turn" in str(e.value)


# ---------------------------------------------------------------- chaodi


def test_chaodi_first_hand_level_card_with_joker_of_its_colour_makes_the_dealer() -> None:
    deck = arrange("chaodi", {2: "H3 LJ BJ", 1: "S3 LJ"})
    h = hand_of("chaodi", deck, first_hand=True)
    deal_rounds(h, 2)
    with pytest.raises(IllegalPlay) as e:
        h.declare(2, c("H3 LJ"))  # ♥ goes with the big joker
    assert "colour" in str(e.value)
    assert h.declare(1, c("S3 LJ")).value == "declare"
    deal_rounds(h, 1)
    assert not h.can_declare(2, c("H3 BJ"))  # the first declaration stands in the first hand
    h.deal_all()
    assert h.dealer == 1 and h.trump == "S" and h.phase == "kitty"
    bury_lowest(h)
    assert h.phase == "play"  # no overturn round in the first hand


def test_chaodi_later_hand_order_and_opponent_takes_the_deal_at_its_own_level() -> None:
    state = MatchState(levels=("7", "Q"), dealer=0, hands_played=3)
    deck = arrange("chaodi", {1: "HQ BJ", 0: "S7", 2: "D7"})
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    assert not h.can_declare(1, c("HQ BJ"))  # later hands: declare after the deal
    h.deal_all()
    assert h.to_act() == ("declare", 1) or h.to_act()[1] in (0, 2, 1)
    # dealer (0) and partner (2) hold no level card with a matching joker here: opponent 1 declares
    while h.to_act()[1] != 1:
        h.pass_(h.to_act()[1])
    h.declare(1, c("HQ BJ"))
    assert h.dealer == 1 and h.level == "Q" and h.trump == "H"


def test_chaodi_nobody_declares_turns_the_kitty_fourth_card() -> None:
    state = MatchState(levels=("7", "9"), dealer=2, hands_played=3)
    for fourth, trump in (("C9", "C"), ("S2", None), ("BJ", None)):
        deck = arrange("chaodi", {2: fourth}, kitty=f"D4 D5 D6 {fourth}", start=2)  # the dealer holds the other copy
        h = Hand(HandConfig("chaodi", state=state), deck=deck)
        h.deal_all()
        pass_all(h)
        assert h.trump == trump and h.dealer == 2 and h.flipped == c(fourth)[0]


def test_chaodi_overturn_round_fries_the_kitty_and_insurance_raises_the_bar() -> None:
    state = MatchState(levels=("8", "8"), dealer=0, hands_played=3)
    deck = arrange("chaodi", {0: "C8 C8 LJ H8", 1: "S8 S8 LJ D8 D8", 3: "BJ BJ"})
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    h.deal_all()
    assert h.to_act() == ("declare", 0)
    assert h.declare(0, c("C8 C8 LJ")).value == "insured"  # 定主: a ♣ pair stands
    assert h.phase == "kitty" and h.kitty_holder == 0
    bury_lowest(h)
    assert h.phase == "overturn" and h.to_act() == ("overturn", 1)
    with pytest.raises(IllegalPlay) as e:
        h.overturn(1, c("D8 D8 LJ"))  # ♦ goes with the big joker
    assert "colour" in str(e.value)
    h.overturn(1, c("S8 S8 LJ"))  # ♠ pair > insured ♣ pair
    assert h.trump == "S" and h.dealer == 0 and h.kitty_holder == 1 and h.phase == "kitty"
    assert len(h.seat_cards(1)) == 25 + 8
    bury_lowest(h)
    assert h.to_act()[0] == "overturn"
    while h.to_act()[1] != 3:
        h.pass_(h.to_act()[1])
    h.overturn(3, c("BJ BJ"))
    assert h.trump is None and h.kitty_holder == 3
    bury_lowest(h)
    pass_all(h, "overturn")
    assert h.phase == "play" and h.to_act() == ("play", 0)  # the dealer leads
    kinds = [e.kind for e in h.log if e.kind in ("overturn", "take_kitty", "bury")]
    assert kinds == ["take_kitty", "bury", "overturn", "take_kitty", "bury", "overturn", "take_kitty", "bury"]


def test_chaodi_original_declarer_overturns_only_after_someone_else() -> None:
    state = MatchState(levels=("8", "8"), dealer=0, hands_played=3)
    deck = arrange("chaodi", {0: "D8 BJ S8 S8 LJ"})
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    h.deal_all()
    h.declare(0, c("D8 BJ"))
    bury_lowest(h)
    # nobody else can overturn and seat 0 may not overturn itself: the round ends at once
    assert h.phase == "play" or h.to_act()[1] != 0


# ---------------------------------------------------------------- yongzhou-300


def deal_until_asked(h: Hand, *, keep: tuple[int, ...] = ()) -> tuple[str, int | None]:
    """Deal until a seat in ``keep`` is asked to declare (other seats' offers are passed)."""
    while True:
        kind, seat = h.to_act()
        if kind == "deal":
            h.deal()
        elif kind == "declare" and seat not in keep:
            h.pass_(seat)
        else:
            return kind, seat


def test_yongzhou_seed_000_overturn_chain() -> None:
    """Seed 000 ②: B declares ♥10; C ♦ pair, D ♣ pair, A ♠ pair, B LJ pair, C BJ pair (B=0, C=1, D=2, A=3)."""
    deck = arrange("yongzhou-300", {0: "H10 LJ LJ", 1: "D10 D10 BJ BJ", 2: "C10 C10", 3: "S10 S10"}, seed=3)
    h = hand_of("yongzhou-300", deck)
    deal_rounds(h, 1)
    h.declare(0, c("H10"))
    everyone = (0, 1, 2, 3)
    assert deal_until_asked(h, keep=everyone) == ("declare", 1)
    assert not h.can_deal()  # dealing waits for the offered seat
    h.declare(1, c("D10 D10"))
    assert deal_until_asked(h, keep=everyone) == ("declare", 2)
    h.declare(2, c("C10 C10"))
    assert deal_until_asked(h, keep=everyone) == ("declare", 3)
    h.declare(3, c("S10 S10"))
    assert deal_until_asked(h, keep=everyone) == ("declare", 0)
    h.declare(0, c("LJ LJ"))
    assert h.declaration.suit is None
    assert deal_until_asked(h, keep=everyone) == ("declare", 1)
    h.declare(1, c("BJ BJ"))
    assert [(d.seat, d.suit, d.strength) for d in h.declarations] == [
        (0, "H", 1), (1, "D", 2), (2, "C", 3), (3, "S", 5), (0, None, 6), (1, None, 7)]


def test_yongzhou_a_weaker_pair_cannot_overturn() -> None:
    """Seed 000 ③: after ♠10 and a ♥ pair, nobody may overturn with ♦ or ♣ pairs."""
    deck = arrange("yongzhou-300", {0: "S10", 1: "H10 H10", 2: "C10 C10"}, seed=5)
    h = hand_of("yongzhou-300", deck)
    deal_rounds(h, 1)
    h.declare(0, c("S10"))
    assert deal_until_asked(h, keep=(1,)) == ("declare", 1)
    h.declare(1, c("H10 H10"))
    assert not h.can_declare(2, c("C10 C10")) and h.legal_declarations(2) == []


def test_yongzhou_passing_an_offered_overturn_forfeits_it() -> None:
    deck = arrange("yongzhou-300", {0: "H10", 1: "D10 D10 C10 C10"}, seed=1)
    h = hand_of("yongzhou-300", deck)
    deal_rounds(h, 1)
    h.declare(0, c("H10"))
    assert deal_until_asked(h, keep=(1,)) == ("declare", 1)
    h.pass_(1)
    for _ in range(8):
        deal_until_asked(h)
        if h.can_deal():
            h.deal()
    assert 1 in h.forfeited
    with pytest.raises(IllegalPlay) as e:
        h.judge_declaration(1, c("C10 C10"))
    assert "passed an offered overturn" in str(e.value)


def test_yongzhou_reinforce_suit_limit_and_declarer_leads() -> None:
    deck = arrange("yongzhou-300", {2: "S10 S10", 3: "H10 H10"}, seed=2)
    h = hand_of("yongzhou-300", deck)
    deal_rounds(h, 1)
    h.declare(2, c("S10"))
    kind, seat = deal_until_asked(h, keep=(2, 3))
    if seat == 2:
        assert h.judge_declaration(2, c("S10")).kind == "reinforce"
        h.pass_(2)
        kind, seat = deal_until_asked(h, keep=(3,))
    assert seat == 3
    h.declare(3, c("H10 H10"))
    with pytest.raises(IllegalPlay):
        h.judge_declaration(2, c("S10"))  # 保主 only before any overturn
    while h.phase in ("deal", "declare"):
        kind, seat = h.to_act()
        h.deal() if kind == "deal" else h.pass_(seat)
    assert h.phase == "play" and h.dealer == 3 and h.trump == "H" and h.to_act() == ("play", 3)
    assert h.kitty == [] and h.rules.kitty_size == 0


def test_yongzhou_no_declaration_no_trump_first_seat_leads() -> None:
    deck = arrange("yongzhou-300", {}, start=2, players=3)
    h = Hand(HandConfig("yongzhou-300", players=3, start_seat=2), deck=deck)
    while h.phase in ("deal", "declare"):
        kind, seat = h.to_act()
        h.deal() if kind == "deal" else h.pass_(seat)
    assert h.trump is None and h.dealer is None and h.to_act() == ("play", 2)


# ---------------------------------------------------------------- red-five bidding


def bidding(decks: int = 2, first: int = 1) -> Hand:
    h = Hand(HandConfig("red-five", decks=decks, first_bidder=first), seed=4)
    h.deal_all()
    assert h.phase == "bid" and h.to_act() == ("bid", first)
    return h


def test_red_five_bids_rise_by_5_to_15_and_passes_are_final() -> None:
    h = bidding()
    assert h.legal_bids(1) == [60, 65, 70, 75]
    h.bid(1, 65)
    with pytest.raises(IllegalPlay) as e:
        h.bid(2, 85)
    assert "5 to 15" in str(e.value)
    with pytest.raises(OutOfTurn):
        h.bid(3, 70)
    h.bid(2, 80)
    h.pass_(3)
    h.bid(0, 95)
    h.pass_(1)
    assert h.to_act() == ("bid", 2)  # seat 3 passed: out for the hand
    h.pass_(2)
    assert h.phase == "trump" and h.dealer == 0 and h.contract == 95  # the three others passed


def test_red_five_maximum_wins_at_once_and_nobody_bidding_gives_the_minimum() -> None:
    h = bidding()
    b = 60
    seat = 1
    while h.phase == "bid":
        b = h.legal_bids(seat)[-1]
        h.bid(seat, b)
        seat = (seat + 1) % 4
    assert b == 200 and h.contract == 200 and h.phase == "trump"
    h2 = bidding(decks=3, first=2)
    assert h2.legal_bids(2)[0] == 80
    pass_all(h2, "bid")
    assert h2.dealer == 2 and h2.contract == 80


def test_red_five_dealer_names_trump_takes_and_buries_the_kitty() -> None:
    h = bidding(decks=3)
    pass_all(h, "bid")
    with pytest.raises(OutOfTurn):
        h.name_trump(0, "H")
    with pytest.raises(IllegalPlay):
        h.name_trump(1, "NT")
    h.name_trump(1, "H")
    assert h.phase == "kitty" and len(h.seat_cards(1)) == 39 + 6
    with pytest.raises(IllegalPlay):
        h.bury(1, h.seat_cards(1)[:5])
    with pytest.raises(InvalidCards):
        h.bury(1, c("H5 H5 H5 H5 H5 H5") if h.seat_counts(1)[c("H5")[0]] < 6 else [])
    cards = h.seat_cards(1)[:6]
    h.bury(1, cards)
    assert h.observation(1).kitty == tuple(cards) and h.observation(0).kitty is None
    assert h.to_act() == ("play", 1)


# ---------------------------------------------------------------- outcome = the scoring API's


@pytest.mark.parametrize(("variant", "kw"), [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}),
                                             ("red-five", {"decks": 3}), ("yongzhou-300", {"players": 4}),
                                             ("yongzhou-300", {"players": 3})])
def test_outcome_is_the_scoring_api_outcome(variant: str, kw: dict) -> None:
    from gameplay.simulate import simulate_hand

    for i in range(3):
        rec = simulate_hand(variant, 21, i, ["heuristic", "random"], keep_log=True, **kw)
        from gameplay.notation import replay

        h = replay(rec["log"])
        body = score_hand_request(h.score_request())
        res = h.result
        if variant in ("tractor", "chaodi"):
            assert body["attackers_total"] == res.attackers_total and body["level_gain"] == res.level_gain
            assert body["state"]["levels"] == list(h.new_state.levels)
        elif variant == "red-five":
            assert body["game_points"] == list(res.game_points)
        else:
            assert body["net"] == list(res.net)


def test_chaodi_at_level_a_reports_the_a_flags() -> None:
    import random

    from gameplay.bots import make_bot
    from gameplay.simulate import play_out

    state = MatchState(levels=("A", "5"), dealer=0, hands_played=9)
    seen = 0
    for seed in range(8):
        h = Hand(HandConfig("chaodi", state=state), seed=seed)
        play_out(h, [make_bot("heuristic", random.Random(s)) for s in range(4)])
        assert h.outcome is not None
        assert ({"a_first_trick", "a_last_trick"} <= set(h.outcome)) == (h.level == "A")
        seen += h.level == "A"
        body = score_hand_request(h.score_request())
        assert body["state"]["levels"] == list(h.new_state.levels)
    assert seen


def test_chaodi_only_the_dealer_insures() -> None:
    state = MatchState(levels=("8", "8"), dealer=0, hands_played=3)
    deck = arrange("chaodi", {2: "C8 C8 LJ"})
    h = Hand(HandConfig("chaodi", state=state), deck=deck)
    h.deal_all()
    while h.to_act()[1] != 2:
        h.pass_(h.to_act()[1])
    with pytest.raises(IllegalPlay) as e:
        h.declare(2, c("C8 C8 LJ"))
    assert "only the dealer insures" in str(e.value)
    assert h.declare(2, c("C8 LJ")).value == "declare" and h.dealer == 0


def test_failed_throw_penalties_reach_the_outcome_with_the_options() -> None:
    """Engine ``throw_penalty`` (points per card returned) + scoring ``throw_penalties``: the outcome
    carries the net penalties credited to the attackers, and the scoring API accepts it."""
    import random

    from gameplay.bots import make_bot
    from gameplay.simulate import independent_config, play_out

    seen = 0
    for i in range(6):
        config = HandConfig("tractor", {"throw_penalty": 10, "throw_penalties": True},
                            **independent_config("tractor", i, 4))
        h = Hand(config, seed=i)
        play_out(h, [make_bot("random", random.Random(i * 4 + s)) for s in range(4)])
        failed = [e for e in h.log if e.kind == "play" and e.forced is not None]
        dside = h.dealer % 2
        expected = sum(e.penalty if e.seat % 2 == dside else -e.penalty for e in failed)
        assert h.outcome["throw_penalties"] == expected
        assert all(e.penalty == 10 * (len(e.cards) - len(e.forced)) for e in failed)
        seen += bool(failed)
        body = score_hand_request(h.score_request())
        assert body["attackers_total"] == h.result.attackers_total
    assert seen
