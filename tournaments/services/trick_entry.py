"""Entering a physical hand trick by trick (issue 16): a server-side draft per match or individual table.

Every write locks the match row, checks the draft's version (two devices cannot both write: 409),
checks the entry with the engine (:mod:`gameplay.record` — errors refuse the write, flags are kept
and shown), stores the draft and audits. Finishing derives the hand's totals and records them through
the ordinary hand services (:func:`tournaments.services.hands.hand_record` for matches,
:func:`tournaments.services.table_hands.table_hand_record` for individual tables), so scoring,
standings, corrections and the audit are exactly those of a hand entered by its totals; the
``shengji-record/1`` record and its flags are attached to the hand record as ``trick_log``.

The draft stores only what the scorer entered; what the match fixes (variant, options, decks or
players, the match state with the dealer and level) is added from the match each time it is derived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.i18n import core_lang
from gameplay.cards import format_cards
from gameplay.errors import GameplayError
from gameplay.record import (
    HandFacts,
    InvalidFacts,
    Issue,
    Play,
    RecordedHand,
    Recording,
    TrickEntry,
    derive,
    record_from_json,
    record_to_json,
)
from tournaments.errors import ServiceError
from tournaments.models import PARTNERSHIP_VARIANTS, HandRecord, Match, Stage, Tournament, TrickDraft
from tournaments.selectors.matches import seat_names
from tournaments.services.common import Actor, audit, lock_match
from tournaments.services.hands import HandOutcome, Scored, check_playable, hand_record, initial_state
from tournaments.services.table_hands import table_hand_record

ENTERED_FACTS = ("dealer", "leader", "trump", "level", "bid", "declarations", "kitty", "buried", "buried_by")
"""The facts a scorer enters; everything else comes from the match."""


class DraftConflict(Exception):
    """The draft changed since the writer read it, or another draft is already open (HTTP 409)."""

    def __init__(self, code: str, message: str, current: dict[str, Any] | None) -> None:
        self.code = code
        self.current = current
        super().__init__(message)


class EntryRefused(ServiceError):
    """An entry with blocking errors (out of turn, wrong count, a card not in the deck, …): nothing is
    stored. ``issues`` are the engine's errors with their codes."""

    def __init__(self, field_errors: dict[str, list[str]], issues: Sequence[Issue]) -> None:
        super().__init__(field_errors)
        self.issues = list(issues)


@dataclass(frozen=True)
class Entered:
    """A draft as a write left it, with the hand derived from it by that write (the answer shows it:
    nothing is judged again)."""

    draft: TrickDraft
    record: RecordedHand


def _lang() -> str:
    return core_lang()


# --------------------------------------------------------------------------- facts from the match


def _is_table(match: Match) -> bool:
    return match.stage.format == Stage.Format.TABLE_ROUNDS


def _clean_entered(entered: Any) -> dict[str, Any]:
    if not isinstance(entered, Mapping):
        raise ServiceError.one("facts", _("The hand facts must be an object."))
    unknown = sorted(set(entered) - set(ENTERED_FACTS))
    if unknown:
        raise ServiceError({f"facts.{k}": [_("Not a fact the scorer enters (the match gives it).")] for k in unknown})
    out = {k: entered[k] for k in ENTERED_FACTS if k in entered and entered[k] not in (None, "")}
    trump = out.get("trump")
    if isinstance(trump, str) and trump.upper() in ("NT", "NONE"):
        out.pop("trump")
    elif isinstance(trump, str):
        out["trump"] = trump.upper()
    return out


