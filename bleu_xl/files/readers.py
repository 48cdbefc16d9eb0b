"""Reading a user's file: a workbook or a text table by its content, never by its name alone (standard input
too), and the sheet to score in it.

Reading refuses what is not a spreadsheet, encrypted and legacy workbooks, and (through the checks of
``xlsx_check``) zip bombs, XML with a DTD, binary sheet parts and sheets past the cell budget, all before any
parser sees the file.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..core.errors import Setting
from ..table.columns import Layout, find_table
from ..table.sheet import InputError, Sheet, TableOptions
from .limits import MAX_TEXT_BYTES
from .text_reader import parse_text
from .workbook_reader import read_workbook

__all__ = ["OLE_MAGIC", "ZIP_MAGIC", "read_input", "read_table"]

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
TEXT_SUFFIXES = {".csv", ".tsv", ".txt", ".tab"}
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm"}


def read_input(
    path: str, sheet: str | None = None, *, encoding: str | None = None, delimiter: str | None = None
) -> Sheet:
    """Read a workbook, a CSV/TSV file or (``-``) either on standard input, refusing anything unsafe."""
    if path == "-":
        with _stdin(sheet, encoding=encoding, delimiter=delimiter) as (first, _):
            return first
    file = Path(path)
    if not file.exists():
        raise InputError(f"{path}: no such file")
    if not file.is_file():
        raise InputError(f"{path}: not a file")
    if file.name.startswith("~$"):
        raise InputError(f"{path}: this is the lock file Excel keeps while a workbook is open; score the workbook")
    try:
        with file.open("rb") as handle:
            head = handle.read(8)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    suffix = file.suffix.lower()
    if head.startswith(ZIP_MAGIC):
        return read_workbook(file, sheet)
    if head.startswith(OLE_MAGIC):
        with file.open("rb") as handle:
            _refuse_ole(path, handle.read(1 << 20))
    if suffix in WORKBOOK_SUFFIXES:
        raise InputError(f"{path}: not a valid .xlsx workbook (not a zip file)")
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise InputError(f"{path}: ", Setting("sheet"), " applies to workbooks, and this is a text file")
        if file.stat().st_size > MAX_TEXT_BYTES:
            raise InputError(f"{path}: refused: over {MAX_TEXT_BYTES >> 30} GiB of text")
        if delimiter is None and suffix in {".tsv", ".tab"}:
            delimiter = "\t"
        return _text_sheet(path, file.name, file.read_bytes(), encoding, delimiter)
    raise InputError(f"{path}: not a spreadsheet or CSV file (expected .xlsx, .xlsm, .csv or .tsv)")


def _text_sheet(path: str, name: str, data: bytes, encoding: str | None, delimiter: str | None) -> Sheet:
    try:
        rows, used, found = parse_text(data, delimiter, encoding)
    except InputError as exc:
        raise InputError(f"{path}: ", *exc.parts) from None
    return Sheet(name, rows, [name], encoding=used, delimiter=found)


def _refuse_ole(path: str, head: bytes) -> None:
    # An encrypted OOXML workbook is an OLE container with an "EncryptionInfo" stream (UTF-16 directory names).
    if "EncryptionInfo".encode("utf-16-le") in head or "EncryptedPackage".encode("utf-16-le") in head:
        raise InputError(f"{path}: the workbook is password-protected (encrypted); save a copy without a password")
    raise InputError(f"{path}: a legacy .xls workbook; save it as .xlsx or CSV first")


@contextlib.contextmanager
def _stdin(
    sheet: str | None, *, encoding: str | None, delimiter: str | None
) -> Iterator[tuple[Sheet, Callable[[str], Sheet]]]:
    """Standard input read as a file is, by its content: a workbook (by its zip signature; kept in a temporary
    file while it is read, since the reader needs a file) or text, whose encoding and delimiter are sniffed.
    Gives the first sheet, and how to read another one of the same workbook."""
    data = sys.stdin.buffer.read()
    if data.startswith(OLE_MAGIC):
        _refuse_ole("-", data[: 1 << 20])
    if not data.startswith(ZIP_MAGIC):
        if sheet is not None:
            raise InputError("-: ", Setting("sheet"), " applies to workbooks, and standard input holds text")
        text = _text_sheet("-", "stdin", data, encoding, delimiter)
        yield text, lambda name: text
        return
    with tempfile.TemporaryDirectory(prefix="bleu-xl-") as folder:
        file = Path(folder) / "stdin.xlsx"
        file.write_bytes(data)

        def load(name: str | None) -> Sheet:
            try:
                return read_workbook(file, name)
            except InputError as exc:  # the temporary file is no name the user knows: standard input is "-"
                first, *rest = exc.parts
                if isinstance(first, str) and first.startswith(str(file)):
                    first = "-" + first[len(str(file)) :]
                raise InputError(first, *rest) from None

        yield load(sheet), load


def read_table(path: str, options: TableOptions = TableOptions()) -> tuple[Sheet, Layout]:  # noqa: B008 - frozen
    """Read the file at ``path`` (``-``: standard input) and find the sheet and columns to score, as ``options``
    say: the sheet asked for, or the first visible one, past a cover page."""
    if path == "-":
        with _stdin(options.sheet, encoding=options.encoding, delimiter=options.delimiter) as (first, load):
            return find_table(first, load, options)
    first = read_input(path, options.sheet, encoding=options.encoding, delimiter=options.delimiter)
    return find_table(first, lambda name: read_input(path, name), options)
