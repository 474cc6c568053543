"""The generic part of rule options shown as form fields (no Django: the forms above build their fields
from it — ``tournaments.option_fields`` for the tournament forms, ``online.forms`` for a room).

Which options a form shows, the words of an option's label in a language, what an empty value means,
how a typed value is read back, and which values differ from the variant's default (only those are
stored, so an untouched form gives the standard rules ``{}``).

>>> [spec.name for spec in options_of("red-five")][:3]
['throw_allowed', 'throw_forced', 'throw_penalty']
>>> label_text(OPTIONS["throw_penalty"], zh=True)
'甩牌失败时每退回一张牌罚给对方的分数'
>>> null_note_text(OPTIONS["hand_limit"], zh=False)
'no limit.'
>>> changed_options("tractor", {"throw_allowed": True, "throw_penalty": 10, "target_level": ""})
{'throw_penalty': 10}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from variants import VARIANTS
from variants.options import OPTIONS, Kind, OptionSpec

__all__ = ["OPTIONS", "PLAIN", "as_text", "changed_options", "label_text", "null_note_text", "options_of",
           "parse_value", "same_value"]

PLAIN = (str, int, float, bool, tuple, list, type(None))
NULL_NOTE = re.compile(r"\s*[（(]null[：:][^）)]*[）)]")
_NULL_TEXT = re.compile(r"[（(]null[：:]\s*([^）)]*)[）)]")


def options_of(variant: str) -> list[OptionSpec]:
    """The options of ``variant`` a form shows: all but whole tables (level and game-point tables are
    set through the API, docs/rules.md)."""
    spec_variant = VARIANTS[variant]
    return [spec for spec in OPTIONS.values() if spec.applies_to(variant)
            and (spec.kind is not Kind.VALUE or isinstance(spec.default(spec_variant), PLAIN))]


def label_text(spec: OptionSpec, *, zh: bool) -> str:
    """The option's own description as a label: no "(null: …)" note, no closing full stop (the form adds
    its own colon)."""
    text = (spec.help_zh if zh else spec.help_en) or spec.name.replace("_", " ")
    return NULL_NOTE.sub("", text).rstrip("。.")


def null_note_text(spec: OptionSpec, *, zh: bool) -> str | None:
    """What an empty value means, from the option's own description ("null: the target level"), or None."""
    found = _NULL_TEXT.search((spec.help_zh if zh else spec.help_en) or "")
    return (found.group(1).strip().rstrip("。.") + ("。" if zh else ".")) if found else None


def as_text(value: Any) -> str:
    """A value as a text field shows it (JSON for lists and numbers, the string itself, "" for null)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def parse_value(text: str) -> Any:
    """A typed value read back: JSON when it is JSON (``[80, 300]``, ``3``), else the text (``J``)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def same_value(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def changed_options(variant: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The options set for ``variant`` by a form's cleaned ``values`` (option name → the field's value,
    for the options of :func:`options_of` it showed): only values that differ from the default; an
    empty text, an empty number or an empty choice keeps the default."""
    spec_variant = VARIANTS[variant]
    options: dict[str, Any] = {}
    for spec in options_of(variant):
        if spec.name not in values:
            continue
        value = values[spec.name]
        default = spec.default(spec_variant)
        if spec.kind is Kind.VALUE:
            text = (value or "").strip()
            if not text:
                continue
            value = parse_value(text)
        elif (spec.kind is Kind.POINTS and value is None) or (spec.kind is Kind.CHOICE and not value):
            continue
        default_value = str(default) if spec.kind is Kind.CHOICE else default
        if not same_value(value, default_value):
            options[spec.name] = value
    return options
