"""The workbooks the command line writes, a scored table or a comparison: the rows on a Scores sheet, formatted
alike (the input's column widths, wrapped text, a filter, data bars on the scores, the header row frozen and on
every printed page), and a Summary sheet. XlsxWriter writes each workbook's frame; the rows are streamed into it
(``xlsx_rows``)."""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

import xlsxwriter
from xlsxwriter.format import Format
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from ...core.bootstrap import NEAR_SIGNIFICANCE, SIGNIFICANCE
from ...core.metrics.base import ColumnKind
from ...excel.cell_values import CellError, cell_text, fit_cell
from ...table.compare import Comparison
from ...table.layout import Layout, reference_shown
from ...table.scoring import Result
from ...table.sheet import CellFormats, Sheet, column_letter
from .xlsx_rows import DATE_FORMATS, CellStyle, CutCells, RowSource, exact_escapes, register_format, stream_rows
from .xlsx_style import DATA_BAR, EDITS_BAR, SAFE_OPTIONS

__all__ = ["CutCells", "reference_facts", "write_cell", "write_comparison_workbook", "write_scored_workbook"]

BINS = 10
#: Number formats of the Scores sheet: scores to four places, counts as whole numbers.
SCORE_FORMAT = "0.0000"
COUNT_FORMAT = "0"
#: The width of an input column the input gives none: its text wrapped, 40 characters wide.
TEXT_WIDTH = 40
#: What Excel's width of a column adds to its characters (5 pixels of a 7-pixel digit), which XlsxWriter adds
#: again to the characters it is given: taken off, the input's width is written back as it was.
PADDING = 5 / 7


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
    if DATE_FORMATS.keys().isdisjoint(set(map(type, itertools.chain.from_iterable(rows)))):
        return kinds  # most tables: one pass in C finds no date at all
    for row in rows:
        for c, value in enumerate(row[:width]):
            kind = type(value)
            if kind in DATE_FORMATS and c not in kinds:
                kinds[c] = kind
    return kinds


@dataclass
class ScoresSheet:
    """What a Scores sheet holds: the header row, then each data row (the input's cells, then the results), and
    how to show them: the input's widths and number formats (``source``; the rows it came from, ``sheet_rows``,
    as Excel numbers them), the candidate and reference columns as the text scored (``scored_columns``), and the
    kind of each result column (those in ``bars`` get data bars: a score's, or TER's, whose bar is its edits)."""

    header: list[str]
    rows: RowSource
    count: int
    input_rows: Sequence[list[Any]]
    sheet_rows: Sequence[int]
    results: Sequence[ColumnKind]
    bars: dict[int, bool]  # result columns, counted from the first: whether higher is better
    scored_columns: frozenset[int]
    source: Sheet | None = None

    @property
    def input_width(self) -> int:
        return len(self.header) - len(self.results)