def match_facts(match: Match, entered: Mapping[str, Any]) -> HandFacts:
    """The full :class:`HandFacts` of the next hand of ``match`` from the scorer's ``entered`` facts.
    Raises :class:`ServiceError` naming the fact (``facts.dealer``, …)."""
    tournament: Tournament = match.stage.tournament
    data: dict[str, Any] = {"variant": tournament.variant, "options": dict(tournament.options or {}), **entered}
    if tournament.variant in PARTNERSHIP_VARIANTS:
        if match.hands_played:
            state = dict(match.state)
            dealer = int(state["dealer"])
            if entered.get("dealer") is not None and entered["dealer"] != dealer:
                raise ServiceError.one("facts.dealer", _("By the rules seat %(seat)s deals this hand, not seat %(got)s.")
                                       % {"seat": dealer, "got": entered["dealer"]})
        else:
            chosen = entered.get("dealer")
            if isinstance(chosen, bool) or not isinstance(chosen, int) or not 0 <= chosen <= 3:
                raise ServiceError.one("facts.dealer", _("Say who deals the first hand (the first declarer): a seat "
                                                         "from 0 to 3."))
            dealer = chosen
            state = initial_state(tournament, dealer)
        data["dealer"] = dealer
        data["state"] = state
        level = state["levels"][dealer % 2]
        if entered.get("level") is not None and str(entered["level"]) != str(level):
            raise ServiceError.one("facts.level", _("The dealer's side plays level %(level)s in this match.")
                                   % {"level": level})
        data["level"] = level
    elif len(tournament.spec.decks) > 1:  # red five: 2 or 3 decks
        data["decks"] = tournament.decks
    else:
        state = match.state or {}
        data["players"] = int(state.get("players") or tournament.players_per_table)
        if entered.get("dealer") is None and entered.get("leader") is None:
            data["leader"] = int(state.get("dealer", 0))  # nobody declared: the table's start seat leads
    try:
        facts = HandFacts.from_json(data)
        facts.context()
    except InvalidFacts as exc:
        raise ServiceError.one(f"facts.{exc.field}", exc.message(_lang())) from exc
    except GameplayError as exc:
        raise ServiceError.one("facts", exc.message(_lang())) from exc
    return facts


def parse_play(data: Any, path: str) -> Play:
    if not isinstance(data, Mapping):
        raise ServiceError.one(path, _("A play is an object with the seat and its cards."))
    try:
        return Play.from_json({k: v for k, v in data.items() if k in ("seat", "cards", "forced")})
    except GameplayError as exc:
        raise ServiceError.one(f"{path}.cards", exc.message(_lang())) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise ServiceError.one(path, _("A play is an object with the seat and its cards.")) from exc


def parse_trick(data: Any, path: str) -> TrickEntry:
    if not isinstance(data, Sequence) or isinstance(data, str | bytes) or not data:
        raise ServiceError.one(path, _("A trick is a list of plays in play order."))
    return TrickEntry(tuple(parse_play(p, f"{path}.{i}") for i, p in enumerate(data)))


def draft_tricks(draft: TrickDraft) -> list[TrickEntry]:
    return [TrickEntry.from_json(t) for t in draft.tricks]


# --------------------------------------------------------------------------- views of a draft


def issue_json(issue: Issue) -> dict[str, Any]:
    body = issue.to_json()
    body["message"] = issue.message(_lang())
    return body


def draft_json(draft: TrickDraft, match: Match | None = None, rec: RecordedHand | None = None) -> dict[str, Any]:
    """The draft as the API shows it: entered facts and tricks, and everything the engine derives."""
    match = match or draft.match
    facts = match_facts(match, draft.facts)
    rec = rec or derive(facts, draft_tricks(draft))
    derived = rec.to_json()["derived"]
    for key in ("errors", "flags"):
        derived[key] = [issue_json(i) for i in getattr(rec, key)]
    for t, j in zip(derived["tricks"], rec.tricks, strict=True):
        t["errors"] = [issue_json(i) for i in j.errors]
        t["flags"] = [issue_json(i) for i in j.flags]
    return {"match": match.pk, "number": draft.number, "version": draft.version, "facts": draft.facts,
            "hand_facts": facts.to_json(), "tricks": draft.tricks, "derived": derived,
            "updated_at": draft.updated_at.isoformat() if draft.updated_at else None}


def draft_record(draft: TrickDraft) -> dict[str, Any]:
    """The draft as a ``shengji-record/1`` record (export)."""
    return record_to_json(match_facts(draft.match, draft.facts), draft_tricks(draft))


# --------------------------------------------------------------------------- writes


def _check_open(match: Match) -> None:
    if _is_table(match):
        if match.status == Match.Status.FINISHED:
            raise ServiceError.one("match", _("This table is not taking hands."))
        if match.stage.tournament.status != Tournament.Status.RUNNING:
            raise ServiceError.one("match", _("The tournament is not running."))
        return
    check_playable(match)
    if match.stage.tournament.variant not in PARTNERSHIP_VARIANTS:
        raise ServiceError.one("match", _("Hands of this variant are recorded per table round."))
    if match.status == Match.Status.FINISHED:
        raise ServiceError.one("match", _("This match is finished; correct an earlier hand instead."))
    if match.time_called_at is not None:
        raise ServiceError.one("match", _("Time was called for this match: no further hands."))


