"""The scored workbook the command line writes: the rows with their scores and a Summary sheet (XlsxWriter)."""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Iterator
from typing import IO, Any

import xlsxwriter

from .batch import Result
from .bleu import signature
from .cells import cell_text
from .sheets import column_letter
from .xlsx_style import DATA_BAR, SAFE_OPTIONS

__all__ = ["write_cell", "write_comparison_workbook", "write_scored_workbook"]

EXCEL_MAX_TEXT = 32_767
BINS = 10


def write_cell(sheet: Any, row: int, col: int, value: Any, number_format: Any = None) -> None:
    """Write one value with its own type; text always with write_string (dates as ISO text)."""
    if value is None or value == "":
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, col, value)
    elif isinstance(value, (int, float)):
        sheet.write_number(row, col, value, number_format)
    else:
        sheet.write_string(row, col, (value if isinstance(value, str) else cell_text(value) or "")[:EXCEL_MAX_TEXT])


def write_scored_workbook(
    out: IO[bytes], result: Result, header: list[str], rows: Iterator[list[Any]], *, input_name: str, sheet: str
) -> None:
    """The Scores sheet (input columns, then the scores) and a Summary sheet with a chart.

    XlsxWriter writes the workbook's frame (formats, header row, data bars, filter, Summary and chart); the data
    rows are then streamed into the Scores sheet as inline strings and numbers. XlsxWriter spends about 7 us a
    cell, which is minutes for a full 1,048,576-row sheet; the streamed rows take a fraction of that.
    """
    count = len(result.rows)
    frame = io.BytesIO()
    book = xlsxwriter.Workbook(frame, SAFE_OPTIONS)
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True})
    score_format = book.add_format({"num_format": "0.0000"})
    scores = book.add_worksheet("Scores")
    summary = book.add_worksheet("Summary")

    first_result = len(result.header)
    for col, name in enumerate(header):
        scores.write_string(0, col, name, bold)
    score_cols = (
        {first_result} | {first_result + 1 + 3 * k for k in range(result.max_n)} | {first_result + 3 * result.max_n + 1}
    )
    scores.freeze_panes(1, 0)
    scores.set_column(0, first_result - 1, 40)
    scores.set_column(first_result, len(header) - 1, 9)
    for col in score_cols:  # also registers the format, so its style index is known for the streamed rows
        scores.set_column(col, col, 9, score_format)
    scores.set_column(len(header) - 1, len(header) - 1, 24)
    if count:
        scores.conditional_format(
            1,
            first_result,
            count,
            first_result,
            DATA_BAR,
        )
        scores.autofilter(0, 0, count, len(header) - 1)
    _write_summary(book, summary, result, input_name, sheet, bold, score_format)
    book.close()

    styles = [f' s="{score_format.xf_index}"' if c in score_cols else "" for c in range(len(header))]
    _stream_rows(frame, out, "xl/worksheets/sheet1.xml", rows, styles, count, numbers=(first_result, len(header) - 1))


_XML_ESCAPES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_x[0-9A-Fa-f]{4}_")


def _escape(match: re.Match[str]) -> str:
    found = match.group()
    # Excel's own escape for characters XML cannot hold (_x000B_), and for text that looks like one.
    return "_x005F" + found if len(found) > 1 else f"_x{ord(found):04X}_"


