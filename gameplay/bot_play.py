"""How the heuristic bot (:mod:`gameplay.bots`) leads and follows: card counting, sure winners,
throws, protecting and feeding points.

The rules of thumb are those of the module docstring of :mod:`gameplay.bots`; this module computes
them cheaply and decides exactly as the straightforward version did (``tests/gameplay/reference_bot.py``
keeps it; ``tests/gameplay/test_bot_decisions.py`` compares the two on every decision of seeded hands):

- per rule set, level and trump, tables of 54 entries are built once (:class:`gameplay.bot_cards.Tables`:
  what a card costs, what leading it low costs, sort keys, each suit's codes in code order and
  strongest first; :mod:`gameplay.bot_cards` also counts the unseen cards and judges sure winners);
- per seat, the decomposition of each suit it holds is kept by the suit's counts, so only the suits
  it played from are decomposed again; a suit of singles is not decomposed (its sure cards are its
  highest, found by one scan), nor a suit none of whose cards could top a sure component;
- the cards nobody has shown (unseen) are counted once per decision, only when the decision needs
  them, and the highest unseen card per suit and width once;
- follows of a single are scored card by card in the order :func:`gameplay.legality.legal_follows`
  lists them, without building the list (under 见分必打/不许送分 the list is asked for, and the chosen
  play returned as the very object listed, so the hand does not check it again); the follows of a
  throw of pairs and singles are listed by :func:`gameplay.bot_follow.pair_throw_follows`; other
  follows come from :class:`~gameplay.legal_plays.LegalPlays` as before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress

from gameplay.bot_cards import (
    CODES,
    Tables,
    is_sure,
    lowest,
    may_be_sure,
    opponents_after,
    tables,
    teams,
    thresholds,
    unseen_counts,
    voids,
)
from gameplay.bot_follow import NO_ACES, a_attempt_aces, ace_bonus, first, pair_throw_follows, ruffs
from gameplay.combos import Combo, Component, decompose_held, match_score
from gameplay.legal_plays import LegalPlays
from gameplay.observation import Observation
from gameplay.order import TRUMP, Context
from gameplay.tricks import PlayKey, play_key

__all__ = ["PlayChooser"]

_NEVER = 1 << 20
"""A strength above every card's."""


