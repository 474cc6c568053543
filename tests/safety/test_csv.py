"""CSV injection: formula cells are neutralised, numbers stay numbers."""

import csv
import io
from decimal import Decimal

import pytest

from safety.csv import safe_cell, writer


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\")", "+1+cmd", "-2+3", "@SUM(A1)", "\tx", "\r=1", "-", "=",
                                  "-1e5x", "+-1"])
def test_cells_a_spreadsheet_would_run_are_prefixed(text: str) -> None:
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["-3", "-3.5", "+2", "-0.25", "1e3", "-1E-2", -3, -3.5, Decimal("-1.5"), 0])
def test_numbers_stay_numbers(value: object) -> None:
    assert safe_cell(value) == value


@pytest.mark.parametrize("text", ["Alice", "张三", "a=b", "", "3-2"])
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert safe_cell(text) == text


def test_the_writer_neutralises_every_cell_and_round_trips() -> None:
    out = io.StringIO()
    w = writer(out)
    w.writerow(["name", "points"])
    w.writerows([["=cmd|' /C calc'!A0", -5], ["Bob", "-10"], [None, True]])
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [["name", "points"], ["'=cmd|' /C calc'!A0", "-5"], ["Bob", "-10"], ["", "True"]]
