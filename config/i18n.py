"""Bridge between Django's active language and the pure cores' message catalogues."""

from django.utils.translation import get_language


def core_lang() -> str:
    """The language code the pure cores understand: ``"zh-hans"`` or ``"en"``."""
    language = (get_language() or "en").lower()
    return "zh-hans" if language.startswith("zh") else "en"