class PlayChooser:
    """The card play of one heuristic seat; ``rng`` draws among very many follows."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._ctx: Context | None = None
        self._suits: dict[tuple[int, tuple[int, ...]], list[Component]] = {}
        self._obs: Observation | None = None
        self._unseen: list[int] | None = None
        self._max: dict[int, int] = {}  # by suit * 8 + width
        self._desc: tuple[tuple[int, ...], ...] = ()
        self._t: Tables | None = None  # this decision's tables
        self._team: tuple[int, ...] = ()
        self._team_dealer = -2
        self._void_of: tuple[frozenset[int], ...] = ()  # the voids of the last lead, and what voids() made of them
        self._void_team: tuple[int, ...] = ()
        self._voids: tuple[set[int], set[int]] = (set(), set())
        self._after: dict[int, list[int]] = {}  # opponents_after by seat * 8 + plays on the table, for _team

    # ------------------------------------------------------------ per decision

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]:
        assert obs is not None
        ctx = obs.ctx
        assert ctx is not None
        if ctx is not self._ctx:
            self._ctx = ctx
            self._suits = {}
            self._t = t = tables(ctx)
            self._desc = t.desc
            self._team_dealer = -2
        if obs.dealer != self._team_dealer:  # who plays with whom: by the variant, the seats and the dealer
            self._team_dealer = -1 if obs.dealer is None else obs.dealer
            self._team = teams(obs)
            self._after = {}
        self._obs = obs
        self._unseen = None
        self._max = {}
        if legal.lead is None:
            return self._lead(obs, ctx, legal)
        return self._follow(obs, ctx, legal)

    def unseen(self) -> list[int]:
        """This decision's unseen counts (computed on first use)."""
        un = self._unseen
        if un is None:
            assert self._obs is not None
            un = self._unseen = unseen_counts(self._obs)
        return un

    def _max_unseen(self, ctx: Context, suit: int, width: int) -> int:
        key = suit * 8 + width
        cache = self._max
        best = cache.get(key)
        if best is None:
            unseen = self._unseen
            if unseen is None:
                unseen = self.unseen()
            best = -1
            for c in self._desc[suit]:
                if unseen[c] >= width:
                    best = ctx.strength[c]
                    break
            cache[key] = best
        return best

    def _sure(self, ctx: Context, top: int, width: int, length: int, suit: int) -> bool:
        if length >= 2:
            return is_sure(ctx, top, width, length, suit, self.unseen())
        return self._max_unseen(ctx, suit, width) <= top

    # ------------------------------------------------------------ leading

    def _lead(self, obs: Observation, ctx: Context, legal: LegalPlays) -> Sequence[int]:
        aces = a_attempt_aces(obs) if obs.level == "A" else NO_ACES
        if aces and obs.tricks_played == 0:
            return legal.single(aces[0])  # chaodi at A: the dealer side must show an A in the first trick (首尾出A)
        hand = obs.hand
        t = self._t
        assert t is not None
        es, st, pts = ctx.esuit, ctx.strength, ctx.points
        team = self._team
        me = team[obs.seat]
        suits = dict.fromkeys(compress(es, hand))  # the suits held, in the order of their first codes
        dealer_side = obs.dealer is not None and team[obs.dealer] == me
        unseen = self.unseen()
        # seed 001: the dealer side with a trump majority pulls trumps first
        my_trumps = sum(t.counts_of[TRUMP](hand))
        unseen_trumps = sum(t.counts_of[TRUMP](unseen))
        void = obs.voids
        if void != self._void_of or team is not self._void_team:  # voids change a few times a hand
            self._void_of, self._void_team = void, team
            self._voids = voids(team, obs.seat, void)
        opp_voids, partner_voids = self._voids
        throw_allowed = ctx.rules.throw_allowed
        pull = dealer_side and my_trumps > unseen_trumps * 0.6 and unseen_trumps
        best: tuple[float, Sequence[int]] | None = None
        for s in suits:
            if s != TRUMP and unseen_trumps > 0 and s in opp_voids:
                continue  # opponents may ruff: nothing of this suit is sure
            score: float | int  # int or float, as computed (mypyc: not a float variable)
            counts = t.counts_of[s](hand)
            if max(counts) < 2:
                # singles only: the sure ones are the highest, in the decomposition's order
                top = self._max_unseen(ctx, s, 1)
                sure = []
                for c in t.order[s]:
                    if hand[c]:
                        if st[c] < top:
                            break
                        sure.append(c)
                if not sure:
                    continue
                if throw_allowed and len(sure) >= 2:
                    score = 100 + len(sure) * 3 + sum([pts[c] for c in sure])
                    if best is None or score > best[0]:
                        best = (score, tuple(sure))
                for c in sure:
                    score = 56 + pts[c] * 0.3  # 50 + 6 a card
                    if s == TRUMP:
                        score -= 20
                        if pull:
                            score += 35
                    if best is None or score > best[0]:
                        best = (score, (c,))
                continue
            thr = thresholds(ctx, t.desc[s], unseen)  # per width: the highest unseen card of the suit, as _max_unseen
            pulling = s == TRUMP and dealer_side and my_trumps >= unseen_trumps and unseen_trumps
            key = (s, counts)
            comps = self._suits.get(key)  # the suit's decomposition, kept by its counts
            if comps is None:
                if not pulling and not may_be_sure(ctx, t.by_code[s], counts, hand, thr):
                    continue  # no component of the suit can be sure: not decomposed
                if len(self._suits) > 512:
                    self._suits.clear()
                comps = self._suits[key] = decompose_held(ctx, hand, t.by_code[s], s)
            safe = [c for c in comps if (c.top >= thr[c.width] if c.length < 2
                                         else is_sure(ctx, c.top, c.width, c.length, s, unseen))]
            if safe:
                if throw_allowed and len(safe) >= 2:
                    codes = tuple(x for c in safe for x in c.codes)
                    score = 100 + len(codes) * 3 + sum([pts[x] for x in codes])
                    if best is None or score > best[0]:
                        best = (score, codes)
                for comp in safe:
                    score = 50 + comp.size * 6 + sum([pts[x] for x in comp.codes]) * 0.3
                    if s == TRUMP:
                        score -= 20
                        if pull:
                            score += 35
                    if best is None or score > best[0]:
                        best = (score, comp.codes)
            if pulling:
                pairs = [c for c in comps if c.width >= 2]
                if pairs:
                    low = min(pairs, key=lambda c: c.top)
                    score = 45 + low.size
                    if best is None or score > best[0]:
                        best = (score, low.codes)
        if best is not None:
            return legal.single(best[1][0]) if len(best[1]) == 1 else best[1]
        # No sure winner: lead low, toward a partner's void, from a short side suit, without points.
        pick_cost, pick = 0, -1
        for s in suits:
            counts = t.counts_of[s](hand)
            low_cost, low_card = lowest(t, s, counts)
            cost = low_cost + sum(counts) - (25 if s in partner_voids and s not in opp_voids and s != TRUMP else 0)
            if pick < 0 or cost < pick_cost:
                pick_cost, pick = cost, low_card
        return legal.single(pick)  # a held single is always a legal lead: handed out as such, not checked again

    # ------------------------------------------------------------ following

    def _follow(self, obs: Observation, ctx: Context, legal: LegalPlays) -> Sequence[int]:
        lead = obs.lead
        assert lead is not None
        pts, st = ctx.points, ctx.strength
        team = self._team
        me = team[obs.seat]
        trick = obs.trick
        best_key = obs.winning_key
        win_seat = obs.winning
        assert best_key is not None and win_seat is not None
        on_table = obs.trick_points
        seat = obs.seat
        opp_after = self._after.get(seat * 8 + len(trick))
        if opp_after is None:
            opp_after = self._after[seat * 8 + len(trick)] = opponents_after(team, seat, len(trick))
        partner_wins = team[win_seat] == me
        partner_safe = partner_wins and (not opp_after or self._key_safe(obs, ctx, lead, best_key, opp_after))
        # a follow that does not beat scores ``feed * points - cost``
        feed = 4 if partner_safe else -2 if partner_wins else -8  # partner may still win: some feeding
        t = self._t
        assert t is not None
        costs = t.costs
        aces = a_attempt_aces(obs) if obs.level == "A" else NO_ACES
        if lead.n == 1 and not aces:
            return self._follow_single(obs, ctx, legal, lead, best_key, opp_after, partner_safe, feed, on_table)
        comps = lead.components
        unit = len(comps) == 1 and comps[0].length == 1  # a single, pair or triple: keys without play_key
        cands = self._unit_candidates(ctx, lead, legal) if unit else self._candidates(ctx, lead, legal)
        ls, n = lead.suit, lead.n
        es = ctx.esuit
        choice: tuple[float, Sequence[int]] | None = None
        for cand in cands:
            key: PlayKey | None
            c0 = cand[0]
            if len(cand) == 1:
                cp = pts[c0]
                cost = costs[c0]
            else:
                cp = 0
                cost = 0
                for c in cand:
                    cp += pts[c]
                    cost += costs[c]
            if not unit:
                # a play's key is (0 in the led suit, 1 all trump, a side suit led; None otherwise) and the
                # strength of one of its cards: a play that cannot rank above the winning key is not keyed
                e0 = es[c0]
                rank = 0 if e0 == ls else 1 if e0 == TRUMP and ls != TRUMP else -1
                if rank < best_key[0] or (rank == best_key[0] and max(map(st.__getitem__, cand)) <= best_key[1]):
                    key = None
                else:
                    key = play_key(ctx, lead, cand)
            else:
                e0 = es[c0]
                key = None
                if (e0 == ls or (e0 == TRUMP and ls != TRUMP)) and len(cand) == n and cand.count(c0) == n:
                    key = (0 if e0 == ls else 1, st[c0])
            if key is not None and key > best_key:
                if partner_safe:
                    score = cp * 4 - cost - 20
                elif not opp_after or self._key_safe(obs, ctx, lead, key, opp_after):
                    score = 200 + (on_table + cp) * 4 - cost
                elif on_table >= 10:
                    score = 60 + on_table * 2 - cost - cp * 3
                else:
                    score = -cost - cp * 5 - 5
            else:
                score = feed * cp - cost
            if aces:
                score += ace_bonus(obs, lead, aces, cand)
            if choice is None or score > choice[0]:
                choice = (score, cand)
        assert choice is not None
        return choice[1]

    def _follow_single(self, obs: Observation, ctx: Context, legal: LegalPlays, lead: Combo,
                       best_key: PlayKey, opp_after: Sequence[int], partner_safe: bool, feed: int,
                       on_table: int) -> Sequence[int]:
        """A follow of a single lead, scored card by card in the order of ``legal_follows`` (the same
        choice as :meth:`_follow` over the candidate tuples). Under 见分必打 or 不许送分 the candidates
        are the legal follows themselves, and the chosen one is returned as the very object listed
        (the hand need not check it again)."""
        ls = lead.suit
        t = self._t
        assert t is not None
        follows: list[tuple[int, ...]] | None = None
        counts = legal.counts
        if ctx.extra_rules:
            follows = legal.follows()
            cands = [p[0] for p in follows]
        else:
            desc = t.desc[ls]
            held = list(compress(desc, t.counts_desc[ls](counts)))
            if len(held) > 1 or (held and counts[held[0]] > 1):
                cands = held  # each code held, strongest first
            elif held:
                return legal.single(held[0])  # the only card of the suit: forced
            else:  # void: the cheapest and the point-richest other card, and each trump held
                cands = []
                for by in (t.by_cheap, t.by_rich):
                    for c in by:
                        if counts[c]:
                            cands.append(c)
                            break
                if ls != TRUMP:
                    trumps = ctx.suit_codes[TRUMP]
                    cands.extend([c for c in trumps if counts[c]])
        es, st, pts, costs = ctx.esuit, ctx.strength, ctx.points, t.costs
        ruffed, top = best_key
        best, best_score, index = -1, 0, 0
        # what no unseen card beats (``_key_safe`` of a single): at least the highest unseen card of the
        # led suit, none of them ruffed by an opponent after this seat; a ruff, the highest unseen trump
        sure_follow = sure_ruff = -2  # not computed yet
        for i, c in enumerate(cands):
            e = es[c]
            if e == ls:
                beats = not ruffed and st[c] > top
            elif e == TRUMP:  # a ruff (a side suit was led)
                beats = not ruffed or st[c] > top
            else:
                beats = False
            cp = pts[c]
            if beats and opp_after and not partner_safe and (sure_follow if e == ls else sure_ruff) == -2:
                if e == ls:
                    sure_follow = self._max_unseen(ctx, ls, 1)
                    if ls != TRUMP and any(ls in obs.voids[s] for s in opp_after) and \
                            self._max_unseen(ctx, TRUMP, 1) >= 0:
                        sure_follow = _NEVER  # an opponent after this seat may ruff
                else:
                    sure_ruff = self._max_unseen(ctx, TRUMP, 1)
            if not beats:
                score = feed * cp - costs[c]
            elif partner_safe:
                score = cp * 4 - costs[c] - 20
            elif not opp_after or st[c] >= (sure_follow if e == ls else sure_ruff):
                score = 200 + (on_table + cp) * 4 - costs[c]
            elif on_table >= 10:
                score = 60 + on_table * 2 - costs[c] - cp * 3
            else:
                score = -costs[c] - cp * 5 - 5
            if best < 0 or score > best_score:
                best, best_score, index = c, score, i
        return legal.single(best) if follows is None else follows[index]

    def _key_safe(self, obs: Observation, ctx: Context, lead: Combo, key: PlayKey, opp_after: Sequence[int]) -> bool:
        """Whether no unseen card of the led structure can beat ``key`` (ruffs included)."""
        comp = lead.components[0]
        ruff, top = key
        if ruff == 0:
            if not self._sure(ctx, top, comp.width, comp.length, lead.suit):
                return False
            if lead.suit != TRUMP and any(lead.suit in obs.voids[s] for s in opp_after):
                return self._max_unseen(ctx, TRUMP, comp.width) < 0  # no trump unseen that often
            return True
        return self._sure(ctx, top, comp.width, comp.length, TRUMP)

    def _unit_candidates(self, ctx: Context, lead: Combo, legal: LegalPlays) -> Sequence[Sequence[int]]:
        """The follows worth scoring of a single, pair or triple lead."""
        n = lead.n
        if n <= 2 and not ctx.extra_rules:
            counts = legal.counts
            t = self._t
            assert t is not None
            desc = t.desc[lead.suit]
            m = 0
            for c in desc:
                m += counts[c]
            if m > n:
                # what legal_follows lists: each code held (a single), each pair held (a pair)
                if n == 1:
                    return [(c,) for c in desc if counts[c]]
                pairs = [(c, c) for c in desc if counts[c] >= 2]
                if pairs:
                    return pairs
            elif n == 1:
                if m == 1:
                    return [(next(c for c in desc if counts[c]),)]
                # void: the cheapest and the point-richest other card, and each trump held
                pts, costs = ctx.points, t.costs
                others = list(compress(CODES, counts))
                out: list[tuple[int, ...]] = [(min(others, key=lambda c: pts[c] * 4 + costs[c]),),
                                              (min(others, key=lambda c: (-pts[c], costs[c])),)]
                if lead.suit != TRUMP:
                    out.extend((c,) for c in ctx.suit_codes[TRUMP] if counts[c])
                return out
        return self._candidates(ctx, lead, legal)

    def _candidates(self, ctx: Context, lead: Combo, legal: LegalPlays) -> list[Sequence[int]]:
        counts = legal.counts
        t = self._t
        assert t is not None
        n, ls = lead.n, lead.suit
        codes = ctx.suit_codes[ls]
        held = [c for c in codes if counts[c]]
        m = 0  # cards of the led suit held
        for c in held:
            m += counts[c]
        extra = ctx.extra_rules
        if m > n and n > 1 and not extra and (
                all(c.width == 1 for c in lead.components)
                or not any(match_score(ctx, lead, {c: counts[c] for c in held}))):
            # no structure to match: any n cards of the suit follow legally — the cheapest, the richest,
            # the strongest (stable sorts of the cards, so equal cards keep the suit's order)
            return [first(by[ls], counts, n) for by in t.suit_by]
        if m > n or extra:
            follows = None if extra else pair_throw_follows(ctx, counts, lead)
            if follows is None:
                follows = legal.follows()
            if len(follows) <= 150:
                return list(follows)
            rng = self.rng
            return [follows[rng.randrange(len(follows))] for _ in range(40)]
        # Short of the led suit: all of it, plus the cheapest or the point-richest filler, plus ruffs.
        fill = n - m
        suit = first(held, counts, m)
        out: list[Sequence[int]] = [suit + first(by[ls], counts, fill) for by in t.others_by]
        if not suit and ls != TRUMP:
            trumps = {c: counts[c] for c in ctx.suit_codes[TRUMP] if counts[c]}
            if sum(trumps.values()) >= fill:
                if n == 1:
                    out.extend((c,) for c in trumps)
                else:
                    for ruff in ruffs(ctx, lead, trumps):
                        out.append(ruff)
        return out
