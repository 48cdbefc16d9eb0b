"""An Excel Table (Insert > Table) as the column rules read it: when the header row is a Table's, its rows are the
data, and the rows below it, another table's or notes, are left out (each said in a note)."""

from __future__ import annotations

from ..core.errors import Part, Setting
from .layout import Layout
from .sheet import ExcelTable, Sheet

__all__ = ["rows_below_table"]


def header_table(sheet: Sheet, layout: Layout) -> ExcelTable | None:
    """The Excel Table whose header row is the layout's and that holds the candidate column, if any."""
    for table in sheet.tables:
        cells = table.cells
        if cells.top == layout.header_row and cells.left <= layout.candidate_col <= cells.right:
            return table
    return None


def rows_below_table(sheet: Sheet, layout: Layout) -> tuple[frozenset[int], list[tuple[Part, ...]]]:
    """The rows below the Excel Table whose header row is the layout's: not its rows (a second table, a glossary,
    notes), left out; and a note naming those that hold anything, with the setting that scores them alone."""
    table = header_table(sheet, layout)
    if table is None or table.cells.bottom + 1 >= len(sheet.rows):
        return frozenset(), []
    below = range(table.cells.bottom + 1, len(sheet.rows))
    filled = [r for r in below if any(v is not None and v != "" for v in sheet.rows[r])]
    if not filled:
        return frozenset(below), []
    first, last = filled[0] + 1, filled[-1] + 1
    rows = f"row {first}" if first == last else f"rows {first} to {last}"
    name = f"the Excel Table {table.name!r} ({table.cells})" if table.name else f"the Excel Table {table.cells}"
    note = (
        f"{rows}, below {name} whose header row this is, are not its rows: left out (to score them alone, give ",
        Setting("header_row", first),
        ")",
    )
    return frozenset(below), [note]
