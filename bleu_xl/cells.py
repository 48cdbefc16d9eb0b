"""Spreadsheet semantics shared by every Excel face: cell values to text, blanks, error cells, ranges, results.

The classic xlwings add-in (``udfs``) and the xlwings Lite bundle (``lite``) only declare functions and call the
``*_cells`` functions here, so a formula behaves the same wherever it runs. Inputs are what xlwings hands a
function (a scalar for one cell, a list of row lists for a range); outputs are a scalar for one cell or a list of
row lists that Excel spills. Nothing here raises: every failure becomes one short ``#VALUE! ...`` text.
Standard library only (it is inlined into the Lite bundle).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .bleu import (
    MAX_ORDER,
    SMOOTHING_METHODS,
    BleuError,
    Parts,
    References,
    Stats,
    bleu_parts,
    pair_stats,
    signature,
    sum_stats,
)
from .compare import bootstrap_ci, paired_test
from .explain import explain
from .tokenizer import tokenize

__all__ = [
    "DETAIL_HEADERS",
    "CellError",
    "bleu_cells",
    "cell_text",
    "ci_cells",
    "corpus_cells",
    "detail_cells",
    "detail_values",
    "excel_safe",
    "explain_cells",
    "general_format",
    "paired_cells",
    "signature_cell",
    "tokens_cells",
]

Grid = list[list[Any]]
T = TypeVar("T")

#: Excel's error values as pywin32 hands them over (ints) and as their text.
ERROR_CODES = {
    -2146826281: "#DIV/0!",
    -2146826246: "#N/A",
    -2146826259: "#NAME?",
    -2146826288: "#NULL!",
    -2146826252: "#NUM!",
    -2146826265: "#REF!",
    -2146826273: "#VALUE!",
}
ERROR_TEXTS = frozenset(
    [*ERROR_CODES.values(), "#SPILL!", "#CALC!", "#GETTING_DATA", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!"]
)
DETAIL_HEADERS = ["BLEU2", "p1", "p1 num", "p1 den", "p2", "p2 num", "p2 den", "BP", "r", "c"]
BLANK = ""
REFERENCE_CACHE_SIZE = 4096
MAX_SAMPLES = 100_000  # bounds time, not memory (resamples come one at a time): 12 s for 1,000 pairs


class CellError(str):
    """An error result: an input cell's error (``#N/A``) carried through, or ``#VALUE!`` with a short message.

    A ``str`` so that a classic cell shows it as it is (``#VALUE! reference is blank``); ``code`` and ``message``
    are its parts, so the other faces test the type and read the fields instead of parsing the text.
    """

    code: str
    message: str

    def __new__(cls, code: str, message: str = "") -> CellError:
        self = super().__new__(cls, f"{code} {message}" if message else code)
        self.code = code
        self.message = message
        return self

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # pickled between processes
        return self.code, self.message


class CellProblem(Exception):
    """A problem with the input that becomes a ``#VALUE! ...`` result."""


class PassError(Exception):
    """An error value in an input cell (#N/A...) that becomes the whole result."""


def value_error(message: str) -> CellError:
    return CellError("#VALUE!", message)


# --- one cell ---------------------------------------------------------------------------------------------------


def general_format(number: float) -> str:
    """A number as Excel's General format writes it into text: 2026.0 -> "2026", 0.5 -> "0.5", 15 digits."""
    if math.isnan(number) or math.isinf(number):
        return str(number)
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.15g}".replace("e", "E")


def cell_text(value: Any) -> str | CellError | None:
    """The text of one cell as bleu-xl scores it; ``None`` for a blank cell, a :class:`CellError` for an error."""
    if value is None:
        return None
    if isinstance(value, str):
        if value in ERROR_TEXTS:
            return CellError(value)
        return value if value.strip() else None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        if value in ERROR_CODES:
            return CellError(ERROR_CODES[value])
        return str(value)
    if isinstance(value, float):
        return general_format(value)
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


# --- ranges -----------------------------------------------------------------------------------------------------


