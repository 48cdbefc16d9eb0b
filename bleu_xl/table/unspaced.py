"""The rows of a table a metric reads as far fewer words than they hold (TER on text written without spaces between
words), and the note that says so: the rule is the metric's, the rows are the table's."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..core.errors import Part
from ..core.metrics import Metric, MetricScore
from ..excel.cells import Pair

__all__ = ["LISTED_ROWS", "UnspacedRows", "unspaced_note", "unspaced_rows"]

LISTED_ROWS = 3  # in a note: the first rows it is about

#: Per script, the indices of the rows whose texts are in it.
UnspacedRows = dict[str, list[int]]


def unspaced_rows(metric: Metric[Any, Any, Any], pairs: Sequence[Pair], outcomes: Sequence[Any]) -> UnspacedRows:
    """Per script (as ``metric.unspaced_script`` names it), the rows ``metric`` scored whose candidate, or one of
    whose references, it reads as one word where the text holds several. Empty for a metric that reads every
    script."""
    found: UnspacedRows = {}
    if not metric.misreads_unspaced_text:
        return found
    read: dict[Hashable, str | None] = {}  # a reference set repeated down a column is read once
    for i, (pair, outcome) in enumerate(zip(pairs, outcomes)):
        if not isinstance(outcome, MetricScore) or type(pair.candidate) is not str:
            continue
        script = metric.unspaced_script(pair.candidate)
        if script is None and type(pair.references) is tuple:
            if pair.references not in read:
                read[pair.references] = next(filter(None, map(metric.unspaced_script, pair.references)), None)
            script = read[pair.references]
        if script is not None:
            found.setdefault(script, []).append(i)
    return found


def unspaced_note(metric: Metric[Any, Any, Any], found: UnspacedRows, row_numbers: Sequence[int]) -> tuple[Part, ...]:
    """The note on the rows of :func:`unspaced_rows`, named as Excel numbers them (``row_numbers``)."""
    rows = sorted({i for indices in found.values() for i in indices})
    listed = ", ".join(str(row_numbers[i]) for i in rows[:LISTED_ROWS])
    more = f" and {len(rows) - LISTED_ROWS:,} more" if len(rows) > LISTED_ROWS else ""
    which = f"row {listed} is" if len(rows) == 1 else f"rows {listed}{more} are"
    return (f"{metric.name}: {which} ", *metric.unspaced_note(found.keys()))
