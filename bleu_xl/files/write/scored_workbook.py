"""The scored workbook the command line writes: the rows with their scores and a Summary sheet (XlsxWriter)."""

from __future__ import annotations

import bisect
import datetime as dt
import io
import math
import re
import zipfile
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

import xlsxwriter
from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ...core.metrics.base import ColumnKind
from ...excel.cell_values import EXCEL_MAX_TEXT, CellError, cell_text, fit_cell
from ...table.compare import Comparison
from ...table.scoring import Result
from ...table.sheet import GENERAL, CellFormats, column_letter
from .rich_text import rich_inline_string, xml_text
from .xlsx_style import DATA_BAR, SAFE_OPTIONS

__all__ = ["CutCells", "write_cell", "write_comparison_workbook", "write_scored_workbook"]

BINS = 10


@dataclass
class CutCells:
    """The cells whose text was longer than a cell holds, cut to fit: how many, and the first one (``C5``)."""

    count: int = 0
    first: str = ""

    def add(self, ref: str) -> None:
        self.count += 1
        self.first = self.first or ref


def write_cell(
    sheet: Worksheet, row: int, col: int, value: Any, number_format: Format | None = None, cuts: CutCells | None = None
) -> None:
    """Write one value with its own type; text always with write_string (dates as ISO text), cut to fit a cell
    (and counted in ``cuts``)."""
    if value is None or value == "":
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, col, value)
    elif isinstance(value, (int, float)) and math.isfinite(value):
        sheet.write_number(row, col, value, number_format)
    elif isinstance(value, float):  # no cell holds inf or NaN: the text, as the Scores sheet and CSV write it
        sheet.write_string(row, col, str(value))
    else:
        text = value if isinstance(value, str) else value.text if isinstance(value, CellError) else cell_text(value)
        fitted = fit_cell(text or "")
        if cuts is not None and fitted != text:
            cuts.add(f"{column_letter(col)}{row + 1}")
        sheet.write_string(row, col, fitted)


#: Number formats of the scored workbook: scores to four places, counts as whole numbers, dates as ISO dates.
SCORE_FORMAT = "0.0000"
COUNT_FORMAT = "0"
DATE_FORMATS = {
    dt.datetime: "yyyy-mm-dd hh:mm:ss",
    dt.date: "yyyy-mm-dd",
    dt.time: "hh:mm:ss",
    dt.timedelta: "[h]:mm:ss",  # a duration, as the reader gives [h]:mm cells
}


def _print_setup(sheet: Worksheet, *, repeat_header: bool) -> None:
    """Landscape, one page wide (as many pages down as it takes), the header row on every page."""
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.hide_gridlines(0)  # gridlines on paper too: rows of numbers are hard to follow without them
    if repeat_header:
        sheet.repeat_rows(0)


def _date_kinds(rows: Sequence[Sequence[Any]], width: int) -> dict[int, type]:
    """The input columns that hold dates or times, and the kind of the first one found in each."""
    kinds: dict[int, type] = {}
    for row in rows:
        for c, value in enumerate(row[:width]):
            kind = type(value)
            if kind in DATE_FORMATS and c not in kinds:
                kinds[c] = kind
    return kinds


