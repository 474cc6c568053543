"""Benchmarks of the rules engine: ``python -m gameplay.bench [tricks] [--deals PATH]``.

Prints the median time in µs, per variant, of: decomposing a dealt hand, classifying a lead,
checking a follow, generating all legal follows, and deciding a complete trick (lead already
classified). ``tractor`` uses the 1,000 deals of ``bench/deals.json`` with a seeded mix of
single, pair, tractor and throw leads and of legal and illegal follows drawn from them; the other
variants use seeded random deals.

``python -m gameplay.bench hands [--hands N]`` plays whole hands (deal, declare or bid, kitty, play,
scoring) with ``random`` and ``heuristic`` bots on one core and prints hands per second per variant;
for tractor also the play phase alone over the deals of ``deals.json`` (after the burial).

``python -m gameplay.bench --compare REV [--sample N] [--rounds R] [--hands N]`` times today's tree
and git revision REV (unpacked with ``git archive`` into a temporary folder) on the same workload —
the first N deals of ``deals.json`` (decompose each hand, classify a seeded lead, check three follows,
decide the trick) and N seeded whole hands per variant and bot — each tree in its own interpreter
through ``bench/engine_driver.py``, rounds interleaved A, B, A, B…, and prints the median of each
figure for both, wall and CPU time, their ratio, and a pure-Python floor (sorting the same card ints).
``--json`` prints the rounds and medians as JSON instead.

``python -m gameplay.bench trickentry`` times :func:`gameplay.record.check_trick` on the 25th trick
of a recorded tractor hand (every lead a single, so the hand has 25 tricks; the 24 earlier tricks are
re-walked on every call) and :func:`gameplay.record.derive` of the whole hand (target: ≤ 20 ms per
checked trick).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from gameplay.cards import deck_codes, format_cards, parse_cards, to_counts
from gameplay.combos import Combo, classify, decompose
from gameplay.legality import is_legal_follow, legal_follows, legal_leads, throw_check
from gameplay.order import Context
from gameplay.rulesets import RuleSet, ruleset
from gameplay.tricks import decide_trick

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEALS = ROOT / "bench" / "deals.json"
KINDS = ("single", "pair", "tractor", "throw")


def _timeit(fn: Callable[[], Any], repeat: int = 3) -> float:
    """µs per call of ``fn`` (best of ``repeat`` single calls, to damp scheduler noise)."""
    best = float("inf")
    pc = time.perf_counter
    for _ in range(repeat):
        t0 = pc()
        fn()
        dt = pc() - t0
        if dt < best:
            best = dt
    return best * 1e6


def _pick_lead(ctx: Context, rng: random.Random, hand: list[int], kind: str) -> list[int]:
    counts = to_counts(hand)
    unit_leads = list(legal_leads(ctx, counts, include_throws=False))
    singles = [p for p in unit_leads if len(p) == 1]
    pairs = [p for p in unit_leads if len(p) == 2 and p[0] == p[1]]
    tractors = [p for p in unit_leads if len(set(p)) >= 2]
    if kind == "tractor" and tractors:
        return list(rng.choice(tractors))
    if kind == "throw" and ctx.rules.throw_allowed:
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(ctx.esuit[c], []).append(c)
        suits = [s for s, cs in by_suit.items() if len(set(cs)) >= 2]
        if suits:
            cards = by_suit[rng.choice(suits)]
            for _ in range(20):
                k = rng.randint(2, min(6, len(cards)))
                sub = rng.sample(cards, k)
                if classify(ctx, sub).is_throw:
                    return sub
    if kind in ("pair", "tractor", "throw") and pairs:
        return list(rng.choice(pairs))
    return list(rng.choice(singles))


def _all_follows(ctx: Context, counts: list[int], lead: Combo, prior: list[list[int]]) -> list[tuple[int, ...]]:
    return list(legal_follows(ctx, counts, lead, prior=prior))


def _illegal_follow(ctx: Context, rng: random.Random, hand: list[int], counts: list[int], lead: Combo,
                    prior: Sequence[Sequence[int]]) -> list[int] | None:
    for _ in range(10):
        play = rng.sample(hand, lead.n)
        if not is_legal_follow(ctx, counts, lead, play, prior=prior):
            return play
    return None


def _scenarios(rules: RuleSet, deals: list[tuple[Context, list[list[int]]]], seed: int) -> dict[str, list[float]]:
    """Timings per measure; keys "check:<shape>" etc. split them by the lead's shape."""
    rng = random.Random(seed)
    out: dict[str, list[float]] = {k: [] for k in ("decompose", "classify", "check", "generate", "decide")}
    n = rules.players
    for ctx, hands in deals:
        for h in hands:
            out["decompose"].append(_timeit(partial(decompose, ctx, h)))
        leader = rng.randrange(n)
        kind = rng.choice(KINDS)
        lead_cards = _pick_lead(ctx, rng, hands[leader], kind)
        out["classify"].append(_timeit(partial(classify, ctx, lead_cards)))
        combo = classify(ctx, lead_cards)
        if combo.is_throw:
            # the throw check runs (not timed), but the followers answer the throw as led, so that
            # throws stay in the mix even though most random throws would fail
            others = {s: to_counts(hands[s]) for s in range(n) if s != leader}
            throw_check(ctx, combo, others, leader)
        table: list[list[int]] = [list(combo.codes)]
        for i in range(1, n):
            seat = (leader + i) % n
            counts = to_counts(hands[seat])
            prior = list(table)
            out["generate"].append(_timeit(partial(_all_follows, ctx, counts, combo, prior), repeat=1))
            follows = list(legal_follows(ctx, counts, combo, prior=prior))
            legal = list(rng.choice(follows))
            bad = _illegal_follow(ctx, rng, hands[seat], counts, combo, prior) if rng.random() < 0.5 else None
            candidate = bad if bad is not None else legal
            t = _timeit(partial(is_legal_follow, ctx, counts, combo, candidate, prior=prior))
            out["check"].append(t)
            out.setdefault(f"check:{combo.shape}", []).append(t)
            table.append(legal)
        t = _timeit(partial(decide_trick, ctx, combo, table, leader))
        out["decide"].append(t)
        out.setdefault(f"decide:{combo.shape}", []).append(t)
    return out


