"""What a file job reads: the options that say how to read a table, checked before anything is read, and the table
read (its sheet, header row and columns), which a job reports as soon as it knows it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import BleuTypeError, Part, Setting
from ..files.read.limits import DEFAULT_LIMITS, ReadLimits, parse_size
from ..files.read.table import display_name, read_table
from ..files.read.text import text_codec
from ..files.write.target import OutputTarget, delimiter_named
from ..table.layout import Layout
from ..table.sheet import InputError, Sheet, TableOptions

__all__ = ["ReadTable", "check_delimiter_used", "path_text", "read_input_table", "read_limits", "table_options"]

PathLike = str | bytes | os.PathLike[str] | os.PathLike[bytes]


def path_text(path: PathLike, name: str) -> str:
    """A path given to a job as the text the rest of it reads: a string, a :class:`~pathlib.Path`, or bytes (as
    ``os.listdir(b".")`` gives, decoded as the file system does); anything else is a :class:`BleuTypeError`."""
    try:
        return os.fsdecode(path)
    except TypeError:
        raise BleuTypeError(f"{name} must be a path (a string or a pathlib.Path), not {type(path).__name__}") from None


@dataclass(frozen=True)
class ReadTable:
    """A table as a job read it: the input (``input_path`` as given, ``-`` for standard input), the sheet read and
    the layout found in it (header row, candidate and reference columns, notes on what was left out)."""

    input_path: str
    sheet: Sheet
    layout: Layout

    @property
    def input_name(self) -> str:
        """The input as messages and outputs name it (bytes of a name that is not UTF-8 as ``\\xe9``)."""
        return display_name(self.input_path)

    @property
    def read_as(self) -> str:
        """How it was read: `` (utf-8, delimiter ',')`` for a text file, ``, sheet 'Pairs'`` for a workbook."""
        sheet = self.sheet
        return f" ({sheet.encoding}, delimiter {sheet.delimiter!r})" if sheet.is_text else f", sheet {sheet.name!r}"

    def describe(self, compared: int | None = None) -> tuple[Part, ...]:
        """Which header row and columns are used (``compared``: the column of candidates B in a comparison)."""
        return self.layout.describe(compared)

    @property
    def notes(self) -> list[tuple[Part, ...]]:
        """What was said besides the columns: what reading found (a cell of many lines), a column or rows left out,
        a reference typed once..."""
        return self.sheet.notes + self.layout.notes

    @property
    def data_rows(self) -> int:
        """How many rows hold data (below the header row, less totals rows and rows left out)."""
        return len(self.layout.data_rows(len(self.sheet.rows)))


def read_limits(memory: int | str, seconds: float) -> ReadLimits:
    """The limits reading may take: ``memory`` in bytes or as people write it (``2GB``, ``500MB``), ``seconds``."""
    return ReadLimits(memory=parse_size(memory) if isinstance(memory, str) else memory, seconds=seconds)


def table_options(
    *,
    candidate_col: str | None,
    reference_cols: Sequence[str],
    reference_text: str | None,
    sheet: str | None,
    header_row: int | None,
    no_header: bool,
    encoding: str | None,
    delimiter: str | None,
    skip_hidden: bool,
    fill_down: bool = False,
) -> TableOptions:
    """The table options of a job's settings, checked: the encoding is a text encoding, the delimiter one of
    ``, ; tab |`` (given by its name or itself)."""
    if encoding is not None:
        text_codec(encoding)
    return TableOptions(
        sheet=sheet,
        encoding=encoding,
        delimiter=delimiter_named(delimiter),
        header_row=header_row,
        no_header=no_header,
        reference_cols=reference_cols,
        candidate_col=candidate_col,
        reference_text=reference_text,
        skip_hidden=skip_hidden,
        fill_down=fill_down,
    )


def read_input_table(path: str, options: TableOptions, limits: ReadLimits = DEFAULT_LIMITS) -> ReadTable:
    """Read the file at ``path`` and find its table, within ``limits``."""
    sheet, layout = read_table(path, options, limits)
    return ReadTable(path, sheet, layout)


def check_delimiter_used(read: ReadTable, target: OutputTarget | None, delimiter: str | None) -> None:
    """Refuse a delimiter given where nothing has one: a workbook read, and no CSV written (it would be dropped
    without a word)."""
    if delimiter is None or read.sheet.is_text:
        return
    if (
        target is not None
        and target.format == "csv"
        and (not target.tab_separated or delimiter_named(delimiter) == "\t")
    ):
        return  # a CSV's delimiter, or the tab a TSV has anyway
    written = "nothing is written" if target is None else f"the output is {target.format}"
    if target is not None and target.tab_separated:
        written = "the output is TSV, which is tab-separated"
    raise InputError(
        f"{read.input_name}: ",
        Setting("delimiter"),
        f" applies to text files and CSV outputs; this is a workbook and {written}",
    )
