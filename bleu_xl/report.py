"""The scored workbook the command line writes: the rows with their scores and a Summary sheet (XlsxWriter)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import IO, Any

import xlsxwriter

from .batch import Result

__all__ = ["SAFE_OPTIONS", "write_cell", "write_scored_workbook"]

# User text stays text: no conversion of "=..." into formulas, of "http://..." into links, of "1e3" into numbers.
SAFE_OPTIONS = {"strings_to_formulas": False, "strings_to_urls": False, "strings_to_numbers": False}
EXCEL_MAX_TEXT = 32_767
BINS = 10


def write_cell(sheet: Any, row: int, col: int, value: Any, date_format: Any = None) -> None:
    """Write one value with its own type; text always with write_string."""
    if value is None or value == "":
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, col, value)
    elif isinstance(value, (int, float)):
        sheet.write_number(row, col, value)
    elif isinstance(value, (dt.datetime, dt.date)):
        sheet.write_datetime(row, col, value, date_format)
    else:
        sheet.write_string(row, col, str(value)[:EXCEL_MAX_TEXT])


def write_scored_workbook(
    out: IO[bytes], result: Result, header: list[str], rows: Iterator[list[Any]], *, input_name: str, sheet: str
) -> None:
    book = xlsxwriter.Workbook(out, {"constant_memory": True, **SAFE_OPTIONS})
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True})
    score_format = book.add_format({"num_format": "0.0000"})
    date_format = book.add_format({"num_format": "yyyy-mm-dd"})
    scores = book.add_worksheet("Scores")
    summary = book.add_worksheet("Summary")

    first_result = len(result.header)
    for col, name in enumerate(header):
        scores.write_string(0, col, name, bold)
    score_cols = (
        {first_result} | {first_result + 1 + 3 * k for k in range(result.max_n)} | {first_result + 3 * result.max_n + 1}
    )
    count = 0
    for r, values in enumerate(rows, start=1):
        for c, value in enumerate(values):
            write_cell(scores, r, c, value, score_format if c in score_cols and value is not None else date_format)
        count = r
    scores.freeze_panes(1, 0)
    scores.set_column(0, first_result - 1, 40)
    scores.set_column(first_result, len(header) - 1, 9)
    scores.set_column(len(header) - 1, len(header) - 1, 24)
    if count:
        scores.conditional_format(
            1,
            first_result,
            count,
            first_result,
            {
                "type": "data_bar",
                "bar_color": "#5B9BD5",
                "bar_solid": True,
                "min_type": "num",
                "min_value": 0,
                "max_type": "num",
                "max_value": 1,
            },
        )
        scores.autofilter(0, 0, count, len(header) - 1)

    _write_summary(book, summary, result, input_name, sheet, bold, score_format)
    book.close()


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
