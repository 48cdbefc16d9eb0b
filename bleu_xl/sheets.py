"""Safe reading and writing of user files: workbooks and CSV in, scored workbooks, CSV or JSON lines out.

Reading refuses what is not a spreadsheet, encrypted workbooks, zip bombs, XML with a DTD (entity attacks) and
absurd claimed dimensions before any parser sees the file. Writing goes to a temporary file beside the target
and is renamed into place only when complete; user text is always written as text, never as a formula or link.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import json
import os
import re
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import defusedxml.ElementTree as SafeET

__all__ = [
    "InputError",
    "Sheet",
    "atomic_output",
    "check_workbook_zip",
    "column_index",
    "read_input",
    "write_csv",
    "write_json_lines",
]

MAX_UNCOMPRESSED = 1 << 30  # 1 GiB
MAX_RATIO = 100
EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLS = 16_384
MAX_CLAIMED_CELLS = 200_000_000
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
TEXT_SUFFIXES = {".csv", ".tsv", ".txt", ".tab"}
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm"}
_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s+ref="([A-Z]+)?(\d+)?(?::([A-Z]+)(\d+))?"')


class InputError(Exception):
    """A problem with the user's input or output path: reported in one line, exit code 2."""


@dataclass
class Sheet:
    """The cells of one sheet (or CSV file) as rows of values; blanks are ``""`` or ``None``."""

    name: str
    rows: list[list[Any]]
    sheet_names: list[str]


# --- columns ----------------------------------------------------------------------------------------------------


def column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int | None:
    """0-based index of a column letter such as ``B`` or ``AA``; ``None`` when it is not a column letter."""
    if not re.fullmatch(r"[A-Za-z]{1,3}", letters):
        return None
    index = 0
    for ch in letters.upper():
        index = index * 26 + ord(ch) - 64
    return index - 1 if index <= EXCEL_MAX_COLS else None


# --- reading ----------------------------------------------------------------------------------------------------


def read_input(path: str, sheet: str | None = None) -> Sheet:
    """Read a workbook, a CSV/TSV file or (``-``) TSV on standard input, refusing anything unsafe."""
    if path == "-":
        return Sheet("stdin", parse_text(sys.stdin.buffer.read(), delimiter="\t"), ["stdin"])
    file = Path(path)
    if not file.exists():
        raise InputError(f"{path}: no such file")
    if not file.is_file():
        raise InputError(f"{path}: not a file")
    with file.open("rb") as handle:
        head = handle.read(8)
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
            raise InputError(f"{path}: --sheet applies to workbooks, and this is a text file")
        data = file.read_bytes()
        return Sheet(file.name, parse_text(data, "\t" if suffix in {".tsv", ".tab"} else None), [file.name])
    raise InputError(f"{path}: not a spreadsheet or CSV file (expected .xlsx, .xlsm, .csv or .tsv)")


def _is_encrypted_ooxml(file: Path) -> bool:
    # An encrypted OOXML workbook is an OLE container with an "EncryptionInfo" stream (UTF-16 directory names).
    with file.open("rb") as handle:
        data = handle.read(1 << 20)
    return "EncryptionInfo".encode("utf-16-le") in data or "EncryptedPackage".encode("utf-16-le") in data


def check_workbook_zip(file: Path) -> list[str]:
    """Refuse zip bombs, DTDs and absurd dimensions; return the sheet names (read with defusedxml)."""
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{file}: not a valid .xlsx workbook ({exc})") from None
    with archive:
        infos = archive.infolist()
        names = {info.filename for info in infos}
        if "xl/workbook.xml" not in names:
            raise InputError(f"{file}: a zip file but not an Excel workbook (no xl/workbook.xml)")
        unpacked = sum(info.file_size for info in infos)
        packed = sum(info.compress_size for info in infos)
        if unpacked > MAX_UNCOMPRESSED:
            raise InputError(f"{file}: refused: it would unpack to {unpacked / 2**30:.1f} GiB (limit 1 GiB)")
        if packed and unpacked / packed > MAX_RATIO:
            raise InputError(
                f"{file}: refused: a compression ratio of {unpacked / packed:.0f} looks like a zip bomb "
                f"(limit {MAX_RATIO})"
            )
        for info in infos:
            if info.filename.endswith((".xml", ".rels")):
                with archive.open(info) as member:
                    head = member.read(4096)
                if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                    raise InputError(f"{file}: refused: {info.filename} declares a DTD or entities")
                if info.filename.startswith("xl/worksheets/"):
                    _check_dimension(file, info.filename, head)
        try:
            root = SafeET.fromstring(archive.read("xl/workbook.xml"))
        except Exception as exc:  # defusedxml's refusals and plain XML errors alike
            raise InputError(f"{file}: refused: xl/workbook.xml is not safe, well-formed XML ({exc})") from None
    return [node.get("name", "") for node in root.iterfind("m:sheets/m:sheet", _NS)]


