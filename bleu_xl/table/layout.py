"""Where a table's data is (:class:`Layout`: the header row, the candidate column, the references), and the headers
as the column rules compare them: folded, shortened for a message, a column given by header or by letter.

Messages name the settings to change as ``Setting`` values, which each face spells its
own way.
"""

from __future__ import annotations

import bisect
import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Part, Setting
from ..excel.cell_values import CellError, cell_text
from .sheet import EXCEL_MAX_ROWS, InputError, column_index, column_letter

__all__ = [
    "LISTED_HEADERS",
    "ColumnNotFound",
    "Layout",
    "MissingColumn",
    "NoColumnsFound",
    "another_sheet",
    "column_setting",
    "columns_named",
    "filled",
    "fold",
    "header_listing",
    "reference_shown",
    "resolve_column",
    "shortened",
]

LISTED_HEADERS = 12  # in a message: enough to see the columns, one line whatever the sheet


class NoColumnsFound(InputError):
    """A sheet with neither a candidate nor a reference header, nor a column given by name (a cover page such as
    the template's "Start here"): the one refusal after which another sheet may be read instead."""


def another_sheet(names: Sequence[str], read: str, hidden: frozenset[str], asked: str | None) -> tuple[Part, ...]:
    """The end of a refusal of the sheet ``read`` when no sheet was ``asked`` for and the workbook has another
    visible one, which may hold the table: how to read it instead; else nothing."""
    if asked is not None or not any(name != read and name not in hidden for name in names):
        return ()
    return ("; or, if the table is on another sheet, name that sheet with ", Setting("sheet"))


class MissingColumn(InputError):
    """A sheet with a candidate header and no reference (or the other way): on the first sheet read without one
    named, the table may be on another, which the message says how to read."""


