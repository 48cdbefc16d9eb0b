"""The cells a workbook's reader gives otherwise than the sheet shows them, put right in the rows it read.

The reader (calamine) gives error cells as blanks, the 0 saved for a formula that no one calculated as a 0, and
the cells under merged ranges with whatever text they kept. :class:`CellFixes` holds what the scan found of these
and puts it right in a sheet's rows, in the process that read them; the cells it changed (:class:`CellChanges`)
are changed alike in the rows sent on before the scan ended, at a cost of their number alone.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...excel.cell_values import CellError
from ...table.sheet import CellRange, InputError, column_letter

__all__ = ["CellChanges", "CellFixes"]


@dataclass
class CellChanges:
    """Cells changed in a sheet's rows, in order: (row, column, value), a row or a cell added where none was."""

    cells: list[tuple[int, int, Any]] = field(default_factory=list)

    def apply(self, rows: list[list[Any]]) -> None:
        """Change the same cells in another copy of the rows."""
        for r, c, value in self.cells:
            if r < len(rows) and c < len(row := rows[r]):
                row[c] = value
            else:
                _put(rows, r, c, value)


def _put(rows: list[list[Any]], r: int, c: int, value: Any) -> None:
    while r >= len(rows):
        rows.append([])
    row = rows[r]
    if c >= len(row):
        row.extend([""] * (c + 1 - len(row)))
    row[c] = value


@dataclass
class CellFixes:
    """The error cells (their codes, by (row, column)), the formulas saved with a 0 never calculated (by column,
    their rows) and the merged ranges of one sheet, as the scan found them; ``file`` and ``name`` for messages."""

    errors: dict[tuple[int, int], str]
    stale: dict[int, array]
    merged: list[CellRange]
    file: Path
    name: str

    def apply(self, rows: list[list[Any]]) -> tuple[list[str], CellChanges]:
        """Put the fixes right in ``rows``: error cells back, stale 0s blank, the cells merged ranges cover blank.
        Returns the covered cells that held a value (``B3``), in sheet order, and every cell changed; overlapping
        ranges are refused."""
        changes = CellChanges()
        changed = changes.cells
        # One value a code: an error is a frozen value, and one object pickles once however many cells hold it,
        # where a million objects of a column of #N/A lookups take seconds each way.
        values: dict[str, CellError] = {}
        for (r, c), code in self.errors.items():  # the reader gives error cells as blanks: put the error back
            error = values.get(code)
            if error is None:
                error = values[code] = CellError(code)
            _put(rows, r, c, error)
            changed.append((r, c, error))
        for c, stale_rows in self.stale.items():  # XlsxWriter's 0s: no reader calculates them, so they read blank
            for r in stale_rows:
                if r < len(rows) and c < len(rows[r]):
                    rows[r][c] = ""
                    changed.append((r, c, ""))
        held = self._blank_covered(rows)
        changed += [(r, c, "") for r, c in held]
        return [f"{column_letter(c)}{r + 1}" for r, c in sorted(held)], changes

    def _blank_covered(self, rows: list[list[Any]]) -> list[tuple[int, int]]:
        """Blank the cells that merged ranges cover (all but each range's first), as every spreadsheet shows them:
        Excel empties them when it merges, LibreOffice can keep their text, hidden. Returns those that held a
        value. Ranges that overlap over the cells read (no application saves them; a cell would be the first of
        one and hidden by another) are refused."""
        if not self.merged:
            return []
        width = max(map(len, rows), default=0)
        taken = bytearray(len(rows) * width)  # the cells some range covers: at most the sheet's cell budget
        held: list[tuple[int, int]] = []
        for cells in self.merged:
            right = min(cells.right + 1, width)
            for r in range(cells.top, min(cells.bottom + 1, len(rows))):
                start, stop = r * width + cells.left, r * width + right
                if start >= stop:
                    continue
                if taken.find(1, start, stop) != -1:
                    raise InputError(
                        f"{self.file}: refused: merged cells of sheet {self.name!r} overlap, which no application saves"
                    )
                taken[start:stop] = b"\x01" * (stop - start)
                row = rows[r]
                for c in range(cells.left if r > cells.top else cells.left + 1, min(right, len(row))):
                    if row[c] is not None and row[c] != "":
                        held.append((r, c))
                        row[c] = ""
        return held
