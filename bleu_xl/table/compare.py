"""Compare two candidate columns of a table row by row against the same references (a paired test: the bootstrap or
approximate randomization)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.bootstrap import TESTS, PairedResult, Resampling, check_paired_draws, check_settings, one_sided_text
from ..core.column_sums import PLAIN, ColumnSums
from ..core.errors import BleuError, Part, Setting
from ..core.metrics import BLEU_2, Metric, MetricScore
from ..core.randomization import Randomization
from ..excel.cell_values import Blank, CellError
from .excel_tables import totals_note, totals_rows_of
from .layout import Layout, resolve_column
from .letters import letters_meant, search_rows
from .scoring import Outcome, check_reference_text, pairs_of, score_chunk
from .sheet import InputError, Sheet, check_column_given, column_index, column_letter
from .unspaced import unspaced_note, unspaced_rows

__all__ = ["DEFAULT_SAMPLES", "Comparison", "compare_table", "left_out_note", "paired_test_of"]

#: Each test's number of draws when none is given: sacrebleu's 1,000 resamples and 10,000 trials.
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10_000}


@dataclass
class Comparison:
    """Two candidate columns (A, the layout's candidate column, and B) compared row by row against the same
    references under one metric: the paired test, how many rows took part, and each row's score on both sides
    (``rows``: the data rows, as the sheet holds them, and ``row_numbers``, as Excel numbers them), why a row was
    left out of the test (``left_out``: its note, ``None`` for a row compared), and what the user should know
    about the scores (``notes``: rows the metric read as far fewer words than they hold)."""

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
    notes: list[tuple[Part, ...]] = field(default_factory=list)
    left_out: list[str | None] = field(default_factory=list)  # per row of ``rows``
    refs: int = 1  # the most references of a pair compared, as the signature names them
    only_a: int = 0  # rows left out because B is blank where A has a candidate
    only_b: int = 0  # and the other way round

    @property
    def verdict(self) -> str:
        """The paired test's reading, which names the rows left out because one side is blank: a system that leaves
        its hard rows blank would otherwise win the test on the rows it chose to fill."""
        return self.result.verdict(self.a_name, self.b_name) + one_sided_text(
            self.a_name, self.only_a, self.b_name, self.only_b
        )

    @property
    def signature(self) -> str:
        return self.metric.signature(self.refs)

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


def paired_test_of(
    test: str, metric: Metric[Any, Any, Any], samples: int | None, seed: int
) -> Resampling | Randomization:
    """The paired test named ``test`` ("bs" or "ar") with ``samples`` resamples or trials (``None``: the test's
    default, :data:`DEFAULT_SAMPLES`)."""
    if test not in TESTS:
        raise BleuError(f"test must be one of {', '.join(map(repr, TESTS))}, not {test!r}")
    count = DEFAULT_SAMPLES[test] if samples is None else samples
    check_paired_draws(count, "samples")  # the bootstrap's own check comes only when it runs: before the input is read
    check_settings(metric, count, "samples", seed)
    return Resampling(metric, samples=count, seed=seed) if test == "bs" else Randomization(metric, count, seed)


def compare_table(
    sheet: Sheet,
    layout: Layout,
    b_col: str,
    *,
    samples: int | None = None,
    seed: int = 12345,
    metric: Metric[Any, Any, Any] = BLEU_2,
    test: str = "bs",
    sums: ColumnSums = PLAIN,
    header_given: bool = False,
) -> Comparison:
    """A paired test of the candidate column (A) against column ``b_col`` (B) under ``metric`` (corpus BLEU-2 by
    default): the paired bootstrap ("bs", 1,000 resamples unless ``samples`` says) or approximate randomization
    ("ar", 10,000 trials); ``sums`` adds up the draws (``bleu_xl.fast`` has a faster one). Rows with a blank side
    are skipped in both, and under BLEU rows whose reference has no words. Each row is scored once: its
    statistics give both its score and its part in the test. ``header_given``: the layout's header row was given
    (``header_row``), not found, so a letter-like ``b_col`` held there is its header."""
    paired_test = paired_test_of(test, metric, samples, seed)
    if layout.reference_cell is None:  # given as text, not read from a labelled cell
        check_reference_text(layout.reference_text, (metric,), "metric")
    check_column_given(b_col, "b_col", required=True)
    # A letter that the header search reads as data (an A/B test's arm) is its column, as for the candidate column;
    # a header row given is the user's word that its texts are headers.
    letter = column_index(b_col)
    if letter is not None and not header_given and letters_meant(search_rows(sheet)[1], [b_col]):
        b_index = letter
    else:
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
    # B's own Excel Table ends with its totals row: a "Total" there is no candidate (A's and the references' are
    # left out already).
    b_totals = sorted(r for r in totals_rows_of(sheet, [b_index]) if r >= layout.data_start and r not in layout.skipped)
    layout.skipped |= frozenset(b_totals)
    pairs_a, pairs_b = pairs_of(sheet, layout), pairs_of(sheet, layout, b_index)
    (outcomes_a,), (outcomes_b,) = score_chunk(pairs_a, (metric,)), score_chunk(pairs_b, (metric,))
    usable = [
        (a.stats, b.stats)
        for a, b in zip(outcomes_a, outcomes_b)
        if isinstance(a, MetricScore) and isinstance(b, MetricScore)
    ]
    if not usable:
        raise InputError(f"sheet {sheet.name!r}: no row has a reference and both candidates")
    stats_a, stats_b = zip(*usable)
    result = paired_test.paired_of(stats_a, stats_b, sums=sums)

    def scores(outcomes: list) -> list[float | None]:
        return [float(o) if isinstance(o, MetricScore) else None for o in outcomes]

    def name(index: int) -> str:
        return (layout.headers[index] if index < len(layout.headers) else "") or column_letter(index)

    a_name, b_name = name(layout.candidate_col), name(b_index)
    data = layout.data_rows(len(sheet.rows))
    row_numbers = [r + 1 for r in data]
    compared = [isinstance(a, MetricScore) and isinstance(b, MetricScore) for a, b in zip(outcomes_a, outcomes_b)]
    found = unspaced_rows(metric, pairs_a, [a if used else None for a, used in zip(outcomes_a, compared)])
    for script, indices in unspaced_rows(
        metric, pairs_b, [b if used else None for b, used in zip(outcomes_b, compared)]
    ).items():
        found[script] = sorted({*found.get(script, []), *indices})
    notes = [unspaced_note(metric, found, row_numbers)] if found else []
    left_out = [left_out_note(a_name, a, b_name, b) for a, b in zip(outcomes_a, outcomes_b)]
    notes += problem_rows_note(row_numbers, outcomes_a, outcomes_b, left_out)
    notes += [totals_note([r]) for r in b_totals]

    return Comparison(
        result,
        len(usable),
        len(pairs_a) - len(usable),
        a_name,
        b_name,
        b_index,
        scores(outcomes_a),
        scores(outcomes_b),
        [sheet.rows[r] for r in data],
        layout.reference_source,
        metric,
        row_numbers,
        notes,
        left_out,
        max((len(pair.references) for pair, used in zip(pairs_a, compared) if used), default=1),
        sum(1 for a, b in zip(outcomes_a, outcomes_b) if isinstance(a, MetricScore) and isinstance(b, Blank)),
        sum(1 for a, b in zip(outcomes_a, outcomes_b) if isinstance(a, Blank) and isinstance(b, MetricScore)),
    )


#: How many rows a note names one by one before it counts the rest.
LISTED_PROBLEMS = 3


def problem_rows_note(
    row_numbers: Sequence[int],
    outcomes_a: Sequence[Outcome],
    outcomes_b: Sequence[Outcome],
    notes: Sequence[str | None],
) -> list[str]:
    """The note that names the rows left out of the test for what a cell holds (a reference with no words, an error
    cell), not for a blank: the count of rows skipped alone would not say why."""
    found = [
        (row, note)
        for row, a, b, note in zip(row_numbers, outcomes_a, outcomes_b, notes)
        if note is not None and (isinstance(a, CellError) or isinstance(b, CellError))
    ]
    if not found:
        return []
    named = "; ".join(f"row {row} {note}" for row, note in found[:LISTED_PROBLEMS])
    extra = len(found) - LISTED_PROBLEMS
    more = f" (and {extra:,} more {'row' if extra == 1 else 'rows'})" if extra > 0 else ""
    return [named + more]


def left_out_note(a_name: str, a: Outcome, b_name: str, b: Outcome) -> str | None:
    """Why a row was left out of the test, named by the columns (``left out of the test: A is blank``): a row whose
    other side has a score shows it, and a reader who averages that column must see that the test did not count
    it. ``None`` for a row compared (both sides scored)."""
    if isinstance(a, MetricScore) and isinstance(b, MetricScore):
        return None
    if isinstance(a, Blank) and isinstance(b, Blank):
        why = f"{a_name} and {b_name} are blank"
    elif isinstance(a, CellError) and a == b:  # the reference's problem, the same on both sides
        why = a.message or a.code
    else:
        why = "; ".join(
            f"{side} is blank" if isinstance(outcome, Blank) else f"{side}: {outcome.message or outcome.code}"
            for side, outcome in ((a_name, a), (b_name, b))
            if isinstance(outcome, (Blank, CellError))
        )
    return f"left out of the test: {why}"
