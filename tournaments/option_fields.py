"""Rule options as labelled form fields, one group per variant (the new-tournament and details forms).

Each option of ``variants.options`` that applies to a variant becomes a field named
``opt__<variant>__<option>`` with the option's own bilingual description as its label and the variant's
default as its initial value: a check box for yes/no options, a list for choices, a number for points,
and a short text for the rest (a level like ``J``, a count, a range ``[80, 300]``). Only the chosen
variant's group is read, and only values that differ from the default are stored, so an untouched form
gives the standard rules (``{}``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from variants import VARIANTS
from variants.option_form import as_text, changed_options, label_text, null_note_text, options_of
from variants.options import Kind, OptionSpec

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


def _label(spec: OptionSpec) -> str:
    return label_text(spec, zh=(get_language() or "").startswith("zh"))


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
    return forms.CharField(label=label, required=False, initial=as_text(current), help_text=help_text,
                           widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}))


def _null_note(spec: OptionSpec) -> str:
    """What an empty value means, from the option's own description ("null: the target level")."""
    return null_note_text(spec, zh=(get_language() or "").startswith("zh")) or str(_("the standard rule."))


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


def chosen_options(form: forms.Form, variant: str) -> dict[str, Any]:
    """The options the form sets for ``variant``: only values that differ from the variant's default."""
    if not form.is_bound or not form.data.get(SHOWN):
        return {}
    data = form.cleaned_data
    return changed_options(variant, {spec.name: data[field_name(variant, spec.name)] for spec in options_of(variant)
                                     if field_name(variant, spec.name) in data})


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
