"""Writing a scored table or a comparison in the format asked for: a workbook, CSV or TSV, JSON lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..table.columns import Layout
from ..table.compare import Comparison
from ..table.scoring import Result, distinct_names, result_header
from ..table.sheet import Sheet
from .output import OutputFile
from .writers import write_csv, write_json_lines

__all__ = ["output_rows", "write_comparison", "write_result"]


def output_rows(result: Result) -> Iterator[list[Any]]:
    """Each data row: the input's cells (blanks as ``None``), then the result columns."""
    width = len(result.header)
    for i, row in enumerate(result.rows):
        original = [None if v == "" else v for v in row[:width]] + [None] * (width - len(row))
        yield original + result.result_row(i)


def write_result(
    result: Result,
    target: OutputFile,
    fmt: str,
    *,
    input_name: str,
    sheet: Sheet,
    encoding: str | None = None,
    delimiter: str = ",",
    raw: bool = False,
) -> None:
    """Write the scored rows to ``target`` as ``fmt`` (``xlsx``, ``csv`` or ``json``, the last one object a line).

    A result column named like an input column (a scored template already has "BLEU-2") gets a suffix, so that
    JSON keys and CSV headers stay distinct.
    """
    taken = set(result.header)
    scores = [f"{name} (bleu-xl)" if name in taken else name for name in result_header(result.metrics)]
    header = distinct_names(result.header + scores)
    if fmt == "xlsx":
        from .scored_workbook import write_scored_workbook

        with target.open(binary=True) as out:
            write_scored_workbook(out, result, header, output_rows(result), input_name=input_name, sheet=sheet.name)
    elif fmt == "csv":
        # UTF-8 with a BOM, so that Excel on Windows reads it as UTF-8 (not to standard output: pipelines).
        codec = encoding or ("utf-8" if target.path == "-" else "utf-8-sig")
        if codec.replace("_", "-").lower() in {"utf-8", "utf8"} and target.path != "-":
            codec = "utf-8-sig"
        with target.open(binary=False, encoding=codec) as out:
            write_csv(out, header, output_rows(result), delimiter=delimiter, raw=raw)
    else:
        with target.open(binary=False) as out:
            write_json_lines(out, header, output_rows(result))


def write_comparison(
    target: OutputFile, table: Sheet, layout: Layout, comparison: Comparison, *, input_name: str
) -> None:
    """Write a comparison as a workbook: the rows with both columns' scores, and the paired test."""
    from .scored_workbook import write_comparison_workbook

    with target.open(binary=True) as out:
        write_comparison_workbook(out, table, layout, comparison, comparison.verdict, input_name=input_name)
