"""The options several commands share, how a library setting is spelt as an option, and the command classes that end
on a closed pipe as every command does."""

from __future__ import annotations

import contextlib
import functools
import itertools
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import click
from click.core import ParameterSource

from .. import Chrf, Setting
from .terminal import Failure, closed_pipe

__all__ = [
    "COMPARE_FLAGS",
    "FLAGS",
    "Command",
    "Group",
    "ReadFlags",
    "TextsCommand",
    "chrf_options",
    "flag_spelling",
    "given_settings",
    "table_options",
    "ter_options",
]

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
    "output_format": "--format",
    "delimiter": "--delimiter",
    "force": "--force",
    "b_col": "--b",
    "read_memory": "--read-memory",
    "read_time": "--read-time",
    "skip_hidden": "--skip-hidden",
    "fill_down": "--fill-down",
    "output": "-o",
    "wheel": "--wheel",
    "metric": "--metric",
    "samples": "--samples",
    "max_n": "--max-n",
    "smoothing": "--smoothing",
    "char_order": "--char-order",
    "word_order": "--word-order",
    "beta": "--beta",
    "normalized": "--normalized",
    "no_punct": "--no-punct",
    "asian_support": "--asian-support",
    "case_sensitive": "--case-sensitive",
}
#: compare names its candidate columns --a and --b.
COMPARE_FLAGS = {**FLAGS, "candidate_col": "--a"}
PAIR_FLAGS = {**FLAGS, "texts": "the texts given", "references": "--reference"}
#: The defaults of the reading limits (the library's).
READ_MEMORY = "2GB"
READ_TIME = 60.0


def _as_typed(value: object) -> str:
    """A value as a shell takes it back: quoted where it holds a space or a character the shell reads
    (``'Candidate B'``, ``'Source(FR)'``, ``'|'``), else as it is (``B``, ``4``)."""
    return shlex.quote(str(value))


def flag_spelling(flags: dict[str, str]) -> Callable[[Setting], str]:
    """How this command spells a setting in a message: its flag, then the value to give it (``--candidate-col B``);
    a flag alone (``--force``) when the value is a switch."""

    def spell(setting: Setting) -> str:
        flag = flags.get(setting.name, setting.name)
        if setting.value is None or setting.value is True:
            return flag
        values = setting.value if isinstance(setting.value, tuple) else (setting.value,)
        return " ".join(f"{flag} {_as_typed(value)}" for value in values)

    return spell


class Command(click.Command):
    """A command whose help, read before any of its code runs, ends on a closed pipe as the command would, and
    whose option given no value does not take the next option's name for it (``--reference --skip-hidden``
    would score every candidate against the text ``--skip-hidden``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options = [p for p in self.params if isinstance(p, click.Option)]
        names = {name for option in options for name in (*option.opts, *option.secondary_opts)}
        names |= set(ctx.help_option_names)
        valued = {name for option in options if not option.is_flag and not option.count for name in option.opts}

        def an_option(arg: str) -> bool:
            """``--max-n``, ``--max-n=3``, ``-o-`` (a short option with its value attached), ``-h``."""
            if arg.startswith("--"):
                return arg.split("=", 1)[0] in names
            return arg.startswith("-") and arg[:2] in names

        for given, following in itertools.pairwise(args):
            if given == "--":
                break
            if given in valued and an_option(following):
                raise Failure(
                    f"{given} takes a value, and the next argument is the option {following}: give {given} its "
                    f"value (a text that is an option's name goes as {given}={following})"
                )
        return super().parse_args(ctx, args)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        path = f"{parent.command_path} {info_name}" if parent is not None else (info_name or self.name or "")
        try:
            with one_line_usage(path):
                return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:  # click's own handling exits with code 1
            closed_pipe()


class TextsCommand(Command):
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


class Group(click.Group):
    """The command group: its ``--help`` and ``--version`` too end on a closed pipe as every command does, and a
    usage error (an unknown command) is one line as every refusal is."""

    command_class = Command

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            with one_line_usage():
                return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            closed_pipe()

    def invoke(self, ctx: click.Context) -> Any:
        with one_line_usage():
            return super().invoke(ctx)


@contextlib.contextmanager
def one_line_usage(path: str = "") -> Iterator[None]:
    """click's usage errors (``--max-n 0``, an unknown option or command) as one line, as every other refusal is:
    click shows the usage, a hint and the error on four. ``bleu-xl`` alone still shows the help. ``path`` is the
    command's, for an error that comes without its context (an option missing its value)."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else path
        where = f" (see '{path} --help')" if path else ""
        raise Failure(f"{exc.format_message().rstrip('.')}{where}") from None


