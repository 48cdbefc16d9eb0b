"""The output target, decided once: its path, its format, and for CSV its encoding and delimiter."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.errors import Setting
from ...table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, InputError, Sheet, column_letter
from ..read.text import DELIMITERS, text_codec

__all__ = ["DELIMITER_NAMES", "FORMATS", "OUTPUT_FORMATS", "OutputTarget", "delimiter_named"]

#: The formats a user can ask for, and the format each extension says: TSV is CSV with tabs, as ``.tsv`` says, the
#: name that asks for it where no extension can (standard output).
FORMATS = ("xlsx", "csv", "tsv", "json", "jsonl")
OUTPUT_FORMATS = {".xlsx": "xlsx", ".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "jsonl"}
TSV = "tsv"
#: A delimiter as a user may name it.
DELIMITER_NAMES = {",": ",", ";": ";", "\\t": "\t", "\t": "\t", "tab": "\t", "|": "|"}
STDOUT = "-"


def delimiter_named(name: str | None) -> str | None:
    """The delimiter a name gives (``tab``, ``\\t``, ``;``...); ``None`` for none given."""
    if name is None:
        return None
    if name not in DELIMITER_NAMES:
        raise InputError(Setting("delimiter"), f" {name!r}: use , ; tab or |")
    return DELIMITER_NAMES[name]


@dataclass(frozen=True)
class OutputTarget:
    """Where and how an output is written: ``path`` (``-`` is standard output), ``format`` (``xlsx``, ``csv``,
    ``json``, ``jsonl``), and for CSV the ``codec`` (UTF-8 with a BOM in a file, so that Excel on Windows reads it
    as UTF-8; plain UTF-8 to standard output, for pipelines), the ``delimiter`` given (not for TSV, which is tab;
    ``None``: the input's own, so that French Excel reads ``;``), whether it is TSV (``tab_separated``: a ``.tsv`` file,
    or the format ``tsv``), and ``raw`` (text written exactly as read, instead of neutralised against formula
    injection)."""

    path: str
    format: str
    codec: str = "utf-8"
    delimiter: str | None = None
    raw: bool = False
    tab_separated: bool = False

    @classmethod
    def choose(
        cls,
        input_path: str,
        output: str | None = None,
        *,
        output_format: str | None = None,
        output_encoding: str | None = None,
        delimiter: str | None = None,
        raw: bool = False,
        default: str = "xlsx",
    ) -> OutputTarget:
        """The target of ``output`` (``None``: ``INPUT-scored.xlsx`` beside the input, or standard output for
        standard input): the format from ``output_format`` or the extension (an extension that is unknown or says
        another format is refused), the encoding checked (only CSV has one to choose)."""
        if output_format is not None and output_format not in FORMATS:
            raise InputError(Setting("output_format"), f" {output_format!r}: use {', '.join(FORMATS)}")
        path, fmt = _path_and_format(input_path, output, output_format, default)
        tab_separated = output_format == TSV or path.lower().endswith(".tsv")
        if output_encoding is not None:
            text_codec(output_encoding, "output_encoding")
            if fmt != "csv":
                raise InputError(
                    Setting("output_encoding"), " applies to a CSV output (JSON is UTF-8, a workbook has no encoding)"
                )
        codec = output_encoding or ("utf-8" if path == STDOUT else "utf-8-sig")
        if codec.replace("_", "-").lower() in {"utf-8", "utf8"} and path != STDOUT:
            codec = "utf-8-sig"
        return cls(path, fmt, codec, delimiter_named(delimiter), raw, tab_separated)

    @property
    def to_stdout(self) -> bool:
        return self.path == STDOUT

    @staticmethod
    def csv_beside(path: str) -> str:
        """The CSV file that would hold what the workbook ``path`` cannot (``scores.csv`` for standard output)."""
        return str(Path(path).with_suffix(".csv")) if path != STDOUT else "scores.csv"

    def delimiter_for(self, sheet: Sheet) -> str:
        """Tab for TSV (the delimiter given then is the input's alone: a ``.tsv`` file holds tabs), else the
        delimiter given, else the input's own delimiter (else a comma)."""
        if self.tab_separated:
            return "\t"
        if self.delimiter is not None:
            return self.delimiter
        return sheet.delimiter if sheet.delimiter in DELIMITERS else ","

    def check_size(self, rows: int, columns: int) -> None:
        """Refuse a workbook past Excel's grid (1,048,576 rows, 16,384 columns): Excel would not open it whole.
        ``rows`` counts the header row. CSV has no such limit, and the message says so."""
        if self.format != "xlsx":
            return
        path = self.path
        instead = Setting("output", self.csv_beside(path))
        if rows > EXCEL_MAX_ROWS:
            raise InputError(
                f"{path}: a workbook holds at most {EXCEL_MAX_ROWS:,} rows, and the scores take {rows:,} (a header "
                f"row and {rows - 1:,} data rows); write CSV instead: ",
                instead,
            )
        if columns > EXCEL_MAX_COLS:
            raise InputError(
                f"{path}: a workbook holds at most {EXCEL_MAX_COLS:,} columns (A to "
                f"{column_letter(EXCEL_MAX_COLS - 1)}), and the scores take {columns:,}; write CSV instead: ",
                instead,
            )


def _path_and_format(input_path: str, output: str | None, given: str | None, default: str) -> tuple[str, str]:
    """The output's path and its format (TSV is CSV), from ``given`` (the format asked for) or the extension."""
    fmt = "csv" if given == TSV else given
    if output is None:
        if input_path == STDOUT:
            return STDOUT, fmt or "csv"
        stem = Path(input_path)
        if not stem.name:  # ".", "/", "": no file to name the output after (and none to read)
            raise InputError(f"{input_path or repr(input_path)}: not a file")
        return str(stem.with_name(f"{stem.stem}-scored.{given or default}")), fmt or default
    if output == STDOUT:
        return output, fmt or "csv"
    suffix = Path(output).suffix.lower()
    if suffix not in OUTPUT_FORMATS:
        raise InputError(
            f"{output}: unknown output extension {suffix or '(none)'!r}; use .xlsx, .csv, .tsv, .json or .jsonl"
        )
    if fmt is not None and (OUTPUT_FORMATS[suffix] != fmt or (given == TSV and suffix != ".tsv")):
        raise InputError(
            f"{output}: a {suffix} file cannot hold ",
            Setting("output_format", given),
            "; change the extension or the format",
        )
    return output, OUTPUT_FORMATS[suffix]
