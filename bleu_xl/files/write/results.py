"""Writing a scored table or a comparison in the format asked for: a workbook, CSV or TSV, JSON, JSON Lines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ...table.compare import Comparison
from ...table.layout import Layout
from ...table.scoring import Result, distinct_names, result_header
from ...table.sheet import Sheet, column_letter
from .output import OutputFile
from .scored_workbook import CutCells
from .target import OutputTarget
from .text_formats import write_csv, write_json_document, write_json_lines

__all__ = ["columns_used", "output_rows", "write_comparison", "write_result"]


def output_rows(result: Result, start: int = 0, stop: int | None = None) -> Iterator[list[Any]]:
    """Each data row (from ``start`` to ``stop``): the input's cells (blanks as ``None``), then the result columns."""
    width = len(result.header)
    stop = len(result.rows) if stop is None else stop
    for i in range(start, stop):
        row = result.rows[i]
        original = [None if v == "" else v for v in row[:width]] + [None] * (width - len(row))
        yield original + result.result_row(i)


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
    return distinct_names(input_header + [result_header(name, input_header) for name in result_names])


def _write_text(
    file: OutputFile,
    target: OutputTarget,
    sheet: Sheet,
    header: list[str],
    rows: Iterator[list[Any]],
    about: dict[str, Any],
) -> None:
    if target.format == "csv":
        with file.open(binary=False, encoding=target.codec) as out:
            write_csv(out, header, rows, delimiter=target.delimiter_for(sheet), raw=target.raw)
    elif target.format == "jsonl":
        with file.open(binary=False) as out:
            write_json_lines(out, header, rows)
    else:
        with file.open(binary=False) as out:
            write_json_document(out, about, header, rows)


def write_result(
    result: Result,
    file: OutputFile,
    target: OutputTarget,
    *,
    input_name: str,
    sheet: Sheet,
    notes: Sequence[str] = (),
    workers: int | None = None,
) -> CutCells:
    """Write the scored rows to ``file`` as ``target`` says: ``xlsx`` (with ``notes`` on its Summary sheet),
    ``csv``, ``json`` (one document: what was scored, the first metric's corpus score and signature, each
    metric's, the columns used, the counts, the ``notes``, then the rows) or ``jsonl`` (an object a line).

    Returns the cells cut to fit Excel's limit of text in a cell (a workbook only; CSV and JSON keep them whole).
    A large workbook's rows are written by ``workers`` processes (by default one a core).
    """
    header = _headers(result.header, [column.name for column in result.columns])
    if target.format == "xlsx":
        from .scored_workbook import write_scored_workbook

        target.check_size(len(result.rows) + 1, len(header))
        with file.open(binary=True) as out:
            return write_scored_workbook(
                out,
                result,
                header,
                lambda a, b: output_rows(result, a, b),
                input_name=input_name,
                source=sheet,
                notes=notes,
                workers=workers,
            )
    about = {
        "input": input_name,
        "sheet": sheet.workbook_sheet,
        "columns": columns_used(result.layout),
        "signature": result.signature(),
        "corpus": result.corpus.as_dict() if result.corpus else None,
        "metrics": [
            {
                "name": metric.name,
                "signature": signature,
                "corpus": corpus.as_dict() if corpus else None,
                "scored": result.covered(k),
            }
            for k, (metric, corpus, signature) in enumerate(zip(result.metrics, result.corpora, result.signatures()))
        ],
        "counts": {
            "rows": len(result.rows),
            "scored": result.scored,
            "blank": result.blank,
            "with_note": result.problems,
        },
        "notes": list(notes),
    }
    _write_text(file, target, sheet, header, output_rows(result), about)
    return CutCells()


def write_comparison(
    file: OutputFile,
    target: OutputTarget,
    table: Sheet,
    layout: Layout,
    comparison: Comparison,
    *,
    input_name: str,
    notes: Sequence[str] = (),
    workers: int | None = None,
) -> CutCells:
    """Write a comparison as ``target`` says: a workbook (the rows with both columns' scores and a note on each row
    the test left out, and the paired test and the ``notes`` on a Summary sheet), or the same rows as CSV, JSON
    Lines or one JSON document that holds the test and the notes too."""
    input_header = distinct_names([h or column_letter(i) for i, h in enumerate(layout.headers)])
    name = comparison.metric.name
    header = _headers(input_header, [f"{name} {comparison.a_name}", f"{name} {comparison.b_name}", "note"])
    if target.format == "xlsx":
        from .scored_workbook import write_comparison_workbook

        target.check_size(len(comparison.rows) + 1, len(header))
        with file.open(binary=True) as out:
            return write_comparison_workbook(
                out,
                header,
                comparison,
                input_name=input_name,
                layout=layout,
                source=table,
                notes=notes,
                workers=workers,
            )
    width = len(input_header)

    def rows() -> Iterator[list[Any]]:
        results = zip(comparison.scores_a, comparison.scores_b, comparison.left_out)
        for row, (a, b, note) in zip(comparison.rows, results):
            yield [None if v == "" else v for v in row[:width]] + [None] * (width - len(row)) + [a, b, note]

    columns = columns_used(layout)
    columns = {"header_row": columns.pop("header_row"), "a": columns.pop("candidate"), **columns}
    columns["b"] = _column(layout, comparison.b_col)
    about = {
        "input": input_name,
        "sheet": table.workbook_sheet,
        "columns": columns,
        "signature": comparison.signature,
        "comparison": comparison.as_dict(),
        "notes": list(notes),
    }
    _write_text(file, target, table, header, rows(), about)
    return CutCells()
