"""Numbers and dates among the cells scored that the sheet shows in a format of their own (20%, 1 299,50 €,
01/03/2026): each is scored as Excel's General format writes it (0.2, 1299.5, 2026-03-01), not as the sheet shows
it, which a note says (its words differ: 20% is the word 20, 0.2 the words 0 and 2)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ..core.errors import Part
from ..excel.cell_values import cell_text
from .layout import Layout
from .sheet import GENERAL, Sheet, column_letter

__all__ = ["formatted_numbers_note"]

_SHOWN_OTHERWISE = (int, float, dt.date, dt.time, dt.timedelta)  # datetime is a date


#: Formats that show a whole number as General does: 0 (built-in 1, or typed), and text (@, built-in 49).
_WHOLE_AS_GENERAL = frozenset([GENERAL, 1, "0", 49, "@"])


def _as_general(code: int | str, value: object) -> bool:
    """Whether a number in format ``code`` shows as General writes it (a year in format 0, a number in text format)."""
    if code == GENERAL:
        return True
    whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return code in _WHOLE_AS_GENERAL and (whole or code in (49, "@"))


def formatted_numbers_note(sheet: Sheet, layout: Layout, rows: Sequence[int]) -> list[tuple[Part, ...]]:
    """The note on the candidates and references of ``rows`` that are numbers or dates in a number format other
    than General; none when there are none (a column of text has no format to look up: most cost nothing)."""
    formats = sheet.cell_formats
    cols = [c for c in (layout.candidate_col, *layout.reference_cols) if c in formats.runs]
    if not cols:
        return []
    count, first = 0, None
    for r in rows:
        row = sheet.rows[r]
        for c in cols:
            value = row[c] if c < len(row) else None
            if (
                isinstance(value, _SHOWN_OTHERWISE)
                and not isinstance(value, bool)
                and not _as_general(formats.at(r, c), value)
            ):
                count += 1
                first = first or (f"{column_letter(c)}{r + 1}", cell_text(value))
    if first is None:
        return []
    cell, general = first
    held = "a cell scored holds a number or date" if count == 1 else f"{count:,} cells scored hold numbers or dates"
    return [
        (
            f"{held} that the sheet shows in a format of its own ({cell} is scored as {general!r}): scored as Excel's "
            "General format writes them, not as shown; to score what the sheet shows, enter them as text",
        )
    ]
