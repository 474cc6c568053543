"""Answers shared by several areas of the API: a match, a standings row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Match


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField()
    place = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    level_difference = serializers.IntegerField()
    reached = serializers.IntegerField()
    alive = serializers.BooleanField()


def standing_row(row: Any) -> dict[str, Any]:
    return {"rank": row.rank, "entry": row.entry.pk, "name": row.name, "shared": getattr(row, "shared", False),
            "values": dict(row.values)}


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
