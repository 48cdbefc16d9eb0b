"""The safety checks of a workbook before the reader sees it, from one XML parse of each part the reader reads.

A workbook is a zip of XML parts that python-calamine finds by their relationships and fixed names, comparing names
without regard to ASCII case. :func:`open_package` finds them the same way and refuses a package that could be
read two ways: member names equal but for case, with a backslash, ``.`` or ``..``; a part calamine reads that the
relationships do not reach or reach elsewhere; another format's parts; zip bombs; XML that declares a DTD or is
not UTF-8. :func:`scan_sheet` then streams the one sheet part to be read through expat (namespaces processed, no
DTD, so comments, CDATA, processing instructions, references and prefixes mean what they mean in XML) and takes
from that single pass what the reader drops or gets wrong: the real extent (a sheet past the cell budget is
refused before the reader allocates it), error cells, formulas saved without their values, hidden columns and
rows, merged ranges, the rows of its Excel Tables' totals, and the number format of each number cell. Cells are
placed as calamine places them (its own ``r``, else one after the previous); markup calamine reads otherwise than XML (a
comment or a character reference inside a value, ``<x:c>`` in a foreign namespace) is refused.

Every pass is linear in the bytes of the part, whatever their content.
"""

from __future__ import annotations

import codecs
import posixpath
import re
import zipfile
import zlib
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.parsers import expat

from ..core.errors import BleuXlError
from ..table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, GENERAL, CellFormats, CellRange, InputError, column_letter
from .limits import MAX_CELLS, MAX_RATIO, MAX_UNCOMPRESSED, SCAN_CHUNK

__all__ = [
    "ERROR_CODES",
    "Package",
    "SheetPart",
    "SheetScan",
    "Styles",
    "cell_position",
    "open_package",
    "scan_sheet",
]

#: SpreadsheetML's namespace (transitional, then strict): both mean the same elements to every reader.
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
#: The error values calamine reads (it refuses a sheet with any other, #SPILL! included).
ERROR_CODES = frozenset(["#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"])
MAX_UNCACHED_KEPT = 100_000
_EXPAT_NO_MEMORY = expat.errors.codes[expat.errors.XML_ERROR_NO_MEMORY]
_XML_ENCODING = re.compile(rb'^\s*<\?xml[^>]*?\sencoding\s*=\s*["\']([^"\']*)["\']')
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: Parts of other formats: a zip that holds them as well as a workbook could be read as either.
_OTHER_FORMATS = {
    "mimetype": "an OpenDocument spreadsheet (.ods)",
    "content.xml": "an OpenDocument spreadsheet (.ods)",
    "meta-inf/manifest.xml": "an OpenDocument spreadsheet (.ods)",
}


class _Refused(BleuXlError):
    """A reason to refuse the part being parsed, completed with the file and part names by the caller."""


def _ascii_lower(name: str) -> str:
    """A part name as calamine compares it: ASCII letters in lower case, every other character as it is."""
    return name.translate(_ASCII_LOWER)


def _q(local: str) -> str:
    return f"{MAIN} {local}"


#: The SpreadsheetML elements the checks act on, by their expat names (namespace URI, a space, the local name).
_NAMES = {
    local: _q(local)
    for local in (
        "worksheet", "sheetData", "row", "c", "v", "f", "is", "t", "cols", "col", "tableParts", "tablePart", "sheet",
        "sst", "si", "numFmts", "numFmt", "cellXfs", "xf", "table", "workbook", "styleSheet", "mergeCell",
    )
}  # fmt: skip
#: expat's table of interned names, seeded so that it hands out these very objects (the handlers compare them by
#: identity) and gives the strict namespace's names as the transitional ones.
_INTERN = {f"{ns} {local}": name for ns in (MAIN, _STRICT_MAIN) for local, name in _NAMES.items()}
_C, _ROW, _V, _F, _IS, _T = _NAMES["c"], _NAMES["row"], _NAMES["v"], _NAMES["f"], _NAMES["is"], _NAMES["t"]
_SHEET_DATA, _COLS, _COL, _TABLE_PART = _NAMES["sheetData"], _NAMES["cols"], _NAMES["col"], _NAMES["tablePart"]
_MERGE_CELL = _NAMES["mergeCell"]
#: Local names calamine (which ignores namespaces) acts on in a worksheet, anywhere and inside the cells: outside
#: SpreadsheetML's namespace, such an element would be read by calamine and be nothing to an XML reader.
_SHEET_NAMES = frozenset(["sheetData", "dimension", "mergeCell"])
_CELL_NAMES = frozenset(["row", "c", "v", "f", "is", "t", "r", "rPh", "sheetData"])


def _parser() -> Any:
    """An expat parser with namespaces processed that refuses any DTD or entity declaration."""
    parser = expat.ParserCreate(namespace_separator=" ", intern=dict(_INTERN))

    def refuse_dtd(*_: Any) -> None:
        raise _Refused("declares a DTD or entities")

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.ExternalEntityRefHandler = refuse_dtd
    return parser


