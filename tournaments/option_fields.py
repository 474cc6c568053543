"""Rule options as labelled form fields, one group per variant (the new-tournament and details forms).

Each option of ``variants.options`` that applies to a variant becomes a field named
``opt__<variant>__<option>`` with the option's own bilingual description as its label and the variant's
default as its initial value: a check box for yes/no options, a list for choices, a number for points,
and a short text for the rest (a level like ``J``, a count, a range ``[80, 300]``). Only the chosen
variant's group is read, and only values that differ from the default are stored, so an untouched form
gives the standard rules (``{}``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from variants import VARIANTS
from variants.options import OPTIONS, Kind, OptionSpec

PREFIX = "opt__"
SHOWN = "options_shown"  # a hidden field: the form showed the option fields (a post without it keeps the defaults)
CHOICE_WORDS = {
    "lowest_card": _("the lowest card"), "fewest_cards": _("the fewest cards"),
    "strongest_in_side_suit": _("the strongest in the side suit"), "any": _("any"),
    "no_trump": _("no trump"), "kitty_card": _("a card from the kitty"), "redeal": _("deal again"),
    "schedule": _("by the schedule"), "random": _("drawn at random"),
    "power_of_two": _("2 to the size of the play (2, 4, 16, 64)"), "by_cards": _("by the cards (1, 2, 4, 6 …)"),
    "flat": _("×1 whatever the play"), "double": _("×2 whatever the play"),
    "dealer_side": _("the dealer's side wins"), "draw": _("a draw"), "deciding_hand": _("one deciding hand"),
    "S": "♠", "H": "♥", "C": "♣", "D": "♦",
}


def field_name(variant: str, option: str) -> str:
    return f"{PREFIX}{variant}__{option}"


PLAIN = (str, int, float, bool, tuple, list, type(None))


def options_of(variant: str) -> list[OptionSpec]:
    """The options of ``variant`` a form shows: all but whole tables (level and game-point tables are
    set through the API, docs/rules.md)."""
    spec_variant = VARIANTS[variant]
    return [spec for spec in OPTIONS.values() if spec.applies_to(variant)
            and (spec.kind is not Kind.VALUE or isinstance(spec.default(spec_variant), PLAIN))]


NULL_NOTE = re.compile(r"\s*[（(]null[：:][^）)]*[）)]")


def _label(spec: OptionSpec) -> str:
    zh = (get_language() or "").startswith("zh")
    text = (spec.help_zh if zh else spec.help_en) or spec.name.replace("_", " ")
    return NULL_NOTE.sub("", text).rstrip("。.")  # the form adds its own "：" after a label


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _field(spec: OptionSpec, variant: str, current: Any) -> forms.Field:
    label = _label(spec)
    help_text = _("Option %(name)s.") % {"name": spec.name}
    if spec.kind is Kind.BOOL:
        return forms.BooleanField(label=label, required=False, initial=bool(current), help_text=help_text)
    if spec.kind is Kind.CHOICE:
        choices = [(str(c), CHOICE_WORDS.get(str(c), str(c))) for c in spec.choices]
        return forms.ChoiceField(label=label, choices=choices, initial=str(current), help_text=help_text,
                                 required=False)
    if spec.kind is Kind.POINTS:
        return forms.IntegerField(label=label, min_value=0, max_value=100, step_size=5, initial=current,
                                  required=False, help_text=help_text,
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    if current is None:
        help_text = _("Empty: %(rule)s Option %(name)s.") % {"rule": _null_note(spec), "name": spec.name}
    return forms.CharField(label=label, required=False, initial=_as_text(current), help_text=help_text,
                           widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}))


def _null_note(spec: OptionSpec) -> str:
    """What an empty value means, from the option's own description ("null: the target level")."""
    zh = (get_language() or "").startswith("zh")
    found = re.search(r"[（(]null[：:]\s*([^）)]*)[）)]", (spec.help_zh if zh else spec.help_en) or "")
    return (found.group(1).strip().rstrip("。.") + ("。" if zh else ".")) if found else str(_("the standard rule."))


def add_option_fields(form: forms.Form, variant_keys: Iterable[str],
                      stored: Mapping[str, Any] | None = None) -> None:
    """Add each variant's option fields to ``form`` (initial: ``stored`` options, else the defaults)."""
    stored = stored or {}
    form.fields[SHOWN] = forms.CharField(widget=forms.HiddenInput, initial="1", required=False)
    for variant in variant_keys:
        spec_variant = VARIANTS[variant]
        for spec in options_of(variant):
            current = stored.get(spec.name, spec.default(spec_variant))
            form.fields[field_name(variant, spec.name)] = _field(spec, variant, current)


def groups(form: forms.Form, variant_keys: Iterable[str]) -> list[dict[str, Any]]:
    """The option fields of each variant, for the template (one fieldset per variant)."""
    return [{"variant": variant, "fields": [form[field_name(variant, spec.name)] for spec in options_of(variant)
                                            if field_name(variant, spec.name) in form.fields]}
            for variant in variant_keys]


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def chosen_options(form: forms.Form, variant: str) -> dict[str, Any]:
    """The options the form sets for ``variant``: only values that differ from the variant's default."""
    data = form.cleaned_data
    spec_variant = VARIANTS[variant]
    options: dict[str, Any] = {}
    if not form.is_bound or not form.data.get(SHOWN):
        return options
    for spec in options_of(variant):
        name = field_name(variant, spec.name)
        if name not in data:
            continue
        value = data[name]
        default = spec.default(spec_variant)
        if spec.kind is Kind.VALUE:
            text = (value or "").strip()
            if not text:
                continue
            value = _parse_value(text)
        elif (spec.kind is Kind.POINTS and value is None) or (spec.kind is Kind.CHOICE and not value):
            continue
        default_value = str(default) if spec.kind is Kind.CHOICE else default
        if not _same(value, default_value):
            options[spec.name] = value
    return options


def strip_option_fields(data: dict[str, Any]) -> None:
    """Remove every option field from ``cleaned_data`` (the services take one ``options`` mapping)."""
    for name in [n for n in data if n.startswith(PREFIX) or n == SHOWN]:
        del data[name]


def move_option_errors(form: forms.Form, variant: str,
                       field_errors: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Put a service's ``options.<name>…`` errors on that option's field of ``form``; return the rest."""
    rest: dict[str, list[str]] = {}
    for path, messages in field_errors.items():
        name = field_name(variant, path.split(".", 2)[1].split("[", 1)[0]) if path.startswith("options.") else ""
        if name in form.fields:
            for message in messages:
                form.add_error(name, message)
        else:
            rest[path] = messages
    return rest