def write_scored_workbook(
    out: IO[bytes],
    result: Result,
    header: list[str],
    rows: Iterator[list[Any]],
    *,
    input_name: str,
    sheet: str | None,
    formats: CellFormats | None = None,
) -> CutCells:
    """The Scores sheet (input columns, then the scores) and a Summary sheet with a chart; returns the cells cut to
    fit Excel's limit of text in a cell.

    XlsxWriter writes the workbook's frame (formats, header row, data bars, filter, page setup, Summary and
    chart); the data rows are then streamed into the Scores sheet as inline strings and numbers, since a call a
    cell would take minutes for a full 1,048,576-row sheet. Input cells keep their type: numbers (a whole number
    as one, ``1`` not ``1.0``), booleans, errors, and dates as dates. Each number or date keeps its own cell's
    number format (``formats``, by the input's rows); one without (General, a text file's) shows as General, a date
    as an ISO date. The candidate and reference columns show what was scored: a number in General, and a date,
    time or duration as the text it was scored as (``36:00:00``), whatever format its cell had.
    """
    count = len(result.rows)
    frame = io.BytesIO()
    book = xlsxwriter.Workbook(frame, SAFE_OPTIONS)
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True, "valign": "top"})
    score_format = book.add_format({"num_format": SCORE_FORMAT})
    count_format = book.add_format({"num_format": COUNT_FORMAT})
    text_format = book.add_format({"text_wrap": True, "valign": "top"})  # multi-line cells keep their lines
    scores = book.add_worksheet("Scores")
    summary = book.add_worksheet("Summary")

    first_result = len(result.header)
    columns = result.columns
    cuts = CutCells()
    for col, name in enumerate(header):
        _write_header(scores, col, name, bold, cuts)
    scores.freeze_panes(1, 0)
    _print_setup(scores, repeat_header=True)
    # A column's format is also the style of its streamed cells; the style numbers are known once closed.
    column_formats = [text_format] * len(header)
    scores.set_column(0, first_result - 1, 40, text_format)
    formats = formats or CellFormats()
    scored_columns = {result.layout.candidate_col, *result.layout.reference_cols}
    dates = _date_kinds(result.rows, first_result)
    # One Format per distinct number format: XlsxWriter numbers only the first of two equal formats, and the
    # streamed cells need the number (a second "0.00" column would otherwise get s="None", a corrupt sheet).
    shared: dict[int | str, str] = {}

    def style(number_format: int | str) -> str:
        if number_format not in shared:
            registered = _register(book.add_format({"num_format": number_format, "valign": "top"}))
            shared[number_format] = f' s="{registered}"'
        return shared[number_format]

    cell_styles: dict[int, CellStyle] = {}
    for col in range(first_result):
        if col in scored_columns or not (formats.used(col) or col in dates):
            continue
        cell_styles[col] = CellStyle(col, formats, style)
        scores.set_column(col, col, 20 if col in dates else 12, text_format)
    number_format = book.add_format({"num_format": "General"})  # an average length: 9, or 9.5
    kinds = {ColumnKind.COUNT: count_format, ColumnKind.NUMBER: number_format, ColumnKind.CHANGES: text_format}
    rich: set[int] = set()
    for offset, column in enumerate(columns[:-1]):
        col = first_result + offset
        column_formats[col] = kinds.get(column.kind, score_format)
        scores.set_column(col, col, 60 if column.kind == ColumnKind.CHANGES else 9, column_formats[col])
        if column.kind == ColumnKind.CHANGES:
            rich.add(col)
    scores.set_column(len(header) - 1, len(header) - 1, 24, text_format)
    # The columns that hold numbers in every scored row: the scores, the rank and the numeric details, which come
    # before the text ones (TER's changes) and the note.
    numeric_stop = first_result + next(
        (offset for offset, column in enumerate(columns) if column.kind in (ColumnKind.TEXT, ColumnKind.CHANGES)),
        len(columns) - 1,
    )
    if count:
        for offset, column in enumerate(columns):
            if column.name in {metric.name for metric in result.metrics}:  # each metric's score, not its detail
                scores.conditional_format(1, first_result + offset, count, first_result + offset, DATA_BAR)
        scores.autofilter(0, 0, count, len(header) - 1)
    _write_summary(book, summary, result, input_name, sheet, bold, score_format, count_format)
    book.close()

    styles = [f' s="{_style_number(number_format)}"' for number_format in column_formats]
    for col, cell_style in cell_styles.items():
        cell_style.general = styles[col]
    _stream_rows(
        frame,
        out,
        "xl/worksheets/sheet1.xml",
        rows,
        styles,
        count,
        numbers=(first_result, numeric_stop),
        cuts=cuts,
        rich=frozenset(rich),
        cell_styles=cell_styles,
        as_scored=frozenset(c for c in scored_columns if c in dates),  # the others hold nothing to turn into text
        sheet_rows=result.row_numbers,
    )
    return cuts


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


def _register(number_format: Format) -> int:
    """The style number of a format that streamed cells use but no cell XlsxWriter writes does: XlsxWriter
    numbers a format when a cell or column first uses it, so it is numbered here (its method for that)."""
    return number_format._get_xf_index()