class ColumnNotFound(InputError):
    """A column given by name (``candidate_col="Prompt A"``) that the sheet does not have: past the first
    sheet, the search for the sheet to read goes on to the next. ``close_match``: a header it was probably
    meant to be ("Candidate A" for "Candidat A"), or ``None``, and how close it is (0 to 1)."""

    def __init__(self, sheet: str, what: str, spec: str, headers: Sequence[str]) -> None:
        close = difflib.get_close_matches(spec, [h for h in headers if h], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        super().__init__(f"sheet {sheet!r}: no {what} column {spec!r}; headers found: {header_listing(headers)}{hint}")
        self.close_match = close[0] if close else None
        self.closeness = difflib.SequenceMatcher(None, spec, close[0]).ratio() if close else 0.0


def shortened(text: str, limit: int = 60) -> str:
    """A header as a message shows it: at most ``limit`` characters, an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def columns_named(headers: Sequence[str], columns: Iterable[int]) -> str:
    """Columns as a message names them, by letter and header: ``A 'Reference', C 'Reference (FR)'``."""
    return ", ".join(f"{column_letter(i)} {shortened(headers[i])!r}" for i in columns)


def filled(row: list[Any], col: int) -> bool:
    """Whether a row's cell in column ``col`` holds anything (not blank, nor spaces alone)."""
    return col < len(row) and cell_text(row[col]) is not None


def fold(text: str) -> str:
    """A header as the column rules compare it: trimmed, single spaces, accents removed, any case.

    ASCII text has no accents and is its own NFKD form: it skips the walk over each character, which made the
    search for a header row over hundreds of cover sheets slow (tests hold both ways equal)."""
    if text.isascii():
        return " ".join(text.casefold().split())
    return fold_literally(text)


def fold_literally(text: str) -> str:
    """:func:`fold`, one character at a time."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


@dataclass
class Layout:
    """Where the data is: the header row, the candidate column, and the reference columns or single text.

    ``header_row`` and the column numbers are 0-based (``None``: no header row); ``headers`` holds the header
    text of every column (``""`` for none). A single reference text for every candidate is either given
    (``reference_cell`` is ``None``) or read from a cell labelled Reference above the headers (``reference_cell``
    names it, ``B2``). ``shared_row`` (0-based) is the one data row whose reference cells hold text, when the
    reference was typed once for the candidates below it: that row's references serve every candidate.
    ``skipped`` holds the rows below the header row that are not data: a table's totals rows, and hidden rows
    when they are left out. ``merged`` holds, per reference column, the (top, bottom) rows of its merged cells
    below the headers: a merged reference is the reference of every row it spans (read with :meth:`cell`).
    ``filled`` holds the (top, bottom) rows whose references are filled down from the top one (the references
    of each row in it are the top row's, read with :meth:`cell` too). ``repeated`` holds the rows below that
    repeat the header row's texts in the columns used (a second table stacked below the first), or a banner's
    above it (``banners``: a row of names repeated on every printed page): left out too.
    """

    header_row: int | None
    candidate_col: int
    reference_cols: list[int] = field(default_factory=list)
    reference_text: str | None = None
    reference_cell: str | None = None
    headers: list[str] = field(default_factory=list)
    notes: list[tuple[Part, ...]] = field(default_factory=list)  # said besides the columns (a column left out)
    shared_row: int | None = None
    skipped: frozenset[int] = frozenset()
    merged: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # by top row
    filled: list[tuple[int, int]] = field(default_factory=list)  # (top, bottom) rows that take the top's references
    repeated: frozenset[int] = frozenset()  # rows that repeat the header row (tables stacked): in skipped too
    banners: tuple[int, ...] = ()  # rows of names above the header row, which ``repeated`` rows may repeat
    typed_totals: frozenset[int] = frozenset()  # a totals row typed by hand under the data: in skipped too

    @property
    def data_start(self) -> int:
        return 0 if self.header_row is None else self.header_row + 1

    def data_rows(self, count: int) -> Sequence[int]:
        """The 0-based rows that hold data in a sheet of ``count`` rows: below the header row, less ``skipped``."""
        rows = range(self.data_start, count)
        return [r for r in rows if r not in self.skipped] if self.skipped else rows

    def cell(self, rows: list[list[Any]], r: int, col: int) -> Any:
        """The value of a cell as the sheet shows it: in a reference column, a merged cell's value in every row it
        spans (the file holds it in the first row only), and the reference filled down into a row from above."""
        if self.filled and col in self.reference_cols:
            i = bisect.bisect_right(self.filled, (r, EXCEL_MAX_ROWS)) - 1
            if i >= 0 and self.filled[i][0] < r <= self.filled[i][1]:
                r = self.filled[i][0]
        spans = self.merged.get(col)
        if spans:
            i = bisect.bisect_right(spans, (r, EXCEL_MAX_ROWS)) - 1  # the last span that starts at or above r
            if i >= 0 and spans[i][0] < r <= spans[i][1]:
                r = spans[i][0]
        row = rows[r] if r < len(rows) else []
        return row[col] if col < len(row) else None

    def rows_with_references(self, rows: list[list[Any]], which: Sequence[int]) -> list[bool]:
        """For each row of ``which``, whether any of its reference cells holds anything as the sheet shows it
        (:meth:`cell`, read by ``cell_text``). Where no reference is merged or filled down, one loop reads the
        cells as they are, a few times cheaper a row than :meth:`rows_with_references_literally` (a property
        test holds the two equal)."""
        refs = self.reference_cols
        if self.filled or any(self.merged.get(c) for c in refs):
            return self.rows_with_references_literally(rows, which)
        found: list[bool] = []
        append = found.append
        count = len(rows)
        for r in which:
            row = rows[r] if r < count else ()
            width = len(row)
            for c in refs:
                if c < width:
                    value = row[c]
                    # A plain string holds something when it is not spaces alone (an error's text is not), as
                    # cell_text reads it; any other value is read by cell_text itself.
                    if value.strip() if type(value) is str else value is not None and cell_text(value) is not None:
                        append(True)
                        break
            else:
                append(False)
        return found

    def rows_with_references_literally(self, rows: list[list[Any]], which: Sequence[int]) -> list[bool]:
        """:meth:`rows_with_references`, each cell read through :meth:`cell` and ``cell_text``."""
        return [any(cell_text(self.cell(rows, r, c)) is not None for c in self.reference_cols) for r in which]

    def shared_cells(self) -> str:
        """The cells of the references every candidate shares (``B2``), when they are typed once."""
        return ", ".join(f"{column_letter(c)}{(self.shared_row or 0) + 1}" for c in self.reference_cols)

    @property
    def reference_source(self) -> str:
        """Where the references come from, for a summary: the reference headers, the labelled cell, or the text
        given."""
        if self.shared_row is not None:
            return self.shared_cells()
        if self.reference_cols:
            return ", ".join(self.headers[i] or column_letter(i) for i in self.reference_cols)
        return self.reference_cell or "the text given"

    def name(self, col: int) -> str:
        """A column as the messages show it: its letter and header, ``C "Candidate"``."""
        header = self.headers[col] if col < len(self.headers) else ""
        return f"{column_letter(col)} {shortened(header)!r}" if header else column_letter(col)

    def describe(self, compared: int | None = None) -> tuple[Part, ...]:
        """Which header row and columns are used, said on every run so that a wrong guess is visible. With
        ``compared`` (the column of candidates B in a comparison), the candidate column holds candidates A."""
        where = "no header row" if self.header_row is None else f"header row {self.header_row + 1}"
        refs: tuple[Part, ...]
        if self.reference_cell is not None:
            refs = (f"the cell {self.reference_cell} (labelled Reference above the headers)",)
        elif self.reference_text is not None:
            refs = ("the ", Setting("reference_text"), " text")
        elif self.shared_row is not None:
            only = "only filled cell" if len(self.reference_cols) == 1 else "only filled cells"
            columns = ", ".join(self.name(c) for c in self.reference_cols)
            refs = (f"{self.shared_cells()}, the {only} of {columns}, for every candidate",)
        else:
            refs = (", ".join(self.name(c) for c in self.reference_cols),)
        if compared is None:
            return (f"{where}; candidate {self.name(self.candidate_col)}; reference ", *refs)
        return (
            f"{where}; ",
            Setting("candidate_col"),
            f" {self.name(self.candidate_col)}, ",
            Setting("b_col"),
            f" {self.name(compared)}; reference ",
            *refs,
        )


#: The setting that gives each kind of column.
_SETTINGS = {"candidate": "candidate_col", "reference": "reference_cols", "candidate B": "b_col"}


def column_setting(what: str, col: int | None = None) -> Setting:
    """The setting that gives the ``what`` column, with the letter of ``col`` as the value to give it (in a tuple
    for the references, which may be several)."""
    if col is None:
        return Setting(_SETTINGS[what])
    letter = column_letter(col)
    return Setting(_SETTINGS[what], (letter,) if what == "reference" else letter)


def resolve_column(spec: str, headers: list[str], what: str, sheet: str, *, header_row: int | None) -> int:
    """A column given by header (any case and accents) or by letter; a header held twice is ambiguous."""
    if header_row is not None:
        matches = [i for i, h in enumerate(headers) if h and fold(h) == fold(spec)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            letters = ", ".join(column_letter(i) for i in matches)
            raise InputError(
                f"sheet {sheet!r}: {len(matches)} columns are headed {spec!r} ({letters}); "
                f"give the {what} column by letter, e.g. ",
                column_setting(what, matches[-1]),
            )
    index = column_index(spec)
    if index is not None:
        return index
    if header_row is None:
        raise InputError(f"sheet {sheet!r}: with no header row, give the {what} column by letter (not {spec!r})")
    raise ColumnNotFound(sheet, what, spec, headers)


def header_listing(headers: Sequence[str]) -> str:
    named = [f"{column_letter(i)} {shortened(h, 40)!r}" for i, h in enumerate(headers) if h]
    more = f" and {len(named) - LISTED_HEADERS:,} more" if len(named) > LISTED_HEADERS else ""
    return ", ".join(named[:LISTED_HEADERS]) + more if named else "(none)"


def reference_shown(layout: Layout, rows: list[list[Any]] | None) -> list[tuple[str, str]]:
    """How a summary names the references, as (label, text) pairs: the text, when one serves every candidate, and
    the cell it was read from, if any; else the columns that hold them. ``rows``: the sheet's (``None``: not at
    hand, the cells are named instead of read)."""
    if layout.reference_text is not None:
        where = [] if layout.reference_cell is None else [("Reference cell", layout.reference_cell)]
        return [("Reference", layout.reference_text), *where]
    if layout.shared_row is not None and rows is not None:
        texts = [cell_text(layout.cell(rows, layout.shared_row, c)) for c in layout.reference_cols]
        shown = "\n".join(t.text if isinstance(t, CellError) else t for t in texts if t is not None)
        cells = "Reference cells" if len(layout.reference_cols) > 1 else "Reference cell"
        return [("Reference", shown), (cells, layout.shared_cells())]
    return [("Reference", layout.reference_source)]
