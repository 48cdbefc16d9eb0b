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

from ..core.metrics import Metric
from ..table.scoring import result_columns
from ..table.sheet import Sheet, column_index

__all__ = ["SUMMARY_TITLE", "Area", "TableArea", "area_of", "result_names", "sheet_of"]

#: The first cell of the summary a run writes beside its columns: how a later run knows the block is its own.
SUMMARY_TITLE = "bleu-xl summary"
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


def result_names(metrics: Sequence[Metric[Any, Any, Any]]) -> frozenset[str]:
    """Every header a run's result columns can have under these metrics, with and without the suffix a name taken
    by an input column gets."""
    names = {column.name for column in result_columns(metrics)}
    return frozenset(names | {f"{name} (bleu-xl)" for name in names})


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def previous_run(grid: list[list[Any]], header_row: int, names: frozenset[str]) -> int | None:
    """The first column of what an earlier run wrote on ``header_row``: its result columns (ending with the note
    column) and the summary beside them, recognised by their headers. ``None`` when there is none."""
    row = grid[header_row] if header_row < len(grid) else []
    title = next((c for c, value in enumerate(row) if value == SUMMARY_TITLE), None)
    end = len(row) if title is None else title - 1  # the summary sits one blank column right of the results
    while end > 0 and _blank(row[end - 1]):
        end -= 1
    if end == 0 or row[end - 1] not in {"note", "note (bleu-xl)"}:
        return title - 1 if title is not None else None
    start = end - 1
    while start > 0 and row[start - 1] in names:
        start -= 1
    return start


def sheet_of(
    name: str,
    grid: list[list[Any]],
    area: Area | None,
    tables: Sequence[TableArea],
    ours: int | None,
    header_row: int | None,
) -> Sheet:
    """The table layer's sheet of the cells from A1: blank outside ``area`` (``None``: the whole sheet), blank from
    column ``ours`` on in the rows from ``header_row`` down (an earlier run's columns), no empty row below the last
    one that holds anything, and the totals rows of the Excel Tables."""
    rows: list[list[Any]] = []
    for r, row in enumerate(grid):
        if area is not None and not area.top <= r <= area.bottom:
            rows.append([])
            continue
        kept = list(row)
        if area is not None:
            kept = [None] * area.left + kept[area.left : area.right + 1]
        if ours is not None and header_row is not None and r >= header_row:
            kept = kept[:ours]
        rows.append(kept)
    while rows and all(_blank(value) for value in rows[-1]):  # as a reader gives a sheet: no empty rows below
        rows.pop()
    totals = frozenset(table.totals_row for table in tables if table.totals_row is not None)
    return Sheet(name, rows, [name], totals_rows=totals)
