"""Score a whole table (a sheet or CSV): find the columns, pair rows, score in parallel, rank, summarise.

The command line is a thin layer over this; the cell semantics (text of a cell, blanks, errors, several
references) are the ones of ``bleu_xl.cells``, so a row scores exactly as the same pair does in Excel.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .bleu import BleuError, Stats, check_settings, score_from_stats, signature, sum_stats
from .cells import CellError, cell_text, detail_values, prepared_references, reference_set, score_pairs
from .compare import PairedResult, paired_test
from .sheets import InputError, Sheet, column_index, column_letter
from .tokenizer import prepare as prepare_tokenizer

__all__ = ["Comparison", "Layout", "Result", "compare_table", "find_layout", "result_header", "score_table"]

REFERENCE_HEADER = re.compile(r"^(reference|référence|referência|referencia)s?\b", re.IGNORECASE)
CANDIDATE_HEADER = re.compile(r"^(candidate|candidat|candidato)s?\b", re.IGNORECASE)
HEADER_SEARCH_ROWS = 50
PARALLEL_MIN_PAIRS = 20_000
CHUNK = 25_000

#: A scored row, flat so that it pickles fast from the worker processes: the result columns
#: (BLEU, then value, numerator and denominator per order, BP, r, c), the number of references, then the
#: matches and totals per order.
Scored = tuple


def detail_width(max_n: int) -> int:
    return 3 * max_n + 4


def stats_of(row: Scored, max_n: int) -> Stats:
    w = detail_width(max_n)
    return Stats(row[w + 1 : w + 1 + max_n], row[w + 1 + max_n : w + 1 + 2 * max_n], row[w - 1], row[w - 2])


@dataclass
class Layout:
    """Where the data is: the header row, the candidate column, and the reference columns or single text."""

    header_row: int
    candidate_col: int
    reference_cols: list[int] = field(default_factory=list)
    reference_text: str | None = None
    reference_source: str = ""


@dataclass
class Result:
    """Per-row outcomes (a :data:`Scored` tuple, or the row's note) and what the summary needs."""

    header: list[str]
    rows: list[list[Any]]
    layout: Layout
    outcomes: list[Scored | str]
    ranks: list[int | None]
    corpus: Any
    max_n: int
    smoothing: str

    @property
    def scored(self) -> int:
        return sum(1 for o in self.outcomes if not isinstance(o, str))

    @property
    def blank(self) -> int:
        return sum(1 for o in self.outcomes if o == "")

    @property
    def problems(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, str) and o)

    def bleu(self, i: int) -> float | None:
        outcome = self.outcomes[i]
        return None if isinstance(outcome, str) else outcome[0]

    def result_row(self, i: int) -> list[Any]:
        """The values of the result columns of row ``i`` (blank cells are ``None``)."""
        outcome = self.outcomes[i]
        if isinstance(outcome, str):
            return [None] * (3 * self.max_n + 5) + [(outcome.message or outcome) if outcome else None]
        return [*outcome[: detail_width(self.max_n)], self.ranks[i], None]

    def signature(self) -> str:
        return self.corpus.signature if self.corpus else signature(self.max_n, self.smoothing)


def result_header(max_n: int) -> list[str]:
    names = [f"BLEU-{max_n}"]
    for n in range(1, max_n + 1):
        names += [f"p{n}", f"p{n} num", f"p{n} den"]
    return [*names, "BP", "r", "c", "rank", "note"]


# --- finding the columns ----------------------------------------------------------------------------------------


def _header_text(value: Any) -> str:
    text = cell_text(value)
    return "" if text is None or isinstance(text, CellError) else str(text).strip()


def _resolve(spec: str, headers: list[str], what: str, sheet: str) -> int:
    lowered = [h.casefold() for h in headers]
    if spec.casefold() in lowered:
        return lowered.index(spec.casefold())
    index = column_index(spec)
    if index is not None:
        return index
    raise InputError(f"sheet {sheet!r}: no {what} column {spec!r}; headers found: {_listing(headers)}")


def _listing(headers: list[str]) -> str:
    named = [h for h in headers if h]
    return ", ".join(named) if named else "(none)"


