"""Stages (``/stages/``): create, start, next round, standings."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from safety.idempotency import IdempotentAPIMixin
from tournaments import selectors
from tournaments.apis.common import MAX_ID, ReadOrSignedIn, actor_for, query_id, service_errors
from tournaments.apis.serializers import StageStandingsSerializer, StandingSerializer, standing_row
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import Played, Stage, Tournament
from tournaments.permissions import can_view
from tournaments.selectors import lists
from tournaments.services import stages as stage_services
from tournaments.services import transfer as transfer_services


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()


class StageSerializer(serializers.ModelSerializer):
    rounds = RoundSerializer(many=True, read_only=True)

    class Meta:
        model = Stage
        fields = ["id", "tournament", "number", "name", "format", "status", "seeding", "random_seed", "third_place",
                  "played", "rounds"]


class StageInput(serializers.Serializer):
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    format = serializers.ChoiceField(choices=Stage.Format.values)
    name = serializers.CharField(required=False, allow_blank=True, default="")
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=50)
    hands_per_table = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    qualifiers = serializers.IntegerField(required=False, allow_null=True, min_value=2)
    source_stage = serializers.PrimaryKeyRelatedField(queryset=Stage.objects.all(), required=False, allow_null=True)
    third_place = serializers.BooleanField(default=False)
    grand_final = serializers.ChoiceField(choices=["single", "reset", "none"], default="single")
    seeding = serializers.ChoiceField(choices=Stage.Seeding.values, default="rating")
    played = serializers.ChoiceField(choices=Played.values, default=Played.PHYSICAL)


class OverrideInput(serializers.Serializer):
    override = serializers.BooleanField(default=False)


class StageStartInput(serializers.Serializer):
    random_seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_ID)


class StageViewSet(IdempotentAPIMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Stages of visible tournaments (``?tournament=ID``), with their rounds. Organizers create and
    start stages, pair Swiss rounds and draw table rounds."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = StageSerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Stage]:
        return lists.stages_visible(self.request.user, query_id(self.request.query_params.get("tournament")))

    @extend_schema(request=StageInput, responses={201: StageSerializer})
    def create(self, request: Request) -> Response:
        serializer = StageInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        if not can_view(request.user, tournament):
            return Response({"detail": _("Not found."), "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
        try:
            stage = stage_services.stage_create(tournament=tournament, actor=actor_for(request), tiebreaks_order=data.pop("tiebreaks"),
                                 **data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=StageStartInput, responses={200: StageSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        stage = self.get_object()
        serializer = StageStartInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            stage = stage_services.stage_start(stage=stage, actor=actor_for(request), **serializer.validated_data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(StageSerializer(stage).data)

    @extend_schema(request=OverrideInput, responses={200: StageSerializer})
    @action(detail=True, methods=["post"], url_path="next-round")
    def next_round(self, request: Request, pk: str | None = None) -> Response:
        """Pair the next Swiss round or draw the next table round (409-free: outstanding results are
        a 400 naming the tables, unless ``override``)."""

        stage = self.get_object()
        serializer = OverrideInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            stage_services.stage_next_round(stage=stage, actor=actor_for(request),
                                            override=serializer.validated_data["override"])
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(StageSerializer(self.get_queryset().get(pk=stage.pk)).data)

    @extend_schema(responses={200: StageStandingsSerializer})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """This stage's standings: ``columns`` (key, label) in order and ``rows`` (rank, entry, place,
        place_range, values): every entry's place as the printed standings show it."""
        table = selectors.stage_standings(self.get_object())
        if table.kind == "elimination":
            rows = list(StandingSerializer(table.rows, many=True).data)
            for data, row in zip(rows, table.rows, strict=True):
                data["values"] = {k: getattr(row, k) for k, _label in table.columns}
        else:
            rows = [standing_row(row) for row in table.rows]
        return Response({"stage": table.stage.pk, "kind": table.kind,
                         "columns": [{"key": k, "label": label} for k, label in table.columns], "rows": rows})

    @extend_schema(responses={(200, "text/csv"): str})
    @action(detail=True, methods=["get"], url_path="standings-csv")
    def standings_csv(self, request: Request, pk: str | None = None) -> Any:
        table = selectors.stage_standings(self.get_object())
        columns = [("rank", _("Rank")), ("name", _("Name")), *table.columns]
        rows = [{"rank": r.rank, "name": r.name, **{k: (r[k] if hasattr(r, "__getitem__") else getattr(r, k))
                                                     for k, _label in table.columns}} for r in table.rows]
        response = HttpResponse(transfer_services.standings_csv(rows, columns), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="standings-stage-{table.stage.pk}.csv"'
        return response
