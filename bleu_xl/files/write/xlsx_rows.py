"""The rows of a workbook's sheet as XML, streamed into a workbook XlsxWriter framed: each cell of its own type, text
escaped so that every reader reads it back exactly, each number or date in its own cell's number format, and the
words that changed between a candidate and its reference as rich text (runs of their own fonts, as XlsxWriter's
``write_rich_string`` writes them).

A call a cell would take minutes for a full 1,048,576-row sheet; prepared bytes a row take seconds.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import datetime as dt
import io
import math
import re
import zipfile
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from xlsxwriter import xmlwriter
from xlsxwriter.format import Format

from ...excel.cell_values import EXCEL_MAX_TEXT, CellError, cell_text, fit_cell
from ...table.pool import ForkedMap, PoolUnavailable
from ...table.sheet import GENERAL, CellFormats, column_letter

__all__ = [
    "CHANGE_FONTS",
    "DATE_FORMATS",
    "CellStyle",
    "CutCells",
    "RowSource",
    "exact_escapes",
    "excel_serial",
    "register_format",
    "rich_inline_string",
    "rich_runs",
    "stream_rows",
    "xml_text",
    "xml_text_literally",
]


@dataclass
class CutCells:
    """The cells whose text was longer than a cell holds, cut to fit: how many, and the first one (``C5``)."""

    count: int = 0
    first: str = ""

    def add(self, ref: str) -> None:
        self.count += 1
        self.first = self.first or ref

    def merge(self, later: CutCells) -> None:
        """Count the cells cut in a later part of the sheet too."""
        self.count += later.count
        self.first = self.first or later.first


#: Number formats of dates, times and durations with none of their own: ISO dates, as the reader gives them.
DATE_FORMATS = {
    dt.datetime: "yyyy-mm-dd hh:mm:ss",
    dt.date: "yyyy-mm-dd",
    dt.time: "hh:mm:ss",
    dt.timedelta: "[h]:mm:ss",  # a duration, as the reader gives [h]:mm cells
}


class CellStyle:
    """The style of each streamed cell of one input column: a number or date in its own cell's number format, else
    in General (a date in an ISO date format); text, booleans and errors in the column's (``general``)."""

    __slots__ = ("dates", "general", "runs", "styles")

    def __init__(self, col: int, formats: CellFormats, style: Callable[[int | str], str]) -> None:
        self.runs = formats.runs.get(col, (array("L"), array("L")))
        # each format's style attribute, by its place in formats.codes (None for General: the column's, or a date's)
        self.styles = [None if code == GENERAL else style(code) for code in formats.codes]
        self.dates = {kind: style(number_format) for kind, number_format in DATE_FORMATS.items()}
        self.general = ""  # the column's own style, known once the frame is written

    def of(self, sheet_row: int, value: Any) -> str:
        kind = type(value)
        if kind is int or kind is float or kind in self.dates:
            starts, codes = self.runs
            i = bisect.bisect_right(starts, sheet_row) - 1
            own = self.styles[codes[i]] if i >= 0 else None
            if own is not None:
                return own
            if kind in self.dates:
                return self.dates[kind]
        return self.general


def register_format(number_format: Format) -> int:
    """The style number of a format that streamed cells use but no cell XlsxWriter writes does: XlsxWriter
    numbers a format when a cell or column first uses it, so it is numbered here (its method for that)."""
    return number_format._get_xf_index()


#: The characters XML cannot hold.
_CONTROL_CLASS = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
#: Characters XML cannot hold, and each ``_`` that begins text that reads as Excel's escape (``_x0041_``): found
#: where they overlap too (``_x005F_x0041_``), since a reader undoes the escapes left to right.
_XML_ESCAPES = re.compile(_CONTROL_CLASS + "|_(?=x[0-9A-Fa-f]{4}_)")


def _escape(match: re.Match[str]) -> str:
    # Excel's own escape for characters XML cannot hold (_x000B_), and for the _ of text that looks like one.
    return f"_x{ord(match.group()):04X}_"


#: The characters alone: a search for a class is three times as fast as one for the pattern above.
_CONTROL_CHARACTERS = re.compile(_CONTROL_CLASS)


