"""Matches (``/matches/``): read, confirm, call time, award."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from safety.idempotency import IdempotentAPIMixin
from tournaments.apis.common import actor_for, object_or_404, query_id, service_errors
from tournaments.apis.hands import TOKEN_PARAM, MatchHands, VersionInput
from tournaments.apis.serializers import MatchSerializer
from tournaments.errors import NotAllowed, ServiceError, StaleVersion
from tournaments.models import Match
from tournaments.selectors import lists
from tournaments.services import hands as hand_services
from tournaments.services import results as result_services


class ConfirmInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=[0, 1, 2, 3], required=False, allow_null=True,
                                   help_text="the confirming (losing) side — at an individual table, the "
                                             "confirming player's seat; organizers may leave it out")


class AwardInput(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1])
    reason = serializers.CharField()
    kind = serializers.ChoiceField(choices=["awarded", "forfeit"], default="awarded")


class MatchViewSet(IdempotentAPIMixin, MatchHands, viewsets.ReadOnlyModelViewSet):
    """Matches (``?tournament=ID``) and their hands. Recording needs a scorer or the table's token."""

    lookup_value_regex = r"\d{1,18}"

    serializer_class = MatchSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self) -> QuerySet[Match]:
        return lists.matches_visible(self.request.user, self.table_token(),
                                     query_id(self.request.query_params.get("tournament")))

    @extend_schema(request=ConfirmInput, parameters=[TOKEN_PARAM], responses={200: MatchSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """Confirm a finished match's result: the losing side (with the table's token) or an organizer."""

        match, actor = self.writable_match(pk)
        serializer = ConfirmInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            hand_services.match_confirm(match_id=match.pk, actor=actor, side=serializer.validated_data.get("side"))
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
            hand_services.match_call_time(match_id=match.pk, version=serializer.validated_data["version"], actor=actor_for(request))
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
