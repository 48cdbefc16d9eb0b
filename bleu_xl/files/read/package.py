"""The safety checks of a workbook before the reader sees it, from one XML parse of each part the reader reads.

A workbook is a zip of XML parts that python-calamine finds by their relationships and fixed names, comparing names
without regard to ASCII case. :func:`open_package` finds them the same way and refuses a package that could be
read two ways: member names equal but for case, with a backslash, ``.`` or ``..``; a part calamine reads that the
relationships do not reach or reach elsewhere; another format's parts; zip bombs; XML that declares a DTD or is
not UTF-8. The sheet to be read is then scanned in one pass (``sheet_scan``), with the parser and names made
here. Every pass is linear in the bytes of the part, whatever their content.
"""

from __future__ import annotations

import codecs
import itertools
import posixpath
import re
import string
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.parsers import expat

from ...core.errors import BleuXlError
from ...table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, InputError
from .limits import MAX_RATIO, MAX_UNCOMPRESSED, SCAN_CHUNK

__all__ = [
    "COLUMNS",
    "MAIN",
    "NAMES",
    "STRICT_MAIN",
    "Package",
    "Refused",
    "SheetPart",
    "Stop",
    "Styles",
    "ascii_lower",
    "cell_position",
    "check_encoding",
    "digits",
    "local_name",
    "malformed",
    "new_parser",
    "open_member",
    "open_package",
    "parse_part",
]

#: SpreadsheetML's namespace (transitional, then strict): both mean the same elements to every reader.
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_EXPAT_NO_MEMORY = expat.errors.codes[expat.errors.XML_ERROR_NO_MEMORY]
_XML_ENCODING = re.compile(rb'^\s*<\?xml[^>]*?\sencoding\s*=\s*["\']([^"\']*)["\']')
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: Parts of other formats: a zip that holds them as well as a workbook could be read as either.
_OTHER_FORMATS = {
    "mimetype": "an OpenDocument spreadsheet (.ods)",
    "content.xml": "an OpenDocument spreadsheet (.ods)",
    "meta-inf/manifest.xml": "an OpenDocument spreadsheet (.ods)",
}


class Refused(BleuXlError):
    """A reason to refuse the part being parsed, completed with the file and part names by the caller."""


def ascii_lower(name: str) -> str:
    """A part name as calamine compares it: ASCII letters in lower case, every other character as it is."""
    return name.translate(_ASCII_LOWER)


def _q(local: str) -> str:
    return f"{MAIN} {local}"


#: The SpreadsheetML elements the checks act on, by their expat names (namespace URI, a space, the local name).
NAMES = {
    local: _q(local)
    for local in (
        "worksheet", "sheetData", "row", "c", "v", "f", "is", "t", "cols", "col", "tableParts", "tablePart", "sheet",
        "sst", "si", "numFmts", "numFmt", "cellXfs", "xf", "table", "workbook", "styleSheet", "mergeCell", "calcPr",
    )
}  # fmt: skip
#: expat's table of interned names, seeded so that it hands out these very objects (the handlers compare them by
#: identity) and gives the strict namespace's names as the transitional ones.
_INTERN = {f"{ns} {local}": name for ns in (MAIN, STRICT_MAIN) for local, name in NAMES.items()}


def new_parser() -> Any:
    """An expat parser with namespaces processed that refuses any DTD or entity declaration."""
    parser = expat.ParserCreate(namespace_separator=" ", intern=dict(_INTERN))

    def refuse_dtd(*_: Any) -> None:
        raise Refused("declares a DTD or entities")

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.ExternalEntityRefHandler = refuse_dtd
    return parser


def local_name(name: str) -> tuple[str, str]:
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
class Package:
    """A workbook's zip checked as a whole: its members by calamine's names, its sheets, its number formats."""

    file: Path
    archive: zipfile.ZipFile
    members: dict[str, zipfile.ZipInfo]  # by ASCII-lower-case name
    sheets: list[SheetPart]
    styles: Styles
    part_rels: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)  # part -> Id -> (type, part)
    # The workbook asks for every formula to be calculated again on opening (fullCalcOnLoad, as XlsxWriter and
    # openpyxl write it; Excel saves it without): the values saved with its formulas are not theirs to trust.
    stale_formulas: bool = False

    def close(self) -> None:
        self.archive.close()


