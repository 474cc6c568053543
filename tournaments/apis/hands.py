"""Hands of a match (``/matches/{id}/hands/…``): list, record, correct, undo — a scorer's, or the
table link token holder's."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from config.i18n import core_lang
from scoring.api import check_dealer_named_once
from scoring.errors import ScoringInputError
from tournaments import services
from tournaments.apis.common import MAX_ID, actor_for, object_or_404, service_errors
from tournaments.apis.serializers import MatchSerializer, match_answer, timestamp
from tournaments.errors import CorrectionRefused, NotAllowed, ServiceError, StaleVersion
from tournaments.models import HandRecord, Match
from tournaments.openapi import OutcomeField
from tournaments.permissions import is_scorer, token_matches
from tournaments.selectors import lists
from tournaments.services import recording
from tournaments.services.figures import Figures


class HandSerializer(serializers.ModelSerializer):
    entered_by = serializers.CharField(source="entered_by.get_username", read_only=True, default=None)
    outcome = OutcomeField(read_only=True)

    class Meta:
        model = HandRecord
        fields = ["number", "dealer", "trump", "outcome", "result", "entered_by", "entered_via", "created_at",
                  "updated_at"]


NO_MATCH = "No Match matches the given query."  # get_object_or_404's text, as before


def match_pk(pk: Any) -> int:
    """The match id of the URL; 404 for anything but a whole number in range."""
    if not str(pk).isdigit() or int(str(pk)) > MAX_ID:
        raise Http404
    return int(str(pk))


def hand_answer(done: services.HandOutcome) -> dict[str, Any]:
    """The answer to a recorded or corrected hand, as plain data (no serializer built per request): the
    hand, its result, the match (:func:`~tournaments.apis.serializers.match_answer`, from what the service
    read in its transaction) and any warnings."""
    hand = done.hand
    return {
        "hand": {"number": hand.number, "dealer": hand.dealer, "trump": hand.trump, "outcome": hand.outcome,
                 "result": hand.result,
                 "entered_by": hand.entered_by.get_username() if hand.entered_by is not None else None,
                 "entered_via": hand.entered_via, "created_at": timestamp(hand.created_at),
                 "updated_at": timestamp(hand.updated_at)},
        "result": done.result, "match": match_answer(done.match, done.seats, done.entries),
        "warnings": list(done.warnings),
    }


class HandInput(serializers.Serializer):
    version = serializers.IntegerField(help_text="the match's current version")
    outcome = OutcomeField(help_text="the same object as POST /api/v1/scoring/hand's outcome, of the "
                                     "tournament's variant")
    dealer = serializers.IntegerField(required=False, allow_null=True, help_text="seat 0-3; required for hand 1")
    trump = serializers.CharField(required=False, allow_null=True, allow_blank=True, help_text="S, H, C, D or null")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
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


HAND_RESULT = inline_serializer("HandRecorded", {
    "hand": HandSerializer(), "result": serializers.DictField(), "match": MatchSerializer(),
    "warnings": serializers.ListField(child=serializers.CharField()),
})
TOKEN_PARAM = OpenApiParameter("X-Table-Token", str, OpenApiParameter.HEADER, required=False,
                               description="a table's secret link token, instead of signing in")


class MatchHands(viewsets.GenericViewSet):
    """The hand actions of :class:`~tournaments.apis.matches.MatchViewSet`, and who may write them."""

    def table_token(self) -> str | None:
        return self.request.headers.get("X-Table-Token") or self.request.query_params.get("token")

    def writable_match(self, pk: str | None) -> tuple[Match, services.Actor]:
        match = object_or_404(lists.match_with_tournament(), pk)
        self.may_score(match)
        return match, self.writer()

    def writer(self) -> services.Actor:
        return actor_for(self.request, "api" if self.request.user.is_authenticated else "token")

    def may_score(self, match: Match) -> None:
        """404 for a match the caller may not see, else 401 / 403 for one they may not score; one query
        at most ("organizer or scorer"), none with the table's token or as its owner."""
        token = self.table_token()
        user = self.request.user
        if token_matches(match, token):
            return
        role = is_scorer(user, match.stage.tournament)
        if role:
            return
        if not match.stage.tournament.is_public:  # can_view: public, or a scorer (which they are not)
            raise Http404
        if not user.is_authenticated and not token:
            raise NotAuthenticated(_("Sign in, or use the table's link, to record hands."))
        raise PermissionDenied(_("You are not a scorer of this tournament or table."))

    @extend_schema(methods=["GET"], responses={200: HandSerializer(many=True)}, parameters=[TOKEN_PARAM])
    @extend_schema(methods=["POST"], request=HandInput, parameters=[TOKEN_PARAM],
                   responses={201: HAND_RESULT, 400: dict, 409: dict})
    @action(detail=True, methods=["get", "post"])
    def hands(self, request: Request, pk: str | None = None) -> Response:
        if request.method == "GET":
            match = object_or_404(self.get_queryset(), pk)
            return Response(HandSerializer(match.hands.order_by("number").select_related("entered_by"), many=True).data)
        match_id = match_pk(pk)
        serializer = HandInput(data=request.data)
        valid = serializer.is_valid()

        def admit(match: Match) -> recording.HandEntry:
            # On the locked row: who may write first (404/401/403), then the input (400), as before.
            self.may_score(match)
            if not valid:
                raise serializers.ValidationError(serializer.errors)
            data = serializer.validated_data
            return recording.HandEntry(Figures(data["outcome"]), data["version"], data.get("dealer"), data.get("trump"))

        try:
            done = recording.match_hand_record(match_id=match_id, actor=self.writer(), admit=admit)
        except Match.DoesNotExist as exc:
            raise Http404(NO_MATCH) from exc
        except (ServiceError, StaleVersion, NotAllowed) as exc:
            return service_errors(exc)
        # The answer is built from the locked row and what the service holds: no read after the commit.
        return Response(hand_answer(done), status=status.HTTP_201_CREATED)

    @extend_schema(request=HandCorrectInput, parameters=[TOKEN_PARAM], responses={200: HAND_RESULT, 409: dict})
    @action(detail=True, methods=["put"], url_path=r"hands/(?P<number>\d+)")
    def correct_hand(self, request: Request, pk: str | None = None, number: str = "0") -> Response:
        match, actor = self.writable_match(pk)
        serializer = HandCorrectInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            done = recording.match_hand_correct(match=match, number=int(number), outcome=data["outcome"],
                                                version=data["version"], actor=actor, force=data["force"],
                                                dealer=data.get("dealer"), trump=data.get("trump"))
        except (ServiceError, StaleVersion, CorrectionRefused, NotAllowed) as exc:
            return service_errors(exc)
        return Response(hand_answer(done))

    @extend_schema(request=VersionInput, parameters=[TOKEN_PARAM], responses={200: MatchSerializer, 409: dict})
    @action(detail=True, methods=["post"], url_path="hands/undo")
    def undo_hand(self, request: Request, pk: str | None = None) -> Response:
        match, actor = self.writable_match(pk)
        serializer = VersionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            recording.match_hand_undo(match=match, version=serializer.validated_data["version"], actor=actor,
                                      force=serializer.validated_data["force"])
        except (ServiceError, StaleVersion, CorrectionRefused, NotAllowed) as exc:
            return service_errors(exc)
        return Response(MatchSerializer(self.get_queryset().get(pk=match.pk)).data)