@dataclass(frozen=True)
class ReadFlags:
    """The options that say how to read the input table, as score and compare receive them."""

    sheet: str | None
    header_row: int | None
    no_header: bool
    encoding: str | None
    delimiter: str | None
    skip_hidden: bool
    read_memory: str
    read_time: float
    fill_down: bool = False

    def settings(self) -> dict[str, Any]:
        """The library's settings these options give."""
        return {
            "sheet": self.sheet,
            "header_row": self.header_row,
            "no_header": self.no_header,
            "encoding": self.encoding,
            "delimiter": self.delimiter,
            "skip_hidden": self.skip_hidden,
            "fill_down": self.fill_down,
            "read_memory": self.read_memory,
            "read_time": self.read_time,
        }


def table_options(run: Any) -> Any:
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
        fill_down: bool,
        read_memory: str,
        read_time: float,
        **kwargs: Any,
    ) -> Any:
        read = ReadFlags(
            sheet, header_row, no_header, encoding, delimiter, skip_hidden, read_memory, read_time, fill_down
        )
        return run(*args, read=read, **kwargs)

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
                "--fill-down",
                is_flag=True,
                help="A row whose references are all blank takes those of the nearest row above (one per group).",
            ),
            click.option(
                "--read-memory",
                metavar="SIZE",
                default=READ_MEMORY,
                show_default=True,
                help=(
                    "Memory each process reading the input may take (2GB, 500MB); a workbook that needs more is "
                    "refused."
                ),
            ),
            click.option(
                "--read-time",
                metavar="SECONDS",
                type=click.FloatRange(min=0, min_open=True),
                default=READ_TIME,
                show_default=True,
                help="Time reading a workbook may take; one that needs more is refused.",
            ),
        ]
    ):
        fn = option(fn)
    return fn


def given_settings(**values: Any) -> dict[str, Any]:
    """The metric settings among ``values`` that the user gave (not left at their defaults), for
    :func:`bleu_xl.metrics_named`: which refuses a setting of a metric not chosen, rather than let it do nothing."""
    context = click.get_current_context()
    left = (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)
    return {name: value for name, value in values.items() if context.get_parameter_source(name) not in left}


def chrf_options(fn: Any) -> Any:
    """chrF's settings, shared by score, pair and compare (sacrebleu's defaults: chrF2)."""
    settings = [
        ("--char-order", 6, 1, Chrf.MAX_CHAR_ORDER, "chrF: longest character n-gram."),
        ("--word-order", 0, 0, Chrf.MAX_WORD_ORDER, "chrF: longest word n-gram (2 gives chrF++)."),
        ("--beta", 2, 1, Chrf.MAX_BETA, "chrF: recall counts beta times as much as precision."),
    ]
    for flag, default, low, high, text in reversed(settings):
        option = click.option(flag, default=default, show_default=True, type=click.IntRange(low, high), help=text)
        fn = option(fn)
    return fn


def ter_options(fn: Any) -> Any:
    """TER's switches, shared by score and compare (sacrebleu's defaults: all off)."""
    settings = [
        ("--normalized", "TER: split punctuation off words and unescape &amp; and its kind (Tercom's normalisation)."),
        ("--no-punct", "TER: remove punctuation."),
        (
            "--asian-support",
            "TER: with --normalized, each CJK character is a word (and --no-punct removes CJK punctuation).",
        ),
        ("--case-sensitive", "TER: a change of case is an edit (default: lowercased)."),
    ]
    for flag, text in reversed(settings):
        fn = click.option(flag, is_flag=True, help=text)(fn)
    return fn