def _local(name: str) -> tuple[str, str]:
    """(namespace, local name) of an expat name."""
    namespace, _, local = name.rpartition(" ")
    return namespace, local


@dataclass
class SheetPart:
    """One sheet of the workbook as calamine finds it: its part, its relationship type and its visibility."""

    name: str  # as XML reads it (calamine's own spelling is the one to show; they differ only in odd whitespace)
    member: str
    kind: str  # worksheet, chartsheet or dialogsheet
    state: str


@dataclass
class Styles:
    """The number formats of the workbook's cell styles: each style's format id, and the custom formats' codes."""

    formats: list[int] = field(default_factory=list)
    codes: dict[int, str] = field(default_factory=dict)


@dataclass
class SheetScan:
    """What one streamed pass over a worksheet part found: its extent and what the reader drops or gets wrong.

    Positions are 0-based (row, column), as calamine places the cells; ``formats`` holds the number format of
    every cell that holds a number (or a date, which is one).
    """

    rows: int = 0
    cols: int = 0
    hidden_columns: set[int] = field(default_factory=set)
    hidden_rows: set[int] = field(default_factory=set)
    totals_rows: set[int] = field(default_factory=set)
    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    uncached: set[tuple[int, int]] = field(default_factory=set)
    uncached_count: int = 0
    formats: CellFormats = field(default_factory=CellFormats)
    merged: list[CellRange] = field(default_factory=list)
    member: str = ""


@dataclass
class Package:
    """A workbook's zip checked as a whole: its members by calamine's names, its sheets, its number formats."""

    file: Path
    archive: zipfile.ZipFile
    members: dict[str, zipfile.ZipInfo]  # by ASCII-lower-case name
    sheets: list[SheetPart]
    styles: Styles
    part_rels: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)  # part -> Id -> (type, part)

    def close(self) -> None:
        self.archive.close()


def cell_position(ref: str) -> tuple[int, int]:
    """0-based (row, column) of a cell reference as calamine reads it (letters in any case, then digits); past
    Excel's grid as one past its last row or column, so that any number of digits is cheap. :class:`_Refused`
    for anything else (calamine would refuse it, or read a reference that overflows as a cell near A1)."""
    letters = ref.rstrip("0123456789")
    digits = ref[len(letters) :]
    col = _COLUMNS.get(letters)
    if col is None:
        if not letters.isascii() or not letters.isalpha():
            raise _Refused(f"has a cell reference bleu-xl cannot read ({ref[:40]!r})")
        col = _COLUMNS.get(letters.upper(), EXCEL_MAX_COLS)
    if len(digits) > 7:
        digits = digits.lstrip("0")
        if len(digits) > 7:
            return EXCEL_MAX_ROWS, col
    row = int(digits or "0")
    if row == 0:
        raise _Refused(f"has a cell reference bleu-xl cannot read ({ref[:40]!r})")
    return min(row, EXCEL_MAX_ROWS + 1) - 1, col


def _column_letters() -> dict[str, int]:
    return {column_letter(i): i for i in range(EXCEL_MAX_COLS)}


_COLUMNS = _column_letters()


# --- the package ---------------------------------------------------------------------------------------------------


def open_package(file: Path | IO[bytes], name: Path | None = None) -> Package:
    """Open a workbook's zip and check it as a whole; the caller closes the package. ``file`` is a path or an open
    binary file (then ``name`` is the path to show)."""
    shown = name if name is not None else Path(str(file))
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise InputError(f"{shown}: not a valid .xlsx workbook ({exc})") from None
    try:
        return _check_package(shown, archive)
    except BaseException:
        archive.close()
        raise


