"""Score a whole table: pair its rows, score them (over several processes when large), rank, add up the corpus.

A row scores exactly as the same pair does in Excel: the cell semantics (text of a cell, blanks, errors, several
references) are the ones of the Excel layer's ``cells``.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from ..core.errors import BleuError, BleuTypeError, BleuXlError, Part, Setting
from ..core.metrics import BLEU_2, KNOWN, Metric, MetricScore, metric_setting
from ..core.metrics.base import ColumnKind, DetailColumn
from ..excel.cell_values import Blank, CellError, cell_text
from ..excel.cells import Pair, PreviousReference, reference_set, score_pairs
from .layout import Layout
from .packed import PackedOutcomes, pack, unpack
from .pairs import libreoffice_errors, pairs_of, shares_no_word
from .pool import PoolUnavailable, forking, frozen_heap, map_chunks
from .ranks import KeyHashes, rank_within_reference, ranked_groups, score_types
from .sheet import InputError, Sheet, column_letter
from .unspaced import LISTED_ROWS, UnspacedRows, unspaced_note, unspaced_rows

__all__ = [
    "CHUNK",
    "PARALLEL_MIN_PAIRS",
    "Outcome",
    "Result",
    "check_reference_text",
    "distinct_names",
    "pairs_of",
    "rank_within_reference",
    "ranked_groups",
    "result_columns",
    "result_header",
    "score_chunk",
    "score_chunk_keyed",
    "score_chunk_packed",
    "score_table",
]

PARALLEL_MIN_PAIRS = 20_000
T = TypeVar("T")
CHUNK = 25_000


class computed_once(Generic[T]):
    """A property computed once per object, as :func:`functools.cached_property` is, but without the lock that takes
    on Python 3.10 and 3.11: one lock for every object of the class, which a worker process forked while another
    thread holds it would wait for for ever (the workers that write a workbook's rows read these)."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> computed_once[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> T | computed_once[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)  # read from there from now on
        return value


#: A row's outcome under one metric: its score, a blank candidate, or the error that is its note.
Outcome = MetricScore | Blank | CellError


#: Detail columns that hold text: after every metric's numbers, so that a row's numbers stand together.
TEXT_KINDS = frozenset({ColumnKind.TEXT, ColumnKind.CHANGES})


def _detail_order(metrics: Sequence[Metric[Any, Any, Any]]) -> list[tuple[int, int]]:
    """(metric, detail) index pairs in the order of the result columns: every metric's numeric details, then every
    metric's text details (TER's changes), each in the metrics' order."""
    numeric, text = [], []
    for m, metric in enumerate(metrics):
        for d, column in enumerate(metric.details()):
            (text if column.kind in TEXT_KINDS else numeric).append((m, d))
    return numeric + text


def result_columns(metrics: Sequence[Metric[Any, Any, Any]], *, ranked: bool = True) -> tuple[DetailColumn, ...]:
    """The result columns: the first metric's score and the rank by it (when candidates share a reference), the
    other metrics' scores, each metric's numeric detail columns in the same order, then their text ones (TER's
    changes), and a note (one metric: BLEU-N, rank, its detail, note)."""
    first, *others = metrics
    details = [metric.details() for metric in metrics]
    return (
        DetailColumn(first.name, ColumnKind.SCORE),
        *([DetailColumn("rank", ColumnKind.COUNT)] if ranked else []),
        *(DetailColumn(metric.name, ColumnKind.SCORE) for metric in others),
        *(details[m][d] for m, d in _detail_order(metrics)),
        DetailColumn("note", ColumnKind.TEXT),
    )


@dataclass
class Result:
    """Per-row outcomes under each metric and what the summary needs: ranks (by the first metric), each metric's
    corpus score.

    ``rows`` are the data rows scored, ``row_numbers`` their rows as Excel numbers them (the first row is 1).
    ``ranked`` is false when no two candidates share a reference (a reference per row): then no rank is given;
    ``groups`` says how many references have candidates ranked among themselves (ranks are per reference).
    ``single_process`` says why a table large enough for the process pool was scored in one process.
    ``unspaced``, per metric, the rows it read as far fewer words than they hold (TER on Chinese, Thai...).
    """

    header: list[str]
    rows: list[list[Any]]
    layout: Layout
    metrics: tuple[Metric[Any, Any, Any], ...]
    scores: list[list[Outcome]]  # per metric, per row
    ranks: list[int | None]
    corpora: list[MetricScore | None]  # per metric
    row_numbers: Sequence[int] = ()
    single_process: str | None = None
    ranked: bool = True
    groups: int = 1  # the references whose candidates are ranked among themselves
    unspaced: list[UnspacedRows] = field(default_factory=list)
    no_word_shared: bool = False  # no candidate shares a word with its reference: the wrong reference read?
    error_texts: list[int] = field(default_factory=list)  # rows of a text file that hold LibreOffice's Err:509...

    @computed_once
    def columns(self) -> tuple[DetailColumn, ...]:
        """The result columns of this table (:func:`result_columns`)."""
        return result_columns(self.metrics, ranked=self.ranked)

    @computed_once
    def _detail_widths(self) -> tuple[int, ...]:
        """How many detail columns each metric has (the blanks of a row it did not score)."""
        return tuple(len(metric.details()) for metric in self.metrics)

    @computed_once
    def _detail_order(self) -> list[tuple[int, int]] | None:
        """Where each detail column comes from, when the metrics' details are not simply one after the other."""
        order = _detail_order(self.metrics)
        plain = [(m, d) for m, width in enumerate(self._detail_widths) for d in range(width)]
        return None if order == plain else order

    @property
    def outcomes(self) -> list[Outcome]:
        """Each row's outcome under the first metric (the one that ranks)."""
        return self.scores[0]

    @property
    def corpus(self) -> MetricScore | None:
        """The first metric's corpus score."""
        return self.corpora[0]

    @computed_once
    def _kinds(self) -> list[dict[type, int]]:
        """Per metric, how many rows have an outcome of each type (one pass in C: the counts below are asked for
        several times of a million rows)."""
        return [dict(collections.Counter(map(type, outcomes))) for outcomes in self.scores]

    @computed_once
    def _scored_kinds(self) -> frozenset[type]:
        """The types of the scores among the outcomes (a type test is a third of what ``isinstance`` of an ABC is)."""
        return frozenset(found for kinds in self._kinds for found in kinds if issubclass(found, MetricScore))

    @computed_once
    def _with_errors(self) -> bool:
        """Whether any metric gave any row an error."""
        return any(self._count(k, CellError) for k in range(len(self.scores)))

    def _count(self, k: int, kind: type) -> int:
        return sum(n for found, n in self._kinds[k].items() if issubclass(found, kind))

    @property
    def scored(self) -> int:
        return self._count(0, MetricScore)

    @property
    def blank(self) -> int:
        return self._count(0, Blank)

    @property
    def problems(self) -> int:
        """How many rows have a note, as the note column shows them: no score for a reason (an error), or scored
        against some of their references only (``1 of 2 references``, counted among the scored rows too)."""
        errors: set[int] = set()
        if self._with_errors:
            errors = {i for i in range(len(self.rows)) if self._error_note(i) is not None}
        # A row one metric could not score and another scored against fewer references has one note: counted once.
        return len(errors) + sum(1 for i in self.fewer_references() if i not in errors)

    @property
    def candidates(self) -> int:
        """How many rows have a candidate: scored, or with a note that says why not (the corpus score's rows at
        most)."""
        return len(self.rows) - self.blank

    def covered(self, k: int = 0) -> int:
        """How many rows the ``k``-th metric's corpus score covers: the rows it scored."""
        return self._count(k, MetricScore)

    def coverage(self, k: int = 0) -> str:
        """What the ``k``-th metric's corpus score covers when it is not every candidate, as every face says it after
        the score (`` (over 2 of 6 candidates)``); empty when it covers them all, or none."""
        covered, candidates = self.covered(k), self.candidates
        return "" if covered in (0, candidates) else f" (over {covered:,} of {candidates:,} candidates)"

    def scored_groups(self) -> list[tuple[tuple[str, ...], int]]:
        """The metrics' names grouped by how many rows each scored, the first metric's group first: one group when
        they all scored as many (BLEU scores no reference of punctuation alone, chrF and TER do), so that a count
        of the first metric's is never said of the others."""
        groups: dict[int, list[str]] = {}
        for k, metric in enumerate(self.metrics):
            groups.setdefault(self.covered(k), []).append(metric.name)
        return [(tuple(names), count) for count, names in groups.items()]

    @computed_once
    def reference_columns(self) -> int:
        """How many references each row has when it reads them from its own cells (0 when one reference serves
        every candidate)."""
        layout = self.layout
        return 0 if layout.reference_text is not None or layout.shared_row is not None else len(layout.reference_cols)

    @computed_once
    def _fewer(self) -> dict[int, list[int | None]]:
        """The rows some metric scored against fewer references than the sheet has columns for (the others blank,
        or with no words, which BLEU leaves out and chrF and TER keep): per row, each metric's count of references,
        ``None`` where it did not score or used them all."""
        wanted = self.reference_columns
        if wanted < 2:
            return {}
        found: dict[int, list[int | None]] = {}
        for k, outcomes in enumerate(self.scores):
            for i, o in enumerate(outcomes):
                if isinstance(o, MetricScore) and o.refs < wanted:
                    found.setdefault(i, [None] * len(self.scores))[k] = o.refs
        return dict(sorted(found.items()))

    def fewer_references(self) -> list[int]:
        """The rows some metric scored against fewer references than the sheet has columns for."""
        return list(self._fewer)

    def _without_words(self, rows: Sequence[int]) -> bool:
        """Whether a metric left out a reference of one of ``rows`` that is not blank (one with no words, under
        BLEU)."""
        for i in rows:
            row = self.rows[i]
            filled = sum(1 for c in self.layout.reference_cols if c < len(row) and isinstance(cell_text(row[c]), str))
            if any(refs is not None and refs < filled for refs in self._fewer[i]):
                return True
        return False

    @property
    def notes(self) -> list[tuple[Part, ...]]:
        """What the user should know about the scores: rows scored against only some of their references, rows a
        metric read as far fewer words than they hold (TER on text written without spaces between words)."""
        notes: list[tuple[Part, ...]] = []
        fewer = self.fewer_references()
        if fewer:
            rows = ", ".join(str(self.row_numbers[i]) for i in fewer[:LISTED_ROWS])
            more = f" and {len(fewer) - LISTED_ROWS:,} more" if len(fewer) > LISTED_ROWS else ""
            which = f"row {rows} is" if len(fewer) == 1 else f"rows {rows}{more} are"
            notes.append(
                (
                    f"{which} scored against fewer than the sheet's {self.reference_columns} references (the others "
                    f"blank{', or with no words, which BLEU leaves out' if self._without_words(fewer) else ''}): "
                    "the note column says how many",
                )
            )
        for metric, found in zip(self.metrics, self.unspaced):
            if found:
                notes.append(unspaced_note(metric, found, self.row_numbers))
        if self.error_texts:
            listed = ", ".join(str(self.row_numbers[i]) for i in self.error_texts[:LISTED_ROWS])
            more = f" and {len(self.error_texts) - LISTED_ROWS:,} more" if len(self.error_texts) > LISTED_ROWS else ""
            which = f"row {listed} holds" if len(self.error_texts) == 1 else f"rows {listed}{more} hold"
            notes.append(
                (
                    f"{which} LibreOffice's text for a formula's error (Err:509...) as a reference or candidate, "
                    "scored as that text: correct the formula and export the file again",
                )
            )
        if self.no_word_shared:
            notes.append(
                (
                    "no candidate shares a word with its reference: check that the reference read is the one meant "
                    "(give it with ",
                    Setting("reference_cols"),
                    " or ",
                    Setting("reference_text"),
                    ")",
                )
            )
        return notes

    def values(self) -> list[float]:
        """The first metric's score of each row it scored, in row order."""
        scored = self._scored_kinds
        return [float(o) for o in self.outcomes if type(o) in scored]

    def value(self, i: int) -> float | None:
        """Row ``i``'s score under the first metric, ``None`` when it has none."""
        outcome = self.outcomes[i]
        return float(outcome) if isinstance(outcome, MetricScore) else None

    def candidate_text(self, i: int) -> str:
        """Row ``i``'s candidate as Excel shows it in General format (2026, not 2026.0; TRUE, not True; an error
        as its text; a blank as nothing)."""
        row, col = self.rows[i], self.layout.candidate_col
        text = cell_text(row[col] if col < len(row) else None)
        return "" if text is None else text.text if isinstance(text, CellError) else text

    def note(self, i: int) -> str | None:
        """Why row ``i`` has no score (the error of each metric that gave one, named when the metrics differ), or
        that it was scored against some of its references only (``1 of 2 references``)."""
        error = self._error_note(i) if self._with_errors else None
        if error is not None:
            return error
        counts = self._fewer.get(i)
        if counts is None:
            return None
        wanted = self.reference_columns
        scored = [o.refs for scores in self.scores if isinstance(o := scores[i], MetricScore)]
        if len(set(scored)) == 1:  # every metric that scored the row used as many
            return f"{scored[0]} of {wanted} references"
        return "; ".join(
            f"{metric.name}: {refs} of {wanted} references" for metric, refs in zip(self.metrics, counts) if refs
        )

    def _error_note(self, i: int) -> str | None:
        if not any(type(scores[i]) is CellError for scores in self.scores):
            return None
        notes = [
            (metric.name, outcome.message or outcome.code)
            for metric, outcome in zip(self.metrics, (scores[i] for scores in self.scores))
            if isinstance(outcome, CellError)
        ]
        if not notes:
            return None
        if len(notes) == len(self.metrics) and len({text for _, text in notes}) == 1:
            return notes[0][1]
        return "; ".join(f"{name}: {text}" for name, text in notes)

    def result_row(self, i: int) -> list[Any]:
        """The values of :func:`result_columns` for row ``i`` (blank cells are ``None``)."""
        outcomes = [scores[i] for scores in self.scores]
        scored = self._scored_kinds
        values: list[Any] = [float(o) if type(o) in scored else None for o in outcomes]
        details: list[Any] = []
        for metric, outcome, width in zip(self.metrics, outcomes, self._detail_widths):
            details += metric.detail_values(outcome) if type(outcome) in scored else [None] * width
        if self._detail_order is not None:
            starts = [sum(self._detail_widths[:m]) for m in range(len(self.metrics))]
            details = [details[starts[m] + d] for m, d in self._detail_order]
        rank = [self.ranks[i]] if self.ranked else []
        return [values[0], *rank, *values[1:], *details, self.note(i)]

    def signatures(self) -> list[str]:
        """Each metric's signature (its corpus score's, which names the most references of a pair)."""
        return [
            corpus.signature if corpus is not None else metric.signature()
            for metric, corpus in zip(self.metrics, self.corpora)
        ]

    def signature(self) -> str:
        """The first metric's signature."""
        return self.signatures()[0]


def result_header(name: str, input_headers: Collection[str]) -> str:
    """A result column's header beside the input's columns: its name, with `` (bleu-xl)`` when an input column has
    that name in any case (a scored template's own "Rank" beside bleu-xl's "rank": Excel tells headers apart by
    neither, and a reader by neither would take one for the other)."""
    folded = {header.casefold() for header in input_headers}
    return f"{name} (bleu-xl)" if name.casefold() in folded else name


def distinct_names(names: Sequence[str]) -> list[str]:
    """Column names made distinct for JSON keys and headers: a second "Notes" is "Notes (2)", a third
    "Notes (3)", never a name another column already has."""
    taken = set(names)
    seen: set[str] = set()
    following: dict[str, int] = {}  # the number to try next for a name: each is tried once, so 16,384 equal names
    distinct = []  # take linear time
    for name in names:
        unique, number = name, following.get(name, 2)
        while unique in seen or (unique != name and unique in taken):
            unique, number = f"{name} ({number})", number + 1
        if unique != name:
            following[name] = number
        seen.add(unique)
        distinct.append(unique)
    return distinct


def score_chunk(
    pairs: Sequence[Pair], metrics: Sequence[Metric[Any, Any, Any]], prepare_first: PreviousReference | None = None
) -> list[list[Outcome]]:
    """Per metric, an :data:`Outcome` per pair (an input error says on which side it was); ``prepare_first``
    prepares the first metric's references."""
    chunk = []
    for k, metric in enumerate(metrics):
        prepare = prepare_first if k == 0 and prepare_first is not None else PreviousReference()
        outcomes: list[Outcome] = score_pairs(pairs, metric, metric.score_from_stats, prepare)
        for i, (outcome, pair) in enumerate(zip(outcomes, pairs)):
            if isinstance(outcome, CellError) and not outcome.message:  # #N/A carried through from a cell
                side = "candidate" if isinstance(pair.candidate, CellError) else "reference"
                outcomes[i] = CellError(outcome.code, f"{outcome.code} in the {side}")
        chunk.append(outcomes)
    return chunk


def score_chunk_keyed(
    pairs: Sequence[Pair], metrics: Sequence[Metric[Any, Any, Any]]
) -> tuple[list[list[Outcome]], list[int | None]]:
    """:func:`score_chunk`, and the hash of each pair's reference key under the first metric where it scored
    (``None`` elsewhere): ranks group rows by it."""
    keyed = KeyHashes()
    chunk = score_chunk(pairs, metrics, keyed)
    return chunk, keyed.of(pairs, chunk[0])


def score_chunk_packed(
    pairs: Sequence[Pair], metrics: Sequence[Metric[Any, Any, Any]]
) -> tuple[list[PackedOutcomes], list[int | None]]:
    """:func:`score_chunk_keyed`, its outcomes packed to travel back from a worker process."""
    chunk, key_hashes = score_chunk_keyed(pairs, metrics)
    return [pack(outcomes) for outcomes in chunk], key_hashes


def score_table(
    sheet: Sheet,
    layout: Layout,
    *,
    metrics: Sequence[Metric[Any, Any, Any]] = (BLEU_2,),
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Result:
    """Score every data row under each of ``metrics`` (by default BLEU-2), ranked by the first; large tables are
    split over a process pool (same results as one process)."""
    with frozen_heap():
        return _score_table(sheet, layout, tuple(metrics), workers, progress)


def _score_table(
    sheet: Sheet,
    layout: Layout,
    chosen: tuple[Metric[Any, Any, Any], ...],
    workers: int | None,
    progress: Callable[[int], None] | None,
) -> Result:
    if not chosen:
        raise BleuTypeError("score_table needs at least one metric")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise BleuError(f"workers must be a whole number of at least 1 (or None: one a core), not {workers!r}")
    if layout.reference_cell is None:  # given as text, not read from a labelled cell
        check_reference_text(layout.reference_text, chosen)
    pairs = pairs_of(sheet, layout)
    # The pairs frozen too, before any worker is forked (score_table thaws them with the sheet): a worker's
    # collections would walk the pairs it inherits, writing to and so copying every page they are on.
    gc.freeze()
    bounds = [(i, min(i + CHUNK, len(pairs))) for i in range(0, len(pairs), CHUNK)]
    scores: list[list[Outcome]] = [[] for _ in chosen]
    key_hashes: list[int | None] = []
    done = 0

    def add(part: list[list[Outcome]], hashes: list[int | None], size: int) -> None:
        nonlocal done
        for column, outcomes in zip(scores, part):
            column += outcomes
        key_hashes.extend(hashes)
        done += size
        if progress:
            progress(size)

    single_process = None
    spawned = False  # workers started apart, not forked, hash strings each their own way: rows are keyed here
    if len(pairs) >= PARALLEL_MIN_PAIRS and (workers or os.cpu_count() or 1) > 1:
        spawned = not forking()
        try:
            # closing(): the pool is terminated here, before an error or a signal goes further up.
            with contextlib.closing(map_chunks(score_chunk_packed, pairs, bounds, (chosen,), workers)) as parts:
                for (packed, hashes), (a, b) in zip(parts, bounds):
                    add([unpack(outcomes) for outcomes in packed], hashes, b - a)
        except PoolUnavailable as problem:  # no writable /dev/shm, no sem_open: the same scores in one process
            single_process = problem.reason
    for a, b in bounds:
        if a >= done:
            add(*score_chunk_keyed(pairs[a:b], chosen), b - a)

    ranks, groups = ranked_groups(pairs, scores[0], chosen[0], None if spawned else key_hashes)
    corpora: list[MetricScore | None] = []
    for metric, outcomes in zip(chosen, scores):
        kinds = score_types(outcomes)
        scored = [o for o in outcomes if type(o) in kinds]
        corpora.append(metric.corpus_of(scored) if scored else None)
    header = distinct_names([layout.headers[i] or column_letter(i) for i in range(len(layout.headers))])
    rows = layout.data_rows(len(sheet.rows))
    data = sheet.rows[layout.data_start :] if isinstance(rows, range) else [sheet.rows[r] for r in rows]
    numbers = range(rows.start + 1, rows.stop + 1) if isinstance(rows, range) else [r + 1 for r in rows]
    return Result(
        header,
        data,
        layout,
        chosen,
        scores,
        ranks,
        corpora,
        row_numbers=numbers,
        single_process=single_process,
        ranked=any(rank is not None for rank in ranks),
        groups=groups,
        unspaced=[unspaced_rows(metric, pairs, outcomes) for metric, outcomes in zip(chosen, scores)],
        # A reference typed by the user is the one meant; one read from the sheet may be from the wrong cell.
        no_word_shared=(layout.reference_text is None or layout.reference_cell is not None) and shares_no_word(pairs),
        error_texts=libreoffice_errors(pairs) if sheet.is_text else [],
    )


def check_reference_text(
    text: str | None, metrics: Sequence[Metric[Any, Any, Any]], parameter: str = "metrics"
) -> None:
    """Refuse a reference given as text (``reference_text``) that no candidate could be scored against: blank, an
    error value, or a text a chosen metric cannot use (BLEU needs words; chrF takes punctuation alone, as Excel's
    CHRF does): then the message names a metric that takes it, as Python gives it to ``parameter``."""
    if text is None:
        return
    if not isinstance(text, str):  # as TableOptions refuses it, but before the input is read
        raise BleuTypeError(f"reference_text must be a string or None, not {type(text).__name__} ({text!r})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # surrogate code points: text made in Python (the readers refuse them)
        raise InputError(
            Setting("reference_text"),
            f" holds surrogate code points ({text[exc.start : exc.end]!r}), halves of UTF-16 pairs, which no file "
            "can hold",
        ) from None
    given = reference_set([text])
    if given is None:
        raise InputError(
            Setting("reference_text"), f" {text!r} is blank: give the text to score every candidate against"
        )
    if isinstance(given, CellError):
        raise InputError(Setting("reference_text"), f" {text!r} is an error value, not a text to score against")
    for metric in metrics:
        try:
            metric.prepare(given)
        except BleuXlError as exc:
            other = next((kind for kind in KNOWN.values() if kind is not type(metric) and _takes(kind(), given)), None)
            hint = (f"; {other.label} takes it: score with ", metric_setting(other, parameter)) if other else ()
            raise InputError(
                Setting("reference_text"), f" {text!r}: {metric.name} cannot score against it ({exc})", *hint
            ) from None


def _takes(metric: Metric[Any, Any, Any], texts: tuple[str, ...]) -> bool:
    try:
        metric.prepare(texts)
    except BleuXlError:
        return False
    return True
