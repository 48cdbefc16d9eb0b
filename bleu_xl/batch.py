"""Score a whole table (a sheet or CSV): find the columns, pair rows, score in parallel, rank, summarise.

The command line is a thin layer over this; the cell semantics (text of a cell, blanks, errors, several
references) are the ones of ``bleu_xl.cells``, so a row scores exactly as the same pair does in Excel.
"""

from __future__ import annotations

import contextlib
import ctypes
import difflib
import multiprocessing
import os
import signal
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .bleu import BleuError, Score, Stats, check_settings, score_from_stats, signature, sum_stats
from .cells import CellError, cell_text, detail_values, prepared_references, reference_set, score_pairs
from .compare import PairedResult, paired_test
from .sheets import InputError, Sheet, column_index, column_letter
from .tokenizer import prepare as prepare_tokenizer

__all__ = [
    "ColumnNotFound",
    "Comparison",
    "Layout",
    "NoColumnsFound",
    "Result",
    "ScoredPair",
    "compare_table",
    "distinct_names",
    "find_layout",
    "result_header",
    "score_table",
]

#: Header names after folding (trimmed, accents removed, any case), singular and plural.
REFERENCE_NAMES = frozenset({"reference", "references", "referencia", "referencias"})
CANDIDATE_NAMES = frozenset({"candidate", "candidates", "candidat", "candidats", "candidato", "candidatos"})
HEADER_SEARCH_ROWS = 50
LISTED_HEADERS = 12  # in a message: enough to see the columns, one line whatever the sheet
PARALLEL_MIN_PAIRS = 20_000
CHUNK = 25_000


class NoColumnsFound(InputError):
    """A sheet with neither a candidate nor a reference header, nor a column given by name (a cover page such as
    the template's "Start here"): the one refusal after which another sheet may be read instead."""


class ColumnNotFound(InputError):
    """A column given by name (``--candidate-col "Prompt A"``) that the sheet does not have: past the first
    sheet, the search for the sheet to read goes on to the next. ``close_match``: a header it was probably
    meant to be ("Candidate A" for "Candidat A"), or ``None``, and how close it is (0 to 1)."""

    def __init__(self, sheet: str, what: str, spec: str, headers: Sequence[str]) -> None:
        close = difflib.get_close_matches(spec, [h for h in headers if h], n=1)
        self.close_match = close[0] if close else None
        self.closeness = difflib.SequenceMatcher(None, spec, close[0]).ratio() if close else 0.0
        hint = f"; did you mean {self.close_match!r}?" if self.close_match else ""
        super().__init__(f"sheet {sheet!r}: no {what} column {spec!r}; headers found: {_listing(headers)}{hint}")


class ScoredPair(NamedTuple):
    """One scored row: its BLEU, the other result columns, its statistics and its number of references."""

    bleu: float
    details: tuple[Any, ...]  # value, numerator, denominator per order, then BP, r, c (BLEU2_DETAIL's columns)
    stats: Stats
    references: int


#: A row's outcome: its scores, ``""`` for a blank candidate, or the :class:`CellError` that is its note.
Outcome = ScoredPair | str


def shortened(text: str, limit: int = 60) -> str:
    """A header as a message shows it: at most ``limit`` characters, an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def fold(text: str) -> str:
    """A header as the column rules compare it: trimmed, single spaces, accents removed, any case."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def _known(header: str, names: frozenset[str]) -> str:
    """``"exact"`` for a known name, ``"numbered"`` for one with a number (Reference 2), ``"qualified"`` for
    one with another qualifier (Candidate text, Référence approuvée), else ``""``."""
    folded = fold(header)
    if folded in names:
        return "exact"
    first, _, rest = folded.partition(" ")
    if first not in names or not rest:
        return ""
    return "numbered" if rest.isdigit() else "qualified"


