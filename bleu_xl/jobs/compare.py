"""Compare two candidate columns of a workbook or CSV file: which is better, and is the difference real?

:func:`compare_file` is what ``bleu-xl compare`` does, as one library call: it reads the table, runs the paired
bootstrap on both columns against the same references, optionally writes every row's scores, and returns a
:class:`ComparedFile`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BleuTypeError, Part, Setting, python_spelling, render
from ..core.metrics import BLEU_2, Metric
from ..files.read.limits import DEFAULT_LIMITS
from ..files.write.output import OutputFile
from ..files.write.results import write_comparison
from ..files.write.scored_workbook import CutCells
from ..files.write.target import OutputTarget
from ..table.compare import Comparison, compare_table, paired_test_of
from ..table.scoring import check_reference_text
from ..table.sheet import InputError, check_column_given, check_switch
from .reading import PathLike, ReadTable, check_delimiter_used, path_text, read_input_table, read_limits, table_options
from .score import cut_note

__all__ = ["ComparedFile", "compare_file"]


@dataclass
class ComparedFile:
    """What :func:`compare_file` did: the table it read, the comparison (the paired test, the rows used, each row's
    score on both sides), and where it wrote the rows (``target``; ``None`` when no output was asked for)."""

    read: ReadTable
    comparison: Comparison
    target: OutputTarget | None = None
    cut_cells: CutCells = field(default_factory=CutCells)

    @property
    def output(self) -> str | None:
        return None if self.target is None else self.target.path

    def describe(self) -> tuple[Part, ...]:
        """Which header row and columns were compared (candidate_col holds A, b_col B)."""
        return self.read.describe(self.comparison.b_col)

    @property
    def notes(self) -> list[tuple[Part, ...]]:
        """What there is to say about the job besides the table read: the comparison's notes (rows the metric
        read as far fewer words than they hold), cells cut to fit a workbook."""
        notes = list(self.comparison.notes)
        if self.target is not None and self.cut_cells.count:
            notes.append(cut_note(self.cut_cells, self.target.path))
        return notes


def compare_file(
    path: PathLike,
    *,
    candidate_col: str,
    b_col: str,
    reference_cols: Sequence[str] = (),
    reference_text: str | None = None,
    metric: Metric[Any, Any, Any] = BLEU_2,
    test: str = "bs",
    samples: int | None = None,
    seed: int = 12345,
    sheet: str | None = None,
    header_row: int | None = None,
    no_header: bool = False,
    encoding: str | None = None,
    delimiter: str | None = None,
    skip_hidden: bool = False,
    fill_down: bool = False,
    read_memory: int | str = DEFAULT_LIMITS.memory,
    read_time: float = DEFAULT_LIMITS.seconds,
    output: PathLike | None = None,
    output_format: str | None = None,
    output_encoding: str | None = None,
    raw: bool = False,
    force: bool = False,
    workers: int | None = None,
    on_read: Callable[[ComparedFile], None] | None = None,
    spell: Callable[[Setting], str] = python_spelling,
) -> ComparedFile:
    """Compare candidates A (``candidate_col``) with candidates B (``b_col``) row by row against the same references,
    under ``metric`` (BLEU-2 by default), by a paired test drawn from ``seed``: the paired bootstrap (``test="bs"``,
    Koehn 2004, as sacrebleu's ``--paired-bs``; ``samples`` resamples, 1,000 by default) or approximate
    randomization (``test="ar"``, as sacrebleu's ``--paired-ar``; ``samples`` trials, 10,000 by default). Rows
    with a blank reference or a blank candidate on either side are left out of both. With ``output``, also write
    every row with both columns' scores (a workbook has the test on a Summary sheet; a large one's rows written by
    ``workers`` processes, by default one a core). The other settings read the table as
    :func:`~bleu_xl.jobs.score.score_file` reads it.
    ``on_read(compared)`` is called once the comparison is made, before anything is written. The notes on what was
    read and compared go into the output too (a workbook's Summary sheet, a JSON document's ``notes``), each
    setting they name spelt by ``spell`` (the command line passes its flags).
    """
    if not isinstance(metric, Metric):
        raise BleuTypeError(f"metric must be a metric object (bleu_xl.Bleu(), bleu_xl.Chrf()...), not {metric!r}")
    check_switch(force, "force")
    check_switch(raw, "raw")
    paired_test_of(test, metric, samples, seed)  # its settings are checked before the input is read
    check_column_given(b_col, "b_col", required=True)
    check_reference_text(reference_text, (metric,), "metric")
    input_path = path_text(path, "path")
    target = None
    if output is not None:
        target = OutputTarget.choose(
            input_path,
            path_text(output, "output"),
            output_format=output_format,
            output_encoding=output_encoding,
            delimiter=delimiter,
            raw=raw,
        )
    elif output_encoding is not None:
        raise InputError(
            Setting("output_encoding"), " applies to a CSV output (JSON is UTF-8, a workbook has no encoding)"
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
    read = read_input_table(input_path, options, limits)
    check_delimiter_used(read, target, delimiter)
    # The output is claimed once the input is read (the input's errors come first) and before it is compared.
    file = None if target is None else OutputFile(target.path, force=force, protect=[input_path])
    try:
        from ..fast.column_sums import NumpySums  # here: numpy's import costs every other command time and memory

        comparison = compare_table(
            read.sheet,
            read.layout,
            b_col,
            samples=samples,
            seed=seed,
            metric=metric,
            test=test,
            sums=NumpySums(),
            header_given=header_row is not None,
        )
        compared = ComparedFile(read, comparison, target)
        if on_read is not None:
            on_read(compared)
        if file is not None and target is not None:
            notes = [render(note, spell) for note in (*read.notes, *comparison.notes)]
            compared.cut_cells = write_comparison(
                file,
                target,
                read.sheet,
                read.layout,
                comparison,
                input_name=read.input_name,
                notes=notes,
                workers=workers,
            )
    finally:
        if file is not None:
            file.release()
    return compared
