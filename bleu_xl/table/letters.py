"""Columns given by letter, or by a header that reads as one: which a letter-like column (``B``, ``mt``, ``ID``)
means, and the note that says so when both could be meant.

A letter names the column of its header only where a row holds it as a header before any row of several texts
has text over the letter's own column, and not where its column holds it again below (the arm of an A/B test is
data). The header search reads the first :data:`HEADER_SEARCH_ROWS` rows from the first one with text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import Part, Setting
from .header_rows import CANDIDATE_NAMES, REFERENCE_NAMES, header_text, known_name
from .layout import Layout, fold
from .sheet import InputError, Sheet, column_index, column_letter

__all__ = [
    "HEADER_SEARCH_ROWS",
    "holds_header",
    "letter_read_as_name",
    "letters_meant",
    "refuse_letter_of_another_column",
    "search_rows",
]

HEADER_SEARCH_ROWS = 50


def holds_header(row: list[str], spec: str) -> bool:
    """Whether a row holds the header a column was given by (compared folded)."""
    return any(fold(t) == fold(spec) for t in row if t)


def search_rows(sheet: Sheet) -> tuple[int, list[list[str]]]:
    """Where the header search starts, and the texts of the rows it looks at: the first 50 rows from the first one
    with text (blank rows above a table do not use up the search)."""
    start = next((r for r, row in enumerate(sheet.rows) if any(header_text(v) for v in row)), 0)
    return start, [[header_text(v) for v in row] for row in sheet.rows[start : start + HEADER_SEARCH_ROWS]]


def letters_meant(texts: list[list[str]], given: Sequence[str | None]) -> set[str]:
    """The columns given that are letters, not the names of headers: a letter-like name ("mt", "ID") counts as a
    name where a row holds it as a header (:func:`_named_by_a_header`)."""
    return {spec for spec in given if spec and column_index(spec) is not None and not _named_by_a_header(texts, spec)}


def _named_by_a_header(texts: list[list[str]], spec: str) -> bool:
    """Whether a letter-like column (``B``, ``mt``, ``ID``) is given by the name of a header: a row holds it as text
    before any row of several texts has one over the letter's own column. Such a row reads as the headers (or the
    data) of the columns by letter, so a ``B`` further down is data, never the header of another column; and so is
    a ``B`` that its column holds again below (an A/B test's arm: a header is not repeated in its data)."""
    column = column_index(spec)
    for i, row in enumerate(texts):
        held = [c for c, text in enumerate(row) if text and fold(text) == fold(spec)]
        if held and not all(_repeated_below(texts[i + 1 :], c, row) for c in held):
            return True
        if column is not None and column < len(row) and row[column] and sum(1 for t in row if t) >= 2:
            return False
    return False


def _repeated_below(rows: list[list[str]], column: int, holding: list[str]) -> bool:
    """Whether a row below holds ``holding``'s text of ``column`` again, in a row that does not repeat most of
    ``holding``'s texts in their columns (the header row of a second table stacked below repeats its headers, with
    a column added or one renamed, ``Reference (FR)``: they stay headers; an A/B test's arm repeats only itself)."""
    text = fold(holding[column])
    texts = [(c, fold(t)) for c, t in enumerate(holding) if t]
    return any(
        column < len(row)
        and fold(row[column]) == text
        and 2 * sum(1 for c, t in texts if c < len(row) and fold(row[c]) == t) <= len(texts)
        for row in rows
    )


def letter_read_as_name(layout: Layout, given: Sequence[tuple[str, str | None, int]]) -> list[tuple[Part, ...]]:
    """A note for each column given by a letter-like header (``--candidate-col B`` over a column headed ``B`` in
    column C) when the column of that letter has a header too: which of the two was taken, and how to say the
    other, since a reader of the command could mean either. (The caller asks only when no header of the row is a
    known candidate or reference name: ``Reference, A, B`` is a header row, and its ``A`` a header.)"""
    notes: list[tuple[Part, ...]] = []
    for setting, spec, col in given:
        letter = column_index(spec) if spec else None
        if letter is None or letter == col or letter >= len(layout.headers) or not layout.headers[letter]:
            continue
        row = (layout.header_row or 0) + 1
        notes.append(
            (
                Setting(setting, spec),
                f" is the column headed {spec!r} ({column_letter(col)}), not column {column_letter(letter)} "
                f"({layout.headers[letter]!r}): to score column {column_letter(letter)}, give its header, or, if row "
                f"{row} is data, ",
                Setting("no_header"),
            )
        )
    return notes


def refuse_letter_of_another_column(
    headers: list[str], candidate_col: str | None, reference_cols: Sequence[str]
) -> None:
    """Refuse a column given by a letter whose own column's header names that role while another column is headed
    by the letter (``--candidate-col C`` over ``Candidate B`` in C, where a scored workbook also has a detail column
    headed ``c``; ``--reference-col B`` over ``Reference`` in B beside an A/B test's arm headed ``B``): either
    could be meant, and reading one silently scored the other's numbers or the wrong arm. The message names the
    setting for each. A letter whose column names no such role (``--candidate-col A`` over ``Source``) is the
    header it reads as, as before."""
    given = [("candidate_col", candidate_col, CANDIDATE_NAMES)]
    given += [("reference_cols", spec, REFERENCE_NAMES) for spec in reference_cols]
    for setting, spec, names in given:
        letter = column_index(spec) if spec else None
        if spec is None or letter is None or letter >= len(headers) or not known_name(headers[letter], names):
            continue
        other = next((c for c, h in enumerate(headers) if c != letter and h and fold(h) == fold(spec)), None)
        if other is None:
            continue
        raise InputError(
            Setting(setting, spec),
            f" could be column {column_letter(letter)} ({headers[letter]!r}) or the column headed "
            f"{headers[other]!r} ({column_letter(other)}); give ",
            Setting(setting, headers[letter]),
            f" for column {column_letter(letter)}, or ",
            Setting(setting, column_letter(other)),
            " for the other",
        )
