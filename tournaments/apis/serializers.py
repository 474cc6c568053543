"""Answers shared by several areas of the API: a match, a standings row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Match

PLACE_HELP = (
    "The entry's place as the printed standings show it, a string: `\"1\"`, `\"2\"` … Elimination: a decided "
    "place (final, third-place match, grand final) or, for an entry knocked out, the place it shares with the "
    "entries out in the same round (two semi-final losers without a third-place match are both `\"3\"`; the "
    "four quarter-final losers of eight are all `\"5\"`); `null` while the entry is still playing (see "
    "`place_range`). Swiss, round robin and table rounds: the rank, shared on a tie (provisional until the "
    "stage is finished). Never empty once an entry is out.")
PLACE_RANGE_HELP = (
    "Elimination, an entry still playing: the places it can still reach, `\"1–2\"` for the two finalists "
    "before the final, `\"3–4\"` for the semi-final losers before their third-place match (an en dash; one "
    "number when only one place is left); `null` once `place` is set "
    "and in other formats.")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="the rank; entries equal on every criterion share it")
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField()
    place = serializers.CharField(source="entry_place", allow_null=True, help_text=PLACE_HELP)
    place_range = serializers.CharField(allow_null=True, help_text=PLACE_RANGE_HELP)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    level_difference = serializers.IntegerField()
    reached = serializers.IntegerField(help_text="the furthest round reached")
    alive = serializers.BooleanField(help_text="still playing (not knocked out, no place decided by a final)")


class StageStandingRowSerializer(serializers.Serializer):
    """A row of ``/stages/{id}/standings/`` (and of ``/tournaments/{id}/standings/`` for a stage that is not
    an elimination): an elimination's rows also carry :class:`StandingSerializer`'s fields."""

    rank = serializers.IntegerField(help_text="the rank; entries equal on every criterion share it")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.CharField(allow_null=True, help_text=PLACE_HELP)
    place_range = serializers.CharField(allow_null=True, help_text=PLACE_RANGE_HELP)
    shared = serializers.BooleanField(required=False, help_text="the rank is shared (not for an elimination)")
    values = serializers.DictField(help_text="each column's value by its key (see `columns`)")


class StandingsColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label


class StageStandingsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["elimination", "matches", "tables"],
                                   help_text="`elimination`, `matches` (Swiss, round robin) or `tables` (red five, Yongzhou)")
    columns = StandingsColumnSerializer(many=True, help_text="the columns of `values`, in order")
    rows = StageStandingRowSerializer(many=True)


def standing_row(row: Any) -> dict[str, Any]:
    """A Swiss, round-robin or table-rounds row (:class:`tournaments.selectors.standings.TableRow`)."""
    return {"rank": row.rank, "entry": row.entry.pk, "name": row.name, "place": row.entry_place,
            "place_range": row.place_range, "shared": getattr(row, "shared", False), "values": dict(row.values)}


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    round_name = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "stage", "round", "round_name", "key", "section", "position", "table", "entries", "seats",
                  "status", "winner_side", "is_draw", "confirmed", "state", "hands_played", "version", "next_match",
                  "next_slot", "loser_next_match", "loser_next_slot", "started_at", "finished_at", "time_called_at"]

    def get_round_name(self, match: Match) -> str:
        return selectors.round_label(match.round.name)

    seats = serializers.SerializerMethodField()
    confirmed = serializers.SerializerMethodField()

    def get_confirmed(self, match: Match) -> bool:
        return match.confirmed_at is not None

    def get_seats(self, match: Match) -> list[dict[str, Any]]:
        """Individual tables: each seat's entry, in play order."""
        return selectors.seat_entries(match)

    def get_entries(self, match: Match) -> list[dict[str, Any] | None]:
        return [None if e is None else {"id": e.pk, "name": e.name, "seed": e.seed}
                for e in (match.entry0, match.entry1)]


TIMESTAMP = serializers.DateTimeField()  # one field, built once: the same text as the serializers' timestamps


def timestamp(value: Any) -> str | None:
    return None if value is None else TIMESTAMP.to_representation(value)


def match_answer(match: Match, seats: Sequence[dict[str, Any]] | None = None,
                 entries: Sequence[dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """:class:`MatchSerializer`'s answer as plain data, from a row read with its round
    (``services.common.RECORD_RELATED``), its ``entries`` as read (``selectors.entry_answers``; else the
    row's own) and, for an individual table, its ``seats`` — no query."""
    if entries is None:
        entries = [None if e is None else {"id": e.pk, "name": e.name, "seed": e.seed}
                   for e in (match.entry0, match.entry1)]
    return {
        "id": match.pk, "stage": match.stage_id, "round": match.round.number,
        "round_name": selectors.round_label(match.round.name), "key": match.key, "section": match.section,
        "position": match.position, "table": match.table,
        "entries": list(entries),
        "seats": list(seats or []) if match.section == "table" else [],
        "status": match.status, "winner_side": match.winner_side, "is_draw": match.is_draw,
        "confirmed": match.confirmed_at is not None, "state": match.state, "hands_played": match.hands_played,
        "version": match.version, "next_match": match.next_match_id, "next_slot": match.next_slot,
        "loser_next_match": match.loser_next_match_id, "loser_next_slot": match.loser_next_slot,
        "started_at": timestamp(match.started_at), "finished_at": timestamp(match.finished_at),
        "time_called_at": timestamp(match.time_called_at),
    }
