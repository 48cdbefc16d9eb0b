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
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from ..core.bleu import (
    References,
    Score,
    Stats,
    pair_stats,
    score_from_stats,
    signature,
    sum_stats,
)
from ..core.bootstrap import bootstrap_ci, paired_test
from ..core.chrf import ChrfReferences, ChrfStats, chrf_from_stats, chrf_pair_stats, chrf_signature, sum_chrf_stats
from ..core.errors import BleuError
from ..core.explain import explain
from ..core.tokenizer import tokenize
from .cell_values import (
    EXCEL_MAX_TEXT,
    Blank,
    CellError,
    CellProblem,
    ColumnKind,
    DetailColumn,
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
    "Pair",
    "bleu_cells",
    "chrf_cells",
    "chrf_corpus_cells",
    "chrf_signature_cell",
    "ci_cells",
    "corpus_cells",
    "detail_cells",
    "detail_columns",
    "detail_row",
    "each_chrf_pair",
    "each_pair",
    "excel_safe",
    "explain_cells",
    "paired_cells",
    "prepared_chrf_references",
    "reference_set",
    "score_pairs",
    "signature_cell",
    "tokens_cells",
]


T = TypeVar("T")
P = TypeVar("P")

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


# --- the detail columns -----------------------------------------------------------------------------------------


def detail_columns(max_n: int = 2) -> tuple[DetailColumn, ...]:
    """The columns after a pair's score: value, numerator and denominator per order, then BP, r, c."""
    columns: list[DetailColumn] = []
    for n in range(1, max_n + 1):
        columns += [
            DetailColumn(f"p{n}", ColumnKind.SCORE),
            DetailColumn(f"p{n} num", ColumnKind.COUNT),
            DetailColumn(f"p{n} den", ColumnKind.COUNT),
        ]
    return (
        *columns,
        DetailColumn("BP", ColumnKind.SCORE),
        DetailColumn("r", ColumnKind.COUNT),
        DetailColumn("c", ColumnKind.COUNT),
    )


def detail_row(score: Score) -> list[float | int | None]:
    """A score's values in the order of :func:`detail_columns`; the value of an order left out (the candidate
    has no n-gram of it) is ``None``, a blank cell, beside its numerator 0 and denominator 0."""
    row: list[float | int | None] = []
    for p in score.precisions:
        row += (p.value, p.numerator, p.denominator)
    return [*row, score.bp, score.r, score.c]


#: BLEU2_DETAIL's header row: the score, then the detail columns of BLEU-2.
DETAIL_HEADERS = ["BLEU2", *(column.name for column in detail_columns(2))]


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
      reference set of that row's candidate, or a single row is the reference set of every candidate.
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


def held_size(texts: tuple[str, ...], prepared: References) -> int:
    """The bytes a cached reference set holds: its texts, its tokens and its n-gram tables (each table and its
    tuples; the tuples share the tokens' strings). At least what the objects really take: a 32,767-character CJK
    reference prepared to the 9-grams holds about 34 MiB, 50 times what it holds to the bigrams."""
    size = sum(map(sys.getsizeof, texts)) + sys.getsizeof(prepared.tokens)
    for words in prepared.tokens:
        size += sys.getsizeof(words) + sum(map(sys.getsizeof, words))
    empty = sys.getsizeof(())
    for n, counts in enumerate(prepared.max_counts, start=1):
        size += sys.getsizeof(counts) + len(counts) * (empty + 8 * n)
    return size