def cell_position(ref: str) -> tuple[int, int]:
    """0-based (row, column) of a cell reference as calamine reads it (letters in any case, then digits); past
    Excel's grid as one past its last row or column, so that any number of digits is cheap. :class:`Refused`
    for anything else (calamine would refuse it, or read a reference that overflows as a cell near A1)."""
    letters = ref.rstrip("0123456789")
    digits = ref[len(letters) :]
    col = COLUMNS.get(letters)
    if col is None:
        if not letters.isascii() or not letters.isalpha():
            raise Refused(f"has a cell reference bleu-xl cannot read ({ref[:40]!r})")
        col = COLUMNS.get(letters.upper(), EXCEL_MAX_COLS)
    if len(digits) > 7:
        digits = digits.lstrip("0")
        if len(digits) > 7:
            return EXCEL_MAX_ROWS, col
    row = int(digits or "0")
    if row == 0:
        raise Refused(f"has a cell reference bleu-xl cannot read ({ref[:40]!r})")
    return min(row, EXCEL_MAX_ROWS + 1) - 1, col


def _column_letters() -> dict[str, int]:
    """Each column's letters to its 0-based index, A to XFD: Excel's order is the letters' order by length, then
    alphabetical (a tenth of the time of spelling each index: this runs at every start)."""
    letters = string.ascii_uppercase
    names = itertools.chain(letters, *(map("".join, itertools.product(letters, repeat=n)) for n in (2, 3)))
    return dict(zip(names, range(EXCEL_MAX_COLS)))


COLUMNS = _column_letters()


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
            parse_part(package, lower, _prolog_parser(), prolog_only=True)
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
    if ascii_lower(posixpath.basename(target)) != "workbook.xml" or ascii_lower(target) != ascii_lower(
        folder + "workbook.xml"
    ):
        if target.endswith(".bin"):
            raise InputError(f"{file}: a binary workbook (.xlsb); save it as .xlsx first")
        raise InputError(f"{file}: refused: its workbook part {target!r} is not where readers look for it")
    for lower, description in _OTHER_FORMATS.items():
        if lower in members:
            raise InputError(f"{file}: refused: it holds the parts of {description} as well as a workbook")
    workbook = folder + "workbook.xml"
    if ascii_lower(workbook) not in members:
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
        lower = ascii_lower(name)
        if lower in members:
            other = members[lower].filename
            same = "twice" if other == name else f"as {other!r} and {name!r}"
            raise InputError(f"{file}: refused: it holds a part {same}; readers would take either")
        members[lower] = info
    return members


#: zlib's Z_MEM_ERROR, which Python's zlib gives only as the code in its error's message ("Error -4 while ...").
_ZLIB_OUT_OF_MEMORY = re.compile(r"Error -4 ")


def open_member(package: Package, lower: str, size: int = SCAN_CHUNK) -> Iterator[bytes]:
    """The bytes of a member, chunk by chunk; a corrupt member is refused. zlib short of memory (under the read's
    memory limit) is a ``MemoryError``, never a corrupt member: more memory would read it."""
    info = package.members[lower]
    try:
        with package.archive.open(info) as member:
            while chunk := member.read(size):
                yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as exc:
        if isinstance(exc, zlib.error) and _ZLIB_OUT_OF_MEMORY.match(str(exc)):
            raise MemoryError(f"zlib ran out of memory reading {info.filename}") from None
        raise InputError(f"{package.file}: cannot read this workbook: {info.filename} is corrupt ({exc})") from None