def _check_package(file: Path, archive: zipfile.ZipFile) -> Package:
    infos = archive.infolist()
    members = _member_names(file, infos)
    unpacked = sum(info.file_size for info in infos)
    packed = sum(info.compress_size for info in infos)
    if unpacked > MAX_UNCOMPRESSED:
        raise InputError(f"{file}: refused: it would unpack to {unpacked / 2**30:.1f} GiB (limit 1 GiB)")
    if packed and unpacked / packed > MAX_RATIO:
        raise InputError(
            f"{file}: refused: a compression ratio of {unpacked / packed:.0f} looks like a zip bomb (limit {MAX_RATIO})"
        )
    package = Package(file, archive, members, [], Styles())
    for lower, info in members.items():  # a DTD anywhere first: whatever else is wrong, a DTD is what to say
        if not info.is_dir() and _looks_like_xml(package, lower):
            _parse(package, lower, _prolog_parser(), prolog_only=True)
    root_rels = _read_rels(package, "_rels/.rels", base="")
    if root_rels is None:
        if "mimetype" in members:
            raise InputError(
                f"{file}: an OpenDocument spreadsheet (.ods) with a workbook's name; save it as .xlsx first"
            )
        if "xl/workbook.bin" in members:
            raise InputError(f"{file}: a binary workbook (.xlsb); save it as .xlsx first")
        raise InputError(f"{file}: a zip file but not an Excel workbook (no _rels/.rels)")
    documents = [(target, raw) for rel_type, target, raw in root_rels.values() if rel_type.endswith("/officeDocument")]
    if len(documents) != 1:
        raise InputError(
            f"{file}: refused: _rels/.rels names {len(documents)} workbook parts; an Excel workbook has one"
        )
    target, raw = documents[0]
    # calamine reads "workbook.xml" in the folder of the document's target, whatever its file name.
    folder = raw[: raw.rfind("/") + 1].removeprefix("/")
    if _ascii_lower(posixpath.basename(target)) != "workbook.xml" or _ascii_lower(target) != _ascii_lower(
        folder + "workbook.xml"
    ):
        if target.endswith(".bin"):
            raise InputError(f"{file}: a binary workbook (.xlsb); save it as .xlsx first")
        raise InputError(f"{file}: refused: its workbook part {target!r} is not where readers look for it")
    for lower, description in _OTHER_FORMATS.items():
        if lower in members:
            raise InputError(f"{file}: refused: it holds the parts of {description} as well as a workbook")
    workbook = folder + "workbook.xml"
    if _ascii_lower(workbook) not in members:
        raise InputError(f"{file}: a zip file but not an Excel workbook (no {workbook})")
    workbook_rels = _read_rels(package, f"{folder}_rels/workbook.xml.rels", base=folder)
    if workbook_rels is None:
        raise InputError(f"{file}: refused: {folder}_rels/workbook.xml.rels is missing")
    package.sheets = _read_sheets(package, workbook, folder, workbook_rels)
    for fixed, rel_type in (("sharedStrings.xml", "/sharedStrings"), ("styles.xml", "/styles")):
        _check_fixed_part(package, folder + fixed, rel_type, workbook_rels)
    _check_shared_strings(package, folder + "sharedStrings.xml")
    package.styles = _read_styles(package, folder + "styles.xml")
    _check_reachable(package, folder, root_rels, workbook_rels)
    return package


def _member_names(file: Path, infos: list[zipfile.ZipInfo]) -> dict[str, zipfile.ZipInfo]:
    """Members by calamine's name for them; a name that readers could take for another, or could take two ways,
    is refused."""
    members: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        name = info.filename
        segments = name.rstrip("/").split("/") if name else [""]
        if "\\" in name or name.startswith("/") or any(s in ("", ".", "..") for s in segments) or "\x00" in name:
            raise InputError(f"{file}: refused: a part named {name[:80]!r}, which readers resolve differently")
        lower = _ascii_lower(name)
        if lower in members:
            other = members[lower].filename
            same = "twice" if other == name else f"as {other!r} and {name!r}"
            raise InputError(f"{file}: refused: it holds a part {same}; readers would take either")
        members[lower] = info
    return members


def _open_member(package: Package, lower: str, size: int = SCAN_CHUNK) -> Iterator[bytes]:
    """The bytes of a member, chunk by chunk; a corrupt member is refused."""
    info = package.members[lower]
    try:
        with package.archive.open(info) as member:
            while chunk := member.read(size):
                yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as exc:
        raise InputError(f"{package.file}: cannot read this workbook: {info.filename} is corrupt ({exc})") from None


def _check_encoding(head: bytes) -> None:
    declared = _XML_ENCODING.match(head)
    if (
        head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        or b"\x00" in head[:200]
        or (declared and declared.group(1).lower() not in (b"utf-8", b"utf8"))
    ):
        raise _Refused("is not UTF-8 XML, as Excel writes it")


def _parse(package: Package, lower: str, parser: Any, *, prolog_only: bool = False) -> None:
    """Stream one member through ``parser``; a refusal, malformed XML or a corrupt member is one line."""
    info = package.members[lower]
    first = True
    try:
        try:
            for chunk in _open_member(package, lower, 1 << 16 if prolog_only else SCAN_CHUNK):
                if first:
                    _check_encoding(chunk)
                    first = False
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except _Stop:
            return
        except expat.ExpatError as exc:
            refusal = _malformed(exc)
            if prolog_only:  # a part nobody reads: only its DTD matters
                return
            raise refusal from None
    except _Refused as exc:
        raise InputError(f"{package.file}: refused: {info.filename} {exc}") from None


