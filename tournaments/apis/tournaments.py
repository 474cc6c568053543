"""Tournaments (``/tournaments/``): create, configure, start, staff, standings, bracket, export
and import, CSV entries."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import invalid_input
from safety.idempotency import IdempotentAPIMixin
from tournaments import selectors
from tournaments.apis.common import MAX_ID, ReadOrSignedIn, actor_for, service_errors
from tournaments.apis.serializers import (
    MatchSerializer,
    StageStandingRowSerializer,
    StandingSerializer,
    standing_row,
)
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import Stage, Tournament
from tournaments.openapi import OBJECT, OBJECT_LIST, PREVIEW_PARAM, EntriesImportResult, wants_preview
from tournaments.permissions import is_organizer
from tournaments.services import setup as setup_services
from tournaments.services import stages as stage_services
from tournaments.services import transfer as transfer_services


class TournamentSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "name", "variant", "options", "decks", "players_per_table", "starts_on", "ends_on", "venue",
                  "status", "is_public", "require_confirmation", "seat_names", "owner", "created_at", "updated_at"]
        read_only_fields = ["id", "status", "owner", "created_at", "updated_at"]


class EntriesCsvInput(serializers.Serializer):
    csv = serializers.CharField(help_text="UTF-8 CSV text with a header row")
    preview = serializers.BooleanField(default=False, help_text="true: check the rows and write nothing")


class StartSerializer(serializers.Serializer):
    seeding = serializers.ChoiceField(choices=Stage.Seeding.values, default="manual")
    random_seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_ID)
    third_place = serializers.BooleanField(default=False)
    format = serializers.ChoiceField(choices=["single_elimination", "double_elimination"], default="single_elimination")
    grand_final = serializers.ChoiceField(choices=["single", "reset", "none"], default="single")
    absent = serializers.ChoiceField(choices=["withdraw", "forfeit"], default="withdraw")
    played = serializers.ChoiceField(choices=["physical", "online"], default="physical",
                                     help_text="Where the bracket is played: at the tables or online.")


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.values)


class StaffSerializer(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=["organizer", "scorer"])


class TournamentViewSet(IdempotentAPIMixin, viewsets.ModelViewSet):
    """Tournaments: create, configure, start; read standings and the bracket."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = TournamentSerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournaments_visible(self.request.user).order_by("-id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            tournament = setup_services.tournament_create(owner=request.user, **serializer.validated_data)
        except ServiceError as exc:
            return service_errors(exc)
        return Response(self.get_serializer(tournament).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        partial = kwargs.get("partial", False)
        serializer = self.get_serializer(tournament, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        changes = {k: v for k, v in serializer.validated_data.items() if k in setup_services.EDITABLE}
        for fixed in ("variant", "decks", "players_per_table"):
            if fixed in serializer.validated_data and serializer.validated_data[fixed] != getattr(tournament, fixed):
                return invalid_input({fixed: [_("This cannot change after the tournament is created.")]})
        try:
            tournament = setup_services.tournament_update(tournament=tournament, actor=actor_for(request), **changes)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(self.get_serializer(tournament).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        if not is_organizer(request.user, tournament):
            raise PermissionDenied(_("Only an organizer of this tournament may do this."))
        try:
            setup_services.tournament_delete(tournament=tournament, actor=actor_for(request))
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=StartSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        serializer = StartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            stage_services.tournament_start(tournament=tournament, actor=actor_for(request), **serializer.validated_data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        tournament.refresh_from_db()
        return Response(self.get_serializer(tournament).data)

    @extend_schema(request=StatusSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="status")
    def set_status(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        serializer = StatusSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            tournament = setup_services.tournament_set_status(tournament=tournament, actor=actor_for(request),
                                                              status=serializer.validated_data["status"])
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(self.get_serializer(tournament).data)

    @extend_schema(request=StaffSerializer, responses={200: inline_serializer("StaffAdded", {"username": serializers.CharField(), "role": serializers.CharField()})})
    @action(detail=True, methods=["post"])
    def staff(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        serializer = StaffSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = setup_services.staff_add(tournament=tournament, actor=actor_for(request), **serializer.validated_data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response({"username": user.get_username(), "role": serializer.validated_data["role"]})

    @extend_schema(responses={200: PolymorphicProxySerializer(
        component_name="TournamentStandingRow", serializers=[StandingSerializer, StageStandingRowSerializer],
        resource_type_field_name=None, many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)  # a plain list, as answered
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings of the latest started stage (an elimination's rows; other formats add
        ``values``: every tiebreak column). Every row has the entry's ``place`` as the printed standings
        show it, or, for an entry of an elimination still playing, ``place_range``. Per stage:
        ``/stages/{id}/standings/``."""
        tournament = self.get_object()
        tables = selectors.tournament_standings(tournament)
        if not tables or tables[0].kind == "elimination":
            rows = tables[0].rows if tables else selectors.elimination_standings(tournament)
            return Response(StandingSerializer(rows, many=True).data)
        return Response([standing_row(row) for row in tables[0].rows])

    @extend_schema(responses={200: OBJECT})
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str | None = None) -> Response:
        """The whole tournament as JSON (organizers only); import it back with ``POST /tournaments/import/``."""

        tournament = self.get_object()
        if not is_organizer(request.user, tournament):
            raise PermissionDenied(_("Only an organizer of this tournament may do this."))
        response = Response(transfer_services.tournament_export(tournament))
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
        return response

    @extend_schema(request=OBJECT, responses={201: TournamentSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_export(self, request: Request) -> Response:
        """Create a tournament from an export document; you become its owner."""

        try:
            tournament = transfer_services.tournament_import(data=request.data, owner=request.user)
        except ServiceError as exc:
            return service_errors(exc)
        return Response(self.get_serializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EntriesCsvInput, parameters=[PREVIEW_PARAM], responses={200: EntriesImportResult})
    @action(detail=True, methods=["post"], url_path="import-entries")
    def import_entries(self, request: Request, pk: str | None = None) -> Response:
        """Players (individual variants) or teams (partnership variants) from CSV: all rows are entered or
        none (400 names each bad line). ``?preview=1`` or ``"preview": true`` answers the rows with their
        errors and writes nothing; ``mode`` in the answer says which it was."""

        tournament = self.get_object()
        if not is_organizer(request.user, tournament):
            raise PermissionDenied(_("Only an organizer of this tournament may do this."))
        serializer = EntriesCsvInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        text = serializer.validated_data["csv"]
        try:
            preview = wants_preview(serializer.validated_data["preview"], request.query_params.get("preview"))
            if preview:
                result = transfer_services.csv_preview(tournament=tournament, data=text)
            else:
                result = transfer_services.csv_import(tournament=tournament, data=text, actor=actor_for(request))
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response({"mode": "preview" if preview else "import", "imported": 0 if preview else len(result.rows),
                         "kind": result.kind, "ok": result.ok, "errors": result.errors,
                         "rows": [{"line": r.line, "values": r.values, "errors": r.errors} for r in result.rows]})

    @extend_schema(responses={200: OBJECT_LIST})
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        stages = []
        for stage in tournament.stages.all():
            stages.append({
                "id": stage.pk, "name": stage.name, "status": stage.status,
                "rounds": [{"number": col["number"], "name": col["name"],
                            "matches": MatchSerializer(col["matches"], many=True).data}
                           for col in selectors.bracket_tree(stage)],
            })
        return Response(stages)
