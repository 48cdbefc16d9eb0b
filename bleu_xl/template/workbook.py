"""Writing a template workbook with XlsxWriter: its formats, input and formula cells with their cached values, Excel
Tables with calculated columns, column widths and row heights, page setup, and the array marks of calculated
columns that XlsxWriter cannot write (the reasons are in :mod:`.build`)."""

from __future__ import annotations

import datetime as dt
import html
import math
import re
import unicodedata
import zipfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xlsxwriter

from ..excel import cells
from ..excel.faces import classic_result
from ..excel.functions import FUNCTIONS
from ..files.write.xlsx_style import SAFE_OPTIONS

__all__ = [
    "CALC_ID",
    "CORE_PROPERTIES",
    "LINE_HEIGHT",
    "Column",
    "cached_value",
    "cell_formats",
    "display_width",
    "fit_row",
    "lines_needed",
    "mark_array_columns",
    "measure_columns",
    "new_book",
    "page_setup",
    "text_width",
    "this_row",
    "typed_texts",
    "write_formula",
    "write_input",
    "write_spill",
    "write_table",
]

# Excel 365's calculation engine: a workbook marked as last calculated by it is not recalculated on open.
CALC_ID = 191029
CORE_PROPERTIES = {"author": "bleu-xl", "created": dt.datetime(2026, 1, 1)}  # fixed: the files are reproducible
UDF_CALL = re.compile(r"\b(?:" + "|".join(sorted((f.name for f in FUNCTIONS), key=len, reverse=True)) + r")\(")
LINE_HEIGHT = 15  # points per line of 11-point Calibri
TABLE_STYLE = "Table Style Light 9"


def new_book(path: Path) -> Any:
    book = xlsxwriter.Workbook(str(path), {**SAFE_OPTIONS, "use_future_functions": True})
    book.set_properties(CORE_PROPERTIES)
    book.set_calc_mode("auto", calc_id=CALC_ID)
    book.calc_on_load = False  # no fullCalcOnLoad (see the module docstring); XlsxWriter has no public switch
    return book


def cell_formats(book: Any) -> dict[str, Any]:
    """Input cells (what the user types) are yellow; formula cells are grey, so the two never look alike."""
    top = {"valign": "top"}
    formula = {**top, "bg_color": "#F2F2F2", "border": 1, "border_color": "#D9D9D9"}
    return {
        "title": book.add_format({"bold": True, "font_size": 14}),
        "section": book.add_format({"bold": True, "font_size": 12, "bottom": 1}),
        "label": book.add_format({**top, "bold": True, "text_wrap": True}),
        "header": book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True}),
        "input": book.add_format(
            {**top, "bg_color": "#FFF2CC", "border": 1, "border_color": "#BFBFBF", "text_wrap": True}
        ),
        "text": book.add_format({**formula, "text_wrap": True}),
        "score": book.add_format({**formula, "num_format": "0.000"}),
        "integer": book.add_format({**formula, "num_format": "0"}),
        "expected": book.add_format({**top, "num_format": "0.000000"}),
        "wrap": book.add_format({**top, "text_wrap": True}),
    }


def cached_value(result: Any) -> Any:
    """A cell function's result as the classic add-in shows it, which is what the cell caches."""
    return "" if result is None else classic_result(result)


def display_width(text: str) -> int:
    """Characters as a column width counts them: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


TEXT_PER_WIDTH = 1.1  # a column width counts digits; running text is narrower (measured in LibreOffice renders)


def lines_needed(text: str, width: float) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide."""
    per_line = width * TEXT_PER_WIDTH
    return sum(max(1, math.ceil(display_width(part) / per_line)) for part in text.split("\n"))


def fit_row(ws: Any, row: int, texts: Sequence[tuple[str, float]]) -> None:
    """Give a row the height its wrapped texts need (XlsxWriter cannot measure text; Excel does not on open)."""
    lines = max((lines_needed(text, width) for text, width in texts if isinstance(text, str)), default=1)
    if lines > 1:
        ws.set_row(row, LINE_HEIGHT * lines)


def text_width(texts: Sequence[Any], least: float, most: float) -> float:
    """A column width that shows the longest text on one line, within ``least`` and ``most`` (then it wraps)."""
    return max(least, min(most, max((display_width(t) + 2 for t in texts if isinstance(t, str)), default=0)))


def page_setup(ws: Any, header_row: int | None = None) -> None:
    """Landscape A4, as wide as one page, the header row on every page. No fixed print area: Excel and
    LibreOffice print the used range, which grows with the tables."""
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.6)
    if header_row is not None:
        ws.repeat_rows(header_row)


def write_input(ws: Any, row: int, col: int, value: Any, fmt: Any) -> None:
    """User text as text (never a formula); a blank input cell keeps its input style."""
    if value is None or value == "":
        ws.write_blank(row, col, None, fmt)
    elif isinstance(value, str):
        ws.write_string(row, col, value, fmt)
    else:
        ws.write_number(row, col, value, fmt)


def write_formula(ws: Any, row: int, col: int, formula: str, fmt: Any, value: Any, dynamic: bool = False) -> None:
    """A formula with its cached value; one that calls a bleu-xl function is a dynamic-array formula, so Excel 365
    shows it without an implicit-intersection ``@``, and so is one ``dynamic`` says works on arrays (``IF`` over
    a column: an array formula in Excel 2019 and before)."""
    if dynamic or UDF_CALL.search(formula):
        ws.write_dynamic_array_formula(row, col, row, col, formula, fmt, value)
    else:
        ws.write_formula(row, col, formula, fmt, value)