def _load_tractor(path: Path, rules: RuleSet) -> list[tuple[Context, list[list[int]]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for d in data["deals"]:
        ctx = Context(rules, d["level"], d["trump"])
        out.append((ctx, [parse_cards(h) for h in d["hands"]]))
    return out


def _random_deals(rules: RuleSet, count: int, seed: int) -> list[tuple[Context, list[list[int]]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = deck_codes(rules.decks, rules.removed_ranks)
        rng.shuffle(deck)
        size = rules.hand_size
        hands = [deck[i * size:(i + 1) * size] for i in range(rules.players)]
        level = rng.choice(rules.levels) if rules.has_levels else None
        trump_choices: list[str | None] = ["S", "H", "C", "D"]
        if not rules.spec.always_trump:
            trump_choices.append(None)
        out.append((Context(rules, level, rng.choice(trump_choices)), hands))
    return out


def cmd_tricks(args: argparse.Namespace) -> int:
    variants: list[tuple[str, RuleSet, list[tuple[Context, list[list[int]]]]]] = []
    tr = ruleset("tractor")
    path = Path(args.deals)
    if path.exists():
        variants.append(("tractor (deals.json)", tr, _load_tractor(path, tr)))
    else:
        print(f"note: {path} not found; tractor uses random deals", file=sys.stderr)
        variants.append(("tractor (random)", tr, _random_deals(tr, args.count, 1)))
    if not args.tractor_only:
        for label, rs in (("chaodi", ruleset("chaodi")), ("red-five 2 decks", ruleset("red-five")),
                          ("red-five 3 decks", ruleset("red-five", decks=3)),
                          ("yongzhou-300 4 players", ruleset("yongzhou-300")),
                          ("yongzhou-300 3 players", ruleset("yongzhou-300", players=3))):
            variants.append((label, rs, _random_deals(rs, args.count, 2)))
    cols = ("decompose", "classify", "check", "generate", "decide")
    print(f"{'variant':26}" + "".join(f"{c:>11}" for c in cols) + "   (median µs)")
    first: dict[str, list[float]] = {}
    for label, rs, deals in variants:
        res = _scenarios(rs, deals, args.seed)
        first = first or res
        print(f"{label:26}" + "".join(f"{statistics.median(res[c]):11.2f}" for c in cols))
    print()
    print(f"{variants[0][0]}, by the shape of the lead: median µs (samples)")
    for shape in ("single", "pair", "tractor", "throw"):
        parts = []
        for measure in ("check", "decide"):
            xs = first.get(f"{measure}:{shape}", [])
            parts.append(f"{measure} {statistics.median(xs):7.2f} ({len(xs)})" if xs else f"{measure}       -")
        print(f"  {shape:8} " + "   ".join(parts))
    print("decompose = a dealt hand (25 cards in tractor); check = one follow (half legal, half illegal); "
          "generate = all legal follows; decide = winner and points of a complete trick.")
    return 0


HAND_VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("tractor", "tractor", {}), ("chaodi", "chaodi", {}), ("red-five 2 decks", "red-five", {"decks": 2}),
    ("red-five 3 decks", "red-five", {"decks": 3}), ("yongzhou-300 4 players", "yongzhou-300", {"players": 4}),
    ("yongzhou-300 3 players", "yongzhou-300", {"players": 3}),
)


def _rate(count: int, wall: float, cpu: float) -> str:
    return f"{count / wall:9.0f} {count / cpu:9.0f}" if wall > 0 and cpu > 0 else f"{'-':>9} {'-':>9}"


def cmd_hands(args: argparse.Namespace) -> int:
    """Whole hands per second per variant and bot, on one core (this process)."""
    from gameplay.simulate import simulate_hands

    n = args.hands
    print(f"{'variant':26}{'bots':>11}{'hands/s':>10}{'(CPU)':>10}   ({n} seeded hands each: deal, "
          "declare or bid, kitty, play, scoring)")
    variants = HAND_VARIANTS[:1] if args.tractor_only else HAND_VARIANTS
    for label, variant, kw in variants:
        for bot in ("random", "heuristic"):
            w0, c0 = time.perf_counter(), time.process_time()
            simulate_hands(variant, args.seed, 0, n, [bot, bot], **kw)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            print(f"{label:26}{bot:>11} {_rate(n, wall, cpu)}")
    path = Path(args.deals)
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))["deals"][: args.play_deals]
        print()
        print(f"tractor play phase alone over {len(data)} deals of {path.name} (dealer seat 0 leads):")
        for bot in ("random", "heuristic"):
            wall, cpu = _play_phase(data, bot, args.seed)
            print(f"{'tractor (deals.json)':26}{bot:>11} {_rate(len(data), wall, cpu)}")
    else:
        print(f"note: {path} not found; no play-phase benchmark", file=sys.stderr)
    return 0


def _play_phase(deals: list[dict[str, Any]], bot: str, seed: int) -> tuple[float, float]:
    from gameplay.bots import make_bot
    from gameplay.config import HandConfig
    from gameplay.position import hand_at_position
    from gameplay.simulate import play_out
    from scoring.partnership import MatchState

    prepared = []
    for i, d in enumerate(deals):
        level = d["level"]
        config = HandConfig("tractor", {"target_level": "A"},
                            state=MatchState(levels=(level, level), dealer=0, hands_played=1))
        prepared.append((config, [parse_cards(h) for h in d["hands"]], parse_cards(d["kitty"]), d["trump"], i))
    wall = cpu = 0.0
    for config, hands, kitty, trump, i in prepared:
        bots = [make_bot(bot, random.Random(seed + i * 4 + s)) for s in range(4)]
        w0, c0 = time.perf_counter(), time.process_time()
        hand = hand_at_position(config, hands, kitty, trump=trump, dealer=0)
        play_out(hand, bots)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
    return wall, cpu


def _singles_hand(seed: int) -> tuple[Any, list[Any]]:
    """Facts and 25 tricks of a tractor hand where every lead is the leader's lowest single."""
    from gameplay.cards import from_counts
    from gameplay.combos import classify
    from gameplay.legality import first_legal_follow
    from gameplay.record import HandFacts, Play, TrickEntry, check_trick

    facts = HandFacts("tractor", dealer=0, trump="H", level="2")
    ctx = facts.context()
    rng = random.Random(seed)
    deck = deck_codes(2)
    rng.shuffle(deck)
    hands = [to_counts(deck[s * 25:(s + 1) * 25]) for s in range(4)]
    tricks: list[Any] = []
    leader = 0
    for _ in range(25):
        c = min(from_counts(hands[leader]), key=ctx.sortkey.__getitem__)
        plays = [Play(leader, (c,))]
        lead = classify(ctx, [c])
        for i in range(1, 4):
            seat = (leader + i) % 4
            f = first_legal_follow(ctx, hands[seat], lead, prior=[list(p.cards) for p in plays])
            assert f is not None
            plays.append(Play(seat, tuple(f)))
        for p in plays:
            for x in p.cards:
                hands[p.seat][x] -= 1
        j = check_trick(facts, tricks, plays)
        assert j.winner is not None
        tricks.append(TrickEntry(tuple(plays)))
        leader = j.winner
    return facts, tricks


def cmd_trickentry(args: argparse.Namespace) -> int:
    """Time to check one entered trick at the 25th trick, and to derive the whole recorded hand."""
    from gameplay.record import check_trick, derive

    facts, tricks = _singles_hand(args.seed)
    checks = [_timeit(lambda: check_trick(facts, tricks[:24], tricks[24].plays)) for _ in range(20)]
    derives = [_timeit(lambda: derive(facts, tricks)) for _ in range(5)]
    rec = derive(facts, tricks)
    assert rec.complete and not rec.flags
    med = statistics.median(checks)
    print(f"check_trick at trick 25 of {len(tricks)}: {med / 1000:8.3f} ms (median of 20; target ≤ 20 ms)")
    print(f"derive (judge, replay and score the whole hand): {statistics.median(derives) / 1000:8.3f} ms")
    return 0 if med <= 20_000 else 1


def _compare_workload(path: Path, sample: int, seed: int, hands: int, tractor_only: bool) -> dict[str, Any]:
    """The work both trees do, as card strings (see ``bench/engine_driver.py``)."""
    tr = ruleset("tractor")
    data = json.loads(path.read_text(encoding="utf-8"))["deals"][:sample]
    rng = random.Random(seed)
    deals: list[dict[str, Any]] = []
    leads: list[dict[str, Any]] = []
    follows: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    for i, d in enumerate(data):
        ctx = Context(tr, d["level"], d["trump"])
        hs = [parse_cards(h) for h in d["hands"]]
        deals.append({"level": d["level"], "trump": d["trump"], "hands": d["hands"]})
        leader = rng.randrange(tr.players)
        lead_cards = _pick_lead(ctx, rng, hs[leader], rng.choice(KINDS))
        combo = classify(ctx, lead_cards)
        lead_s = format_cards(lead_cards)
        leads.append({"deal": i, "cards": lead_s, "shape": combo.shape})
        table: list[list[int]] = [list(combo.codes)]
        for j in range(1, tr.players):
            seat = (leader + j) % tr.players
            counts = to_counts(hs[seat])
            prior = list(table)
            legal = list(rng.choice(list(legal_follows(ctx, counts, combo, prior=prior))))
            bad = _illegal_follow(ctx, rng, hs[seat], counts, combo, prior) if rng.random() < 0.5 else None
            follows.append({"deal": i, "hand": d["hands"][seat], "lead": lead_s,
                            "play": format_cards(bad if bad is not None else legal),
                            "prior": [format_cards(p) for p in prior]})
            table.append(legal)
        tricks.append({"deal": i, "lead": lead_s, "table": [format_cards(p) for p in table], "leader": leader})
    jobs = [{"label": label, "variant": variant, "kw": kw, "bots": [bot, bot], "seed": seed, "count": hands}
            for label, variant, kw in (HAND_VARIANTS[:1] if tractor_only else HAND_VARIANTS)
            for bot in ("random", "heuristic")] if hands > 0 else []
    return {"deals": deals, "leads": leads, "follows": follows, "tricks": tricks, "hands": jobs}


def _unpack_revision(rev: str, dest: Path) -> str:
    """``git archive`` of ``rev`` (of this checkout) unpacked into ``dest``; returns the commit id."""
    import io
    import subprocess
    import tarfile

    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    tar = subprocess.run(["git", "archive", "--format=tar", sha], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        tf.extractall(dest, filter="data")
    return sha


def _run_driver(tree: Path, workload: Path, passes: int) -> dict[str, Any]:
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "engine_driver.py"), "--tree", str(tree),
                           "--workload", str(workload), "--passes", str(passes)],
                          cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"the benchmark driver failed on {tree}:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def cmd_compare(args: argparse.Namespace) -> int:
    """Today's tree against git revision ``args.compare``, same workload, interleaved rounds."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        tmpdir = Path(tmp)
        old = tmpdir / "tree"
        old.mkdir()
        sha = _unpack_revision(args.compare, old)
        wl = tmpdir / "workload.json"
        wl.write_text(json.dumps(_compare_workload(Path(args.deals), args.sample, args.seed, args.hands,
                                                   args.tractor_only)), encoding="utf-8")
        rounds: dict[str, list[dict[str, Any]]] = {"today": [], "rev": []}
        for _ in range(args.rounds):
            rounds["today"].append(_run_driver(ROOT, wl, args.passes))
            rounds["rev"].append(_run_driver(old, wl, args.passes))
    keys = [k for k, v in rounds["today"][0].items() if isinstance(v, dict)]
    med = {side: {k: {clock: statistics.median(r[k][clock] for r in rs) for clock in ("wall", "cpu")}
                  for k in keys} for side, rs in rounds.items()}
    same = {what: rounds["today"][0][what] == rounds["rev"][0][what] for what in ("digest", "check_answers")}
    if args.json:
        print(json.dumps({"revision": sha, "rounds": rounds, "median": med, "same": same}))
        return 0
    floor = med["today"]["floor"]["cpu"]
    print(f"today's tree ({ROOT}) against {args.compare} ({sha[:10]}): median of {args.rounds} interleaved "
          f"rounds, {args.sample} deals of {Path(args.deals).name}, {args.hands} hands per variant and bot")
    head = (f"{'measure':44}{'today':>10}{args.compare[:9]:>10}{'ratio':>8}   {'today':>10}{args.compare[:9]:>10}"
            f"{'ratio':>8}{'×floor':>8}")
    print(f"{'':44}{'wall µs':>28}   {'CPU µs':>28}")
    print(head)
    for k in keys:
        a, b = med["today"][k], med["rev"][k]
        n = rounds["today"][0][k]["n"]
        cells = []
        for clock in ("wall", "cpu"):
            x, y = a[clock], b[clock]
            cells.append(f"{x:10.2f}{y:10.2f}{(y / x if x > 0 else float('nan')):7.2f}×")
        label = f"{k} ({n})"
        print(f"{label:44}{cells[0]}   {cells[1]}{a['cpu'] / floor if floor > 0 else 0:8.1f}")
    print("ratio = revision / today (above 1: today is faster); µs per item, whole hands µs per hand; "
          "floor = sorted() of the same 25-card hands.")
    print(f"whole-hand results identical: {'yes' if same['digest'] else 'no'}; follow answers identical: "
          f"{'yes' if same['check_answers'] else 'no'} (rules changed since older revisions; "
          "identity is checked against the golden files by the tests)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameplay.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=str(DEFAULT_DEALS), help="deals.json for tractor")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--count", type=int, default=300, help="random deals per other variant")
    parser.add_argument("--tractor-only", action="store_true")
    parser.add_argument("--compare", metavar="REV", help="also time git revision REV, interleaved (see above)")
    parser.add_argument("--sample", type=int, default=1000, help="--compare: deals of deals.json to use")
    parser.add_argument("--rounds", type=int, default=5, help="--compare: interleaved rounds per tree")
    parser.add_argument("--passes", type=int, default=3, help="--compare: passes per measure (best taken)")
    parser.add_argument("--hands", type=int, default=30, dest="compare_hands",
                        help="--compare: seeded whole hands per variant and bot (0: none)")
    parser.add_argument("--json", action="store_true", help="--compare: print JSON")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("tricks", help="trick-level benchmarks (default)")
    hands = sub.add_parser("hands", help="whole hands per second with random and heuristic bots")
    hands.add_argument("--hands", type=int, default=500, help="hands per variant and bot")
    hands.add_argument("--play-deals", type=int, default=1000, help="deals of deals.json for the play phase alone")
    sub.add_parser("trickentry", help="time to check one entered trick at the 25th trick of a recorded hand")
    args = parser.parse_args(argv)
    if args.compare:
        args.hands = args.compare_hands
        return cmd_compare(args)
    if args.command == "trickentry":
        return cmd_trickentry(args)
    if args.command == "hands":
        return cmd_hands(args)
    return cmd_tricks(args)


if __name__ == "__main__":
    raise SystemExit(main())
