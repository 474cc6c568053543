"""Follows the heuristic bot (:mod:`gameplay.bot_play`) considers: the legal follows of a throw of
pairs and singles, the cheapest cards of a list, ruffs shaped like the lead; and chaodi's A attempt
(the As the dealer side holds at A, what showing one is worth).

The legal follows of a throw of pairs and singles are listed for the heuristic bot without the general
test of every sub-multiset: the same plays in the same order as
:func:`gameplay.legality.legal_follows` (``tests/gameplay/test_bot_decisions.py`` compares them).

With the lead's components all pairs and singles and the follower holding no card three times, a
follow of ``n`` cards of the suit shows the lead's structure as far as the hand allows exactly when it
holds ``min(pairs led, pairs held)`` pairs: the sub-multisets are walked in the general order (the
first cards taken as often as possible first) and branches that cannot reach that many pairs are cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from gameplay.cards import make_code
from gameplay.combos import Combo, decompose_suit
from gameplay.observation import Observation
from gameplay.order import TRUMP, Context
from variants.options import OPTIONS

__all__ = ["NO_ACES", "a_attempt_aces", "ace_bonus", "first", "pair_throw_follows", "ruffs"]


def pair_throw_follows(ctx: Context, counts: Sequence[int], lead: Combo) -> list[tuple[int, ...]] | None:
    """The legal follows of ``lead`` (a throw or pair of units no wider than pairs) by a hand of
    ``counts`` holding more cards of the suit than led, none of them three times; None when the
    shape is another (tractors, triples: then ask :func:`~gameplay.legality.legal_follows`)."""
    led_pairs = 0
    for comp in lead.components:
        if comp.length != 1 or comp.width > 2:
            return None
        if comp.width == 2:
            led_pairs += 1
    items = [(c, counts[c]) for c in reversed(ctx.suit_codes[lead.suit]) if counts[c]]  # strongest first
    held_pairs = 0
    for _, k in items:
        if k > 2:
            return None
        if k == 2:
            held_pairs += 1
    n = lead.n
    if sum([k for _, k in items]) <= n:
        return None
    need = min(led_pairs, held_pairs)
    cards_after = [0] * (len(items) + 1)  # cards and pairs held from item i on
    pairs_after = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        k = items[i][1]
        cards_after[i] = cards_after[i + 1] + k
        pairs_after[i] = pairs_after[i + 1] + (k == 2)
    out: list[tuple[int, ...]] = []
    _walk(items, cards_after, pairs_after, 0, n, need, [], out)
    return out


def _walk(items: list[tuple[int, int]], cards_after: list[int], pairs_after: list[int], i: int, size: int,
          need: int, cards: list[int], out: list[tuple[int, ...]]) -> None:
    """Append to ``out`` each sub-multiset of ``size`` cards of ``items[i:]`` with at least ``need``
    pairs, after ``cards`` (the cards taken so far), each item taken as often as possible first."""
    if size == 0:
        if need <= 0:
            out.append(tuple(cards))
        return
    if cards_after[i] < size or pairs_after[i] < need:
        return
    c, k = items[i]
    for take in range(min(k, size), -1, -1):
        if take == 0:
            _walk(items, cards_after, pairs_after, i + 1, size, need, cards, out)
        else:
            cards.append(c)
            if take == 2:
                cards.append(c)
            _walk(items, cards_after, pairs_after, i + 1, size - take, need - (take == 2), cards, out)
            del cards[-take:]


def first(codes: Sequence[int], counts: Sequence[int], k: int) -> tuple[int, ...]:
    """The first ``k`` cards of ``codes``, each repeated as often as it is held."""
    out: list[int] = []
    for c in codes:
        held = counts[c]
        if held:
            if held == 1:
                out.append(c)
            else:
                out += [c] * held
            if len(out) >= k:
                return tuple(out[:k])
    return tuple(out)


def ruffs(ctx: Context, lead: Combo, trumps: dict[int, int]) -> list[tuple[int, ...]]:
    """Two all-trump plays shaped like the lead (lowest and highest components), if any."""
    comps = decompose_suit(ctx, trumps, TRUMP)
    st = ctx.strength
    out = []
    for high in (False, True):
        left = dict(trumps)
        play: list[int] = []
        ok = True
        for comp in lead.components:
            if comp.width == 1:
                continue
            shaped = [c for c in comps if c.width >= comp.width and c.length >= comp.length
                      and all(left.get(x, 0) >= comp.width for x in set(c.codes))]
            if not shaped:
                ok = False
                break
            pick = max(shaped, key=lambda c: c.top) if high else min(shaped, key=lambda c: c.top)
            codes = sorted(set(pick.codes), key=st.__getitem__, reverse=high)[: comp.length]
            for x in codes:
                left[x] -= comp.width
                play.extend([x] * comp.width)
        if not ok:
            break
        rest = sorted((c for c, k in left.items() for _ in range(k)), key=st.__getitem__, reverse=high)
        play.extend(rest[: lead.n - len(play)])
        if len(play) == lead.n:
            out.append(tuple(play))
    return out


# ---------------------------------------------------------------- chaodi at A (首尾出A)

NO_ACES: list[int] = []
"""No A to show (not at A): shared, never changed."""
_A_PASS: dict[str, bool] = {}


def a_attempt_aces(obs: Observation) -> list[int]:
    """Chaodi, the dealer side at A: the As this seat holds (RULES §6.2: an A in the first and the
    last trick); empty otherwise."""
    if obs.level != "A" or obs.dealer is None or obs.dealer % 2 != obs.seat % 2:
        return []
    on = _A_PASS.get(obs.variant)
    if on is None:
        a_pass = OPTIONS["a_pass_conditions"]  # the variant's default (chaodi): bots do not see options
        on = _A_PASS[obs.variant] = bool(a_pass.applies_to(obs.variant) and a_pass.default(obs.variant))
    if not on:
        return []
    return [make_code(s, 14) for s in range(4) if obs.hand[make_code(s, 14)]]


def ace_bonus(obs: Observation, lead: Combo, aces: list[int], cand: Sequence[int]) -> int:
    """Chaodi at A: show an A in the first and the last trick; keep one for the last."""
    used = sum(1 for c in cand if c in aces)
    last = sum(obs.hand) == lead.n
    if last or (obs.tricks_played == 0 and not any(c in aces for _, p in obs.trick for c in p)):
        return 150 if used else 0
    if used >= len(aces) and len(aces) <= 2:
        return -80
    return 0
