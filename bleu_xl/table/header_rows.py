"""Header rows the column rules cannot find by a known name: the headers of columns given by letter under a title,
and the header row repeated inside the data (two tables stacked on one sheet).

Both decide whether a row is headers or data; when a row could be either and the two readings score differently,
the rules refuse it and name the settings that say which it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..core.errors import Setting
from ..core.tokenizer import tokenize
from ..excel.cell_values import CellError, cell_text
from .layout import fold
from .sheet import InputError, Sheet

__all__ = ["header_like", "header_text", "header_under_title", "repeated_header_rows", "typed_totals_row"]

#: A number as text (a CSV's cells are all text): never a header.
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)*%?")


def header_text(value: Any) -> str:
    """A cell as a header: its text trimmed, ``""`` for a blank or an error."""
    text = cell_text(value)
    return "" if text is None or isinstance(text, CellError) else str(text).strip()


def header_like(value: Any) -> bool:
    """Whether a cell could be a column's header: text, not a number, an error or blank."""
    return isinstance(value, str) and header_text(value) != "" and not _NUMBER_TEXT.fullmatch(value.strip())


def _reads_as_headers(cells: Sequence[Any]) -> bool:
    """Whether a row's cells over the given columns read as their headers rather than a pair: two or more texts
    that share no word (a candidate and its reference share some; 'Approved copy' and 'Variant' none)."""
    words = [set(tokenize(header_text(v))) for v in cells]
    return len(words) > 1 and all(w and not (w & other) for i, w in enumerate(words) for other in words[i + 1 :])


def header_under_title(
    sheet: Sheet, start: int, columns: Sequence[int], rows_searched: int, reference_text: str | None = None
) -> int | None:
    """The header row of columns given by letter when no row holds a known header: the first row with text
    (``start``) when it holds a header's text over each column; else the first row holding such text in every
    column below rows of one text each (a title, a note), when it reads as headers (:func:`_reads_as_headers`;
    with the ``reference_text`` given for every candidate, a candidate column's header shares no word with it).
    ``None``: every row is data.

    A row of several texts above it that is not over every column could be the header row as well: refused,
    naming the settings that say which it is."""
    rows = sheet.rows
    above: int | None = None  # a row of several texts above: headers with one missing, or data
    for r in range(start, min(start + rows_searched, len(rows))):
        row = rows[r]
        cells = [row[c] if c < len(row) else None for c in columns]
        if all(header_like(v) for v in cells):
            if r == start:
                return r
            if not _reads_as_headers([*cells, *([] if reference_text is None else [reference_text])]):
                return None
            if above is not None:
                raise InputError(
                    f"sheet {sheet.name!r}: row {above + 1} or row {r + 1} could be the header row of the columns "
                    "given; say which with ",
                    Setting("header_row", r + 1),
                    ", or score every row with ",
                    Setting("no_header"),
                )
            return r
        if sum(1 for v in row if header_text(v)) > 1:
            above = r if above is None else above
    return None


def repeated_header_rows(sheet: Sheet, header_row: int, columns: Sequence[int], data: Sequence[int]) -> list[int]:
    """The data rows whose cells in ``columns`` (the candidate's and the references') repeat the header row's
    texts (compared as headers are: trimmed, any case and accents): a second table stacked below the first, never a
    pair to score; so is a row whose candidate cell repeats its header among more than half of the header row's
    texts (that table's header row with a column renamed, ``Reference (FR)``, or one added). None when a column
    has no header, or when only one column is read."""
    rows = sheet.rows
    heads = [fold(header_text(rows[header_row][c])) if c < len(rows[header_row]) else "" for c in columns]
    if len(columns) < 2 or not all(heads):
        return []
    first, head = columns[0], heads[0]
    texts = [(c, fold(text)) for c, v in enumerate(rows[header_row]) if (text := header_text(v))]
    alien = _alien_to(head)
    found = []
    for r in data:
        row = rows[r]
        value = row[first] if first < len(row) else None
        if value is None or (type(value) is str and alien.search(value)) or fold(header_text(value)) != head:
            continue
        every = all(c < len(row) and fold(header_text(row[c])) == h for c, h in zip(columns[1:], heads[1:]))
        if every or 2 * sum(1 for c, h in texts if c < len(row) and fold(header_text(row[c])) == h) > len(texts):
            found.append(r)
    return found


def _alien_to(head: str) -> re.Pattern[str]:
    """A search for a character that rules out a text folding to ``head``: an ASCII character that is not
    whitespace and whose lower case ``head`` lacks. Folding keeps every such character (NFKD leaves ASCII as it is
    and only adds characters, case folding lowers A-Z alone, and only whitespace is dropped), so one search in C
    ends almost every candidate, where folding each one that is not ASCII was most of the time the column rules
    take on a large sheet (a test holds the two ways equal)."""
    alien = "".join(c for c in map(chr, range(128)) if not c.isspace() and c.lower() not in head)
    return re.compile(f"[{re.escape(alien)}]" if alien else "(?!)")


#: Labels of a totals row typed by hand, folded as headers are (lower case, no accents).
TOTALS_LABELS = frozenset(
    [
        "total",
        "totals",
        "grand total",
        "subtotal",
        "sub-total",
        "sum",
        "somme",
        "sous-total",
        "soma",
        "totale",
        "suma",
        "summe",
        "gesamt",
        "insgesamt",
        "totaal",
        "totaux",
        "合计",
        "合計",
        "総計",
        "합계",
    ]
)


def typed_totals_row(sheet: Sheet, candidate_col: int, data: Sequence[int]) -> tuple[int, str] | None:
    """The last data row when it is a totals row typed by hand: a label such as ``Total`` in one cell, and a number
    (a count of the candidates, ``=COUNTA``) where the candidates are; with the label found. Never a pair to score,
    and scored it would rank among the candidates."""
    rows = sheet.rows
    last = next((r for r in reversed(data) if any(header_text(v) for v in rows[r])), None)
    if last is None:
        return None
    row = rows[last]
    value = row[candidate_col] if candidate_col < len(row) else None
    number = type(value) in (int, float) or (type(value) is str and _NUMBER_TEXT.fullmatch(value.strip()))
    labels = [text for c, v in enumerate(row) if c != candidate_col and fold(text := header_text(v)) in TOTALS_LABELS]
    return (last, labels[0]) if number and labels else None