def _write_header(sheet: Worksheet, col: int, name: str, bold: Format, cuts: CutCells) -> None:
    fitted = fit_cell(name)
    if fitted != name:
        cuts.add(f"{column_letter(col)}1")
    sheet.write_string(0, col, fitted, bold)


def _style_number(number_format: Format) -> int:
    """The style number XlsxWriter gave a column's format (every column format is used, so it has one)."""
    if not isinstance(number_format.xf_index, int):
        raise AssertionError(f"a column format without a style number: {number_format.num_format!r}")
    return number_format.xf_index


EXCEL_EPOCH = dt.datetime(1899, 12, 30)  # serial 0, so that 1900-03-01 is 61 as in Excel
FIRST_SERIAL_DATE = dt.datetime(1900, 3, 1)  # before it, Excel's 1900 leap-year bug shifts serials by a day
EARLY_EPOCH = dt.datetime(1899, 12, 31)  # serial 0 of the days before it: 1900-01-01 is 1, as the reader reads it
FIRST_DAY = dt.datetime(1900, 1, 1)  # no serial before it: kept as text


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


def _cell_xml(ref: str, value: Any, style: str, cuts: CutCells) -> str:
    """One streamed cell, of the value's own type: number (a whole one without ``.0``, as Excel writes it),
    boolean, error, date (a serial number) or text (cut to fit a cell, and counted in ``cuts``)."""
    kind = type(value)
    if kind is float or kind is int:
        if math.isfinite(value):
            if kind is float and value.is_integer() and abs(value) < 1e15:
                value = int(value)
            return f'<c r="{ref}"{style}><v>{value!r}</v></c>'
        value = str(value)
    elif kind is bool:
        return f'<c r="{ref}"{style} t="b"><v>{int(value)}</v></c>'
    elif kind is CellError:
        return f'<c r="{ref}" t="e"><v>{xml_text(value.code)}</v></c>'
    elif kind in DATE_FORMATS:
        serial = excel_serial(value)
        if serial is not None:
            return f'<c r="{ref}"{style}><v>{serial!r}</v></c>'
        value = cell_text(value) or ""
    elif kind is not str:
        value = cell_text(value) or ""
    if len(value) > EXCEL_MAX_TEXT // 2 and (fitted := fit_cell(value)) != value:
        value = fitted
        cuts.add(ref)
    return f'<c r="{ref}"{style} t="inlineStr"><is><t xml:space="preserve">{xml_text(value)}</t></is></c>'


