"""A table on an Excel sheet as the xlwings Lite script reads it: the cells from A1, the part of them to score (the
whole sheet, the selected range or the Excel Table the selection is in), and the columns a previous run wrote.

The cells outside the part to score are read as blank, so that every row number and column letter the column
rules give (``B2``, ``row 8``) is the sheet's own. Standard library only (the Lite bundle embeds it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..table.sheet import Sheet, column_index

__all__ = ["SUMMARY_ROWS", "SUMMARY_TITLE", "WRITTEN", "Area", "TableArea", "area_of", "previous_run", "sheet_of"]

#: The first cell of the summary a run writes beside its columns, and the label of the range it wrote: how a later
#: run knows which cells are its own (it clears them, and no other).
SUMMARY_TITLE = "bleu-xl summary"
WRITTEN = "Written"
#: The rows of the summary below its title.
SUMMARY_ROWS = 10
_ADDRESS = re.compile(r"^(?:.*!)?\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$")


@dataclass(frozen=True)
class Area:
    """A rectangle of cells, 0-based and inclusive."""

    top: int
    left: int
    bottom: int
    right: int

    @property
    def cells(self) -> int:
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)


@dataclass(frozen=True)
class TableArea:
    """Where an Excel Table lies on its sheet: all of it, and its totals row when it shows one (0-based)."""

    area: Area
    totals_row: int | None = None


def area_of(address: str) -> Area | None:
    """The rectangle an address gives (``B2``, ``$B$2:$D$9``, ``Sheet1!A1:C3``); ``None`` for anything else (a
    selection of several areas, whole columns)."""
    found = _ADDRESS.match(address.strip())
    if found is None:
        return None
    left, top = column_index(found.group(1)), int(found.group(2)) - 1
    right = column_index(found.group(3)) if found.group(3) else left
    bottom = int(found.group(4)) - 1 if found.group(4) else top
    if left is None or right is None or top < 0 or bottom < 0:
        return None
    return Area(min(top, bottom), min(left, right), max(top, bottom), max(left, right))


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def previous_run(grid: list[list[Any]], header_row: int) -> Area | None:
    """Where an earlier run wrote beside the table on ``header_row``: the range its summary records under
    :data:`WRITTEN`, when the summary's title stands on that row right of the range's result columns and the range
    ends at the summary's values. ``None`` when there is no such summary: every cell is the user's."""
    row = grid[header_row] if header_row < len(grid) else []
    for title in (c for c, value in enumerate(row) if value == SUMMARY_TITLE):
        for r in range(header_row + 1, min(len(grid), header_row + SUMMARY_ROWS + 1)):
            cells = grid[r]
            if title + 1 < len(cells) and cells[title] == WRITTEN and isinstance(cells[title + 1], str):
                written = area_of(cells[title + 1])
                if (
                    written is not None
                    and (written.top, written.right) == (header_row, title + 1)
                    and (written.left < title - 1)
                ):
                    return written
    return None


def sheet_of(
    name: str,
    grid: list[list[Any]],
    area: Area | None,
    tables: Sequence[TableArea],
    ours: Area | None,
) -> Sheet:
    """The table layer's sheet of the cells from A1: blank outside ``area`` (``None``: the whole sheet) and inside
    ``ours`` (what an earlier run wrote), no empty row below the last one that holds anything, and the totals rows of
    the Excel Tables."""
    rows: list[list[Any]] = []
    for r, row in enumerate(grid):
        if area is not None and not area.top <= r <= area.bottom:
            rows.append([])
            continue
        kept = list(row)
        if area is not None:
            kept = [None] * area.left + kept[area.left : area.right + 1]
        if ours is not None and ours.top <= r <= ours.bottom:
            kept = kept[: ours.left] + [None] * (min(len(kept), ours.right + 1) - ours.left) + kept[ours.right + 1 :]
        rows.append(kept)
    while rows and all(_blank(value) for value in rows[-1]):  # as a reader gives a sheet: no empty rows below
        rows.pop()
    totals = frozenset(table.totals_row for table in tables if table.totals_row is not None)
    return Sheet(name, rows, [name], totals_rows=totals)
