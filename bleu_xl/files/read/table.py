"""Reading a user's file: a workbook or a text table by its content, never by its name alone (standard input
too), and the sheet to score in it.

Reading refuses what is not a spreadsheet, encrypted and legacy workbooks, a name whose extension says another
format than the content, and (through the checks of ``package`` and ``sheet_scan``) zip bombs, XML with a DTD,
binary sheet parts, packages that could be read two ways and sheets past the cell budget, all before any parser
sees the file. A workbook is read in a child process bounded in memory and time (``bounded``); a text file or
standard input is bounded in bytes and parsed under the memory limit.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from ...core.errors import Setting
from ...table.columns import find_table
from ...table.layout import Layout
from ...table.sheet import InputError, Sheet, TableOptions
from .bounded import memory_bound, run_bounded
from .limits import DEFAULT_LIMITS, MAX_TEXT_BYTES, ReadLimits
from .text import parse_text
from .workbook import check_sheets, load_reader, read_workbook_table

__all__ = ["OLE_MAGIC", "ZIP_MAGIC", "read_table"]

T = TypeVar("T")

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
TEXT_SUFFIXES = {".csv", ".tsv", ".txt", ".tab"}
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm"}
#: Zip-based formats other readers take by their extension: a workbook named so would be read as that format.
OTHER_ZIP_FORMATS = {
    ".ods": "an OpenDocument spreadsheet (.ods); save it as .xlsx first",
    ".xlsb": "a binary workbook (.xlsb); save it as .xlsx first",
    ".numbers": "a Numbers spreadsheet; export it as .xlsx first",
}


def display_name(path: str) -> str:
    """A path as messages show it: bytes that are not UTF-8 (a name from another system) as ``\\xe9``."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _read_stdin() -> bytes:
    """Standard input, at most :data:`MAX_TEXT_BYTES` of it: past that, refused before the rest is read."""
    data = bytearray()
    while chunk := sys.stdin.buffer.read1(1 << 20):
        if len(data) + len(chunk) > MAX_TEXT_BYTES:
            raise InputError(f"standard input: refused: over {MAX_TEXT_BYTES >> 30} GiB of text")
        data += chunk
    return bytes(data)


def _check_workbook_name(file: Path, shown: str) -> None:
    """Refuse a workbook whose name says another format (a reader that goes by the name would read it so)."""
    suffix = file.suffix.lower()
    if suffix in OTHER_ZIP_FORMATS:
        raise InputError(f"{shown}: {OTHER_ZIP_FORMATS[suffix]}")
    if suffix not in WORKBOOK_SUFFIXES:
        shown_suffix = suffix or "no extension"
        raise InputError(
            f"{shown}: this is a zip file (an .xlsx workbook?) named with {shown_suffix}; give it the .xlsx extension"
        )


def _kind(path: str, sheet: str | None) -> tuple[str, Path]:
    """``"stdin"``, ``"workbook"`` or ``"text"``, and the file; anything else is refused."""
    if path == "-":
        return "stdin", Path(path)
    shown = display_name(path)
    file = Path(path)
    if not file.exists():
        raise InputError(f"{shown}: no such file")
    if not file.is_file():
        if file.is_fifo() or file.is_char_device():  # /dev/stdin, a named pipe: read once, as standard input is
            raise InputError(f"{shown}: not a file; to read a pipe, give - and send it to standard input")
        raise InputError(f"{shown}: not a file")
    if file.name.startswith("~$"):
        raise InputError(f"{shown}: this is the lock file Excel keeps while a workbook is open; score the workbook")
    try:
        with file.open("rb") as handle:
            head = handle.read(8)
    except OSError as exc:
        raise InputError(f"{shown}: cannot read ({exc.strerror})") from None
    suffix = file.suffix.lower()
    if head.startswith(ZIP_MAGIC):
        _check_workbook_name(file, shown)
        return "workbook", file
    if head.startswith(OLE_MAGIC):
        with file.open("rb") as handle:
            _refuse_ole(shown, handle.read(1 << 20))
    if suffix in WORKBOOK_SUFFIXES:
        raise InputError(f"{shown}: not a valid .xlsx workbook (not a zip file)")
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise InputError(f"{shown}: ", Setting("sheet"), " applies to workbooks, and this is a text file")
        if file.stat().st_size > MAX_TEXT_BYTES:
            raise InputError(f"{shown}: refused: over {MAX_TEXT_BYTES >> 30} GiB of text")
        return "text", file
    raise InputError(f"{shown}: not a spreadsheet or CSV file (expected .xlsx, .xlsm, .csv or .tsv)")


def _text_file(file: Path, shown: str, encoding: str | None, delimiter: str | None, limits: ReadLimits) -> Sheet:
    if delimiter is None and file.suffix.lower() in {".tsv", ".tab"}:
        delimiter = "\t"
    return _text_sheet(shown, display_name(file.name), file.read_bytes(), encoding, delimiter, limits)


