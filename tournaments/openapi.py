"""OpenAPI components of the tournaments API that the views only name (the outcome components are shared
with the scoring API: :mod:`rules_web.openapi`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from rules_web.openapi import OBJECT, OutcomeField


def _basic_schema(kind: OpenApiTypes) -> dict[str, Any]:
    """The schema of a basic type (drf-spectacular answers None only for ``OpenApiTypes.NONE``)."""
    schema = build_basic_type(kind)
    if schema is None:
        raise ValueError(f"{kind} has no schema")
    return schema


OBJECT_LIST = build_array_type(_basic_schema(OpenApiTypes.OBJECT))
TRUE_WORDS = ("1", "true", "yes", "on")


class CsvRowSchema(serializers.Serializer):
    line = serializers.IntegerField(help_text="the line of the CSV file (the header is line 1)")
    values = serializers.DictField(help_text="the row's values by column")
    # DRF's serializer metaclass takes declared fields off the class, so ``errors`` does not hide
    # Serializer.errors at run time; djangorestframework-stubs cannot know that (stub limitation).
    errors = serializers.ListField(  # type: ignore[assignment]
        child=serializers.CharField(), help_text="what is wrong with this row")


class EntriesImportResult(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["preview", "import"],
                                   help_text="`preview`: nothing was written; `import`: every row was entered")
    imported = serializers.IntegerField(help_text="entries written (0 for a preview)")
    kind = serializers.ChoiceField(choices=["teams", "players"])
    ok = serializers.BooleanField(help_text="every row is valid")
    errors = serializers.ListField(  # type: ignore[assignment]  # as CsvRowSchema.errors (stub limitation)
        child=serializers.CharField(), help_text="problems of the whole file")
    rows = CsvRowSchema(many=True)


PREVIEW_PARAM = OpenApiParameter("preview", bool, required=False,
                                 description="`1`/`true`: check the rows and write nothing (the same as "
                                             "`\"preview\": true` in the body); the default is a real import")


def wants_preview(body_flag: bool, query: object) -> bool:
    return bool(body_flag) or str(query or "").strip().lower() in TRUE_WORDS


__all__ = ["OBJECT", "OBJECT_LIST", "PREVIEW_PARAM", "EntriesImportResult", "OutcomeField", "wants_preview"]