def write_spill(ws: Any, top: int, left: int, formula: str, grid: list[list[Any]], formats: list[list[Any]]) -> None:
    """A dynamic array formula and the cached value of every cell it spills into (blank where it gives "")."""
    ws.write_dynamic_array_formula(
        top, left, top + len(grid) - 1, left + len(grid[0]) - 1, formula, formats[0][0], grid[0][0]
    )
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if (r, c) == (0, 0):
                continue
            fmt = formats[r][c]
            if value == "":
                ws.write_blank(top + r, left + c, None, fmt)  # overwrites XlsxWriter's padding of cached zeros
            elif isinstance(value, str):
                ws.write_string(top + r, left + c, value, fmt)
            else:
                ws.write_number(top + r, left + c, value, fmt)


@dataclass(frozen=True)
class Column:
    """A column of an Excel Table: typed values (``formula`` None) or a calculated column and its cached values.

    ``formula`` uses structured references as Excel stores them (``tblVariants[[#This Row],[Candidate]]``).
    """

    header: str
    values: Sequence[Any]
    fmt: Any
    formula: str | None = None
    width: float = 9
    #: A calculated column of text (TER_CHANGES) whose wrapped text, like a typed one, sets its rows' heights.
    wraps: bool = False
    #: A calculated column whose formula works on arrays without calling bleu-xl (``IF`` over a whole column).
    dynamic: bool = False


def this_row(table: str, column: str) -> str:
    return f"{table}[[#This Row],[{column}]]"


def write_table(ws: Any, name: str, top: int, left: int, columns: Sequence[Column], header: Any) -> int:
    """An Excel Table with its header in row ``top`` (0-based); returns its last row. Excel fills a calculated
    column into every row the table gains, and references to a whole column grow with the table. ``header``: the
    header cells' format (LibreOffice does not draw table styles)."""
    rows = len(columns[0].values)
    last = top + rows
    specs = [
        {"header": c.header, "format": c.fmt, "header_format": header, **({"formula": c.formula} if c.formula else {})}
        for c in columns
    ]
    ws.add_table(top, left, last, left + len(columns) - 1, {"name": name, "style": TABLE_STYLE, "columns": specs})
    for j, column in enumerate(columns):
        ws.set_column(left + j, left + j, column.width)
        for i, value in enumerate(column.values):
            if column.formula is None:
                write_input(ws, top + 1 + i, left + j, value, column.fmt)
            else:  # XlsxWriter wrote the formula with a cached 0; write it again with its real value
                write_formula(ws, top + 1 + i, left + j, column.formula, column.fmt, value, column.dynamic)
    for i in range(rows):
        fit_row(ws, top + 1 + i, typed_texts(columns, i))
    return last


def typed_texts(columns: Sequence[Column], index: int) -> list[tuple[Any, float]]:
    """(text, column width) of the typed (and wrapping calculated) cells of a table's data row ``index``: what sets
    the row's height."""
    return [(c.values[index], c.width) for c in columns if c.formula is None or c.wraps]


def measure_columns(
    table: str, f: dict[str, Any], reference: str, candidate_col: str, pairs: Sequence[tuple[Any, str]]
) -> list[Column]:
    """BLEU-2, p1, p2 and BP as calculated columns of ``table``, for (reference, candidate) pairs."""
    candidate = this_row(table, candidate_col)
    return [
        Column(
            header,
            [cached_value(cells.bleu_cells(ref, cand, measure)) for ref, cand in pairs],
            f["score"],
            f"{name}({reference},{candidate})",
        )
        for header, name, measure in (
            ("BLEU-2", "BLEU2", "bleu"),
            ("p1", "BLEU2_P1", "p1"),
            ("p2", "BLEU2_P2", "p2"),
            ("BP", "BLEU2_BP", "bp"),
        )
    ]


CALCULATED = re.compile(r"<calculatedColumnFormula>([^<]*)</calculatedColumnFormula>")


def mark_array_columns(path: Path, arrays: Collection[str] = ()) -> None:
    """Give every calculated column whose cells are dynamic-array formulas ``array="1"`` ("an array style
    formula", ECMA-376), as Excel-saved workbooks carry it on calculated columns of array formulas: the
    ``<calculatedColumnFormula>`` is what Excel copies into each new row, and a plain one there stands for a
    legacy formula, which Excel 365 shows as ``=@BLEU2(...)``. XlsxWriter has no switch for it, so the table
    parts are rewritten in the closed file (same entries, order and timestamps: still reproducible). ``arrays``:
    the formulas of the calculated columns that work on arrays without calling bleu-xl."""

    def mark(match: re.Match[str]) -> str:
        text = html.unescape(match.group(1))
        dynamic = UDF_CALL.search(text) or text in arrays
        return f'<calculatedColumnFormula array="1">{match.group(1)}</calculatedColumnFormula>' if dynamic else match[0]

    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w") as target:
        for info, data in entries:
            if info.filename.startswith("xl/tables/"):
                data = CALCULATED.sub(mark, data.decode("utf-8")).encode("utf-8")
            target.writestr(info, data)
