"""DRF parsers that refuse input built to exhaust the server."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
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


def nul_paths(data: Any, path: str = "") -> list[str]:
    r"""The JSON paths of every string (key or value) holding a NUL character.

    >>> nul_paths({"name": "a\x00b", "hands": [{"x": 1}, "ok", "\x00"], "fine": "yes"})
    ['name', 'hands.2']
    """
    found: list[str] = []
    if isinstance(data, str):
        if "\x00" in data:
            found.append(path or "body")
    elif isinstance(data, dict):
        for key, value in data.items():
            sub = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and "\x00" in key:
                found.append(sub)
            found.extend(nul_paths(value, sub))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found.extend(nul_paths(value, f"{path}.{i}" if path else str(i)))
    return found


class DepthLimitedJSONParser(JSONParser):
    """JSON, refusing documents nested deeper than ``JSON_MAX_DEPTH`` (64) with a 400 that says so, and
    strings holding a NUL character (no text field takes one; PostgreSQL cannot store it) with a 400
    naming each such field."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        limit = int(getattr(settings, "JSON_MAX_DEPTH", 64))
        depth = json_depth(raw)
        if depth > limit:
            raise ParseError(_("JSON parse error - the document is nested %(depth)d levels deep; at most "
                               "%(limit)d levels are accepted.") % {"depth": depth, "limit": limit},
                             code="json_too_deep")
        import io

        data = super().parse(io.BytesIO(raw), media_type, parser_context)
        bad = nul_paths(data)
        if bad:
            raise ValidationError({path.replace("\x00", "\\0"): [_("Text may not contain a NUL character (\\0).")]
                                   for path in bad[:20]})
        return data