def _malformed(exc: expat.ExpatError) -> _Refused:
    """The refusal of XML that expat could not parse. expat out of memory (under the reader's memory limit) says
    nothing of the file: that is a MemoryError, which the bounded reader reports as running out of memory."""
    if exc.code == _EXPAT_NO_MEMORY:
        raise MemoryError("the XML parser ran out of memory") from None
    message = expat.errors.messages.get(exc.code, str(exc))
    return _Refused(f"is not well-formed XML ({message}, line {exc.lineno})")


class _Stop(Exception):
    """The parse has seen all it needs."""


def _read_rels(package: Package, name: str, *, base: str) -> dict[str, tuple[str, str, str]] | None:
    """A relationships part: Id -> (type, target part resolved against ``base``, target as written); ``None``
    when the part is missing. External targets are left out; an Id given twice is refused."""
    lower = _ascii_lower(name)
    if lower not in package.members:
        return None
    rels: dict[str, tuple[str, str, str]] = {}
    parser = _parser()
    relationship = f"{_RELS} Relationship"

    def start(tag: str, attrs: dict[str, str]) -> None:
        if _local(tag)[1] == "Relationship" and tag != relationship:
            raise _Refused("has a Relationship outside the relationships namespace")
        if tag != relationship:
            return
        rel_id = attrs.get("Id", "")
        if rel_id in rels:
            raise _Refused(f"gives the relationship {rel_id!r} twice")
        if attrs.get("TargetMode") == "External":
            rels[rel_id] = (attrs.get("Type", ""), "", "")
            return
        raw = attrs.get("Target", "")
        target = raw[1:] if raw.startswith("/") else posixpath.normpath(posixpath.join(base, raw)) if raw else ""
        rels[rel_id] = (attrs.get("Type", ""), target.removeprefix("./"), raw)

    parser.StartElementHandler = start
    _parse(package, lower, parser)
    return rels


def _read_sheets(
    package: Package, workbook: str, folder: str, rels: dict[str, tuple[str, str, str]]
) -> list[SheetPart]:
    """The workbook's sheets in order, each with the part calamine reads for it (its relationship's target, in
    the workbook's folder or from the root, found without regard to ASCII case)."""
    sheets: list[SheetPart] = []
    parser = _parser()
    sheet_tag = _NAMES["sheet"]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag != sheet_tag:
            if _local(tag)[1] == "sheet":
                raise _Refused("has a sheet outside SpreadsheetML's namespace")
            return
        ids = [v for k, v in attrs.items() if k == "id" or (" " in k and k.endswith(" id"))]
        if len(ids) != 1:
            raise _Refused("has a sheet without exactly one relationship id")
        if ids[0] not in rels:
            raise _Refused(f"has a sheet whose relationship {ids[0]!r} is missing")
        rel_type, _, raw = rels[ids[0]]
        kind = rel_type.rsplit("/", 1)[-1]
        if kind not in ("worksheet", "chartsheet", "dialogsheet"):
            raise _Refused(f"has a sheet of a kind bleu-xl does not read ({kind!r})")
        member = raw[1:] if raw.startswith("/") else folder + raw
        sheets.append(SheetPart(attrs.get("name", ""), member, kind, attrs.get("state", "visible")))

    def declared(prefix: str | None, uri: str) -> None:
        if prefix == "id":  # the reader takes any attribute ending in ":id" for a sheet's relationship id
            raise _Refused("declares the prefix 'id', which readers take for a sheet's relationship")

    parser.StartElementHandler = start
    parser.StartNamespaceDeclHandler = declared
    _parse(package, _ascii_lower(workbook), parser)
    for sheet in sheets:
        lower = _ascii_lower(sheet.member)
        if lower not in package.members:
            raise InputError(f"{package.file}: refused: the part of sheet {sheet.name!r} ({sheet.member}) is missing")
        sheet.member = package.members[lower].filename
        if not _looks_like_xml(package, lower) or lower.endswith(".bin"):
            raise InputError(
                f"{package.file}: refused: {sheet.member} is a binary sheet part, which bleu-xl does not read"
            )
    return sheets


def _check_fixed_part(package: Package, name: str, rel_type: str, rels: dict[str, tuple[str, str, str]]) -> None:
    """calamine reads the shared strings and styles at fixed names; the relationships must point there too."""
    targets = {_ascii_lower(target) for kind, target, _ in rels.values() if kind.endswith(rel_type)}
    present = _ascii_lower(name) in package.members
    if targets and targets != {_ascii_lower(name)}:
        raise InputError(f"{package.file}: refused: its {rel_type[1:]} part is not {name}, where readers look for it")
    if present and not targets:
        raise InputError(f"{package.file}: refused: {name} is not reached by the workbook's relationships")


