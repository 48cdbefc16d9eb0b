"""An Excel Table (Insert > Table) as the column rules read it: when the header row is a Table's, its rows are the
data, with the rows typed right below it (a Table not stretched over rows added later); the rows past a blank row
after them, or another Table's, or those below its totals row (a second table, a glossary, notes) are left out.
Each is said in a note."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..core.errors import Part, Setting
from .layout import Layout
from .sheet import ExcelTable, Sheet

__all__ = ["rows_below_table", "totals_note", "totals_rows_of"]


def totals_rows_of(sheet: Sheet, columns: Iterable[int]) -> frozenset[int]:
    """The totals rows of the Excel Tables that hold any of ``columns`` (the candidates', the references', compare's
    B): a Table beside them, in other columns, ends with its totals row on a row that stays a pair. A sheet given
    without its Tables keeps every totals row."""
    if not sheet.tables:
        return sheet.totals_rows
    used = set(columns)
    return frozenset(
        r
        for r in sheet.totals_rows
        for table in sheet.tables
        if table.cells.bottom - table.totals < r <= table.cells.bottom
        and any(table.cells.left <= c <= table.cells.right for c in used)
    )


def totals_note(rows: Sequence[int]) -> str:
    """What a note says of the totals rows (0-based) left out."""
    listed = ", ".join(str(r + 1) for r in rows)
    if len(rows) == 1:
        return f"row {listed}, the totals row of an Excel table, is not a candidate"
    return f"rows {listed}, the totals rows of Excel tables, are not candidates"


def header_table(sheet: Sheet, layout: Layout) -> ExcelTable | None:
    """The Excel Table whose header row is the layout's and that holds the candidate column, if any."""
    for table in sheet.tables:
        cells = table.cells
        if cells.top == layout.header_row and cells.left <= layout.candidate_col <= cells.right:
            return table
    return None


def rows_below_table(
    sheet: Sheet, layout: Layout, totals_row: Callable[[frozenset[int]], int | None] = lambda _: None
) -> tuple[frozenset[int], list[tuple[Part, ...]]]:
    """The rows left out below the Excel Table whose header row is the layout's, and the notes: rows typed right
    below the Table are read as its own (each an added row the Table was not stretched over); past them (a blank
    row, another Table, or the Table's totals row) rows are no longer the Table's, and those that hold anything are
    named. ``totals_row`` gives the totals row typed by hand among the data rows, once these are left out: typed
    right below the Table, it is named as a totals row alone, not as a row added to the Table too."""
    table = header_table(sheet, layout)
    if table is None:
        return frozenset(), []
    left, right = table.cells.left, table.cells.right

    def filled(r: int) -> bool:
        return any(v is not None and v != "" for v in sheet.rows[r][left : right + 1])

    name = f"the Excel Table {table.name!r} ({table.cells})" if table.name else f"the Excel Table {table.cells}"
    notes: list[tuple[Part, ...]] = []
    end = table.cells.bottom + 1
    # Other Tables in the Table's columns (a glossary right below; not one beside it, in other columns).
    others = [t.cells for t in sheet.tables if t is not table and t.cells.left <= right and t.cells.right >= left]

    def added(r: int) -> bool:
        """A row typed right below the Table as one of its own: not another Table's, nor under the Table's totals
        row, which no row is added below."""
        in_other = any(cells.top <= r <= cells.bottom for cells in others)
        return filled(r) and not in_other and not table.totals

    past = end
    while past < len(sheet.rows) and added(past):
        past += 1
    below = range(past, len(sheet.rows))
    shown = past - 1 if past > end and totals_row(frozenset(below)) == past - 1 else past
    if shown > end:
        notes.append(
            (
                f"{_rows(end + 1, shown)}, right below {name}, {_are(end + 1, shown)} read as its rows: stretch the "
                "Table over them (Table Design > Resize Table)",
            )
        )
    named = [r for r in below if filled(r)]
    if named:
        notes.append(
            (
                f"{_rows(named[0] + 1, named[-1] + 1)}, below {name}, "
                f"{'is not one of its rows' if named[0] == named[-1] else 'are not its rows'}: left out (to score "
                "them alone, give ",
                Setting("header_row"),
                " with their header row)",
            )
        )
    return frozenset(below), notes


def _rows(first: int, last: int) -> str:
    """Rows as Excel numbers them, ``last`` included: ``row 5`` or ``rows 5 to 7``."""
    return f"row {first}" if first == last else f"rows {first} to {last}"


def _are(first: int, last: int) -> str:
    return "is" if first == last else "are"