def _check_dimension(file: Path, member: str, head: bytes) -> None:
    match = _DIMENSION.search(head)
    if not match:
        return
    first_col, first_row, last_col, last_row = match.groups()
    last_row = int(last_row or first_row or 1)
    last_index = column_index((last_col or first_col or b"A").decode("ascii"))
    cols = EXCEL_MAX_COLS + 1 if last_index is None else last_index + 1
    if last_row > EXCEL_MAX_ROWS or cols > EXCEL_MAX_COLS or last_row * cols > MAX_CLAIMED_CELLS:
        raise InputError(
            f"{file}: refused: {member} claims {last_row:,} rows x {cols:,} columns, beyond what bleu-xl reads"
        )


def read_workbook(file: Path, sheet: str | None) -> Sheet:
    names = check_workbook_zip(file)
    from python_calamine import CalamineWorkbook  # fast Rust reader, loaded only for workbooks

    try:
        book = CalamineWorkbook.from_path(str(file))
    except Exception as exc:
        raise InputError(f"{file}: cannot read the workbook ({exc})") from None
    names = list(book.sheet_names) or names
    if sheet is None:
        name = names[0]
    elif sheet in names:
        name = sheet
    else:
        raise InputError(f"{file}: no sheet named {sheet!r}; sheets: {', '.join(names)}")
    try:
        rows = book.get_sheet_by_name(name).to_python()
    except Exception as exc:
        raise InputError(f"{file}: cannot read sheet {name!r} ({exc})") from None
    return Sheet(name, rows, names)


def decode_text(data: bytes) -> str:
    """UTF-8 with or without BOM, or UTF-16 with a BOM as Excel's "Unicode text" export writes it."""
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if len(data) > 1 and data[1::2].count(0) > len(data) // 4:
            return data.decode("utf-16-le")  # UTF-16 without a BOM
        raise InputError("the text file is not UTF-8 or UTF-16; save it as 'CSV UTF-8'") from None


def parse_text(data: bytes, delimiter: str | None) -> list[list[Any]]:
    if b"\x00" in data[:4096] and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            raise InputError("the file contains NUL bytes: not a text file")
    text = decode_text(data)
    if delimiter is None:
        sample = text[:65536]
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error as exc:
        raise InputError(f"cannot parse the text file as CSV ({exc})") from None


# --- writing ----------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def atomic_output(path: str, *, force: bool, binary: bool, protect: Sequence[str] = ()) -> Iterator[IO[Any]]:
    """A file to write the whole output to; it appears at ``path`` only when the block completes.

    ``-`` is standard output. An existing file is not replaced without ``force``; the paths in ``protect`` (the
    input) are never written.
    """
    if path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = Path(path)
    for other in protect:
        if other != "-" and Path(other).exists() and target.exists() and target.samefile(other):
            raise InputError(f"{path}: the output would overwrite the input; choose another -o")
    if target.exists() and not force:
        raise InputError(f"{path}: already exists; use --force to replace it")
    if not target.parent.exists():
        raise InputError(f"{path}: the folder {target.parent} does not exist")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})) as out:
            yield out
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_csv(out: IO[str], header: list[str], rows: Iterator[list[Any]]) -> None:
    """Every text field quoted, numbers as numbers; user text is kept exactly as it is."""
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])


def write_json_lines(out: IO[str], header: list[str], rows: Iterator[list[Any]]) -> None:
    for row in rows:
        out.write(json.dumps(dict(zip(header, row)), ensure_ascii=False, default=str) + "\n")