def _check_shared_strings(package: Package, name: str) -> None:
    """The shared strings parse, and hold as many strings as they claim at least (calamine reserves room for the
    claimed count before reading any)."""
    lower = _ascii_lower(name)
    if lower not in package.members:
        return
    parser = _parser()
    sst, si = _NAMES["sst"], _NAMES["si"]
    claimed: list[str] = []
    count = 0
    depth = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal count, depth
        if tag is si:
            if depth:
                raise _Refused("has a string inside a string")
            count += 1
            depth = 1
        elif tag is sst:
            claimed.append(attrs.get("uniqueCount", ""))
        elif _local(tag)[0] not in (MAIN, _STRICT_MAIN) and _local(tag)[1] in ("sst", "si", "t", "r", "rPh"):
            raise _Refused("has strings outside SpreadsheetML's namespace")

    def end(tag: str) -> None:
        nonlocal depth
        if tag is si:
            depth = 0

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    _parse(package, lower, parser)
    for value in claimed:
        if value.isascii() and value.isdigit() and int(value) > count:
            raise InputError(
                f"{package.file}: refused: {package.members[lower].filename} claims {int(value):,} strings but "
                f"holds {count:,}"
            )


def _digits(value: str | None, default: int = 0) -> int:
    """A count or index as calamine reads one: its digits, else ``default`` (``s="x"`` is style 0)."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 9:
        return default
    return int(value)


def _read_styles(package: Package, name: str) -> Styles:
    lower = _ascii_lower(name)
    styles = Styles()
    if lower not in package.members:
        return styles
    parser = _parser()
    num_fmt, cell_xfs, xf = _NAMES["numFmt"], _NAMES["cellXfs"], _NAMES["xf"]
    inside = [0]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag is num_fmt:
            number = _digits(attrs.get("numFmtId"), -1)
            if number >= 0:
                styles.codes[number] = attrs.get("formatCode", "")
        elif tag is cell_xfs:
            inside[0] += 1
        elif tag is xf and inside[0]:
            styles.formats.append(_digits(attrs.get("numFmtId")))

    def end(tag: str) -> None:
        if tag is cell_xfs:
            inside[0] -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    _parse(package, lower, parser)
    return styles


def _looks_like_xml(package: Package, lower: str) -> bool:
    info = package.members[lower]
    if info.is_dir():
        return False
    try:
        with package.archive.open(info) as member:
            head = member.read(64)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError):
        return True  # let the parse report the corrupt member
    return head.lstrip(codecs.BOM_UTF8 + b" \t\r\n").startswith(b"<") or head.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    )


def _rels_of(part: str) -> str:
    folder, _, name = part.rpartition("/")
    return f"{folder}/_rels/{name}.rels" if folder else f"_rels/{name}.rels"


def _check_reachable(
    package: Package,
    folder: str,
    root_rels: dict[str, tuple[str, str, str]],
    workbook_rels: dict[str, tuple[str, str, str]],
) -> None:
    """Every part in the workbook's folder is reached by the relationships, so that no part can stand in for
    another."""
    reached = {"[content_types].xml", "_rels/.rels", _ascii_lower(_rels_of(folder + "workbook.xml"))}
    todo = [target for _, target, _ in root_rels.values() if target]
    seen_rels = {"_rels/.rels": root_rels, _ascii_lower(_rels_of(folder + "workbook.xml")): workbook_rels}
    while todo:
        part = _ascii_lower(todo.pop())
        if part in reached:
            continue
        reached.add(part)
        rels_name = _rels_of(part)
        if rels_name in package.members:
            reached.add(rels_name)
            rels = seen_rels.get(rels_name)
            if rels is None:
                rels = _read_rels(package, package.members[rels_name].filename, base=part.rpartition("/")[0]) or {}
            package.part_rels[part] = {rel_id: (kind, target) for rel_id, (kind, target, _) in rels.items()}
            todo.extend(target for _, target, _ in rels.values() if target)
    folder_lower = _ascii_lower(folder)
    for lower, info in package.members.items():
        if info.is_dir():
            continue
        if lower.startswith(folder_lower) and lower not in reached:
            raise InputError(
                f"{package.file}: refused: {info.filename} is a part no relationship reaches, which a reader could "
                "take for the workbook's own"
            )


def _prolog_parser() -> Any:
    """A parser that reads a part up to its root element: a DTD can only come before it."""
    parser = _parser()

    def start(*_: Any) -> None:
        raise _Stop

    parser.StartElementHandler = start
    return parser


# --- one sheet ------------------------------------------------------------------------------------------------------


def scan_sheet(package: Package, sheet: SheetPart) -> SheetScan:
    """One streamed pass over a sheet part: its extent (refused past the cell budget), the cells the reader drops
    or misreads, hidden rows and columns, merged ranges, the totals rows of its tables, each number cell's format."""
    scan = SheetScan(member=sheet.member)
    lower = _ascii_lower(sheet.member)
    handlers = _SheetHandlers(scan, package.styles)
    first = True
    try:
        try:
            for chunk in _open_member(package, lower):
                if first:
                    _check_encoding(chunk)
                    first = False
                handlers.chunk(b"&" in chunk)
                handlers.parser.Parse(chunk, False)
                _check_extent(package.file, sheet.member, *handlers.extent())
            handlers.parser.Parse(b"", True)
        except expat.ExpatError as exc:
            raise _malformed(exc) from None
    except _Refused as exc:
        raise InputError(f"{package.file}: refused: {sheet.member} {exc}") from None
    handlers.finish()
    scan.totals_rows = _totals_rows(package, lower, handlers.table_ids)
    return scan


