"""REST API of trick-by-trick entry (``/api/v1/matches/{id}/trick-entry/…``) and of recorded hands' logs.

Writing needs a scorer of the tournament or the table's secret link token (header ``X-Table-Token``
or ``?token=``), like recording hands by their totals. Every write sends the draft's ``version``;
a stale one is answered 409 with the current draft. Errors follow the API conventions (``detail``,
``code``, ``errors`` by field path); an entry the engine refuses also lists the engine's ``issues``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import invalid_input
from gameplay.record import derive
from tournaments.errors import NotAllowed, ServiceError, StaleVersion
from tournaments.models import HandRecord, Match, TrickDraft
from tournaments.permissions import can_score_match, can_view
from tournaments.services import trick_entry as svc
from tournaments.services.common import Actor, match_snapshot
from tournaments.services.hand_summary import hand_summary

TOKEN_PARAM = OpenApiParameter("X-Table-Token", str, OpenApiParameter.HEADER, required=False,
                               description="a table's secret link token, instead of signing in")
DRAFT = inline_serializer("TrickDraft", {
    "match": serializers.IntegerField(), "number": serializers.IntegerField(), "version": serializers.IntegerField(),
    "facts": serializers.DictField(), "hand_facts": serializers.DictField(),
    "tricks": serializers.ListField(child=serializers.ListField(child=serializers.DictField())),
    "derived": serializers.DictField(), "updated_at": serializers.DateTimeField(),
})
ERROR = inline_serializer("TrickEntryError", {
    "detail": serializers.CharField(), "code": serializers.CharField(),
    "errors": serializers.DictField(required=False), "issues": serializers.ListField(required=False),
    "current": serializers.DictField(required=False),
})
PLAY_HELP = 'a shengji-hand/1 play: {"seat": 0, "cards": "SK SQ", "forced": "SQ" (a failed throw only)}'


class FactsInput(serializers.Serializer):
    facts = serializers.DictField(help_text="dealer (first hand of a match; red-five every hand; yongzhou-300 the "
                                            "declarer or null), trump (S, H, C, D or NT), bid (red-five), "
                                            "declarations [{seat, cards}], kitty, buried, buried_by, leader")


class FactsChange(FactsInput):
    version = serializers.IntegerField(help_text="the draft's current version")


class PlayInput(serializers.Serializer):
    version = serializers.IntegerField(help_text="the draft's current version")
    play = serializers.DictField(help_text=PLAY_HELP)


class TrickInput(serializers.Serializer):
    version = serializers.IntegerField(help_text="the draft's current version")
    plays = serializers.ListField(child=serializers.DictField(), help_text="the trick's plays in play order")


class DraftVersion(serializers.Serializer):
    version = serializers.IntegerField(help_text="the draft's current version")


class FinishInput(DraftVersion):
    ruling = serializers.CharField(required=False, allow_blank=True, default="",
                                   help_text="required when the hand has flags: the ruling recorded")


class ImportInput(serializers.Serializer):
    record = serializers.JSONField(help_text='a shengji-record/1 record: {"format", "facts", "tricks"}')
    version = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="the open draft's version, to replace it")


def _token(request: Request) -> str | None:
    return request.headers.get("X-Table-Token") or request.query_params.get("token")


def _match_id(pk: Any) -> int:
    if not str(pk).isdigit() or int(str(pk)) > 2**63 - 1:
        raise Http404
    return int(str(pk))


def readable_match(request: Request, pk: Any) -> Match:
    match = get_object_or_404(Match.objects.select_related("stage__tournament"), pk=_match_id(pk))
    if not (can_view(request.user, match.stage.tournament) or can_score_match(request.user, match, _token(request))):
        raise Http404
    return match


def writable_match(request: Request, pk: Any) -> tuple[Match, Actor]:
    """The match if the caller may score it (a scorer, or the table's token): 404 if they may not even
    see it, 401 when anonymous without a token, 403 otherwise."""
    match = get_object_or_404(Match.objects.select_related("stage__tournament"), pk=_match_id(pk))
    token = _token(request)
    if not can_score_match(request.user, match, token):
        if not can_view(request.user, match.stage.tournament):
            raise Http404
        if not request.user.is_authenticated and not token:
            raise NotAuthenticated(_("Sign in, or use the table's link, to record hands."))
        raise PermissionDenied(_("You are not a scorer of this tournament or table."))
    via = "api" if request.user.is_authenticated else "token"
    return match, Actor(request.user if request.user.is_authenticated else None, via)


def error_answer(exc: Exception) -> Response:
    if isinstance(exc, svc.EntryRefused):
        response = invalid_input(exc.field_errors)
        response.data["detail"] = _("The engine refused this entry: nothing was stored.")
        response.data["code"] = "entry_refused"
        response.data["issues"] = [svc.issue_json(i) for i in exc.issues]
        return response
    if isinstance(exc, ServiceError):
        return invalid_input(exc.field_errors)
    if isinstance(exc, svc.DraftConflict):
        return Response({"detail": str(exc), "code": exc.code, "current": exc.current}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, StaleVersion):
        return Response({"detail": _("Someone else changed this match first: reload and try again."),
                         "code": "stale_version", "current": exc.current}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotAllowed):
        return Response({"detail": str(exc), "code": "permission_denied"}, status=status.HTTP_403_FORBIDDEN)
    raise exc


ERRORS = (ServiceError, svc.DraftConflict, StaleVersion, NotAllowed)


def _draft_answer(draft: TrickDraft | svc.Entered, code: int = status.HTTP_200_OK, **extra: Any) -> Response:
    """The draft as just written by a service (its match loaded with the stage and tournament), with
    the hand that write derived (a draft read as is: derived here); a complete hand's ``derived``
    also has its ``summary``: the result in words for the entry page."""
    entered = draft if isinstance(draft, svc.Entered) else svc.Entered(
        draft, derive(svc.match_facts(draft.match, draft.facts), svc.draft_tricks(draft)))
    match, rec = entered.draft.match, entered.record
    body = svc.draft_json(entered.draft, match, rec)
    if rec.complete:
        body["derived"]["summary"] = hand_summary(match, rec)
    return Response({**body, **extra}, status=code)


class TrickEntryView(APIView):
    """The hand being entered trick by trick at a match or individual table (one at a time)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[TOKEN_PARAM], responses={200: DRAFT, 404: ERROR})
    def get(self, request: Request, pk: str) -> Response:
        match, _actor = writable_match(request, pk)
        draft = TrickDraft.objects.filter(match=match).first()
        if draft is None:
            return Response({"detail": _("No hand is being entered trick by trick at this table."),
                             "code": "not_found", "match": match_snapshot(match)}, status=status.HTTP_404_NOT_FOUND)
        return _draft_answer(draft)

    @extend_schema(request=FactsInput, parameters=[TOKEN_PARAM], responses={201: DRAFT, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """Start entering the next hand: its facts."""
        match, actor = writable_match(request, pk)
        data = _valid(FactsInput, request)
        try:
            entered = svc.draft_start(match_id=match.pk, facts=data["facts"], actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered, status.HTTP_201_CREATED)

    @extend_schema(request=FactsChange, parameters=[TOKEN_PARAM], responses={200: DRAFT, 400: ERROR, 409: ERROR})
    def put(self, request: Request, pk: str) -> Response:
        """Change the hand's facts; the tricks are judged again."""
        match, actor = writable_match(request, pk)
        data = _valid(FactsChange, request)
        try:
            entered = svc.draft_facts(match_id=match.pk, version=data["version"], facts=data["facts"], actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered)


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class PlayView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=PlayInput, parameters=[TOKEN_PARAM], responses={200: DRAFT, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """One seat's play: it joins the trick on the table or leads the next one. The answer's ``judgement``
        names the next seat, and once the trick is complete its winner and points, with any flags."""
        match, actor = writable_match(request, pk)
        data = _valid(PlayInput, request)
        try:
            entered, judgement = svc.play_add(match_id=match.pk, version=data["version"], play=data["play"],
                                              actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered, judgement=judgement)


class UndoView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=DraftVersion, parameters=[TOKEN_PARAM], responses={200: DRAFT, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """Remove the last entered play."""
        match, actor = writable_match(request, pk)
        data = _valid(DraftVersion, request)
        try:
            entered = svc.play_undo(match_id=match.pk, version=data["version"], actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered)


class TrickView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=TrickInput, parameters=[TOKEN_PARAM], responses={200: DRAFT, 400: ERROR, 409: ERROR})
    def put(self, request: Request, pk: str, number: str) -> Response:
        """Enter trick ``number`` (1-based: the next one) or correct an earlier one; everything after a
        corrected trick is derived again."""
        match, actor = writable_match(request, pk)
        data = _valid(TrickInput, request)
        try:
            entered = svc.trick_put(match_id=match.pk, version=data["version"], index=int(number) - 1,
                                    plays=data["plays"], actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered)


class FinishView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=FinishInput, parameters=[TOKEN_PARAM],
                   responses={201: inline_serializer("TrickHandRecorded", {
                       "hand": serializers.DictField(), "result": serializers.DictField(),
                       "match": serializers.DictField(), "flags": serializers.ListField()}),
                       400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """Record the complete hand: its derived totals go through the ordinary hand recording."""
        match, actor = writable_match(request, pk)
        data = _valid(FinishInput, request)
        try:
            finished = svc.draft_finish(match_id=match.pk, version=data["version"], actor=actor,
                                        ruling=data.get("ruling", ""))
        except ERRORS as exc:
            return error_answer(exc)
        hand = finished.done.hand
        return Response({"hand": hand_json(hand), "result": finished.done.result,
                         "match": match_snapshot(Match.objects.get(pk=match.pk)),
                         "flags": [svc.issue_json(f) for f in finished.record.flags],
                         # the result in words and the pages to go on to, for the entry page
                         "summary": hand_summary(match, finished.record),
                         "links": {"replay": reverse("hand-replay", args=[match.pk, hand.number]),
                                   "match": reverse("match-detail", args=[match.pk])}},
                        status=status.HTTP_201_CREATED)


class DiscardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=DraftVersion, parameters=[TOKEN_PARAM], responses={204: None, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """Throw the hand being entered away (the totals can then be entered instead)."""
        match, actor = writable_match(request, pk)
        data = _valid(DraftVersion, request)
        try:
            svc.draft_discard(match_id=match.pk, version=data["version"], actor=actor)
        except ERRORS as exc:
            return error_answer(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RecordView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[TOKEN_PARAM], responses={200: dict, 404: ERROR})
    def get(self, request: Request, pk: str) -> Response:
        """Export the hand being entered as a ``shengji-record/1`` record."""
        match, _actor = writable_match(request, pk)
        draft = get_object_or_404(TrickDraft.objects.select_related("match__stage__tournament"), match=match)
        return Response(svc.draft_record(draft))

    @extend_schema(request=ImportInput, parameters=[TOKEN_PARAM], responses={201: DRAFT, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: str) -> Response:
        """Import a ``shengji-record/1`` record as the hand being entered (its facts and tricks are checked)."""
        match, actor = writable_match(request, pk)
        data = _valid(ImportInput, request)
        try:
            entered = svc.draft_import(match_id=match.pk, record=data["record"], actor=actor,
                                       version=data.get("version"))
        except ERRORS as exc:
            return error_answer(exc)
        return _draft_answer(entered, status.HTTP_201_CREATED)


def hand_json(hand: HandRecord) -> dict[str, Any]:
    return {"number": hand.number, "dealer": hand.dealer, "trump": hand.trump, "outcome": hand.outcome,
            "result": hand.result, "entered_via": hand.entered_via, "trick_log": hand.trick_log}


class HandLogView(APIView):
    """A recorded hand's trick log (hands entered trick by trick), readable like the hand itself."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[TOKEN_PARAM], responses={200: dict, 404: ERROR})
    def get(self, request: Request, pk: str, number: str) -> Response:
        match = readable_match(request, pk)
        hand = get_object_or_404(HandRecord, match=match, number=int(number))
        if hand.trick_log is None:
            return Response({"detail": _("This hand was entered by its totals: it has no trick log."),
                             "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
        return Response(hand.trick_log)