def as_grid(value: Any) -> Grid:
    """A cell value or range as a list of row lists (a flat sequence is one row, as xlwings reads it)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return [[None]]
        if isinstance(value[0], (list, tuple)):
            return [list(row) for row in value]
        return [list(value)]
    return [[value]]


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


def pair_up(reference: Any, candidate: Any) -> tuple[list[tuple[Any, Any]], tuple[int, int]]:
    """Pair references with candidates as the Excel functions do; returns the pairs (row-major) and the shape.

    - equal shapes pair cell by cell, and a single cell pairs with every cell of the other;
    - a reference range wider than a single-column candidate holds several references: each row is the
      reference set of that row's candidate, or a single row is the reference set of every candidate.
    Each pair is (reference set or error or None, candidate text or error or None).
    """
    refs, cands = as_grid(reference), as_grid(candidate)
    (rr, rc), (cr, cc) = (len(refs), len(refs[0])), (len(cands), len(cands[0]))  # as_grid: never empty
    cand_cells = [cell_text(v) for row in cands for v in row]
    if cc == 1 and rc > 1 and rr in (1, cr):
        sets = [reference_set(row) for row in refs]
        return [(sets[i if rr > 1 else 0], c) for i, c in enumerate(cand_cells)], (cr, 1)
    ref_cells = [reference_set([v]) for row in refs for v in row]
    if (rr, rc) == (cr, cc):
        return list(zip(ref_cells, cand_cells)), (cr, cc)
    if (rr, rc) == (1, 1):
        return [(ref_cells[0], c) for c in cand_cells], (cr, cc)
    if (cr, cc) == (1, 1):
        return [(r, cand_cells[0]) for r in ref_cells], (rr, rc)
    raise CellProblem(f"ranges differ in shape ({rr}x{rc} vs {cr}x{cc})")


@functools.lru_cache(maxsize=REFERENCE_CACHE_SIZE)
def prepared_references(texts: tuple[str, ...], max_n: int) -> References:
    """Reference statistics, tokenized once per distinct reference set and order (bounded LRU cache)."""
    return References(texts, max_n)


def score_pairs(pairs: list[tuple[Any, Any]], max_n: int, make: Callable[[Stats, int], T]) -> list[T | str]:
    """``make(stats, number of references)`` for every pair, or the pair's blank or error text."""
    results: list[T | str] = []
    last_refs: Any = None
    prepared: References | CellError = value_error("reference is blank")
    count = 0
    for refs, cand in pairs:
        # Plain text on both sides is the common case; CellError is a str subclass, so it is not plain here.
        if type(cand) is not str or type(refs) is not tuple:
            results.append(check_pair(refs, cand))
            continue
        if refs is not last_refs:  # a reference repeated down a column is the same object: skip the lookup
            last_refs = refs
            try:
                prepared = prepared_references(refs, max_n)
                count = len(prepared)
            except BleuError:
                prepared = value_error("reference has no words")
        if isinstance(prepared, CellError):
            results.append(prepared)
        else:
            results.append(make(pair_stats(prepared, tokenize(cand)), count))
    return results


def check_pair(refs: Any, cand: Any) -> str | CellError:
    """The result text of a pair that cannot be scored: blank, an input error, or a blank reference."""
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


# --- settings given in cells ----------------------------------------------------------------------------------


def pass_setting_error(value: Any) -> None:
    """An error cell given as a setting (``=BLEU(ref, cand, #N/A)``) becomes the whole result, never the default."""
    if not isinstance(value, (list, tuple)) and isinstance(text := cell_text(value), CellError):
        raise PassError(text)


def parse_whole(value: Any, default: int, name: str, low: int = 1, high: int | None = None) -> int:
    """A whole number typed in a cell (Excel hands over 4.0); blank or omitted gives ``default``."""
    pass_setting_error(value)
    if value is None or value == "":
        return default
    whole = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not whole or value != int(value) or value < low or (high is not None and value > high):
        limits = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise CellProblem(f"{name} must be a whole number {limits}")
    return int(value)