class ReferenceCache(Generic[P]):
    """Prepared references by reference set and settings, the least recently used dropped first, bounded by their
    number and by the memory they hold (``size(texts, prepared)``, in bytes; by default :func:`held_size`). A
    reference set larger than the whole budget is prepared and not kept. ``prepare(texts, settings)`` makes one
    (by default BLEU's :class:`References` of order ``settings``)."""

    def __init__(
        self,
        entries: int = REFERENCE_CACHE_SIZE,
        limit: int = REFERENCE_CACHE_BYTES,
        prepare: Callable[[tuple[str, ...], Any], P] = References,  # type: ignore[assignment]
        size: Callable[[tuple[str, ...], P], int] = held_size,  # type: ignore[assignment]
    ) -> None:
        self.entries, self.limit, self.prepare, self.measure = entries, limit, prepare, size
        self.held: OrderedDict[tuple[tuple[str, ...], Any], tuple[P, int]] = OrderedDict()
        self.size = 0  # bytes held
        self.hits = self.misses = 0

    def __call__(self, texts: tuple[str, ...], settings: Any) -> P:
        key = (texts, settings)
        if key in self.held:
            self.hits += 1
            self.held.move_to_end(key)
            return self.held[key][0]
        self.misses += 1
        prepared = self.prepare(texts, settings)  # BleuError for a reference with no words: nothing kept
        size = self.measure(texts, prepared)
        if size <= self.limit:
            self.held[key] = prepared, size
            self.size += size
            while len(self.held) > self.entries or self.size > self.limit:
                self.size -= self.held.popitem(last=False)[1][1]
        return prepared

    def clear(self) -> None:
        self.held.clear()
        self.size = self.hits = self.misses = 0


#: Reference statistics, tokenized once per distinct reference set and order, across calls.
prepared_references: ReferenceCache[References] = ReferenceCache()


Outcome = T | CellError | Blank


def score_pairs(pairs: Sequence[Pair], max_n: int, make: Callable[[Stats, int], T]) -> list[Outcome[T]]:
    """``make(stats, number of references)`` for every pair, or the pair's :class:`Blank` or error."""
    return each_pair(pairs, max_n, lambda refs, cand: make(pair_stats(refs, tokenize(cand)), len(refs)))


def each_pair(pairs: Sequence[Pair], max_n: int, make: Callable[[References, str], T]) -> list[Outcome[T]]:
    """``make(prepared references, candidate text)`` for every pair, or the pair's :class:`Blank` or error."""
    return each_prepared(pairs, functools.partial(_prepared_bleu, max_n=max_n), make)


def _prepared_bleu(texts: tuple[str, ...], max_n: int) -> References | CellError:
    try:
        return prepared_references(texts, max_n)
    except BleuError:
        return value_error("reference has no words")


def each_prepared(
    pairs: Sequence[Pair], prepare: Callable[[tuple[str, ...]], P | CellError], make: Callable[[P, str], T]
) -> list[Outcome[T]]:
    """``make(prepare(reference texts), candidate text)`` for every pair, or the pair's :class:`Blank` or error
    (``prepare`` may give the error of a reference it cannot use)."""
    results: list[Outcome[T]] = []
    last_refs: Any = None
    prepared: P | CellError = value_error("reference is blank")
    for refs, cand in pairs:
        if type(cand) is not str or type(refs) is not tuple:  # a blank or an error on either side
            results.append(unscored(refs, cand))
            continue
        if refs is not last_refs:  # a reference repeated down a column is the same object: skip the lookup
            last_refs = refs
            prepared = prepare(refs)
        results.append(prepared if type(prepared) is CellError else make(prepared, cand))  # type: ignore[arg-type]
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

# What each single-value function returns from a pair's Score (its precisions are only made for p1 and p2);
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


