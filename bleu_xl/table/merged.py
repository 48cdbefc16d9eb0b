"""Merged cells as the column rules read them: a reference merged over several rows is the reference of each row it
spans, a candidate merged so is one candidate, and merged cells that show another column's text over a column
read leave it blank there (each said in a note)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..core.errors import Part, Setting
from ..excel.cell_values import cell_text
from .layout import Layout
from .sheet import CellRange, InputError, Sheet, column_letter

__all__ = ["LISTED_CELLS", "merged_cells", "refuse_merged_headers"]

LISTED_CELLS = 3  # in a message: the first cells it is about


def merged_cells(sheet: Sheet, layout: Layout) -> tuple[dict[int, list[tuple[int, int]]], list[tuple[Part, ...]]]:
    """The merged cells of the columns read, below the headers, as the user reads them, and the notes that say so.

    A reference merged over several rows ("this reference for these rows") is the reference of every row it
    spans. A candidate merged over several rows is one candidate, scored once, in its first row: the same text
    several times would weigh several times in the ranks and the corpus score. Merged cells that show another
    column's text over a column read leave that column blank there, and a note says so (two reference columns
    merged into one cell show one reference, and are read as one)."""
    refs, cand, start = layout.reference_cols, layout.candidate_col, layout.data_start
    spans: dict[int, list[tuple[int, int]]] = {}
    references: list[CellRange] = []
    candidates: list[CellRange] = []
    covering: list[tuple[CellRange, int]] = []
    for cells in sheet.merged:
        if cells.bottom < start:  # a title or a header
            continue
        if cells.top >= start and cells.bottom > cells.top:
            if cells.left in refs:
                spans.setdefault(cells.left, []).append((cells.top, cells.bottom))
                references.append(cells)
            elif cells.left == cand:
                candidates.append(cells)
        over = [c for c in (cand, *refs) if cells.left < c <= cells.right]
        if over and not (cells.left in refs and all(c in refs for c in over)):
            covering.append((cells, over[0]))
    for col, found in spans.items():
        found.sort()
        for (top, bottom), (next_top, next_bottom) in itertools.pairwise(found):
            if next_top <= bottom:  # Excel never saves that; a file that does could be read either way
                letter = column_letter(col)
                raise InputError(
                    f"sheet {sheet.name!r}: the merged cells {letter}{top + 1}:{letter}{bottom + 1} and "
                    f"{letter}{next_top + 1}:{letter}{next_bottom + 1} overlap; unmerge them"
                )
    notes: list[tuple[Part, ...]] = []
    if references:
        notes.append((f"merged reference cells {_ranges(references)}: each is the reference of every row it spans",))
    if candidates:
        notes.append((f"merged candidate cells {_ranges(candidates)}: each is one candidate, scored in its first row",))
    if covering:
        cells, col = covering[0]
        what = "candidate" if col == cand else "reference"
        more = f" (and {len(covering) - 1:,} more such merged cells)" if len(covering) > 1 else ""
        notes.append(
            (
                f"the merged cells {cells} show the text of {column_letter(cells.left)}{cells.top + 1} over the "
                f"{what} column {layout.name(col)}, which is blank there{more}",
            )
        )
    return spans, notes


def _ranges(ranges: Sequence[CellRange]) -> str:
    shown = ", ".join(str(cells) for cells in ranges[:LISTED_CELLS])
    return shown + (f" and {len(ranges) - LISTED_CELLS:,} more" if len(ranges) > LISTED_CELLS else "")


def refuse_merged_headers(sheet: Sheet, layout: Layout, candidate_given: bool, references_given: bool) -> None:
    """Refuse a header found by its name that is merged over columns of which another holds text below it:
    ``Candidate`` over B1:C1 with texts in B and C is two columns under one label, and reading B alone left C out
    with no word. A column given by the user is the one meant."""
    row = layout.header_row
    if row is None:
        return
    used = {layout.candidate_col, *layout.reference_cols}
    found = [(layout.candidate_col, "candidate", "candidate_col", candidate_given)]
    found += [(col, "reference", "reference_cols", references_given) for col in layout.reference_cols]
    for cells in sheet.merged:
        if not cells.top <= row <= cells.bottom or cells.left == cells.right:
            continue
        for col, what, setting, given in found:
            if given or not cells.left <= col <= cells.right:
                continue
            others = [c for c in range(cells.left, cells.right + 1) if c not in used and _holds_text(sheet, layout, c)]
            if others:
                letters = [column_letter(c) for c in sorted({col, *others})]
                several = " or ".join(letters) if what == "candidate" else f"{letters[0]}, or {' and '.join(letters)}"
                raise InputError(
                    f"sheet {sheet.name!r}: the header {layout.headers[col]!r} is merged over {cells}, and column "
                    f"{column_letter(others[0])} under it holds data too: give the {what} column with ",
                    Setting(setting),
                    f" ({several})",
                )


def _holds_text(sheet: Sheet, layout: Layout, col: int) -> bool:
    """Whether a data row holds text (or a number) in column ``col``: ``cell_text`` gives none for a blank."""
    rows = sheet.rows
    return any(col < len(rows[r]) and isinstance(cell_text(rows[r][col]), str) for r in layout.data_rows(len(rows)))