def check_encoding(head: bytes) -> None:
    declared = _XML_ENCODING.match(head)
    if (
        head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        or b"\x00" in head[:200]
        or (declared and declared.group(1).lower() not in (b"utf-8", b"utf8"))
    ):
        raise Refused("is not UTF-8 XML, as Excel writes it")


def parse_part(package: Package, lower: str, parser: Any, *, prolog_only: bool = False) -> None:
    """Stream one member through ``parser``; a refusal, malformed XML or a corrupt member is one line."""
    info = package.members[lower]
    first = True
    try:
        try:
            for chunk in open_member(package, lower, 1 << 16 if prolog_only else SCAN_CHUNK):
                if first:
                    check_encoding(chunk)
                    first = False
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except Stop:
            return
        except expat.ExpatError as exc:
            refusal = malformed(exc)
            if prolog_only:  # a part nobody reads: only its DTD matters
                return
            raise refusal from None
    except Refused as exc:
        raise InputError(f"{package.file}: refused: {info.filename} {exc}") from None


def malformed(exc: expat.ExpatError) -> Refused:
    """The refusal of XML that expat could not parse. expat out of memory (under the reader's memory limit) says
    nothing of the file: that is a MemoryError, which the bounded reader reports as running out of memory."""
    if exc.code == _EXPAT_NO_MEMORY:
        raise MemoryError("the XML parser ran out of memory") from None
    message = expat.errors.messages.get(exc.code, str(exc))
    return Refused(f"is not well-formed XML ({message}, line {exc.lineno})")


class Stop(Exception):
    """The parse has seen all it needs."""


def _read_rels(package: Package, name: str, *, base: str) -> dict[str, tuple[str, str, str]] | None:
    """A relationships part: Id -> (type, target part resolved against ``base``, target as written); ``None``
    when the part is missing. External targets are left out; an Id given twice is refused."""
    lower = ascii_lower(name)
    if lower not in package.members:
        return None
    rels: dict[str, tuple[str, str, str]] = {}
    parser = new_parser()
    relationship = f"{_RELS} Relationship"

    def start(tag: str, attrs: dict[str, str]) -> None:
        if local_name(tag)[1] == "Relationship" and tag != relationship:
            raise Refused("has a Relationship outside the relationships namespace")
        if tag != relationship:
            return
        rel_id = attrs.get("Id", "")
        if rel_id in rels:
            raise Refused(f"gives the relationship {rel_id!r} twice")
        if attrs.get("TargetMode") == "External":
            rels[rel_id] = (attrs.get("Type", ""), "", "")
            return
        raw = attrs.get("Target", "")
        target = raw[1:] if raw.startswith("/") else posixpath.normpath(posixpath.join(base, raw)) if raw else ""
        rels[rel_id] = (attrs.get("Type", ""), target.removeprefix("./"), raw)

    parser.StartElementHandler = start
    parse_part(package, lower, parser)
    return rels


