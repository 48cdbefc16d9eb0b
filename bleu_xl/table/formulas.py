"""Formulas whose saved values no reader can use, as the column rules check a column read: saved without values
(openpyxl's), or with 0 in a workbook marked to be calculated again on opening (XlsxWriter's). Both read blank;
a column scored that holds them in its data rows is refused, since its scores would be wrong."""

from __future__ import annotations

from ..excel.cell_values import cell_text
from .header_rows import header_text, totals_label
from .layout import Layout
from .sheet import STALE_FORMULAS, InputError, Sheet

__all__ = ["check_cached"]


def check_cached(sheet: Sheet, layout: Layout, col: int, what: str) -> None:
    """Refuse the ``what`` column ``col`` when a data row's cell there is such a formula. A row left out (a totals
    row's SUBTOTAL) is no matter."""
    start, skipped = layout.data_start, layout.skipped
    stale = next(
        (r for r in sheet.stale_cells.get(col, ()) if r >= start and r not in skipped and not _totals_row(sheet, r)),
        None,
    )
    uncached = _first_uncached(sheet, layout, col)
    if stale is None and uncached is None:
        return
    if uncached is None or (stale is not None and stale < uncached):
        saved, row = STALE_FORMULAS, stale
    else:
        saved, row = "formulas saved without their values (openpyxl saves formulas so)", uncached
    assert row is not None
    raise InputError(
        f"sheet {sheet.name!r}: the {what} column {layout.name(col)} holds {saved}, the first in row {row + 1}, "
        "which no reader calculates; open the file in Excel, save it, and score it again"
    )


def _first_uncached(sheet: Sheet, layout: Layout, col: int) -> int | None:
    """The first data row whose cell in ``col`` is blank and a formula saved without its value (past the cells the
    scan keeps, any blank cell may be one)."""
    if not sheet.uncached_count:
        return None
    kept_all = len(sheet.uncached) == sheet.uncached_count
    last = max([len(sheet.rows) - 1, *(r for r, c in sheet.uncached if c == col)])  # the reader drops such rows
    for r in range(layout.data_start, last + 1):
        if r in layout.skipped or _totals_row(sheet, r):
            continue
        row = sheet.rows[r] if r < len(sheet.rows) else []
        if (col >= len(row) or cell_text(row[col]) is None) and (not kept_all or (r, col) in sheet.uncached):
            return r
    return None


def _totals_row(sheet: Sheet, r: int) -> bool:
    """Whether row ``r`` is the sheet's last and labelled as a totals row typed by hand (``Total``): its count, a
    formula saved without its value, reads blank, and the row is then no candidate to refuse. A ``Total`` further
    up is a term like any other (a glossary's)."""
    if r != len(sheet.rows) - 1:
        return False
    return any(totals_label(text) for text in map(header_text, sheet.rows[r]) if text)