def _stream_rows(
    frame: io.BytesIO,
    out: IO[bytes],
    member: str,
    rows: Iterator[list[Any]],
    styles: list[str],
    count: int,
    numbers: tuple[int, int],
    cuts: CutCells,
    cell_styles: dict[int, CellStyle] | None = None,
    as_scored: frozenset[int] = frozenset(),
    sheet_rows: Sequence[int] = (),
    rich: frozenset[int] = frozenset(),
) -> None:
    """Copy the frame workbook to ``out``, streaming ``rows`` into the sheet ``member``.

    ``numbers`` is the range of columns that hold numbers in every scored row: those are written with one
    prepared format string a row instead of one call a cell. The input columns in ``cell_styles`` take each
    cell's style from it, by the row it came from (``sheet_rows``, as Excel numbers them); those in ``as_scored``
    write a date, time or duration as the text it was scored as. The columns in ``rich`` hold the words that
    changed (their ``parts``), written as rich text.
    """
    letters = [column_letter(c) for c in range(len(styles))]
    first, stop = numbers
    numeric = "".join(
        f'<c r="{letters[c]}{{0}}"{styles[c]}><v>{{{c - first + 1}!r}}</v></c>' for c in range(first, stop)
    )

    number_types = frozenset((int, float))  # exactly: a bool is written as a boolean
    cell_styles = cell_styles or {}
    special = frozenset({*cell_styles, *as_scored})

    def input_cells(r: int, values: list[Any]) -> list[str]:
        """The input's cells of output row ``r``: each in its column's style, or in its own (``cell_styles``)."""
        if not special:
            return [
                _cell_xml(f"{letters[c]}{r}", v, styles[c], cuts)
                for c, v in enumerate(values[:first])
                if v is not None and v != ""
            ]
        sheet_row = sheet_rows[r - 2] - 1
        cells = []
        for c, v in enumerate(values[:first]):
            if v is None or v == "":
                continue
            style = styles[c]
            if c in special:
                if c in as_scored:
                    if type(v) in DATE_FORMATS:
                        v = cell_text(v)
                else:
                    style = cell_styles[c].of(sheet_row, v)
            cells.append(_cell_xml(f"{letters[c]}{r}", v, style, cuts))
        return cells

    def result_cell(c: int, r: int, value: Any) -> str:
        if c in rich:
            string, cut = rich_inline_string(value.parts)
            if cut:
                cuts.add(f"{letters[c]}{r}")
            return f'<c r="{letters[c]}{r}"{styles[c]} t="inlineStr">{string}</c>'
        return _cell_xml(f"{letters[c]}{r}", value, styles[c], cuts)

    def row_xml(r: int, values: list[Any]) -> str:
        scores = values[first:stop]
        # Both checks run in C: a generator over the cells took a fifth of the row's time.
        if number_types.issuperset(map(type, scores)) and all(map(math.isfinite, scores)):
            cells = input_cells(r, values)
            cells.append(numeric.format(r, *scores))
            cells += [
                result_cell(c, r, v) for c, v in enumerate(values[stop:], start=stop) if v is not None and v != ""
            ]
        else:
            cells = input_cells(r, values)
            cells += [
                result_cell(c, r, v) for c, v in enumerate(values[first:], start=first) if v is not None and v != ""
            ]
        return f'<row r="{r}">{"".join(cells)}</row>'

    # Level 1: the sheet XML of a full sheet is hundreds of MB, and level 6 costs four times as long for 10% less.
    with zipfile.ZipFile(frame) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename != member:
                target.writestr(info, data)
                continue
            head, tail = data.decode("utf-8").split("</sheetData>", 1)
            head = re.sub(r'<dimension ref="[^"]*"/>', f'<dimension ref="A1:{letters[-1]}{count + 1}"/>', head, count=1)
            with target.open(info.filename, "w", force_zip64=True) as raw:
                stream = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="")
                stream.write(head)
                buffer: list[str] = []
                for r, values in enumerate(rows, start=2):
                    buffer.append(row_xml(r, values))
                    if len(buffer) >= 2000:
                        stream.write("".join(buffer))
                        buffer.clear()
                stream.write("".join(buffer))
                stream.write("</sheetData>" + tail)
                stream.flush()
                stream.detach()


Fact = tuple[str, Any, Format | None]


def _input_facts(input_name: str, sheet: str | None) -> list[Fact]:
    """What was read: the input, and its sheet (a text file has none: its name is the input's)."""
    return [("Input", input_name, None), *([] if sheet is None else [("Sheet", sheet, None)])]


def _write_facts(book: Workbook, summary: Worksheet, facts: list[Fact], bold: Format) -> None:
    """Label and value side by side in columns A and B (values wrap), one page wide when printed."""
    wrap = book.add_format({"text_wrap": True, "valign": "top"})
    summary.set_column(0, 0, 24)
    summary.set_column(1, 1, 46, wrap)
    _print_setup(summary, repeat_header=False)
    for r, (name, value, number_format) in enumerate(facts):
        summary.write_string(r, 0, name, bold)
        write_cell(summary, r, 1, value, number_format)


