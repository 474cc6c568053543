"""Entries of a tournament (``/entries/``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import invalid_input
from safety.idempotency import IdempotentAPIMixin
from tournaments.apis.common import ReadOrSignedIn, actor_for, query_id, service_errors
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import Entry, Player, Team, Tournament
from tournaments.selectors import lists
from tournaments.services import setup as setup_services


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


class EntryViewSet(IdempotentAPIMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Entries of a tournament (``?tournament=ID``). Organizers add, seed (PATCH ``seed``) and withdraw."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = EntrySerializer
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self) -> QuerySet[Entry]:
        return lists.entries_visible(self.request.user, query_id(self.request.query_params.get("tournament")))

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
            setup_services.entry_update(entry=entry, actor=actor_for(request), changes=request.data)
        except (ServiceError, NotAllowed) as exc:
            return service_errors(exc)
        entry.refresh_from_db()
        return Response(self.get_serializer(entry).data)
