"""Builds the ranking template and the sample workbooks (XlsxWriter: Excel Tables, cached values, dynamic arrays).

``bleu-xl template [FOLDER]`` writes ``bleu2_ranking.xlsx`` and ``samples/*.xlsx``; the copies committed under
``workbooks/`` must equal what this writes (a test checks it). Every formula cell carries its computed value,
which Excel shows until it recalculates the cell (LibreOffice recalculates array formulas on open), and the data
sits in Excel Tables whose calculated columns fill themselves down, so no formula, ranking, name or chart
stops at a fixed row.

How the formulas are stored, and why:

- Every formula that calls a bleu-xl function is a dynamic-array formula (``cm="1"``): Excel 365 shows a legacy
  formula that calls a user-defined function as ``=@BLEU2(...)`` (implicit intersection), which never spills.
- Functions newer than Excel 2007 carry their ``_xlfn.`` prefix (XlsxWriter adds it: ``use_future_functions``).
- bleu-xl's functions are stored under their plain names, the way Excel stores a VBA function of the workbook's
  own project. An add-in's function is stored as ``[1]!BLEU2`` with an external link to the add-in's path, which
  differs from machine to machine, and an Office.js custom function (xlwings Lite) as ``_xldudf_BLEU2``, which
  the classic add-in and every other application would not know. Plain names bind wherever the functions are
  registered when the workbook is read; where they are registered later, the README's fix applies.
- No ``fullCalcOnLoad`` and a current ``calcId``: a forced recalculation on open would turn every correct cached
  score into ``#NAME?`` wherever the functions are missing. Excel still recalculates each cell whose input
  changes (calculation stays automatic).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xlsxwriter
from xlsxwriter.utility import xl_rowcol_to_cell

from ..core.bootstrap import NEAR_SIGNIFICANCE, SIGNIFICANCE, bootstrap_ci, paired_test, verdict
from ..core.errors import Setting
from ..excel import cells
from ..excel.cell_values import ColumnKind
from ..excel.faces import classic_result
from ..excel.functions import FUNCTIONS
from ..files.output import write_files
from ..files.xlsx_style import DATA_BAR, SAFE_OPTIONS
from ..table.sheet import InputError
from .data import COMPARE, PAIRS, RANK_REFERENCE, RANK_VARIANTS, SAMPLES
from .text import DEFINITION, START_HERE

__all__ = [
    "CALC_ID",
    "SHEETS",
    "SORTED_CHART_NAMES",
    "SORTED_VIEW",
    "build_all",
    "build_sample",
    "build_template",
    "lines_needed",
    "mark_array_columns",
    "sorted_rows",
    "token_count",
    "token_count_formula",
    "verdict_formula",
    "verdict_text",
    "workbooks",
    "write_workbooks",
]

FIRST = 6  # Excel row of the first candidate on the Rank and Spill sheets (the table header is the row above)
MAX_ROW = 1_048_575  # Excel's last row, 0-based
# Excel 365's calculation engine: a workbook marked as last calculated by it is not recalculated on open.
CALC_ID = 191029

#: The sheets of the template, in order, with what each one is for (the Start here sheet lists them).
SHEETS = ["Start here", "Rank", "Sorted", "Spill", "Pairs", "Compare", "xlwings.conf"]


_CORE_PROPERTIES = {"author": "bleu-xl", "created": dt.datetime(2026, 1, 1)}  # fixed: the files are reproducible
_UDF_CALL = re.compile(r"\b(?:" + "|".join(sorted((f.name for f in FUNCTIONS), key=len, reverse=True)) + r")\(")
LINE_HEIGHT = 15  # points per line of 11-point Calibri
TABLE_STYLE = "Table Style Light 9"


def _book(path: Path) -> Any:
    book = xlsxwriter.Workbook(str(path), {**SAFE_OPTIONS, "use_future_functions": True})
    book.set_properties(_CORE_PROPERTIES)
    book.set_calc_mode("auto", calc_id=CALC_ID)
    book.calc_on_load = False  # no fullCalcOnLoad (see the module docstring); XlsxWriter has no public switch
    return book


def _formats(book: Any) -> dict[str, Any]:
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


def _value(result: Any) -> Any:
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


def _fit_row(ws: Any, row: int, texts: Sequence[tuple[str, float]]) -> None:
    """Give a row the height its wrapped texts need (XlsxWriter cannot measure text; Excel does not on open)."""
    lines = max((lines_needed(text, width) for text, width in texts if isinstance(text, str)), default=1)
    if lines > 1:
        ws.set_row(row, LINE_HEIGHT * lines)


def _text_width(texts: Sequence[Any], least: float, most: float) -> float:
    """A column width that shows the longest text on one line, within ``least`` and ``most`` (then it wraps)."""
    return max(least, min(most, max((display_width(t) + 2 for t in texts if isinstance(t, str)), default=0)))


def _page_setup(ws: Any, header_row: int | None = None) -> None:
    """Landscape A4, as wide as one page, the header row on every page. No fixed print area: Excel and
    LibreOffice print the used range, which grows with the tables."""
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.6)
    if header_row is not None:
        ws.repeat_rows(header_row)


def _write_input(ws: Any, row: int, col: int, value: Any, fmt: Any) -> None:
    """User text as text (never a formula); a blank input cell keeps its input style."""
    if value is None or value == "":
        ws.write_blank(row, col, None, fmt)
    elif isinstance(value, str):
        ws.write_string(row, col, value, fmt)
    else:
        ws.write_number(row, col, value, fmt)


def _write_formula(ws: Any, row: int, col: int, formula: str, fmt: Any, value: Any) -> None:
    """A formula with its cached value; one that calls a bleu-xl function is a dynamic-array formula, so
    Excel 365 shows it without an implicit-intersection ``@``."""
    if _UDF_CALL.search(formula):
        ws.write_dynamic_array_formula(row, col, row, col, formula, fmt, value)
    else:
        ws.write_formula(row, col, formula, fmt, value)


def _write_spill(ws: Any, top: int, left: int, formula: str, grid: list[list[Any]], formats: list[list[Any]]) -> None:
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


def this_row(table: str, column: str) -> str:
    return f"{table}[[#This Row],[{column}]]"


def _table(ws: Any, name: str, top: int, left: int, columns: Sequence[Column], header: Any) -> int:
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
                _write_input(ws, top + 1 + i, left + j, value, column.fmt)
            else:  # XlsxWriter wrote the formula with a cached 0; write it again with its real value
                _write_formula(ws, top + 1 + i, left + j, column.formula, column.fmt, value)
    for i in range(rows):
        _fit_row(ws, top + 1 + i, typed_texts(columns, i))
    return last


def typed_texts(columns: Sequence[Column], index: int) -> list[tuple[Any, float]]:
    """(text, column width) of the typed cells of a table's data row ``index``: what sets the row's height."""
    return [(c.values[index], c.width) for c in columns if c.formula is None]


def _measure_columns(
    table: str, f: dict[str, Any], reference: str, candidate_col: str, pairs: Sequence[tuple[Any, str]]
) -> list[Column]:
    """BLEU-2, p1, p2 and BP as calculated columns of ``table``, for (reference, candidate) pairs."""
    candidate = this_row(table, candidate_col)
    return [
        Column(
            header,
            [_value(cells.bleu_cells(ref, cand, measure)) for ref, cand in pairs],
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


def build_template(path: Path, variants: Sequence[str] = tuple(RANK_VARIANTS)) -> None:
    """The ranking workbook: Start here, Rank, Sorted, Spill, Pairs, Compare and xlwings.conf sheets.

    ``variants``: the candidates of the Rank table (tests build it with 500 to see that everything follows).
    """
    book = _book(path)
    f = _formats(book)
    _start_sheet(book, f)
    scores = _rank_sheet(book, f, list(variants))
    _sorted_sheet(book, f, list(variants), scores)
    _spill_sheet(book, f)
    _pairs_sheet(book, f)
    _compare_sheet(book, f)
    conf = book.add_worksheet("xlwings.conf")
    conf.write_string(0, 0, "UDF Modules")
    conf.write_string(0, 1, "bleu_xl.udfs")
    conf.set_column(0, 1, 16)
    _page_setup(conf)
    book.define_name("Reference", "=Rank!$B$2")
    book.define_name("Candidates", "=tblVariants[Candidate]")
    book.define_name("Scores", "=tblVariants[BLEU-2]")
    book.close()
    mark_array_columns(path)


_CALCULATED = re.compile(r"<calculatedColumnFormula>([^<]*)</calculatedColumnFormula>")


def mark_array_columns(path: Path) -> None:
    """Give every calculated column whose cells are dynamic-array formulas ``array="1"`` ("an array style
    formula", ECMA-376), as Excel-saved workbooks carry it on calculated columns of array formulas: the
    ``<calculatedColumnFormula>`` is what Excel copies into each new row, and a plain one there stands for a
    legacy formula, which Excel 365 shows as ``=@BLEU2(...)``. XlsxWriter has no switch for it, so the table
    parts are rewritten in the closed file (same entries, order and timestamps: still reproducible)."""

    def mark(match: re.Match[str]) -> str:
        dynamic = _UDF_CALL.search(match.group(1).replace("&quot;", '"'))
        return f'<calculatedColumnFormula array="1">{match.group(1)}</calculatedColumnFormula>' if dynamic else match[0]

    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w") as target:
        for info, data in entries:
            if info.filename.startswith("xl/tables/"):
                data = _CALCULATED.sub(mark, data.decode("utf-8")).encode("utf-8")
            target.writestr(info, data)


START_LABEL_WIDTH = 24
START_TEXT_WIDTH = 110


def _start_sheet(book: Any, f: dict[str, Any]) -> None:
    """What the workbook does, how to install the functions, what each sheet is for, in three languages; then
    every registered function. Each language starts a printed page."""
    ws = book.add_worksheet("Start here")
    ws.set_column(0, 0, START_LABEL_WIDTH)
    ws.set_column(1, 1, START_TEXT_WIDTH)
    ws.write_string(0, 0, "bleu-xl: BLEU-2 scores for copy variants and translations, in Excel", f["title"])
    r = 2
    breaks = []
    for language, rows in START_HERE:
        if r > 2:
            breaks.append(r)
        ws.write_string(r, 0, language, f["section"])
        r += 1
        for label, text in rows:
            ws.write_string(r, 0, label, f["label"])
            ws.write_string(r, 1, text, f["wrap"])
            _fit_row(ws, r, [(label, START_LABEL_WIDTH), (text, START_TEXT_WIDTH)])
            r += 1
        r += 1
    breaks.append(r)
    ws.write_string(r, 0, "Functions", f["section"])
    ws.write_string(
        r, 1, "Syntax: what it gives (the same in every language; French and Portuguese Excel use ;)", f["section"]
    )
    r += 1
    for function in FUNCTIONS:
        text = f"{function.syntax}: {function.description}"
        ws.write_string(r, 0, function.name, f["label"])
        ws.write_string(r, 1, text, f["wrap"])
        _fit_row(ws, r, [(text, START_TEXT_WIDTH)])
        r += 1
    r += 1
    ws.write_string(r, 0, "Definition", f["label"])
    ws.write_string(r, 1, DEFINITION, f["wrap"])
    _fit_row(ws, r, [(DEFINITION, START_TEXT_WIDTH)])
    ws.set_h_pagebreaks(breaks)
    _page_setup(ws)


def _reference_sheet(book: Any, f: dict[str, Any], name: str, title: str) -> Any:
    """A sheet with its title in A1 and the labelled reference input cell in B2 (what the formulas point at)."""
    ws = book.add_worksheet(name)
    ws.write_string(0, 0, title, f["title"])
    ws.write_string(1, 0, "Reference", f["label"])
    ws.write_string(1, 1, RANK_REFERENCE, f["input"])
    return ws


def _rank_sheet(book: Any, f: dict[str, Any], variants: list[str]) -> list[Any]:
    """The tblVariants table (BLEU-2 and chrF, p1, p2, BP, tokens, rank by BLEU-2); returns the BLEU-2 of each
    variant (the Sorted sheet shows them in order)."""
    ws = _reference_sheet(book, f, "Rank", "bleu-xl: rank copy variants against one approved reference")
    ws.write_string(2, 0, "Best candidate", f["label"])
    ws.write_string(
        3, 0, "Type or paste the variants under Candidate: every new row of the table is scored and ranked."
    )
    scores = [_value(cells.bleu_cells(RANK_REFERENCE, v, "bleu")) for v in variants]
    ranked = [s for s in scores if isinstance(s, float)]
    candidate, bleu = this_row("tblVariants", "Candidate"), this_row("tblVariants", "BLEU-2")
    width = _text_width(variants, 40, 80)
    bleu_2, *details = _measure_columns(
        "tblVariants", f, "Reference", "Candidate", [(RANK_REFERENCE, v) for v in variants]
    )
    # chrF beside BLEU-2: a second opinion that credits shared stems (Start here says when to look at which).
    chrf = Column(
        "chrF",
        [_value(cells.chrf_cells(RANK_REFERENCE, v)) for v in variants],
        f["score"],
        f"CHRF(Reference,{candidate})",
    )
    columns = [
        Column(
            "#", list(range(1, len(variants) + 1)), f["integer"], "ROW()-ROW(tblVariants[[#Headers],[Candidate]])", 5
        ),
        Column("Candidate", variants, f["input"], width=width),
        bleu_2,
        chrf,
        *details,
        Column("Tokens", [token_count(v) for v in variants], f["integer"], token_count_formula(candidate), 8),
        Column(
            "Rank",
            [1 + sum(t > s for t in ranked) if isinstance(s, float) else "" for s in scores],
            f["integer"],
            f'IF(ISNUMBER({bleu}),RANK.EQ({bleu},tblVariants[BLEU-2]),"")',  # an error text has no rank
            7,
        ),
    ]
    _table(ws, "tblVariants", FIRST - 2, 0, columns, f["header"])
    ws.set_column(0, 0, 14)  # the labels above the table
    best = variants[scores.index(max(ranked))] if ranked else ""
    _write_formula(
        ws,
        2,
        1,
        'IF(COUNT(tblVariants[BLEU-2])=0,"",'
        "INDEX(tblVariants[Candidate],MATCH(MAX(tblVariants[BLEU-2]),tblVariants[BLEU-2],0)))",
        f["text"],
        best,
    )
    _fit_row(ws, 1, [(RANK_REFERENCE, width)])
    _fit_row(ws, 2, [(best, width)])
    # The data bars cover the whole columns below the header (BLEU-2, chrF), not the table's rows of today: a
    # conditional format's range is fixed in the file, and only numbers get a bar, so the cells below show nothing.
    for column in (2, 3):
        ws.conditional_format(FIRST - 1, column, MAX_ROW, column, DATA_BAR)
    ws.freeze_panes(FIRST - 1, 0)
    _page_setup(ws, FIRST - 2)
    return scores


# Only rows with a number: a blank or error-text BLEU-2 would sort above every score. FILTER's if_empty "" and
# the COUNT guard keep an emptied table from showing #CALC!.
SORTED_VIEW = (
    'IF(COUNT(tblVariants[BLEU-2])=0,"",'
    'SORTBY(FILTER(tblVariants[[\'#]:[BLEU-2]],ISNUMBER(tblVariants[BLEU-2]),""),'
    'FILTER(tblVariants[BLEU-2],ISNUMBER(tblVariants[BLEU-2]),""),-1))'
)


def sorted_rows(variants: Sequence[str], scores: Sequence[Any]) -> list[int]:
    """The table rows (0-based) the Sorted view shows, in its order: those scored with a number, best first,
    ties in table order (SORTBY is stable)."""
    scored = [i for i, s in enumerate(scores) if isinstance(s, (int, float)) and not isinstance(s, bool)]
    return sorted(scored, key=lambda i: -scores[i])


def token_count_formula(candidate: str) -> str:
    """The candidate's own token count, whatever the reference: the non-blank cells of BLEU2_TOKENS's row
    (it gives one blank cell for a text with no words, so that counts 0)."""
    return f'IF({candidate}="","",SUM(IF(BLEU2_TOKENS({candidate})<>"",1,0)))'


def token_count(candidate: Any) -> Any:
    """What :func:`token_count_formula` gives (its cached value): blank for a blank cell, else the number of
    non-blank cells BLEU2_TOKENS gives (an error text passes through BLEU2_TOKENS as one cell, so it counts 1;
    its BLEU-2 cell shows the error)."""
    if candidate is None or candidate == "":
        return ""
    tokens = _value(cells.tokens_cells(candidate))
    row = tokens[0] if isinstance(tokens, list) else [tokens]
    return sum(1 for t in row if t != "")


# The names the Sorted sheet's chart plots: a column of the Sorted view's spill (A4#).
SORTED_CHART_NAMES = {"SortedNumbers": 1, "SortedScores": 3}


def _sorted_sheet(book: Any, f: dict[str, Any], variants: list[str], scores: list[Any]) -> None:
    """The Rank table best first (one SORTBY formula outside the table, so it follows it) and a bar chart."""
    ws = book.add_worksheet("Sorted")
    ws.write_string(0, 0, "The variants of the Rank sheet, best first: one formula that follows the table", f["title"])
    for c, header in enumerate(["#", "Candidate", "BLEU-2"]):
        ws.write_string(2, c, header, f["header"])
    order = sorted_rows(variants, scores)
    grid = [[i + 1, variants[i], scores[i]] for i in order] or [[""]]
    formats = [[f["integer"], f["text"], f["score"]]] * len(grid)
    _write_spill(ws, 3, 0, SORTED_VIEW, grid, formats)
    width = _text_width(variants, 40, 70)
    ws.set_column(0, 0, 5)
    ws.set_column(1, 1, width)
    ws.set_column(2, 2, 9)
    for r, i in enumerate(order):
        _fit_row(ws, 3 + r, [(variants[i], width)])
    n = len(order)
    # The chart plots the spill through two names, so it shows what the sheet shows, in its order, and grows
    # and shrinks with it (a chart series cannot hold a spill reference itself; a name can).
    for name, column in SORTED_CHART_NAMES.items():
        book.define_name(f"Sorted!{name}", f"=INDEX(_xlfn.ANCHORARRAY(Sorted!$A$4),0,{column})")
    chart = book.add_chart({"type": "bar"})
    chart.add_series(
        {
            "name": "BLEU-2",
            "categories": "=Sorted!SortedNumbers",
            "values": "=Sorted!SortedScores",
            "categories_data": [i + 1 for i in order],
            "values_data": [scores[i] for i in order],
            "fill": {"color": "#5B9BD5"},
        }
    )
    chart.set_title({"name": "BLEU-2 by candidate (#), best first"})
    chart.set_legend({"none": True})
    chart.set_x_axis({"min": 0, "max": 1})
    chart.set_y_axis({"reverse": True})
    chart.set_size({"width": 420, "height": min(20 * (n + 2), 600)})
    ws.insert_chart(2, 4, chart)
    ws.freeze_panes(3, 0)
    _page_setup(ws, 2)


def _spill_sheet(book: Any, f: dict[str, Any]) -> None:
    """Candidates in a one-column table, scored by one range formula beside it that grows with the table."""
    title = "The same variants scored by one range formula (scores and counts, no rank): the fast way for long lists"
    ws = _reference_sheet(book, f, "Spill", title)
    width = _text_width(RANK_VARIANTS, 40, 80)
    _table(ws, "tblSpill", FIRST - 2, 1, [Column("Candidate", RANK_VARIANTS, f["input"], width=width)], f["header"])
    grid = _value(cells.detail_cells(RANK_REFERENCE, [[t] for t in RANK_VARIANTS], True))
    kinds = [ColumnKind.SCORE, *(column.kind for column in cells.detail_columns(2))]
    row_formats = [f["integer"] if kind == ColumnKind.COUNT else f["score"] for kind in kinds]
    formats = [[f["header"]] * len(row_formats)] + [row_formats] * (len(grid) - 1)
    _write_spill(ws, FIRST - 2, 2, "BLEU2_DETAIL($B$2,tblSpill[Candidate],TRUE)", grid, formats)
    ws.set_column(0, 0, 10)
    ws.set_column(2, 11, 7)
    _fit_row(ws, 1, [(RANK_REFERENCE, width)])
    ws.freeze_panes(FIRST - 1, 0)
    _page_setup(ws, FIRST - 2)


PAIRS_NOTE_WIDTH = 24


def _pairs_sheet(book: Any, f: dict[str, Any]) -> None:
    """One reference per candidate in the tblPairs table, and the corpus score of the whole table."""
    ws = book.add_worksheet("Pairs")
    refs, cands = (list(col) for col in zip(*PAIRS))
    width = _text_width(refs + cands, 30, 45)
    reference = this_row("tblPairs", "Reference")
    columns = [
        Column("Reference", refs, f["input"], width=width),
        Column("Candidate", cands, f["input"], width=width),
        *_measure_columns("tblPairs", f, reference, "Candidate", PAIRS),
    ]
    _table(ws, "tblPairs", 0, 0, columns, f["header"])
    ws.write_string(0, 7, "Corpus BLEU-2", f["header"])
    corpus = _value(cells.corpus_cells([[r] for r in refs], [[c] for c in cands]))
    _write_formula(ws, 1, 7, "BLEU2_CORPUS(tblPairs[Reference],tblPairs[Candidate])", f["score"], corpus)
    note = "The n-gram counts of all pairs added up, then one score (not an average)."
    ws.write_string(2, 7, note, f["wrap"])
    _fit_row(ws, 2, [(note, PAIRS_NOTE_WIDTH), *typed_texts(columns, 1)])
    ws.set_column(6, 6, 2)
    ws.set_column(7, 7, PAIRS_NOTE_WIDTH)
    ws.freeze_panes(1, 0)
    _page_setup(ws, 0)


COMPARE_FIRST = 4  # Excel row of the first pair (the table header is the row above)
COMPARE_LEFT = 7  # column H: the paired test and the intervals, right of the table
COMPARE_RESULT_WIDTH = 11


def verdict_text(paired: Sequence[Any]) -> str:
    """What the Compare sheet's verdict formula gives (its cached value), from the cells BLEU2_PAIRED fills:
    four numbers (score A, score B, B - A, p-value), or one text ("" or an error text) and blanks."""
    values = list(paired)
    if len(values) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        first = values[0] if values else None
        return f"No verdict: {first}" if isinstance(first, str) and first else ""
    return verdict(values[2], values[3])


def verdict_formula(paired: str, first: str, diff: str, p: str) -> str:
    """The verdict as a formula of BLEU2_PAIRED's cells (``paired``, four wide, ``first`` its first cell) and
    of its difference and p-value cells. No verdict unless all four are numbers: BLEU2_PAIRED gives one text
    (blank or an error) when it cannot test. FIXED, not TEXT(…,"0.000"), whose format string means something
    else under a French or Portuguese locale."""
    p_shown = (
        f'IF({p}<0.001,"p < 0.001",IF(AND({p}>={NEAR_SIGNIFICANCE},{p}<{SIGNIFICANCE}),"p < 0.05","p = "&FIXED({p},3)))'
    )
    return (
        f'IF(COUNT({paired})<4,IF(ISTEXT({first}),IF({first}="","","No verdict: "&{first}),""),'
        f'IF({diff}=0,"A and B score the same ("&{p_shown}&")",'
        f'IF({p}<{SIGNIFICANCE},IF({diff}>0,"B is better than A","A is better than B")&"; the difference is '
        f'unlikely to be chance, "&{p_shown},IF({diff}>0,"B scores higher than A","A scores higher than B")&", '
        f'but the difference may well be chance, "&{p_shown})))'
    )


def _compare_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = book.add_worksheet("Compare")
    top = COMPARE_FIRST - 2  # 0-based header row
    ws.write_string(0, 0, "Which set of candidates is better, and is the difference real?", f["title"])
    refs, cands_a, cands_b = (list(col) for col in zip(*COMPARE))
    width = _text_width(refs + cands_a + cands_b, 20, 36)
    reference = this_row("tblCompare", "Reference")
    columns = [
        Column("Reference", refs, f["input"], width=width),
        Column("Candidate A", cands_a, f["input"], width=width),
        Column("Candidate B", cands_b, f["input"], width=width),
        *(
            Column(
                f"BLEU-2 {side}",
                [_value(cells.bleu_cells(r, c, "bleu")) for r, c in zip(refs, cands)],
                f["score"],
                f"BLEU2({reference},{this_row('tblCompare', f'Candidate {side}')})",
            )
            for side, cands in (("A", cands_a), ("B", cands_b))
        ),
    ]
    _table(ws, "tblCompare", top, 0, columns, f["header"])

    left = COMPARE_LEFT
    paired = paired_test(refs, cands_a, cands_b)
    for c, name in enumerate(["BLEU-2 A", "BLEU-2 B", "B - A", "p-value"], start=left):
        ws.write_string(top, c, name, f["header"])
    ws.write_string(top + 1, left - 1, "Paired test", f["label"])
    formula = "BLEU2_PAIRED(tblCompare[Reference],tblCompare[Candidate A],tblCompare[Candidate B])"
    values = [paired.score_a, paired.score_b, paired.difference, paired.p_value]
    _write_spill(ws, top + 1, left, formula, [values], [[f["score"]] * 4])
    for c, name in enumerate(["low", "score", "high"], start=left):
        ws.write_string(top + 3, c, name, f["header"])
    for k, (side, cands) in enumerate((("A", cands_a), ("B", cands_b))):
        r = top + 4 + k
        ci = bootstrap_ci(refs, cands)
        ws.write_string(r, left - 1, f"{side}: 95% interval", f["label"])
        formula = f"BLEU2_CI(tblCompare[Reference],tblCompare[Candidate {side}])"
        _write_spill(ws, r, left, formula, [[ci.low, ci.score, ci.high]], [[f["score"]] * 3])
    verdict = verdict_text(values)
    hypothesis = "A and B are equally good against these references (paired bootstrap, 1000 resamples)."
    verdict_row, hypothesis_row = top + 7, top + 8
    ws.write_string(verdict_row, left - 1, "Verdict", f["label"])
    ws.merge_range(verdict_row, left, verdict_row, left + 3, "", f["text"])
    score_a, diff, p = (xl_rowcol_to_cell(top + 1, left + k) for k in (0, 2, 3))
    last = xl_rowcol_to_cell(top + 1, left + 3)
    formula = verdict_formula(f"{score_a}:{last}", score_a, diff, p)
    _write_formula(ws, verdict_row, left, formula, f["text"], verdict)
    ws.write_string(hypothesis_row, left - 1, "Null hypothesis", f["label"])
    ws.merge_range(hypothesis_row, left, hypothesis_row, left + 3, hypothesis, f["wrap"])
    for row, text in ((verdict_row, verdict), (hypothesis_row, hypothesis)):
        _fit_row(ws, row, [(text, 4 * COMPARE_RESULT_WIDTH), *typed_texts(columns, row - top - 1)])
    ws.set_column(5, 5, 2)
    ws.set_column(left - 1, left - 1, 16)
    ws.set_column(left, left + 3, COMPARE_RESULT_WIDTH)
    ws.freeze_panes(top + 1, 0)
    _page_setup(ws, top)


def build_sample(path: Path, name: str) -> None:
    """A small workbook of hand-checkable pairs (a table): inputs, the expected BLEU-2 and how it is worked out."""
    title, cases = SAMPLES[name]
    book = _book(path)
    f = _formats(book)
    ws = book.add_worksheet("Pairs")
    width = max(len(refs) for refs, *_ in cases)
    ref_headers = ["Reference"] if width == 1 else [f"Reference {i + 1}" for i in range(width)]
    texts = [t for refs, cand, _, how in cases for t in (*refs, cand, how)]
    text_width = _text_width(texts, 20, 45)
    columns = [
        *(
            Column(header, [refs[k] if k < len(refs) else "" for refs, *_ in cases], f["input"], width=text_width)
            for k, header in enumerate(ref_headers)
        ),
        Column("Candidate", [cand for _, cand, _, _ in cases], f["input"], width=text_width),
        Column("expected", [expected for _, _, expected, _ in cases], f["expected"], width=10),
        Column("by hand", [how for *_, how in cases], f["wrap"], width=text_width),
    ]
    _table(ws, "tblSamples", 0, 0, columns, f["header"])
    ws.freeze_panes(1, 0)
    _page_setup(ws, 0)
    book.set_properties({**_CORE_PROPERTIES, "title": title})
    book.close()


def workbooks(folder: Path) -> list[tuple[Path, Callable[[Path], None]]]:
    """The template and every sample under ``folder``, each with the function that builds it at a given path."""
    samples = [(folder / "samples" / f"{name}.xlsx", functools.partial(build_sample, name=name)) for name in SAMPLES]
    return [(folder / "bleu2_ranking.xlsx", build_template), *samples]


def build_all(folder: Path) -> list[Path]:
    """Build the template and every sample under ``folder`` in place; returns their paths. (``bleu-xl template``
    writes the same :func:`workbooks` through temporary files instead, so that nothing is half-written.)"""
    (folder / "samples").mkdir(parents=True, exist_ok=True)
    books = workbooks(folder)
    for path, build in books:
        build(path)
    return [path for path, _ in books]


def write_workbooks(target: Path, *, force: bool) -> list[Path]:
    """Write the template and the samples into the folder ``target``, or only the template to ``target`` when it
    names an ``.xlsx`` file; all or none, and workbooks already there (perhaps edited) only with ``force``."""
    if target.suffix.lower() == ".xlsx":
        write_files([(target, build_template)], force=force)
        return [target]
    books = workbooks(target)
    existing = [path for path, _ in books if path.exists() or path.is_symlink()]
    for path in existing:
        if not path.is_file():
            raise InputError(f"{path}: not a regular file; bleu-xl writes only regular files")
    if existing and not force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise InputError(
            f"{existing[0]}: already exists{more}; use ", Setting("force", True), " to replace the workbooks"
        )
    (target / "samples").mkdir(parents=True, exist_ok=True)
    write_files(books, force=force)  # through temporary files: a link is replaced, never written through
    return [path for path, _ in books]