def _read_sheets(
    package: Package, workbook: str, folder: str, rels: dict[str, tuple[str, str, str]]
) -> list[SheetPart]:
    """The workbook's sheets in order, each with the part calamine reads for it (its relationship's target, in
    the workbook's folder or from the root, found without regard to ASCII case)."""
    sheets: list[SheetPart] = []
    parser = new_parser()
    sheet_tag, calc_tag = NAMES["sheet"], NAMES["calcPr"]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == calc_tag:
            package.stale_formulas = attrs.get("fullCalcOnLoad", "").strip() in ("1", "true")
            return
        if tag != sheet_tag:
            if local_name(tag)[1] == "sheet":
                raise Refused("has a sheet outside SpreadsheetML's namespace")
            return
        ids = [v for k, v in attrs.items() if k == "id" or (" " in k and k.endswith(" id"))]
        if len(ids) != 1:
            raise Refused("has a sheet without exactly one relationship id")
        if ids[0] not in rels:
            raise Refused(f"has a sheet whose relationship {ids[0]!r} is missing")
        rel_type, _, raw = rels[ids[0]]
        kind = rel_type.rsplit("/", 1)[-1]
        if kind not in ("worksheet", "chartsheet", "dialogsheet"):
            raise Refused(f"has a sheet of a kind bleu-xl does not read ({kind!r})")
        member = raw[1:] if raw.startswith("/") else folder + raw
        sheets.append(SheetPart(attrs.get("name", ""), member, kind, attrs.get("state", "visible")))

    def declared(prefix: str | None, uri: str) -> None:
        if prefix == "id":  # the reader takes any attribute ending in ":id" for a sheet's relationship id
            raise Refused("declares the prefix 'id', which readers take for a sheet's relationship")

    parser.StartElementHandler = start
    parser.StartNamespaceDeclHandler = declared
    parse_part(package, ascii_lower(workbook), parser)
    for sheet in sheets:
        lower = ascii_lower(sheet.member)
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
    targets = {ascii_lower(target) for kind, target, _ in rels.values() if kind.endswith(rel_type)}
    present = ascii_lower(name) in package.members
    if targets and targets != {ascii_lower(name)}:
        raise InputError(f"{package.file}: refused: its {rel_type[1:]} part is not {name}, where readers look for it")
    if present and not targets:
        raise InputError(f"{package.file}: refused: {name} is not reached by the workbook's relationships")


def _check_shared_strings(package: Package, name: str) -> None:
    """The shared strings parse, and hold as many strings as they claim at least (calamine reserves room for the
    claimed count before reading any)."""
    lower = ascii_lower(name)
    if lower not in package.members:
        return
    parser = new_parser()
    sst, si = NAMES["sst"], NAMES["si"]
    claimed: list[str] = []
    count = 0
    depth = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal count, depth
        if tag is si:
            if depth:
                raise Refused("has a string inside a string")
            count += 1
            depth = 1
        elif tag is sst:
            claimed.append(attrs.get("uniqueCount", ""))
        elif local_name(tag)[0] not in (MAIN, STRICT_MAIN) and local_name(tag)[1] in ("sst", "si", "t", "r", "rPh"):
            raise Refused("has strings outside SpreadsheetML's namespace")

    def end(tag: str) -> None:
        nonlocal depth
        if tag is si:
            depth = 0

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parse_part(package, lower, parser)
    for value in claimed:
        if value.isascii() and value.isdigit() and int(value) > count:
            raise InputError(
                f"{package.file}: refused: {package.members[lower].filename} claims {int(value):,} strings but "
                f"holds {count:,}"
            )


def digits(value: str | None, default: int = 0) -> int:
    """A count or index as calamine reads one: its digits, else ``default`` (``s="x"`` is style 0)."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 9:
        return default
    return int(value)


def _read_styles(package: Package, name: str) -> Styles:
    lower = ascii_lower(name)
    styles = Styles()
    if lower not in package.members:
        return styles
    parser = new_parser()
    num_fmt, cell_xfs, xf = NAMES["numFmt"], NAMES["cellXfs"], NAMES["xf"]
    inside = [0]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag is num_fmt:
            number = digits(attrs.get("numFmtId"), -1)
            if number >= 0:
                styles.codes[number] = attrs.get("formatCode", "")
        elif tag is cell_xfs:
            inside[0] += 1
        elif tag is xf and inside[0]:
            styles.formats.append(digits(attrs.get("numFmtId")))

    def end(tag: str) -> None:
        if tag is cell_xfs:
            inside[0] -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parse_part(package, lower, parser)
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
    reached = {"[content_types].xml", "_rels/.rels", ascii_lower(_rels_of(folder + "workbook.xml"))}
    todo = [target for _, target, _ in root_rels.values() if target]
    seen_rels = {"_rels/.rels": root_rels, ascii_lower(_rels_of(folder + "workbook.xml")): workbook_rels}
    while todo:
        part = ascii_lower(todo.pop())
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
    folder_lower = ascii_lower(folder)
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
    parser = new_parser()

    def start(*_: Any) -> None:
        raise Stop

    parser.StartElementHandler = start
    return parser