def _locked_draft(match_id: int, version: Any) -> tuple[Match, TrickDraft]:
    """The match (locked) and its draft at ``version``; refuses a missing or stale draft."""
    match = lock_match(match_id)
    draft = TrickDraft.objects.filter(match=match).first()
    if draft is None:
        raise ServiceError.one("match", _("No hand is being entered trick by trick at this table: start one first."))
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError.one("version", _("Send the draft's current version (a whole number) with every change."))
    if version != draft.version:
        raise DraftConflict("stale_version", _("Someone else changed this hand first: reload and try again."),
                            draft_json(draft, match))
    draft.match = match  # already loaded with its stage and tournament
    if draft.number != match.hands_played + 1:
        raise DraftConflict("hand_recorded", _("Hand %(n)s was recorded or undone meanwhile: discard this entry "
                                               "and start again.") % {"n": draft.number}, None)
    return match, draft


def _save(draft: TrickDraft, actor: Actor, action: str, data: Mapping[str, Any]) -> None:
    draft.version += 1
    draft.updated_by = actor.user_or_none
    draft.updated_via = actor.via
    draft.save()
    audit(actor=actor, action=action, tournament=draft.match.stage.tournament, target=f"match:{draft.match_id}",
          data={"number": draft.number, "version": draft.version, **data})


def _refuse(issues: Sequence[Issue], path: str) -> EntryRefused:
    errors: dict[str, list[str]] = {}
    for issue in issues:
        errors.setdefault(path, []).append(issue.message(_lang()))
    return EntryRefused(errors, issues)


def draft_start(*, match_id: int, facts: Any, actor: Actor, tricks: Sequence[TrickEntry] = ()) -> Entered:
    """Open the trick-by-trick entry of the next hand with its facts (a stale draft of an earlier
    hand is replaced; an open draft of this hand is a 409)."""
    entered = _clean_entered(facts)
    with transaction.atomic():
        match = lock_match(match_id)
        _check_open(match)
        old = TrickDraft.objects.filter(match=match).first()
        if old is not None and old.number == match.hands_played + 1:
            raise DraftConflict("draft_exists", _("This hand is already being entered: continue it, or discard it "
                                                  "first."), draft_json(old, match))
        hand_facts = match_facts(match, entered)
        rec = derive(hand_facts, list(tricks))
        if rec.errors:
            raise _refuse(rec.errors, "tricks")
        if old is not None:
            old.delete()
        draft = TrickDraft(match=match, number=match.hands_played + 1, facts=entered,
                           tricks=[t.to_json() for t in tricks], version=0)
        _save(draft, actor, "trick.start", {"facts": entered, "tricks": len(tricks)})
        return Entered(draft, rec)


def draft_facts(*, match_id: int, version: Any, facts: Any, actor: Actor) -> Entered:
    """Change the entered facts; the tricks are judged again (they are kept even if now in error)."""
    entered = _clean_entered(facts)
    with transaction.atomic():
        match, draft = _locked_draft(match_id, version)
        hand_facts = match_facts(match, entered)
        before = draft.facts
        draft.facts = entered
        _save(draft, actor, "trick.facts", {"before": before, "after": entered})
        return Entered(draft, derive(hand_facts, draft_tricks(draft)))


def play_add(*, match_id: int, version: Any, play: Any, actor: Actor) -> tuple[Entered, dict[str, Any]]:
    """Enter one seat's play: it joins the trick being played, or starts the next one. A play with a
    blocking error is refused (nothing stored); flags are stored and answered. The stored tricks are
    judged once to rebuild the hand's state, the new play once against it, and the answer is that
    same state (a complete hand replayed and scored once)."""
    new = parse_play(play, "play")
    with transaction.atomic():
        match, draft = _locked_draft(match_id, version)
        facts = match_facts(match, draft.facts)
        tricks = draft_tricks(draft)
        open_trick = bool(tricks) and len(tricks[-1].plays) < facts.rules().players
        earlier = tricks[:-1] if open_trick else tricks
        plays = (*tricks[-1].plays, new) if open_trick else (new,)
        recording = Recording.of(facts, earlier)
        judgement = recording.judge(plays)
        if judgement.errors:
            raise _refuse(judgement.errors, "play")
        recording.commit(judgement)
        if open_trick:
            tricks[-1] = TrickEntry(plays)
        else:
            tricks.append(TrickEntry(plays))
        draft.tricks = [t.to_json() for t in tricks]
        _save(draft, actor, "trick.play", {"trick": len(tricks), "play": new.to_json()})
        answer = judgement.to_json() | {"flags": [issue_json(f) for f in judgement.flags]}
        return Entered(draft, recording.derived()), answer