@excel_safe
def bleu_cells(reference: Any, candidate: Any, measure: str = "bleu", max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One value per pair: BLEU (or p1, p2, BP), shaped like the input ranges."""
    order = parse_max_n(max_n)
    method = parse_smoothing(smoothing)
    pairs, rows_cols = pair_up(reference, candidate)
    pick = MEASURES[measure]

    def value(stats: Stats, _: int) -> float | Blank:
        picked = pick(score_from_stats(stats, smoothing=method))
        return BLANK if picked is None else picked

    return squeeze(reshape(score_pairs(pairs, order, value), rows_cols))


@excel_safe
def detail_cells(reference: Any, candidate: Any, headers: Any = False) -> Any:
    """One row per pair: BLEU2, p1, p1 num, p1 den, p2, p2 num, p2 den, BP, r, c (header row first if asked)."""
    pairs, _ = pair_up(reference, candidate)
    width = len(DETAIL_HEADERS)
    rows = [
        row if isinstance(row, list) else [row] + [BLANK] * (width - 1)
        for row in score_pairs(pairs, 2, lambda stats, _: detail_values(score_from_stats(stats)))
    ]
    if parse_flag(headers, "headers"):
        rows.insert(0, list(DETAIL_HEADERS))
    return squeeze(rows)


def detail_values(score: Score) -> list[float | int | Blank]:
    """A pair's row of BLEU2_DETAIL: its BLEU, then :func:`detail_row` (an order left out as a blank cell)."""
    return [score.bleu, *(BLANK if value is None else value for value in detail_row(score))]


def filled_rows(
    references: Any, *candidate_ranges: Any, prepare: Callable[[tuple[str, ...]], Any]
) -> list[tuple[Any, ...]]:
    """(prepared references, candidate, ...) for the rows where the reference and every candidate are filled in,
    the references prepared by ``prepare`` (:func:`bleu_references` for BLEU).

    Rows with a blank side are left out, the same way for every candidate range; an error cell is returned as
    the result; a reference ``prepare`` refuses (BLEU: no words) is reported with its pair number.
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
        for value in (*cands, refs):
            if isinstance(value, CellError):
                raise PassError(value)
        if refs is None or any(cand is None for cand in cands):
            continue
        try:
            prepared = prepare(refs)
        except BleuError as error:
            raise CellProblem(f"{error} (pair {index})") from None
        rows.append((prepared, *cands))
    return rows


def bleu_references(max_n: int) -> Callable[[tuple[str, ...]], References]:
    """How :func:`filled_rows` prepares BLEU's references of order ``max_n`` (through the cache)."""
    return functools.partial(prepared_references, settings=max_n)


@excel_safe
def corpus_cells(references: Any, candidates: Any, max_n: Any = 2, smoothing: Any = "add1") -> Any:
    """One corpus-level BLEU over all pairs where both sides are filled in."""
    order = parse_max_n(max_n)
    method = parse_smoothing(smoothing)
    rows = filled_rows(references, candidates, prepare=bleu_references(order))
    if not rows:
        return BLANK
    stats = [pair_stats(prepared, tokenize(cand)) for prepared, cand in rows]
    return score_from_stats(sum_stats(stats, order), smoothing=method).bleu


@excel_safe
def explain_cells(reference: Any, candidate: Any) -> Any:
    """One short text per pair: the words missing and extra, the bigrams missed."""
    pairs, rows_cols = pair_up(reference, candidate)

    def summary(refs: References, cand: str) -> str:
        text = explain(refs, cand).summary()
        return text if fit_cell(text) == text else fit_cell(text, EXCEL_MAX_TEXT - 1) + "…"

    return squeeze(reshape(each_pair(pairs, 2, summary), rows_cols))


@excel_safe
def ci_cells(references: Any, candidates: Any, level: Any = 0.95, samples: Any = 1000) -> Any:
    """Corpus BLEU-2 with its bootstrap interval, as a row: low, score, high."""
    rows = filled_rows(references, candidates, prepare=bleu_references(2))
    if not rows:
        return BLANK
    references, cands = zip(*rows)
    interval = bootstrap_ci(references, cands, level=parse_level(level), samples=parse_samples(samples))
    return [[interval.low, interval.score, interval.high]]


@excel_safe
def paired_cells(references: Any, candidates_a: Any, candidates_b: Any, samples: Any = 1000) -> Any:
    """Paired bootstrap test of two candidate columns, as a row: score A, score B, difference, p-value."""
    rows = filled_rows(references, candidates_a, candidates_b, prepare=bleu_references(2))
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
        if value is None:
            return BLANK
        if isinstance(value, CellError):
            return value
        tokens = tokenize(value)
        if len(tokens) > EXCEL_MAX_COLUMNS:
            raise CellProblem(f"{len(tokens):,} tokens do not fit in a row of {EXCEL_MAX_COLUMNS:,}: give a separator")
        return squeeze([tokens or [BLANK]])
    separator = setting(separator, "separator", None)
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
    order = parse_max_n(max_n)
    method = parse_smoothing(smoothing)
    return signature(order, method, parse_whole(refs, 1, "refs"))


# --- chrF -------------------------------------------------------------------------------------------------------

#: What a prepared chrF reference holds at most, per character and order: a count per n-gram, made when a candidate
#: first needs that order (119 bytes measured for CJK text where every n-gram differs, at orders 1 to 9; words
#: take less), and a few characters' worth per text besides.
CHRF_BYTES_PER_CHARACTER_ORDER = 128
#: And per character whatever the orders: the character as an object of its own in a list (CJK text; 76 to 80
#: bytes measured for characters beyond the Basic Multilingual Plane), or its id and its 8-byte window.
CHRF_BYTES_PER_CHARACTER = 96

ChrfOrders = tuple[int, int]  # (char_order, word_order)


def _make_chrf_references(texts: tuple[str, ...], orders: ChrfOrders) -> ChrfReferences:
    return ChrfReferences(texts, *orders)


def chrf_held_size(texts: tuple[str, ...], prepared: ChrfReferences) -> int:
    """The bytes a chrF reference set holds once every order is counted (its counts grow after it is cached)."""
    orders = prepared.char_order + prepared.word_order
    return sum(len(text) + 8 for text in texts) * (CHRF_BYTES_PER_CHARACTER_ORDER * orders + CHRF_BYTES_PER_CHARACTER)


#: chrF's prepared references by reference set and orders, across calls.
prepared_chrf_references: ReferenceCache[ChrfReferences] = ReferenceCache(
    prepare=_make_chrf_references, size=chrf_held_size
)


def chrf_references(orders: ChrfOrders) -> Callable[[tuple[str, ...]], ChrfReferences]:
    """How :func:`filled_rows` and :func:`each_chrf_pair` prepare chrF's references (through the cache). Every
    reference that is not blank is one: punctuation alone (``...``) has characters to count."""
    return functools.partial(prepared_chrf_references, settings=orders)


def each_chrf_pair(
    pairs: Sequence[Pair], orders: ChrfOrders, beta: int, make: Callable[[ChrfStats, int], T]
) -> list[Outcome[T]]:
    """``make(chrF statistics, number of references)`` for every pair, or the pair's :class:`Blank` or error."""

    def score(refs: ChrfReferences, cand: str) -> T:
        return make(chrf_pair_stats(refs, cand, beta), len(refs))

    return each_prepared(pairs, chrf_references(orders), score)


def chrf_settings(char_order: Any, word_order: Any, beta: Any) -> tuple[int, int, int]:
    """chrF's settings as typed in cells: char_order 1 to 9 (6), word_order 0 to 9 (0), beta 1 to 9 (2)."""
    return parse_char_order(char_order), parse_word_order(word_order), parse_beta(beta)


@excel_safe
def chrf_cells(reference: Any, candidate: Any, char_order: Any = 6, word_order: Any = 0, beta: Any = 2) -> Any:
    """One chrF per pair, from 0 to 1, shaped like the input ranges (chrF2 by default, chrF++ with word_order 2)."""
    chars, words, weight = chrf_settings(char_order, word_order, beta)
    pairs, rows_cols = pair_up(reference, candidate)

    def value(stats: ChrfStats, _: int) -> float:
        return chrf_from_stats(stats, char_order=chars, word_order=words, beta=weight).chrf

    return squeeze(reshape(each_chrf_pair(pairs, (chars, words), weight, value), rows_cols))


@excel_safe
def chrf_corpus_cells(references: Any, candidates: Any, char_order: Any = 6, word_order: Any = 0, beta: Any = 2) -> Any:
    """One corpus-level chrF over all pairs where both sides are filled in: counts added up, then one F."""
    chars, words, weight = chrf_settings(char_order, word_order, beta)
    rows = filled_rows(references, candidates, prepare=chrf_references((chars, words)))
    if not rows:
        return BLANK
    stats = [chrf_pair_stats(prepared, cand, weight) for prepared, cand in rows]
    total = sum_chrf_stats(stats, chars + words)
    return chrf_from_stats(total, char_order=chars, word_order=words, beta=weight).chrf


@excel_safe
def chrf_signature_cell(char_order: Any = 6, word_order: Any = 0, beta: Any = 2, refs: Any = 1) -> str:
    """The chrF signature of these settings (by default chrF2, one reference)."""
    chars, words, weight = chrf_settings(char_order, word_order, beta)
    return chrf_signature(chars, words, weight, parse_whole(refs, 1, "refs"))
