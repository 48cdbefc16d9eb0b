"""Writing a scored table or a comparison in the format asked for: a workbook, CSV or TSV, JSON, JSON Lines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import Setting
from ..table.columns import Layout
from ..table.compare import Comparison
from ..table.scoring import Result, distinct_names
from ..table.sheet import EXCEL_MAX_COLS, EXCEL_MAX_ROWS, InputError, Sheet, column_letter
from .output import OutputFile
from .scored_workbook import CutCells
from .writers import write_csv, write_json_document, write_json_lines

__all__ = ["check_workbook_size", "columns_used", "output_rows", "write_comparison", "write_result"]


@dataclass(frozen=True)
class TextOptions:
    """How a CSV output is written: its encoding (UTF-8 with a BOM for a file by default), its delimiter, and
    whether text is written exactly as read (``raw``) instead of neutralised against formula injection."""

    encoding: str | None = None
    delimiter: str = ","
    raw: bool = False


def output_rows(result: Result) -> Iterator[list[Any]]:
    """Each data row: the input's cells (blanks as ``None``), then the result columns."""
    width = len(result.header)
    for i, row in enumerate(result.rows):
        original = [None if v == "" else v for v in row[:width]] + [None] * (width - len(row))
        yield original + result.result_row(i)


def check_workbook_size(path: str, rows: int, columns: int) -> None:
    """Refuse an output workbook past Excel's grid (1,048,576 rows, 16,384 columns): Excel would not open it
    whole. ``rows`` counts the header row. CSV has no such limit, and the message says so."""
    instead = Setting("output", str(Path(path).with_suffix(".csv")) if path != "-" else "scores.csv")
    if rows > EXCEL_MAX_ROWS:
        raise InputError(
            f"{path}: a workbook holds at most {EXCEL_MAX_ROWS:,} rows, and the scores take {rows:,} (a header row "
            f"and {rows - 1:,} data rows); write CSV instead: ",
            instead,
        )
    if columns > EXCEL_MAX_COLS:
        raise InputError(
            f"{path}: a workbook holds at most {EXCEL_MAX_COLS:,} columns (A to {column_letter(EXCEL_MAX_COLS - 1)}), "
            f"and the scores take {columns:,}; write CSV instead: ",
            instead,
        )


def columns_used(layout: Layout) -> dict[str, Any]:
    """The header row (as Excel numbers rows) and the columns used, for a JSON document: each column's letter
    and header; the reference text or cells when one reference serves every candidate."""

    return {
        "header_row": None if layout.header_row is None else layout.header_row + 1,
        "candidate": _column(layout, layout.candidate_col),
        "references": [_column(layout, c) for c in layout.reference_cols],
        "reference_text": layout.reference_text,
        "reference_cells": layout.shared_cells() if layout.shared_row is not None else layout.reference_cell,
    }


def _column(layout: Layout, index: int) -> dict[str, str | None]:
    header = layout.headers[index] if index < len(layout.headers) else ""
    return {"column": column_letter(index), "header": header or None}


def _headers(input_header: list[str], result_names: Sequence[str]) -> list[str]:
    """The input's headers, then the result columns' (one named like an input column, as in a scored template
    that already has "BLEU-2", gets a suffix), all distinct for JSON keys and CSV headers."""
    taken = set(input_header)
    return distinct_names(input_header + [f"{name} (bleu-xl)" if name in taken else name for name in result_names])


def _write_text(
    target: OutputFile, fmt: str, header: list[str], rows: Iterator[list[Any]], about: dict[str, Any], text: TextOptions
) -> None:
    if fmt == "csv":
        # UTF-8 with a BOM, so that Excel on Windows reads it as UTF-8 (not to standard output: pipelines).
        codec = text.encoding or ("utf-8" if target.path == "-" else "utf-8-sig")
        if codec.replace("_", "-").lower() in {"utf-8", "utf8"} and target.path != "-":
            codec = "utf-8-sig"
        with target.open(binary=False, encoding=codec) as out:
            write_csv(out, header, rows, delimiter=text.delimiter, raw=text.raw)
    elif fmt == "jsonl":
        with target.open(binary=False) as out:
            write_json_lines(out, header, rows)
    else:
        with target.open(binary=False) as out:
            write_json_document(out, about, header, rows)


def write_result(
    result: Result,
    target: OutputFile,
    fmt: str,
    *,
    input_name: str,
    sheet: Sheet,
    text: TextOptions = TextOptions(),
) -> CutCells:
    """Write the scored rows to ``target`` as ``fmt``: ``xlsx``, ``csv``, ``json`` (one document: what was scored,
    the first metric's corpus score and signature, each metric's, the columns used, then the rows) or ``jsonl``
    (an object a line).

    Returns the cells cut to fit Excel's limit of text in a cell (a workbook only; CSV and JSON keep them whole).
    """
    header = _headers(result.header, [column.name for column in result.columns])
    if fmt == "xlsx":
        from .scored_workbook import write_scored_workbook

        check_workbook_size(target.path, len(result.rows) + 1, len(header))
        with target.open(binary=True) as out:
            return write_scored_workbook(
                out,
                result,
                header,
                output_rows(result),
                input_name=input_name,
                sheet=sheet.workbook_sheet,
                formats=sheet.cell_formats,
            )
    about = {
        "input": input_name,
        "sheet": sheet.workbook_sheet,
        "columns": columns_used(result.layout),
        "signature": result.signature(),
        "corpus": result.corpus.as_dict() if result.corpus else None,
        "metrics": [
            {"name": metric.name, "signature": signature, "corpus": corpus.as_dict() if corpus else None}
            for metric, corpus, signature in zip(result.metrics, result.corpora, result.signatures())
        ],
        "counts": {
            "rows": len(result.rows),
            "scored": result.scored,
            "blank": result.blank,
            "with_note": result.problems,
        },
    }
    _write_text(target, fmt, header, output_rows(result), about, text)
    return CutCells()


def write_comparison(
    target: OutputFile,
    fmt: str,
    table: Sheet,
    layout: Layout,
    comparison: Comparison,
    *,
    input_name: str,
    text: TextOptions = TextOptions(),
) -> CutCells:
    """Write a comparison as ``fmt``: a workbook (the rows with both columns' scores, and the paired test on a
    Summary sheet), or the same rows as CSV, JSON Lines or one JSON document that holds the test too."""
    input_header = distinct_names([h or column_letter(i) for i, h in enumerate(layout.headers)])
    name = comparison.metric.name
    header = _headers(input_header, [f"{name} {comparison.a_name}", f"{name} {comparison.b_name}"])
    if fmt == "xlsx":
        from .scored_workbook import write_comparison_workbook

        check_workbook_size(target.path, len(comparison.rows) + 1, len(header))
        with target.open(binary=True) as out:
            return write_comparison_workbook(out, header, comparison, input_name=input_name, sheet=table.workbook_sheet)
    width = len(input_header)

    def rows() -> Iterator[list[Any]]:
        for row, a, b in zip(comparison.rows, comparison.scores_a, comparison.scores_b):
            yield [None if v == "" else v for v in row[:width]] + [None] * (width - len(row)) + [a, b]

    columns = columns_used(layout)
    columns = {"header_row": columns.pop("header_row"), "a": columns.pop("candidate"), **columns}
    columns["b"] = _column(layout, comparison.b_col)
    about = {
        "input": input_name,
        "sheet": table.workbook_sheet,
        "columns": columns,
        "signature": comparison.signature,
        "comparison": comparison.as_dict(),
    }
    _write_text(target, fmt, header, rows(), about, text)
    return CutCells()
