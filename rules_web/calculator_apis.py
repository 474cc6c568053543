"""Scoring API: ``POST /api/v1/scoring/hand`` — the result of one hand. No login needed."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import invalid_input
from config.i18n import core_lang
from rules_web.openapi import OBJECT, SCORING_HAND_REQUEST
from rules_web.referee_apis import ErrorSerializer
from scoring.api import score_hand_request
from scoring.errors import ScoringInputError

EXAMPLES = [
    OpenApiExample(
        "tractor",
        request_only=True,
        value={
            "variant": "tractor",
            "state": {"levels": ["10", "9"], "dealer": 0},
            "outcome": {"attackers_points": 35, "kitty_points": 10, "last_trick": {"winner": "attackers", "largest": 2}},
        },
    ),
    OpenApiExample(
        "red-five",
        request_only=True,
        value={
            "variant": "red-five",
            "decks": 2,
            "outcome": {
                "dealer": 0, "bid": 120, "trump": "C", "dealer_points": 100, "kitty_points": 20,
                "dealer_won_last_trick": True, "red_fives": [{"played_by": 0, "won_by": 1}],
            },
        },
    ),
    OpenApiExample(
        "yongzhou-300",
        request_only=True,
        value={"variant": "yongzhou-300", "players": 3, "outcome": {"points": [20, 130, 150]}},
    ),
]


class ScoringHandApi(APIView):
    """Score one hand: kitty bonus, level change and next dealer, or settlement and net points."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        operation_id="scoring_hand",
        request=SCORING_HAND_REQUEST,
        responses={200: OBJECT, 400: ErrorSerializer},
        examples=EXAMPLES,
        tags=["scoring"],
    )
    def post(self, request: Request) -> Response:
        try:
            result = score_hand_request(request.data, lang=core_lang())
        except ScoringInputError as exc:
            return invalid_input(exc.field_errors)
        return Response(result)
