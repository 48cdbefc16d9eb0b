"""One streamed pass over the sheet part to be read, through expat, taking what the reader drops or gets wrong.

:func:`scan_sheet` streams the part (namespaces processed, no DTD, so comments, CDATA, processing instructions,
references and prefixes mean what they mean in XML) and takes from that single pass the real extent (a sheet past
the cell budget is refused before the reader allocates it), error cells, formulas saved without their values,
hidden columns and rows, merged ranges, the rows of its Excel Tables' totals, and the number format of each number
cell. Cells are placed as calamine places them (its own ``r``, else one after the previous); markup calamine reads
otherwise than XML (a comment or a character reference inside a value, ``<x:c>`` in a foreign namespace) is
refused. The pass is linear in the bytes of the part, whatever their content.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.parsers import expat

from ...table.sheet import (
    EXCEL_MAX_COLS,
    EXCEL_MAX_ROWS,
    GENERAL,
    CellFormats,
    CellRange,
    ExcelTable,
    InputError,
    column_letter,
)
from .limits import MAX_CELLS
from .package import (
    COLUMNS,
    MAIN,
    NAMES,
    STRICT_MAIN,
    Package,
    Refused,
    SheetPart,
    Stop,
    Styles,
    ascii_lower,
    cell_position,
    check_encoding,
    digits,
    local_name,
    malformed,
    new_parser,
    open_member,
    parse_part,
)

__all__ = ["ERROR_CODES", "SheetScan", "scan_sheet"]

#: The error values calamine reads (it refuses a sheet with any other, #SPILL! included).
ERROR_CODES = frozenset(["#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"])
MAX_UNCACHED_KEPT = 100_000
_C, _ROW, _V, _F, _IS, _T = NAMES["c"], NAMES["row"], NAMES["v"], NAMES["f"], NAMES["is"], NAMES["t"]
_SHEET_DATA, _COLS, _COL, _TABLE_PART = NAMES["sheetData"], NAMES["cols"], NAMES["col"], NAMES["tablePart"]
_MERGE_CELL = NAMES["mergeCell"]
#: Local names calamine (which ignores namespaces) acts on in a worksheet, anywhere and inside the cells: outside
#: SpreadsheetML's namespace, such an element would be read by calamine and be nothing to an XML reader.
_SHEET_NAMES = frozenset(["sheetData", "dimension", "mergeCell"])
_CELL_NAMES = frozenset(["row", "c", "v", "f", "is", "t", "r", "rPh", "sheetData"])


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
    tables: list[ExcelTable] = field(default_factory=list)
    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    uncached: set[tuple[int, int]] = field(default_factory=set)
    uncached_count: int = 0
    # In a workbook marked to be calculated again on opening: the formulas saved with the value 0 (XlsxWriter saves
    # every formula so), by column, their rows in order. Four bytes a cell: every one is kept.
    stale: dict[int, array] = field(default_factory=dict)
    formats: CellFormats = field(default_factory=CellFormats)
    merged: list[CellRange] = field(default_factory=list)
    column_widths: list[tuple[int, int, float]] = field(default_factory=list)  # first, last column (0-based), width
    member: str = ""


# --- one sheet ------------------------------------------------------------------------------------------------------


def scan_sheet(package: Package, sheet: SheetPart) -> SheetScan:
    """One streamed pass over a sheet part: its extent (refused past the cell budget), the cells the reader drops
    or misreads, hidden rows and columns, merged ranges, the totals rows of its tables, each number cell's format."""
    scan = SheetScan(member=sheet.member)
    lower = ascii_lower(sheet.member)
    handlers = _SheetHandlers(scan, package.styles, package.stale_formulas)
    first = True
    try:
        try:
            for chunk in open_member(package, lower):
                if first:
                    check_encoding(chunk)
                    first = False
                handlers.chunk(b"&" in chunk)
                handlers.parser.Parse(chunk, False)
                _check_extent(package.file, sheet.member, *handlers.extent())
            handlers.parser.Parse(b"", True)
        except expat.ExpatError as exc:
            raise malformed(exc) from None
    except Refused as exc:
        raise InputError(f"{package.file}: refused: {sheet.member} {exc}") from None
    handlers.finish()
    scan.totals_rows, scan.tables = _tables(package, lower, handlers.table_ids)
    return scan