def xml_text(text: str) -> str:
    """Cell text as XML character data, as Excel reads it back exactly (already cut to fit a cell):
    :func:`xml_text_literally`'s, by checks that skip each replacement the text does not need."""
    # Every control character, \r and \ufffe/\uffff is unprintable: most texts are printable, and the check costs
    # half the search of the class.
    printable = text.isprintable()
    if "_x" in text or (not printable and _CONTROL_CHARACTERS.search(text)):  # what _XML_ESCAPES can find
        text = _XML_ESCAPES.sub(_escape, text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if not printable and "\r" in text:
        text = text.replace("\r", "&#13;")
    return text


def xml_text_literally(text: str) -> str:
    """The obvious version of :func:`xml_text`: each escape applied to every text."""
    text = _XML_ESCAPES.sub(_escape, text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # XML readers turn a raw CR into LF ("a\rb" would come back as "a\nb"); a character reference stays a CR in
    # every reader (Excel, LibreOffice, openpyxl, calamine), where openpyxl ignores _x000D_.
    return text.replace("\r", "&#13;")


EXCEL_EPOCH = dt.datetime(1899, 12, 30)  # serial 0, so that 1900-03-01 is 61 as in Excel
FIRST_SERIAL_DATE = dt.datetime(1900, 3, 1)  # before it, Excel's 1900 leap-year bug shifts serials by a day
EARLY_EPOCH = dt.datetime(1899, 12, 31)  # serial 0 of the days before it: 1900-01-01 is 1, as the reader reads it
FIRST_DAY = dt.datetime(1900, 1, 1)  # no serial before it: kept as text


#: The font of each kind of change, as XlsxWriter format properties: deleted words red and struck through, inserted
#: ones green and underlined, moved ones blue and in italics (a reader who cannot tell the colours apart still can
#: the kinds); kept words in the sheet's font.
CHANGE_FONTS: dict[str, dict[str, Any]] = {
    "deleted": {"font_color": "#C00000", "font_strikeout": True},
    "inserted": {"font_color": "#00B050", "underline": 1},
    "moved": {"font_color": "#0070C0", "italic": True},
}
_FONT_TAIL = '<rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr>'
#: Each run's properties, as XlsxWriter writes them for the formats above (``None``: the default format).
_RUN_PROPERTIES = {
    None: f'<rPr><sz val="11"/><color theme="1"/>{_FONT_TAIL}',
    "deleted": f'<rPr><strike/><sz val="11"/><color rgb="FFC00000"/>{_FONT_TAIL}',
    "inserted": f'<rPr><u/><sz val="11"/><color rgb="FF00B050"/>{_FONT_TAIL}',
    "moved": f'<rPr><i/><sz val="11"/><color rgb="FF0070C0"/>{_FONT_TAIL}',
}


def rich_runs(parts: Iterable[tuple[str, str]]) -> list[tuple[str | None, str]]:
    """The runs of a cell of changes, each with its kind (``None``: the sheet's font): the parts, spaces between them
    in the sheet's font (never struck through or underlined), kept words and the spaces beside them as one run."""
    runs: list[tuple[str | None, str]] = []
    for kind, text in parts:
        font = kind if kind in CHANGE_FONTS else None
        pieces = [(None, " "), (font, text)] if runs else [(font, text)]
        for piece_font, piece in pieces:
            if runs and runs[-1][0] is None and piece_font is None:
                runs[-1] = (None, runs[-1][1] + piece)
            else:
                runs.append((piece_font, piece))
    return runs


def _run_xml(font: str | None, text: str, first: bool) -> str:
    space = ' xml:space="preserve"' if text != text.strip() else ""
    # XlsxWriter writes a first run in the default format without properties, any later one with them.
    properties = "" if font is None and first else _RUN_PROPERTIES[font]
    return f"<r>{properties}<t{space}>{xml_text(text)}</t></r>"


def rich_inline_string(parts: Iterable[tuple[str, str]]) -> tuple[str, bool]:
    """The ``<is>`` element of a cell of changes, and whether its text had to be cut to fit a cell (the runs past
    Excel's limit of text in a cell are left out, the last one cut)."""
    runs = rich_runs(parts)
    whole = "".join(text for _, text in runs)
    fitted = fit_cell(whole)
    cut = fitted != whole
    if cut:
        kept, left = [], len(fitted)
        for font, text in runs:
            if left <= 0:
                break
            kept.append((font, text[:left]))
            left -= len(text)
        runs = [(font, text) for font, text in kept if text]
    return "<is>" + "".join(_run_xml(font, text, i == 0) for i, (font, text) in enumerate(runs)) + "</is>", cut


def excel_serial(value: dt.date | dt.time | dt.timedelta) -> int | float | None:
    """A date, date-time, time or duration as Excel's serial number (days since 1899-12-30, or days; before
    1900-03-01 since 1899-12-31, past the day Excel counts that never was, 1900-02-29: a time of day read from a
    cell of more than 24 hours is such a date); ``None`` for a date before 1900-01-01."""
    if isinstance(value, dt.timedelta):
        return value.total_seconds() / 86400
    if isinstance(value, dt.time):
        return (value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6) / 86400
    moment = value.replace(tzinfo=None) if isinstance(value, dt.datetime) else dt.datetime.combine(value, dt.time())
    if moment < FIRST_DAY:
        return None
    delta = moment - (EXCEL_EPOCH if moment >= FIRST_SERIAL_DATE else EARLY_EPOCH)
    if not isinstance(value, dt.datetime):
        return delta.days
    return delta.days + (delta.seconds + delta.microseconds / 1e6) / 86400


def _cell_xml(letter: bytes, r: int, value: Any, style: bytes, cuts: CutCells) -> bytes:
    """One streamed cell (column ``letter``, row ``r``), of the value's own type: number (a whole one without
    ``.0``, as Excel writes it), boolean, error, date (a serial number) or text (cut to fit a cell, and counted in
    ``cuts``), as UTF-8 (a lone surrogate as ``?``)."""
    kind = type(value)
    if kind is float or kind is int:
        if math.isfinite(value):
            if kind is float and value.is_integer() and abs(value) < 1e15:
                value = int(value)
            return b'<c r="%s%d"%s><v>%r</v></c>' % (letter, r, style, value)  # %r: the repr, ASCII
        value = str(value)
    elif kind is bool:
        return b'<c r="%s%d"%s t="b"><v>%d</v></c>' % (letter, r, style, value)
    elif kind is CellError:
        return b'<c r="%s%d" t="e"><v>%s</v></c>' % (letter, r, _utf8(xml_text(value.code)))
    elif kind in DATE_FORMATS:
        serial = excel_serial(value)
        if serial is not None:
            return b'<c r="%s%d"%s><v>%r</v></c>' % (letter, r, style, serial)
        value = cell_text(value) or ""
    elif kind is not str:
        value = cell_text(value) or ""
    if len(value) > EXCEL_MAX_TEXT // 2 and (fitted := fit_cell(value)) != value:
        value = fitted
        cuts.add(_reference(letter, r))
    return b'<c r="%s%d"%s t="inlineStr"><is><t xml:space="preserve">%s</t></is></c>' % (
        letter,
        r,
        style,
        _utf8(xml_text(value)),
    )


def _reference(letter: bytes, r: int) -> str:
    """A cell's reference (``B4``), from its column's letters and its row."""
    return f"{letter.decode('ascii')}{r}"


def _utf8(text: str) -> bytes:
    """Text as the sheet's UTF-8: a lone surrogate, which UTF-8 cannot hold, as ``?``."""
    return text.encode("utf-8", "replace")


#: Rows are written by worker processes from this many (fewer: forking them costs more than it saves).
PARALLEL_MIN_ROWS = 20_000
#: The rows a worker writes at a time: a few MB of XML, sent back to be compressed.
ROWS_PER_PART = 4000

#: The data rows ``a`` to ``b`` (0-based, the header row not counted) of a sheet being written.
RowSource = Callable[[int, int], Iterable[list[Any]]]


def stream_rows(
    frame: io.BytesIO,
    out: IO[bytes],
    member: str,
    rows: RowSource,
    styles: list[str],
    count: int,
    numbers: tuple[int, int],
    cuts: CutCells,
    cell_styles: dict[int, CellStyle] | None = None,
    as_scored: frozenset[int] = frozenset(),
    sheet_rows: Sequence[int] = (),
    rich: frozenset[int] = frozenset(),
    workers: int | None = None,
) -> None:
    """Copy the frame workbook to ``out``, streaming the ``count`` data rows of ``rows`` into the sheet ``member``.

    ``numbers`` is the range of columns that hold numbers in every scored row: those are written with one
    prepared bytes format a row instead of one call a cell. The input columns in ``cell_styles`` take each
    cell's style from it, by the row it came from (``sheet_rows``, as Excel numbers them); those in ``as_scored``
    write a date, time or duration as the text it was scored as. The columns in ``rich`` hold the words that
    changed (their ``parts``), written as rich text.

    From :data:`PARALLEL_MIN_ROWS` rows, the rows' XML is made by ``workers`` forked processes (by default one a
    core) while this one compresses it; where none can be forked, here. The sheet is the same either way.
    """
    xml_of = _RowXml(styles, numbers, cell_styles or {}, as_scored, sheet_rows, rich)

    def part(a: int, b: int) -> tuple[bytes, CutCells]:
        found = CutCells()
        return b"".join([xml_of.row(r, values, found) for r, values in enumerate(rows(a, b), start=a + 2)]), found

    bounds = [(a, min(a + ROWS_PER_PART, count)) for a in range(0, count, ROWS_PER_PART)]
    letters = xml_of.letters
    # Level 1: the sheet XML of a full sheet is hundreds of MB, and level 6 costs four times as long for 10% less.
    with zipfile.ZipFile(frame) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename != member:
                target.writestr(info, data)
                continue
            head, tail = data.decode("utf-8").split("</sheetData>", 1)
            head = re.sub(r'<dimension ref="[^"]*"/>', f'<dimension ref="A1:{letters[-1]}{count + 1}"/>', head, count=1)
            parallel = count >= PARALLEL_MIN_ROWS and workers != 1
            # The workers fork before the compressing thread starts: a fork takes no thread along.
            with (
                _parts(part, bounds, parallel, workers) as parts,
                target.open(info.filename, "w", force_zip64=True) as raw,
            ):
                _write_beside(raw, _chunks(head.encode("utf-8"), parts, cuts, tail.encode("utf-8")))


@contextlib.contextmanager
def _parts(
    part: Callable[[int, int], tuple[bytes, CutCells]],
    bounds: list[tuple[int, int]],
    parallel: bool,
    workers: int | None,
) -> Iterator[Iterator[tuple[bytes, CutCells]]]:
    """Each part's XML, in order: made by forked workers (``parallel``, where they can be), else here."""
    with contextlib.ExitStack() as stack:
        made = None
        if parallel:
            with contextlib.suppress(PoolUnavailable):
                made = stack.enter_context(ForkedMap(part, bounds, workers))
        yield made if made is not None else (part(a, b) for a, b in bounds)


def _chunks(head: bytes, parts: Iterator[tuple[bytes, CutCells]], cuts: CutCells, tail: bytes) -> Iterator[bytes]:
    """The sheet's XML: its head, each part's rows (their cut cells counted in ``cuts``), and its tail."""
    yield head
    for data, found in parts:
        cuts.merge(found)
        yield data
    yield b"</sheetData>" + tail


class _RowXml:
    """Each row of a sheet as UTF-8 XML, by the columns' styles (see :func:`stream_rows`). Made as bytes, cell by
    cell: encoding a whole part's text at once, a wide string where one cell holds CJK, costs more than the rows'
    numbers do."""

    def __init__(
        self,
        styles: list[str],
        numbers: tuple[int, int],
        cell_styles: dict[int, CellStyle],
        as_scored: frozenset[int],
        sheet_rows: Sequence[int],
        rich: frozenset[int],
    ) -> None:
        self.letters = [column_letter(c) for c in range(len(styles))]
        self.letter_bytes = [letter.encode("ascii") for letter in self.letters]
        self.styles = [style.encode("utf-8") for style in styles]
        self.first, self.stop = numbers
        # One %-format a row for the numbers: half the time of a format a cell (row, value, row, value...).
        self.numeric = b"".join(
            b'<c r="%s%%d"%s><v>%%r</v></c>' % (self.letter_bytes[c], self.styles[c])
            for c in range(self.first, self.stop)
        )
        self.numeric_args = [0] * (2 * (self.stop - self.first))
        self.cell_styles = cell_styles
        self.encoded_styles: dict[str, bytes] = {}  # each style a CellStyle gives, as bytes
        self.as_scored = as_scored
        self.special = frozenset({*cell_styles, *as_scored})
        self.sheet_rows = sheet_rows
        self.rich = rich

    def input_cells(self, r: int, values: list[Any], cuts: CutCells) -> list[bytes]:
        """The input's cells of output row ``r``: each in its column's style, or in its own (``cell_styles``)."""
        letters, styles = self.letter_bytes, self.styles
        if not self.special:
            return [
                _cell_xml(letters[c], r, v, styles[c], cuts)
                for c, v in enumerate(values[: self.first])
                if v is not None and v != ""
            ]
        sheet_row = self.sheet_rows[r - 2] - 1
        cells = []
        for c, v in enumerate(values[: self.first]):
            if v is None or v == "":
                continue
            style = styles[c]
            if c in self.special:
                if c in self.as_scored:
                    if type(v) in DATE_FORMATS:
                        v = cell_text(v)
                else:
                    style = self._encoded(self.cell_styles[c].of(sheet_row, v))
            cells.append(_cell_xml(letters[c], r, v, style, cuts))
        return cells

    def _encoded(self, style: str) -> bytes:
        encoded = self.encoded_styles.get(style)
        if encoded is None:
            encoded = self.encoded_styles[style] = style.encode("utf-8")
        return encoded

    def result_cell(self, c: int, r: int, value: Any, cuts: CutCells) -> bytes:
        letter, style = self.letter_bytes[c], self.styles[c]
        if c in self.rich:
            string, cut = rich_inline_string(value.parts)
            if cut:
                cuts.add(_reference(letter, r))
            return b'<c r="%s%d"%s t="inlineStr">%s</c>' % (letter, r, style, _utf8(string))
        return _cell_xml(letter, r, value, style, cuts)

    def row(self, r: int, values: list[Any], cuts: CutCells) -> bytes:
        first, stop = self.first, self.stop
        scores = values[first:stop]
        # Both checks run in C: a generator over the cells took a fifth of the row's time.
        if _NUMBER_TYPES.issuperset(map(type, scores)) and all(map(math.isfinite, scores)):
            cells = self.input_cells(r, values, cuts)
            args = self.numeric_args
            args[0::2] = [r] * len(scores)
            args[1::2] = scores
            cells.append(self.numeric % tuple(args))
            tail = enumerate(values[stop:], start=stop)
            cells += [self.result_cell(c, r, v, cuts) for c, v in tail if v is not None and v != ""]
        else:
            cells = self.input_cells(r, values, cuts)
            cells += [
                self.result_cell(c, r, v, cuts)
                for c, v in enumerate(values[first:], start=first)
                if v is not None and v != ""
            ]
        return b'<row r="%d">%s</row>' % (r, b"".join(cells))


_NUMBER_TYPES = frozenset((int, float))  # exactly: a bool is written as a boolean


def _write_beside(raw: IO[bytes], chunks: Iterator[bytes]) -> None:
    """Write ``chunks`` to ``raw`` in order, each in a thread beside the one that makes the next: compressing
    releases the interpreter's lock, so it costs the rows' formatting nothing on a second core. A failed write
    stops the chunks at the next one; an error making them waits for the writes under way, then goes up."""
    with ThreadPoolExecutor(1, thread_name_prefix="bleu-xl-write") as writer:
        pending: collections.deque[Future[int]] = collections.deque()
        for chunk in chunks:
            pending.append(writer.submit(raw.write, chunk))
            if len(pending) > 2:  # at most two chunks wait: the memory of a few thousand rows
                pending.popleft().result()
        for write in pending:
            write.result()


#: XlsxWriter's pattern for text that looks like an escape finds ``_x005F_`` but not the ``_x0041_`` that shares its
#: last ``_`` (``_x005F_x0041_`` read back as ``_x005FA``): this one finds the ``_`` that begins each of them.
_EACH_ESCAPE_START = re.compile("(_)(?=x[0-9a-fA-F]{4}_)")


@contextlib.contextmanager
def exact_escapes() -> Iterator[None]:
    """While XlsxWriter writes a workbook's XML, its escape of text that looks like Excel's escapes finds them all,
    overlapping ones too (its replacement, ``_x005F`` before the match, then escapes each ``_``)."""
    previous = xmlwriter.re_control_chars_1
    xmlwriter.re_control_chars_1 = _EACH_ESCAPE_START
    try:
        yield
    finally:
        xmlwriter.re_control_chars_1 = previous
