"""Compare two candidate columns of a table row by row against the same references (paired bootstrap)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.bootstrap import PairedResult, Resampling
from ..core.errors import BleuError, Setting
from ..core.metrics import BLEU_2, Metric, MetricScore
from ..excel.cells import prepared_references
from .layout import Layout, resolve_column
from .scoring import check_reference_text, pairs_of, score_chunk
from .sheet import InputError, Sheet, column_letter

__all__ = ["Comparison", "compare_table"]


@dataclass
class Comparison:
    """Two candidate columns (A, the layout's candidate column, and B) compared row by row against the same
    references under one metric: the paired test, how many rows took part, and each row's score on both sides
    (``rows``: the data rows, as the sheet holds them, and ``row_numbers``, as Excel numbers them)."""

    result: PairedResult
    used: int
    skipped: int
    a_name: str
    b_name: str
    b_col: int  # 0-based
    scores_a: list[float | None]
    scores_b: list[float | None]
    rows: list[list[Any]]
    reference_source: str
    metric: Metric[Any, Any, Any] = BLEU_2
    row_numbers: Sequence[int] = ()  # each of ``rows`` as Excel numbers it

    @property
    def verdict(self) -> str:
        return self.result.verdict(self.a_name, self.b_name)

    @property
    def signature(self) -> str:
        return self.metric.signature()

    def as_dict(self) -> dict[str, object]:
        """The comparison as JSON-ready data: the columns' names, the paired test, the rows used, the verdict."""
        return {
            "a": self.a_name,
            "b": self.b_name,
            "metric": self.metric.name,
            **self.result.as_dict(),
            "pairs": self.used,
            "skipped": self.skipped,
            "verdict": self.verdict,
        }


def compare_table(
    sheet: Sheet,
    layout: Layout,
    b_col: str,
    *,
    samples: int = 1000,
    seed: int = 12345,
    metric: Metric[Any, Any, Any] = BLEU_2,
) -> Comparison:
    """Paired bootstrap of the candidate column (A) against column ``b_col`` (B) under ``metric`` (corpus BLEU-2
    by default); rows with a blank side are skipped in both, and under BLEU rows whose reference has no words."""
    if layout.reference_cell is None:  # given as text, not read from a labelled cell
        check_reference_text(layout.reference_text, (metric,))
    b_index = resolve_column(b_col, layout.headers, "candidate B", sheet.name, header_row=layout.header_row)
    if b_index == layout.candidate_col:
        raise InputError(
            Setting("candidate_col"),
            " and ",
            Setting("b_col"),
            f" name the same column ({column_letter(b_index)}): nothing to compare",
        )
    if b_index in layout.reference_cols:
        raise InputError(Setting("b_col"), f" names a reference column ({column_letter(b_index)})")
    pairs_a, pairs_b = pairs_of(sheet, layout), pairs_of(sheet, layout, b_index)
    usable = []
    for a, b in zip(pairs_a, pairs_b):
        if type(a.references) is tuple and type(a.candidate) is str and type(b.candidate) is str:
            try:
                usable.append((prepared_references(metric, a.references), a.candidate, b.candidate))
            except BleuError:
                continue
    if not usable:
        raise InputError(f"sheet {sheet.name!r}: no row has a reference and both candidates")
    refs, cands_a, cands_b = zip(*usable)
    result = Resampling(metric, samples=samples, seed=seed).paired(refs, cands_a, cands_b)

    def score_column(pairs: list) -> list[float | None]:
        (outcomes,) = score_chunk(pairs, (metric,))
        return [float(o) if isinstance(o, MetricScore) else None for o in outcomes]

    data = layout.data_rows(len(sheet.rows))

    def name(index: int) -> str:
        return (layout.headers[index] if index < len(layout.headers) else "") or column_letter(index)

    return Comparison(
        result,
        len(usable),
        len(pairs_a) - len(usable),
        name(layout.candidate_col),
        name(b_index),
        b_index,
        score_column(pairs_a),
        score_column(pairs_b),
        [sheet.rows[r] for r in data],
        layout.reference_source,
        metric,
        [r + 1 for r in data],
    )
