"""REST API of the tournaments app (``/api/v1/``): thin views over services and selectors.

Reading: anyone may read public tournaments; organizers and scorers also read their private ones.
Writing: signed-in users (session or token) by role; a table's secret link token (header
``X-Table-Token`` or ``?token=``) lets its holder record hands at that table only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import invalid_input
from tournaments import selectors, services
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.models import Entry, HandRecord, Match, Player, Stage, Team, Tournament
from tournaments.openapi import (
    OBJECT,
    OBJECT_LIST,
    PREVIEW_PARAM,
    EntriesImportResult,
    OutcomeField,
    wants_preview,
)
from tournaments.permissions import can_score_match, can_view, is_organizer
from tournaments.services import results as result_services
from tournaments.services import setup as setup_services
from tournaments.services import stages as stage_services
from tournaments.services.hands import match_call_time, match_confirm
from tournaments.services.stages import stage_create, stage_start, swiss_next_round, table_round_draw
from tournaments.services.table_hands import table_hand_correct, table_hand_record, table_hand_undo
from tournaments.services.transfer import (
    csv_import,
    csv_preview,
    entry_check_in,
    standings_csv,
    tournament_export,
    tournament_import,
)

MAX_ID = 2**63 - 1


def query_id(value: str | None, name: str = "tournament") -> int | None:
    """A database id from a query parameter (None when absent); anything else is a 400 naming it."""
    if value is None or value == "":
        return None
    if value.isdigit() and int(value) <= MAX_ID:
        return int(value)
    raise serializers.ValidationError({name: [_("Must be the id of a tournament (a whole number).")]})


def object_or_404(queryset: QuerySet[Any], pk: Any) -> Any:
    """``get_object_or_404`` that answers 404 (not 500) for ids that are not whole numbers."""

    if not str(pk).isdigit() or int(str(pk)) > MAX_ID:
        raise Http404
    return get_object_or_404(queryset, pk=int(str(pk)))


def actor_for(request: Request, via: str = "api") -> services.Actor:
    return services.Actor(request.user if request.user.is_authenticated else None, via)


def service_errors(exc: Exception) -> Response:
    """Map a service exception to its HTTP answer."""
    if isinstance(exc, ServiceError):
        return invalid_input(exc.field_errors)
    if isinstance(exc, StaleVersion):
        return Response({"detail": _("Someone else changed this match first: reload and try again."),
                         "code": "stale_version", "current": exc.current}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, CorrectionRefused):
        return Response({"detail": str(exc), "code": "correction_refused", "affected": exc.affected},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotAllowed):
        return Response({"detail": str(exc), "code": "permission_denied"}, status=status.HTTP_403_FORBIDDEN)
    raise exc


class ReadOrSignedIn(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)


# --------------------------------------------------------------------------- players and teams

class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "contact", "rating", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]

    def validate_name(self, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise serializers.ValidationError(_("A name is required."))
        return value


class PlayerViewSet(viewsets.ModelViewSet):
    """Players. Anyone reads; signed-in users add; staff edit and delete."""

    lookup_value_regex = r"\d{1,18}"

    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    permission_classes = [ReadOrSignedIn]

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        data = serializer.validated_data
        serializer.instance = setup_services.player_create(actor=actor_for(self.request), **data)

    def check_object_permissions(self, request: Request, obj: Any) -> None:
        super().check_object_permissions(request, obj)
        if request.method not in permissions.SAFE_METHODS and not request.user.is_staff:
            raise PermissionDenied(_("Only staff may change or delete players."))

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        serializer.instance = setup_services.player_update(player=serializer.instance, actor=actor_for(self.request),
                                                           **serializer.validated_data)

    def perform_destroy(self, instance: Player) -> None:
        try:
            setup_services.player_delete(player=instance, actor=actor_for(self.request))
        except ServiceError as exc:
            raise serializers.ValidationError(exc.field_errors) from exc


class TeamSerializer(serializers.ModelSerializer):
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_names = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "player1", "player2", "player_names", "club", "rating", "created_at"]
        read_only_fields = ["id", "created_at", "player_names"]

    def get_player_names(self, team: Team) -> list[str]:
        return [team.player1.name, team.player2.name]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        p1 = attrs.get("player1", getattr(self.instance, "player1", None))
        p2 = attrs.get("player2", getattr(self.instance, "player2", None))
        if p1 is not None and p1 == p2:
            raise serializers.ValidationError({"player2": [_("A team needs two different players.")]})
        return attrs


class TeamViewSet(viewsets.ModelViewSet):
    """Teams of two. Anyone reads; signed-in users add; staff edit and delete."""

    lookup_value_regex = r"\d{1,18}"

    queryset = Team.objects.select_related("player1", "player2")
    serializer_class = TeamSerializer
    permission_classes = [ReadOrSignedIn]

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        serializer.instance = setup_services.team_create(actor=actor_for(self.request), **serializer.validated_data)

    def check_object_permissions(self, request: Request, obj: Any) -> None:
        super().check_object_permissions(request, obj)
        if request.method not in permissions.SAFE_METHODS and not request.user.is_staff:
            raise PermissionDenied(_("Only staff may change or delete teams."))

    def perform_update(self, serializer: serializers.BaseSerializer) -> None:
        try:
            serializer.instance = setup_services.team_update(team=serializer.instance, actor=actor_for(self.request),
                                                             **serializer.validated_data)
        except ServiceError as exc:
            raise serializers.ValidationError(exc.field_errors) from exc

    def perform_destroy(self, instance: Team) -> None:
        setup_services.team_delete(team=instance, actor=actor_for(self.request))


# --------------------------------------------------------------------------- tournaments

class TournamentSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "name", "variant", "options", "decks", "players_per_table", "starts_on", "ends_on", "venue",
                  "status", "is_public", "require_confirmation", "owner", "created_at", "updated_at"]
        read_only_fields = ["id", "status", "owner", "created_at", "updated_at"]


class EntriesCsvInput(serializers.Serializer):
    csv = serializers.CharField(help_text="UTF-8 CSV text with a header row")
    preview = serializers.BooleanField(default=False, help_text="true: check the rows and write nothing")


def standing_row(row: Any) -> dict[str, Any]:
    return {"rank": row.rank, "entry": row.entry.pk, "name": row.name, "shared": getattr(row, "shared", False),
            "values": dict(row.values)}


class StartSerializer(serializers.Serializer):
    seeding = serializers.ChoiceField(choices=Stage.Seeding.values, default="manual")
    random_seed = serializers.IntegerField(required=False, allow_null=True)
    third_place = serializers.BooleanField(default=False)
    format = serializers.ChoiceField(choices=["single_elimination", "double_elimination"], default="single_elimination")
    grand_final = serializers.ChoiceField(choices=["single", "reset", "none"], default="single")
    absent = serializers.ChoiceField(choices=["withdraw", "forfeit"], default="withdraw")


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.values)


class StaffSerializer(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=["organizer", "scorer"])


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


class TournamentViewSet(viewsets.ModelViewSet):
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

    @extend_schema(responses={200: StandingSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings of the latest started stage (an elimination's rows; other formats add
        ``values``: every tiebreak column). Per stage: ``/stages/{id}/standings/``."""
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
        response = Response(tournament_export(tournament))
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
        return response

    @extend_schema(request=OBJECT, responses={201: TournamentSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_export(self, request: Request) -> Response:
        """Create a tournament from an export document; you become its owner."""

        try:
            tournament = tournament_import(data=request.data, owner=request.user)
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
                result = csv_preview(tournament=tournament, data=text)
            else:
                result = csv_import(tournament=tournament, data=text, actor=actor_for(request))
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


class EntrySerializer(serializers.ModelSerializer):
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    team = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all(), required=False, allow_null=True)
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False, allow_null=True)
    name = serializers.CharField(read_only=True)
    checked_in = serializers.SerializerMethodField()

    def get_checked_in(self, entry: Entry) -> bool:
        return entry.checked_in_at is not None

    class Meta:
        model = Entry
        fields = ["id", "tournament", "team", "player", "name", "seed", "status", "checked_in"]
        read_only_fields = ["id", "status", "name", "checked_in"]
        validators: list[Any] = []  # uniqueness is checked by the service, with field-named messages


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Entries of a tournament (``?tournament=ID``). Organizers add, seed (PATCH ``seed``) and withdraw."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = EntrySerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Entry]:
        visible = selectors.tournaments_visible(self.request.user).values("pk")
        qs = Entry.objects.filter(tournament__in=visible).select_related("team", "player")
        tournament = query_id(self.request.query_params.get("tournament"))
        if tournament is not None:
            qs = qs.filter(tournament_id=tournament)
        return qs.order_by("tournament_id", "seed", "id")

    @extend_schema(parameters=[OpenApiParameter("tournament", int, description="only this tournament's entries")])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            entry = setup_services.entry_add(tournament=data["tournament"], actor=actor_for(request),
                                             team=data.get("team"), player=data.get("player"), seed=data.get("seed"))
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(self.get_serializer(entry).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        entry = self.get_object()
        if not isinstance(request.data, Mapping):
            return invalid_input({"non_field_errors": [_("The body must be a JSON object.")]})
        changeable = {"seed", "status", "checked_in"}
        if set(request.data) - changeable:
            return invalid_input({k: [_("Only seed, status and checked_in can change.")]
                                  for k in set(request.data) - changeable})
        try:
            if "checked_in" in request.data:

                if not isinstance(request.data["checked_in"], bool):
                    return invalid_input({"checked_in": [_("Must be true or false.")]})
                entry_check_in(entry=entry, present=request.data["checked_in"], actor=actor_for(request))
            if "seed" in request.data:
                seed = request.data["seed"]
                setup_services.entries_seed(tournament=entry.tournament, actor=actor_for(request), seeds={entry.pk: seed})
            if request.data.get("status") == Entry.Status.WITHDRAWN:
                setup_services.entry_withdraw(entry=entry, actor=actor_for(request))
            elif "status" in request.data and request.data["status"] != entry.status:
                return invalid_input({"status": [_("An entry can only be withdrawn.")]})
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        entry.refresh_from_db()
        return Response(self.get_serializer(entry).data)


# --------------------------------------------------------------------------- stages, matches, hands

class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()


class StageSerializer(serializers.ModelSerializer):
    rounds = RoundSerializer(many=True, read_only=True)

    class Meta:
        model = Stage
        fields = ["id", "tournament", "number", "name", "format", "status", "seeding", "random_seed", "third_place",
                  "rounds"]


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


class OverrideInput(serializers.Serializer):
    override = serializers.BooleanField(default=False)


class StageStartInput(serializers.Serializer):
    random_seed = serializers.IntegerField(required=False, allow_null=True)


class StageViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Stages of visible tournaments (``?tournament=ID``), with their rounds. Organizers create and
    start stages, pair Swiss rounds and draw table rounds."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = StageSerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Stage]:
        visible = selectors.tournaments_visible(self.request.user).values("pk")
        qs = Stage.objects.filter(tournament__in=visible).prefetch_related("rounds").select_related("tournament")
        tournament = query_id(self.request.query_params.get("tournament"))
        if tournament is not None:
            qs = qs.filter(tournament_id=tournament)
        return qs.order_by("tournament_id", "number")

    @extend_schema(request=StageInput, responses={201: StageSerializer})
    def create(self, request: Request) -> Response:
        serializer = StageInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        if not can_view(request.user, tournament):
            return Response({"detail": _("Not found."), "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
        try:
            stage = stage_create(tournament=tournament, actor=actor_for(request), tiebreaks_order=data.pop("tiebreaks"),
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
            stage = stage_start(stage=stage, actor=actor_for(request), **serializer.validated_data)
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
        service = table_round_draw if stage.format == Stage.Format.TABLE_ROUNDS else swiss_next_round
        try:
            service(stage=stage, actor=actor_for(request), override=serializer.validated_data["override"])
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(StageSerializer(self.get_queryset().get(pk=stage.pk)).data)

    @extend_schema(responses={200: OBJECT})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """This stage's standings: ``columns`` (key, label) in order and ``rows`` (rank, entry, values)."""
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
        response = HttpResponse(standings_csv(rows, columns), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="standings-stage-{table.stage.pk}.csv"'
        return response


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


class HandSerializer(serializers.ModelSerializer):
    entered_by = serializers.CharField(source="entered_by.get_username", read_only=True, default=None)
    outcome = OutcomeField(read_only=True)

    class Meta:
        model = HandRecord
        fields = ["number", "dealer", "trump", "outcome", "result", "entered_by", "entered_via", "created_at",
                  "updated_at"]


class HandInput(serializers.Serializer):
    version = serializers.IntegerField(help_text="the match's current version")
    outcome = OutcomeField(help_text="the same object as POST /api/v1/scoring/hand's outcome, of the "
                                     "tournament's variant")
    dealer = serializers.IntegerField(required=False, allow_null=True, help_text="seat 0-3; required for hand 1")
    trump = serializers.CharField(required=False, allow_null=True, allow_blank=True, help_text="S, H, C, D or null")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        from config.i18n import core_lang
        from scoring.api import check_dealer_named_once
        from scoring.errors import ScoringInputError

        try:  # red-five: a dealer given here and in the outcome must agree (no silent choice)
            check_dealer_named_once(attrs.get("dealer"), attrs.get("outcome"), core_lang())
        except ScoringInputError as exc:
            raise serializers.ValidationError(exc.field_errors) from exc
        return attrs


class HandCorrectInput(HandInput):
    force = serializers.BooleanField(default=False, help_text="organizers only: reset later matches")


class VersionInput(serializers.Serializer):
    version = serializers.IntegerField()
    force = serializers.BooleanField(default=False, help_text="undo only: organizers may reset later matches")


class ConfirmInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=[0, 1, 2, 3], required=False, allow_null=True,
                                   help_text="the confirming (losing) side — at an individual table, the "
                                             "confirming player's seat; organizers may leave it out")


class AwardInput(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1])
    reason = serializers.CharField()
    kind = serializers.ChoiceField(choices=["awarded", "forfeit"], default="awarded")


HAND_RESULT = inline_serializer("HandRecorded", {
    "hand": HandSerializer(), "result": serializers.DictField(), "match": MatchSerializer(),
    "warnings": serializers.ListField(child=serializers.CharField()),
})
TOKEN_PARAM = OpenApiParameter("X-Table-Token", str, OpenApiParameter.HEADER, required=False,
                               description="a table's secret link token, instead of signing in")


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches (``?tournament=ID``) and their hands. Recording needs a scorer or the table's token."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = MatchSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self) -> QuerySet[Match]:
        visible = selectors.tournaments_visible(self.request.user).values("pk")
        qs = Match.objects.select_related("round", "stage__tournament", "entry0__team", "entry0__player",
                                          "entry1__team", "entry1__player")
        token = self._token()
        visible_q = Q(stage__tournament__in=visible)
        if token:
            visible_q |= Q(scorer_token=token)
        qs = qs.filter(visible_q)
        tournament = query_id(self.request.query_params.get("tournament"))
        if tournament is not None:
            qs = qs.filter(stage__tournament_id=tournament)
        return qs.order_by("stage_id", "round__number", "position")

    def _token(self) -> str | None:
        return self.request.headers.get("X-Table-Token") or self.request.query_params.get("token")

    def _writable_match(self, pk: str | None) -> tuple[Match, services.Actor]:
        match = object_or_404(Match.objects.select_related("stage__tournament"), pk)
        token = self._token()
        if not can_score_match(self.request.user, match, token):
            if not can_view(self.request.user, match.stage.tournament):

                raise Http404
            if not self.request.user.is_authenticated and not token:
                raise NotAuthenticated(_("Sign in, or use the table's link, to record hands."))
            raise PermissionDenied(_("You are not a scorer of this tournament or table."))
        via = "api" if self.request.user.is_authenticated else "token"
        return match, actor_for(self.request, via)

    @extend_schema(methods=["GET"], responses={200: HandSerializer(many=True)}, parameters=[TOKEN_PARAM])
    @extend_schema(methods=["POST"], request=HandInput, parameters=[TOKEN_PARAM],
                   responses={201: HAND_RESULT, 400: dict, 409: dict})
    @action(detail=True, methods=["get", "post"])
    def hands(self, request: Request, pk: str | None = None) -> Response:
        if request.method == "GET":
            match = object_or_404(self.get_queryset(), pk)
            return Response(HandSerializer(match.hands.order_by("number").select_related("entered_by"), many=True).data)
        match, actor = self._writable_match(pk)
        serializer = HandInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            if match.stage.format == Stage.Format.TABLE_ROUNDS:

                done = table_hand_record(match_id=match.pk, outcome=data["outcome"], version=data["version"],
                                         actor=actor)
            else:
                done = services.hand_record(match_id=match.pk, outcome=data["outcome"], version=data["version"],
                                            actor=actor, dealer=data.get("dealer"), trump=data.get("trump"))
        except (ServiceError, StaleVersion, NotAllowed) as exc:
            return service_errors(exc)
        return Response(self._hand_answer(done), status=status.HTTP_201_CREATED)

    def _hand_answer(self, done: services.HandOutcome) -> dict[str, Any]:
        match = Match.objects.select_related("round", "entry0__team", "entry0__player", "entry1__team",
                                             "entry1__player").get(pk=done.match.pk)
        return {"hand": HandSerializer(done.hand).data, "result": done.result, "match": MatchSerializer(match).data,
                "warnings": list(done.warnings)}

    @extend_schema(request=HandCorrectInput, parameters=[TOKEN_PARAM], responses={200: HAND_RESULT, 409: dict})
    @action(detail=True, methods=["put"], url_path=r"hands/(?P<number>\d+)")
    def correct_hand(self, request: Request, pk: str | None = None, number: str = "0") -> Response:
        match, actor = self._writable_match(pk)
        serializer = HandCorrectInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            if match.stage.format == Stage.Format.TABLE_ROUNDS:

                table = table_hand_correct(match_id=match.pk, number=int(number), outcome=data["outcome"],
                                           version=data["version"], actor=actor)
                hand = table.hands.get(number=int(number))
                done = services.HandOutcome(hand, hand.result, table)
            else:
                done = services.hand_correct(match_id=match.pk, number=int(number), outcome=data["outcome"],
                                             version=data["version"], actor=actor, force=data["force"],
                                             dealer=data.get("dealer"), trump=data.get("trump"))
        except (ServiceError, StaleVersion, CorrectionRefused, NotAllowed) as exc:
            return service_errors(exc)
        return Response(self._hand_answer(done))

    @extend_schema(request=VersionInput, parameters=[TOKEN_PARAM], responses={200: MatchSerializer, 409: dict})
    @action(detail=True, methods=["post"], url_path="hands/undo")
    def undo_hand(self, request: Request, pk: str | None = None) -> Response:
        match, actor = self._writable_match(pk)
        serializer = VersionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            if match.stage.format == Stage.Format.TABLE_ROUNDS:

                table_hand_undo(match_id=match.pk, version=serializer.validated_data["version"], actor=actor)
            else:
                services.hand_undo(match_id=match.pk, version=serializer.validated_data["version"], actor=actor,
                                   force=serializer.validated_data["force"])
        except (ServiceError, StaleVersion, CorrectionRefused, NotAllowed) as exc:
            return service_errors(exc)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(request=ConfirmInput, parameters=[TOKEN_PARAM], responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """Confirm a finished match's result: the losing side (with the table's token) or an organizer."""

        match, actor = self._writable_match(pk)
        serializer = ConfirmInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            match_confirm(match_id=match.pk, actor=actor, side=serializer.validated_data.get("side"))
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(request=VersionInput, responses={200: MatchSerializer, 409: dict})
    @action(detail=True, methods=["post"])
    def time(self, request: Request, pk: str | None = None) -> Response:
        """An organizer calls time: the side at the higher level wins (RULES.md §7)."""

        match = object_or_404(self.get_queryset(), pk)
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        serializer = VersionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            match_call_time(match_id=match.pk, version=serializer.validated_data["version"], actor=actor_for(request))
        except (ServiceError, StaleVersion, NotAllowed) as exc:
            return service_errors(exc)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(request=AwardInput, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def award(self, request: Request, pk: str | None = None) -> Response:
        match = object_or_404(self.get_queryset(), pk)
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        serializer = AwardInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result_services.match_award(match_id=match.pk, actor=actor_for(request), **serializer.validated_data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)


def can_view_tournament(request: Request, tournament: Tournament) -> bool:
    return can_view(request.user, tournament)
