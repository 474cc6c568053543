"""DRF parsers that refuse input built to exhaust the server."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

_STRING_RE = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET_RE = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings are skipped).

    >>> json_depth(b'{"a": [1, {"b": "[[[["}]}')
    3
    """
    depth = deepest = 0
    for match in _BRACKET_RE.finditer(_STRING_RE.sub(b'""', raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class DepthLimitedJSONParser(JSONParser):
    """JSON, refusing documents nested deeper than ``JSON_MAX_DEPTH`` (64) with a 400 that says so."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        limit = int(getattr(settings, "JSON_MAX_DEPTH", 64))
        depth = json_depth(raw)
        if depth > limit:
            raise ParseError(_("JSON parse error - the document is nested %(depth)d levels deep; at most "
                               "%(limit)d levels are accepted.") % {"depth": depth, "limit": limit},
                             code="json_too_deep")
        import io

        return super().parse(io.BytesIO(raw), media_type, parser_context)
