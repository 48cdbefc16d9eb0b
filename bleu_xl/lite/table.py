"""A table on an Excel sheet as the xlwings Lite script reads it: the cells from A1, the part of them to score (the
whole sheet, the selected range or the Excel Table the selection is in, or the rows selected of it), the columns a
previous run wrote beside it, and a sheet that holds a run's results rather than a table.
The selection's address is read as Excel writes it (a sheet name quoted when it holds a space, a comma or an
apostrophe, whole columns and rows), or refused: never read as another part of the sheet.

The cells outside the part to score are read as blank, so that every row number and column letter the column
rules give (``B2``, ``row 8``) is the sheet's own. Standard library only (the Lite bundle embeds it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, CellRange, ExcelTable, InputError, Sheet, column_index

__all__ = [
    "SOURCE_LABEL",
    "SUMMARY_ROWS",
    "SUMMARY_TITLE",
    "WRITTEN",
    "Area",
    "ResultSheet",
    "TableArea",
    "area_of",
    "previous_runs",
    "result_sheet",
    "rows_chosen",
    "selected_area",
    "sheet_of",
]

#: The first cell of the summary a run writes beside its columns, and the label of the range it wrote: how a later
#: run knows which cells are its own (it clears them, and no other).
SUMMARY_TITLE = "bleu-xl summary"
WRITTEN = "Written"
#: The summary's label of the sheet the run scored, the first below its title.
SOURCE_LABEL = "Sheet"
#: The most rows of a summary below its title.
SUMMARY_ROWS = 11
#: An area as Excel writes it: a sheet first (``'Q1, 2024'!``, ``'Bob''s'!``, ``Sheet1!``, perhaps after its book
#: ``[Book1.xlsx]``), then cells (``$B$2:$D$9``), whole columns (``A:C``) or whole rows (``2:10``).
_AREA = re.compile(
    r"(?:(?:'(?P<quoted>(?:[^']|'')+)'|(?:\[[^\]]*\])?(?P<plain>[^'!,:\[\]\s]+))!)?"
    r"(?:\$?(?P<left>[A-Za-z]{1,3})\$?(?P<top>[0-9]{1,7})(?::\$?(?P<right>[A-Za-z]{1,3})\$?(?P<bottom>[0-9]{1,7}))?"
    r"|\$?(?P<first_column>[A-Za-z]{1,3}):\$?(?P<last_column>[A-Za-z]{1,3})"
    r"|\$?(?P<first_row>[0-9]{1,7}):\$?(?P<last_row>[0-9]{1,7}))"
)
_BOOK = re.compile(r"\[[^\]]*\]")


@dataclass(frozen=True)
class Area:
    """A rectangle of cells, 0-based and inclusive."""

    top: int
    left: int
    bottom: int
    right: int

    def cells_range(self) -> CellRange:
        """The same rectangle as the table layer names it."""
        return CellRange(self.top, self.left, self.bottom, self.right)

    @property
    def cells(self) -> int:
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)


@dataclass(frozen=True)
class TableArea:
    """Where an Excel Table lies on its sheet: all of it, and its totals row when it shows one (0-based); its name."""

    area: Area
    totals_row: int | None = None
    name: str = ""


def area_of(address: str) -> Area | None:
    """The rectangle of cells an address gives (``B2``, ``$B$2:$D$9``, ``Sheet1!A1:C3``); ``None`` for anything else
    (several areas, whole columns or rows)."""
    read = _read(address.strip())
    return read.area if read is not None and read.cells else None


class _Read(NamedTuple):
    """One area of an address: the sheet it names (``None``: none), its rectangle (whole columns and rows reach
    Excel's last row and column), and whether it is a rectangle of cells (not whole columns or rows)."""

    sheet: str | None
    area: Area
    cells: bool


def _read(address: str) -> _Read | None:
    """One area as Excel writes it; ``None`` for anything else."""
    found = _AREA.fullmatch(address)
    if found is None:
        return None
    sheet = found["plain"]
    if found["quoted"] is not None:
        sheet = _BOOK.sub("", found["quoted"].replace("''", "'"), count=1)
    if found["left"] is not None:
        left, right = column_index(found["left"]), column_index(found["right"] or found["left"])
        top, bottom = int(found["top"]) - 1, int(found["bottom"] or found["top"]) - 1
    elif found["first_column"] is not None:
        left, right = column_index(found["first_column"]), column_index(found["last_column"])
        top, bottom = 0, EXCEL_MAX_ROWS - 1
    else:
        left, right = 0, EXCEL_MAX_COLS - 1
        top, bottom = int(found["first_row"]) - 1, int(found["last_row"]) - 1
    if left is None or right is None or not (0 <= top < EXCEL_MAX_ROWS and 0 <= bottom < EXCEL_MAX_ROWS):
        return None
    area = Area(min(top, bottom), min(left, right), max(top, bottom), max(left, right))
    return _Read(sheet, area, found["left"] is not None)


def _areas(address: str) -> list[str]:
    """The areas of an address, split at the commas outside a quoted sheet name."""
    areas, start, quoted = [], 0, False
    for at, character in enumerate(address):
        if character == "'":
            quoted = not quoted
        elif character == "," and not quoted:
            areas.append(address[start:at])
            start = at + 1
    return [*areas, address[start:]]


def selected_area(address: str, sheet: str) -> Area:
    """The rectangle of a selection's address on the sheet ``sheet``, as Excel reports it (``B2:C9``,
    ``'Q1, 2024'!B2:C9``, ``'Bob''s'!A:C``, ``2:10``: whole columns and rows reach Excel's last row and column).
    :class:`InputError` for an address of several areas, on another sheet, or that cannot be read: the script
    says so rather than read something else."""
    areas = _areas(address.strip())
    reads = [read for read in map(_read, map(str.strip, areas)) if read is not None]
    if len(reads) < len(areas):
        raise InputError(
            f"the selection's address {address!r}, as Excel reported it, cannot be read as cells of the sheet "
            f"{sheet!r}; select the table's cells again (or one cell of it) and run the script again"
        )
    if len(reads) > 1:
        raise InputError(
            f"the selection {address!r} has {len(reads)} areas; select one range of the table (or one cell of it) "
            "and run the script again"
        )
    read = reads[0]
    if read.sheet is not None and read.sheet.casefold() != sheet.casefold():
        raise InputError(
            f"the selection {address!r} is on the sheet {read.sheet!r}, not on the sheet {sheet!r} the script "
            "reads; select a cell of the table there and run the script again"
        )
    return read.area


def rows_chosen(selection: Area | None, data_rows: Sequence[int]) -> range | None:
    """The rows a selection of several cells picks among the table's ``data_rows`` (whole columns and rows reach
    Excel's last: down to the table's last); ``None`` for one cell, or a selection that holds every data row."""
    if selection is None or selection.cells == 1 or not data_rows:
        return None
    held = [r for r in data_rows if selection.top <= r <= selection.bottom]
    if not held:
        raise InputError(
            f"the rows selected ({selection.top + 1} to {selection.bottom + 1}) hold no row of the table "
            f"(rows {data_rows[0] + 1} to {data_rows[-1] + 1}); select a cell of the table, or rows of it, and run "
            "the script again"
        )
    if len(held) == len(data_rows):
        return None
    return range(held[0], held[-1] + 1)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _summaries(grid: list[list[Any]], rows: Sequence[int]) -> Iterator[tuple[int, int, Area]]:
    """The summaries whose title stands on one of ``rows``: the title's row and column, and the range recorded under
    :data:`WRITTEN` below it (the first such label within :data:`SUMMARY_ROWS` rows)."""
    for row in rows:
        cells = grid[row] if 0 <= row < len(grid) else []
        for title in (c for c, value in enumerate(cells) if value == SUMMARY_TITLE):
            for r in range(row + 1, min(len(grid), row + SUMMARY_ROWS + 1)):
                below = grid[r]
                if title + 1 < len(below) and below[title] == WRITTEN:
                    written = area_of(below[title + 1]) if isinstance(below[title + 1], str) else None
                    if written is not None:
                        yield row, title, written
                    break


def previous_runs(grid: list[list[Any]]) -> dict[int, Area]:
    """Where earlier runs wrote beside tables, by the header row of each: the range a summary records under
    :data:`WRITTEN`, when the summary's title stands on the range's first row, right of its result columns, and the
    range ends at the summary's values. Empty when there is no such summary: every cell is the user's."""
    return {
        row: written
        for row, title, written in _summaries(grid, range(len(grid)))
        if (written.top, written.right) == (row, title + 1) and written.left < title - 1
    }


@dataclass(frozen=True)
class ResultSheet:
    """A sheet that holds what a run wrote on a sheet of its own (a copy of the table from column A, the scores, the
    summary): never a table to score. ``source`` is the sheet the run scored, as its summary names it."""

    source: str | None


def result_sheet(grid: list[list[Any]]) -> ResultSheet | None:
    """The sheet's results, when it holds a summary whose written range starts in column A and ends at the summary's
    values (a run beside a table writes right of the table's columns); ``None`` for any other sheet."""
    for row, title, written in _summaries(grid, range(len(grid))):
        if written.left == 0 and written.right == title + 1:
            facts = (grid[r][title : title + 2] for r in range(row + 1, min(len(grid), row + SUMMARY_ROWS + 1)))
            source = next((fact[1] for fact in facts if len(fact) == 2 and fact[0] == SOURCE_LABEL), None)
            return ResultSheet(source if isinstance(source, str) and source else None)
    return None


def sheet_of(
    name: str,
    grid: list[list[Any]],
    area: Area | None,
    tables: Sequence[TableArea],
    ours: Sequence[Area],
) -> Sheet:
    """The table layer's sheet of the cells from A1: blank outside ``area`` (``None``: the whole sheet) and inside
    ``ours`` (what earlier runs wrote: their headers, ``r`` and ``c``, are never the user's columns), no empty row
    below the last one that holds anything, and the Excel Tables with their totals rows."""
    rows: list[list[Any]] = []
    for r, row in enumerate(grid):
        if area is not None and not area.top <= r <= area.bottom:
            rows.append([])
            continue
        kept = list(row)
        if area is not None:
            kept = [None] * area.left + kept[area.left : area.right + 1]
        for run in ours:
            if run.top <= r <= run.bottom:
                kept = kept[: run.left] + [None] * (min(len(kept), run.right + 1) - run.left) + kept[run.right + 1 :]
        rows.append(kept)
    while rows and all(_blank(value) for value in rows[-1]):  # as a reader gives a sheet: no empty rows below
        rows.pop()
    totals = frozenset(table.totals_row for table in tables if table.totals_row is not None)
    kept = tuple(
        ExcelTable(table.name, table.area.cells_range(), int(table.totals_row is not None)) for table in tables
    )
    return Sheet(name, rows, [name], totals_rows=totals, tables=kept)