def parse_smoothing(value: Any) -> str:
    pass_setting_error(value)
    if value is None or value == "":
        return "add1"
    text = str(value).strip().lower()
    if text not in SMOOTHING_METHODS:
        raise CellProblem(f"smoothing must be {' or '.join(SMOOTHING_METHODS)}")
    return text


def parse_flag(value: Any) -> bool:
    pass_setting_error(value)
    if value is None or value == "":
        return False
    if isinstance(value, str):
        return value.strip().upper() in ("TRUE", "1", "YES")
    return bool(value)


# --- the functions --------------------------------------------------------------------------------------------

# What each single-value function returns, from the formulas' parts (no Score object: the hot path of a sheet).
MEASURES: dict[str, Callable[[Parts], float]] = {
    "bleu": lambda parts: parts.bleu,
    "p1": lambda parts: parts.precisions[0].value,
    "p2": lambda parts: parts.precisions[1].value,
    "bp": lambda parts: parts.bp,
}


def excel_safe(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn any failure of a cell function into one short ``#VALUE! ...`` text: never a traceback in a cell."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PassError as error:
            return error.args[0]
        except (CellProblem, BleuError) as problem:
            return value_error(str(problem))
        except Exception as unexpected:  # a bug must still not show a traceback in a cell
            return value_error(f"unexpected {type(unexpected).__name__}")

    return wrapper


@excel_safe
def bleu_cells(reference: Any, candidate: Any, measure: str = "bleu", max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One value per pair: BLEU (or p1, p2, BP), shaped like the input ranges."""
    order = parse_whole(max_n, 2, "max_n", 1, MAX_ORDER)
    method = parse_smoothing(smoothing)
    pairs, rows_cols = pair_up(reference, candidate)
    pick = MEASURES[measure]
    values = score_pairs(pairs, order, lambda stats, _: pick(bleu_parts(stats, method)))
    return squeeze(reshape(values, rows_cols))


def detail_values(stats: Stats, max_n: int = 2, smoothing: str = "add1") -> list[Any]:
    """BLEU, then value, numerator and denominator per order, then BP, r, c: BLEU2_DETAIL's row, the CLI's columns."""
    parts = bleu_parts(stats, smoothing)
    row: list[Any] = [parts.bleu]
    for p in parts.precisions:
        row += (p.value, p.numerator, p.denominator)
    return [*row, parts.bp, stats.r, stats.c]


@excel_safe
def detail_cells(reference: Any, candidate: Any, headers: Any = False) -> Any:
    """One row per pair: BLEU2, p1, p1 num, p1 den, p2, p2 num, p2 den, BP, r, c (header row first if asked)."""
    pairs, _ = pair_up(reference, candidate)
    rows = [
        row if isinstance(row, list) else [row] + [BLANK] * (len(DETAIL_HEADERS) - 1)
        for row in score_pairs(pairs, 2, lambda stats, _: detail_values(stats))
    ]
    if parse_flag(headers):
        rows.insert(0, list(DETAIL_HEADERS))
    return squeeze(rows)


def filled_rows(references: Any, *candidate_ranges: Any, max_n: int) -> list[tuple[Any, ...]]:
    """(prepared references, candidate, ...) for the rows where the reference and every candidate are filled in.

    Rows with a blank side are left out, the same way for every candidate range; an error cell is returned as
    the result; a reference with no words is reported with its pair number.
    """
    paired = [pair_up(references, candidates) for candidates in candidate_ranges]
    shapes = [f"{rows}x{cols}" for _, (rows, cols) in paired]
    if len(set(shapes)) > 1:
        raise CellProblem(f"candidate ranges differ in shape ({' vs '.join(shapes)})")
    rows = []
    for index, row in enumerate(zip(*(pairs for pairs, _ in paired)), start=1):
        refs = row[0][0]
        cands = [cand for _, cand in row]
        for value in (*cands, refs):
            if isinstance(value, CellError):
                raise PassError(value)
        if refs is None or any(cand is None for cand in cands):
            continue
        try:
            prepared = prepared_references(refs, max_n)
        except BleuError:
            raise CellProblem(f"reference has no words (pair {index})") from None
        rows.append((prepared, *cands))
    return rows


@excel_safe
def corpus_cells(references: Any, candidates: Any, max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One corpus-level BLEU over all pairs where both sides are filled in."""
    order = parse_whole(max_n, 2, "max_n", 1, MAX_ORDER)
    method = parse_smoothing(smoothing)
    rows = filled_rows(references, candidates, max_n=order)
    if not rows:
        return BLANK
    stats = [pair_stats(prepared, tokenize(cand)) for prepared, cand in rows]
    return bleu_parts(sum_stats(stats, order), method).bleu


@excel_safe
def explain_cells(reference: Any, candidate: Any) -> Any:
    """One short text per pair: the words missing and extra, the bigrams missed."""
    pairs, rows_cols = pair_up(reference, candidate)
    texts = []
    for refs, cand in pairs:
        if type(cand) is not str or type(refs) is not tuple:
            texts.append(check_pair(refs, cand))
            continue
        try:
            texts.append(explain(refs, cand).summary())
        except BleuError:
            texts.append(value_error("reference has no words"))
    return squeeze(reshape(texts, rows_cols))


def parse_level(value: Any) -> float:
    pass_setting_error(value)
    if value is None or value == "":
        return 0.95
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise CellProblem("level must be between 0 and 1, e.g. 0.95")
    return float(value)


def parse_samples(value: Any) -> int:
    return parse_whole(value, 1000, "samples", 1, MAX_SAMPLES)


@excel_safe
def ci_cells(references: Any, candidates: Any, level: Any = 0.95, samples: Any = 1000) -> Any:
    """Corpus BLEU-2 with its bootstrap interval, as a row: low, score, high."""
    rows = filled_rows(references, candidates, max_n=2)
    if not rows:
        return BLANK
    references, cands = zip(*rows)
    interval = bootstrap_ci(references, cands, level=parse_level(level), samples=parse_samples(samples))
    return [[interval.low, interval.score, interval.high]]


@excel_safe
def paired_cells(references: Any, candidates_a: Any, candidates_b: Any, samples: Any = 1000) -> Any:
    """Paired bootstrap test of two candidate columns, as a row: score A, score B, difference, p-value."""
    rows = filled_rows(references, candidates_a, candidates_b, max_n=2)
    if not rows:
        return BLANK
    references, cands_a, cands_b = zip(*rows)
    result = paired_test(references, cands_a, cands_b, samples=parse_samples(samples))
    return [[result.score_a, result.score_b, result.difference, result.p_value]]


@excel_safe
def tokens_cells(text: Any, separator: Any = None) -> Any:
    """Without a separator: the tokens of one text as a row. With one: each cell's tokens joined, same shape."""
    grid = as_grid(text)
    if separator is None:
        if len(grid) != 1 or len(grid[0]) != 1:
            raise CellProblem("give a separator to tokenize a range")
        value = cell_text(grid[0][0])
        if value is None or isinstance(value, CellError):
            return value or BLANK
        return squeeze([tokenize(value) or [BLANK]])
    pass_setting_error(separator)
    # A separator is used as typed (a tab, a space); an empty one would glue the tokens together: use a space.
    sep = (separator if isinstance(separator, str) else cell_text(separator)) or " "
    out = []
    for row in grid:
        out_row = []
        for value in row:
            cell = cell_text(value)
            out_row.append(cell if isinstance(cell, CellError) else sep.join(tokenize(cell)) if cell else BLANK)
        out.append(out_row)
    return squeeze(out)


@excel_safe
def signature_cell(max_n: Any = 2, smoothing: Any = "add1", refs: Any = 1) -> str:
    """The signature string of these settings (by default BLEU-2, add-1, one reference)."""
    order = parse_whole(max_n, 2, "max_n", 1, MAX_ORDER)
    method = parse_smoothing(smoothing)
    return signature(order, method, parse_whole(refs, 1, "refs"))
