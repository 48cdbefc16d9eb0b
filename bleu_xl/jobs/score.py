"""Score a workbook or CSV file: read it within limits, find its columns, score every row, write the result whole.

:func:`score_file` is what ``bleu-xl score`` does, as one library call: its parameters are the settings (each
message that names one names it as a :class:`~bleu_xl.core.errors.Setting`), and it returns a
:class:`ScoredFile` that holds the scores, the counts, the corpus scores and signatures, and where it wrote.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BleuError, BleuTypeError, Part, Setting, python_spelling, render
from ..core.metrics import BLEU_2, Metric, MetricScore
from ..excel.cell_values import EXCEL_MAX_TEXT
from ..files.read.limits import DEFAULT_LIMITS
from ..files.write.output import OutputFile
from ..files.write.results import write_result
from ..files.write.scored_workbook import CutCells
from ..files.write.target import OutputTarget
from ..table.scoring import Result, check_reference_text, result_columns, score_table
from ..table.sheet import check_switch
from .reading import PathLike, ReadTable, check_delimiter_used, path_text, read_input_table, read_limits, table_options

__all__ = ["ScoredFile", "as_metrics", "cut_note", "score_file"]


@dataclass
class ScoredFile:
    """What :func:`score_file` did: the table it read, every row's outcome under each metric (``result``), where
    and how it wrote them (``target``), the cells cut to fit a workbook, and the seconds each step took."""

    read: ReadTable
    result: Result
    target: OutputTarget
    cut_cells: CutCells = field(default_factory=CutCells)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def output(self) -> str:
        """Where the output was written (``-``: standard output)."""
        return self.target.path

    @property
    def metrics(self) -> tuple[Metric[Any, Any, Any], ...]:
        return self.result.metrics

    @property
    def corpus(self) -> MetricScore | None:
        """The first metric's corpus score (``None`` when no row was scored)."""
        return self.result.corpus

    @property
    def corpora(self) -> list[MetricScore | None]:
        """Each metric's corpus score."""
        return self.result.corpora

    @property
    def signature(self) -> str:
        """The first metric's signature."""
        return self.result.signature()

    @property
    def counts(self) -> dict[str, int]:
        """Rows read, scored, with a blank candidate, with a note (a row is scored, blank, or has a note that says why
        not; a row scored against some of its references only is scored and has a note)."""
        result = self.result
        return {"rows": len(result.rows), "scored": result.scored, "blank": result.blank, "with_note": result.problems}

    @property
    def notes(self) -> list[tuple[Part, ...]]:
        """What there is to say about the job besides the table read: rows scored against some of their
        references, scored in one process, cells cut to fit."""
        notes: list[tuple[Part, ...]] = list(self.result.notes)
        if self.result.single_process:
            notes.append((f"scored in one process: no process pool here ({self.result.single_process})",))
        if self.cut_cells.count:
            notes.append(cut_note(self.cut_cells, self.target.path))
        return notes


def cut_note(cuts: CutCells, output: str) -> tuple[Part, ...]:
    """The note on cells cut to fit a workbook, and how to keep them whole."""
    which = f"cell {cuts.first}" if cuts.count == 1 else f"{cuts.count:,} cells (the first {cuts.first})"
    csv_name = OutputTarget.csv_beside(output)
    return (
        f"{which} held more text than a workbook cell holds ({EXCEL_MAX_TEXT:,} UTF-16 units): cut to fit in "
        f"{output}; ",
        Setting("output", csv_name),
        " keeps every cell whole",
    )


def as_metrics(metrics: Metric[Any, Any, Any] | Sequence[Metric[Any, Any, Any]]) -> tuple[Metric[Any, Any, Any], ...]:
    """One metric or several, as a tuple (at least one; each a metric object; no two of one name: BleuError)."""
    if isinstance(metrics, Metric):
        chosen: tuple[Any, ...] = (metrics,)
    elif isinstance(metrics, (str, bytes)) or not isinstance(metrics, Iterable):
        chosen = ()
    else:
        chosen = tuple(metrics)
    if not chosen or not all(isinstance(metric, Metric) for metric in chosen):
        raise BleuTypeError(
            f"metrics must be a metric object or a sequence of them (bleu_xl.Bleu(), ...), not {metrics!r}"
        )
    names = [metric.name for metric in chosen]
    for name in names:
        if names.count(name) > 1:  # its columns would be told apart by nothing but "(2)"
            raise BleuError(Setting("metrics"), f" gives {name} twice")
    return chosen


