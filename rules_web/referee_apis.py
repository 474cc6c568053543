"""Referee API: ``POST /api/v1/referee/trick`` — a ruling on one trick. No login needed."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import invalid_input
from config.i18n import core_lang
from gameplay.referee import RequestInvalid, rule_trick
from variants import LEVEL_NAMES, VARIANT_KEYS

VARIANTS = list(VARIANT_KEYS)
LEVELS = list(LEVEL_NAMES)


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()), required=False)


class RefereeTrickInput(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANTS)
    options = serializers.DictField(required=False, help_text="Rule overrides by option name.")
    players = serializers.ChoiceField(choices=[3, 4], required=False, help_text="yongzhou-300 only (default 4)")
    decks = serializers.ChoiceField(choices=[2, 3], required=False, help_text="red-five only (default 2)")
    level = serializers.ChoiceField(choices=LEVELS, required=False, help_text="tractor and chaodi only")
    trump = serializers.ChoiceField(choices=["S", "H", "C", "D"], allow_null=True, help_text="null = no trump")
    hands = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        help_text="seat → the cards it holds that matter (e.g. the led suit's); partial holdings are fine, a seat "
                  "left out or empty shows none, and each seat's cards are taken as all it holds")
    leader = serializers.IntegerField(min_value=0, max_value=3)
    plays = serializers.ListField(child=serializers.CharField(), min_length=1, max_length=4)


class LeadOutput(serializers.Serializer):
    shape = serializers.ChoiceField(choices=["single", "pair", "triple", "tractor", "throw"])
    components = serializers.ListField(child=serializers.CharField())
    throw_failed = serializers.BooleanField()
    forced = serializers.CharField(allow_null=True)
    beaten_by = serializers.IntegerField(allow_null=True)


class PlayOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    cards = serializers.CharField()
    legal = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True)


class RefereeTrickOutput(serializers.Serializer):
    lead = LeadOutput()
    plays = PlayOutput(many=True)
    winner = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    explanation = serializers.ListField(
        child=serializers.CharField(),
        help_text="The ruling in sentences, with what it assumed about partial holdings (a seat showing no "
                  "spades is treated as void in spades)")


EXAMPLE = {
    "variant": "tractor",
    "level": "2",
    "trump": "H",
    "hands": {"0": "S9 S8 S8 S4 S4", "1": "S10 S7 S6 S3", "2": "SA SK SK SQ SQ", "3": ""},
    "leader": 0,
    "plays": ["S9 S8 S8 S4 S4"],
}


class RefereeTrickApi(APIView):
    """Rule on one trick: the lead's shape, whether a throw fails, each play's legality, the winner.

    Holdings may be partial: each seat's cards are taken as all it holds, and ``explanation`` says so.
    """

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        operation_id="referee_trick",
        request=RefereeTrickInput,
        responses={200: RefereeTrickOutput, 400: ErrorSerializer},
        examples=[OpenApiExample("A throw of spades, only the spades entered", value=EXAMPLE, request_only=True)],
        tags=["referee"],
    )
    def post(self, request: Request) -> Response:
        try:
            ruling = rule_trick(request.data, lang=core_lang())  # type: ignore[arg-type]  # refused if not a mapping
        except RequestInvalid as exc:
            return invalid_input(exc.field_errors)
        return Response(ruling.as_api(explain=True))