def find_layout(
    sheet: Sheet,
    reference_cols: Sequence[str] = (),
    candidate_col: str | None = None,
    reference_text: str | None = None,
) -> Layout:
    """Find the header row and columns by header (any case, English, French or Portuguese) or as given."""
    rows = sheet.rows
    if not rows or all(_header_text(v) == "" for row in rows[:HEADER_SEARCH_ROWS] for v in row):
        raise InputError(f"sheet {sheet.name!r} is empty")
    header_row = 0
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        texts = [_header_text(v) for v in row]
        wanted = candidate_col.casefold() if candidate_col else None
        if any(CANDIDATE_HEADER.match(t) or (wanted and t.casefold() == wanted) for t in texts):
            header_row = i
            break
    headers = [_header_text(v) for v in rows[header_row]]

    if candidate_col:
        cand = _resolve(candidate_col, headers, "candidate", sheet.name)
    else:
        found = [i for i, h in enumerate(headers) if CANDIDATE_HEADER.match(h)]
        if not found:
            raise InputError(f"sheet {sheet.name!r}: no candidate column; headers found: {_listing(headers)}")
        cand = found[0]

    layout = Layout(header_row, cand)
    if reference_text is not None:
        layout.reference_text = reference_text
        layout.reference_source = "--reference"
    elif reference_cols:
        layout.reference_cols = [_resolve(spec, headers, "reference", sheet.name) for spec in reference_cols]
    else:
        layout.reference_cols = [i for i, h in enumerate(headers) if REFERENCE_HEADER.match(h) and i != cand]
        if not layout.reference_cols:
            labelled = _labelled_reference(rows[:header_row])
            if labelled is None:
                raise InputError(
                    f"sheet {sheet.name!r}: no reference column (and no labelled reference cell above the "
                    f"headers); headers found: {_listing(headers)}; use --reference-col or --reference"
                )
            layout.reference_text, layout.reference_source = labelled
    if layout.reference_cols:
        layout.reference_source = ", ".join(headers[i] or column_letter(i) for i in layout.reference_cols)
    return layout


def _labelled_reference(rows: list[list[Any]]) -> tuple[str, str] | None:
    """A cell labelled "Reference" above the header row, with the reference text to its right (the Rank sheet)."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if REFERENCE_HEADER.match(_header_text(value)):
                for right in range(c + 1, len(row)):
                    text = cell_text(row[right])
                    if text is not None and not isinstance(text, CellError):
                        return text, f"{column_letter(right)}{r + 1}"
    return None


# --- scoring --------------------------------------------------------------------------------------------------


def pairs_of(sheet: Sheet, layout: Layout) -> list[tuple[Any, Any]]:
    """(reference set, candidate) per data row, with the cell semantics of the Excel functions."""
    fixed = reference_set([layout.reference_text]) if layout.reference_text is not None else None
    pairs = []
    for row in sheet.rows[layout.header_row + 1 :]:
        cand = cell_text(row[layout.candidate_col]) if layout.candidate_col < len(row) else None
        if layout.reference_text is not None:
            refs = fixed
        else:
            refs = reference_set([row[i] if i < len(row) else None for i in layout.reference_cols])
        pairs.append((refs, cand))
    return pairs


def score_chunk(pairs: list[tuple[Any, Any]], max_n: int, smoothing: str) -> list[Scored | str]:
    """A :data:`Scored` tuple per pair, or the pair's note."""

    def keep(stats: Stats, nrefs: int) -> Scored:
        return (*detail_values(stats, max_n, smoothing), nrefs, *stats.matches, *stats.totals)

    return score_pairs(pairs, max_n, keep)


# Pairs shared with forked workers: each worker reads its slice from its copy of the parent's memory, so only
# the results travel back through a pipe.
_SHARED: list[tuple[Any, Any]] = []


def _score_shared(task: tuple[int, int, int, str]) -> list[Scored | str]:
    start, stop, max_n, smoothing = task
    return score_chunk(_SHARED[start:stop], max_n, smoothing)


