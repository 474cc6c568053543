"""OpenAPI components of a hand's ``outcome``, one per variant, for client generators.

The scoring core (:mod:`scoring.api`) reads ``outcome`` as plain JSON; these serializers only describe it
(they never validate a request). ``POST /api/v1/scoring/hand`` gets a body per variant, chosen by
``variant`` (``oneOf`` with a discriminator); a tournament hand (``POST /api/v1/matches/{id}/hands/``) takes
the outcome of its tournament's variant (``oneOf``, each branch named in its description)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

SEATS = "a seat: 0-3 at a four-player table, in play order"


class LastTrickSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(
        choices=["dealer", "attackers"],
        help_text="who won the last trick: `dealer` = the dealer or the dealer's partner (the kitty counts for "
                  "nobody), `attackers` = the attackers (the kitty's points are multiplied and added to theirs)")
    largest = serializers.IntegerField(
        required=False, allow_null=True, min_value=1,
        help_text="the number of cards in the largest unit of the attackers' winning last play: 1 a single, "
                  "2 a pair, 4 a tractor of two pairs … (decides the kitty multiplier); needed only when "
                  "`winner` is `attackers`")


class PartnershipOutcomeSerializer(serializers.Serializer):
    """tractor (拖拉机) and chaodi (炒地皮): the attackers' card points and the kitty."""

    attackers_points = serializers.IntegerField(
        min_value=0, help_text="card points the attackers won in tricks (multiples of 5; the kitty not included)")
    kitty_points = serializers.IntegerField(min_value=0, help_text="card points in the kitty (multiples of 5)")
    last_trick = LastTrickSerializer(help_text="who won the last trick and with what")
    a_first_trick = serializers.BooleanField(
        required=False, allow_null=True,
        help_text="the dealer side playing at A won the first trick (A-pass conditions); ignored otherwise")
    a_last_trick = serializers.BooleanField(
        required=False, allow_null=True,
        help_text="the dealer side playing at A won the last trick (A-pass conditions); ignored otherwise")
    throw_penalties = serializers.IntegerField(
        required=False, allow_null=True, default=0,
        help_text="net throw-penalty points credited to the attackers (negative when their own throws failed); "
                  "used when the rule option `throw_penalties` is on")


class RedFiveCaptureSerializer(serializers.Serializer):
    played_by = serializers.IntegerField(min_value=0, max_value=3, help_text=f"who played the ♥5 ({SEATS})")
    won_by = serializers.IntegerField(min_value=0, max_value=3, help_text=f"who won the trick with it ({SEATS})")


class RedFiveOutcomeSerializer(serializers.Serializer):
    """red five (红五): the dealer bids alone against three defenders."""

    dealer = serializers.IntegerField(min_value=0, max_value=3, help_text=f"the dealer ({SEATS})")
    bid = serializers.IntegerField(help_text="the dealer's winning bid in card points (the range depends on the "
                                             "decks; a bid out of range is refused on `outcome.bid`)")
    trump = serializers.CharField(
        help_text="the trump suit: S, H, C or D (also ♠♥♣♦ and 黑桃, 红桃, 梅花, 方块); NT is not allowed")
    dealer_points = serializers.IntegerField(min_value=0, help_text="card points the dealer won in tricks")
    kitty_points = serializers.IntegerField(min_value=0, help_text="card points in the kitty")
    dealer_won_last_trick = serializers.BooleanField(help_text="true when the dealer won the last trick")
    red_fives = RedFiveCaptureSerializer(many=True, required=False,
                                     help_text="each ♥5 played: who played it and who won it (default none)")


class YongzhouOutcomeSerializer(serializers.Serializer):
    """Yongzhou 300 (永州三百分): every player for themselves, 300 points shared out."""

    points = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=3, max_length=4,
        help_text="card points won by each seat in play order (3 or 4 players; they add up to 300)")
    declarer = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3,
                                        help_text="the seat that declared trump (recorded, not used)")
    tie_break = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3,
        help_text="on a tie for the most points: the seat that won the draw (required then), next to deal")


PER_VARIANT = {
    "tractor": PartnershipOutcomeSerializer,
    "chaodi": PartnershipOutcomeSerializer,
    "red-five": RedFiveOutcomeSerializer,
    "yongzhou-300": YongzhouOutcomeSerializer,
}

HAND_OUTCOME = PolymorphicProxySerializer(
    component_name="HandOutcome",
    serializers=[PartnershipOutcomeSerializer, RedFiveOutcomeSerializer, YongzhouOutcomeSerializer],
    resource_type_field_name=None,
)


@extend_schema_field(HAND_OUTCOME)
class OutcomeField(serializers.DictField):
    """``outcome``: the figures of one hand, read by :mod:`scoring.api` (typed per variant in the schema)."""


# ----------------------------------------------------------------- POST /api/v1/scoring/hand, per variant

class _ScoringBase(serializers.Serializer):
    options = serializers.DictField(required=False, help_text="Rule overrides by option name (see the docs).")


class ScoringStateSerializer(serializers.Serializer):
    levels = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2,
                                   help_text="the levels of side 0 (seats 0+2) and side 1 (seats 1+3): 2-10, J, Q, "
                                             "K, A (T and lower case accepted)")
    dealer = serializers.IntegerField(min_value=0, max_value=3, help_text="the seat dealing this hand")
    a_failures = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2, max_length=2,
                                       required=False, help_text="failed A attempts per side (default [0, 0])")
    hands_played = serializers.IntegerField(required=False, min_value=0,
                                            help_text="hands played so far (used with a hand limit; default 0)")


class PartnershipHandSerializer(_ScoringBase):
    variant = serializers.ChoiceField(choices=["tractor", "chaodi"])
    state = ScoringStateSerializer(help_text="the match before this hand")
    outcome = PartnershipOutcomeSerializer()


class RedFiveHandSerializer(_ScoringBase):
    variant = serializers.ChoiceField(choices=["red-five"])
    decks = serializers.ChoiceField(choices=[2, 3], required=False, help_text="decks in play (default 2)")
    outcome = RedFiveOutcomeSerializer()


class YongzhouHandSerializer(_ScoringBase):
    variant = serializers.ChoiceField(choices=["yongzhou-300"])
    players = serializers.ChoiceField(choices=[3, 4], required=False, help_text="players at the table (default 4)")
    outcome = YongzhouOutcomeSerializer()


SCORING_HAND_REQUEST = PolymorphicProxySerializer(
    component_name="ScoringHand",
    serializers={"tractor": PartnershipHandSerializer, "chaodi": PartnershipHandSerializer,
                 "red-five": RedFiveHandSerializer, "yongzhou-300": YongzhouHandSerializer},
    resource_type_field_name="variant",
)

OBJECT = OpenApiTypes.OBJECT
