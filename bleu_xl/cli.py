"""The ``bleu-xl`` command: score a workbook or CSV with no Excel, show one pair in detail, build the template."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import click

from . import __version__
from .core.bleu import SMOOTHING_METHODS
from .core.bootstrap import p_text
from .core.chrf import MAX_BETA, MAX_CHAR_ORDER, MAX_WORD_ORDER, ChrfScore, chrf
from .core.errors import BleuXlError, Setting, render
from .core.explain import explain, order_name
from .core.tokenizer import tokenize
from .excel.cell_values import EXCEL_MAX_TEXT, CellError, cell_text
from .files.limits import DEFAULT_LIMITS, ReadLimits, parse_size
from .files.output import OutputFile, write_folder
from .files.readers import display_name, read_table
from .files.results import TextOptions, check_workbook_size, write_comparison, write_result
from .files.scored_workbook import CutCells
from .files.signals import Terminated, stop_on_signals
from .files.text_reader import text_codec
from .files.writers import output_delimiter
from .table.columns import Layout
from .table.compare import compare_table
from .table.metrics import Metric, Scored, check_reference_text, metrics_named
from .table.scoring import Result, result_columns, score_table
from .table.sheet import InputError, Sheet, TableOptions

EXIT_INPUT = 2
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell shows for a command a closed pipe ended
PROGRESS_MIN_ROWS = 5_000
OUTPUT_FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "jsonl"}
#: Workbook extensions other than .xlsx: a file name the template cannot be written to.
OTHER_WORKBOOK_SUFFIXES = {".xls", ".xlsm", ".xlsb", ".xltx", ".xltm", ".xlt", ".xla", ".xlam", ".ods", ".numbers"}
DELIMITER_NAMES = {",": ",", ";": ";", "\\t": "\t", "\t": "\t", "tab": "\t", "|": "|"}
# C0 and C1 controls (ESC starts terminal escapes: window titles, OSC-8 links) and the bidirectional overrides.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(char: str) -> str:
    if "\udc80" <= char <= "\udcff":  # a byte of a file name that is not UTF-8, as Python keeps it
        return f"\\x{ord(char) - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


def printable(text: str) -> str:
    """User text made safe for a terminal: control characters shown escaped (``\\x1b``, ``\\n``), and the bytes
    of a name that is not UTF-8 as ``\\xe9``."""
    return _CONTROL.sub(lambda m: _escaped(m.group()), text)


def echo(text: str, *, err: bool = False) -> None:
    click.echo(printable(text), err=err)


#: Each setting a library message can name, as this command spells it: the option that sets it.
FLAGS = {
    "candidate_col": "--candidate-col",
    "reference_cols": "--reference-col",
    "reference_text": "--reference",
    "header_row": "--header-row",
    "no_header": "--no-header",
    "sheet": "--sheet",
    "encoding": "--encoding",
    "output_encoding": "--output-encoding",
    "delimiter": "--delimiter",
    "force": "--force",
    "b_col": "--b",
    "read_memory": "--read-memory",
    "read_time": "--read-time",
    "skip_hidden": "--skip-hidden",
    "output": "-o",
    "wheel": "--wheel",
    "metric": "--metric",
    "max_n": "--max-n",
    "smoothing": "--smoothing",
    "char_order": "--char-order",
    "word_order": "--word-order",
    "beta": "--beta",
}
#: compare names its candidate columns --a and --b.
COMPARE_FLAGS = {**FLAGS, "candidate_col": "--a"}


def flag_spelling(flags: dict[str, str]) -> Callable[[Setting], str]:
    """How this command spells a setting in a message: its flag, then the value to give it (``--candidate-col B``);
    a flag alone (``--force``) when the value is a switch."""

    def spell(setting: Setting) -> str:
        flag = flags.get(setting.name, setting.name)
        if setting.value is None or setting.value is True:
            return flag
        values = setting.value if isinstance(setting.value, tuple) else (setting.value,)
        return " ".join(f"{flag} {value}" for value in values)

    return spell


class Failure(click.ClickException):
    """One line on standard error and exit code 2, never a traceback."""

    exit_code = EXIT_INPUT

    def show(self, file: Any = None) -> None:
        echo(f"bleu-xl: error: {self.message}", err=True)


#: The arguments that are text (not file names): a byte that is not UTF-8 in them is decoded, never a word break.
TEXT_ARGUMENTS = {
    "reference_text",
    "reference_cols",
    "candidate_col",
    "sheet",
    "a_col",
    "b_col",
    "reference",
    "candidate",
}
_SURROGATES = re.compile("[\udc80-\udcff]")


def user_text(name: str, value: Any) -> Any:
    """An argument as the user typed it: where Python could not decode it in the locale's encoding (``LC_ALL=C``
    keeps each byte of ``á`` apart as a surrogate), its bytes are decoded as UTF-8; bytes that are not UTF-8 are
    refused, since a surrogate would split the word in two."""
    if isinstance(value, tuple):
        return tuple(user_text(name, item) for item in value)
    if not isinstance(value, str) or not _SURROGATES.search(value):
        return value
    try:
        return os.fsencode(value).decode("utf-8")
    except (UnicodeError, ValueError):
        raise InputError(f"{printable(value)!r} is not UTF-8 text; check ", Setting(name)) from None


#: The standard streams that were closed when the command started (each now /dev/null, so that no file the
#: command opens takes their place).
CLOSED_AT_START: set[int] = set()


def _standard_streams() -> None:
    """Open /dev/null where standard input, output or error is closed (``2>&-``), so that the next file opened
    does not become one of them, and write text to the terminal in any locale (what cannot be shown is escaped)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            CLOSED_AT_START.add(fd)
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if 0 in CLOSED_AT_START and sys.stdin is None:
        sys.stdin = open(0, errors="surrogateescape", closefd=False)  # noqa: SIM115 - for the whole run
    if 1 in CLOSED_AT_START and sys.stdout is None:
        sys.stdout = open(1, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115 - for the whole run
    if 2 in CLOSED_AT_START and sys.stderr is None:
        sys.stderr = open(2, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115 - for the whole run
    if not os.environ.get("BLEU_XL_DEBUG"):  # an error in a __del__ (a half-written zip's) is no line for the user
        sys.unraisablehook = lambda unraisable: None
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def _guard(flags: dict[str, str] = FLAGS) -> Callable[[Any], Any]:
    """Map every expected failure to one line and exit code 2 (settings named by ``flags``); anything else to one
    line and exit code 1."""
    spell = flag_spelling(flags)

    def decorate(fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                with stop_on_signals():
                    kwargs = {
                        name: user_text(name, value) if name in TEXT_ARGUMENTS else value
                        for name, value in kwargs.items()
                    }
                    return fn(*args, **kwargs)
            except BleuXlError as exc:
                raise Failure(exc.render(spell)) from None
            except click.ClickException:
                raise
            except Terminated as exc:
                name = signal.Signals(exc.signum).name
                echo(f"bleu-xl: terminated by {name}; stopped the workers, no output written", err=True)
                raise SystemExit(128 + exc.signum) from None
            except KeyboardInterrupt:
                raise SystemExit(130) from None
            except BrokenPipeError:
                _closed_pipe()
            except OSError as exc:  # a file that cannot be read or written: the user's to fix, not a bug
                where = f"{exc.filename}: " if exc.filename else ""
                raise Failure(f"{where}{exc.strerror or exc}") from None
            except Exception as exc:
                if os.environ.get("BLEU_XL_DEBUG"):
                    raise
                echo(f"bleu-xl: internal error: {type(exc).__name__}: {exc} (BLEU_XL_DEBUG=1 shows more)", err=True)
                raise SystemExit(1) from None

        return wrapper

    return decorate


def _closed_pipe() -> NoReturn:
    """The reader of standard output (or error) went away (``| head``): stop quietly with the status of a command
    SIGPIPE ended (128 + 13), as other command-line tools do, whatever was being written. What was still to be
    written to a closed stream goes to /dev/null, so that Python's last flush at exit finds no pipe to fail on.
    An output file written before is whole: the status says only that the reader stopped reading."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
    raise SystemExit(EXIT_CLOSED_PIPE)


def _delimiter(value: str | None) -> str | None:
    if value is None:
        return None
    if value not in DELIMITER_NAMES:
        raise InputError(f"--delimiter {value!r}: use , ; tab or |")
    return DELIMITER_NAMES[value]


class _Command(click.Command):
    """A command whose help, read before any of its code runs, ends on a closed pipe as the command would."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:  # click's own handling exits with code 1
            _closed_pipe()


class _TextsCommand(_Command):
    """A command whose arguments are free text: one that starts with ``-`` (``"-5 off"``) is taken for an option
    unless it comes after ``--``, and the refusal says so in one line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            meant = f" (did you mean {' or '.join(sorted(exc.possibilities))}?)" if exc.possibilities else ""
            raise Failure(
                f"no such option {exc.option_name!r}{meant}; a text that starts with - goes after --, as in "
                f'bleu-xl {self.name} -- "a b" "-5 off"'
            ) from None


class _Group(click.Group):
    """The command group: its ``--help`` and ``--version`` too end on a closed pipe as every command does."""

    command_class = _Command

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            _closed_pipe()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="bleu-xl")
def main() -> None:
    """BLEU-2 (and BLEU-N) scores for spreadsheets, with no Excel needed.

    \b
    Examples:
      bleu-xl template        (writes workbooks/bleu2_ranking.xlsx and workbooks/samples)
      bleu-xl score workbooks/samples/marketing_en.xlsx
    """
    _standard_streams()


def _keep_limit(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """Keep a reading limit aside for :func:`_read_limits`, so that the commands' signatures need not carry it."""
    ctx.meta[f"bleu_xl.{param.name}"] = value


def _read_limits() -> ReadLimits:
    """The reading limits the options gave (the defaults outside a command)."""
    ctx = click.get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    memory = meta.get("bleu_xl.read_memory")
    seconds = meta.get("bleu_xl.read_time")
    return ReadLimits(
        memory=DEFAULT_LIMITS.memory if memory is None else parse_size(memory),
        seconds=DEFAULT_LIMITS.seconds if seconds is None else seconds,
    )


def _table_options(run: Any) -> Any:
    """The options that say how to read the input table, shared by score and compare, handed to the command as
    one :class:`ReadFlags` named ``read``."""

    @functools.wraps(run)
    def command(
        *args: Any,
        sheet: str | None,
        header_row: int | None,
        no_header: bool,
        encoding: str | None,
        delimiter: str | None,
        skip_hidden: bool,
        **kwargs: Any,
    ) -> Any:
        return run(*args, read=ReadFlags(sheet, header_row, no_header, encoding, delimiter, skip_hidden), **kwargs)

    fn: Any = command
    for option in reversed(
        [
            click.option("--sheet", help="Sheet to read (default: the first visible one, past a cover page)."),
            click.option("--header-row", type=click.IntRange(1), help="The row that holds the headers (1 = first)."),
            click.option("--no-header", is_flag=True, help="Every row is data; give the columns by letter."),
            click.option("--encoding", help="Encoding of a CSV input (default: detected)."),
            click.option("--delimiter", help="Delimiter of a CSV input (default: detected) and output: , ; tab |"),
            click.option(
                "--skip-hidden", is_flag=True, help="Leave out rows hidden by hand or by a filter (default: scored)."
            ),
            click.option(
                "--read-memory",
                metavar="SIZE",
                default="2GB",
                show_default=True,
                expose_value=False,
                callback=_keep_limit,
                help="Memory reading the input may take (2GB, 500MB); a workbook that needs more is refused.",
            ),
            click.option(
                "--read-time",
                metavar="SECONDS",
                type=click.FloatRange(min=0, min_open=True),
                default=DEFAULT_LIMITS.seconds,
                show_default=True,
                expose_value=False,
                callback=_keep_limit,
                help="Time reading a workbook may take; one that needs more is refused.",
            ),
        ]
    ):
        fn = option(fn)
    return fn


def _chrf_options(fn: Any) -> Any:
    """chrF's settings, shared by score, pair and compare (sacrebleu's defaults: chrF2)."""
    settings = [
        ("--char-order", 6, 1, MAX_CHAR_ORDER, "chrF: longest character n-gram."),
        ("--word-order", 0, 0, MAX_WORD_ORDER, "chrF: longest word n-gram (2 gives chrF++)."),
        ("--beta", 2, 1, MAX_BETA, "chrF: recall counts beta times as much as precision."),
    ]
    for flag, default, low, high, text in reversed(settings):
        option = click.option(flag, default=default, show_default=True, type=click.IntRange(low, high), help=text)
        fn = option(fn)
    return fn


@dataclass(frozen=True)
class ReadFlags:
    """The options that say how to read the input table, as score and compare receive them."""

    sheet: str | None
    header_row: int | None
    no_header: bool
    encoding: str | None
    delimiter: str | None
    skip_hidden: bool


def _read_options(
    read: ReadFlags, reference_cols: tuple[str, ...], candidate_col: str | None, reference_text: str | None
) -> TableOptions:
    """The table options the command's flags give, the delimiter's name read as the character it names."""
    return TableOptions(
        sheet=read.sheet,
        encoding=read.encoding,
        delimiter=_delimiter(read.delimiter),
        header_row=read.header_row,
        no_header=read.no_header,
        reference_cols=reference_cols,
        candidate_col=candidate_col,
        reference_text=reference_text,
        skip_hidden=read.skip_hidden,
    )


def _read_table(input_path: str, options: TableOptions, *, announce: bool = True) -> tuple[Sheet, Layout]:
    table, layout = read_table(input_path, options, _read_limits())
    if announce:
        _announce(input_path, table, layout)
    return table, layout


def _announce(
    input_path: str, table: Sheet, layout: Layout, compared: int | None = None, flags: dict[str, str] = FLAGS
) -> None:
    """The line on standard error that says what was read: the sheet (or encoding), header row and columns;
    then a line per note (a column left out)."""
    read_as = f" ({table.encoding}, delimiter {table.delimiter!r})" if table.is_text else f", sheet {table.name!r}"
    columns = render(layout.describe(compared), flag_spelling(flags))
    echo(f"bleu-xl: {input_path}{read_as}: {columns}", err=True)
    for note in layout.notes:
        echo(f"bleu-xl: note: {render(note, flag_spelling(flags))}", err=True)


@main.command("score")
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
@_table_options
@click.option(
    "--metric",
    "metric_names",
    multiple=True,
    help="Metrics, comma-separated or repeated: bleu (BLEU-N, see --max-n), chrf (chrF, see --char-order, "
    "--word-order, --beta); one column each, ranked by the first (default: bleu).",
)
@click.option("--max-n", default=2, show_default=True, type=click.IntRange(1, 9), help="BLEU: longest n-gram.")
@click.option("--smoothing", default="add1", show_default=True, type=click.Choice(SMOOTHING_METHODS))
@_chrf_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["xlsx", "csv", "json", "jsonl"]),
    help="Output format (default: from -o, else xlsx).",
)
@click.option("--raw", is_flag=True, help="CSV: write text exactly as read, without the ' before a leading = + - @.")
@click.option(
    "--output-encoding", help="Encoding of a CSV output (default: UTF-8, with a BOM in a file so that Excel reads it)."
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@click.option("--quiet", "-q", is_flag=True, help="No summary and no progress bar.")
@_guard()
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
      bleu-xl score export.csv --reference-col B --candidate-col C -o scores.csv
      bleu-xl score variants.xlsx --reference "Free delivery on every order" --format json -o -
      cat export.csv | bleu-xl score - -o scores.xlsx
    """
    metrics = metrics_named(
        metric_names, max_n=max_n, smoothing=smoothing, char_order=char_order, word_order=word_order, beta=beta
    )
    check_reference_text(reference_text, metrics)  # before the input is read
    output, fmt = _output_target(input_path, output, fmt)
    if read.encoding is not None:
        text_codec(read.encoding)
    _check_output_encoding(output_encoding, fmt)
    if output == "-" and 1 in CLOSED_AT_START:
        raise InputError("standard output is closed: nothing could be written; give a file with -o")
    target = OutputFile(output, force=force, protect=[input_path])  # claimed before anything is read
    timings: dict[str, float] = {}
    try:
        start = time.perf_counter()
        options = _read_options(read, reference_cols, candidate_col, reference_text)
        table, layout = _read_table(input_path, options)
        if fmt == "xlsx":  # before scoring: a table that cannot fit a workbook is refused at once
            columns = len(layout.headers) + len(result_columns(metrics, ranked=False))
            check_workbook_size(output, len(layout.data_rows(len(table.rows))) + 1, columns)
        timings["read"] = time.perf_counter() - start

        start = time.perf_counter()
        rows = max(len(table.rows) - layout.data_start, 0)
        show_progress = not quiet and sys.stderr.isatty() and rows >= PROGRESS_MIN_ROWS
        if show_progress:
            from rich.progress import Progress

            with Progress(transient=True, console=_console(err=True)) as bar:
                task = bar.add_task("scoring", total=rows)
                result = score_table(table, layout, metrics=metrics, progress=lambda n: bar.advance(task, n))
        else:
            result = score_table(table, layout, metrics=metrics)
        timings["score"] = time.perf_counter() - start
        if result.single_process:
            echo(f"bleu-xl: note: scored in one process: no process pool here ({result.single_process})", err=True)

        start = time.perf_counter()
        cuts = write_result(
            result,
            target,
            fmt,
            input_name=display_name(input_path),
            sheet=table,
            text=TextOptions(output_encoding, output_delimiter(_delimiter(read.delimiter), output, table), raw),
        )
        timings["write"] = time.perf_counter() - start
    finally:
        target.release()
    _say_cut(cuts, output)

    if os.environ.get("BLEU_XL_TIMINGS"):
        click.echo(" ".join(f"{k}={v:.2f}s" for k, v in timings.items()), err=True)
    if not quiet:
        show_summary(result, output, err=output == "-")


def _check_output_encoding(encoding: str | None, fmt: str | None) -> None:
    """An output encoding is a text encoding, and only a CSV output has one to choose."""
    if encoding is None:
        return
    text_codec(encoding, "output_encoding")
    if fmt != "csv":
        raise InputError(
            Setting("output_encoding"), " applies to a CSV output (JSON is UTF-8, a workbook has no encoding)"
        )


def _say_cut(cuts: CutCells, output: str) -> None:
    """One line when cells were cut to fit a workbook, and how to keep them whole."""
    if cuts.count:
        which = f"cell {cuts.first}" if cuts.count == 1 else f"{cuts.count:,} cells (the first {cuts.first})"
        csv_name = flag_spelling(FLAGS)(Setting("output", str(Path(output).with_suffix(".csv"))))
        echo(
            f"bleu-xl: note: {which} held more text than a workbook cell holds ({EXCEL_MAX_TEXT:,} UTF-16 units): "
            f"cut to fit in {output}; {csv_name} keeps every cell whole",
            err=True,
        )


def _output_target(input_path: str, output: str | None, fmt: str | None) -> tuple[str, str]:
    """The output path and format; an extension that is unknown or says another format is refused."""
    if output is None:
        if input_path == "-":
            return "-", fmt or "csv"
        stem = Path(input_path)
        fmt = fmt or "xlsx"
        return str(stem.with_name(f"{stem.stem}-scored.{fmt}")), fmt
    if output == "-":
        return output, fmt or "csv"
    suffix = Path(output).suffix.lower()
    if suffix not in OUTPUT_FORMATS:
        raise InputError(
            f"{output}: unknown output extension {suffix or '(none)'!r}; use .xlsx, .csv, .tsv, .json or .jsonl"
        )
    if fmt is not None and OUTPUT_FORMATS[suffix] != fmt:
        raise InputError(f"{output}: a {suffix} file cannot hold --format {fmt}; change the extension or the format")
    return output, OUTPUT_FORMATS[suffix]


def _console(err: bool = False) -> Any:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich's own exits with code 1 (and points standard output at /dev/null whichever stream broke); a
            # closed stream ends every command the same way, in _guard.
            self.quiet = True
            raise BrokenPipeError

    # No markup, emoji or highlighting: user text is shown as it is, never interpreted.
    return _Console(stderr=err, highlight=False, markup=False, emoji=False)


def shown_value(value: Any) -> str:
    """A cell as Excel shows it in General format (2026, not 2026.0; TRUE, not True), safe for a terminal."""
    text = cell_text(value)
    return printable("" if text is None else text.text if isinstance(text, CellError) else text)


def show_summary(result: Result, output: str, *, err: bool, top: int = 5) -> None:
    """The counts, then the best candidates (the lowest-scoring rows when each row has its own reference, as in
    translations) with their rows as Excel numbers them, the corpus score, the signature and the output."""
    from rich.table import Table
    from rich.text import Text

    console = _console(err)
    where = "standard output" if output == "-" else output
    names = ", ".join(metric.name for metric in result.metrics)

    def line(text: str) -> None:  # whole, however long (a path): never wrapped at the console's width
        console.print(Text(printable(text)), soft_wrap=True)

    line(f"{names}: {result.scored:,} scored, {result.blank:,} blank, {result.problems:,} with a note")
    scored = [i for i in range(len(result.rows)) if result.value(i) is not None]
    if scored:
        if result.ranked:  # the best first (by the first metric, the one that ranks)
            order, which = sorted(scored, key=lambda i: (-(result.value(i) or 0.0), i)), "top"
        else:  # no two rows share a reference: no ranking, and the rows to look at first are the weakest
            order, which = sorted(scored, key=lambda i: (result.value(i) or 0.0, i)), "lowest"
        line(f"the {which} {min(top, len(order)):,} of {len(order):,} (all in {where}):")
        table = Table()
        table.add_column("row", justify="right")
        if result.ranked:
            table.add_column("rank", justify="right")
        for metric in result.metrics:
            table.add_column(metric.name, justify="right")
        table.add_column("candidate")
        for i in order[:top]:
            text = shown_value(result.rows[i][result.layout.candidate_col])
            shown = text if len(text) <= 70 else text[:67] + "..."
            rank = [str(result.ranks[i] or "-")] if result.ranked else []
            values = [scores[i] for scores in result.scores]
            numbers = [f"{float(v):.4f}" if isinstance(v, Scored) else "-" for v in values]
            table.add_row(str(result.row_numbers[i]), *rank, *numbers, Text(shown))
        console.print(table)
    corpora = "   ".join(
        f"corpus {metric.name} {float(corpus):.4f}" if corpus is not None else f"corpus {metric.name} -"
        for metric, corpus in zip(result.metrics, result.corpora)
    )
    line(f"{corpora}   reference: {result.layout.reference_source}")
    for signature in result.signatures():
        line(f"signature {signature}")  # one line, to copy whole
    line(f"written to {where}")


@main.command("pair", cls=_TextsCommand)
@click.argument("texts", nargs=-1, required=True, metavar="[REFERENCE] CANDIDATE")
@click.option(
    "--reference",
    "references",
    multiple=True,
    help="A reference; repeat for several (then give only the CANDIDATE).",
)
@click.option("--max-n", default=2, show_default=True, type=click.IntRange(1, 9), help="BLEU: longest n-gram.")
@click.option("--smoothing", default="add1", show_default=True, type=click.Choice(SMOOTHING_METHODS))
@_chrf_options
@click.option("--json", "as_json", is_flag=True, help="Print the detail as JSON.")
@_guard()
def pair_command(
    texts: tuple[str, ...],
    references: tuple[str, ...],
    max_n: int,
    smoothing: str,
    char_order: int,
    word_order: int,
    beta: int,
    as_json: bool,
) -> None:
    """Show the whole BLEU calculation of one pair (tokens, p1 to pN, BP, r, c), then its chrF: the character
    (and, with --word-order, word) n-gram precision, recall and F.

    Several references: give each with --reference, then the candidate alone. --max-n and --smoothing are the
    same settings as for score.

    \b
    Examples:
      bleu-xl pair "a entrega chegou no prazo e o produto veio bem embalado" "a entrega chegou no prazo"
      bleu-xl pair --reference "the cat is on the mat" --reference "there is a cat on the mat" "the cat sat"
      bleu-xl pair "livraison offerte" "livraisons offertes" --word-order 2
    """
    if references:
        if len(texts) != 1:
            raise click.UsageError("with --reference, give the candidate alone")
        refs, candidate = list(references), texts[0]
    else:
        if len(texts) != 2:
            raise click.UsageError("give a REFERENCE and a CANDIDATE (or each reference with --reference)")
        refs, candidate = [texts[0]], texts[1]
    explanation = explain(refs if len(refs) > 1 else refs[0], candidate, max_n=max_n, smoothing=smoothing)
    s = explanation.score
    ref_tokens = [tokenize(ref) for ref in refs]
    c = chrf(refs if len(refs) > 1 else refs[0], candidate, char_order=char_order, word_order=word_order, beta=beta)
    detail = {
        "reference_tokens": ref_tokens if len(refs) > 1 else ref_tokens[0],
        "candidate_tokens": tokenize(candidate),
        **s.as_dict(),
        "explain": explanation.summary(),
        "matched": list(explanation.matched_tokens()),
        "chrf": c.as_dict(),
    }
    if as_json:
        click.echo(json.dumps(detail, ensure_ascii=False, indent=2))
        return
    for number, tokens in enumerate(ref_tokens, start=1):
        label = "reference" if len(refs) == 1 else f"reference {number}"
        echo(f"{label} tokens ({len(tokens)}): {' '.join(tokens)}")
    # On a terminal, matched words are green and the others red (click drops the colours elsewhere).
    marked = " ".join(
        click.style(printable(token), fg="green", bold=True) if hit else click.style(printable(token), fg="red")
        for token, hit in zip(explanation.candidate_tokens, explanation.matched_tokens())
    )
    click.echo(f"candidate tokens ({s.c}): {marked}")
    for n, p in enumerate(s.precisions, start=1):
        if p.value is None:
            if s.c:
                words = f"{s.c} word{'s' if s.c > 1 else ''}"
                click.echo(f"p{n} = 0/0, left out of the score  (the candidate has only {words}: no {order_name(n)})")
            else:
                click.echo(f"p{n} = 0/0  (the candidate has no words: BLEU is 0)")
            continue
        note = "  (add-1 smoothing)" if p.smoothed else ""
        click.echo(f"p{n} = {p.numerator}/{p.denominator} = {p.value:.4f}{note}")
    click.echo(f"BP = {s.bp:.4f}  (r = {s.r}, c = {s.c})")
    click.echo(f"BLEU-{s.max_n} = {s.bleu:.4f}")
    echo(f"explain: {detail['explain']}")
    click.echo(f"signature {s.signature}")
    _show_chrf(c)


def _show_chrf(c: ChrfScore) -> None:
    """chrF's lines of ``pair``: each order's matches, then precision, recall and F of each kind, then the score."""
    kinds = [("character", 0, c.char_order, c.characters), ("word", c.char_order, c.word_order, c.words)]
    for kind, start, orders, part in kinds:
        if not orders or part is None:
            continue
        counts = [
            f"{n}: {c.stats.matches[start + n - 1]}/{c.stats.candidate[start + n - 1]}"
            f"/{c.stats.reference[start + n - 1]}"
            for n in range(1, orders + 1)
        ]
        click.echo(f"{kind} n-grams (matches/candidate/reference) {', '.join(counts)}")
        click.echo(f"{kind} precision {part.precision:.4f}, recall {part.recall:.4f}, F{c.beta} {part.f:.4f}")
    click.echo(f"{c.name} = {c.chrf:.4f}  (precision {c.precision:.4f}, recall {c.recall:.4f})")
    click.echo(f"signature {c.signature}")


@main.command("compare")
@click.argument("input_path", metavar="INPUT")
@click.option("--a", "a_col", required=True, help="The first candidate column (letter or header).")
@click.option("--b", "b_col", required=True, help="The second candidate column (letter or header).")
@click.option("--reference-col", "reference_cols", multiple=True, help="Reference column; repeat for several.")
@click.option("--reference", "reference_text", help="Compare both columns against this one text.")
@_table_options
@click.option(
    "--samples", default=1000, show_default=True, type=click.IntRange(1, 100_000), help="Bootstrap resamples."
)
@click.option("--seed", default=12345, show_default=True, type=int, help="Seed of the resampling.")
@click.option(
    "--metric",
    "metric_name",
    default="bleu",
    show_default=True,
    help="The metric to compare with: bleu (BLEU-2) or chrf (see --char-order, --word-order, --beta).",
)
@_chrf_options
@click.option(
    "-o",
    "--output",
    help="Also write the rows with both columns' scores: .xlsx (with the test on a Summary sheet), .csv, .tsv, "
    ".json (one document, with the test) or .jsonl.",
)
@click.option("--raw", is_flag=True, help="CSV: write text exactly as read, without the ' before a leading = + - @.")
@click.option(
    "--output-encoding", help="Encoding of a CSV output (default: UTF-8, with a BOM in a file so that Excel reads it)."
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="Print no result (write it with -o).")
@_guard(COMPARE_FLAGS)
def compare_command(
    input_path: str,
    a_col: str,
    b_col: str,
    reference_cols: tuple[str, ...],
    reference_text: str | None,
    read: ReadFlags,
    samples: int,
    seed: int,
    metric_name: str,
    char_order: int,
    word_order: int,
    beta: int,
    output: str | None,
    raw: bool,
    output_encoding: str | None,
    force: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Which of two candidate columns is better, and is the difference real? (paired bootstrap)

    Both columns are scored against the same references (corpus BLEU-2, or corpus chrF with --metric chrf); rows
    with a blank reference or a blank candidate on either side are left out of both. The p-value tests the null
    hypothesis that A and B are equally good (Koehn 2004, as sacrebleu's --paired-bs).

    \b
    Examples:
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B"
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B" --metric chrf
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B" -o comparison.csv -q
    """
    if as_json and 1 in CLOSED_AT_START:
        raise InputError("standard output is closed: nothing could be written; write the workbook with -o")
    (metric,) = _one_metric(metric_name, char_order, word_order, beta)
    check_reference_text(reference_text, (metric,))  # before the input is read
    target = fmt = None
    if output:
        if output == "-":
            raise InputError("compare prints its result on standard output; give -o a file name, or use --json")
        output, fmt = _output_target(input_path, output, None)
    if read.encoding is not None:
        text_codec(read.encoding)
    _check_output_encoding(output_encoding, fmt)
    if output:
        target = OutputFile(output, force=force, protect=[input_path])  # claimed before anything is read
    cuts = CutCells()
    try:
        options = _read_options(read, reference_cols, a_col, reference_text)
        table, layout = _read_table(input_path, options, announce=False)  # below, once --b is known too
        comparison = compare_table(table, layout, b_col, samples=samples, seed=seed, metric=metric)
        if not as_json:  # with --json, the payload names the input, sheet and columns (stdout stays one JSON document)
            _announce(input_path, table, layout, compared=comparison.b_col, flags=COMPARE_FLAGS)
        result = comparison.result
        if target and fmt and output:
            cuts = write_comparison(
                target,
                fmt,
                table,
                layout,
                comparison,
                input_name=display_name(input_path),
                text=TextOptions(output_encoding, output_delimiter(_delimiter(read.delimiter), output, table), raw),
            )
    finally:
        if target:
            target.release()
    if output:
        _say_cut(cuts, output)
    if quiet:
        return
    if as_json:
        payload = {
            **comparison.as_dict(),
            "input": display_name(input_path),
            "sheet": table.workbook_sheet,  # a text file has none
            "columns": render(layout.describe(comparison.b_col), flag_spelling(COMPARE_FLAGS)),
            "notes": [render(note, flag_spelling(COMPARE_FLAGS)) for note in layout.notes],
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    level = f"{result.interval_a.level:.0%}"
    for name, value, interval in (
        (comparison.a_name, result.score_a, result.interval_a),
        (comparison.b_name, result.score_b, result.interval_b),
    ):
        echo(f"{name}: corpus {metric.name} {value:.4f}  ({level} interval {interval.low:.4f} to {interval.high:.4f})")
    echo(
        f"difference (B - A) {result.difference:+.4f}, {p_text(result.p_value)} "
        f"({comparison.used} pairs, {comparison.skipped} skipped, {samples} resamples, seed {seed})"
    )
    echo(comparison.verdict)
    if output:
        echo(f"written to {output}")


def _one_metric(name: str, char_order: int, word_order: int, beta: int) -> tuple[Metric]:
    """The one metric ``compare`` tests with (BLEU is BLEU-2 there)."""
    metrics = metrics_named([name], char_order=char_order, word_order=word_order, beta=beta)
    if len(metrics) != 1:
        raise InputError(Setting("metric"), f" {name!r}: compare tests one metric at a time")
    return (metrics[0],)


@main.command("excel-setup")
@click.option("--dry-run", is_flag=True, help="Print every step and file it would write, and change nothing.")
@click.option("--no-addin", is_flag=True, help="Do not build bleu_xl.xlam (then use Import Functions per workbook).")
@click.option(
    "--only",
    type=click.Choice(["xlwings-addin", "config", "xlam"]),
    help="Do one part only: install xlwings' add-in, write the user config, or build bleu_xl.xlam.",
)
@_guard()
def excel_setup_command(dry_run: bool, no_addin: bool, only: str | None) -> None:
    """Set up the classic Excel add-in on Windows: xlwings add-in, user config, bleu_xl.xlam (Windows only; on
    a Mac or Excel on the web, use lite-bundle).

    The user config (~/.xlwings/xlwings.conf) gets this Python as the interpreter and bleu_xl.udfs as the UDF
    module, keeping the settings already there. bleu_xl.xlam makes =BLEU2 work in every workbook, .xlsx
    included, without Import Functions per file (it needs Excel's "Trust access to the VBA project").

    \b
    Example:
      bleu-xl excel-setup --dry-run
    """
    from .excel import windows_setup

    if not windows_setup.on_windows():  # at once, dry run or not: nothing here applies elsewhere
        raise Failure(
            "excel-setup is for Windows: classic xlwings functions (UDFs) need Excel on Windows; on a Mac or Excel "
            f"on the web use the xlwings Lite bundle: {windows_setup.LITE_POINTER}"
        )
    appdata = Path(os.environ["APPDATA"]) if os.environ.get("APPDATA") else None
    parts = [only] if only else [p for p in windows_setup.PARTS if not (no_addin and p == "xlam")]
    steps = windows_setup.plan(python=Path(sys.executable), home=Path.home(), appdata=appdata, parts=parts)
    if dry_run:
        click.echo("bleu-xl excel-setup would (dry run, nothing is changed):")
        for number, step in enumerate(steps, start=1):
            click.echo(f"[{number}/{len(steps)}] {step.describe()}")
        return
    windows_setup.run_plan(steps, python=Path(sys.executable), log=click.echo)
    click.echo('done: restart Excel, then type =BLEU2("le chat", "le chat") into a cell')


@main.command("lite-bundle")
@click.argument("folder", default="xlwings-lite", required=False)
@click.option("--force", is_flag=True, help="Replace a main.py or requirements.txt that differs from the bundle.")
@_guard()
def lite_bundle_command(folder: str, force: bool) -> None:
    """Write the xlwings Lite bundle (main.py and requirements.txt) into FOLDER (default: xlwings-lite).

    Paste main.py into xlwings Lite's main.py (Excel on Windows, Mac or the web) and the BLEU2 functions work
    in every cell; leave xlwings Lite's requirements.txt as it is (main.py needs nothing more). A file already
    there (perhaps your own main.py) is kept unless it is the bundle already or --force is given; nothing is
    written unless every file can be.

    \b
    Example:
      bleu-xl lite-bundle my-bundle
    """
    from .excel.lite_bundle import bundle_files

    written = write_folder(folder, {name: text.encode("utf-8") for name, text in bundle_files().items()}, force=force)
    for path, wrote in written:
        echo(f"wrote {path}" if wrote else f"{path} is up to date")


@main.command("template")
@click.argument("folder", default="workbooks", required=False)
@click.option("--force", is_flag=True, help="Replace workbooks that are already there.")
@_guard()
def template_command(folder: str, force: bool) -> None:
    """Write the ranking template and the sample workbooks into FOLDER (default: workbooks).

    Given a name ending in .xlsx, write only the template, to that file (another workbook extension, such as
    .xls, is refused). Existing workbooks (perhaps edited) are kept unless --force is given.

    \b
    Examples:
      bleu-xl template my-workbooks
      bleu-xl template my-ranking.xlsx
    """
    from .template.build import write_workbooks

    suffix = Path(folder).suffix.lower()
    if suffix in OTHER_WORKBOOK_SUFFIXES:
        raise InputError(
            f"{folder}: the template is an .xlsx workbook; give a name ending in .xlsx (or a folder for the "
            "template and the samples)"
        )
    for path in write_workbooks(Path(folder), force=force):
        echo(f"wrote {path}")


@main.command("release")
@click.argument("folder", default="dist", required=False)
@click.option(
    "--wheel", type=click.Path(dir_okay=False), help="The wheel to ship (default: FOLDER's wheel of this version)."
)
@click.option("--force", is_flag=True, help="Replace an existing bundle.")
@_guard()
def release_command(folder: str, wheel: str | None, force: bool) -> None:
    """Make the release bundle for Excel users, bleu-xl-VERSION.zip, in FOLDER (default: dist).

    The zip holds the wheel, the Windows installer (install.cmd, install.ps1) that installs that wheel, the
    template and the samples, the xlwings Lite bundle (xlwings-lite/main.py) and READ ME FIRST.txt in English,
    French and Portuguese. The wheel is this version's, built by python -m build into FOLDER (or given with
    --wheel).

    \b
    Example:
      python -m build && bleu-xl release dist
    """
    from .release.bundle import write_release

    path = write_release(Path(folder), wheel=Path(wheel) if wheel else None, force=force)
    echo(f"wrote {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
