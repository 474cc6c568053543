"""Reads of tournaments and their matches: what a visitor may see, one match, its seats, the bracket tree."""

from __future__ import annotations

from typing import Any

from django.db.models import ForeignKey, Prefetch, Q, QuerySet
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from tournaments.labels import round_label, seat_label, side_label
from tournaments.models import Entry, HandRecord, Match, Stage, Tournament
from tournaments.permissions import can_view
from variants import LEVEL_NAMES

LEVELS = list(LEVEL_NAMES)


def level_index(level: str | None) -> int:
    return LEVELS.index(level) if level in LEVELS else 0


def tournaments_visible(user: Any) -> QuerySet[Tournament]:
    """What ``user`` may read (:func:`tournaments.permissions.can_view`): public tournaments past
    their draft; drafts and private ones for their own staff (organizers and scorers)."""
    qs = Tournament.objects.select_related("owner")
    if getattr(user, "is_superuser", False):
        return qs
    published = Q(is_public=True) & ~Q(status=Tournament.Status.DRAFT)
    if getattr(user, "is_authenticated", False):
        staff = Q(owner=user) | Q(organizers=user) | Q(scorers=user)
        return qs.filter(published | staff).distinct()
    return qs.filter(published)


CURRENT_STATUSES = (Tournament.Status.RUNNING, Tournament.Status.REGISTRATION)


def tournaments_current(user: Any, limit: int = 8) -> list[Tournament]:
    """The tournaments a visitor's home page leads to: running ones first, then those open for
    registration, then the latest finished ones — only what ``user`` may see."""
    visible = tournaments_visible(user)
    current = list(visible.filter(status__in=CURRENT_STATUSES).order_by("-status", "-id")[:limit])
    if len(current) < limit:
        current += list(visible.filter(status=Tournament.Status.FINISHED).order_by("-id")[:limit - len(current)])
    return current


def tournament_get_for_viewer(*, pk: int, user: Any) -> Tournament | None:
    tournament = Tournament.objects.select_related("owner").filter(pk=pk).first()
    if tournament is None or not can_view(user, tournament):
        return None
    return tournament


def matches_of(tournament: Tournament) -> QuerySet[Match]:
    return (Match.objects.filter(stage__tournament=tournament)
            .select_related("round", "stage", "entry0__team", "entry0__player", "entry1__team", "entry1__player")
            .order_by("stage__number", "round__number", "position"))


def is_final(match: Match) -> bool:
    """A result counts (brackets, pairings, standings) once it is finished and confirmed."""
    return match.status == Match.Status.FINISHED and match.confirmed_at is not None


def bracket_tree(stage: Stage) -> list[dict[str, Any]]:
    """The bracket's rounds as columns of matches (byes are shown as entries already in round 2)."""
    matches = list(stage.matches.select_related("round", "entry0__team", "entry0__player", "entry1__team",
                                                "entry1__player").order_by("round__number", "position"))
    columns: dict[int, dict[str, Any]] = {}
    third: list[Match] = []
    for m in matches:
        if m.key == "3P":
            third.append(m)
            continue
        col = columns.setdefault(m.round.number, {"number": m.round.number, "name": round_label(m.round.name),
                                                  "matches": []})
        col["matches"].append(m)
    out = [columns[k] for k in sorted(columns)]
    if third:
        out.append({"number": 0, "name": round_label("third-place"), "matches": third})
    return out


def current_tables(tournament: Tournament) -> list[Match]:
    return list(matches_of(tournament).filter(status__in=[Match.Status.READY, Match.Status.PLAYING])
                .order_by("table", "position"))


def match_detail(match_id: int) -> Match | None:
    return (Match.objects.select_related("stage__tournament", "round", "entry0__team__player1", "entry0__team__player2",
                                         "entry1__team__player1", "entry1__team__player2")
            .prefetch_related(Prefetch("hands", queryset=HandRecord.objects.order_by("number")
                                       .select_related("entered_by")))
            .filter(pk=match_id).first())


def load_entries(match: Match, *related: str) -> None:
    """Read the match's two entries (with ``related``, e.g. ``"team", "player"``) in one statement and
    keep them on the row, so ``match.entry0`` / ``entry1`` need no further query; no statement for a
    match without entries.

    The scoring pages' hand entry (``services.hand_record``) locks the match with its stage and
    tournament only and reads the entries with this, after recording: joining the entries, their teams
    and players to the locking statement made PostgreSQL plan ten tables for every hand, which cost more
    than a second, small statement."""
    ids = [pk for pk in (match.entry0_id, match.entry1_id) if pk is not None]
    found = {e.pk: e for e in Entry.objects.filter(pk__in=ids).select_related(*related).order_by()} if ids else {}
    for name, pk in (("entry0", match.entry0_id), ("entry1", match.entry1_id)):
        if pk in found:  # the cache only: the row's own entry0_id / entry1_id are left as they are
            field = Match._meta.get_field(name)
            assert isinstance(field, ForeignKey)  # entry0 and entry1 are foreign keys
            field.set_cached_value(match, found[pk])


def entry_answers(match: Match) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The match's two entries as the API shows them (id, name, seed; None for an empty slot), read in
    one statement as plain values — none for a match without entries (an individual table)."""
    ids = [pk for pk in (match.entry0_id, match.entry1_id) if pk is not None]
    rows = (Entry.objects.filter(pk__in=ids).order_by().values_list("id", "team__name", "player__name", "seed")
            if ids else [])
    found = {pk: {"id": pk, "name": team if team is not None else player, "seed": seed}
             for pk, team, player, seed in rows}
    return (found.get(match.entry0_id) if match.entry0_id is not None else None,
            found.get(match.entry1_id) if match.entry1_id is not None else None)


def seat_entries(match: Match) -> list[dict[str, Any]]:
    """An individual table's seats in play order: seat, entry id, entry name (empty for other matches)."""
    if match.section != "table":
        return []
    return [{"seat": s.seat, "entry": s.entry_id, "name": s.entry.name}
            for s in match.seats.select_related("entry__player", "entry__team").order_by("seat")]


def seat_names(match: Match) -> list[str]:
    """The four seats in play order: side 0 sits in seats 0 and 2, side 1 in seats 1 and 3."""
    names = ["—"] * 4
    for side in (0, 1):
        entry = match.entry(side)
        team = entry.team if entry is not None else None  # no query for an entry without a team
        if team is not None:
            names[side] = team.player1.name
            names[side + 2] = team.player2.name
    return names


def next_dealer_preview(match: Match) -> dict[str, Any] | None:
    """What the table page shows before a hand: dealer, whose level is played."""
    state = match.state or {}
    if not state:
        return None
    dealer = int(state["dealer"])
    side = dealer % 2
    return {"dealer": dealer, "dealer_side": side, "level": state["levels"][side],
            "label": _("%(seat)s deals; %(side)s plays its level %(level)s.")
            % {"seat": capfirst(seat_label(match.stage.tournament, dealer)), "side": side_label(match, side),
               "level": state["levels"][side]}}
