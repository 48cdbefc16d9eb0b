"""Safe reading and writing of user files: workbooks and CSV in, scored workbooks, CSV or JSON lines out.

Reading refuses what is not a spreadsheet, encrypted workbooks, zip bombs, XML with a DTD (entity attacks),
binary sheet parts and sheets whose real cell extent is past a cell budget, all before any parser sees the file:
every XML part is streamed through once, whatever its ``<dimension>`` claims. Text files are decoded as Excel
writes them (UTF-8 with or without BOM, UTF-16, the ANSI code page) and their delimiter is sniffed from a
bounded sample. Writing goes to a temporary file beside the target, locked and checked before any reading, and
is renamed into place only when complete; user text is always written as text, never as a formula or link.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import datetime as dt
import faulthandler
import io
import json
import locale
import math
import os
import re
import signal
import stat
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

import defusedxml.ElementTree as SafeET

from .cells import CellError, cell_text

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the final rename still never replaces without --force
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "InputError",
    "OutputFile",
    "Sheet",
    "check_workbook_zip",
    "column_index",
    "column_letter",
    "holds_exactly",
    "output_delimiter",
    "read_input",
    "write_csv",
    "write_files",
    "write_json_lines",
]

MAX_UNCOMPRESSED = 1 << 30  # 1 GiB
MAX_TEXT_BYTES = 1 << 30
MAX_RATIO = 100
EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLS = 16_384
#: Cells of the dense grid the reader builds (rows x columns of the real extent): about 1.3 GB at most in the
#: reader and its Python lists, and Excel's 1,048,576 rows with 19 columns still fit.
MAX_CELLS = 20_000_000
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
TEXT_SUFFIXES = {".csv", ".tsv", ".txt", ".tab"}
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm"}
DELIMITERS = (",", ";", "\t")
SNIFF_CHARS = 65_536
SCAN_CHUNK = 1 << 22
_NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_XML_ENCODING = re.compile(rb'^\s*<\?xml[^>]*\sencoding\s*=\s*["\']([^"\']+)["\']')
#: The start of a ``<c>`` or ``<row>`` element, any prefix; its attributes follow, in any quoting and spacing.
_ELEMENT = re.compile(rb"<(?:[\w.-]+:)?(c|row)(?=[\s/>])")
_START_TAG_ATTRIBUTES = re.compile(rb"""((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*/?>""")
#: One attribute, as XML allows it: either quote, spaces around ``=``.
_ANY_ATTRIBUTE = re.compile(rb"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ERROR_TYPE = re.compile(rb"""t\s*=\s*["']e["']""")  # starts with a letter: about 4x faster than with \s
_R_SPELT_OTHERWISE = re.compile(rb"r(?:\s+=|=\s+|=')")  # any r attribute not written r="...
_CELL_NAME = re.compile(rb"([A-Za-z]+)([0-9]+)")
_ROW_NUMBER = re.compile(rb"[0-9]+")
# Excel's and XlsxWriter's own spelling, for the fast scan: upper case, double quotes, no spaces, 7 digits at most.
_ROW_REF = re.compile(rb'<row r="([1-9][0-9]{0,6})"')
_CELL_ROW = re.compile(rb'<c r="[A-Z]{1,3}([1-9][0-9]{0,6})"')
_CELL_LETTERS = re.compile(rb'<c r="([A-Z]{1,3})[1-9]')
_CELL_START = re.compile(rb"<(?:\w+:)?c\s([^>]*?)/?>")
_ERROR_VALUE = re.compile(rb"<(?:\w+:)?v>([^<]*)</(?:\w+:)?v>")
# A formula cell with no value, or an empty one, as openpyxl saves every formula (and XlsxWriter an "" result).
_UNCACHED_FORMULA = re.compile(
    rb"<(?:\w+:)?c\s([^>]*)>\s*<(?:\w+:)?f\b[^>]*(?:/>|>[^<]*</(?:\w+:)?f>)"
    rb"\s*(?:<(?:\w+:)?v\s*/>|<(?:\w+:)?v>\s*</(?:\w+:)?v>)?\s*</(?:\w+:)?c>"
)
MAX_UNCACHED_KEPT = 100_000
_COLUMN_SPEC = re.compile(rb"<(?:\w+:)?col\s([^>]*)>")


class InputError(Exception):
    """A problem with the user's input or output path: reported in one line, exit code 2."""


@dataclass
class Sheet:
    """The cells of one sheet (or CSV file) as rows of values; blanks are ``""`` or ``None``.

    Error cells (``#N/A``) are :class:`CellError` values. ``hidden_columns`` are 0-based; ``uncached`` holds the
    (row, column) of formulas saved without a value (openpyxl saves them so: every reader sees them blank), and
    ``uncached_count`` how many there are (past ``MAX_UNCACHED_KEPT`` only the count is kept). Without a sheet
    named, a workbook is read from its first visible sheet.
    """

    name: str
    rows: list[list[Any]]
    sheet_names: list[str]
    hidden_columns: frozenset[int] = frozenset()
    hidden_sheets: frozenset[str] = frozenset()  # hidden and "very hidden" ones: never read unless named
    uncached: frozenset[tuple[int, int]] = frozenset()
    uncached_count: int = 0
    encoding: str | None = None
    delimiter: str | None = None
    number_formats: dict[int, int | str] = field(default_factory=dict)


# --- columns ----------------------------------------------------------------------------------------------------


def column_letter(index: int) -> str:
    """The letters of a 0-based column index: 0 -> ``A``, 27 -> ``AB``."""
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
            raise InputError(f"{path}: --sheet applies to workbooks, and this is a text file")
        if file.stat().st_size > MAX_TEXT_BYTES:
            raise InputError(f"{path}: refused: over {MAX_TEXT_BYTES >> 30} GiB of text")
        if delimiter is None and suffix in {".tsv", ".tab"}:
            delimiter = "\t"
        try:
            rows, used, found = parse_text(file.read_bytes(), delimiter, encoding)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        return Sheet(file.name, rows, [file.name], encoding=used, delimiter=found)
    raise InputError(f"{path}: not a spreadsheet or CSV file (expected .xlsx, .xlsm, .csv or .tsv)")


def _is_encrypted_ooxml(file: Path) -> bool:
    # An encrypted OOXML workbook is an OLE container with an "EncryptionInfo" stream (UTF-16 directory names).
    with file.open("rb") as handle:
        data = handle.read(1 << 20)
    return "EncryptionInfo".encode("utf-16-le") in data or "EncryptedPackage".encode("utf-16-le") in data


@dataclass
class SheetScan:
    """What one streamed pass over a worksheet part found: its real extent and the cells readers drop."""

    rows: int = 0
    cols: int = 0
    hidden_columns: set[int] = field(default_factory=set)
    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    uncached: set[tuple[int, int]] = field(default_factory=set)
    uncached_count: int = 0
    member: str = ""


def check_workbook_zip(file: Path) -> list[str]:
    """Refuse zip bombs, DTDs, binary sheets and oversized sheets; return the sheet names (defusedxml)."""
    return list(_check_workbook(file))


def _check_workbook(file: Path) -> dict[str, SheetScan]:
    """Every check before the reader opens the workbook; the scan of each sheet, by sheet name."""
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{file}: not a valid .xlsx workbook ({exc})") from None
    with archive:
        infos = archive.infolist()
        names = {info.filename for info in infos}
        if "xl/workbook.xml" not in names:
            if "xl/workbook.bin" in names:
                raise InputError(f"{file}: a binary workbook (.xlsb); save it as .xlsx first")
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
        for member in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels"):  # parsed next: their DTDs first
            if member in names:
                _scan_part(file, archive, archive.getinfo(member), is_sheet=False)
        sheets = _sheet_parts(file, archive, names)
        scans: dict[str, SheetScan] = {}
        for info in infos:
            if info.filename in sheets.values():  # wherever the workbook puts its sheets, whatever their names
                scan = _scan_part(file, archive, info, is_sheet=True)
                scan.member = info.filename
                scans.update((name, scan) for name, member in sheets.items() if member == info.filename)
            elif _looks_like_xml(archive, info):  # every other XML part, by its content, not its name
                _scan_part(file, archive, info, is_sheet=False)
    return scans


def _looks_like_xml(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    if info.is_dir():
        return False
    try:
        with archive.open(info) as member:
            head = member.read(64)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError):
        return True  # let the scan report the corrupt member
    return head.lstrip(codecs.BOM_UTF8 + b" \t\r\n").startswith(b"<") or head.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    )


def _read_xml(file: Path, archive: zipfile.ZipFile, member: str) -> Any:
    try:
        return SafeET.fromstring(archive.read(member))
    except Exception as exc:  # defusedxml's refusals, plain XML errors and corrupt members alike
        raise InputError(f"{file}: refused: {member} is not safe, well-formed XML ({exc})") from None


def _sheet_parts(file: Path, archive: zipfile.ZipFile, names: set[str]) -> dict[str, str]:
    """Sheet name -> its worksheet part, from the workbook and its relationships; binary parts are refused."""
    root = _read_xml(file, archive, "xl/workbook.xml")
    targets: dict[str, str] = {}
    if "xl/_rels/workbook.xml.rels" in names:
        for rel in _read_xml(file, archive, "xl/_rels/workbook.xml.rels").iter(_RELS_NS):
            target = rel.get("Target", "")
            path = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)
            targets[rel.get("Id", "")] = os.path.normpath(path).replace(os.sep, "/")
    parts: dict[str, str] = {}
    for node in root.iterfind("m:sheets/m:sheet", _NS):
        parts[node.get("name", "")] = targets.get(node.get(_REL_ID, ""), "")
    for member in [*parts.values(), *names]:
        referenced = member in parts.values() and member and not member.endswith(".xml")
        in_sheet_folder = member.startswith(("xl/worksheets/", "xl/chartsheets/", "xl/macrosheets/"))
        if referenced or (in_sheet_folder and member.endswith(".bin")):
            raise InputError(f"{file}: refused: {member} is a binary sheet part, which bleu-xl does not read")
    return parts


def _scan_part(file: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, is_sheet: bool) -> SheetScan:
    """Stream one XML part once: refuse a DTD anywhere and non-UTF-8 XML; for a sheet, measure its real extent."""
    scan = SheetScan()
    carry = b""
    first = True
    try:
        with archive.open(info) as member:
            while True:
                chunk = member.read(SCAN_CHUNK)
                if first:
                    _check_xml_encoding(file, info.filename, chunk)
                    first = False
                data = carry + chunk
                # Whole rows (or at least whole tags) per pass, so no pattern is cut in two.
                cut = data.rfind(b"</row>") + 6 if chunk else len(data)
                if cut < 6 and chunk:
                    cut = data.rfind(b">") + 1
                if cut == 0 and len(data) > SCAN_CHUNK:  # no tag ends in 4 MiB: keep only a tail to look at again
                    cut = len(data) - 64
                # The whole buffer (its tail is looked at again with the next chunk): no declaration is cut.
                if b"<!" in data and (b"<!DOCTYPE" in data or b"<!ENTITY" in data):
                    raise InputError(f"{file}: refused: {info.filename} declares a DTD or entities")
                if is_sheet:
                    _scan_cells(data[:cut] if cut < len(data) else data, scan)
                    _check_extent(file, info.filename, scan)
                carry = data[cut:]
                if not chunk:
                    break
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise InputError(f"{file}: cannot read this workbook: {info.filename} is corrupt ({exc})") from None
    except UnreadableReference as exc:
        shown = bytes(exc.args[0])[:40].decode("utf-8", "replace")
        raise InputError(
            f"{file}: refused: {info.filename} has a cell reference bleu-xl cannot read ({shown!r})"
        ) from None
    return scan


def _check_xml_encoding(file: Path, member: str, head: bytes) -> None:
    declared = _XML_ENCODING.match(head)
    if (
        head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        or b"\x00" in head[:200]
        or (declared and declared.group(1).lower() not in (b"utf-8", b"utf8"))
    ):
        raise InputError(f"{file}: refused: {member} is not UTF-8 XML, as Excel writes it")


class UnreadableReference(ValueError):
    """A ``<c>`` or ``<row>`` whose ``r`` the scan cannot read (a character reference, no digits, row 0...)."""


def _start_tag_refs(data: bytes, element: re.Match[bytes]) -> list[bytes]:
    """The ``r`` values of one ``<c>`` or ``<row>`` start tag (all of them: a reader may take either of two)."""
    tag = _START_TAG_ATTRIBUTES.match(data, element.end())
    if tag is None:
        raise UnreadableReference(data[element.start() : element.start() + 60])
    return [double or single for name, double, single in _ANY_ATTRIBUTE.findall(tag.group(1)) if name == b"r"]


def reference_position(ref: bytes, *, is_row: bool) -> tuple[int, int]:
    """1-based (row, column) of a cell reference (``B7``, any case) or a row number; past Excel's grid as one
    past its limit (so any number of digits is cheap). :class:`UnreadableReference` for anything else."""
    found = (_ROW_NUMBER if is_row else _CELL_NAME).fullmatch(ref)
    if found is None:
        raise UnreadableReference(ref)
    digits = found.group(found.lastindex or 0).lstrip(b"0")
    row = int(digits or b"0") if len(digits) <= 7 else EXCEL_MAX_ROWS + 1
    if row == 0:
        raise UnreadableReference(ref)
    if is_row:
        return row, 0
    letters = found.group(1)
    index = column_index(letters.decode("ascii")) if len(letters) <= 3 else None
    return row, EXCEL_MAX_COLS + 1 if index is None else index + 1


def extent_general(data: bytes) -> tuple[int, int, int]:
    """The obvious scan of whole rows of sheet XML: the last row, the last column (1-based), and how many rows
    or cells have no ``r`` attribute (each can push the extent by one, as readers place them one after another).

    Every ``<c>`` and ``<row>`` start tag is read attribute by attribute (either quote, spaces around ``=``);
    :class:`UnreadableReference` when a tag or its ``r`` cannot be read, since a reader might place it anywhere.
    """
    last_row = last_col = missing = 0
    for element in _ELEMENT.finditer(data):
        refs = _start_tag_refs(data, element)
        if not refs:
            missing += 1
        for ref in refs:
            row, col = reference_position(ref, is_row=element.group(1) == b"row")
            last_row, last_col = max(last_row, row), max(last_col, col)
    return last_row, last_col, missing


def extent_fast(data: bytes) -> tuple[int, int] | None:
    """:func:`extent_general` for rows written as Excel and XlsxWriter write them (``<row r="7">``, ``<c r="B7"``,
    no prefixes); ``None`` when any element or ``r`` attribute is not so. A property test holds the two equal.

    Measured on the 70 MB sheet part of bench_cli's workbook cut to 200,000 rows, in 4 MiB chunks as the scan
    reads it (median of 5, two runs on a shared 2-core machine): 0.55 and 0.78 s against 1.5 and 2.4 s for the
    general scan, about 3x, so 5 s or more saved on Excel's full 1,048,576 rows.
    """
    rows = _ROW_REF.findall(data)
    cells = _CELL_ROW.findall(data)
    if (
        data.count(b"<row") != len(rows)
        or data.count(b"<c") != len(cells)
        or data.count(b'r="') != len(rows) + len(cells)  # no second r attribute
        or _R_SPELT_OTHERWISE.search(data)
        or b":c" in data  # prefixed cells or rows (<x:c>)
        or b":row" in data
    ):
        return None
    # Every <c is a whole match of _CELL_ROW (the counts above), so these letters are all of theirs. Two
    # one-group scans and sets of the few distinct values: half the time of one scan with both groups.
    numbers = set(cells).union(rows)
    widest = max(set(_CELL_LETTERS.findall(data)), key=lambda c: (len(c), c), default=None)
    index = column_index(widest.decode("ascii")) if widest else -1
    return max(map(int, numbers), default=0), EXCEL_MAX_COLS + 1 if index is None else index + 1


def attributes_of(tag: bytes) -> dict[bytes, bytes]:
    """The attributes of a start tag's text (after its name), in any quoting; the last of a repeated name."""
    return {name: double or single for name, double, single in _ANY_ATTRIBUTE.findall(tag)}


def _cell_position(attributes: dict[bytes, bytes]) -> tuple[int, int] | None:
    """0-based (row, column) of a cell from its start tag's attributes; ``None`` when it has no readable ``r``."""
    try:
        row, col = reference_position(attributes[b"r"], is_row=False)
    except (KeyError, UnreadableReference):
        return None
    return (row - 1, col - 1) if row <= EXCEL_MAX_ROWS and col <= EXCEL_MAX_COLS else None


def _scan_cells(data: bytes, scan: SheetScan) -> None:
    before_rows = scan.rows == 0  # <cols> (hidden columns) comes before the rows
    fast = extent_fast(data)
    last_row, last_col, missing = (*fast, 0) if fast is not None else extent_general(data)
    scan.rows = max(scan.rows, last_row) + missing
    scan.cols = max(scan.cols, last_col) + missing
    if _ERROR_TYPE.search(data):
        for cell in _CELL_START.finditer(data):
            attributes = attributes_of(cell.group(1))
            if attributes.get(b"t") == b"e" and (position := _cell_position(attributes)):
                end = data.find(b"</c>", cell.end())
                value = (
                    _ERROR_VALUE.search(data, cell.end(), end)
                    if end >= 0 and not cell.group(0).endswith(b"/>")
                    else None
                )
                if value:
                    scan.errors[position] = value.group(1).decode("utf-8", "replace")
    if b"<f" in data:
        for cell in _UNCACHED_FORMULA.finditer(data):
            scan.uncached_count += 1
            position = _cell_position(attributes_of(cell.group(1)))
            if position and len(scan.uncached) < MAX_UNCACHED_KEPT:
                scan.uncached.add(position)
    if before_rows and b"<col" in data:
        for spec in _COLUMN_SPEC.finditer(data):
            attributes = attributes_of(spec.group(1))
            if attributes.get(b"hidden") in (b"1", b"true"):
                low = _column_number(attributes.get(b"min", b"1"))
                high = min(_column_number(attributes.get(b"max", b"1")), EXCEL_MAX_COLS)
                scan.hidden_columns.update(range(low - 1, high))


def _column_number(value: bytes) -> int:
    """A ``<col>`` bound (1-based); past Excel's last column as one past it; unreadable text is refused."""
    if not value.isdigit() or value.lstrip(b"0") == b"":
        raise UnreadableReference(value)
    return int(value) if len(value) <= 7 else EXCEL_MAX_COLS + 1


def _check_extent(file: Path, member: str, scan: SheetScan) -> None:
    if scan.rows > EXCEL_MAX_ROWS or scan.cols > EXCEL_MAX_COLS:
        raise InputError(
            f"{file}: refused: {member} has cells beyond Excel's grid of {EXCEL_MAX_ROWS:,} rows x "
            f"{EXCEL_MAX_COLS:,} columns (A to {column_letter(EXCEL_MAX_COLS - 1)})"
        )
    if scan.rows * scan.cols > MAX_CELLS:
        raise InputError(
            f"{file}: refused: {member} has cells over {scan.rows:,} rows x {scan.cols:,} columns, beyond the "
            f"{MAX_CELLS:,} cells bleu-xl reads"
        )


@contextlib.contextmanager
def _quiet_native_stderr() -> Iterator[None]:
    """Silence what the Rust reader prints on a panic it survives (message, backtrace); ours follows in one line.

    A reader that dies outright (an abort, a crash) leaves no Python code to run: for that case faulthandler
    writes "Fatal Python error: Aborted" and where, to the real standard error, so the run never ends silent.
    The extent scan before the reader is what keeps it from being made to allocate absurdly.
    """
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    was_enabled = faulthandler.is_enabled()
    try:
        faulthandler.enable(file=saved, all_threads=False)
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        faulthandler.disable()
        if was_enabled:
            with contextlib.suppress(ValueError, OSError, AttributeError):
                faulthandler.enable(file=sys.stderr)
        os.close(saved)


def _reader_call(file: Path, call: Any) -> Any:
    """Run a reader call; its exceptions and panics (a ``BaseException`` from pyo3) become one line."""
    try:
        with _quiet_native_stderr():
            return call()
    except Exception as exc:
        raise InputError(f"{file}: cannot read this workbook ({type(exc).__name__}: {exc})") from None
    except BaseException as exc:
        # pyo3's PanicException derives from BaseException only; KeyboardInterrupt, SystemExit and a
        # termination signal's exception pass on.
        if type(exc).__name__ != "PanicException":
            raise
        raise InputError(f"{file}: cannot read this workbook (the reader failed: {exc})") from None


def read_workbook(file: Path, sheet: str | None) -> Sheet:
    scans = _check_workbook(file)
    from python_calamine import CalamineWorkbook, SheetVisibleEnum  # fast Rust reader, loaded only for workbooks

    book = _reader_call(file, lambda: CalamineWorkbook.from_path(str(file)))
    names = list(book.sheet_names) or list(scans)
    hidden = frozenset(m.name for m in book.sheets_metadata if m.visible != SheetVisibleEnum.Visible)
    if sheet is None:
        name = next((n for n in names if n not in hidden), names[0])
    elif sheet in names:
        name = sheet
    elif len(same := [n for n in names if n.casefold() == sheet.casefold()]) == 1:  # Excel ignores the case too
        name = same[0]
    else:
        raise InputError(f"{file}: no sheet named {sheet!r}; sheets: {', '.join(names)}")
    rows = _reader_call(file, lambda: book.get_sheet_by_name(name).to_python(skip_empty_area=False))
    scan = scans.get(name, SheetScan())
    for (r, c), code in scan.errors.items():  # the reader gives error cells as blanks: put the error back
        while r >= len(rows):
            rows.append([])
        row = rows[r]
        row.extend([""] * (c + 1 - len(row)))
        row[c] = CellError(code)
    return Sheet(
        name,
        rows,
        names,
        hidden_sheets=hidden,
        number_formats=_number_formats(file, scan.member, rows) if scan.member else {},
        hidden_columns=frozenset(scan.hidden_columns),
        uncached=frozenset(scan.uncached),
        uncached_count=scan.uncached_count,
    )


FORMAT_SAMPLE_ROWS = 1_000
_NUMBER_TYPES = (int, float, dt.date, dt.time, dt.timedelta)  # datetime is a date


def _number_formats(file: Path, member: str, rows: list[list[Any]]) -> dict[int, int | str]:
    """Column -> the number format of its first number or date (in the first rows): a built-in format's id or a
    custom format's code, so that the scored workbook shows them as the input did."""
    first: dict[bytes, int] = {}
    for r, row in enumerate(rows[:FORMAT_SAMPLE_ROWS]):
        for c, value in enumerate(row):
            if isinstance(value, _NUMBER_TYPES) and not isinstance(value, bool):
                first.setdefault(f"{column_letter(c)}{r + 1}".encode(), c)
    if not first:
        return {}
    styles: dict[int, int] = {}
    with zipfile.ZipFile(file) as archive:
        with archive.open(member) as part:
            carry = b""
            while len(styles) < len(first) and (chunk := part.read(SCAN_CHUNK)):
                data = carry + chunk
                cut = data.rfind(b">") + 1
                for cell in _CELL_START.finditer(data, 0, cut):
                    attributes = attributes_of(cell.group(1))
                    col = first.get(attributes.get(b"r", b""))
                    if col is not None and col not in styles:
                        styles[col] = int(attributes.get(b"s", b"0") or 0)
                carry = data[cut:]
        if "xl/styles.xml" not in archive.namelist():
            return {}
        root = _read_xml(file, archive, "xl/styles.xml")
    codes = {int(n.get("numFmtId", "0")): n.get("formatCode", "") for n in root.iterfind("m:numFmts/m:numFmt", _NS)}
    xfs = [int(xf.get("numFmtId", "0")) for xf in root.iterfind("m:cellXfs/m:xf", _NS)]
    formats: dict[int, int | str] = {}
    for col, style in styles.items():
        number_format = xfs[style] if style < len(xfs) else 0
        if number_format:  # General (0) needs nothing
            formats[col] = codes.get(number_format, number_format) if number_format >= 164 else number_format
    return formats


def ansi_code_page() -> str:
    """The code page Excel's plain "CSV" uses: the system's ANSI code page on Windows, else Windows-1252."""
    if sys.platform == "win32":
        found = locale.getpreferredencoding(False)
        if found.lower().startswith("cp"):
            return found
    return "cp1252"


def decode_text(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text and the encoding used: the given one, else UTF-8 (BOM or not), UTF-16, or the ANSI code page."""
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r} (for example utf-8, cp1252, utf-16)") from None
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        return _decode(data, codec, f"not valid {encoding} text"), codec
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8-sig", "starts with a UTF-8 BOM but is not valid UTF-8"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", "starts with a UTF-16 BOM but is not valid UTF-16"), "utf-16"
    head = data[:4096]
    if len(head) > 1 and max(head[1::2].count(0), head[0::2].count(0)) > len(head) // 4:
        codec = "utf-16-le" if head[1::2].count(0) >= head[0::2].count(0) else "utf-16-be"
        return _decode(data, codec, "looks like UTF-16 without a BOM but is not valid UTF-16"), codec
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        codec = ansi_code_page()
        return _decode(data, codec, f"neither UTF-8 nor UTF-16 nor {codec} text; give --encoding"), codec


def _decode(data: bytes, codec: str, problem: str) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(f"{problem} (byte {exc.start:,})") from None
    if "\x00" in text:
        raise InputError(f"{problem}: it holds NUL characters, so it is not a text file")
    return text


def sniff_delimiter(text: str) -> str:
    """``,``, ``;`` or tab: the one that splits a bounded sample into the most rows of the same width.

    The sample is the first 64 KiB, parsed once per candidate (linear time, unlike ``csv.Sniffer``).
    """
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    best, best_key = ",", (0, 0)
    for delimiter in DELIMITERS:
        try:
            widths = [len(row) for row in csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter) if row]
        except csv.Error:
            continue
        if not widths:
            continue
        common = max(set(widths), key=lambda w: (widths.count(w), w))
        key = (widths.count(common), common) if common > 1 else (0, 0)
        if key > best_key:
            best, best_key = delimiter, key
    return best


def parse_text(data: bytes, delimiter: str | None, encoding: str | None = None) -> tuple[list[list[Any]], str, str]:
    """The rows of a CSV/TSV file, the encoding and the delimiter used; cells stay text exactly as written."""
    text, used = decode_text(data, encoding)
    if delimiter is None:
        delimiter = sniff_delimiter(text)
    rows: list[list[Any]] = []
    width = 0
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            rows.append(row)
            width = max(width, len(row))
            if len(rows) > EXCEL_MAX_ROWS + 1 or len(rows) * width > MAX_CELLS:
                raise InputError(f"refused: more than {MAX_CELLS:,} cells or {EXCEL_MAX_ROWS:,} rows")
    except csv.Error as exc:
        raise InputError(f"cannot parse the text file as CSV ({exc})") from None
    return rows, used, delimiter


# --- writing ----------------------------------------------------------------------------------------------------


_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


def _hold_signals() -> set[int] | None:
    """Delay SIGTERM/SIGHUP (POSIX) over a few statements that must not be cut in two."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)


def _release_signals(previous: set[int] | None) -> None:
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class OutputFile:
    """The output, claimed before any reading: checked, locked, written to a temporary file, then renamed.

    ``-`` is standard output. An existing file is refused without ``force`` (and never replaced at the final
    rename either), a special file or folder always; the paths in ``protect`` (the input) are never written.
    An exclusive lock beside the target keeps a second run from writing the same output at the same time.
    """

    def __init__(self, path: str, *, force: bool, protect: Sequence[str] = ()) -> None:
        self.path = path
        self.force = force
        self._lock: int | None = None
        self._lock_path: Path | None = None
        if path == "-":
            return
        target = Path(path)
        self.target = target
        if target.is_dir():
            raise InputError(f"{path}: is a folder; give a file name with -o")
        if not target.parent.is_dir():
            raise InputError(f"{path}: the folder {target.parent} does not exist")
        for other in protect:
            if other != "-" and Path(other).exists() and target.exists() and target.samefile(other):
                raise InputError(f"{path}: the output would overwrite the input; choose another -o")
        self._claim()
        self._check_target()

    def _claim(self) -> None:
        if fcntl is None:
            return
        lock_path = self.target.with_name(f".{self.target.name}.bleu-xl-lock")
        held = _hold_signals()  # the lock file is known to release() before a signal can stop the run
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError(f"{self.path}: another bleu-xl run is writing this file; wait for it") from None
            self._lock, self._lock_path = fd, lock_path
        except OSError as exc:
            raise InputError(f"{self.path}: cannot write in {self.target.parent} ({exc.strerror})") from None
        finally:
            _release_signals(held)

    def _check_target(self) -> None:
        try:
            info = self.target.lstat()
        except FileNotFoundError:
            return
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISLNK(info.st_mode):
            self.release()
            raise InputError(f"{self.path}: not a regular file; bleu-xl writes only regular files")
        if not self.force:
            self.release()
            raise InputError(f"{self.path}: already exists; use --force to replace it")

    def release(self) -> None:
        """Drop the lock and its file (only while holding it, so no other run's lock is removed)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                if self._lock_path is not None:
                    os.unlink(self._lock_path)
            os.close(self._lock)
            self._lock = None

    def _place_new(self, tmp: str) -> None:
        try:
            os.link(tmp, self.target)  # fails if the target exists: never replace without --force
        except FileExistsError:
            raise InputError(f"{self.path}: already exists; use --force to replace it") from None
        except OSError:  # no hard links on this file system: the lock and the check above still hold
            os.replace(tmp, self.target)
        else:
            os.unlink(tmp)

    @contextlib.contextmanager
    def open(self, *, binary: bool, encoding: str = "utf-8") -> Iterator[IO[Any]]:
        """A file to write the whole output to; it appears at the target only when the block completes."""
        if self.path == "-":
            yield sys.stdout.buffer if binary else sys.stdout
            return
        with self.open_path(encoding=encoding) as tmp:
            mode = {} if binary else {"encoding": encoding, "newline": "", "errors": "strict"}
            with open(tmp, "wb" if binary else "w", **mode) as out:
                yield out

    @contextlib.contextmanager
    def open_path(self, *, encoding: str = "utf-8") -> Iterator[Path]:
        """A temporary path beside the target for a writer that opens files itself; renamed into place after."""
        held = _hold_signals()  # a SIGTERM between creating the file and the try below would leave it behind
        try:
            fd, tmp = tempfile.mkstemp(dir=self.target.parent, prefix=f".{self.target.name}.", suffix=".partial")
        except OSError as exc:
            _release_signals(held)
            self.release()
            raise InputError(f"{self.path}: cannot write in {self.target.parent} ({exc.strerror})") from None
        try:
            _release_signals(held)  # a signal that came meanwhile is handled here, inside the cleanup
            if hasattr(os, "fchmod"):  # mkstemp makes 0600: give the mode any new file gets under the umask
                os.fchmod(fd, 0o666 & ~_umask())
            os.close(fd)
            yield Path(tmp)
            self._check_target()  # a file that appeared meanwhile, a device put in its place
            if self.force:
                os.replace(tmp, self.target)
            else:
                self._place_new(tmp)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
                raise InputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None
            if isinstance(exc, UnicodeEncodeError):
                raise InputError(
                    f"{self.path}: a cell cannot be written in {encoding} ({exc.object[exc.start : exc.end]!r}); "
                    "use --encoding utf-8"
                ) from None
            raise
        finally:
            self.release()


def holds_exactly(path: Path, content: bytes) -> bool:
    """True when ``path`` is a regular file (through links) holding exactly ``content``: opened without blocking (a
    FIFO is not waited on), and a file of another size is not read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        same_size = stat.S_ISREG(info.st_mode) and info.st_size == len(content)
        return same_size and file.read(len(content) + 1) == content


def write_files(writers: Sequence[tuple[Path, Callable[[Path], object]]], *, force: bool) -> None:
    """Write every file whole, or leave them all as they were: ``write(path)`` writes one file's whole content at
    the temporary path it is given. All are claimed (locked and checked) before any is written, and the
    temporary files are renamed into place only when all were written, so an existing file (or a link: the link
    is replaced, never written through) changes only then. A failure or a signal before the renames removes
    them all, locks included."""
    with contextlib.ExitStack() as claims:
        outputs = []
        for path, _ in writers:
            output = OutputFile(str(path), force=force)
            claims.callback(output.release)
            outputs.append(output)
        with contextlib.ExitStack() as writes:
            for output, (_, write) in zip(outputs, writers):
                write(writes.enter_context(output.open_path()))


#: Leading characters that make a spreadsheet read a CSV field as a formula (OWASP's CSV injection guidance).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


#: A plain number as text: a sign, digits (grouped by thousands with , . or a space, or not), a decimal point or
#: comma, an exponent, a percent sign. A spreadsheet reads it as that number and nothing else, so it keeps its
#: sign without a ``'`` ("-5", "-0,5", "+1,234.50"); "-2+3" is an expression, and is neutralised.
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+|\d{1,3}(?:[,. \u00a0]\d{3})+)(?:[.,]\d+)?(?:[eE][+-]?\d+)?%?", re.ASCII)


def neutralise(text: str) -> str:
    """A leading ``'`` for text a spreadsheet would run as a formula: ``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``;
    a plain number such as ``-5`` is left as it is."""
    if text.startswith(FORMULA_TRIGGERS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def output_delimiter(given: str | None, output: str, sheet: Sheet) -> str:
    """``--delimiter``, else tab for ``.tsv``, else the input's own delimiter (so French Excel reads ``;``)."""
    if given is not None:
        return given
    if output.lower().endswith((".tsv", ".tab")):
        return "\t"
    return sheet.delimiter if sheet.delimiter in DELIMITERS else ","


def write_csv(
    out: IO[str],
    header: list[str],
    rows: Iterator[list[Any]],
    *,
    delimiter: str = ",",
    raw: bool = False,
) -> None:
    """Text fields quoted and neutralised against formula injection (unless ``raw``), numbers as numbers.

    With ``;`` as the delimiter, numbers are written with a decimal comma, as French or Portuguese Excel
    writes and reads them.
    """
    writer = csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    decimal_comma = delimiter == ";"

    def csv_field(value: Any) -> Any:
        shown = displayed(value)
        if isinstance(shown, str):
            return shown if raw else neutralise(shown)
        if decimal_comma and isinstance(shown, float):
            return _DecimalComma(shown)
        return shown

    writer.writerow([csv_field(v) for v in header])
    for row in rows:
        writer.writerow([csv_field(v) for v in row])


class _DecimalComma(float):
    """A number that the csv module writes unquoted (it is a float) with a decimal comma (its ``str``)."""

    def __str__(self) -> str:
        return repr(float(self)).replace(".", ",")


def displayed(value: Any) -> Any:
    """A cell as Excel displays it in General format: integers without ``.0``, TRUE/FALSE, dates as ISO."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
            return int(value)
        return value
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, dt.timedelta):  # a duration as Excel's [h]:mm:ss shows it
        seconds = round(value.total_seconds())
        hours, rest = divmod(abs(seconds), 3600)
        return f"{'-' if seconds < 0 else ''}{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return cell_text(value) or ""


def json_value(value: Any) -> Any:
    """A cell for JSON: numbers (integers without ``.0``), booleans, text, dates as ISO text, blanks as null."""
    if value is None or value == "":
        return None
    if isinstance(value, (bool, str)):
        return str(value) if isinstance(value, CellError) else value
    return displayed(value)


def write_json_lines(out: IO[str], header: list[str], rows: Iterator[list[Any]]) -> None:
    for row in rows:
        out.write(json.dumps({k: json_value(v) for k, v in zip(header, row)}, ensure_ascii=False) + "\n")