class _SheetHandlers:
    """The expat handlers of one pass over a sheet, and what they found.

    Cells are placed as calamine places them: a cell's own ``r`` gives its row and column; a cell without one goes
    right of the previous cell, in its ``<row>``'s row (that row's ``r``, else one below the previous row). The
    value calamine gives a cell is that of its last child element (``<v>``, ``<is>``; an ``<f>`` last is none),
    and a ``<v>`` of a number, shared string, boolean or error is read up to its first comment or reference: such
    markup, which XML reads through, is refused. Only the ``<v>`` of error and formula cells is collected (and,
    in a chunk holding an ``&``, every ``<v>``, to find references), so most cells cost two calls and a few
    comparisons.
    """

    def __init__(self, scan: SheetScan, styles: Styles) -> None:
        self.parser = parser = _parser()
        self.table_ids: list[str] = []
        table_ids = self.table_ids
        errors, uncached, hidden_rows = scan.errors, scan.uncached, scan.hidden_rows
        formats = _FormatRuns(styles)
        number_format = formats.add
        hidden_cols: list[tuple[int, int]] = []
        columns = _COLUMNS
        max_row = max_col = -1
        row_index = col_index = 0
        in_data = data_done = False  # inside the first <sheetData>; past it
        in_row = in_cell = in_is = in_text = in_cols = False  # in_text: inside a <v> or <f>
        cell = (0, 0)
        row_digits = ""  # the row number of the current <row>, as a cell reference ends with it
        cell_type: str | None = None
        cell_style: str | None = None
        has_formula = False
        last = ""  # the cell's last child element: "v", "is", "f" or "" (none)
        value_parts: list[str] = []
        collecting = careful = False  # careful: this chunk has an "&", so a <v> may hold a reference
        v_first = -1  # the byte index of the first text collected from a <v>

        def collect(text: str) -> None:
            nonlocal v_first
            if v_first < 0:
                v_first = parser.CurrentByteIndex
            value_parts.append(text)

        def start_collecting() -> None:
            nonlocal collecting, v_first
            value_parts.clear()
            v_first = -1
            collecting = True
            parser.CharacterDataHandler = collect

        def start(name: str, attrs: dict[str, str]) -> None:
            nonlocal row_index, col_index, in_row, in_cell, in_is, in_text, in_data, in_cols, cell, cell_type
            nonlocal cell_style, has_formula, last, row_digits
            if in_text:
                raise _Refused("has markup inside a cell value")
            if name is _C:
                if not in_data:
                    return
                if in_cell or not in_row:
                    raise _Refused("has a cell outside a row or inside another cell")
                ref = attrs.get("r")
                if ref is None:
                    cell = (row_index, col_index)
                else:
                    letters = ref.rstrip("0123456789")
                    col = columns.get(letters)
                    digits = ref[len(letters) :]
                    if col is not None and digits == row_digits:  # in its row's row, as Excel writes them
                        cell = (row_index, col)
                    elif col is not None and 0 < len(digits) <= 7 and digits[0] != "0":
                        cell = (int(digits) - 1, col)
                    else:
                        cell = cell_position(ref)
                    col_index = cell[1]
                in_cell = True
                cell_type = attrs.get("t")
                cell_style = attrs.get("s")
                has_formula = False
                last = ""
                return
            if in_cell:
                if name is _V:
                    in_text = True
                    last = "v"
                    if careful or has_formula or cell_type == "e":
                        start_collecting()
                elif name is _IS:
                    in_is = True
                    last = "is"
                elif name is _F:
                    in_text = has_formula = True
                    last = "f"
                elif not in_is:
                    raise _Refused(f"has a cell holding an element readers do not expect ({_local(name)[1]!r})")
                elif name is not _T and _local(name)[0] not in (MAIN, _STRICT_MAIN):
                    raise _Refused("has markup outside SpreadsheetML's namespace inside a cell")
                return
            if name is _ROW:
                if not in_data:
                    return
                if in_row:
                    raise _Refused("has a row inside another row")
                in_row = True
                ref = attrs.get("r")
                if ref is not None:
                    significant = ref.lstrip("0")
                    if not (ref.isascii() and ref.isdigit()) or not significant:
                        raise _Refused(f"has a row number bleu-xl cannot read ({ref[:40]!r})")
                    row_index = int(significant) - 1 if len(significant) <= 7 else EXCEL_MAX_ROWS
                row_digits = str(row_index + 1)  # a cell reference ending so is in this row
                if attrs.get("hidden") in ("1", "true") and row_index < EXCEL_MAX_ROWS:
                    hidden_rows.add(row_index)
                return
            if name is _SHEET_DATA:
                if in_data or data_done:
                    raise _Refused("has two sheetData elements")
                in_data = True
            elif name is _COL:
                if in_cols and attrs.get("hidden") in ("1", "true"):
                    hidden_cols.append((_bound(attrs.get("min")), _bound(attrs.get("max"))))
            elif name is _COLS:
                in_cols = True
            elif name is _TABLE_PART:
                table_ids.extend([v for k, v in attrs.items() if k.endswith(" id")][:1])
            elif name is _MERGE_CELL and not in_data:
                scan.merged.append(_cell_range(attrs.get("ref", "")))
            else:
                namespace, local = _local(name)
                if namespace not in (MAIN, _STRICT_MAIN) and (
                    local in _SHEET_NAMES or (in_data and local in _CELL_NAMES)
                ):
                    raise _Refused(f"has an element {local!r} outside SpreadsheetML's namespace")

        def end(name: str) -> None:
            nonlocal row_index, col_index, in_row, in_cell, in_is, in_text, in_data, data_done, in_cols
            nonlocal collecting, max_row, max_col
            if name is _C:
                if not in_cell:
                    return
                in_cell = False
                row, col = cell
                col_index = col + 1
                if last:  # a cell without children is blank: the reader leaves it out of its grid
                    if (errors or uncached) and (cell in errors or cell in uncached):
                        raise _Refused(f"has two cells at {column_letter(col)}{row + 1}; readers would take either")
                    if row > max_row:
                        max_row = row
                    if col > max_col:
                        max_col = col
                    if last == "v" and cell_type == "e":
                        code = "".join(value_parts)
                        if code not in ERROR_CODES:
                            raise _Refused(f"has an error cell the reader cannot read ({code[:40]!r})")
                        errors[cell] = code
                    if has_formula and (last == "f" or (last == "v" and not "".join(value_parts).strip(" \t\r\n"))):
                        scan.uncached_count += 1
                        if len(uncached) < MAX_UNCACHED_KEPT:
                            uncached.add(cell)
                    elif last == "v" and (cell_type is None or cell_type == "n" or cell_type == "d"):
                        number_format(row, col, cell_style)  # a number or date: its format is how it shows
                return
            if name is _V:
                in_text = False
                if collecting:
                    collecting = False
                    parser.CharacterDataHandler = None
                    if v_first >= 0 and cell_type in (None, "n", "s", "b", "e"):
                        written = parser.CurrentByteIndex - v_first
                        if written != sum(len(part.encode("utf-8", "surrogatepass")) for part in value_parts):
                            raise _Refused(
                                "has a reference or line break inside a cell value, which readers read differently"
                            )
            elif name is _ROW:
                if in_row:
                    in_row = False
                    row_index += 1
                    col_index = 0
            elif name is _F:
                in_text = False
            elif name is _IS:
                in_is = False
            elif name is _SHEET_DATA:
                if in_data:
                    in_data, data_done = False, True
            elif name is _COLS:
                in_cols = False

        def markup(*_: Any) -> None:
            if in_cell and not in_is:
                raise _Refused(
                    "has a comment, CDATA or processing instruction inside a cell, which readers read differently"
                )

        def chunk(has_ampersand: bool) -> None:
            nonlocal careful
            careful = has_ampersand
            if careful and in_text and last == "v" and not collecting:  # a <v> open across the boundary
                start_collecting()

        def extent() -> tuple[int, int]:
            return max_row + 1, max_col + 1

        def finish() -> None:
            scan.rows, scan.cols = extent()
            scan.formats = formats.finish()
            for low, high in _merged(hidden_cols):
                scan.hidden_columns.update(range(low - 1, min(high, EXCEL_MAX_COLS)))

        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CommentHandler = markup
        parser.ProcessingInstructionHandler = markup
        parser.StartCdataSectionHandler = markup
        self.chunk: Callable[[bool], None] = chunk
        self.extent: Callable[[], tuple[int, int]] = extent
        self.finish: Callable[[], None] = finish


