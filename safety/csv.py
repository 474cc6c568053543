"""CSV files the site writes: cells a spreadsheet would run as a formula are neutralised.

A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
apostrophe (``'=1+1``), which spreadsheet programs show as text. Numbers stay numbers: an ``int``,
``float`` or ``Decimal`` is written as it is, and so is text that is just a number (``-3``, ``+2.5``).
Every CSV the site produces goes through ``writer()`` or ``safe_cell()``.
"""

from __future__ import annotations

import csv as _csv
import re
from decimal import Decimal
from typing import Any, Protocol

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def safe_cell(value: Any) -> Any:
    """The value as it may go into a CSV cell.

    >>> [safe_cell(v) for v in ["=SUM(A1:A9)", "-3", -3, "@cmd", "\\tx", "Alice", None]]
    ["'=SUM(A1:A9)", '-3', -3, "'@cmd", "'\\tx", 'Alice', '']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    if text.startswith(TRIGGERS) and not NUMBER_RE.match(text):
        return "'" + text
    return text


def text_cell(value: Any) -> str:
    """A cell that is text by its column (a name): neutralised even when it looks like a number, so
    a team called ``+1`` or ``-1+2`` is shown as written, never as a number or a sum.

    >>> [text_cell(v) for v in ["+1", "-5", "Alice", None]]
    ["'+1", "'-5", 'Alice', '']
    """
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(TRIGGERS) else text


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