def score_file(
    path: PathLike,
    *,
    output: PathLike | None = None,
    output_format: str | None = None,
    metrics: Metric[Any, Any, Any] | Sequence[Metric[Any, Any, Any]] = BLEU_2,
    candidate_col: str | None = None,
    reference_cols: Sequence[str] = (),
    reference_text: str | None = None,
    sheet: str | None = None,
    header_row: int | None = None,
    no_header: bool = False,
    encoding: str | None = None,
    delimiter: str | None = None,
    skip_hidden: bool = False,
    fill_down: bool = False,
    read_memory: int | str = DEFAULT_LIMITS.memory,
    read_time: float = DEFAULT_LIMITS.seconds,
    output_encoding: str | None = None,
    raw: bool = False,
    force: bool = False,
    workers: int | None = None,
    on_read: Callable[[ReadTable], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    spell: Callable[[Setting], str] = python_spelling,
) -> ScoredFile:
    """Score every candidate of a workbook (``.xlsx``, ``.xlsm``) or text table (CSV, TSV; ``-`` is standard input)
    and write the scores, ranks and a summary to ``output`` (by default ``INPUT-scored.xlsx`` beside the input;
    ``-`` is standard output), in ``output_format`` or the one its extension says.

    Columns are found by their headers, or given by letter or header (``candidate_col``, ``reference_cols``); a
    ``reference_text`` serves every candidate; with ``fill_down``, a row whose references are all blank takes those
    of the nearest row above that has some (references typed once per group). ``metrics`` are metric objects
    (``bleu_xl.Bleu()``, ``bleu_xl.Chrf(word_order=2)``), one or several, ranked by the first. The input is never
    modified; the output is written whole or not at all, and an existing one is replaced only with ``force``
    (checked once the input is read: a problem with the input is the one reported). Reading takes at most
    ``read_memory`` (bytes, or ``"2GB"``) in each process that reads, and ``read_time`` seconds.
    ``on_read(table)`` is called once the table is read and its columns found, ``on_progress(rows)`` as rows are
    scored. A large table is scored, and its
    workbook's rows written, by ``workers`` processes (by default one a core). The notes on what was read and scored
    (a column left out, rows scored against fewer references...) go into the output too, on a workbook's Summary
    sheet and under a JSON document's ``notes``, each setting they name spelt by ``spell`` (the command line passes
    its flags).
    """
    chosen = as_metrics(metrics)
    check_switch(force, "force")
    check_switch(raw, "raw")
    check_reference_text(reference_text, chosen)  # before the input is read
    input_path = path_text(path, "path")
    target = OutputTarget.choose(
        input_path,
        None if output is None else path_text(output, "output"),
        output_format=output_format,
        output_encoding=output_encoding,
        delimiter=delimiter,
        raw=raw,
    )
    options = table_options(
        candidate_col=candidate_col,
        reference_cols=reference_cols,
        reference_text=reference_text,
        sheet=sheet,
        header_row=header_row,
        no_header=no_header,
        encoding=encoding,
        delimiter=delimiter,
        skip_hidden=skip_hidden,
        fill_down=fill_down,
    )
    limits = read_limits(read_memory, read_time)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    read = read_input_table(input_path, options, limits)
    check_delimiter_used(read, target, delimiter)
    # The output is claimed once the input is read (the input's errors come first) and before it is scored.
    file = OutputFile(target.path, force=force, protect=[input_path])
    try:
        if on_read is not None:
            on_read(read)
        # Before scoring: a table that cannot fit a workbook is refused at once.
        target.check_size(read.data_rows + 1, len(read.layout.headers) + len(result_columns(chosen, ranked=False)))
        timings["read"] = time.perf_counter() - start

        start = time.perf_counter()
        result = score_table(read.sheet, read.layout, metrics=chosen, workers=workers, progress=on_progress)
        timings["score"] = time.perf_counter() - start

        start = time.perf_counter()
        notes = [render(note, spell) for note in (*read.notes, *result.notes)]
        cuts = write_result(
            result, file, target, input_name=read.input_name, sheet=read.sheet, notes=notes, workers=workers
        )
        timings["write"] = time.perf_counter() - start
    finally:
        file.release()
    return ScoredFile(read, result, target, cuts, timings)