def _write_summary(
    book: Workbook,
    summary: Worksheet,
    result: Result,
    input_name: str,
    sheet: str | None,
    bold: Format,
    score_format: Format,
    count_format: Format,
) -> None:
    """The corpus score, signature and counts as label/value pairs, the score distribution, and its chart beside."""
    corpora: list[Fact] = []
    for metric, corpus, signature in zip(result.metrics, result.corpora, result.signatures()):
        corpora += [
            (f"Corpus {metric.name}", float(corpus) if corpus is not None else None, score_format),
            ("Signature" if len(result.metrics) == 1 else f"Signature {metric.name}", signature, None),
        ]
    facts: list[Fact] = [
        *_input_facts(input_name, sheet),
        ("Reference", result.layout.reference_source, None),
        *corpora,
        ("Rows", len(result.rows), count_format),
        ("Scored pairs", result.scored, count_format),
        ("Blank candidates", result.blank, count_format),
        ("Rows with a note", result.problems, count_format),
    ]
    _write_facts(book, summary, facts, bold)
    top = len(facts) + 1
    name = result.metrics[0].name
    summary.write_string(top, 0, f"{name} from", bold)
    summary.write_string(top, 1, "candidates", bold)
    counts = [0] * BINS
    for i in range(len(result.rows)):
        value = result.value(i)
        if value is not None:
            counts[min(int(value * BINS), BINS - 1)] += 1
    for b, n in enumerate(counts):
        # A metric with no highest score (TER) counts everything from 0.9 up in the last bin.
        unbounded = b == BINS - 1 and result.metrics[0].highest is None
        label = f"{b / BINS:.1f} and above" if unbounded else f"{b / BINS:.1f} to {(b + 1) / BINS:.1f}"
        summary.write_string(top + 1 + b, 0, label)
        summary.write_number(top + 1 + b, 1, n, count_format)
    chart = book.add_chart({"type": "column"})
    chart.add_series(
        {
            "name": "Candidates",
            "categories": ["Summary", top + 1, 0, top + BINS, 0],
            "values": ["Summary", top + 1, 1, top + BINS, 1],
            "fill": {"color": "#5B9BD5"},
        }
    )
    chart.set_title({"name": f"Distribution of {name}"})
    chart.set_legend({"none": True})
    chart.set_x_axis({"name": name if result.metrics[0].higher_is_better else f"{name} (lower is better)"})
    chart.set_y_axis({"name": "candidates"})
    chart.set_size({"width": 480, "height": 300})
    summary.insert_chart(0, 2, chart, {"x_offset": 12})  # beside the facts: on the same printed page


def write_comparison_workbook(
    out: IO[bytes], header: list[str], comparison: Comparison, *, input_name: str, sheet: str | None
) -> CutCells:
    """The input rows with both columns' scores (BLEU-2 unless the comparison says another metric; ``header`` names
    them all), and a Summary sheet with the paired test, each interval as two numbers (low, high); returns the
    cells cut to fit a cell."""
    book = xlsxwriter.Workbook(out, {"constant_memory": True, **SAFE_OPTIONS})
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1})
    score_format = book.add_format({"num_format": SCORE_FORMAT})
    count_format = book.add_format({"num_format": COUNT_FORMAT})
    scores = book.add_worksheet("Scores")
    summary = book.add_worksheet("Summary")
    cuts = CutCells()
    width = len(header) - 2
    for c, name in enumerate(header):
        _write_header(scores, c, name, bold, cuts)
    for r, row in enumerate(comparison.rows, start=1):
        for c, value in enumerate(row[:width]):
            write_cell(scores, r, c, value, cuts=cuts)
        for c, value in ((width, comparison.scores_a[r - 1]), (width + 1, comparison.scores_b[r - 1])):
            write_cell(scores, r, c, value, score_format)
    scores.freeze_panes(1, 0)
    _print_setup(scores, repeat_header=True)
    result = comparison.result
    level = f"{result.interval_a.level:.0%} interval"
    facts: list[Fact] = [
        *_input_facts(input_name, sheet),
        ("Reference", comparison.reference_source, None),
        (f"Corpus {comparison.metric.name} {comparison.a_name}", result.score_a, score_format),
        (f"{level} {comparison.a_name}, low", result.interval_a.low, score_format),
        (f"{level} {comparison.a_name}, high", result.interval_a.high, score_format),
        (f"Corpus {comparison.metric.name} {comparison.b_name}", result.score_b, score_format),
        (f"{level} {comparison.b_name}, low", result.interval_b.low, score_format),
        (f"{level} {comparison.b_name}, high", result.interval_b.high, score_format),
        ("Difference (B - A)", result.difference, score_format),
        ("p-value", result.p_value, score_format),
        ("Verdict", comparison.verdict, None),
        ("Null hypothesis", "A and B are equally good against these references (paired bootstrap, Koehn 2004)", None),
        ("Pairs compared", comparison.used, count_format),
        ("Rows skipped", comparison.skipped, count_format),
        ("Resamples", result.samples, count_format),
        ("Seed", result.seed, count_format),
        ("Signature", comparison.signature, None),
    ]
    _write_facts(book, summary, facts, bold)
    book.close()
    return cuts
