"""Plays handed out by ``Hand.legal_plays`` are not checked again (issue 17), and nothing else is trusted.

The trusted path must give exactly the log of the checked path, must not outlive the state it was
made for, and must not extend to equal copies of a handed-out play.
"""

from __future__ import annotations

import random

import pytest

from gameplay.bots import make_bot
from gameplay.errors import GameplayError
from gameplay.events import Deal, Shuffle, hidden_deal, redact
from gameplay.hand import Hand
from gameplay.legal_plays import LegalPlays
from gameplay.simulate import independent_config, make_hand, play_out, seat_bots

VARIANTS = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 3}), ("yongzhou-300", {"players": 4})]


class _Copying:
    """Wraps a bot; hands over an equal copy of its play, so the hand checks it."""

    def __init__(self, bot: object) -> None:
        self.bot = bot

    def __getattr__(self, name: str) -> object:
        return getattr(self.bot, name)

    def play(self, obs: object, legal: LegalPlays) -> tuple[int, ...]:
        return tuple(list(self.bot.play(obs, legal)))  # type: ignore[attr-defined]


def _hand(variant: str, kw: dict[str, int], seed: int, bot: str, copying: bool) -> Hand:
    players = kw.get("players", 4)
    hand = make_hand(variant, seed, **kw, **independent_config(variant, seed % 4, players))
    bots = [make_bot(name, random.Random(seed * 7 + s)) for s, name in enumerate(seat_bots(variant, players, [bot]))]
    return play_out(hand, [_Copying(b) if copying else b for b in bots])  # type: ignore[list-item]


@pytest.mark.parametrize(("variant", "kw"), VARIANTS)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_trusted_plays_give_the_log_of_checked_plays(variant: str, kw: dict[str, int], bot: str) -> None:
    for seed in range(6):
        trusted = _hand(variant, kw, seed, bot, copying=False)
        checked = _hand(variant, kw, seed, bot, copying=True)
        assert trusted.to_json() == checked.to_json()
        assert trusted.result == checked.result


def _to_play(seed: int) -> Hand:
    hand = make_hand("tractor", seed, **independent_config("tractor", 0, 4))
    bots = [make_bot("random", random.Random(s)) for s in range(4)]
    while hand.to_act()[0] != "play":  # drive to the play phase with the runner's own steps
        kind, seat = hand.to_act()
        if kind == "deal":
            hand.deal()
        elif kind == "declare":
            assert seat is not None
            hand.pass_(seat)
        elif kind == "bury":
            assert seat is not None
            hand.bury(seat, bots[seat].bury(hand.observation(seat), hand.rules.kitty_size))
    return hand


def test_a_stale_play_is_checked_again() -> None:
    hand = _to_play(3)
    _, leader = hand.to_act()
    assert leader is not None
    lp = hand.legal_plays(leader)
    play = lp.sample(random.Random(1))
    assert lp.gave(play)
    hand.play(leader, play)
    _, nxt = hand.to_act()
    assert nxt is not None
    hand.legal_plays(nxt)  # a new offer for the next seat; the old object is not part of it
    if any(hand.seat_counts(nxt)[c] < play.count(c) for c in set(play)) or len(play) != 1:
        with pytest.raises(GameplayError):
            hand.play(nxt, play)  # the leader's cards, now checked: not held or not a legal follow
    assert not hand.legal_plays(nxt).gave(play)


def test_only_the_handed_out_objects_are_trusted() -> None:
    hand = _to_play(4)
    _, leader = hand.to_act()
    assert leader is not None
    lp = hand.legal_plays(leader)
    play = lp.sample(random.Random(2))
    assert lp.gave(play) and not lp.gave(tuple(list(play)))
    hand.play(leader, play)
    _, nxt = hand.to_act()
    assert nxt is not None
    lp = hand.legal_plays(nxt)
    follows = lp.follows()
    assert all(lp.gave(p) for p in follows)
    assert not any(lp.gave(tuple(list(p))) for p in follows)


def test_hidden_deals_are_shared_and_equal_to_a_redacted_copy() -> None:
    ev = Deal(2, (17,))
    assert redact(ev, 1) is hidden_deal(2) and redact(ev, None) == Deal(2, ())
    assert redact(ev, 2) is ev
    assert redact(Shuffle(None, (1, 2)), 0) == Shuffle(None, ())


def test_a_single_is_handed_out_only_when_legal() -> None:
    """``LegalPlays.single``: a held single leads; a follow of a single is vouched for only in the led
    suit or when void in it; anything else comes back unvouched and the hand refuses it."""
    hand = _to_play(5)
    _, leader = hand.to_act()
    assert leader is not None
    lp = hand.legal_plays(leader)
    counts = hand.seat_counts(leader)
    held = [c for c in range(54) if counts[c]]
    missing = next(c for c in range(54) if not counts[c] and hand.ctx is not None and hand.ctx.esuit[c] >= 0)
    assert not lp.gave(lp.single(missing))
    with pytest.raises(GameplayError):
        hand.play(leader, lp.single(missing))
    lp = hand.legal_plays(leader)
    play = lp.single(held[0])
    assert lp.gave(play) and play == (held[0],)
    hand.play(leader, play)
    _, nxt = hand.to_act()
    assert nxt is not None and hand.ctx is not None
    es = hand.ctx.esuit
    s = es[held[0]]
    mine = hand.seat_counts(nxt)
    in_suit = [c for c in range(54) if mine[c] and es[c] == s]
    off_suit = [c for c in range(54) if mine[c] and es[c] != s]
    lp = hand.legal_plays(nxt)
    if in_suit:
        assert lp.gave(lp.single(in_suit[0]))
        if off_suit:
            wrong = lp.single(off_suit[0])
            assert not lp.gave(wrong)
            with pytest.raises(GameplayError):
                hand.play(nxt, wrong)
    elif off_suit:
        assert lp.gave(lp.single(off_suit[0]))  # void in the led suit: any held card

