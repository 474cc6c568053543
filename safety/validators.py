"""Validators for text people type that others see (player, team and tournament names)."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Characters that reorder the text around them (embeddings, overrides and isolates): a name with one
# could show as something else, e.g. "Alice" followed by a reversed "exe.txt".
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Characters with no width: allowed inside a name (ZWJ joins emoji), never as the whole name.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")


def _codepoint(char: str) -> str:
    return f"U+{ord(char):04X}"


def validate_display_name(value: str) -> None:
    """Refuse names with bidirectional overrides, control characters, or nothing visible.

    >>> validate_display_name("张三 Zhang")
    >>> validate_display_name("\\u200b\\u200d")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['A name must contain visible characters, not only spaces or zero-width characters.']
    """
    for char in value:
        if char in BIDI_CONTROLS:
            raise ValidationError(
                _("A name must not contain the bidirectional control character %(char)s: it makes the "
                  "text show in another order than it is written."),
                code="bidi_control", params={"char": _codepoint(char)})
        if unicodedata.category(char) == "Cc":
            raise ValidationError(
                _("A name must not contain the control character %(char)s (such as a tab, line break or "
                  "NUL)."),
                code="control_character", params={"char": _codepoint(char)})
    if not any(not char.isspace() and char not in ZERO_WIDTH for char in value):
        raise ValidationError(
            _("A name must contain visible characters, not only spaces or zero-width characters."),
            code="invisible")
