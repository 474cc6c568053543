"""Players and teams (``/players/``, ``/teams/``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework import permissions, serializers, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request

from safety.idempotency import IdempotentAPIMixin
from tournaments.apis.common import ReadOrSignedIn, actor_for
from tournaments.errors import ServiceError
from tournaments.models import Player, Team
from tournaments.selectors import lists, people
from tournaments.services import setup as setup_services


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "contact", "rating", "is_private", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]

    def to_representation(self, player: Player) -> dict[str, Any]:
        return people.player_data(super().to_representation(player), player, self.context.get("request"))

    def validate_name(self, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise serializers.ValidationError(_("A name is required."))
        return value


class PlayerViewSet(IdempotentAPIMixin, viewsets.ModelViewSet):
    """Players. Anyone reads; signed-in users add; staff edit and delete."""

    lookup_value_regex = r"\d{1,18}"

    queryset = lists.players_all()
    serializer_class = PlayerSerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Player]:
        return people.players_visible(self.request.user).order_by("name", "id")

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        data = serializer.validated_data
        serializer.instance = setup_services.player_create(actor=actor_for(self.request), **data)

    def check_object_permissions(self, request: Request, obj: Any) -> None:
        super().check_object_permissions(request, obj)
        if request.method not in permissions.SAFE_METHODS and not request.user.is_staff:
            raise PermissionDenied(_("Only staff may change or delete players."))

    def perform_update(self, serializer: serializers.BaseSerializer[Player]) -> None:
        player = serializer.instance
        if player is None:  # UpdateModelMixin.update() made the serializer on the player it looked up
            raise TypeError("an update needs the player")
        serializer.instance = setup_services.player_update(player=player, actor=actor_for(self.request),
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


class TeamViewSet(IdempotentAPIMixin, viewsets.ModelViewSet):
    """Teams of two. Anyone reads; signed-in users add; staff edit and delete."""

    lookup_value_regex = r"\d{1,18}"

    queryset = lists.teams_all()
    serializer_class = TeamSerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Team]:
        return people.teams_visible(self.request.user).order_by("name", "id")

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        serializer.instance = setup_services.team_create(actor=actor_for(self.request), **serializer.validated_data)

    def check_object_permissions(self, request: Request, obj: Any) -> None:
        super().check_object_permissions(request, obj)
        if request.method not in permissions.SAFE_METHODS and not request.user.is_staff:
            raise PermissionDenied(_("Only staff may change or delete teams."))

    def perform_update(self, serializer: serializers.BaseSerializer[Team]) -> None:
        team = serializer.instance
        if team is None:  # UpdateModelMixin.update() made the serializer on the team it looked up
            raise TypeError("an update needs the team")
        try:
            serializer.instance = setup_services.team_update(team=team, actor=actor_for(self.request),
                                                             **serializer.validated_data)
        except ServiceError as exc:
            raise serializers.ValidationError(exc.field_errors) from exc

    def perform_destroy(self, instance: Team) -> None:
        setup_services.team_delete(team=instance, actor=actor_for(self.request))