def _cell_range(ref: str) -> CellRange:
    """A merged range's ``ref`` (``A2:A4``, or one cell); :class:`_Refused` for anything else."""
    corners = ref.split(":")
    if len(corners) > 2:
        raise _Refused(f"has a merged range bleu-xl cannot read ({ref[:40]!r})")
    (top, left), (bottom, right) = cell_position(corners[0]), cell_position(corners[-1])
    return CellRange(min(top, bottom), min(left, right), max(top, bottom), max(left, right))


class _FormatRuns:
    """The number formats of a sheet's number cells, gathered in one pass as :class:`CellFormats` runs: a cell
    costs two lookups, and a run is added only where a column's format changes.

    The reader places cells by their ``r``, in any order; runs hold only down a column in row order, so a column
    whose cells come in another order (no writer does so) keeps none, and its numbers show in General."""

    def __init__(self, styles: Styles) -> None:
        self.styles = styles
        self.formats = CellFormats()
        self.index: dict[int | str, int] = {GENERAL: 0}  # a format -> its place in formats.codes
        self.of_style: dict[str | None, int] = {}  # a cell's ``s`` as written -> its format's place
        self.last: dict[int, list[int]] = {}  # a column -> [the row of its last number cell, that cell's format]
        self.unordered: set[int] = set()

    def add(self, row: int, col: int, style: str | None) -> None:
        code = self.of_style.get(style)
        if code is None:
            code = self.of_style[style] = self._code(style)
        last = self.last.get(col)
        if last is None:
            self.last[col] = [row, code]
            if code:  # a column starts in General: no run needed
                self.formats.runs[col] = (array("L", [row]), array("L", [code]))
            return
        if row <= last[0]:
            self.unordered.add(col)
        last[0] = row
        if code != last[1]:
            last[1] = code
            runs = self.formats.runs.get(col)
            if runs is None:
                runs = self.formats.runs[col] = (array("L"), array("L"))
            runs[0].append(row)
            runs[1].append(code)

    def _code(self, style: str | None) -> int:
        """The place in ``codes`` of the number format of style ``s`` (calamine's reading: ``s="x"`` is style 0,
        a style past the list has none): a built-in format's id, or a custom format's code (General when the
        code is missing)."""
        xf = _digits(style)
        number = self.styles.formats[xf] if xf < len(self.styles.formats) else GENERAL
        found: int | str = number if number < 164 else self.styles.codes.get(number, GENERAL)
        if found not in self.index:
            self.index[found] = len(self.formats.codes)
            self.formats.codes.append(found)
        return self.index[found]

    def finish(self) -> CellFormats:
        for col in self.unordered:
            self.formats.runs.pop(col, None)
        return self.formats


