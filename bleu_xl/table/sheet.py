"""A table in memory (one sheet or CSV file as rows of values), its columns by letter, and how to read it.

What the files layer reads becomes a :class:`Sheet`; the column rules, the scoring and the comparison of a table
work on it without knowing where it came from.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..core.errors import BleuTypeError, BleuXlError, Part, Setting
from ..core.metrics.base import as_switch

__all__ = [
    "EXCEL_MAX_COLS",
    "GENERAL",
    "CellFormats",
    "CellRange",
    "ExcelTable",
    "InputError",
    "Sheet",
    "TableOptions",
    "check_column_given",
    "check_switch",
    "column_index",
    "column_letter",
]

EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLS = 16_384


class InputError(BleuXlError):
    """A problem with the user's table, file or output path: one line for the user (exit code 2 on the command
    line)."""


class CellRange(NamedTuple):
    """A rectangle of cells, 0-based and inclusive (``A2:A4`` is rows 1 to 3 of column 0): a merged range."""

    top: int
    left: int
    bottom: int
    right: int

    def __str__(self) -> str:
        first, last = f"{column_letter(self.left)}{self.top + 1}", f"{column_letter(self.right)}{self.bottom + 1}"
        return first if first == last else f"{first}:{last}"


class ExcelTable(NamedTuple):
    """An Excel Table of a sheet (Insert > Table): its name, its cells (header row and totals row included) and
    how many totals rows it shows at their foot (Excel shows one or none)."""

    name: str
    cells: CellRange
    totals: int = 0


#: The General number format (a built-in format's id).
GENERAL = 0


@dataclass
class CellFormats:
    """The number formats of a sheet's number and date cells, as runs down each column.

    ``codes`` are the formats met: a built-in format's id (``14``) or a custom format's code (``"dd/mm/yyyy"``),
    General first. ``runs[col]`` holds two arrays: the rows (0-based) where a run starts, and each run's index in
    ``codes``; a run gives its format to the number cells from its row down to the next run's (the text between
    them has none to take). So a column of one format costs one run however many rows it has, and no column costs
    more than a run for each of its number cells.
    """

    codes: list[int | str] = field(default_factory=lambda: [GENERAL])
    runs: dict[int, tuple[array, array]] = field(default_factory=dict)  # of unsigned longs

    def at(self, row: int, col: int) -> int | str:
        """The number format of the number cell at (``row``, ``col``); General where none was given."""
        found = self.runs.get(col)
        if found is None:
            return GENERAL
        starts, formats = found
        i = bisect.bisect_right(starts, row) - 1
        return self.codes[formats[i]] if i >= 0 else GENERAL

    def used(self, col: int) -> set[int | str]:
        """The formats other than General that number cells of ``col`` have."""
        found = self.runs.get(col)
        return set() if found is None else {self.codes[k] for k in found[1]} - {GENERAL}


#: What the formulas saved with 0 in a workbook marked to be calculated again on opening (fullCalcOnLoad) are.
STALE_FORMULAS = (
    "formulas saved with 0 as their value in a workbook marked to be calculated again on opening (XlsxWriter "
    "saves every formula so)"
)


@dataclass
class Sheet:
    """The cells of one sheet (or CSV file) as rows of values; blanks are ``""`` or ``None``.

    Error cells (``#N/A``) are the Excel layer's ``CellError`` values. ``hidden_columns``,
    ``hidden_rows`` and ``totals_rows`` are 0-based; ``uncached`` holds the (row, column) of formulas saved
    without a value (openpyxl saves them so: every reader sees them blank), and ``uncached_count`` how many
    there are (past a bound only the count is kept). ``merged`` holds the sheet's merged ranges, whose value is
    in their top-left cell (the others read blank). Without a sheet named, a workbook is read from its first
    visible sheet.
    """

    name: str
    rows: list[list[Any]]
    sheet_names: list[str]
    hidden_columns: frozenset[int] = frozenset()
    hidden_rows: frozenset[int] = frozenset()  # 0-based: rows hidden by hand or filtered out
    totals_rows: frozenset[int] = frozenset()  # 0-based: the totals rows of the sheet's Excel Tables
    hidden_sheets: frozenset[str] = frozenset()  # hidden and "very hidden" ones: never read unless named
    uncached: frozenset[tuple[int, int]] = frozenset()
    uncached_count: int = 0
    # Formulas saved with 0 in a workbook marked to be calculated again on opening (XlsxWriter's), read blank: by
    # column, their rows in order.
    stale_cells: Mapping[int, Sequence[int]] = field(default_factory=dict)
    encoding: str | None = None  # a text file's encoding and delimiter; None for a workbook
    delimiter: str | None = None
    cell_formats: CellFormats = field(default_factory=CellFormats)  # a workbook's; a text file has none
    merged: tuple[CellRange, ...] = ()
    tables: tuple[ExcelTable, ...] = ()  # a workbook's Excel Tables (Insert > Table): their names and cells
    notes: list[tuple[Part, ...]] = field(default_factory=list)  # what reading it found to say (a long cell)
    column_widths: tuple[tuple[int, int, float], ...] = ()  # a workbook's: first, last column (0-based), width

    def column_width(self, col: int) -> float | None:
        """The width the workbook gives column ``col`` (0-based), as Excel writes it; ``None`` where it gives none
        (a text file gives none). The last of several specs that cover a column wins, as in Excel."""
        found = None
        for first, last, width in self.column_widths:
            if first <= col <= last:
                found = width
        return found

    @property
    def is_text(self) -> bool:
        """True for a CSV or TSV file (or standard input), which has one sheet only."""
        return self.encoding is not None

    @property
    def workbook_sheet(self) -> str | None:
        """The name of the sheet in its workbook, for a summary; ``None`` for a text file, which has no sheet (its
        ``name`` is the file's)."""
        return None if self.is_text else self.name


@dataclass(frozen=True)
class TableOptions:
    """How to read a table and find its columns: every choice a user can make, in one object.

    ``sheet``, ``encoding`` and ``delimiter`` say how to read the file; ``header_row`` (1-based, as Excel numbers
    rows) or ``no_header``, and the columns (a letter or a header) or one ``reference_text`` for every candidate,
    say where the data is; ``skip_hidden`` leaves out the rows hidden by hand or by a filter; ``fill_down`` gives a
    row whose references are all blank those of the nearest row above that has some. Whatever is left out
    is found by the column rules.
    """

    sheet: str | None = None
    encoding: str | None = None
    delimiter: str | None = None
    header_row: int | None = None
    no_header: bool = False
    reference_cols: Sequence[str] = ()
    candidate_col: str | None = None
    reference_text: str | None = None
    skip_hidden: bool = False
    fill_down: bool = False

    def __post_init__(self) -> None:
        for name in ("no_header", "skip_hidden", "fill_down"):
            check_switch(getattr(self, name), name)
        for name in ("sheet", "encoding", "delimiter", "reference_text"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise BleuTypeError(f"{name} must be a string or None, not {type(value).__name__} ({value!r})")
        if isinstance(self.reference_cols, (str, bytes)):  # a string is a sequence of letters: never what was meant
            raise BleuTypeError("reference_cols must be a sequence of column names, not one string (wrap it in a list)")
        check_column_given(self.candidate_col, "candidate_col")
        for spec in self.reference_cols:
            check_column_given(spec, "reference_cols", required=True)
        header_row = self.header_row
        if header_row is not None and (
            isinstance(header_row, bool) or not isinstance(header_row, int) or header_row < 1
        ):
            raise InputError(Setting("header_row"), f" {header_row!r}: give the row's number, 1 for the first")
        if header_row is not None and self.no_header:
            raise InputError("give either ", Setting("header_row"), " or ", Setting("no_header"), ", not both")
        if self.no_header:
            self._check_columns_by_letter()

    def _check_columns_by_letter(self) -> None:
        """With no header row there is no header to find a column by: the columns not given are refused before
        anything is read, and the message says how to give them (by letter, B and A for the example unless a
        reference column given is B)."""
        taken = {spec.strip().upper() for spec in self.reference_cols}
        letter = next(letter for letter in "BCD" if letter not in taken)
        candidate = () if self.candidate_col else (Setting("candidate_col", letter),)
        given_reference = self.reference_cols or self.reference_text is not None
        reference = () if given_reference else (Setting("reference_cols", ("A",)),)
        if not candidate and not reference:
            return
        if candidate and reference:
            what: tuple[Part, ...] = ("the columns by letter (", *candidate, " and ", *reference, ")")
        elif candidate:
            what = ("the candidate column by letter (", *candidate, ")")
        else:
            what = ("the reference column by letter (", *reference, "), or its text (", Setting("reference_text"), ")")
        raise InputError("with ", Setting("no_header", True), " every row is data: give ", *what)


def check_switch(value: object, setting: str) -> None:
    """Refuse an on/off setting given as anything but ``True`` or ``False``: read by its truth, ``"no"`` or
    ``"false"`` would turn it on."""
    # numpy's True is taken as True (as_switch, the metrics' own test); a number (1, numpy's 1) or a text is refused.
    if not isinstance(as_switch(value), bool):
        raise InputError(Setting(setting), f" must be True or False, not {value!r}")


def check_column_given(spec: str | None, setting: str, *, required: bool = False) -> None:
    """Refuse a column given as blank text (``--candidate-col ''``): it names no column, and read as not given it
    would let the column rules choose one the user meant to choose. ``None`` is not given, and left to them, unless
    the column is ``required`` (compare's B, an entry of the reference columns). A column given as a number (``2``
    for B) is a ``TypeError`` that says so, rather than one from deep in the column rules."""
    if (spec is not None or required) and not isinstance(spec, str):
        raise BleuTypeError(
            f"{setting} must be a column's letter or header as text ({setting}='B'), not {type(spec).__name__} {spec!r}"
        )
    if isinstance(spec, str) and not spec.strip():
        raise InputError(Setting(setting), f" {spec!r} names no column: give the column's letter or its header")


def column_letter(index: int) -> str:
    """The letters of a 0-based column index: 0 -> ``A``, 27 -> ``AB``."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int | None:
    """0-based index of a column letter such as ``B`` or ``AA``; ``None`` when it is not a column letter."""
    if not re.fullmatch(r"[A-Za-z]{1,3}", letters):
        return None
    index = 0
    for ch in letters.upper():
        index = index * 26 + ord(ch) - 64
    return index - 1 if index <= EXCEL_MAX_COLS else None
