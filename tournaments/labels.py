"""Labels of stored codes in the visitor's language (no model import, so models can use them)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from config.i18n import core_lang
from tournaments.formats.brackets import round_name


def round_label(name: str) -> str:
    """A stored round name ``code:number`` (``final:0``, ``round-of:16``) in the active language;
    other names (Swiss "Round 3") are shown as they are."""
    code, _sep, number = name.partition(":")
    if code == "round" and number.isdigit():
        return _("Round %(n)s") % {"n": number}
    try:
        return round_name(code, int(number or 0), core_lang())
    except (KeyError, ValueError):
        return name