def xml_text(text: str) -> str:
    """Cell text as XML character data, as Excel reads it back exactly."""
    text = text[:EXCEL_MAX_TEXT]
    if _XML_ESCAPES.search(text):
        text = _XML_ESCAPES.sub(_escape, text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _cell_xml(ref: str, value: Any, style: str) -> str:
    kind = type(value)
    if kind is float or kind is int:
        if math.isfinite(value):
            return f'<c r="{ref}"{style}><v>{value!r}</v></c>'
        value = str(value)
    elif kind is bool:
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    elif kind is not str:
        value = cell_text(value) or ""  # dates as ISO text, as the scores read them
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{xml_text(value)}</t></is></c>'


def _stream_rows(
    frame: io.BytesIO,
    out: IO[bytes],
    member: str,
    rows: Iterator[list[Any]],
    styles: list[str],
    count: int,
    numbers: tuple[int, int],
) -> None:
    """Copy the frame workbook to ``out``, streaming ``rows`` into the sheet ``member``.

    ``numbers`` is the range of columns that hold numbers in every scored row: those are written with one
    prepared format string a row instead of one call a cell.
    """
    letters = [column_letter(c) for c in range(len(styles))]
    first, stop = numbers
    numeric = "".join(
        f'<c r="{letters[c]}{{0}}"{styles[c]}><v>{{{c - first + 1}!r}}</v></c>' for c in range(first, stop)
    )

    number_types = frozenset((int, float))  # exactly: a bool is written as a boolean

    def row_xml(r: int, values: list[Any]) -> str:
        scores = values[first:stop]
        # Both checks run in C: a generator over the cells took a fifth of the row's time.
        if number_types.issuperset(map(type, scores)) and all(map(math.isfinite, scores)):
            cells = [
                _cell_xml(f"{letters[c]}{r}", v, styles[c])
                for c, v in enumerate(values[:first])
                if v is not None and v != ""
            ]
            cells.append(numeric.format(r, *scores))
            cells += [
                _cell_xml(f"{letters[c]}{r}", v, styles[c])
                for c, v in enumerate(values[stop:], start=stop)
                if v is not None and v != ""
            ]
        else:
            cells = [
                _cell_xml(f"{letters[c]}{r}", v, styles[c]) for c, v in enumerate(values) if v is not None and v != ""
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


def _write_summary(book: Any, summary: Any, result: Result, input_name: str, sheet: str, bold: Any, fmt: Any) -> None:
    corpus = result.corpus.bleu if result.corpus else None
    facts = [
        ("Input", input_name),
        ("Sheet", sheet),
        ("Reference", result.layout.reference_source),
        (f"Corpus BLEU-{result.max_n}", corpus),
        ("Signature", result.signature()),
        ("Rows", len(result.rows)),
        ("Scored pairs", result.scored),
        ("Blank candidates", result.blank),
        ("Rows with a note", result.problems),
    ]
    summary.set_column(0, 0, 22)
    summary.set_column(1, 1, 70)
    for r, (name, value) in enumerate(facts):
        summary.write_string(r, 0, name, bold)
        write_cell(summary, r, 1, value, fmt)

    top = len(facts) + 1
    summary.write_string(top, 0, f"BLEU-{result.max_n} from", bold)
    summary.write_string(top, 1, "candidates", bold)
    counts = [0] * BINS
    for i in range(len(result.rows)):
        value = result.bleu(i)
        if value is not None:
            counts[min(int(value * BINS), BINS - 1)] += 1
    for b, n in enumerate(counts):
        summary.write_string(top + 1 + b, 0, f"{b / BINS:.1f} to {(b + 1) / BINS:.1f}")
        summary.write_number(top + 1 + b, 1, n)
    chart = book.add_chart({"type": "column"})
    chart.add_series(
        {
            "name": "Candidates",
            "categories": ["Summary", top + 1, 0, top + BINS, 0],
            "values": ["Summary", top + 1, 1, top + BINS, 1],
            "fill": {"color": "#5B9BD5"},
        }
    )
    chart.set_title({"name": f"Distribution of BLEU-{result.max_n}"})
    chart.set_legend({"none": True})
    chart.set_x_axis({"name": f"BLEU-{result.max_n}"})
    chart.set_y_axis({"name": "candidates"})
    summary.insert_chart(top, 3, chart)


def write_comparison_workbook(
    out: IO[bytes], table: Any, layout: Any, comparison: Any, verdict: str, *, input_name: str
) -> None:
    """The input rows with the BLEU-2 of both columns, and a Summary sheet with the paired test."""
    book = xlsxwriter.Workbook(out, {"constant_memory": True, **SAFE_OPTIONS})
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1})
    score_format = book.add_format({"num_format": "0.0000"})
    scores = book.add_worksheet("Scores")
    summary = book.add_worksheet("Summary")
    header = [
        *(cell_text(v) or "" for v in table.rows[layout.header_row]),
        f"BLEU-2 {comparison.a_name}",
        f"BLEU-2 {comparison.b_name}",
    ]
    width = len(header) - 2
    for c, name in enumerate(header):
        scores.write_string(0, c, name, bold)
    for r, row in enumerate(table.rows[layout.header_row + 1 :], start=1):
        for c, value in enumerate(row[:width]):
            write_cell(scores, r, c, value)
        for c, value in ((width, comparison.scores_a[r - 1]), (width + 1, comparison.scores_b[r - 1])):
            write_cell(scores, r, c, value, score_format)
    scores.freeze_panes(1, 0)
    result = comparison.result
    facts = [
        ("Input", input_name),
        ("Reference", layout.reference_source),
        (f"Corpus BLEU-2 {comparison.a_name}", result.score_a),
        (
            f"{result.interval_a.level:.0%} interval {comparison.a_name}",
            f"{result.interval_a.low:.4f} to {result.interval_a.high:.4f}",
        ),
        (f"Corpus BLEU-2 {comparison.b_name}", result.score_b),
        (
            f"{result.interval_b.level:.0%} interval {comparison.b_name}",
            f"{result.interval_b.low:.4f} to {result.interval_b.high:.4f}",
        ),
        ("Difference (B - A)", result.difference),
        ("p-value", result.p_value),
        ("Verdict", verdict),
        ("Null hypothesis", "A and B are equally good against these references (paired bootstrap, Koehn 2004)"),
        ("Pairs compared", comparison.used),
        ("Rows skipped", comparison.skipped),
        ("Resamples, seed", f"{result.samples}, {result.seed}"),
        ("Signature", signature()),
    ]
    summary.set_column(0, 0, 30)
    summary.set_column(1, 1, 80)
    for r, (name, value) in enumerate(facts):
        summary.write_string(r, 0, name, bold)
        write_cell(summary, r, 1, value, score_format)
    book.close()
