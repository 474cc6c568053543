"""One judge of a trick (issue 29): the recording judge (:mod:`gameplay.record`, entry checks, then
the complete hand replayed through the engine's :class:`Hand`, :mod:`gameplay.record_replay`) agrees
with :meth:`Hand.play` on every trick of bot-played hands, and flags nothing in a legal hand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.events import Play as PlayEvent
from gameplay.record import Recording, derive, facts_from_hand, tricks_from_hand

from .test_record import CASES, simulated


def penalties_of(plays) -> int:
    return sum(e.penalty for e in plays if isinstance(e, PlayEvent))


@settings(max_examples=50, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31 - 1), index=st.integers(0, 40),
       bots=st.sampled_from([("random", "random"), ("heuristic", "random"), ("heuristic", "heuristic")]))
def test_recording_judge_agrees_with_hand_play(case, seed, index, bots) -> None:
    variant, kw = case
    h = simulated(variant, kw, seed, index, bots)
    facts, tricks = facts_from_hand(h), tricks_from_hand(h)
    rec = derive(facts, tricks)
    assert rec.complete and not rec.errors and rec.flags == (), [f.en for f in rec.flags]
    engine = [(leader, winner, points, penalties_of(plays)) for leader, plays, winner, points in h.tricks]
    entered = [(j.leader, j.winner, j.points, j.penalty) for j in rec.tricks]
    assert entered == engine
    assert rec.hand is not None
    replayed = [(leader, winner, points, penalties_of(plays)) for leader, plays, winner, points in rec.hand.tricks]
    assert replayed == engine
    assert rec.points == tuple(h.points) and rec.penalties == tuple(h.penalties)
    assert rec.outcome == h.outcome and rec.result == h.result


def test_each_trick_is_judged_once_and_the_complete_hand_replayed_once(monkeypatch) -> None:
    import gameplay.record as record

    h = simulated("tractor", {}, 7, 1)
    facts, tricks = facts_from_hand(h), tricks_from_hand(h)
    judged: list[int] = []
    replays: list[int] = []
    judge, replay = Recording.judge, record.replay_record

    def counted_judge(self, plays):
        judged.append(1)
        return judge(self, plays)

    def counted_replay(*args):
        replays.append(1)
        return replay(*args)

    monkeypatch.setattr(Recording, "judge", counted_judge)
    monkeypatch.setattr(record, "replay_record", counted_replay)
    recording = Recording(facts)
    for t in tricks:
        recording.add(t.plays)
    first = recording.derived()
    assert recording.derived() is first and first.complete
    assert len(judged) == len(tricks) and len(replays) == 1
