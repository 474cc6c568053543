"""Answers shared by several areas of the API: a match, a standings row."""

from __future__ import annotations

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
        if match.section != "table":
            return []
        return [{"seat": s.seat, "entry": s.entry_id, "name": s.entry.name}
                for s in match.seats.select_related("entry__player", "entry__team").order_by("seat")]

    def get_entries(self, match: Match) -> list[dict[str, Any] | None]:
        return [None if e is None else {"id": e.pk, "name": e.name, "seed": e.seed}
                for e in (match.entry0, match.entry1)]