def _bound(value: str | None) -> int:
    """A ``<col>`` bound (1-based); past Excel's last column as one past it; anything but digits is refused."""
    if value is None or not value.isascii() or not value.isdigit() or value.lstrip("0") == "":
        raise _Refused(f"has a column bound bleu-xl cannot read ({(value or '')[:40]!r})")
    return int(value) if len(value.lstrip("0")) <= 7 else EXCEL_MAX_COLS + 1


def _merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Intervals merged, so that each hidden column is added once however many specs cover it."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(intervals):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _check_extent(file: Path, member: str, rows: int, cols: int) -> None:
    if rows > EXCEL_MAX_ROWS or cols > EXCEL_MAX_COLS:
        raise InputError(
            f"{file}: refused: {member} has cells beyond Excel's grid of {EXCEL_MAX_ROWS:,} rows x "
            f"{EXCEL_MAX_COLS:,} columns (A to {column_letter(EXCEL_MAX_COLS - 1)})"
        )
    if rows * cols > MAX_CELLS:
        raise InputError(
            f"{file}: refused: {member} has cells over {rows:,} rows x {cols:,} columns, beyond the "
            f"{MAX_CELLS:,} cells bleu-xl reads"
        )


def _totals_rows(package: Package, sheet: str, table_ids: list[str]) -> set[int]:
    """The rows (0-based) of the totals of the sheet's Excel Tables: the last ``totalsRowCount`` rows of each
    table's ``ref``, the table parts found through the sheet's relationships."""
    totals: set[int] = set()
    rels = package.part_rels.get(sheet, {})
    for rel_id in table_ids:
        kind, target = rels.get(rel_id, ("", ""))
        if not kind.endswith("/table") or _ascii_lower(target) not in package.members:
            raise InputError(f"{package.file}: refused: a table of {sheet} ({rel_id!r}) is missing")
        found: list[tuple[str, str]] = []
        parser = _parser()

        def start(tag: str, attrs: dict[str, str], found: list[tuple[str, str]] = found) -> None:
            if tag is _NAMES["table"] and not found:
                found.append((attrs.get("ref", ""), attrs.get("totalsRowCount", "0")))
            raise _Stop

        parser.StartElementHandler = start
        _parse(package, _ascii_lower(target), parser)
        if not found:
            continue
        ref, count = found[0]
        corners = ref.split(":")
        try:
            top, bottom = cell_position(corners[0])[0], cell_position(corners[-1])[0]
        except _Refused:
            raise InputError(
                f"{package.file}: refused: {target} has a table range bleu-xl cannot read ({ref[:40]!r})"
            ) from None
        number = _digits(count)
        if number:
            totals.update(range(max(top, bottom - number + 1), bottom + 1))
    return totals