class _SheetHandlers:
    """The expat handlers of one pass over a sheet, and what they found.

    Cells are placed as calamine places them: a cell's own ``r`` gives its row and column; a cell without one goes
    right of the previous cell, in its ``<row>``'s row (that row's ``r``, else one below the previous row). The
    value calamine gives a cell is that of its last child element (``<v>``, ``<is>``; an ``<f>`` last is none;
    two values are refused, since other readers take the first),
    and a ``<v>`` of a number, shared string, boolean or error is read up to its first comment or reference: such
    markup, which XML reads through, is refused. Only the ``<v>`` of error and formula cells is collected (and,
    in a chunk holding an ``&``, every ``<v>``, to find references), so most cells cost two calls and a few
    comparisons.
    """

    def __init__(self, scan: SheetScan, styles: Styles, stale: bool = False) -> None:
        self.parser = parser = new_parser()
        self.table_ids: list[str] = []
        table_ids = self.table_ids
        errors, uncached, hidden_rows, stale_cells = scan.errors, scan.uncached, scan.hidden_rows, scan.stale
        formats = _FormatRuns(styles)
        number_format = formats.add
        hidden_cols: list[tuple[int, int]] = []
        widths = scan.column_widths
        columns = COLUMNS
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
        valued: set[int] = set()  # columns with a formula saved with a value other than 0 (in a marked workbook)

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
                raise Refused("has markup inside a cell value")
            if name is _C:
                if not in_data:
                    return
                if in_cell or not in_row:
                    raise Refused("has a cell outside a row or inside another cell")
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
                if (name is _V or name is _IS) and (last == "v" or last == "is"):
                    raise Refused("has a cell with two values; readers would take either")
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
                    raise Refused(f"has a cell holding an element readers do not expect ({local_name(name)[1]!r})")
                elif name is not _T and local_name(name)[0] not in (MAIN, STRICT_MAIN):
                    raise Refused("has markup outside SpreadsheetML's namespace inside a cell")
                return
            if name is _ROW:
                if not in_data:
                    return
                if in_row:
                    raise Refused("has a row inside another row")
                in_row = True
                ref = attrs.get("r")
                if ref is not None:
                    significant = ref.lstrip("0")
                    if not (ref.isascii() and ref.isdigit()) or not significant:
                        raise Refused(f"has a row number bleu-xl cannot read ({ref[:40]!r})")
                    row_index = int(significant) - 1 if len(significant) <= 7 else EXCEL_MAX_ROWS
                row_digits = str(row_index + 1)  # a cell reference ending so is in this row
                if (attrs.get("hidden") in ("1", "true") or _no_height(attrs)) and row_index < EXCEL_MAX_ROWS:
                    hidden_rows.add(row_index)  # a row of no height is as hidden as Excel shows it
                return
            if name is _SHEET_DATA:
                if in_data or data_done:
                    raise Refused("has two sheetData elements")
                in_data = True
            elif name is _COL:
                if in_cols and attrs.get("hidden") in ("1", "true"):
                    hidden_cols.append((_bound(attrs.get("min")), _bound(attrs.get("max"))))
                if in_cols and len(widths) < EXCEL_MAX_COLS and (width := _width(attrs.get("width"))) is not None:
                    widths.append((_bound(attrs.get("min")) - 1, _bound(attrs.get("max")) - 1, width))
            elif name is _COLS:
                in_cols = True
            elif name is _TABLE_PART:
                table_ids.extend([v for k, v in attrs.items() if k.endswith(" id")][:1])
            elif name is _MERGE_CELL and not in_data:
                scan.merged.append(_cell_range(attrs.get("ref", "")))
            else:
                namespace, local = local_name(name)
                if namespace not in (MAIN, STRICT_MAIN) and (
                    local in _SHEET_NAMES or (in_data and local in _CELL_NAMES)
                ):
                    raise Refused(f"has an element {local!r} outside SpreadsheetML's namespace")

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
                        raise Refused(f"has two cells at {column_letter(col)}{row + 1}; readers would take either")
                    if row > max_row:
                        max_row = row
                    if col > max_col:
                        max_col = col
                    if last == "v" and cell_type == "e":
                        code = "".join(value_parts)
                        if code not in ERROR_CODES:
                            raise Refused(f"has an error cell the reader cannot read ({code[:40]!r})")
                        errors[cell] = code
                    # An empty <v> of a text result (t="str") is the text "" (=IF(B2="","",B2)), saved so by
                    # Excel and LibreOffice; without t="str" it is no value (openpyxl writes formulas so).
                    saved = "".join(value_parts).strip(" \t\r\n") if has_formula and last == "v" else ""
                    if stale and has_formula and last == "v" and col not in valued:
                        if (cell_type is None or cell_type == "n") and saved == "0":
                            found = stale_cells.get(col)
                            if found is None:
                                found = stale_cells[col] = array("i")
                            found.append(row)
                        else:  # a formula saved with a value of its own: the column's 0s are results too
                            valued.add(col)
                            stale_cells.pop(col, None)
                    if has_formula and (last == "f" or (last == "v" and cell_type != "str" and not saved)):
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
                            raise Refused(
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
                raise Refused(
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
    """A merged range's ``ref`` (``A2:A4``, or one cell); :class:`Refused` for anything else."""
    corners = ref.split(":")
    if len(corners) > 2:
        raise Refused(f"has a merged range bleu-xl cannot read ({ref[:40]!r})")
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
        xf = digits(style)
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


def _no_height(attrs: dict[str, str]) -> bool:
    """Whether a ``<row>`` was given a height of 0 (``ht="0"`` with ``customHeight``): Excel shows it as hidden (a
    height without customHeight is one the application may work out again; LibreOffice does)."""
    value = attrs.get("ht")
    if value is None or value[:1] not in ("0", "."):  # most rows have no ht, or one that is no 0
        return False
    if attrs.get("customHeight") not in ("1", "true"):
        return False
    try:
        return float(value) == 0
    except ValueError:
        return False


def _bound(value: str | None) -> int:
    """A ``<col>`` bound (1-based); past Excel's last column as one past it; anything but digits is refused."""
    if value is None or not value.isascii() or not value.isdigit() or value.lstrip("0") == "":
        raise Refused(f"has a column bound bleu-xl cannot read ({(value or '')[:40]!r})")
    return int(value) if len(value.lstrip("0")) <= 7 else EXCEL_MAX_COLS + 1


def _width(value: str | None) -> float | None:
    """A ``<col>`` width as Excel writes it (characters of the default font, padding included), or ``None`` for
    none, or one that is no width (past Excel's 255, negative, not a number)."""
    try:
        width = float(value) if value is not None and len(value) <= 32 else None
    except ValueError:
        return None
    return width if width is not None and 0 <= width <= 256 else None


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


def _tables(package: Package, sheet: str, table_ids: list[str]) -> tuple[set[int], list[ExcelTable]]:
    """The rows (0-based) of the totals of the sheet's Excel Tables (the last ``totalsRowCount`` rows of each
    table's ``ref``), and the tables, found through the sheet's relationships."""
    totals: set[int] = set()
    tables: list[ExcelTable] = []
    rels = package.part_rels.get(sheet, {})
    for rel_id in table_ids:
        kind, target = rels.get(rel_id, ("", ""))
        if not kind.endswith("/table") or ascii_lower(target) not in package.members:
            raise InputError(f"{package.file}: refused: a table of {sheet} ({rel_id!r}) is missing")
        found: list[tuple[str, str, str]] = []
        parser = new_parser()

        def start(tag: str, attrs: dict[str, str], found: list[tuple[str, str, str]] = found) -> None:
            if tag is NAMES["table"] and not found:
                found.append((attrs.get("ref", ""), attrs.get("totalsRowCount", "0"), attrs.get("displayName", "")))
            raise Stop

        parser.StartElementHandler = start
        parse_part(package, ascii_lower(target), parser)
        if not found:
            continue
        ref, count, name = found[0]
        corners = ref.split(":")
        try:
            (top, left), (bottom, right) = cell_position(corners[0]), cell_position(corners[-1])
        except Refused:
            raise InputError(
                f"{package.file}: refused: {target} has a table range bleu-xl cannot read ({ref[:40]!r})"
            ) from None
        number = digits(count)
        if number:
            totals.update(range(max(top, bottom - number + 1), bottom + 1))
        cells = CellRange(min(top, bottom), min(left, right), max(top, bottom), max(left, right))
        tables.append(ExcelTable(name[:255], cells, min(number, cells.bottom - cells.top + 1)))
    return totals, tables
