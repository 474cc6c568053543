"""Errors of the rules engine, with messages in English and Simplified Chinese.

Every error is a ``ValueError`` so that callers that only know "bad input" still work; the
web layer turns them into HTTP 400 answers carrying ``.code``.

>>> err = IllegalPlay("Seat 2 must follow spades.", "2号座位必须跟黑桃。")
>>> str(err), err.code, err.message("zh-hans")
('Seat 2 must follow spades.', 'illegal_play', '2号座位必须跟黑桃。')
"""

from __future__ import annotations

LANGS = ("en", "zh-hans")


def norm_lang(lang: str | None) -> str:
    """Map a language tag to "en" or "zh-hans" (anything Chinese → "zh-hans")."""
    if lang and lang.lower().startswith("zh"):
        return "zh-hans"
    return "en"


class GameplayError(ValueError):
    """Base class: a request the rules refuse. ``str(err)`` is the English message."""

    code = "gameplay_error"

    def __init__(self, en: str, zh: str | None = None, *, code: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.zh = zh if zh is not None else en
        if code is not None:
            self.code = code

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` ("en" or "zh-hans")."""
        return self.zh if norm_lang(lang) == "zh-hans" else self.en

    def __str__(self) -> str:
        return self.en


class InvalidCards(GameplayError):
    """Malformed card notation, a card not in the deck, or cards a seat does not hold."""

    code = "invalid_cards"


class IllegalPlay(GameplayError):
    """A play that breaks a leading, following or format rule; the message names the rule."""

    code = "illegal_play"


class OutOfTurn(GameplayError):
    """A seat acted when it was not its turn."""

    code = "out_of_turn"


class WrongPhase(GameplayError):
    """An action that does not belong to the hand's current phase."""

    code = "wrong_phase"


class InvalidOption(GameplayError):
    """An unknown rule option or a bad value; ``.option`` names it."""

    code = "invalid_option"

    def __init__(self, option: str, en: str, zh: str | None = None) -> None:
        super().__init__(en, zh)
        self.option = option


class InvalidContext(GameplayError):
    """A level or trump that does not exist in the variant; ``.field`` is "level" or "trump"."""

    code = "invalid_context"

    def __init__(self, field: str, en: str, zh: str | None = None) -> None:
        super().__init__(en, zh)
        self.field = field


class RequestInvalid(GameplayError):
    """A malformed or impossible referee request; ``.field_errors`` maps JSON paths to messages."""

    code = "request_invalid"

    def __init__(self, field_errors: dict[str, list[str]], lang: str = "en") -> None:
        self.field_errors = field_errors
        parts = [f"{k}: {' '.join(v)}" for k, v in field_errors.items()]
        text = "; ".join(parts)
        if norm_lang(lang) == "zh-hans":
            super().__init__(text, text)
        else:
            super().__init__(text, text)
