"""Recording a physical hand trick by trick (gameplay.record): entry checks, full-hand flags,
derived totals equal to the engine's own, corrections, the JSON record."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping

import pytest

from gameplay.bots import make_bot
from gameplay.cards import deck_codes, from_counts, parse_cards, to_counts
from gameplay.legality import first_legal_follow
from gameplay.record import (
    ERROR_CODES,
    FLAG_CODES,
    HandFacts,
    InvalidFacts,
    Play,
    TrickEntry,
    check_trick,
    derive,
    facts_from_hand,
    record_from_json,
    record_to_json,
    tricks_from_hand,
)
from gameplay.simulate import hand_seed, independent_config, make_hand, play_out, seat_bots

C = parse_cards
TRACTOR = HandFacts("tractor", dealer=0, trump="H", level="2")

CASES = [("tractor", {}), ("chaodi", {}), ("red-five", {"decks": 2}), ("red-five", {"decks": 3}),
         ("yongzhou-300", {"players": 3}), ("yongzhou-300", {"players": 4})]


def P(seat: int, text: str, forced: str | None = None) -> Play:
    return Play(seat, tuple(C(text)), None if forced is None else tuple(C(forced)))


def codes(issues) -> list[str]:
    return [i.code for i in issues]


# ---------------------------------------------------------------- building complete hands


def deal(facts: HandFacts, seed: int, wants: Mapping[int, str], extra: Mapping[int, str] | None = None
         ) -> tuple[list[list[int]], list[int]]:
    """Seeded hands of ``hand_size`` cards with ``wants`` moved into the given seats (``extra``:
    cards added beyond the hand size, taken from the kitty); returns (count lists, kitty)."""
    rules = facts.rules()
    rng = random.Random(seed)
    deck = deck_codes(rules.decks, rules.removed_ranks)
    wanted = {s: C(t) for s, t in wants.items()}
    extras = {s: C(t) for s, t in (extra or {}).items()}
    for cs in [*wanted.values(), *extras.values()]:
        for c in cs:
            deck.remove(c)
    rng.shuffle(deck)
    size = rules.hand_size
    hands = []
    for s in range(rules.players):
        mine = list(wanted.get(s, []))
        while len(mine) < size:
            mine.append(deck.pop())
        hands.append(to_counts(mine + extras.get(s, [])))
    kitty = deck
    assert len(kitty) == rules.kitty_size - sum(len(v) for v in extras.values())
    return hands, kitty


def play(facts: HandFacts, hands: list[list[int]], script: Mapping[tuple[int, int], Play] | None = None,
         drop: Mapping[int, tuple[int, int]] | None = None) -> list[TrickEntry]:
    """Enter a whole hand: scripted plays where given, otherwise the leader's lowest single and the
    first legal follow; ``drop[t] = (seat, card)`` removes a card from a hand after trick ``t``."""
    ctx = facts.context()
    n = ctx.rules.players
    script = dict(script or {})
    drop = dict(drop or {})
    tricks: list[TrickEntry] = []
    t = 0
    while any(sum(h) for h in hands):
        plays: list[Play] = []
        for i in range(n):
            j = check_trick(facts, tricks, plays) if plays else None
            leader = j.leader if j else check_trick(facts, tricks, [Play(0, (0,))]).leader
            seat = (leader + i) % n
            p = script.get((t, seat))
            if p is None:
                if not plays:
                    c = min(from_counts(hands[seat]), key=ctx.sortkey.__getitem__)
                    p = Play(seat, (c,))
                else:
                    from gameplay.combos import classify
                    lead = classify(ctx, plays[0].on_table)
                    f = first_legal_follow(ctx, hands[seat], lead, prior=[list(x.on_table) for x in plays])
                    assert f is not None
                    p = Play(seat, tuple(f))
            plays.append(p)
        for p in plays:
            for c in p.on_table:
                hands[p.seat][c] -= 1
        if t in drop:
            s, c = drop[t]
            hands[s][c] -= 1
        tricks.append(TrickEntry(tuple(plays)))
        t += 1
    return tricks


def complete(facts: HandFacts, seed: int, wants: Mapping[int, str], script: Mapping[tuple[int, int], Play],
             **kw) -> tuple[list[TrickEntry], object]:
    hands, _ = deal(facts, seed, wants, kw.pop("extra", None))
    tricks = play(facts, hands, script, **kw)
    rec = derive(facts, tricks)
    assert rec.complete, [e.en for e in rec.errors]
    return tricks, rec


# ---------------------------------------------------------------- entry-time checks


def test_the_engine_names_the_leader_then_each_winner():
    t0 = [P(0, "S9"), P(1, "SA"), P(2, "S3"), P(3, "S4")]
    j = check_trick(TRACTOR, [], t0)
    assert (j.leader, j.winner, j.points, j.next_seat, j.complete) == (0, 1, 0, None, True)
    j1 = check_trick(TRACTOR, [TrickEntry(tuple(t0))], [P(1, "DK")])
    assert (j1.leader, j1.next_seat, j1.winner) == (1, 2, None)
    j2 = check_trick(TRACTOR, [t0], [P(1, "DK"), P(2, "D5"), P(3, "H3"), P(0, "D10")])
    assert (j2.winner, j2.points, j2.shape) == (3, 25, "single")


@pytest.mark.parametrize("facts,earlier,plays,code,seat", [
    (HandFacts("yongzhou-300", dealer=1, trump="S", players=4), [], [P(1, "S3")], "not_in_deck", 1),
    (TRACTOR, [[P(0, "SA"), P(1, "SA"), P(2, "S3"), P(3, "S4")]], [P(0, "SA")], "too_many_copies", 0),
    (TRACTOR, [], [P(1, "SA")], "out_of_turn", 1),
    (TRACTOR, [], [P(0, "S9 S9"), P(1, "S3")], "wrong_count", 1),
    (TRACTOR, [], [P(0, "SA SK", forced="SA SK"), P(1, "S3 S4")], "bad_forced", 0),
    (TRACTOR, [], [P(0, "SA SK", forced="SQ"), P(1, "S3")], "bad_forced", 0),
    (TRACTOR, [], [P(0, "S9"), P(1, "S3", forced="S3")], "bad_forced", 1),
    (TRACTOR, [], [P(0, "SA DA")], "mixed_lead", 0),
    (TRACTOR, [[P(0, "SA"), P(2, "S3")]], [P(1, "S4")], "earlier_trick_invalid", None),
])
def test_blocking_errors(facts, earlier, plays, code, seat):
    j = check_trick(facts, earlier, plays)
    assert code in codes(j.errors)
    err = next(e for e in j.errors if e.code == code)
    assert err.blocking and err.seat == seat and err.en and err.zh and err.en != err.zh
    assert err.message("zh-hans") == err.zh and j.winner is None and not j.complete
    assert code in ERROR_CODES


def test_a_failed_throw_is_entered_with_its_forced_component():
    j = check_trick(TRACTOR, [], [P(0, "SK SQ", forced="SQ"), P(1, "S3"), P(2, "SA"), P(3, "S4")])
    assert not j.errors and (j.shape, j.winner, j.points) == ("single", 2, 0)
    penalised = HandFacts("tractor", dealer=0, trump="H", level="2", options={"throw_penalty": 10})
    j = check_trick(penalised, [], [P(0, "SK SQ S9", forced="S9"), P(1, "S3"), P(2, "SA"), P(3, "S4")])
    assert j.penalty == 20


def test_revoke_names_both_tricks():
    t0 = [P(0, "C9"), P(1, "D3"), P(2, "C3"), P(3, "C4")]
    t1 = [P(0, "CA"), P(1, "C5"), P(2, "C6"), P(3, "C7")]
    j = check_trick(TRACTOR, [t0], t1)
    f = next(f for f in j.flags if f.code == "revoke")
    assert (f.seat, f.tricks, f.blocking) == (1, (0, 1), False)
    assert "trick 1" in f.en and "trick 2" in f.en and "第1轮" in f.zh and "第2轮" in f.zh
    assert j.winner == 0 and not j.errors  # a flag does not block


def test_revoke_also_when_leading_the_suit():
    t0 = [P(0, "C9"), P(1, "D3"), P(2, "C3"), P(3, "C4")]
    t1 = [P(0, "D9"), P(1, "DA"), P(2, "D3"), P(3, "D4")]
    j = check_trick(TRACTOR, [t0, t1], [P(1, "C5")])
    assert codes(j.flags) == ["revoke"]


def test_throw_not_allowed_is_flagged_but_judged():
    facts = HandFacts("red-five", dealer=2, trump="S", bid=100)
    j = check_trick(facts, [], [P(2, "HA HK"), P(3, "H3 H4"), P(0, "H6 H7"), P(1, "H8 H9")])
    assert codes(j.flags) == ["throw_not_allowed"] and j.flags[0].seat == 2 and j.winner == 2 and j.points == 10


def test_cards_after_the_hand_is_over():
    facts = HandFacts("tractor", dealer=0, trump="H", level="2")
    tricks, _ = complete(facts, 1, {}, {})
    rec = derive(facts, [*tricks, [P(0, "SA")]])
    assert not rec.complete and codes(rec.errors) == ["hand_over"]


def test_impossible_facts_are_refused_with_the_field():
    with pytest.raises(InvalidFacts) as e:
        check_trick(HandFacts("red-five", dealer=0, trump="S"), [], [P(0, "SA")])
    assert e.value.field == "bid"
    with pytest.raises(InvalidFacts) as e:
        check_trick(HandFacts("tractor", dealer=0, trump="X", level="2"), [], [P(0, "SA")])
    assert e.value.field == "trump"
    with pytest.raises(InvalidFacts) as e:
        check_trick(HandFacts("yongzhou-300", dealer=None, trump=None), [], [P(0, "SA")])
    assert e.value.field == "leader"
    with pytest.raises(InvalidFacts) as e:
        check_trick(HandFacts("tractor", dealer=7, trump="H", level="2"), [], [P(0, "SA")])
    assert e.value.field == "dealer"


# ---------------------------------------------------------------- full-hand re-judging


def flag(rec, code):
    found = [f for f in rec.flags if f.code == code]
    assert found, [f.en for f in rec.flags]
    assert code in FLAG_CODES and all(not f.blocking and f.en and f.zh for f in found)
    return found[0]


def test_two_singles_to_a_pair_while_holding_a_pair():
    _, rec = complete(TRACTOR, 2, {0: "S9 S9", 1: "S5 S5 S3"}, {(0, 0): P(0, "S9 S9"), (0, 1): P(1, "S5 S3")})
    f = flag(rec, "illegal_follow")
    assert (f.seat, f.tricks) == (1, (0,)) and "S5 S3" in f.en and "第1轮" in f.zh


def test_throw_entered_standing_that_should_fail():
    _, rec = complete(TRACTOR, 3, {0: "SK SQ", 1: "SA"}, {(0, 0): P(0, "SK SQ")})
    f = flag(rec, "throw_should_fail")
    assert (f.seat, f.tricks) == (0, (0,)) and "seat 1" in f.en


def test_throw_entered_failed_that_stood():
    _, rec = complete(TRACTOR, 4, {0: "SA SA SK"}, {(0, 0): P(0, "SA SA SK", forced="SK")})
    f = flag(rec, "throw_stood")
    assert (f.seat, f.tricks) == (0, (0,))


def test_failed_throw_with_the_wrong_forced_component():
    _, rec = complete(TRACTOR, 5, {0: "SK SQ", 1: "SA"}, {(0, 0): P(0, "SK SQ", forced="SK")})
    f = flag(rec, "wrong_forced")
    assert f.seat == 0 and "SQ" in f.en


def test_returned_cards_of_a_failed_throw_must_still_be_held():
    sk = C("SK")[0]
    _, rec = complete(TRACTOR, 6, {0: "SQ", 1: "SA SK"}, {(0, 0): P(0, "SK SQ", forced="SQ")},
                      extra={0: "SK"}, drop={0: (0, sk)})
    f = flag(rec, "illegal_lead")
    assert (f.seat, f.tricks) == (0, (0,)) and "SK" in f.en
    assert sk in rec.kitty


def test_a_revoke_is_not_flagged_twice():
    _, rec = complete(TRACTOR, 7, {0: "C9", 1: "D3 C5"}, {(0, 0): P(0, "C9"), (0, 1): P(1, "D3")})
    assert flag(rec, "revoke").seat == 1
    assert not [f for f in rec.flags if f.code == "illegal_follow" and f.seat == 1 and f.tricks == (0,)]


def test_declared_cards_never_played():
    hands, _ = deal(TRACTOR, 8, {})
    h2 = C("H2")[0]
    seat = next(s for s in (1, 3) if hands[s][h2] == 0)
    facts = HandFacts("tractor", dealer=0, trump="H", level="2", declarations=((seat, (h2,)),))
    rec = derive(facts, play(facts, hands))
    f = flag(rec, "declaration_not_held")
    assert f.seat == seat and "H2" in f.en


def test_outcome_refused_by_the_scoring_core():
    facts = HandFacts("red-five", dealer=0, trump="S", bid=7)
    hands, _ = deal(facts, 9, {})
    rec = derive(facts, play(facts, hands))
    assert not rec.complete and codes(rec.errors) == ["outcome_invalid"] and "bid" in rec.errors[0].en


def test_correcting_a_trick_re_derives_everything_after_it():
    facts = TRACTOR
    tricks, good = complete(facts, 10, {}, {})
    bad = list(tricks)
    first = bad[0].plays
    wrong = Play(first[1].seat, tuple(C("S3")) * len(first[1].cards))
    bad[0] = TrickEntry((first[0], wrong, *first[2:]))
    rec = derive(facts, bad)
    assert not rec.complete and rec.errors
    fixed = derive(facts, [tricks[0], *bad[1:]])
    assert fixed == good and fixed.outcome == good.outcome


# ---------------------------------------------------------------- the engine's own hands


def simulated(variant: str, kw: dict, seed: int, index: int, bots=("random", "heuristic")):
    hs = hand_seed(seed, index)
    n = kw.get("players", 4)
    names = seat_bots(variant, n, list(bots))
    h = make_hand(variant, hs, **kw, **independent_config(variant, index, n))
    play_out(h, [make_bot(nm, random.Random(hs * 7 + s)) for s, nm in enumerate(names)])
    return h


def same_as_engine(h) -> None:
    facts, tricks = record_from_json(json.loads(json.dumps(record_to_json(facts_from_hand(h), tricks_from_hand(h)))))
    rec = derive(facts, tricks)
    assert rec.complete and not rec.errors and not rec.flags, [f.en for f in rec.flags]
    assert rec.winners() == [t[2] for t in h.tricks]
    assert [t.points for t in rec.tricks] == [t[3] for t in h.tricks]
    assert [t.leader for t in rec.tricks] == [t[0] for t in h.tricks]
    assert rec.points == tuple(h.points) and rec.kitty_points == h.kitty_points()
    assert rec.outcome == h.outcome and rec.score_request == h.score_request() and rec.result == h.result


@pytest.mark.parametrize("variant,kw", CASES)
def test_derived_outcome_equals_the_engine_played_hand(variant, kw):
    for index in range(4):
        same_as_engine(simulated(variant, kw, 31, index))


@pytest.mark.slow
@pytest.mark.parametrize("variant,kw", CASES)
def test_thousands_of_simulated_hands_replay_through_trick_entry(variant, kw):
    for index in range(350):
        same_as_engine(simulated(variant, kw, 20261130, index, ("random", "random") if index % 2 else
                                 ("heuristic", "random")))


def test_entered_hand_matches_the_totals_entry_of_the_same_hand():
    """The derived outcome is what the scoring API scores for the same hand."""
    from scoring.api import score_hand_request

    h = simulated("tractor", {}, 77, 1)
    rec = derive(facts_from_hand(h), tricks_from_hand(h))
    assert rec.score_request is not None
    assert score_hand_request(rec.score_request) == score_hand_request(h.score_request())


def test_record_json_round_trip_and_hand_log():
    h = simulated("chaodi", {}, 12, 0)
    facts, tricks = facts_from_hand(h), tricks_from_hand(h)
    data = record_to_json(facts, tricks)
    assert data["format"] == "shengji-record/1" and data["tricks"][0][0]["kind"] == "play"
    f2, t2 = record_from_json(json.dumps(data))
    assert f2 == facts and t2 == tricks
    rec = derive(f2, t2)
    log = rec.hand_log()
    assert log is not None and log["format"] == "shengji-hand/1" and log["events"][0]["kind"] == "position"
    assert [e for e in log["events"] if e["kind"] == "play"] == [p for t in data["tricks"] for p in t]
    assert json.loads(json.dumps(rec.to_json()))["derived"]["outcome"] == h.outcome
    with pytest.raises(InvalidFacts):
        record_from_json({"format": "nope"})


def test_replay_page_view_model_accepts_a_recorded_hand():
    from rules_web.replay_views import replay_context

    h = simulated("red-five", {"decks": 2}, 3, 0)
    rec = derive(facts_from_hand(h), tricks_from_hand(h))
    assert rec.hand is not None
    mine, engine = replay_context(rec.hand), replay_context(h)
    for key in ("tricks", "outcome", "result", "kitty_final", "kitty_points", "dealer", "bid"):
        assert mine[key] == engine[key], key


def test_bench_trickentry_reports_the_25th_trick(capsys):
    from gameplay.bench import main

    assert main(["trickentry"]) == 0
    out = capsys.readouterr().out
    assert "check_trick at trick 25 of 25" in out and " ms" in out


def test_record_imports_without_django():
    import subprocess
    import sys
    from pathlib import Path

    code = ("import os, sys\nos.environ.pop('DJANGO_SETTINGS_MODULE', None)\nimport gameplay.record\n"
            "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
            "assert not bad, bad\nprint('ok')\n")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def _tied_yongzhou_hand():
    for index in range(400):
        h = simulated("yongzhou-300", {"players": 4}, 11, index)
        if "tie_break" in (h.outcome or {}):
            return h
    raise AssertionError("no tied yongzhou hand in 400 seeded hands")


def test_a_tied_yongzhou_hand_needs_the_tables_draw_and_scores_with_it() -> None:
    """RULES §6.4: a tie for the most points is drawn at the table; the record takes the drawn seat
    (``tie_break``) as a fact, refuses a tied hand without it, and scores the next dealer from it."""
    h = _tied_yongzhou_hand()
    facts, tricks = facts_from_hand(h), tricks_from_hand(h)
    tied = [s for s, p in enumerate(h.points) if p == max(h.points)]
    without = derive(dataclasses.replace(facts, tie_break=None), tricks)
    assert without.hand is None and [e.code for e in without.errors] == ["tie_break_missing"]
    assert "tie_break" in without.errors[0].en and "抽签" in without.errors[0].zh
    for seat in tied:
        rec = derive(dataclasses.replace(facts, tie_break=seat), tricks)
        assert not rec.errors and rec.outcome is not None and rec.outcome["tie_break"] == seat
    other = next(s for s in range(4) if s not in tied)
    refused = derive(dataclasses.replace(facts, tie_break=other), tricks)
    assert [e.code for e in refused.errors] == ["outcome_invalid"]
    assert HandFacts.from_json(json.loads(json.dumps(facts.to_json()))).tie_break == facts.tie_break
