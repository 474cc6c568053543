"""Ratings (``/ratings/``, docs/ratings.md): the ladder of the site or of a club for one variant family,
and a player's rating history. Read-only: ratings are derived from the results, never written here.
The ladder as CSV is the page's ``/ratings/csv/`` (``/ratings/clubs/<id>/csv/``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.apis.common import MAX_ID
from tournaments.models import Club, PlayerRating, RatingFamily
from tournaments.selectors import ratings as rating_reads

FAMILY_PARAM = OpenApiParameter("family", str, enum=list(RatingFamily.values),
                                description="variant family (default `partnership`: tractor and chaodi)")
CLUB_PARAM = OpenApiParameter(
    "club", int, description="a club's ladder: the club's id, as in the ratings pages' `/ratings/clubs/<id>/` "
                             "(default: the whole site). Not a whole number, or no club whose ladder you may "
                             "see: 400 naming `club`")


def _club(request: Request) -> Club | None:
    """The club of the ``club`` parameter (its id), or None for the site's ladder; a value that is not a
    whole number, or names no club whose ladder the visitor may see (unknown and hidden look alike), is
    a 400 naming ``club``."""
    value = request.query_params.get("club")
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit() and int(value) <= MAX_ID):
        raise serializers.ValidationError({"club": [_("Must be the id of a club (a whole number).")]})
    club = rating_reads.clubs_visible(request.user).filter(pk=int(value)).first()
    if club is None:
        raise serializers.ValidationError({"club": [_("No club with this id has a ladder you may see.")]})
    return club


def _family(request: Request) -> str:
    family = request.query_params.get("family")
    if family not in (None, "", *RatingFamily.values):
        raise serializers.ValidationError({"family": [_("Unknown variant family; choose one of %(v)s.")
                                                      % {"v": ", ".join(RatingFamily.values)}]})
    return rating_reads.family_of_request(family)


class PlayerBrief(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()


class LadderRowSerializer(serializers.ModelSerializer):
    rank = serializers.IntegerField(read_only=True, help_text="place on the ladder (equal ratings share it)")
    player = PlayerBrief(read_only=True)
    rating = serializers.IntegerField(source="display", read_only=True,
                                      help_text="displayed rating: 1500 + 40·(mu − 3·sigma), rounded")
    last_played_at = serializers.DateTimeField(source="last_at", read_only=True)

    class Meta:
        model = PlayerRating
        fields = ["rank", "player", "rating", "mu", "sigma", "matches", "trend", "last_played_at"]


class RatingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The ladder: every shown player's rating in the site's pool or a club's, for one variant family,
    in the order of ``sort`` (rank or rating: best first; matches: most first; trend: rising most first;
    name: A to Z); ``reverse=true`` turns it round."""

    serializer_class = LadderRowSerializer
    queryset = PlayerRating.objects.none()

    def get_queryset(self) -> QuerySet[PlayerRating]:
        params = self.request.query_params
        sort = str(params.get("sort")) if params.get("sort") in rating_reads.SORTS else "rank"
        return rating_reads.ladder(user=self.request.user, family=_family(self.request), club=_club(self.request),
                                   sort=sort, reverse=params.get("reverse") in ("1", "true", "yes"))

    @extend_schema(parameters=[FAMILY_PARAM, CLUB_PARAM,
                               OpenApiParameter("sort", str, enum=list(rating_reads.SORTS)),
                               OpenApiParameter("reverse", bool, description="the order turned round")])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)


class HistoryRowSerializer(serializers.Serializer):
    match = serializers.IntegerField(allow_null=True, help_text="null when its tournament is not visible to you")
    tournament = serializers.IntegerField(allow_null=True)
    played_at = serializers.DateTimeField()
    rank = serializers.IntegerField(help_text="1 won (or tied first); partnerships 1 or 2, tables 1 to 4")
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()


class HistorySerializer(serializers.Serializer):
    player = PlayerBrief()
    club = serializers.IntegerField(allow_null=True)
    family = serializers.CharField()
    rating = LadderRowSerializer(allow_null=True)
    history = HistoryRowSerializer(many=True)


class PlayerRatingHistoryView(APIView):
    """A player's rating in one pool and its history, oldest first (every rated match; the match and
    tournament ids only of tournaments you may see)."""

    @extend_schema(parameters=[FAMILY_PARAM, CLUB_PARAM], responses={200: HistorySerializer})
    def get(self, request: Request, pk: str) -> Response:
        if not (str(pk).isascii() and str(pk).isdigit() and int(str(pk)) <= MAX_ID):
            raise Http404
        player = rating_reads.players_shown(request.user).filter(pk=int(pk)).first()
        if player is None:
            raise Http404(_("No such player."))
        club, family = _club(request), _family(request)
        data = rating_reads.player_ratings(player=player, user=request.user, family=family, club=club, recent=0)
        seen = rating_reads.visible_match_tournaments(request.user, [c.match_id for c in data.history])
        rating = data.rating
        if rating is not None:
            rating.rank = rating_reads.rank_of(rating, request.user)  # type: ignore[attr-defined]
        return Response(HistorySerializer({
            "player": {"id": player.pk, "name": player.name, "club": player.club},
            "club": club.pk if club else None, "family": family, "rating": rating,
            "history": [{"match": c.match_id if c.match_id in seen else None, "tournament": seen.get(c.match_id),
                         "played_at": c.played_at, "rank": c.rank, "rating_before": c.display_before,
                         "rating_after": c.display_after, "mu_after": c.mu_after, "sigma_after": c.sigma_after}
                        for c in data.history],
        }).data)
