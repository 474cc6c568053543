"""CSV files the site writes: cells a spreadsheet would run as a formula are neutralised.

The rules are those of the ``defusedcsv`` library (a cell starting with ``=``, ``+``, ``-``, ``@``,
``|`` or ``%`` gets a leading apostrophe, and its pipes are escaped as ``\\|`` against DDE payloads),
plus OWASP's: a cell starting with a tab or a carriage return is neutralised too, and so is one where
such a character follows blanks (spaces, no-break and ideographic spaces, zero-width characters),
which spreadsheet programs may skip. The apostrophe makes the cell text; spreadsheet programs do not
show it. Numbers stay numbers: an ``int``, ``float`` or ``Decimal`` is written as it is, and so is
text that is just a number (``-3``, ``+2.5``). Every CSV the site produces goes through ``writer()``,
``safe_cell()`` or ``text_cell()``.
"""

from __future__ import annotations

import csv as _csv
import re
from decimal import Decimal
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "|", "%")
CONTROL_STARTS = ("\t", "\r")
TRIGGERS = FORMULA_STARTS + CONTROL_STARTS
# Leading characters a spreadsheet may skip before reading a formula: Unicode white space (``\s``
# takes in no-break and ideographic spaces) and the zero-width ones.
LEADING_BLANKS_RE = re.compile(r"^[\s\u200b\u200c\u200d\u2060\ufeff]+")
NUMBER_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def formula_like(text: str, *, numbers: bool = True) -> bool:
    """Whether a spreadsheet might run ``text``: it starts with a tab or a carriage return, or with a
    formula character after any blanks — unless it is just a number (when ``numbers``).

    >>> [formula_like(t) for t in ["=1+1", " =1+1", "\\xa0@x", "\\tx", "-3", "3-2", "a|b"]]
    [True, True, True, True, False, False, False]
    """
    if text.startswith(CONTROL_STARTS):
        return True
    body = LEADING_BLANKS_RE.sub("", text, count=1)
    if not body.startswith(FORMULA_STARTS):
        return False
    return not (numbers and NUMBER_RE.fullmatch(body))


def neutralise(text: str) -> str:
    """Text as a spreadsheet shows it and never runs it: an apostrophe first, pipes escaped."""
    return "'" + text.replace("|", "\\|")


def safe_cell(value: Any) -> Any:
    """The value as it may go into a CSV cell.

    >>> [safe_cell(v) for v in ["=SUM(A1:A9)", "-3", -3, "@cmd", "\\tx", " =1", "|cmd", "Alice", None]]
    ["'=SUM(A1:A9)", '-3', -3, "'@cmd", "'\\tx", "' =1", "'\\\\|cmd", 'Alice', '']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    return neutralise(text) if formula_like(text) else text


def text_cell(value: Any) -> str:
    """A cell that is text by its column (a name): neutralised even when it looks like a number, so
    a team called ``+1`` or ``-1+2`` is shown as written, never as a number or a sum.

    >>> [text_cell(v) for v in ["+1", "-5", " -5", "Alice", None]]
    ["'+1", "'-5", "' -5", 'Alice', '']
    """
    text = "" if value is None else str(value)
    return neutralise(text) if formula_like(text, numbers=False) else text


class _Writable(Protocol):
    def write(self, s: str, /) -> Any: ...


class SafeWriter:
    """``csv.writer`` whose rows pass through ``safe_cell``."""

    def __init__(self, out: _Writable, **kwargs: Any) -> None:
        self._writer = _csv.writer(out, **kwargs)

    def writerow(self, row: Any) -> Any:
        return self._writer.writerow([safe_cell(v) for v in row])

    def writerows(self, rows: Any) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: _Writable, **kwargs: Any) -> SafeWriter:
    """A drop-in for ``csv.writer`` that neutralises formula cells."""
    return SafeWriter(out, **kwargs)