def _score_sent(task: tuple[list[tuple[Any, Any]], int, str]) -> list[Scored | str]:
    return score_chunk(*task)


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
    workers = workers if workers is not None else (os.cpu_count() or 1)
    outcomes: list[Scored | str] = []
    if workers > 1 and len(pairs) >= PARALLEL_MIN_PAIRS:
        global _SHARED
        if "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux"):
            prepare_tokenizer()
            _SHARED = pairs
            context, fn = multiprocessing.get_context("fork"), _score_shared
            tasks: list[Any] = [(a, b, max_n, smoothing) for a, b in bounds]
        else:
            context, fn = None, _score_sent
            tasks = [(pairs[a:b], max_n, smoothing) for a, b in bounds]
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                for part in pool.map(fn, tasks):
                    outcomes += part
                    if progress:
                        progress(len(part))
        finally:
            _SHARED = []
    else:
        for a, b in bounds:
            outcomes += score_chunk(pairs[a:b], max_n, smoothing)
            if progress:
                progress(b - a)

    ranks = rank_within_reference(pairs, outcomes)
    scored = [o for o in outcomes if not isinstance(o, str)]
    corpus = None
    if scored:
        total = sum_stats((stats_of(o, max_n) for o in scored), max_n)
        corpus = score_from_stats(total, max_n, smoothing, max(o[detail_width(max_n)] for o in scored))
    header = [_header_text(v) or column_letter(i) for i, v in enumerate(sheet.rows[layout.header_row])]
    data = sheet.rows[layout.header_row + 1 :]
    return Result(header, data, layout, outcomes, ranks, corpus, max_n, smoothing)


def rank_within_reference(pairs: list[tuple[Any, Any]], outcomes: list[Scored | str]) -> list[int | None]:
    """RANK.EQ among the candidates that share a reference: 1 is best, equal scores share a rank."""
    groups: dict[Any, list[int]] = {}
    for i, ((refs, _), outcome) in enumerate(zip(pairs, outcomes)):
        if not isinstance(outcome, str):
            groups.setdefault(refs, []).append(i)
    ranks: list[int | None] = [None] * len(outcomes)
    for members in groups.values():
        ordered = sorted((outcomes[i][0] for i in members), reverse=True)
        first: dict[float, int] = {}
        for position, value in enumerate(ordered, start=1):
            first.setdefault(value, position)
        for i in members:
            ranks[i] = first[outcomes[i][0]]
    return ranks


@dataclass
class Comparison:
    """Two candidate columns compared row by row against the same references."""

    result: PairedResult
    used: int
    skipped: int
    a_name: str
    b_name: str
    scores_a: list[float | None]
    scores_b: list[float | None]


def compare_table(sheet: Sheet, layout: Layout, b_col: str, *, samples: int = 1000, seed: int = 12345) -> Comparison:
    """Paired bootstrap of the candidate column (A) against column ``b_col`` (B); rows with a blank side are
    skipped in both."""
    headers = [_header_text(v) for v in sheet.rows[layout.header_row]]
    b_layout = Layout(
        layout.header_row,
        _resolve(b_col, headers, "candidate B", sheet.name),
        layout.reference_cols,
        layout.reference_text,
        layout.reference_source,
    )
    pairs_a, pairs_b = pairs_of(sheet, layout), pairs_of(sheet, b_layout)
    rows = [
        (refs, a, b)
        for (refs, a), (_, b) in zip(pairs_a, pairs_b)
        if type(refs) is tuple and type(a) is str and type(b) is str
    ]
    usable = []
    for refs, a, b in rows:
        try:
            usable.append((prepared_references(refs, 2), a, b))
        except BleuError:
            continue
    if not usable:
        raise InputError(f"sheet {sheet.name!r}: no row has a reference and both candidates")
    result = paired_test(
        [r for r, _, _ in usable], [a for _, a, _ in usable], [b for _, _, b in usable], samples=samples, seed=seed
    )

    def bleu_column(pairs: list[tuple[Any, Any]]) -> list[float | None]:
        return [None if isinstance(o, str) else o[0] for o in score_chunk(pairs, 2, "add1")]

    def name(index: int) -> str:
        return headers[index] or column_letter(index)

    return Comparison(
        result,
        len(usable),
        len(pairs_a) - len(usable),
        name(layout.candidate_col),
        name(b_layout.candidate_col),
        bleu_column(pairs_a),
        bleu_column(pairs_b),
    )