@dataclass
class Layout:
    """Where the data is: the header row, the candidate column, and the reference columns or single text.

    ``header_row`` and the column numbers are 0-based (``None``: no header row); ``headers`` holds the header
    text of every column (``""`` for none).
    """

    header_row: int | None
    candidate_col: int
    reference_cols: list[int] = field(default_factory=list)
    reference_text: str | None = None
    reference_source: str = ""
    headers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the command line says on stderr besides the columns

    @property
    def data_start(self) -> int:
        return 0 if self.header_row is None else self.header_row + 1

    def name(self, col: int) -> str:
        """A column as the messages show it: its letter and header, ``C "Candidate"``."""
        header = self.headers[col] if col < len(self.headers) else ""
        return f"{column_letter(col)} {shortened(header)!r}" if header else column_letter(col)

    def describe(self, compared: int | None = None) -> str:
        """Which header row and columns are used: printed on every run, so a wrong guess is visible. With
        ``compared`` (compare's --b column), the candidate column is --a."""
        where = "no header row" if self.header_row is None else f"header row {self.header_row + 1}"
        if self.reference_text is not None:
            labelled = f"the cell {self.reference_source} (labelled Reference above the headers)"
            refs = "the --reference text" if self.reference_source == "--reference" else labelled
        else:
            refs = ", ".join(self.name(c) for c in self.reference_cols)
        if compared is None:
            return f"{where}; candidate {self.name(self.candidate_col)}; reference {refs}"
        return f"{where}; --a {self.name(self.candidate_col)}, --b {self.name(compared)}; reference {refs}"


@dataclass
class Result:
    """Per-row outcomes (a :class:`ScoredPair`, or the row's note) and what the summary needs."""

    header: list[str]
    rows: list[list[Any]]
    layout: Layout
    outcomes: list[Outcome]
    ranks: list[int | None]
    corpus: Score | None
    max_n: int
    smoothing: str
    number_formats: dict[int, int | str] = field(default_factory=dict)  # the input columns' own formats

    @property
    def scored(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, ScoredPair))

    @property
    def blank(self) -> int:
        return sum(1 for o in self.outcomes if o == "")

    @property
    def problems(self) -> int:
        return sum(1 for o in self.outcomes if isinstance(o, CellError))

    def bleu(self, i: int) -> float | None:
        outcome = self.outcomes[i]
        return outcome.bleu if isinstance(outcome, ScoredPair) else None

    def result_row(self, i: int) -> list[Any]:
        """The values of the result columns of row ``i`` (blank cells are ``None``)."""
        outcome = self.outcomes[i]
        if isinstance(outcome, ScoredPair):
            return [outcome.bleu, self.ranks[i], *outcome.details, None]
        note = (outcome.message or str(outcome)) if isinstance(outcome, CellError) else None
        return [None] * (len(result_header(self.max_n)) - 1) + [note]

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


def result_header(max_n: int) -> list[str]:
    """The result columns: BLEU-N and its rank, then value, numerator and denominator per order, BP, r, c, note."""
    names = [f"BLEU-{max_n}", "rank"]
    for n in range(1, max_n + 1):
        names += [f"p{n}", f"p{n} num", f"p{n} den"]
    return [*names, "BP", "r", "c", "note"]


# --- finding the columns ----------------------------------------------------------------------------------------


def _header_text(value: Any) -> str:
    text = cell_text(value)
    return "" if text is None or isinstance(text, CellError) else str(text).strip()


