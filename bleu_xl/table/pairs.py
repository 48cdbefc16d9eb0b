"""A table's data rows as pairs of references and candidate, with the cell semantics of the Excel functions.

:func:`pairs_of_literally` reads each row through the Excel layer's ``cell_text`` and ``reference_set``;
:func:`pairs_of` gives the same pairs with a fast path for the common table (one reference column, cells of plain
text), a few times cheaper a row (benchmarks/bench_fast_paths.py), held equal by a property test.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import Setting
from ..core.tokenizer import tokenize
from ..excel.cell_values import ERROR_TEXTS, cell_text
from ..excel.cells import Pair, reference_set
from .layout import Layout
from .sheet import InputError, Sheet, column_letter

__all__ = ["MAX_SCORED_TEXT", "pairs_of", "pairs_of_literally", "shares_no_word"]

#: The longest text a cell may hold to be scored: a million characters, 30 times what an Excel cell holds. Scoring
#: a pair takes memory in proportion to its length (about 200 MB for a million characters on each side under
#: BLEU-9 and chrF++, measured: benchmarks/README.md); past it a cell is refused, so that scoring stays within
#: the memory reading was given.
MAX_SCORED_TEXT = 1_000_000


def pairs_of(sheet: Sheet, layout: Layout, candidate_col: int | None = None) -> list[Pair]:
    """A :class:`Pair` per data row, with the cell semantics of the Excel functions (the candidates of
    ``candidate_col``, by default the layout's): :func:`pairs_of_literally`'s pairs, by a fast path for a table of
    one reference column read cell by cell."""
    col = layout.candidate_col if candidate_col is None else candidate_col
    plain = layout.reference_text is None and layout.shared_row is None and not layout.merged and not layout.filled
    if not plain or len(layout.reference_cols) != 1:
        return pairs_of_literally(sheet, layout, candidate_col)
    rows = sheet.rows
    (ref,) = layout.reference_cols
    width = max(col, ref) + 1
    limit = MAX_SCORED_TEXT
    pairs = []
    append = pairs.append
    new = tuple.__new__  # Pair(references, candidate) without the Python frame of a named tuple's __new__
    for r in layout.data_rows(len(rows)):
        row = rows[r]
        # Both cells plain text, neither blank, an error's text nor too long: what cell_text gives back as it is.
        if len(row) >= width:
            cand, text = row[col], row[ref]
            if (
                type(cand) is str
                and type(text) is str
                and len(cand) <= limit
                and len(text) <= limit
                and cand
                and text
                and not cand.isspace()
                and not text.isspace()
                and cand not in ERROR_TEXTS
                and text not in ERROR_TEXTS
            ):
                append(new(Pair, ((text,), cand)))
                continue
        append(_row_pair(rows, r, layout, col, None))
    return pairs


def pairs_of_literally(sheet: Sheet, layout: Layout, candidate_col: int | None = None) -> list[Pair]:
    """A :class:`Pair` per data row, each cell read through ``cell_text`` (the obvious version of
    :func:`pairs_of`)."""
    col = layout.candidate_col if candidate_col is None else candidate_col
    rows = sheet.rows
    fixed: Any = None
    if layout.reference_text is not None:
        fixed = reference_set([layout.reference_text])
        _check_length(layout.reference_text, Setting("reference_text"))
    elif layout.shared_row is not None:
        fixed = reference_set([_cell(rows[layout.shared_row], i) for i in layout.reference_cols])
    pairs = [_row_pair(rows, r, layout, col, fixed) for r in layout.data_rows(len(rows))]
    if type(fixed) is tuple and layout.shared_row is not None:
        for i in layout.reference_cols:
            _check_length(cell_text(_cell(rows[layout.shared_row], i)), f"{column_letter(i)}{layout.shared_row + 1}")
    return pairs


def _row_pair(rows: list[list[Any]], r: int, layout: Layout, col: int, fixed: Any) -> Pair:
    """The pair of row ``r``: ``fixed`` is the reference set every row shares, when one does."""
    row = rows[r]
    cand = cell_text(row[col]) if col < len(row) else None
    if type(cand) is str and len(cand) > MAX_SCORED_TEXT:
        _check_length(cand, f"{column_letter(col)}{r + 1}")
    if layout.reference_text is not None or layout.shared_row is not None:
        refs = fixed
    elif layout.merged or layout.filled:
        refs = reference_set([layout.cell(rows, r, i) for i in layout.reference_cols])
    else:
        refs = reference_set([row[i] if i < len(row) else None for i in layout.reference_cols])
    if type(refs) is tuple and refs is not fixed and max(map(len, refs)) > MAX_SCORED_TEXT:
        for i in layout.reference_cols:
            _check_length(cell_text(layout.cell(rows, r, i)), f"{column_letter(i)}{r + 1}")
    return Pair(refs, cand)


def _check_length(text: Any, where: str | Setting) -> None:
    """Refuse a text longer than :data:`MAX_SCORED_TEXT`, naming its cell (or the setting that gave it)."""
    if type(text) is not str or len(text) <= MAX_SCORED_TEXT:
        return
    parts = (f"cell {where}", " holds") if isinstance(where, str) else (where, " holds")
    raise InputError(
        *parts,
        f" {len(text):,} characters: bleu-xl scores a text of at most {MAX_SCORED_TEXT:,} (an Excel cell holds "
        "32,767); split it, or score it in parts",
    )


def _cell(row: list[Any], col: int) -> Any:
    return row[col] if col < len(row) else None


def shares_no_word(pairs: list[Pair]) -> bool:
    """Whether no candidate shares a word with its references, over two pairs or more that can be scored: the mark
    of a reference read from the wrong cell or column (a document number labelled Reference above the table). Stops
    at the first candidate that shares one, which in a table of copy is the first."""
    scorable = 0
    for refs, cand in pairs:
        if type(cand) is not str or type(refs) is not tuple:
            continue
        words = set(tokenize(cand))
        if not words:
            continue
        if any(words.intersection(tokenize(ref)) for ref in refs):
            return False
        scorable += 1
    return scorable > 1


#: LibreOffice's text for a formula's error (``Err:502``, ``Err:509``...), as a CSV it exports holds it.
_LIBREOFFICE_ERROR = re.compile(r"Err:\d{3}")


def libreoffice_errors(pairs: list[Pair]) -> list[int]:
    """The pairs whose candidate or a reference is LibreOffice's text for a formula's error (``Err:509``, where Excel
    would export ``#VALUE!``): read from a text file, it is scored as the text it is, where the cell held an
    error."""
    found = []
    for i, (refs, cand) in enumerate(pairs):
        if type(cand) is str and cand[:4] == "Err:" and _LIBREOFFICE_ERROR.fullmatch(cand.strip()):
            found.append(i)
        elif type(refs) is tuple:
            for ref in refs:
                if ref[:4] == "Err:" and _LIBREOFFICE_ERROR.fullmatch(ref.strip()):
                    found.append(i)
                    break
    return found
