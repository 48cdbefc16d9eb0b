"""Reading a user's file: a workbook or a text table by its content, never by its name alone, and the sheet to
score in it.

Reading refuses what is not a spreadsheet, encrypted and legacy workbooks, and (through the checks of
``xlsx_check``) zip bombs, XML with a DTD, binary sheet parts and sheets past the cell budget, all before any
parser sees the file.
"""

from __future__ import annotations

import sys
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
    """Read a workbook, a CSV/TSV file or (``-``) TSV on standard input, refusing anything unsafe."""
    if path == "-":
        rows, used, found = parse_text(sys.stdin.buffer.read(), delimiter or "\t", encoding)
        return Sheet("stdin", rows, ["stdin"], encoding=used, delimiter=found)
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
        if _is_encrypted_ooxml(file):
            raise InputError(f"{path}: the workbook is password-protected (encrypted); save a copy without a password")
        raise InputError(f"{path}: a legacy .xls workbook; save it as .xlsx or CSV first")
    if suffix in WORKBOOK_SUFFIXES:
        raise InputError(f"{path}: not a valid .xlsx workbook (not a zip file)")
    if suffix in TEXT_SUFFIXES:
        if sheet is not None:
            raise InputError(f"{path}: ", Setting("sheet"), " applies to workbooks, and this is a text file")
        if file.stat().st_size > MAX_TEXT_BYTES:
            raise InputError(f"{path}: refused: over {MAX_TEXT_BYTES >> 30} GiB of text")
        if delimiter is None and suffix in {".tsv", ".tab"}:
            delimiter = "\t"
        try:
            rows, used, found = parse_text(file.read_bytes(), delimiter, encoding)
        except InputError as exc:
            raise InputError(f"{path}: ", *exc.parts) from None
        return Sheet(file.name, rows, [file.name], encoding=used, delimiter=found)
    raise InputError(f"{path}: not a spreadsheet or CSV file (expected .xlsx, .xlsm, .csv or .tsv)")


def _is_encrypted_ooxml(file: Path) -> bool:
    # An encrypted OOXML workbook is an OLE container with an "EncryptionInfo" stream (UTF-16 directory names).
    with file.open("rb") as handle:
        data = handle.read(1 << 20)
    return "EncryptionInfo".encode("utf-16-le") in data or "EncryptedPackage".encode("utf-16-le") in data


def read_table(path: str, options: TableOptions = TableOptions()) -> tuple[Sheet, Layout]:  # noqa: B008 - frozen
    """Read the file at ``path`` (``-``: standard input) and find the sheet and columns to score, as ``options``
    say: the sheet asked for, or the first visible one, past a cover page."""
    first = read_input(path, options.sheet, encoding=options.encoding, delimiter=options.delimiter)
    return find_table(first, lambda name: read_input(path, name), options)
