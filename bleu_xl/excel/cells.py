"""Spreadsheet semantics shared by every Excel face: cell values to text, blanks, error cells, ranges, results.

The classic xlwings add-in (``udfs``) and the xlwings Lite bundle (``lite``) only declare functions and call the
``*_cells`` functions here, so a formula behaves the same wherever it runs. Inputs are what xlwings hands a
function (a scalar for one cell, a list of row lists for a range); outputs are a scalar for one cell or a list of
row lists that Excel spills, holding numbers, text, :class:`CellError` and :class:`Blank` results that each face
shows its own way (``faces``). Nothing here raises: every failure becomes one short ``#VALUE! ...`` error.
Standard library only (the Lite bundle embeds it).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

from ..core.bootstrap import MIN_PAIRED_DRAWS, Resampling, interval_draws
from ..core.errors import BleuError
from ..core.explain import explain
from ..core.metrics import Bleu, Chrf, Metric, Ter
from ..core.metrics.bleu import BLEU_2, References, Score
from ..core.tokenizer import tokenize
from .cell_values import (
    EXCEL_MAX_TEXT,
    Blank,
    CellError,
    CellProblem,
    Grid,
    PassError,
    as_grid,
    cell_text,
    fit_cell,
    parse_beta,
    parse_char_order,
    parse_flag,
    parse_level,
    parse_max_n,
    parse_samples,
    parse_smoothing,
    parse_whole,
    parse_word_order,
    setting,
    value_error,
)

__all__ = [
    "BLANK",
    "DETAIL_HEADERS",
    "Pair",
    "Preparer",
    "PreviousReference",
    "ReferenceCache",
    "bleu_cells",
    "bleu_n_cells",
    "chrf_cells",
    "chrf_corpus_cells",
    "chrf_signature_cell",
    "ci_cells",
    "corpus_cells",
    "detail_cells",
    "excel_safe",
    "explain_cells",
    "paired_cells",
    "prepared_references",
    "reference_set",
    "score_pairs",
    "signature_cell",
    "ter_cells",
    "ter_changes_cells",
    "ter_corpus_cells",
    "ter_signature_cell",
    "tokens_cells",
]


T = TypeVar("T")

BLANK = Blank()
REFERENCE_CACHE_SIZE = 4096
REFERENCE_CACHE_BYTES = 256 * 2**20  # the memory the prepared references hold, as held_size counts it
EXCEL_MAX_COLUMNS = 16_384

#: One reference set as a row of cells gives it: its texts, the first error among them, or ``None`` (all blank).
ReferenceCells = tuple[str, ...] | CellError | None
#: One candidate cell: its text, its error, or ``None`` (blank).
CandidateCell = str | CellError | None


class Pair(NamedTuple):
    """One reference set and one candidate, as the cells give them (read by name: ``pair.candidate``)."""

    references: ReferenceCells
    candidate: CandidateCell


#: BLEU2_DETAIL's header row: the score, then the detail columns of BLEU-2.
DETAIL_HEADERS = ["BLEU2", *(column.name for column in BLEU_2.details())]


# --- ranges -----------------------------------------------------------------------------------------------------


def squeeze(grid: Grid) -> Any:
    """A 1x1 result is a plain value; anything larger is returned as rows and spills."""
    return grid[0][0] if len(grid) == 1 and len(grid[0]) == 1 else grid


def reference_set(cells: Sequence[Any]) -> tuple[str, ...] | CellError | None:
    """The non-blank texts of one row of references; the first error among them; ``None`` when all are blank."""
    texts = []
    for value in cells:
        text = cell_text(value)
        if isinstance(text, CellError):
            return text
        if text is not None:
            texts.append(text)
    return tuple(texts) or None


def pair_up(reference: Any, candidate: Any) -> tuple[list[Pair], tuple[int, int]]:
    """Pair references with candidates as the Excel functions do; returns the pairs (row-major) and the shape.

    - equal shapes pair cell by cell, and a single cell pairs with every cell of the other;
    - a reference range wider than a single-column candidate holds several references: each row is the
      reference set of that row's candidate, or a single row is the reference set of every candidate (also one
      as long as the candidate column: references typed across for candidates typed down are paired by
      TRANSPOSE).
    """
    refs, cands = as_grid(reference), as_grid(candidate)
    (rr, rc), (cr, cc) = (len(refs), len(refs[0])), (len(cands), len(cands[0]))  # as_grid: never empty
    cand_cells = [cell_text(v) for row in cands for v in row]
    if cc == 1 and rc > 1 and rr in (1, cr):
        sets = [reference_set(row) for row in refs]
        return [Pair(sets[i if rr > 1 else 0], c) for i, c in enumerate(cand_cells)], (cr, 1)
    ref_cells = [reference_set([v]) for row in refs for v in row]
    if (rr, rc) == (cr, cc):
        return list(map(Pair, ref_cells, cand_cells)), (cr, cc)
    if (rr, rc) == (1, 1):
        return [Pair(ref_cells[0], c) for c in cand_cells], (cr, cc)
    if (cr, cc) == (1, 1):
        return [Pair(r, cand_cells[0]) for r in ref_cells], (rr, rc)
    raise CellProblem(f"ranges differ in shape ({rr}x{rc} vs {cr}x{cc})")


class ReferenceCache:
    """Prepared references by reference set and the settings they were prepared for (any metric's), the least
    recently used dropped first, bounded by their number and by the memory they hold (as each metric's
    ``held_size`` counts it, in bytes). A reference set larger than the whole budget is prepared and not kept."""

    def __init__(self, entries: int = REFERENCE_CACHE_SIZE, limit: int = REFERENCE_CACHE_BYTES) -> None:
        self.entries, self.limit = entries, limit
        self.held: OrderedDict[tuple[tuple[str, ...], Any], tuple[Any, int]] = OrderedDict()
        self.size = 0  # bytes held
        self.hits = self.misses = 0

    def __call__(self, metric: Metric[Any, Any, Any], texts: tuple[str, ...]) -> Any:
        key = (texts, metric.preparation)
        if key in self.held:
            self.hits += 1
            self.held.move_to_end(key)
            return self.held[key][0]
        self.misses += 1
        prepared = metric.prepare(texts)  # BleuError for a reference the metric cannot use: nothing kept
        size = metric.held_size(texts, prepared)
        if size <= self.limit:
            self.held[key] = prepared, size
            self.size += size
            while len(self.held) > self.entries or self.size > self.limit:
                self.size -= self.held.popitem(last=False)[1][1]
        return prepared

    def clear(self) -> None:
        self.held.clear()
        self.size = self.hits = self.misses = 0


#: Every metric's prepared references, by reference set and settings, across calls.
prepared_references = ReferenceCache()

#: How a reference set is prepared for scoring: ``prepare(metric, texts)``.
Preparer = Callable[[Metric[Any, Any, Any], tuple[str, ...]], Any]


class PreviousReference:
    """The reference set of the previous pair kept prepared, and no other: a table lists its candidates under their
    reference, so a run of rows shares one, and most of a long column's references differ from every other. Keeping
    one costs a comparison a pair where a cache of many costs its bookkeeping (it halves the rate at which a table of
    a reference per row is scored: benchmarks/README.md)."""

    def __init__(self) -> None:
        self.key: tuple[tuple[str, ...], Any] | None = None
        self.prepared: Any = None

    def __call__(self, metric: Metric[Any, Any, Any], texts: tuple[str, ...]) -> Any:
        key = (texts, metric.preparation)
        if key != self.key:
            self.key, self.prepared = None, None
            self.prepared = metric.prepare(texts)  # BleuError for a reference the metric cannot use: nothing kept
            self.key = key
        return self.prepared


Outcome = T | CellError | Blank


def score_pairs(
    pairs: Sequence[Pair],
    metric: Metric[Any, Any, Any],
    make: Callable[[Any, int], T],
    prepare: Preparer | None = None,
) -> list[Outcome[T]]:
    """``make(statistics, number of references)`` for every pair, or the pair's :class:`Blank` or error."""

    def stats(prepared: Any, candidate: str) -> T:
        return make(metric.pair_stats(prepared, candidate), len(prepared))

    return each_pair(pairs, metric, stats, prepare)


def each_pair(
    pairs: Sequence[Pair],
    metric: Metric[Any, Any, Any],
    make: Callable[[Any, str], T],
    prepare: Preparer | None = None,
) -> list[Outcome[T]]:
    """``make(prepared references, candidate text)`` for every pair, or the pair's :class:`Blank` or error (a
    reference the metric cannot use: its error, ``#VALUE! reference has no words`` under BLEU). References are
    prepared by ``prepare`` (by default through the cache shared by every call, :data:`prepared_references`)."""
    prepare = prepare or prepared_references
    results: list[Outcome[T]] = []
    last_refs: Any = None
    prepared: Any = value_error("reference is blank")
    for refs, cand in pairs:
        if type(cand) is not str or type(refs) is not tuple:  # a blank or an error on either side
            results.append(unscored(refs, cand))
            continue
        if refs is not last_refs:  # a reference repeated down a column is the same object: skip the lookup
            last_refs = refs
            try:
                prepared = prepare(metric, refs)
            except BleuError as error:
                prepared = value_error(str(error))
        if type(prepared) is CellError:
            results.append(prepared)
            continue
        try:
            results.append(make(prepared, cand))
        except BleuError as error:  # a candidate the metric cannot score (longer than TER aligns)
            results.append(value_error(str(error)))
    return results


def unscored(refs: ReferenceCells, cand: CandidateCell) -> CellError | Blank:
    """The result of a pair that cannot be scored: blank, an input error, or a blank reference."""
    if cand is None:
        return BLANK
    if isinstance(cand, CellError):
        return cand
    if isinstance(refs, CellError):
        return refs
    return value_error("reference is blank")


def reshape(values: list[Any], rows_cols: tuple[int, int]) -> Grid:
    rows, cols = rows_cols
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


# --- the functions --------------------------------------------------------------------------------------------

# What each of BLEU's single-value functions returns from a pair's Score (its precisions are only made for p1 and p2);
# None (an order left out) is a blank cell.
MEASURES: dict[str, Callable[[Score], float | None]] = {
    "bleu": lambda score: score.bleu,
    "p1": lambda score: score.p1,
    "p2": lambda score: score.p2,
    "bp": lambda score: score.bp,
}


def excel_safe(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn any failure of a cell function into one short ``#VALUE! ...`` text: never a traceback in a cell."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PassError as error:
            return error.error
        except (CellProblem, BleuError) as problem:
            return value_error(str(problem))
        except Exception as unexpected:  # a bug must still not show a traceback in a cell
            return value_error(f"unexpected {type(unexpected).__name__}")

    return wrapper


def pair_cells(
    metric: Metric[Any, Any, Any], reference: Any, candidate: Any, pick: Callable[[Any], Any] = float
) -> Any:
    """One value per pair, ``pick(score)`` (``None``: a blank cell), shaped like the input ranges."""
    pairs, rows_cols = pair_up(reference, candidate)

    def value(stats: Any, _: int) -> Any:
        picked = pick(metric.score_from_stats(stats))
        return BLANK if picked is None else picked

    return squeeze(reshape(score_pairs(pairs, metric, value), rows_cols))


def filled_rows(metric: Metric[Any, Any, Any], references: Any, *candidate_ranges: Any) -> list[tuple[Any, ...]]:
    """(prepared references, candidate, ...) for the rows where the reference and every candidate are filled in,
    the references prepared for ``metric`` (through the cache).

    Rows with a blank side are left out, the same way for every candidate range, whatever the other side holds (a
    lookup filled down gives #N/A beside the rows not used yet); an error cell of a row kept is returned as the
    result; a reference the metric cannot use (BLEU: no words) is reported with its pair number.
    """
    # The ranges as given: pairing would spread a single candidate cell over every reference.
    shapes = [(len(grid), len(grid[0])) for grid in map(as_grid, (references, *candidate_ranges))]
    if len(set(shapes[1:])) > 1 or (shapes[1] == (1, 1) and shapes[0][0] > 1):
        raise CellProblem(f"ranges differ in shape ({' vs '.join(f'{r}x{c}' for r, c in shapes)})")
    paired = [pair_up(references, candidates) for candidates in candidate_ranges]
    rows = []
    for index, row in enumerate(zip(*(pairs for pairs, _ in paired)), start=1):
        refs = row[0].references
        cands = [pair.candidate for pair in row]
        if refs is None or any(cand is None for cand in cands):
            continue
        for value in (*cands, refs):
            if isinstance(value, CellError):
                raise PassError(value)
        try:
            prepared = prepared_references(metric, refs)
        except BleuError as error:
            raise CellProblem(f"{error} (pair {index})") from None
        rows.append((prepared, *cands))
    return rows


def corpus_value(metric: Metric[Any, Any, Any], references: Any, candidates: Any) -> Any:
    """One corpus score over all pairs where both sides are filled in: their statistics added up, then the formula
    once; blank when there is no such pair."""
    rows = filled_rows(metric, references, candidates)
    if not rows:
        return BLANK
    return float(metric.score_from_stats(metric.sum_stats(metric.pair_stats(refs, cand) for refs, cand in rows)))


def bleu_metric(max_n: Any = 2, smoothing: Any = "add1", *, blank_max_n: int = 2) -> Bleu:
    """BLEU's settings as typed in cells: max_n 1 to 9 (``blank_max_n`` when blank: a function's own default),
    smoothing add1 or none (add1)."""
    return Bleu(parse_max_n(max_n, blank_max_n), parse_smoothing(smoothing))


def chrf_metric(char_order: Any = 6, word_order: Any = 0, beta: Any = 2) -> Chrf:
    """chrF's settings as typed in cells: char_order 1 to 9 (6), word_order 0 to 9 (0), beta 1 to 9 (2)."""
    return Chrf(parse_char_order(char_order), parse_word_order(word_order), parse_beta(beta))


def ter_metric(
    normalized: Any = False, no_punct: Any = False, asian_support: Any = False, case_sensitive: Any = False
) -> Ter:
    """TER's settings as typed in cells: four switches, TRUE or FALSE (all FALSE by default, sacrebleu's)."""
    return Ter(
        parse_flag(normalized, "normalized"),
        parse_flag(no_punct, "no_punct"),
        parse_flag(asian_support, "asian_support"),
        parse_flag(case_sensitive, "case_sensitive"),
    )


# --- BLEU -------------------------------------------------------------------------------------------------------


@excel_safe
def bleu_cells(reference: Any, candidate: Any, measure: str = "bleu", max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One value per pair: BLEU (or p1, p2, BP), shaped like the input ranges."""
    return pair_cells(bleu_metric(max_n, smoothing), reference, candidate, MEASURES[measure])


@excel_safe
def bleu_n_cells(reference: Any, candidate: Any, max_n: Any = 4, smoothing: Any = "add1") -> Any:
    """One BLEU-N per pair, shaped like the input ranges: BLEU-4 when max_n is omitted or blank."""
    return pair_cells(bleu_metric(max_n, smoothing, blank_max_n=4), reference, candidate, MEASURES["bleu"])


@excel_safe
def detail_cells(reference: Any, candidate: Any, headers: Any = False) -> Any:
    """One row per pair: BLEU2, p1, p1 num, p1 den, p2, p2 num, p2 den, BP, r, c (header row first if asked)."""
    pairs, _ = pair_up(reference, candidate)
    width = len(DETAIL_HEADERS)
    rows = [
        row if isinstance(row, list) else [row] + [BLANK] * (width - 1)
        for row in score_pairs(pairs, BLEU_2, lambda stats, _: detail_values(BLEU_2.score_from_stats(stats)))
    ]
    if parse_flag(headers, "headers"):
        rows.insert(0, list(DETAIL_HEADERS))
    return squeeze(rows)


def detail_values(score: Score) -> list[float | int | Blank]:
    """A pair's row of BLEU2_DETAIL: its BLEU, then its detail (an order left out as a blank cell)."""
    return [score.bleu, *(BLANK if value is None else value for value in BLEU_2.detail_values(score))]


@excel_safe
def corpus_cells(references: Any, candidates: Any, max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One corpus-level BLEU over all pairs where both sides are filled in."""
    return corpus_value(bleu_metric(max_n, smoothing), references, candidates)


@excel_safe
def explain_cells(reference: Any, candidate: Any) -> Any:
    """One short text per pair: the words missing and extra, the bigrams missed."""
    pairs, rows_cols = pair_up(reference, candidate)

    def summary(refs: References, cand: str) -> str:
        text = explain(refs, cand).summary()
        return text if fit_cell(text) == text else fit_cell(text, EXCEL_MAX_TEXT - 1) + "…"

    return squeeze(reshape(each_pair(pairs, BLEU_2, summary), rows_cols))


@excel_safe
def ci_cells(references: Any, candidates: Any, level: Any = 0.95, samples: Any = 1000, paired_with: Any = None) -> Any:
    """Corpus BLEU-2 with its bootstrap interval, as a row: low, score, high. With ``paired_with`` (the other side
    of a paired test), only the rows where both sides are filled, the pairs :func:`paired_cells` compares."""
    others = () if paired_with is None else (paired_with,)
    rows = filled_rows(BLEU_2, references, candidates, *others)
    if not rows:
        return BLANK
    prepared, cands = zip(*(row[:2] for row in rows))
    chosen = parse_level(level)  # an interval takes as many resamples as leave each tail one of its own
    resampling = Resampling(BLEU_2, level=chosen, samples=parse_samples(samples, interval_draws(chosen)))
    interval = resampling.interval(prepared, cands)
    return [[interval.low, interval.score, interval.high]]


@excel_safe
def paired_cells(references: Any, candidates_a: Any, candidates_b: Any, samples: Any = 1000) -> Any:
    """Paired bootstrap test of two candidate columns, as a row: score A, score B, difference, p-value."""
    rows = filled_rows(BLEU_2, references, candidates_a, candidates_b)
    if not rows:
        return BLANK
    prepared, cands_a, cands_b = zip(*rows)
    draws = parse_samples(samples, MIN_PAIRED_DRAWS)
    result = Resampling(BLEU_2, samples=draws).paired(prepared, cands_a, cands_b)
    return [[result.score_a, result.score_b, result.difference, result.p_value]]


@excel_safe
def tokens_cells(text: Any, separator: Any = None) -> Any:
    """Without a separator, one text: its tokens as a row. With one, or a range: each cell's tokens joined (by a
    space when none is given: xlwings hands an empty separator over as none), same shape."""
    grid = as_grid(text)
    if separator is None and len(grid) == 1 and len(grid[0]) == 1:
        value = cell_text(grid[0][0])
        if value is None:
            return BLANK
        if isinstance(value, CellError):
            return value
        tokens = tokenize(value)
        if len(tokens) > EXCEL_MAX_COLUMNS:
            raise CellProblem(f"{len(tokens):,} tokens do not fit in a row of {EXCEL_MAX_COLUMNS:,}: give a separator")
        return squeeze([tokens or [BLANK]])
    separator = setting(separator, "separator", None) if separator is not None else " "
    # A separator is used as typed (a tab, a space); an empty one would glue the tokens together: use a space.
    sep = (separator if isinstance(separator, str) else cell_text(separator)) or " "
    out = []
    for row in grid:
        out_row = []
        for value in row:
            cell = cell_text(value)
            if cell is None or isinstance(cell, CellError):
                out_row.append(BLANK if cell is None else cell)
                continue
            joined = sep.join(tokenize(cell))
            out_row.append(joined if fit_cell(joined) == joined else value_error("tokens too long for a cell"))
        out.append(out_row)
    return squeeze(out)


@excel_safe
def signature_cell(max_n: Any = 2, smoothing: Any = "add1", refs: Any = 1) -> str:
    """The signature string of these settings (by default BLEU-2, add-1, one reference)."""
    metric = bleu_metric(max_n, smoothing)
    return metric.signature(parse_refs(refs))


# --- chrF -------------------------------------------------------------------------------------------------------


@excel_safe
def chrf_cells(reference: Any, candidate: Any, char_order: Any = 6, word_order: Any = 0, beta: Any = 2) -> Any:
    """One chrF per pair, from 0 to 1, shaped like the input ranges (chrF2 by default, chrF++ with word_order 2)."""
    return pair_cells(chrf_metric(char_order, word_order, beta), reference, candidate)


@excel_safe
def chrf_corpus_cells(references: Any, candidates: Any, char_order: Any = 6, word_order: Any = 0, beta: Any = 2) -> Any:
    """One corpus-level chrF over all pairs where both sides are filled in: counts added up, then one F."""
    return corpus_value(chrf_metric(char_order, word_order, beta), references, candidates)


@excel_safe
def chrf_signature_cell(char_order: Any = 6, word_order: Any = 0, beta: Any = 2, refs: Any = 1) -> str:
    """The chrF signature of these settings (by default chrF2, one reference)."""
    metric = chrf_metric(char_order, word_order, beta)
    return metric.signature(parse_refs(refs))


# --- TER --------------------------------------------------------------------------------------------------------


@excel_safe
def ter_cells(
    reference: Any,
    candidate: Any,
    normalized: Any = False,
    no_punct: Any = False,
    asian_support: Any = False,
    case_sensitive: Any = False,
) -> Any:
    """One TER per pair (edits per reference word: 0 is identical, lower is better), shaped like the input ranges."""
    return pair_cells(ter_metric(normalized, no_punct, asian_support, case_sensitive), reference, candidate)


@excel_safe
def ter_corpus_cells(
    references: Any,
    candidates: Any,
    normalized: Any = False,
    no_punct: Any = False,
    asian_support: Any = False,
    case_sensitive: Any = False,
) -> Any:
    """One corpus-level TER over all pairs where both sides are filled in: edits and lengths added up, then one
    division."""
    return corpus_value(ter_metric(normalized, no_punct, asian_support, case_sensitive), references, candidates)


@excel_safe
def ter_changes_cells(
    reference: Any,
    candidate: Any,
    normalized: Any = False,
    no_punct: Any = False,
    asian_support: Any = False,
    case_sensitive: Any = False,
) -> Any:
    """One text per pair: the candidate's words as TER aligns them to its closest reference, ``[-deleted-]``,
    ``{+inserted+}`` and ``{>moved<}`` marked, shaped like the input ranges."""
    metric = ter_metric(normalized, no_punct, asian_support, case_sensitive)
    pairs, rows_cols = pair_up(reference, candidate)

    def marked(refs: Any, cand: str) -> str:
        changes = metric.pair_stats(refs, cand).changes
        text = changes.text if changes is not None else ""
        return text if fit_cell(text) == text else fit_cell(text, EXCEL_MAX_TEXT - 1) + "…"

    return squeeze(reshape(each_pair(pairs, metric, marked), rows_cols))


@excel_safe
def ter_signature_cell(
    normalized: Any = False,
    no_punct: Any = False,
    asian_support: Any = False,
    case_sensitive: Any = False,
    refs: Any = 1,
) -> str:
    """The TER signature of these settings (by default sacrebleu's, one reference)."""
    metric = ter_metric(normalized, no_punct, asian_support, case_sensitive)
    return metric.signature(parse_refs(refs))


def parse_refs(value: Any) -> int:
    """The number of references a signature names: 1 to 16,384, as many as a row of Excel holds (a reference set is
    a row of cells)."""
    return parse_whole(value, 1, "refs", 1, EXCEL_MAX_COLUMNS)
