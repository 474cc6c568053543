"""The heuristic bot as it decided before the speed work of issue 17 (``gameplay/bots.py`` at
5cc849c), kept verbatim as the reference that ``test_bot_decisions.py`` compares today's bot with:
for the same observation, legal plays and random state both must choose the same action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import sub

import variants
from gameplay.cards import BJ, LJ, NCODES, SUITS, code_rank, code_suit, deck_codes, make_code, to_counts
from gameplay.combos import Combo, decompose_suit, highest_tractor_top, match_score
from gameplay.legal_plays import LegalPlays
from gameplay.observation import Observation
from gameplay.order import TRUMP, Context
from gameplay.rulesets import ruleset
from gameplay.tricks import PlayKey, play_key
from variants import TensDeclaring, YongzhouOrder
from variants.options import OPTIONS

Cards = tuple[int, ...]


_FULL: dict[tuple[str, int, int], tuple[int, ...]] = {}
_A_PASS: dict[str, bool] = {}
_COSTS: dict[int, tuple[Context, list[int]]] = {}


def _cost_table(ctx: Context) -> list[int]:
    """What playing each card costs the bot: its rank within its suit, trumps dearer (per context)."""
    hit = _COSTS.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    table = [(ctx.strength[c] % 32) + (30 if ctx.esuit[c] == TRUMP else 0) for c in range(NCODES)]
    if len(_COSTS) > 256:
        _COSTS.clear()
    _COSTS[id(ctx)] = (ctx, table)
    return table


def _full_counts(obs: Observation) -> tuple[int, ...]:
    key = (obs.variant, obs.players, obs.decks)
    full = _FULL.get(key)
    if full is None:
        rs = ruleset(obs.variant, decks=key[2],
                     players=obs.players if variants.get(obs.variant).variable_players else None)
        full = tuple(to_counts(deck_codes(rs.decks, rs.removed_ranks)))
        _FULL[key] = full
    return full


YONGZHOU_EAGERNESS = 0.5
BID_OFFSET = -30
YZ_MIN = 100


class HeuristicBot:
    """A card-counting rule-of-thumb player (see the module docstring)."""

    name = "heuristic"
    uses_observation = True
    asked_when_forced = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._cache: dict[tuple[int, int], int] = {}

    # ------------------------------------------------------------ hand strength

    @staticmethod
    def _suit_strength(hand: Sequence[int], suit: int, level: int | None) -> float:
        """How good ``suit`` would be as trump: its cards, its pairs, its high cards."""
        score = 0.0
        for r in range(2, 15):
            c = make_code(suit, r)
            k = hand[c]
            if not k or r == level:
                continue
            score += k + (0.5 if k >= 2 else 0) + (0.5 * k if r >= 13 else 0)
        return score

    def _level(self, obs: Observation) -> int | None:
        if isinstance(variants.get(obs.variant).trump_order, YongzhouOrder):
            return 10  # the 10s rank like level cards
        if obs.level is None:
            return None
        return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(obs.level) or int(obs.level)

    def _want(self, obs: Observation, options: Sequence[Cards], *, overturn: bool) -> Cards | None:
        hand = obs.hand
        held = sum(hand)
        level = self._level(obs)
        cur = obs.declaration
        me_team = obs.team(obs.seat)
        best: tuple[float, Cards] | None = None
        for opt in options:
            suits = {code_suit(c) for c in opt if c < 52}
            if not suits:  # joker pair: no trump — only against an opponent's good suit and with a weak hand
                if cur is None or obs.team(cur.seat) == me_team or cur.suit is None:
                    continue
                mine = self._suit_strength(hand, SUITS.index(cur.suit), level)
                if mine > 0.2 * held:
                    continue
                score = 0.15 * held - mine
            else:
                s = suits.pop()
                score = self._suit_strength(hand, s, level) + 1.5 * (hand[LJ] + hand[BJ])
                if cur is not None and cur.suit is not None:
                    if cur.seat == obs.seat or obs.team(cur.seat) == me_team:
                        if SUITS[s] == cur.suit:
                            score += 2  # reinforce our own suit
                        else:
                            score -= self._suit_strength(hand, SUITS.index(cur.suit), level) + 1
                    else:
                        score -= 0.8 * self._suit_strength(hand, SUITS.index(cur.suit), level)
                if variants.get(obs.variant).has_levels:
                    score -= 0.3 * max(0, 12 - held)  # early: wait a little for better information
            if best is None or score > best[0]:
                best = (score, opt)
        if best is None:
            return None
        threshold = (0.28 * held if not overturn else 3.0) if obs.phase == "deal" else 0.2 * held
        if cur is not None and cur.seat != obs.seat and obs.team(cur.seat) != me_team:
            threshold = min(threshold, 0.25 * held)
        if isinstance(variants.get(obs.variant).declaring, TensDeclaring):
            threshold *= YONGZHOU_EAGERNESS  # the declarer chooses trump and leads: worth more there
        if obs.phase != "deal" and cur is None:
            threshold = 0.0  # last chance: something beats nothing
        return best[1] if best[0] >= threshold else None

    def declare(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        return self._want(obs, options, overturn=False)

    def overturn(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        cur = obs.declaration
        if cur is not None and obs.team(cur.seat) == obs.team(obs.seat) and cur.suit is not None:
            return None
        return self._want(obs, options, overturn=True)

    def insure(self, obs: Observation, options: Sequence[Cards]) -> Cards | None:
        """定主 when the trump suit is worth protecting: it is the hand's best suit (otherwise the bot
        keeps the chance to counter-overturn into a better suit, as seed 001 suggests)."""
        cur = obs.declaration
        if not options or cur is None or cur.suit is None:
            return None
        level = self._level(obs)
        strength = [self._suit_strength(obs.hand, s, level) for s in range(4)]
        trump = SUITS.index(cur.suit)
        return options[0] if strength[trump] >= max(strength) else None

    def _best_suit(self, hand: Sequence[int], level: int | None) -> tuple[float, str]:
        return max((self._suit_strength(hand, SUITS.index(s), level), s) for s in SUITS)

    def bid(self, obs: Observation, options: Sequence[int]) -> int | None:
        hand = obs.hand
        strength, _suit = self._best_suit(hand, None)
        h5 = hand[make_code(2, 5)]
        trumps = hand[LJ] + hand[BJ] + h5 + sum(hand[make_code(s, 2)] for s in range(4)) + sum(
            hand[make_code(s, 3)] for s in range(4)) * 0.5
        aces = sum(hand[make_code(s, 14)] for s in range(4))
        held = sum(hand)
        scale = 25 / held  # in points of a 2-deck hand of 25 cards
        est = (strength * 5 + trumps * 8 + h5 * 10 + aces * 4) * scale
        limit = (BID_OFFSET + est) * obs.decks / 2  # 3 decks: 300 points in play
        ok = [b for b in options if b <= limit]
        return ok[0] if ok else None

    def name_trump(self, obs: Observation) -> str:
        return self._best_suit(obs.hand, None)[1]

    # ------------------------------------------------------------ burying

    def bury(self, obs: Observation, size: int) -> list[int]:
        ctx = obs.ctx
        assert ctx is not None
        hand = list(obs.hand)
        es, st, pts = ctx.esuit, ctx.tier, ctx.points
        suit_len = [0] * 5
        for c in range(NCODES):
            if hand[c]:
                suit_len[es[c]] += hand[c]
        out: list[int] = []
        for _ in range(size):
            best, best_cost = -1, 1e9
            for c in range(NCODES):
                k = hand[c]
                if not k:
                    continue
                s = es[c]
                cost = st[c] * 1.0 + pts[c] * 3 + (60 if s == TRUMP else 0) + (8 if k >= 2 else 0)
                cost += suit_len[s] * 1.5 if s != TRUMP else 0
                if code_rank(c) == 14 and s != TRUMP:
                    cost += 15
                if cost < best_cost:
                    best, best_cost = c, cost
            hand[best] -= 1
            suit_len[es[best]] -= 1
            out.append(best)
        return out

    # ------------------------------------------------------------ playing

    def _unseen(self, obs: Observation) -> list[int]:
        full = _full_counts(obs)
        hand, played, kitty = obs.hand, obs.played, obs.kitty
        un = list(map(sub, map(sub, full, played), hand))  # full − played − hand, per code
        if kitty:
            for c in kitty:
                un[c] -= 1
        for _, cards in obs.trick:
            for c in cards:
                un[c] -= 1
        return un

    def play(self, obs: Observation | None, legal: LegalPlays) -> Sequence[int]:
        assert obs is not None
        ctx = obs.ctx
        assert ctx is not None
        unseen = self._unseen(obs)
        self._cache = {}
        if legal.is_lead:
            return self._lead(obs, ctx, legal, unseen)
        return self._follow(obs, ctx, legal, unseen)

    def _max_unseen(self, ctx: Context, unseen: Sequence[int], suit: int, width: int) -> int:
        key = (suit, width)
        cache = self._cache
        if key in cache:
            return cache[key]
        cache[key] = best = self._max_unseen_scan(ctx, unseen, suit, width)
        return best

    @staticmethod
    def _max_unseen_scan(ctx: Context, unseen: Sequence[int], suit: int, width: int) -> int:
        st = ctx.strength
        best = -1
        for c in ctx.suit_codes[suit]:
            if unseen[c] >= width and st[c] > best:
                best = st[c]
        return best

    def _opponents_may_ruff(self, obs: Observation, ctx: Context, suit: int, unseen: Sequence[int]) -> bool:
        if suit == TRUMP:
            return False
        if not any(unseen[c] for c in ctx.suit_codes[TRUMP]):
            return False
        me = obs.team(obs.seat)
        return any(suit in v for s, v in enumerate(obs.voids) if obs.team(s) != me)

    def _safe(self, ctx: Context, comp_top: int, width: int, length: int, suit: int, unseen: Sequence[int]) -> bool:
        if length >= 2:
            nodes = [c for c in ctx.suit_codes[suit] if unseen[c] >= width]
            top = highest_tractor_top(ctx, nodes, length)
            return top is None or top <= comp_top
        return self._max_unseen(ctx, unseen, suit, width) <= comp_top

    def _lead(self, obs: Observation, ctx: Context, legal: LegalPlays, unseen: list[int]) -> Sequence[int]:
        hand = obs.hand
        es, st, pts = ctx.esuit, ctx.strength, ctx.points
        me = obs.team(obs.seat)
        by_suit: dict[int, dict[int, int]] = {}
        for c in range(NCODES):
            if hand[c]:
                by_suit.setdefault(es[c], {})[c] = hand[c]
        dealer_side = obs.dealer is not None and obs.team(obs.dealer) == me
        aces = self._a_attempt_aces(obs)
        if aces and obs.tricks_played == 0:
            return (aces[0],)  # chaodi at A: the dealer side must show an A in the first trick (首尾出A)
        # seed 001: the dealer side with a trump majority pulls trumps first
        my_trumps = sum(by_suit.get(TRUMP, {}).values())
        unseen_trumps = sum(unseen[c] for c in ctx.suit_codes[TRUMP])
        best: tuple[float, Sequence[int]] | None = None
        for s, cards in by_suit.items():
            comps = decompose_suit(ctx, cards, s)
            safe = [c for c in comps if self._safe(ctx, c.top, c.width, c.length, s, unseen)]
            ruff_risk = self._opponents_may_ruff(obs, ctx, s, unseen)
            if ctx.rules.throw_allowed and len(safe) >= 2 and not ruff_risk:
                codes = tuple(x for c in safe for x in c.codes)
                score: float = 100 + len(codes) * 3 + sum(pts[x] for x in codes)
                if best is None or score > best[0]:
                    best = (score, codes)
            for comp in safe:
                if ruff_risk:
                    continue
                score = 50 + comp.size * 6 + sum(pts[x] for x in comp.codes) * 0.3
                if s == TRUMP:
                    score -= 20
                    if dealer_side and my_trumps > unseen_trumps * 0.6 and unseen_trumps:
                        score += 35
                if best is None or score > best[0]:
                    best = (score, comp.codes)
            if s == TRUMP and dealer_side and my_trumps >= unseen_trumps and unseen_trumps and comps:
                pairs = [c for c in comps if c.width >= 2]
                if pairs:
                    low = min(pairs, key=lambda c: c.top)
                    score = 45 + low.size
                    if best is None or score > best[0]:
                        best = (score, low.codes)
        if best is not None:
            return best[1]
        # No sure winner: lead low, toward a partner's void, from a short side suit, without points.
        partner_void = {s for seat, v in enumerate(obs.voids) if seat != obs.seat and obs.team(seat) == me for s in v}
        opp_void = {s for seat, v in enumerate(obs.voids) if obs.team(seat) != me for s in v}
        pick: tuple[float, int] | None = None
        for s, cards in by_suit.items():
            n = sum(cards.values())
            for c, k in cards.items():
                cost = (st[c] % 32) * 1.0 + pts[c] * 4 + (40 if s == TRUMP else 0) + n * 1.0 + (6 if k >= 2 else 0)
                if s in partner_void and s not in opp_void and s != TRUMP:
                    cost -= 25
                if pick is None or cost < pick[0]:
                    pick = (cost, c)
        assert pick is not None
        return (pick[1],)  # a held single is always a legal lead: no re-check

    @staticmethod
    def _a_attempt_aces(obs: Observation) -> list[int]:
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

    def _follow(self, obs: Observation, ctx: Context, legal: LegalPlays, unseen: list[int]) -> Sequence[int]:
        lead = obs.lead
        assert lead is not None
        pts, st = ctx.points, ctx.strength
        me = obs.team(obs.seat)
        trick = obs.trick
        best_key = obs.winning_key
        win_seat = obs.winning
        assert best_key is not None and win_seat is not None
        on_table = sum(pts[c] for _, cards in trick for c in cards)
        remaining = [(obs.seat + i) % obs.players for i in range(1, obs.players - len(trick))]
        opp_after = [s for s in remaining if obs.team(s) != me]
        partner_wins = obs.team(win_seat) == me
        partner_safe = partner_wins and (not opp_after or self._key_safe(obs, ctx, lead, best_key, unseen, opp_after))
        cands = self._candidates(ctx, lead, legal)
        choice: tuple[float, Sequence[int]] | None = None
        costs = _cost_table(ctx)
        aces = self._a_attempt_aces(obs)
        last = sum(obs.hand) == lead.n
        single = lead.n == 1
        es, ls = ctx.esuit, lead.suit
        for cand in cands:
            if single:  # play_key of a single, inline (the common case)
                c0 = cand[0]
                e0 = es[c0]
                key = (0, st[c0]) if e0 == ls else (1, st[c0]) if e0 == TRUMP else None
            else:
                key = play_key(ctx, lead, cand)
            beats = key is not None and key > best_key
            cp = 0
            cost = 0
            for c in cand:
                cp += pts[c]
                cost += costs[c]
            if partner_safe:
                score = cp * 4 - cost - (20 if beats else 0)
            elif beats:
                assert key is not None
                sure = not opp_after or self._key_safe(obs, ctx, lead, key, unseen, opp_after)
                gain = on_table + cp
                if sure:
                    score = 200 + gain * 4 - cost
                elif on_table >= 10:
                    score = 60 + on_table * 2 - cost - cp * 3
                else:
                    score = -cost - cp * 5 - 5
            else:
                score = -cp * 8 - cost
                if partner_wins:
                    score += cp * 6  # partner may still win: some feeding
            if aces:
                used = sum(1 for c in cand if c in aces)
                if last or (obs.tricks_played == 0 and not any(c in aces for _, p in trick for c in p)):
                    score += 150 if used else 0  # show an A in the first and the last trick
                elif used >= len(aces) and len(aces) <= 2:
                    score -= 80  # keep an A for the last trick
            if choice is None or score > choice[0]:
                choice = (score, cand)
        assert choice is not None
        return choice[1]

    def _key_safe(self, obs: Observation, ctx: Context, lead: Combo, key: PlayKey, unseen: Sequence[int],
                  opp_after: Sequence[int]) -> bool:
        """Whether no unseen card of the led structure can beat ``key`` (ruffs included)."""
        comp = lead.components[0]
        ruff, top = key
        if ruff == 0:
            if not self._safe(ctx, top, comp.width, comp.length, lead.suit, unseen):
                return False
            if lead.suit != TRUMP and any(lead.suit in obs.voids[s] for s in opp_after) and \
                    any(unseen[c] >= comp.width for c in ctx.suit_codes[TRUMP]):
                return False
            return True
        return self._safe(ctx, top, comp.width, comp.length, TRUMP, unseen)

    def _candidates(self, ctx: Context, lead: Combo, legal: LegalPlays) -> list[Sequence[int]]:
        counts = legal.counts
        es, st, pts = ctx.esuit, ctx.strength, ctx.points
        suit = [c for c in ctx.suit_codes[lead.suit] if counts[c] for _ in range(counts[c])]
        extra = ctx.rules.must_beat_on_points or ctx.rules.no_gifting_points
        if len(suit) > lead.n and lead.n > 1 and not extra and (
                all(c.width == 1 for c in lead.components)
                or not any(match_score(ctx, lead, {c: counts[c] for c in ctx.suit_codes[lead.suit] if counts[c]}))):
            # no structure to match: any n cards of the suit follow legally — the cheapest, the richest,
            # the strongest
            costs = _cost_table(ctx)
            n = lead.n
            by_cost = sorted(suit, key=lambda c: pts[c] * 4 + costs[c])
            by_pts = sorted(suit, key=lambda c: (-pts[c], costs[c]))
            by_top = sorted(suit, key=lambda c: -st[c])
            return [tuple(by_cost[:n]), tuple(by_pts[:n]), tuple(by_top[:n])]
        if len(suit) > lead.n or extra:
            follows = legal.follows()
            if len(follows) <= 150:
                return list(follows)
            rng = self.rng
            return [follows[rng.randrange(len(follows))] for _ in range(40)]
        # Short of the led suit: all of it, plus the cheapest or the point-richest filler, plus ruffs.
        ls = lead.suit
        others = [c for c in range(NCODES) if counts[c] and es[c] != ls for _ in range(counts[c])]
        fill = lead.n - len(suit)
        cheap = sorted(others, key=lambda c: (pts[c] * 4 + (st[c] % 32) + (30 if es[c] == TRUMP else 0)))
        rich = sorted(others, key=lambda c: (-pts[c], (st[c] % 32) + (30 if es[c] == TRUMP else 0)))
        out: list[Sequence[int]] = [tuple(suit + cheap[:fill]), tuple(suit + rich[:fill])]
        if not suit and lead.suit != TRUMP:
            trumps = {c: counts[c] for c in ctx.suit_codes[TRUMP] if counts[c]}
            if sum(trumps.values()) >= fill:
                if lead.n == 1:
                    out.extend((c,) for c in trumps)
                else:
                    for ruff in self._ruffs(ctx, lead, trumps):
                        out.append(ruff)
        return out

    @staticmethod
    def _ruffs(ctx: Context, lead: Combo, trumps: dict[int, int]) -> list[tuple[int, ...]]:
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