def _resolve(spec: str, headers: list[str], what: str, sheet: str, *, header_row: int | None) -> int:
    """A column given by header (any case and accents) or by letter; a header held twice is ambiguous."""
    if header_row is not None:
        matches = [i for i, h in enumerate(headers) if h and fold(h) == fold(spec)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            letters = ", ".join(column_letter(i) for i in matches)
            raise InputError(
                f"sheet {sheet!r}: {len(matches)} columns are headed {spec!r} ({letters}); "
                f"give the {what} column by letter, e.g. --{what}-col {column_letter(matches[-1])}"
            )
    index = column_index(spec)
    if index is not None:
        return index
    if header_row is None:
        raise InputError(f"sheet {sheet!r}: with no header row, give the {what} column by letter (not {spec!r})")
    raise ColumnNotFound(sheet, what, spec, headers)


def _listing(headers: Sequence[str]) -> str:
    named = [f"{column_letter(i)} {shortened(h, 40)!r}" for i, h in enumerate(headers) if h]
    more = f" and {len(named) - LISTED_HEADERS:,} more" if len(named) > LISTED_HEADERS else ""
    return ", ".join(named[:LISTED_HEADERS]) + more if named else "(none)"


def _auto_column(headers: list[str], names: frozenset[str], what: str, sheet: Sheet, skip: int = -1) -> list[int]:
    """The columns chosen by header: the one exact name, else the numbered ones (several references), else the
    one qualified name; hidden columns are never chosen, and anything ambiguous is an error."""
    kinds = {i: _known(h, names) for i, h in enumerate(headers) if i != skip}
    visible = {i: k for i, k in kinds.items() if k and i not in sheet.hidden_columns}
    numbered = [i for i, k in visible.items() if k == "numbered"]
    for kind in ("exact", "numbered", "qualified"):
        found = [i for i, k in visible.items() if k == kind]
        if kind == "exact" and len(found) == 1 and numbered:
            # "Reference" beside "Reference 2": several references, as Reference 1 / Reference 2 are; for the
            # candidate, two columns of the same name, which is ambiguous.
            found = sorted(found + numbered)
            if what == "reference":
                return found
        elif len(found) == 1 or (found and kind == "numbered" and what == "reference"):
            return found
        if found:
            listed = ", ".join(f"{column_letter(i)} {shortened(headers[i])!r}" for i in found)
            raise InputError(
                f"sheet {sheet.name!r}: {len(found)} columns could be the {what} ({listed}); "
                f"choose one with --{what}-col, e.g. --{what}-col {column_letter(found[0])}"
            )
    hidden = [i for i, k in kinds.items() if k and i in sheet.hidden_columns]
    if hidden:
        raise InputError(
            f"sheet {sheet.name!r}: the {what} column {column_letter(hidden[0])} {shortened(headers[hidden[0]])!r} "
            f"is hidden, and hidden columns are not chosen by themselves; give --{what}-col {column_letter(hidden[0])}"
        )
    return []


def _has(texts: list[str], names: frozenset[str], *, exact: bool = False) -> bool:
    """Whether a row holds a known header (exact only, or also numbered and qualified ones)."""
    return any((_known(t, names) == "exact") if exact else _known(t, names) for t in texts if t)


def _holds_header(row: list[str], spec: str) -> bool:
    """Whether a row holds the header a column was given by (compared folded)."""
    return any(fold(t) == fold(spec) for t in row if t)


def _find_header_row(
    sheet: Sheet, reference_cols: Sequence[str], candidate_col: str | None, reference_text: str | None
) -> int | None:
    """The first row that holds the headers: every column given by name, and a known candidate and reference
    header where those are not given (so titles above are skipped). Without reference columns (a labelled
    reference cell above, as on the Rank sheet), the first row with a candidate header. ``None`` when the
    columns are given by letter and no row holds headers: every row is data."""
    # The first 50 rows from the first one with text: blank rows above a table do not use up the search.
    start = next((r for r, row in enumerate(sheet.rows) if any(_header_text(v) for v in row)), 0)
    texts = [[_header_text(v) for v in row] for row in sheet.rows[start : start + HEADER_SEARCH_ROWS]]
    given = [candidate_col, *reference_cols]
    # A column given by name; a letter-like name ("mt", "ID") counts as a name where a row holds it as a header.
    named = [
        fold(spec)
        for spec in given
        if spec and (column_index(spec) is None or any(_holds_header(row, spec) for row in texts))
    ]
    need_candidate = candidate_col is None
    need_reference = reference_text is None and not reference_cols
    all_by_letter = not (named or need_candidate or need_reference)
    if all_by_letter:  # a header row only if one has names (over the given columns, or anywhere)
        need_candidate, need_reference = True, reference_text is None

    # A column given by letter has a header too in the header row, and the other headers are in other columns:
    # so a title above ("Reference copy - spring campaign" in A1, nothing in the given column) is not taken.
    by_letter = {
        index for spec in given if spec and fold(spec) not in named and (index := column_index(spec)) is not None
    }

    def holds_named(row: list[str], strict: bool = True) -> bool:
        folded = {fold(t) for t in row if t}
        return all(spec in folded for spec in named) and (not strict or all(c < len(row) and row[c] for c in by_letter))

    def others(row: list[str]) -> list[str]:
        return row if all_by_letter else [t for c, t in enumerate(row) if c not in by_letter]

    # Strictly first; then, for a given column with no header over it, a row of several headers with an exact
    # candidate or reference header (a qualified one, "Reference copy - spring campaign", is a title).
    for strict in (True, False) if by_letter else (True,):
        for i, row in enumerate(texts, start):
            if (
                holds_named(row, strict)
                and (strict or sum(1 for t in row if t) >= 2)
                and (not need_candidate or _has(others(row), CANDIDATE_NAMES, exact=not strict))
                and (not need_reference or _has(others(row), REFERENCE_NAMES, exact=not strict))
            ):
                return i
    if reference_text is None and not reference_cols:  # a reference labelled above the headers?
        for exact in (True, False):
            for i, row in enumerate(texts, start):
                if holds_named(row) and (not need_candidate or _has(others(row), CANDIDATE_NAMES, exact=exact)):
                    return i
    if candidate_col is not None and not named and (reference_cols or reference_text is not None):
        return None
    # The headers to show: the first row holding a known name, else the fullest row (not a title above them).
    shown = (
        next((row for row in texts if _has(row, CANDIDATE_NAMES)), None)
        or next((row for row in texts if _has(row, REFERENCE_NAMES)), None)
        or max(texts, key=lambda row: sum(1 for t in row if t), default=[])
    )
    if not any(_has(row, CANDIDATE_NAMES) or _has(row, REFERENCE_NAMES) for row in texts) and not any(
        _holds_header(row, spec) for row in texts for spec in given if spec
    ):
        raise NoColumnsFound(
            f"sheet {sheet.name!r}: no candidate or reference column; headers found: {_listing(shown)}; "
            "give them with --candidate-col and --reference-col (a letter or a header)"
        )
    for spec, what in [(candidate_col, "candidate"), *((s, "reference") for s in reference_cols)]:
        if spec and column_index(spec) is None and not any(_holds_header(row, spec) for row in texts):
            raise ColumnNotFound(sheet.name, what, spec, shown)
    raise InputError(
        f"sheet {sheet.name!r}: no candidate column; headers found: {_listing(shown)}; "
        "give it with --candidate-col (a letter or a header)"
    )


def find_layout(
    sheet: Sheet,
    reference_cols: Sequence[str] = (),
    candidate_col: str | None = None,
    reference_text: str | None = None,
    *,
    header_row: int | None = None,
    no_header: bool = False,
) -> Layout:
    """Find the header row and the columns by the column rules (README), or take them as given.

    ``header_row`` is 1-based as Excel numbers rows; ``no_header`` says every row is data.
    """
    rows = sheet.rows
    if not any(_header_text(v) for row in rows for v in row):
        raise NoColumnsFound(f"sheet {sheet.name!r} is empty")
    if no_header:
        index: int | None = None
    elif header_row is not None:
        if not 1 <= header_row <= len(rows):
            raise InputError(f"sheet {sheet.name!r}: --header-row {header_row} is past its {len(rows):,} rows")
        index = header_row - 1
    else:
        index = _find_header_row(sheet, reference_cols, candidate_col, reference_text)
    width = max(len(row) for row in rows)
    headers = [_header_text(v) for v in rows[index]] if index is not None else []
    headers += [""] * (width - len(headers))

    def resolve(spec: str, what: str) -> int:
        return _resolve(spec, headers, what, sheet.name, header_row=index)

    if candidate_col:
        cand = resolve(candidate_col, "candidate")
    else:
        found = _auto_column(headers, CANDIDATE_NAMES, "candidate", sheet)
        if not found:
            raise InputError(f"sheet {sheet.name!r}: no candidate column; headers found: {_listing(headers)}")
        cand = found[0]

    layout = Layout(index, cand, headers=headers)
    if reference_text is not None:
        layout.reference_text = reference_text
        layout.reference_source = "--reference"
    elif reference_cols:
        layout.reference_cols = [resolve(spec, "reference") for spec in reference_cols]
    else:
        layout.reference_cols = _auto_column(headers, REFERENCE_NAMES, "reference", sheet, skip=cand)
        if not layout.reference_cols:
            labelled = _labelled_reference(rows[: index or 0])
            if labelled is None:
                raise InputError(
                    f"sheet {sheet.name!r}: no reference column (and no labelled reference cell above the "
                    f"headers); headers found: {_listing(headers)}; use --reference-col or --reference"
                )
            layout.reference_text, layout.reference_source = labelled
    if len(layout.reference_cols) > 1 and not reference_cols:
        # Numbered references found by their headers: an empty one (Reference 3 prepared but never filled) is
        # left out, and said so, rather than refusing the sheet; at least one must hold text.
        empty = [c for c in layout.reference_cols if _is_empty(rows, c, layout.data_start)]
        if len(empty) < len(layout.reference_cols):
            layout.reference_cols = [c for c in layout.reference_cols if c not in empty]
            layout.notes += [f"the reference column {layout.name(c)} is empty: left out" for c in empty]
    if layout.reference_cols:
        layout.reference_source = ", ".join(headers[i] or column_letter(i) for i in layout.reference_cols)
    for col, what in [(cand, "candidate"), *((c, "reference") for c in layout.reference_cols)]:
        _check_cached(sheet, layout, col, what)
        if _is_empty(rows, col, layout.data_start):
            below = "" if index is None else f" below the header row {index + 1}"
            raise InputError(f"sheet {sheet.name!r}: the {what} column {layout.name(col)} is empty{below}")
    return layout


def _is_empty(rows: list[list[Any]], col: int, start: int) -> bool:
    return all(col >= len(row) or cell_text(row[col]) is None for row in rows[start:])


def _check_cached(sheet: Sheet, layout: Layout, col: int, what: str) -> None:
    """Refuse a column whose blank cells are formulas saved without their values: its scores would be wrong."""
    if not sheet.uncached_count:
        return
    kept_all = len(sheet.uncached) == sheet.uncached_count
    last = max([len(sheet.rows) - 1, *(r for r, c in sheet.uncached if c == col)])  # the reader drops such rows
    for r in range(layout.data_start, last + 1):
        row = sheet.rows[r] if r < len(sheet.rows) else []
        if (col >= len(row) or cell_text(row[col]) is None) and (not kept_all or (r, col) in sheet.uncached):
            raise InputError(
                f"sheet {sheet.name!r}: the {what} column {layout.name(col)} holds formulas saved without their "
                f"values (row {r + 1}; openpyxl saves formulas so), and every reader sees them blank; open the "
                "file in Excel or LibreOffice, save it, and score it again"
            )


def _labelled_reference(rows: list[list[Any]]) -> tuple[str, str] | None:
    """A cell labelled "Reference" above the header row, with the reference text to its right (the Rank sheet)."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if _known(_header_text(value), REFERENCE_NAMES) == "exact":
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
    for row in sheet.rows[layout.data_start :]:
        cand = cell_text(row[layout.candidate_col]) if layout.candidate_col < len(row) else None
        if layout.reference_text is not None:
            refs = fixed
        else:
            refs = reference_set([row[i] if i < len(row) else None for i in layout.reference_cols])
        pairs.append((refs, cand))
    return pairs


def score_chunk(pairs: list[tuple[Any, Any]], max_n: int, smoothing: str) -> list[Outcome]:
    """A :class:`ScoredPair` per pair, or the pair's note (an input error says on which side it was)."""

    def keep(stats: Stats, nrefs: int) -> ScoredPair:
        bleu, *details = detail_values(stats, max_n, smoothing)
        return ScoredPair(bleu, tuple(details), stats, nrefs)

    outcomes = score_pairs(pairs, max_n, keep)
    for i, (outcome, (_, cand)) in enumerate(zip(outcomes, pairs)):
        if isinstance(outcome, CellError) and not outcome.message:  # #N/A carried through from a cell
            side = "candidate" if isinstance(cand, CellError) else "reference"
            outcomes[i] = CellError(outcome.code, f"{outcome.code} in the {side}")
    return outcomes


# Pairs shared with forked workers: each worker reads its slice from its copy of the parent's memory, so only
# the results travel back through a pipe.
_SHARED: list[tuple[Any, Any]] = []


def _score_shared(task: tuple[int, int, int, str]) -> list[Outcome]:
    start, stop, max_n, smoothing = task
    return score_chunk(_SHARED[start:stop], max_n, smoothing)


def _score_sent(task: tuple[list[tuple[Any, Any]], int, str]) -> list[Outcome]:
    return score_chunk(*task)


def _worker_setup() -> None:
    """In each worker: die with the default action on SIGTERM/SIGHUP, leave Ctrl-C to the parent, and (Linux)
    be killed when the parent dies, so that no worker outlives the run."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before prctl: stop now
            os._exit(1)


def score_table(
    sheet: Sheet,
    layout: Layout,
    *,
    max_n: int = 2,
    smoothing: str = "add1",
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Result:
    """Score every data row; large tables are split over a process pool (same results as one process).

    The pool is terminated when scoring stops for any reason (an error, Ctrl-C, a termination signal turned
    into an exception), so no worker is left behind.
    """
    check_settings(max_n, smoothing)
    pairs = pairs_of(sheet, layout)
    bounds = [(i, min(i + CHUNK, len(pairs))) for i in range(0, len(pairs), CHUNK)]
    workers = workers if workers is not None else (os.cpu_count() or 1)
    outcomes: list[Outcome] = []
    if workers > 1 and len(pairs) >= PARALLEL_MIN_PAIRS:
        global _SHARED
        if "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux"):
            prepare_tokenizer()
            _SHARED = pairs
            context, fn = multiprocessing.get_context("fork"), _score_shared
            tasks: list[Any] = [(a, b, max_n, smoothing) for a, b in bounds]
        else:
            context, fn = multiprocessing.get_context(), _score_sent
            tasks = [(pairs[a:b], max_n, smoothing) for a, b in bounds]
        try:
            with context.Pool(workers, initializer=_worker_setup) as pool:  # leaving it terminates the workers
                for part in pool.imap(fn, tasks):
                    outcomes += part
                    if progress:
                        progress(len(part))
                pool.close()
                pool.join()
        finally:
            _SHARED = []
    else:
        for a, b in bounds:
            outcomes += score_chunk(pairs[a:b], max_n, smoothing)
            if progress:
                progress(b - a)

    ranks = rank_within_reference(pairs, outcomes)
    scored = [o for o in outcomes if isinstance(o, ScoredPair)]
    corpus = None
    if scored:
        total = sum_stats((o.stats for o in scored), max_n)
        corpus = score_from_stats(total, smoothing=smoothing, refs=max(o.references for o in scored))
    header = distinct_names([layout.headers[i] or column_letter(i) for i in range(len(layout.headers))])
    data = sheet.rows[layout.data_start :]
    return Result(header, data, layout, outcomes, ranks, corpus, max_n, smoothing, dict(sheet.number_formats))


def rank_within_reference(pairs: list[tuple[Any, Any]], outcomes: list[Outcome]) -> list[int | None]:
    """RANK.EQ among the candidates that share a reference: 1 is best, equal scores share a rank."""
    groups: dict[Any, list[tuple[int, float]]] = {}
    for i, ((refs, _), outcome) in enumerate(zip(pairs, outcomes)):
        if isinstance(outcome, ScoredPair):
            groups.setdefault(refs, []).append((i, outcome.bleu))
    ranks: list[int | None] = [None] * len(outcomes)
    for members in groups.values():
        ordered = sorted((value for _, value in members), reverse=True)
        first: dict[float, int] = {}
        for position, value in enumerate(ordered, start=1):
            first.setdefault(value, position)
        for i, value in members:
            ranks[i] = first[value]
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
    b_col: int = -1  # the column of B, 0-based


def compare_table(sheet: Sheet, layout: Layout, b_col: str, *, samples: int = 1000, seed: int = 12345) -> Comparison:
    """Paired bootstrap of the candidate column (A) against column ``b_col`` (B); rows with a blank side are
    skipped in both."""
    b_index = _resolve(b_col, layout.headers, "candidate B", sheet.name, header_row=layout.header_row)
    if b_index == layout.candidate_col:
        raise InputError(f"--a and --b name the same column ({column_letter(b_index)}): nothing to compare")
    if b_index in layout.reference_cols:
        raise InputError(f"--b names a reference column ({column_letter(b_index)})")
    b_layout = Layout(
        layout.header_row,
        b_index,
        layout.reference_cols,
        layout.reference_text,
        layout.reference_source,
        layout.headers,
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
        return [o.bleu if isinstance(o, ScoredPair) else None for o in score_chunk(pairs, 2, "add1")]

    def name(index: int) -> str:
        return layout.headers[index] or column_letter(index)

    return Comparison(
        result,
        len(usable),
        len(pairs_a) - len(usable),
        name(layout.candidate_col),
        name(b_index),
        bleu_column(pairs_a),
        bleu_column(pairs_b),
        b_index,
    )