def trick_put(*, match_id: int, version: Any, index: Any, plays: Any, actor: Actor) -> Entered:
    """Enter (``index`` = the number of tricks entered) or correct (an earlier ``index``, 0-based) a
    whole trick; every trick after a corrected one is judged again."""
    with transaction.atomic():
        match, draft = _locked_draft(match_id, version)
        tricks = draft_tricks(draft)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= len(tricks):
            raise ServiceError.one("number", _("Trick %(n)s cannot be entered: %(m)s tricks are entered so far.")
                                   % {"n": (index + 1) if isinstance(index, int) else index, "m": len(tricks)})
        entry = parse_trick(plays, "plays")
        facts = match_facts(match, draft.facts)
        recording = Recording.of(facts, tricks[:index])
        judgement = recording.judge(entry.plays)
        if judgement.errors:
            raise _refuse(judgement.errors, "plays")
        recording.commit(judgement)
        for later in tricks[index + 1:]:  # a corrected trick: the later ones are judged again, once
            recording.add(later.plays)
        before = draft.tricks[index] if index < len(tricks) else None
        if index == len(tricks):
            tricks.append(entry)
        else:
            tricks[index] = entry
        draft.tricks = [t.to_json() for t in tricks]
        _save(draft, actor, "trick.correct" if before is not None else "trick.enter",
              {"trick": index + 1, "before": before, "after": entry.to_json()})
        return Entered(draft, recording.derived())


def play_undo(*, match_id: int, version: Any, actor: Actor) -> Entered:
    """Remove the last entered play (a trick left empty goes too)."""
    with transaction.atomic():
        match, draft = _locked_draft(match_id, version)
        tricks = [list(t) for t in draft.tricks]
        if not tricks:
            raise ServiceError.one("tricks", _("No play has been entered yet."))
        removed = tricks[-1].pop()
        if not tricks[-1]:
            tricks.pop()
        draft.tricks = tricks
        _save(draft, actor, "trick.undo", {"play": removed})
        return Entered(draft, derive(match_facts(match, draft.facts), draft_tricks(draft)))


def draft_discard(*, match_id: int, version: Any, actor: Actor) -> None:
    with transaction.atomic():
        match = lock_match(match_id)
        draft = TrickDraft.objects.filter(match=match).first()
        if draft is None:
            raise ServiceError.one("match", _("No hand is being entered trick by trick at this table."))
        if version != draft.version:
            raise DraftConflict("stale_version", _("Someone else changed this hand first: reload and try again."),
                                draft_json(draft, match))
        audit(actor=actor, action="trick.discard", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"number": draft.number, "facts": draft.facts, "tricks": draft.tricks})
        draft.delete()


@dataclass(frozen=True)
class Finished:
    done: HandOutcome
    record: RecordedHand


def draft_finish(*, match_id: int, version: Any, actor: Actor, ruling: str = "") -> Finished:
    """Record the complete hand: its derived totals go through the ordinary hand service (same
    scoring, standings, corrections and audit) and the record with its flags is attached."""
    with transaction.atomic():
        match, draft = _locked_draft(match_id, version)
        facts = match_facts(match, draft.facts)
        tricks = draft_tricks(draft)
        rec = derive(facts, tricks)
        if rec.errors:
            raise _refuse(rec.errors, "tricks")
        if not rec.complete or rec.outcome is None:
            raise ServiceError.one("tricks", _("The hand is not complete: %(n)s tricks entered, every card must be "
                                               "played before the hand is recorded.") % {"n": len(tricks)})
        if rec.flags and not (ruling or "").strip():
            raise ServiceError.one("ruling", _("The hand has flags: record the ruling (who decided what) before "
                                               "recording it."))
        outcome = dict(rec.outcome)
        if _is_table(match):
            done = table_hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor)
        else:
            assert rec.hand is not None and rec.result is not None
            done = hand_record(match_id=match.pk, outcome=outcome, version=match.version, actor=actor,
                               dealer=facts.dealer if not match.hands_played else None, trump=facts.trump,
                               scored=Scored(rec.hand.scoring, rec.hand.match_state, rec.result, rec.hand.new_state))
        log = record_to_json(facts, tricks)
        log["flags"] = [f.to_json() for f in rec.flags]
        log["ruling"] = (ruling or "").strip()
        HandRecord.objects.filter(pk=done.hand.pk).update(trick_log=log)
        done.hand.trick_log = log
        audit(actor=actor, action="trick.finish", tournament=match.stage.tournament, target=f"match:{match.pk}",
              data={"number": done.hand.number, "flags": [f.code for f in rec.flags], "ruling": log["ruling"]})
        draft.delete()
        return Finished(done, rec)


