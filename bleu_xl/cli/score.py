"""``bleu-xl score``: its options turned into one :func:`bleu_xl.score_file` call, and the summary it prints."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from .. import Bleu, MetricScore, ReadTable, ScoredFile, metrics_named, render, score_file
from .guard import guard, wrote
from .options import (
    FLAGS,
    Command,
    ReadFlags,
    chrf_options,
    flag_spelling,
    given_settings,
    table_options,
    ter_options,
)
from .terminal import CLOSED_AT_START, Failure, console, echo, printable

__all__ = ["announce", "score_command", "show_summary"]

PROGRESS_MIN_ROWS = 5_000


def announce(read: ReadTable, compared: int | None = None, flags: dict[str, str] = FLAGS) -> None:
    """The line on standard error that says what was read: the sheet (or encoding), header row and columns;
    then a line per note (a column left out)."""
    spell = flag_spelling(flags)
    echo(f"bleu-xl: {read.input_path}{read.read_as}: {render(read.describe(compared), spell)}", err=True)
    for note in read.notes:
        echo(f"bleu-xl: note: {render(note, spell)}", err=True)


@click.command("score", cls=Command)
@click.argument("input_path", metavar="INPUT")
@click.option(
    "-o",
    "--output",
    help="Output file: .xlsx, .csv, .tsv, .json (one document) or .jsonl (an object a line); default "
    "INPUT-scored.xlsx, - for stdout.",
)
@click.option(
    "--reference-col", "reference_cols", multiple=True, help="Reference column (letter or header); repeat for several."
)
@click.option("--candidate-col", help="Candidate column (letter or header).")
@click.option("--reference", "reference_text", help="Score every candidate against this one text.")
@table_options
@click.option(
    "--metric",
    "metric_names",
    multiple=True,
    help="Metrics, comma-separated or repeated: bleu (BLEU-N, see --max-n), chrf (chrF, see --char-order, "
    "--word-order, --beta), ter (TER, lower is better; with the words that changed); one column each, ranked by "
    "the first (default: bleu).",
)
@click.option(
    "--max-n", default=2, show_default=True, type=click.IntRange(1, Bleu.MAX_ORDER), help="BLEU: longest n-gram."
)
@click.option("--smoothing", default="add1", show_default=True, type=click.Choice(Bleu.SMOOTHING_METHODS))
@chrf_options
@ter_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["xlsx", "csv", "tsv", "json", "jsonl"]),
    help="Output format (default: from -o, else xlsx); tsv is CSV with tabs, for -o - too.",
)
@click.option("--raw", is_flag=True, help="CSV: write text exactly as read, without the ' before a leading = + - @.")
@click.option(
    "--output-encoding", help="Encoding of a CSV output (default: UTF-8, with a BOM in a file so that Excel reads it)."
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@click.option("--quiet", "-q", is_flag=True, help="No summary and no progress bar.")
@guard()
def score_command(
    input_path: str,
    output: str | None,
    read: ReadFlags,
    reference_cols: tuple[str, ...],
    candidate_col: str | None,
    reference_text: str | None,
    metric_names: tuple[str, ...],
    max_n: int,
    smoothing: str,
    char_order: int,
    word_order: int,
    beta: int,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    fmt: str | None,
    raw: bool,
    output_encoding: str | None,
    force: bool,
    quiet: bool,
) -> None:
    """Score every candidate of a workbook or CSV and write the scores, ranks and a summary.

    Columns are found by their headers (Reference / Référence / Referência, Candidate / Candidat / Candidato;
    an exact name wins, a qualified one such as "Candidate text" only when it is the only one, hidden columns
    never) or given with --reference-col and --candidate-col. A reference column with one filled cell, above or
    beside the first candidate, is that reference for every candidate. The columns and header row used are
    printed on standard error. Candidates that share a reference are ranked among themselves; with a reference
    per row there is no rank. A table's totals row is never a candidate; hidden and filtered-out rows are scored
    (and counted) unless --skip-hidden. The input is never modified.

    \b
    Examples:
      bleu-xl score copy.xlsx
      bleu-xl score copy.xlsx --metric bleu,chrf
      bleu-xl score translations.xlsx --metric ter,bleu
      bleu-xl score export.csv --reference-col B --candidate-col C -o scores.csv
      bleu-xl score variants.xlsx --reference "Free delivery on every order" --format json -o -
      cat export.csv | bleu-xl score - -o scores.xlsx
    """
    metrics = metrics_named(
        metric_names,
        **given_settings(
            max_n=max_n,
            smoothing=smoothing,
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        ),
    )
    to_stdout = output == "-" or (output is None and input_path == "-")
    if to_stdout:
        wrote("-")  # from here, a stop may leave part of the output on standard output
    if to_stdout and 1 in CLOSED_AT_START:
        raise Failure("standard output is closed: nothing could be written; give a file with -o")
    if to_stdout and fmt == "xlsx" and sys.stdout.isatty():  # a zip's bytes would garble the terminal
        raise Failure("an .xlsx workbook is not text to show on a terminal: give a file with -o, or pipe it on")
    with contextlib.ExitStack() as bar_stack:
        progress = _Progress(bar_stack, show=not quiet and sys.stderr.isatty())
        scored = score_file(
            input_path,
            output=output,
            output_format=fmt,
            metrics=metrics,
            candidate_col=candidate_col,
            reference_cols=reference_cols,
            reference_text=reference_text,
            output_encoding=output_encoding,
            raw=raw,
            force=force,
            on_read=progress.start,
            on_progress=progress.advance,
            spell=flag_spelling(FLAGS),
            **read.settings(),
        )
    if not scored.target.to_stdout:
        wrote(scored.output)
    spell = flag_spelling(FLAGS)
    for note in scored.notes:
        echo(f"bleu-xl: note: {render(note, spell)}", err=True)
    if os.environ.get("BLEU_XL_TIMINGS"):
        click.echo(" ".join(f"{k}={v:.2f}s" for k, v in scored.timings.items()), err=True)
    if not quiet:
        show_summary(scored, err=scored.target.to_stdout)


def _counts(result: Any) -> str:
    """The metrics and the rows each scored, then the rows blank and with a note, as the note column shows them: a
    row scored against some of its references only is scored and has a note (``1 of 2 references``), said in
    brackets. Metrics that scored as many rows share their count (``BLEU-2, chrF2: 3 scored, ...``); those that
    did not each have theirs (``BLEU-2: 0 scored; chrF2, TER: 3 scored; 0 blank, 3 with a note``)."""
    fewer = len(result.fewer_references())
    some = f" ({fewer:,} of them scored against fewer references)" if fewer else ""
    groups = result.scored_groups()
    scored = "; ".join(f"{', '.join(names)}: {count:,} scored" for names, count in groups)
    rest = "," if len(groups) == 1 else ";"
    return f"{scored}{rest} {result.blank:,} blank, {result.problems:,} with a note{some}"


class _Progress:
    """Announces the table read and, on a terminal, shows a progress bar while a large table is scored."""

    def __init__(self, stack: contextlib.ExitStack, *, show: bool) -> None:
        self.stack, self.show = stack, show
        self.bar: Any = None
        self.task: Any = None

    def start(self, read: ReadTable) -> None:
        announce(read)
        if self.show and read.data_rows >= PROGRESS_MIN_ROWS:
            from rich.progress import Progress

            self.bar = self.stack.enter_context(Progress(transient=True, console=console(err=True)))
            self.task = self.bar.add_task("scoring", total=read.data_rows)

    def advance(self, rows: int) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, rows)
            if self.bar.finished:
                self.stack.close()
                self.bar = None


def show_summary(scored: ScoredFile, *, err: bool, top: int = 5) -> None:
    """The counts, then the best candidates (the lowest-scoring rows when most rows have their own reference, as
    in translations) with their rows as Excel numbers them, the corpus score, the signature and the output."""
    from rich.table import Table
    from rich.text import Text

    out = console(err)
    result = scored.result
    where = "standard output" if scored.target.to_stdout else scored.output

    def line(text: str) -> None:  # whole, however long (a path): never wrapped at the console's width
        out.print(Text(printable(text)), soft_wrap=True)

    line(_counts(result))
    scored_rows = [i for i in range(len(result.rows)) if result.value(i) is not None]
    if scored_rows:
        first = result.metrics[0]
        sign = 1.0 if first.higher_is_better else -1.0  # the better, the higher sign * score
        # Ranks lead only when most rows have one: in a translation a few repeated references rank a few rows, and
        # their rank-1 rows would hide the weakest of all the others.
        ranked_rows = sum(1 for i in scored_rows if result.ranks[i] is not None)
        by_rank = result.ranked and 2 * ranked_rows >= len(scored_rows)
        if by_rank and result.groups > 1:  # ranks are per reference: the best of each first, never mixed
            order = sorted(
                scored_rows,
                key=lambda i: (result.ranks[i] or len(result.rows) + 1, -sign * (result.value(i) or 0.0), i),
            )
            which = "top"
        elif by_rank:  # the best first (by the first metric, the one that ranks)
            order, which = sorted(scored_rows, key=lambda i: (-sign * (result.value(i) or 0.0), i)), "top"
        else:  # (almost) no two rows share a reference: the rows to look at first are the weakest
            order, which = sorted(scored_rows, key=lambda i: (sign * (result.value(i) or 0.0), i)), "lowest"
        per = f", by rank within each of {result.groups:,} references" if by_rank and result.groups > 1 else ""
        aside = ""
        if result.ranked and not by_rank:
            shared = "one reference" if result.groups == 1 else f"one of {result.groups:,} references"
            per = " by score"
            aside = f"most rows have their own reference; {ranked_rows:,} share {shared}, ranked among themselves; "
        shown = f"{min(top, len(order)):,} of {len(order):,}{per}"
        if first.higher_is_better:
            line(f"the {which} {shown} ({aside}all in {where}):")
        else:  # say which way it ranks
            which = "top" if by_rank else "weakest"
            end = "lowest" if by_rank else "highest"
            line(f"the {which} {shown}, {end} {first.name} first ({aside}lower is better; all in {where}):")
        table = Table()
        table.add_column("row", justify="right")
        if result.ranked:
            table.add_column("rank", justify="right")
        for metric in result.metrics:
            table.add_column(metric.name, justify="right")
        table.add_column("candidate")
        for i in order[:top]:
            text = printable(result.candidate_text(i))
            shown = text if len(text) <= 70 else text[:67] + "..."
            rank = [str(result.ranks[i] or "-")] if result.ranked else []
            values = [scores[i] for scores in result.scores]
            numbers = [f"{float(v):.4f}" if isinstance(v, MetricScore) else "-" for v in values]
            table.add_row(str(result.row_numbers[i]), *rank, *numbers, Text(shown))
        out.print(table)
    corpora = "   ".join(
        (f"corpus {metric.name} {float(corpus):.4f}" if corpus is not None else f"corpus {metric.name} -")
        + result.coverage(k)
        for k, (metric, corpus) in enumerate(zip(result.metrics, result.corpora))
    )
    line(f"{corpora}   reference: {result.layout.reference_source}")
    for signature in result.signatures():
        line(f"signature {signature}")  # one line, to copy whole
    line(f"written to {where}")
