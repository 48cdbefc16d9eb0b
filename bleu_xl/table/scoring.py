"""Score a whole table: pair its rows, score them (over several processes when large), rank, add up the corpus.

A row scores exactly as the same pair does in Excel: the cell semantics (text of a cell, blanks, errors, several
references) are the ones of :mod:`bleu_xl.excel.cells`.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.bleu import Score, Stats, check_settings, score_from_stats, signature, sum_stats
from ..excel.cell_values import Blank, CellError, ColumnKind, DetailColumn, cell_text
from ..excel.cells import Pair, detail_columns, detail_row, reference_set, score_pairs
from .columns import Layout
from .pool import PoolUnavailable, map_chunks
from .sheet import Sheet, column_letter

__all__ = [
    "CHUNK",
    "PARALLEL_MIN_PAIRS",
    "Outcome",
    "Result",
    "distinct_names",
    "pairs_of",
    "rank_within_reference",
    "result_columns",
    "result_header",
    "score_chunk",
    "score_table",
]

PARALLEL_MIN_PAIRS = 20_000
CHUNK = 25_000

#: A row's outcome: its score, a blank candidate, or the error that is its note.
Outcome = Score | Blank | CellError


def result_columns(max_n: int, *, ranked: bool = True) -> tuple[DetailColumn, ...]:
    """The result columns: BLEU-N and its rank (when candidates share a reference), the detail columns of BLEU-N,
    and a note."""
    return (
        DetailColumn(f"BLEU-{max_n}", ColumnKind.SCORE),
        *([DetailColumn("rank", ColumnKind.COUNT)] if ranked else []),
        *detail_columns(max_n),
        DetailColumn("note", ColumnKind.TEXT),
    )


def result_header(max_n: int, *, ranked: bool = True) -> list[str]:
    """The names of :func:`result_columns`."""
    return [column.name for column in result_columns(max_n, ranked=ranked)]


@dataclass
class Result:
    """Per-row outcomes and what the summary needs: ranks, the corpus score, the input's own number formats.

    ``rows`` are the data rows scored, ``row_numbers`` their rows as Excel numbers them (the first row is 1).
    ``ranked`` is false when no two candidates share a reference (a reference per row): then no rank is given.
    ``single_process`` says why a table large enough for the process pool was scored in one process.
    """

    header: list[str]
    rows: list[list[Any]]
    layout: Layout
    outcomes: list[Outcome]
    ranks: list[int | None]
    corpus: Score | None
    max_n: int
    smoothing: str
    number_formats: dict[int, int | str] = field(default_factory=dict)  # the input columns' own formats
    row_numbers: Sequence[int] = ()
    single_process: str | None = None
    ranked: bool = True

    @functools.cached_property
    def columns(self) -> tuple[DetailColumn, ...]:
        """The result columns of this table (:func:`result_columns`)."""
        return result_columns(self.max_n, ranked=self.ranked)

    @property
    def scored(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, Score))

    @property
    def blank(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, Blank))

    @property
    def problems(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, CellError))

    def bleu(self, i: int) -> float | None:
        outcome = self.outcomes[i]
        return outcome.bleu if isinstance(outcome, Score) else None

    def result_row(self, i: int) -> list[Any]:
        """The values of :func:`result_columns` for row ``i`` (blank cells are ``None``)."""
        outcome = self.outcomes[i]
        if isinstance(outcome, Score):
            rank = [self.ranks[i]] if self.ranked else []
            return [outcome.bleu, *rank, *detail_row(outcome), None]
        note = (outcome.message or outcome.code) if isinstance(outcome, CellError) else None
        return [None] * (len(self.columns) - 1) + [note]

    def signature(self) -> str:
        return self.corpus.signature if self.corpus else signature(self.max_n, self.smoothing)


def distinct_names(names: Sequence[str]) -> list[str]:
    """Column names made distinct for JSON keys and headers: a second "Notes" is "Notes (2)", a third
    "Notes (3)", never a name another column already has."""
    taken = set(names)
    seen: set[str] = set()
    distinct = []
    for name in names:
        unique, number = name, 2
        while unique in seen or (unique != name and unique in taken):
            unique, number = f"{name} ({number})", number + 1
        seen.add(unique)
        distinct.append(unique)
    return distinct


def pairs_of(sheet: Sheet, layout: Layout, candidate_col: int | None = None) -> list[Pair]:
    """A :class:`Pair` per data row, with the cell semantics of the Excel functions (the candidates of
    ``candidate_col``, by default the layout's)."""
    col = layout.candidate_col if candidate_col is None else candidate_col
    rows = sheet.rows
    fixed: Any = None
    if layout.reference_text is not None:
        fixed = reference_set([layout.reference_text])
    elif layout.shared_row is not None:
        fixed = reference_set([_cell(rows[layout.shared_row], i) for i in layout.reference_cols])
    pairs = []
    for r in layout.data_rows(len(rows)):
        row = rows[r]
        cand = cell_text(row[col]) if col < len(row) else None
        if layout.reference_text is not None or layout.shared_row is not None:
            refs = fixed
        else:
            refs = reference_set([row[i] if i < len(row) else None for i in layout.reference_cols])
        pairs.append(Pair(refs, cand))
    return pairs


def _cell(row: list[Any], col: int) -> Any:
    return row[col] if col < len(row) else None


def score_chunk(pairs: Sequence[Pair], max_n: int, smoothing: str) -> list[Outcome]:
    """An :data:`Outcome` per pair (an input error says on which side it was)."""

    def keep(stats: Stats, nrefs: int) -> Score:
        return score_from_stats(stats, smoothing=smoothing, refs=nrefs)

    outcomes = score_pairs(pairs, max_n, keep)
    for i, (outcome, pair) in enumerate(zip(outcomes, pairs)):
        if isinstance(outcome, CellError) and not outcome.message:  # #N/A carried through from a cell
            side = "candidate" if isinstance(pair.candidate, CellError) else "reference"
            outcomes[i] = CellError(outcome.code, f"{outcome.code} in the {side}")
    return outcomes


def score_table(
    sheet: Sheet,
    layout: Layout,
    *,
    max_n: int = 2,
    smoothing: str = "add1",
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Result:
    """Score every data row; large tables are split over a process pool (same results as one process)."""
    check_settings(max_n, smoothing)
    pairs = pairs_of(sheet, layout)
    bounds = [(i, min(i + CHUNK, len(pairs))) for i in range(0, len(pairs), CHUNK)]
    outcomes: list[Outcome] = []
    single_process = None
    if len(pairs) >= PARALLEL_MIN_PAIRS and (workers or os.cpu_count() or 1) > 1:
        try:
            # closing(): the pool is terminated here, before an error or a signal goes further up.
            with contextlib.closing(map_chunks(score_chunk, pairs, bounds, (max_n, smoothing), workers)) as parts:
                for part in parts:
                    outcomes += part
                    if progress:
                        progress(len(part))
        except PoolUnavailable as problem:  # no writable /dev/shm, no sem_open: the same scores in one process
            single_process = problem.reason
    for a, b in bounds:
        if a >= len(outcomes):
            outcomes += score_chunk(pairs[a:b], max_n, smoothing)
            if progress:
                progress(b - a)

    ranks = rank_within_reference(pairs, outcomes)
    scored = [o for o in outcomes if isinstance(o, Score)]
    corpus = None
    if scored:
        total = sum_stats((o.stats for o in scored), max_n)
        corpus = score_from_stats(total, smoothing=smoothing, refs=max(o.refs for o in scored))
    header = distinct_names([layout.headers[i] or column_letter(i) for i in range(len(layout.headers))])
    rows = layout.data_rows(len(sheet.rows))
    data = sheet.rows[layout.data_start :] if isinstance(rows, range) else [sheet.rows[r] for r in rows]
    numbers = range(rows.start + 1, rows.stop + 1) if isinstance(rows, range) else [r + 1 for r in rows]
    return Result(
        header,
        data,
        layout,
        outcomes,
        ranks,
        corpus,
        max_n,
        smoothing,
        dict(sheet.number_formats),
        row_numbers=numbers,
        single_process=single_process,
        ranked=any(rank is not None for rank in ranks),
    )


def rank_within_reference(pairs: Sequence[Pair], outcomes: Sequence[Outcome]) -> list[int | None]:
    """RANK.EQ among the scored candidates that share a reference: 1 is best, equal scores share a rank. A
    candidate no other scored candidate shares its reference with has no rank: there is nothing to rank it
    against (a reference per row, as in a translation)."""
    groups: dict[Any, list[tuple[int, float]]] = {}
    for i, (pair, outcome) in enumerate(zip(pairs, outcomes)):
        if isinstance(outcome, Score):
            groups.setdefault(pair.references, []).append((i, outcome.bleu))
    ranks: list[int | None] = [None] * len(outcomes)
    for members in groups.values():
        if len(members) < 2:
            continue
        ordered = sorted((value for _, value in members), reverse=True)
        first: dict[float, int] = {}
        for position, value in enumerate(ordered, start=1):
            first.setdefault(value, position)
        for i, value in members:
            ranks[i] = first[value]
    return ranks