def _write_workbook(
    out: IO[bytes],
    table: ScoresSheet,
    summary: Callable[[Workbook, Worksheet, dict[str, Format]], None],
    workers: int | None = None,
) -> CutCells:
    """The Scores sheet of ``table`` and a Summary sheet that ``summary`` fills (given the shared formats:
    ``bold``, ``score``, ``count``); returns the cells cut to fit a cell. A large sheet's rows are written by
    ``workers`` processes (by default one a core)."""
    frame = io.BytesIO()
    with exact_escapes():
        book = xlsxwriter.Workbook(frame, SAFE_OPTIONS)
        formats = {
            "bold": book.add_format(
                {"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True, "valign": "top"}
            ),
            "score": book.add_format({"num_format": SCORE_FORMAT}),
            "count": book.add_format({"num_format": COUNT_FORMAT}),
        }
        text_format = book.add_format({"text_wrap": True, "valign": "top"})  # multi-line cells keep their lines
        scores = book.add_worksheet("Scores")
        sheet = book.add_worksheet("Summary")
        cuts = CutCells()
        header, first_result = table.header, table.input_width
        for col, name in enumerate(header):
            _write_header(scores, col, name, formats["bold"], cuts)
        scores.freeze_panes(1, 0)
        _print_setup(scores, repeat_header=True)
        dates = _date_kinds(table.input_rows, first_result)
        cell_styles, column_formats = _input_columns(book, scores, table, text_format, dates)
        number_format = book.add_format({"num_format": "General"})  # an average length: 9, or 9.5
        numeric = 0  # the result columns that hold numbers in every scored row come first
        rich = set()  # the words that changed (TER's), written as rich text
        for offset, kind in enumerate(table.results):
            col = first_result + offset
            if kind in (ColumnKind.TEXT, ColumnKind.CHANGES):
                column_formats.append(text_format)
                scores.set_column(col, col, 60 if kind == ColumnKind.CHANGES else 24, text_format)
                if kind == ColumnKind.CHANGES:
                    rich.add(col)
                continue
            numeric += numeric == offset
            column_formats.append(
                number_format
                if kind == ColumnKind.NUMBER
                else formats["count" if kind == ColumnKind.COUNT else "score"]
            )
            scores.set_column(col, col, 9, column_formats[col])
        if table.count:
            for offset, higher_is_better in sorted(table.bars.items()):
                col = first_result + offset
                scores.conditional_format(1, col, table.count, col, DATA_BAR if higher_is_better else EDITS_BAR)
            scores.autofilter(0, 0, table.count, len(header) - 1)
        summary(book, sheet, formats)
        book.close()
    styles = [f' s="{_style_number(number_format)}"' for number_format in column_formats]
    for col, cell_style in cell_styles.items():
        cell_style.general = styles[col]
    stream_rows(
        frame,
        out,
        "xl/worksheets/sheet1.xml",
        table.rows,
        styles,
        table.count,
        numbers=(first_result, first_result + numeric),
        cuts=cuts,
        cell_styles=cell_styles,
        as_scored=frozenset(c for c in table.scored_columns if c in dates),  # the others hold nothing to turn into text
        sheet_rows=table.sheet_rows,
        rich=frozenset(rich),
        workers=workers,
    )
    return cuts


def _input_columns(
    book: Workbook, scores: Worksheet, table: ScoresSheet, text_format: Format, dates: dict[int, type]
) -> tuple[dict[int, CellStyle], list[Format]]:
    """The input's columns: each as wide as the input has it (else wide enough for text, a date or a number), its
    text wrapped; each number or date in its own cell's number format, but in the candidate and reference
    columns, which show the text scored. Returns the columns whose cells take a style of their own, and each
    input column's format."""
    source = table.source
    formats = source.cell_formats if source is not None else CellFormats()
    # One Format per distinct number format: XlsxWriter numbers only the first of two equal formats, and the
    # streamed cells need the number (a second "0.00" column would otherwise get s="None", a corrupt sheet).
    shared: dict[int | str, str] = {}

    def style(number_format: int | str) -> str:
        if number_format not in shared:
            registered = register_format(book.add_format({"num_format": number_format, "valign": "top"}))
            shared[number_format] = f' s="{registered}"'
        return shared[number_format]

    cell_styles: dict[int, CellStyle] = {}
    for col in range(table.input_width):
        width: float = TEXT_WIDTH
        if col not in table.scored_columns and (formats.used(col) or col in dates):
            cell_styles[col] = CellStyle(col, formats, style)
            width = 20 if col in dates else 12
        given = source.column_width(col) if source is not None else None
        scores.set_column(col, col, width if given is None else max(given - PADDING, 0), text_format)
    return cell_styles, [text_format] * table.input_width


def write_scored_workbook(
    out: IO[bytes],
    result: Result,
    header: list[str],
    rows: RowSource,
    *,
    input_name: str,
    source: Sheet | None = None,
    notes: Sequence[str] = (),
    workers: int | None = None,
) -> CutCells:
    """The Scores sheet (input columns, then the scores: ``rows(a, b)`` gives the data rows from ``a`` to ``b``) and a
    Summary sheet with a chart (and the ``notes``, the command's notes about what was read and scored); returns the
    cells cut to fit Excel's limit of text in a cell; a large sheet's rows are written by ``workers`` processes.

    Input cells keep their type: numbers (a whole number as one, ``1`` not ``1.0``), booleans, errors, and dates as
    dates. Each number or date keeps its own cell's number format (``source``'s, by the input's rows); one without
    (General, a text file's) shows as General, a date as an ISO date. The candidate and reference columns show
    what was scored: a number in General, and a date, time or duration as the text it was scored as
    (``36:00:00``), whatever format its cell had. Each input column is as wide as in ``source``.
    """
    better = {metric.name: metric.higher_is_better for metric in result.metrics}
    columns = result.columns
    table = ScoresSheet(
        header,
        rows,
        len(result.rows),
        result.rows,
        result.row_numbers,
        [column.kind for column in columns],
        {offset: better[column.name] for offset, column in enumerate(columns) if column.name in better},  # no details
        frozenset({result.layout.candidate_col, *result.layout.reference_cols}),
        source,
    )
    facts = [
        *_input_facts(input_name, source),
        *reference_facts(result.layout, source),
    ]

    def summary(book: Workbook, sheet: Worksheet, formats: dict[str, Format]) -> None:
        _write_summary(book, sheet, result, facts, notes_fact(notes), formats)

    return _write_workbook(out, table, summary, workers)


def notes_fact(notes: Sequence[str]) -> list[Fact]:
    """The notes as a Summary's last fact, one a line (none: no fact)."""
    return [("Notes", "\n".join(notes), None)] if notes else []


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


Fact = tuple[str, Any, Format | None]


def _input_facts(input_name: str, source: Sheet | None) -> list[Fact]:
    """What was read: the input, and its sheet (a text file has none: its name is the input's)."""
    sheet = None if source is None else source.workbook_sheet
    return [("Input", input_name, None), *([] if sheet is None else [("Sheet", sheet, None)])]


def reference_facts(layout: Layout, source: Sheet | None) -> list[Fact]:
    """How a Summary names the references: the text, when one serves every candidate (and the cell it was read
    from, if any), else the columns that hold them."""
    return [(label, text, None) for label, text in reference_shown(layout, None if source is None else source.rows)]


def _write_facts(book: Workbook, summary: Worksheet, facts: list[Fact], bold: Format) -> None:
    """Label and value side by side in columns A and B (values wrap), one page wide when printed."""
    wrap = book.add_format({"text_wrap": True, "valign": "top"})
    summary.set_column(0, 0, 24)
    summary.set_column(1, 1, 46, wrap)
    _print_setup(summary, repeat_header=False)
    for r, (name, value, number_format) in enumerate(facts):
        summary.write_string(r, 0, name, bold)
        write_cell(summary, r, 1, fit_cell(value) if isinstance(value, str) else value, number_format)


def _write_summary(
    book: Workbook, summary: Worksheet, result: Result, read: list[Fact], notes: list[Fact], formats: dict[str, Format]
) -> None:
    """The corpus score, signature, counts and notes as label/value pairs, the score distribution, and its chart
    beside."""
    score_format, count_format = formats["score"], formats["count"]
    corpora: list[Fact] = []
    for metric, corpus, signature in zip(result.metrics, result.corpora, result.signatures()):
        corpora += [
            (f"Corpus {metric.name}", float(corpus) if corpus is not None else None, score_format),
            ("Signature" if len(result.metrics) == 1 else f"Signature {metric.name}", signature, None),
        ]
    groups = result.scored_groups()
    scored: list[Fact] = [
        ("Scored pairs" if len(groups) == 1 else f"Scored pairs ({', '.join(names)})", count, count_format)
        for names, count in groups
    ]
    facts: list[Fact] = [
        *read,
        *corpora,
        ("Rows", len(result.rows), count_format),
        *scored,
        ("Blank candidates", result.blank, count_format),
        ("Rows with a note", result.problems, count_format),
        *notes,
    ]
    bold = formats["bold"]
    _write_facts(book, summary, facts, bold)
    top = len(facts) + 1
    name = result.metrics[0].name
    summary.write_string(top, 0, f"{name} from", bold)
    summary.write_string(top, 1, "candidates", bold)
    counts = [0] * BINS
    for value in result.values():
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
    out: IO[bytes],
    header: list[str],
    comparison: Comparison,
    *,
    input_name: str,
    layout: Layout,
    source: Sheet | None = None,
    notes: Sequence[str] = (),
    workers: int | None = None,
) -> CutCells:
    """The input rows with both columns' scores and a note on each row the test left out (``header`` names them
    all), formatted as a scored workbook is, and a Summary sheet with the paired test: each interval as two numbers
    (low, high), the p-value shown as the verdict says it, and the ``notes``. Returns the cells cut to fit a
    cell; a large sheet's rows are written by ``workers`` processes."""
    results = [ColumnKind.SCORE, ColumnKind.SCORE, ColumnKind.TEXT]
    width = len(header) - len(results)

    def rows(start: int, stop: int) -> Iterator[list[Any]]:
        for i in range(start, stop):
            row = comparison.rows[i]
            values = [comparison.scores_a[i], comparison.scores_b[i], comparison.left_out[i]]
            yield [None if v == "" else v for v in row[:width]] + [None] * (width - len(row)) + values

    table = ScoresSheet(
        header,
        rows,
        len(comparison.rows),
        comparison.rows,
        comparison.row_numbers,
        results,
        dict.fromkeys((0, 1), comparison.metric.higher_is_better),
        frozenset({layout.candidate_col, comparison.b_col, *layout.reference_cols}),
        source,
    )
    result = comparison.result

    def summary(book: Workbook, sheet: Worksheet, formats: dict[str, Format]) -> None:
        score_format, count_format = formats["score"], formats["count"]
        p_format = book.add_format({"num_format": p_value_format(result.p_value)})
        name, a, b = comparison.metric.name, comparison.a_name, comparison.b_name
        scores: list[Fact] = []
        for column, score, interval, side in (
            (a, result.score_a, result.interval_a, "a"),
            (b, result.score_b, result.interval_b, "b"),
        ):
            scores.append((f"Corpus {name} {column}", score, score_format))
            if (missing := result.no_interval_text(side)) is not None:
                scores.append((f"Interval {column}", missing, None))
            if interval is not None:
                level = f"{interval.level_text} interval"
                scores.append((f"{level} {column}, low", interval.low, score_format))
                scores.append((f"{level} {column}, high", interval.high, score_format))
        test = "paired bootstrap, Koehn 2004" if result.test == "bs" else "approximate randomization"
        facts: list[Fact] = [
            *_input_facts(input_name, source),
            *reference_facts(layout, source),
            *scores,
            (f"Difference ({b} - {a})", result.difference, score_format),
            ("p-value", result.p_value, p_format),
            ("Verdict", comparison.verdict, None),
            ("Null hypothesis", f"A and B are equally good against these references ({test})", None),
            ("Pairs compared", comparison.used, count_format),
            ("Rows skipped", comparison.skipped, count_format),
            ("Resamples" if result.test == "bs" else "Randomization trials", result.samples, count_format),
            ("Seed", result.seed, count_format),
            ("Signature", comparison.signature, None),
            *notes_fact(notes),
        ]
        _write_facts(book, sheet, facts, formats["bold"])

    return _write_workbook(out, table, summary, workers)


def p_value_format(p_value: float) -> str:
    """The number format that shows a p-value as the verdict writes it (``p_text``): ``< 0.001`` below 0.001,
    ``< 0.05`` just below the significance level, else three decimals; the cell keeps the number itself."""
    if p_value < 0.001:
        return '"< 0.001"'
    if NEAR_SIGNIFICANCE <= p_value < SIGNIFICANCE:
        return '"< 0.05"'
    return "0.000"