def _text_sheet(
    shown: str, name: str, data: bytes, encoding: str | None, delimiter: str | None, limits: ReadLimits
) -> Sheet:
    """Text parsed under the memory limit (one line of 300 million commas is as many cells)."""
    try:
        with memory_bound(limits):
            rows, used, found, notes = parse_text(data, delimiter, encoding)
    except InputError as exc:
        raise InputError(f"{shown}: ", *exc.parts) from None
    return Sheet(name, rows, [name], encoding=used, delimiter=found, notes=notes)


def _refuse_ole(shown: str, head: bytes) -> None:
    # An encrypted OOXML workbook is an OLE container with an "EncryptionInfo" stream (UTF-16 directory names).
    if "EncryptionInfo".encode("utf-16-le") in head or "EncryptedPackage".encode("utf-16-le") in head:
        raise InputError(f"{shown}: the workbook is password-protected (encrypted); save a copy without a password")
    raise InputError(f"{shown}: a legacy .xls workbook; save it as .xlsx or CSV first")


@contextlib.contextmanager
def _stdin(
    sheet: str | None, *, encoding: str | None, delimiter: str | None, limits: ReadLimits
) -> Iterator[Sheet | Path]:
    """Standard input read as a file is, by its content: a workbook (by its zip signature; kept in a temporary
    file while it is read, since the reader needs a file) or text, whose encoding and delimiter are sniffed.
    Gives the text's sheet, or the workbook's temporary file."""
    data = _read_stdin()
    if data.startswith(OLE_MAGIC):
        _refuse_ole("-", data[: 1 << 20])
    if not data.startswith(ZIP_MAGIC):
        if sheet is not None:
            raise InputError("-: ", Setting("sheet"), " applies to workbooks, and standard input holds text")
        yield _text_sheet("-", "stdin", data, encoding, delimiter, limits)
        return
    with tempfile.TemporaryDirectory(prefix="bleu-xl-") as folder:
        file = Path(folder) / "stdin.xlsx"
        file.write_bytes(data)
        del data
        yield file


def _as_stdin(file: Path, read: Callable[[], T]) -> T:
    """``read()`` of standard input's temporary workbook: a message names it ``-``, not a file the user never
    made."""
    try:
        return read()
    except InputError as exc:
        first, *rest = exc.parts
        if isinstance(first, str) and first.startswith(str(file)):
            first = "-" + first[len(str(file)) :]
        raise InputError(first, *rest) from None


def read_table(
    path: str,
    options: TableOptions = TableOptions(),  # noqa: B008 - frozen
    limits: ReadLimits = DEFAULT_LIMITS,
) -> tuple[Sheet, Layout]:
    """Read the file at ``path`` (``-``: standard input) and find the sheet and columns to score, as ``options``
    say: the sheet asked for, or the first visible one, past a cover page. A workbook is opened, checked and read
    once, in a process bounded by ``limits``."""
    kind, file = _kind(path, options.sheet)
    if kind == "stdin":
        with _stdin(options.sheet, encoding=options.encoding, delimiter=options.delimiter, limits=limits) as given:
            if isinstance(given, Sheet):
                return _text_table(given, options)
            _refuse_encoding("-", options)
            return _as_stdin(given, lambda: _table_bounded(given, options, limits, "-"))
    if kind == "workbook":
        _refuse_encoding(display_name(path), options)
        return _table_bounded(file, options, limits, display_name(path))
    first = _text_file(file, display_name(path), options.encoding, options.delimiter, limits)  # checked above
    return _text_table(first, options)


def _refuse_encoding(shown: str, options: TableOptions) -> None:
    """A workbook holds its text as Unicode: an encoding given for it would be dropped without a word."""
    if options.encoding is not None:
        raise InputError(f"{shown}: ", Setting("encoding"), " applies to text files, and this is a workbook")


def _text_table(sheet: Sheet, options: TableOptions) -> tuple[Sheet, Layout]:
    """The columns of a text file; when none is found in a file whose first row holds ``|`` (``Reference|Candidate``,
    read as one column, or split at the commas its texts hold), the refusal says which delimiter would split it (it
    is never guessed: Excel writes none)."""
    try:
        return find_table(sheet, lambda name: sheet, options)
    except InputError as exc:
        first = next((row for row in sheet.rows if any(cell.strip() for cell in row)), [])
        if options.delimiter is None and "|" in "".join(first):
            raise InputError(*exc.parts, "; if | separates the columns, give ", Setting("delimiter", "|")) from None
        raise


def _table_bounded(file: Path, options: TableOptions, limits: ReadLimits, shown: str) -> tuple[Sheet, Layout]:
    explain = functools.partial(check_sheets, file)
    load_reader()
    return run_bounded(lambda: read_workbook_table(file, options), limits, shown, explain)
