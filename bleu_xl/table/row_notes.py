"""The notes the column rules give about rows: a totals row of an Excel Table left out, rows that repeat the header
row, hidden rows scored or left out, and a hidden row that holds the reference typed once."""

from __future__ import annotations

from ..core.errors import Part, Setting
from .excel_tables import totals_note, totals_rows_of
from .layout import Layout, filled
from .merged import LISTED_CELLS
from .sheet import Sheet

__all__ = ["row_notes"]


def row_notes(sheet: Sheet, layout: Layout, skip_hidden: bool) -> list[tuple[Part, ...]]:
    """What the user should know about the rows: a totals row that is not scored, hidden rows scored or not."""
    rows, start, notes = sheet.rows, layout.data_start, []
    columns = [layout.candidate_col, *layout.reference_cols]
    table_totals = totals_rows_of(sheet, columns)
    totals = sorted(r for r in table_totals if start <= r < len(rows) and any(filled(rows[r], c) for c in columns))
    if totals:
        notes.append((totals_note(totals),))
    if layout.repeated:
        listed = ", ".join(str(r + 1) for r in sorted(layout.repeated)[:LISTED_CELLS])
        more = f" and {len(layout.repeated) - LISTED_CELLS:,} more" if len(layout.repeated) > LISTED_CELLS else ""
        named = ", ".join(layout.name(c) for c in columns)
        banners = " and ".join(str(r + 1) for r in layout.banners)
        above = f" or the names above it (row{'s' if len(layout.banners) > 1 else ''} {banners})" if banners else ""
        what = f"the header row ({named}){above}"
        notes.append(
            (f"row {listed} repeats {what}: it is not a candidate, and is not scored",)
            if len(layout.repeated) == 1
            else (f"rows {listed}{more} repeat {what}: they are not candidates, and are not scored",)
        )
    hidden = sum(
        1
        for r in sheet.hidden_rows
        if start <= r < len(rows)
        and r not in table_totals
        and r not in layout.repeated
        and filled(rows[r], layout.candidate_col)
    )
    if hidden:
        counted = f"{hidden:,} hidden {'row' if hidden == 1 else 'rows'}"
        if skip_hidden:
            notes.append((f"{counted} left out (hidden by hand or by a filter)",))
        else:
            notes.append(
                (
                    f"{counted} scored (hidden by hand or by a filter; ",
                    Setting("skip_hidden"),
                    " leaves them out)",
                )
            )
    if layout.shared_row is not None and layout.shared_row in layout.skipped:
        notes.append(
            (
                f"row {layout.shared_row + 1} is hidden and left out, but {layout.shared_cells()}, the reference "
                "typed once, still serves every candidate",
            )
        )
    return notes
