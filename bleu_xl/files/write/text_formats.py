"""Writing a table as CSV, JSON or JSON Lines: text always as text (never a formula), numbers as a spreadsheet
shows them."""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterator
from typing import IO, Any

from ...excel.cell_values import CellError, cell_text

__all__ = [
    "displayed",
    "json_value",
    "neutralise",
    "number_text",
    "write_csv",
    "write_json_document",
    "write_json_lines",
]

#: Leading characters that make a spreadsheet read a CSV field as a formula (OWASP's CSV injection guidance).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


#: A plain number as text: a sign, digits (grouped by thousands with , . or a space, or not), a decimal point or
#: comma, an exponent, a percent sign. A spreadsheet reads it as that number and nothing else, so it keeps its
#: sign without a ``'`` ("-5", "-0,5", "+1,234.50"); "-2+3" is an expression, and is neutralised.
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:[,. \u00a0]\d{3})+)(?:[.,]\d+)?(?:[eE][+-]?\d+)?%?", re.ASCII)


#: Copy that opens with a number and its sign, then a space and words (``-20% this weekend``, ``+3 colours``): a
#: spreadsheet reads it as text, not as a formula to run; and it holds none of what would let a formula do
#: anything (a call's parentheses, a link to another program ``|`` or sheet ``!``, another workbook ``[``, ``=``,
#: ``@``, a string's quotes, a line break or tab), so no such text can hide one (``-1 +cmd|' /C calc'!A0``), nor
#: an operator that would make it sums Excel works out (``-2 + 3`` shows 1, ``-1 -2`` shows -3): the rest is words,
#: with a letter.
NUMBER_THEN_WORDS = re.compile(
    r"[+-](?:[0-9]+|[0-9]{1,3}(?:[,.][0-9]{3})+)(?:[.,][0-9]+)?%? "
    r"(?=.*?[^\W\d_])[^=@()\[\]{}|!\"+\-*/^&<>\x00-\x1f\x7f]*"
)


def neutralise(text: str) -> str:
    """A leading ``'`` for text a spreadsheet would run as a formula: ``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``;
    a plain number such as ``-5``, and copy that opens with one (``-20% this weekend``), are left as they are."""
    if text.startswith(FORMULA_TRIGGERS) and not (PLAIN_NUMBER.fullmatch(text) or NUMBER_THEN_WORDS.fullmatch(text)):
        return "'" + text
    return text


def write_csv(
    out: IO[str],
    header: list[str],
    rows: Iterator[list[Any]],
    *,
    delimiter: str = ",",
    raw: bool = False,
) -> None:
    """Text fields quoted and neutralised against formula injection (unless ``raw``), numbers as numbers, each
    written by :func:`number_text`.

    With ``;`` as the delimiter, numbers are written with a decimal comma, as French or Portuguese Excel
    writes and reads them.
    """
    writer = csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    number = _CommaNumber if delimiter == ";" else _PointNumber

    def csv_field(value: Any) -> Any:
        shown = displayed(value)
        if isinstance(shown, str):
            return shown if raw else neutralise(shown)
        if isinstance(shown, float):
            return number(shown)
        return shown

    writer.writerow([csv_field(v) for v in header])
    for row in rows:
        writer.writerow([csv_field(v) for v in row])


def number_text(value: float, decimal: str = ".") -> str:
    """A float as CSV holds it: its shortest text that reads back as the same float, ``decimal`` as its
    separator, and never exactly three digits after it (``0.125`` is written ``0.1250``): where the separator
    groups thousands (``.`` in German, ``,`` in English), a spreadsheet reads three digits after it as a
    thousands group, 0.125 as 125; with four it reads text, never a wrong number."""
    mantissa, exponent_mark, exponent = repr(value).partition("e")
    whole, point, fraction = mantissa.partition(".")
    if len(fraction) == 3:
        fraction += "0"
    return whole + (decimal if point else "") + fraction + exponent_mark + exponent


class _PointNumber(float):
    """A number that the csv module writes unquoted (it is a float) as :func:`number_text` gives it (its ``str``),
    with a decimal point."""

    decimal = "."

    def __str__(self) -> str:
        return number_text(float(self), self.decimal)


class _CommaNumber(_PointNumber):
    """The same, with a decimal comma."""

    decimal = ","


def displayed(value: Any) -> Any:
    """A cell as Excel displays it in General format: integers without ``.0``, TRUE/FALSE, dates as ISO."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
            return int(value)
        return value
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, CellError):
        return value.text
    return cell_text(value) or ""  # dates, times and durations: the text they are scored as


def json_value(value: Any) -> Any:
    """A cell for JSON: numbers (integers without ``.0``), booleans, text, dates as ISO text, blanks as null.

    JSON has no infinity and no NaN: such a number is written as the text CSV shows (``"inf"``, ``"-inf"``,
    ``"nan"``), not as ``null``, which is a blank here."""
    if value is None or value == "":
        return None
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return displayed(value)


def write_json_lines(out: IO[str], header: list[str], rows: Iterator[list[Any]]) -> None:
    for row in rows:
        line = json.dumps({k: json_value(v) for k, v in zip(header, row)}, ensure_ascii=False, allow_nan=False)
        out.write(line + "\n")


def write_json_document(out: IO[str], about: dict[str, Any], header: list[str], rows: Iterator[list[Any]]) -> None:
    """One JSON document: the keys of ``about`` (what was scored and how), then ``rows``, an object per row.

    Written a row at a time, so that a million rows never stand in memory as one string.
    """
    out.write("{\n")
    for key, value in about.items():
        out.write(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n")
    out.write('  "rows": [')
    separator = "\n    "
    for row in rows:
        out.write(
            separator + json.dumps({k: json_value(v) for k, v in zip(header, row)}, ensure_ascii=False, allow_nan=False)
        )
        separator = ",\n    "
    out.write("\n  ]\n}\n")