def draft_import(*, match_id: int, record: Any, actor: Actor, version: Any = None) -> Entered:
    """Open (or, with the draft's ``version``, replace) the entry from a ``shengji-record/1`` record."""
    try:
        facts, tricks = record_from_json(record)
    except InvalidFacts as exc:
        raise ServiceError.one(f"record.{exc.field}" if exc.field != "record" else "record",
                               exc.message(_lang())) from exc
    with transaction.atomic():
        match = lock_match(match_id)
        if facts.variant != match.stage.tournament.variant:
            raise ServiceError.one("record.facts.variant", _("The record is of %(got)s, this tournament plays "
                                                            "%(want)s.") % {"got": facts.variant,
                                                                            "want": match.stage.tournament.variant})
        old = TrickDraft.objects.filter(match=match).first()
        if old is not None and old.number == match.hands_played + 1:
            if version != old.version:
                raise DraftConflict("draft_exists" if version is None else "stale_version",
                                    _("This hand is already being entered: send its version to replace it."),
                                    draft_json(old, match))
            old.delete()
    entered = {k: v for k, v in facts.to_json().items() if k in ENTERED_FACTS and v not in (None, [], "")}
    if match.stage.tournament.variant in PARTNERSHIP_VARIANTS:
        entered.pop("level", None)
        if match.hands_played:
            entered.pop("dealer", None)
    try:
        return draft_start(match_id=match_id, facts=entered, actor=actor, tricks=tricks)
    except EntryRefused as exc:
        raise type(exc)(_under_record(exc.field_errors), exc.issues) from exc
    except ServiceError as exc:
        raise type(exc)(_under_record(exc.field_errors)) from exc


def _under_record(field_errors: dict[str, list[str]]) -> dict[str, list[str]]:
    """The errors of a recorded hand's facts, under its ``record`` path."""
    return {f"record.{k}": v for k, v in field_errors.items()}


# --------------------------------------------------------------------------- the live table


def live_signal(match_id: int) -> tuple[Any, ...]:
    """A cheap change signal for the live page: the match's version and the draft's version."""
    m = Match.objects.filter(pk=match_id).values_list("version", "hands_played").first()
    d = TrickDraft.objects.filter(match_id=match_id).values_list("pk", "version").first()
    return (m, d)


def live_state(match: Match) -> dict[str, Any]:
    """What the live page shows: the hand being entered (trick on the table, cards played by each seat,
    points taken), the levels or totals, and the last recorded hand."""
    tournament = match.stage.tournament
    draft = TrickDraft.objects.filter(match=match).first()
    if _is_table(match):
        names = [s.entry.name for s in match.seats.select_related("entry__team", "entry__player").order_by("seat")]
    else:
        names = seat_names(match)  # by the player in the seat: a team's two seats are told apart
    state = match.state or {}
    out: dict[str, Any] = {
        "match": match.pk, "key": match.key, "variant": tournament.variant, "tournament": tournament.name,
        "seats": names, "hands_played": match.hands_played, "status": match.status, "version": match.version,
        "levels": state.get("levels"), "totals": state.get("totals"), "dealer": state.get("dealer"), "hand": None,
    }
    if draft is not None and draft.number == match.hands_played + 1:
        try:
            facts = match_facts(match, draft.facts)
        except ServiceError:
            return out
        tricks = draft_tricks(draft)
        rec = derive(facts, tricks)
        n = facts.rules().players
        played: list[list[str]] = [[] for _ in range(n)]
        for t in tricks:
            for p in t.plays:
                played[p.seat].extend(format_cards(p.on_table).split())
        current = rec.tricks[-1] if rec.tricks else None
        on_table = current is not None and current.next_seat is not None
        last_done = next((j for j in reversed(rec.tricks) if j.winner is not None), None)
        out["hand"] = {
            "number": draft.number, "version": draft.version, "dealer": facts.dealer, "trump": facts.trump,
            "level": facts.played_level(), "bid": facts.bid, "tricks_entered": len(tricks),
            "trick": None if current is None else {
                "number": current.index + 1, "leader": current.leader, "next_seat": current.next_seat,
                "winner": current.winner, "points": current.points, "open": on_table,
                "plays": [p.to_json() for p in current.plays]},
            "last_winner": None if last_done is None else last_done.winner,
            "played": played, "points": list(rec.points), "next_seat": rec.next_seat, "complete": rec.complete,
            "flags": [issue_json(f) for f in rec.flags], "errors": [issue_json(e) for e in rec.errors],
        }
    last = match.hands.order_by("-number").first()
    if last is not None:
        out["last_hand"] = {"number": last.number, "outcome": last.outcome, "trick_log": last.trick_log is not None}
    return out
