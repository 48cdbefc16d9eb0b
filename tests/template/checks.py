"""How the template tests read a workbook: quietly with openpyxl, cached values as the workbook stores them, and
formulas as text; the Rank table's checks (everything follows the table, whatever its length); and every cell as
the `formulas` engine computes it with bleu-xl's cell functions, structured references written as A1 ranges."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import openpyxl
import pytest
import schedula as sh
from openpyxl.worksheet.cell_range import CellRange

from bleu_xl import score
from bleu_xl.excel.faces import classic_result, lite_result
from bleu_xl.excel.functions import FUNCTIONS
from bleu_xl.template import build as template
from bleu_xl.template import data as template_data

ROOT = Path(__file__).resolve().parents[2]


WORKBOOKS = ROOT / "workbooks"


TEMPLATE = WORKBOOKS / "bleu2_ranking.xlsx"


ALL_WORKBOOKS = [
    TEMPLATE,
    *(WORKBOOKS / "samples" / f"{name}.xlsx" for name in template_data.SAMPLES),
]  # not *-scored.xlsx


FIRST = template.FIRST


N = len(template_data.RANK_VARIANTS)


LAST = FIRST + N - 1


UDFS = {f.name for f in FUNCTIONS}


CF, CL = template.COMPARE_FIRST, template.COMPARE_FIRST + len(template_data.COMPARE) - 1


STRING = re.compile(r'"[^"]*"')


def load(path: Path, **kwargs) -> openpyxl.Workbook:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl does not know the data-bar extension XlsxWriter writes
        return openpyxl.load_workbook(path, **kwargs)


def cached(*values: float):
    """A value as the workbook stores it: a formula's cached value in full, a plain number (the rest of a spill
    range) with XlsxWriter's 16 significant digits."""
    out = tuple(pytest.approx(v, rel=1e-15, abs=0) for v in values)
    return out[0] if len(out) == 1 else out


def formula_text(value) -> str | None:
    if isinstance(value, openpyxl.worksheet.formula.ArrayFormula):
        return value.text
    return value if isinstance(value, str) and value.startswith("=") else None


# --- the Rank table follows its rows -----------------------------------------------------------------------------


RANK_FORMULAS = {
    "#": "ROW()-ROW(tblVariants[[#Headers],[Candidate]])",
    "BLEU-2": "BLEU2(Reference,tblVariants[[#This Row],[Candidate]])",
    "chrF": "CHRF(Reference,tblVariants[[#This Row],[Candidate]])",
    "p1": "BLEU2_P1(Reference,tblVariants[[#This Row],[Candidate]])",
    "p2": "BLEU2_P2(Reference,tblVariants[[#This Row],[Candidate]])",
    "BP": "BLEU2_BP(Reference,tblVariants[[#This Row],[Candidate]])",
    "Tokens": 'IF(tblVariants[[#This Row],[Candidate]]="","",IFERROR(N(INDEX(BLEU2_DETAIL('
    "tblVariants[[#This Row],[Candidate]],tblVariants[[#This Row],[Candidate]]),1,10)),IF(ERROR.TYPE(BLEU2_DETAIL("
    "tblVariants[[#This Row],[Candidate]],tblVariants[[#This Row],[Candidate]]))=3,0,BLEU2_DETAIL("
    "tblVariants[[#This Row],[Candidate]],tblVariants[[#This Row],[Candidate]]))))",
    "Rank": "IF(ISNUMBER(tblVariants[[#This Row],[BLEU-2]]),1+SUM(IF(ISNUMBER(tblVariants[BLEU-2]),"
    'IF(tblVariants[BLEU-2]>tblVariants[[#This Row],[BLEU-2]],1,0),0)),"")',
}


def check_rank_follows_table(path: Path, n: int) -> None:
    """The table covers every variant; every row has every calculated column; names, RANK's range, the data bar,
    the best candidate and the Sorted view (and so the chart, which plots the Sorted view's spill) refer to the
    table or to whole columns, so they cover every row of it."""
    book = load(path)
    rank = book["Rank"]
    table = rank.tables["tblVariants"]
    last = FIRST + n - 1
    assert table.ref == f"A{FIRST - 1}:I{last}"
    headers = [c.name for c in table.tableColumns]
    assert headers == ["#", "Candidate", "BLEU-2", "chrF", "p1", "p2", "BP", "Tokens", "Rank"]
    for column in table.tableColumns:
        if column.name != "Candidate":
            formula = column.calculatedColumnFormula
            assert formula.attr_text == RANK_FORMULAS[column.name]
            # what Excel copies into a new row: a dynamic array wherever the cells are one
            assert bool(formula.array) == (column.name != "#"), column.name
    for row in range(FIRST, last + 1):
        for c, header in enumerate(headers):
            if header != "Candidate":
                assert formula_text(rank.cell(row, c + 1).value) == "=" + RANK_FORMULAS[header], (row, header)
    assert rank[f"C{last + 1}"].value is None
    tables = {"tblVariants": ("Rank", CellRange(table.ref), headers)}
    names = {"Reference": "Rank!$B$2", "Candidates": "tblVariants[Candidate]", "Scores": "tblVariants[BLEU-2]"}
    for name, text in names.items():
        assert book.defined_names[name].attr_text == text
    assert to_a1(names["Scores"], tables, None) == f"Rank!$C${FIRST}:$C${last}"
    assert to_a1(names["Candidates"], tables, None) == f"Rank!$B${FIRST}:$B${last}"
    assert formula_text(rank["B3"].value) == (
        '=IF(COUNT(tblVariants[BLEU-2])=0,"",INDEX(tblVariants[Candidate],MATCH(MAX(IF(ISNUMBER('
        "tblVariants[BLEU-2]),tblVariants[BLEU-2])),tblVariants[BLEU-2],0)))"
    )
    bars = [str(cf.sqref) for cf in rank.conditional_formatting if any(r.type == "dataBar" for r in cf.rules)]
    assert bars == [f"C{FIRST}:C1048576", f"D{FIRST}:D1048576"]  # whole columns below the header: any length
    sorted_sheet = book["Sorted"]
    sorted_view = sorted_sheet["A4"].value
    assert sorted_view.text == "=" + template.SORTED_VIEW.replace("SORTBY(", "_xlfn.SORTBY(").replace(
        "FILTER(", "_xlfn._xlws.FILTER("
    )
    assert not re.search(r"\$?\b[A-Z]{1,3}\$?\d+", STRING.sub('""', template.SORTED_VIEW))  # table references only
    for name, column in template.SORTED_CHART_NAMES.items():
        assert sorted_sheet.defined_names[name].attr_text == f"INDEX(_xlfn.ANCHORARRAY(Sorted!$A$4),0,{column})"
        assert name not in book.defined_names  # local to the Sorted sheet, as the chart refers to it


# --- a formula engine: structured references evaluated as the ranges they stand for ---------------------------------


_STRUCTURED = re.compile(
    r"(tbl\w+)\[(?:\[#This Row\],\[([^\]]+)\]|\[#Headers\],\[([^\]]+)\]|\[([^\]]+)\]:\[([^\]]+)\]|([^\[\]]+))\]"
)


def to_a1(formula: str, tables: dict, row: int | None) -> str:
    """A formula with its structured references written as A1 ranges (the `formulas` engine knows no tables)."""

    def column(table, name):
        sheet, box, names = tables[table]
        letter = openpyxl.utils.get_column_letter(box.min_col + names.index(name.replace("'#", "#")))
        return sheet, box, letter

    def replace(m):
        table, this, header, start, end, whole = m.groups()
        if this:
            sheet, _, letter = column(table, this)
            return f"{sheet}!{letter}{row}"
        if header:
            sheet, box, letter = column(table, header)
            return f"{sheet}!${letter}${box.min_row}"
        first, last = (start, end) if start else (whole, whole)
        sheet, box, a = column(table, first)
        _, _, b = column(table, last)
        return f"{sheet}!${a}${box.min_row + 1}:${b}${box.max_row}"

    return _STRUCTURED.sub(replace, formula)


def _engine_value(v):
    import formulas

    if v is sh.EMPTY:
        return None
    if isinstance(v, formulas.XlError):
        return str(v)
    return v


def _from_engine(x):
    if isinstance(x, np.ndarray):
        return [[_engine_value(v) for v in row] for row in np.atleast_2d(x).tolist()]
    return _engine_value(x)


def _to_engine(result):
    return np.asarray(result, dtype=object) if isinstance(result, list) else result


def _as_lite_gives(fn, *args):
    """A cell function's result as xlwings Lite gives it to Excel: error values, not their texts (a single cell's
    error with a message is raised, and Excel shows #VALUE!)."""
    from formulas.tokens.operand import Error

    try:
        result = lite_result(fn(*map(_from_engine, args)))
    except ValueError:
        return Error.errors["#VALUE!"]
    if isinstance(result, list):
        return np.asarray(
            [[Error.errors.get(v, v) if isinstance(v, str) else v for v in row] for row in result], object
        )
    return Error.errors.get(result, result) if isinstance(result, str) else result


def recalculate(path: Path, tmp: Path, *, lite: bool = False) -> dict:
    """Every cell of the workbook as the `formulas` engine computes it, with bleu-xl's cell functions (their results
    as the classic add-in gives them, or with ``lite`` as xlwings Lite does: errors as error values)."""
    import formulas
    from formulas.functions import get_functions, wrap_func

    book = load(path)
    tables = {
        t.name: (ws.title, CellRange(t.ref), [c.name for c in t.tableColumns])
        for ws in book.worksheets
        for t in ws.tables.values()
    }
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                value = cell.value
                if isinstance(value, openpyxl.worksheet.formula.ArrayFormula):
                    value.text = to_a1(value.text, tables, cell.row)
                elif isinstance(value, str) and value.startswith("="):
                    cell.value = to_a1(value, tables, cell.row)
        ws.tables.clear()
    for name in list(book.defined_names):
        book.defined_names[name].attr_text = to_a1(book.defined_names[name].attr_text, tables, None)
    plain = tmp / path.name
    book.save(plain)

    functions = {f.name: f.call for f in FUNCTIONS}
    registry = get_functions()
    for name, fn in functions.items():
        if lite:
            registry[name] = wrap_func(lambda *args, _fn=fn: _as_lite_gives(_fn, *args))
        else:
            registry[name] = wrap_func(lambda *args, _fn=fn: _to_engine(classic_result(_fn(*map(_from_engine, args)))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solution = formulas.ExcelModel().loads(str(plain)).finish().calculate()
    values = {}
    for key, value in solution.items():
        if "]" in key:  # cells are named like '[bleu2_ranking.xlsx]RANK'!C6; defined names have no book part
            cell = key.split("]", 1)[1].replace("'", "")
            values[cell.upper()] = np.asarray(getattr(value, "value", value), dtype=object)
    return values


def check_engine_rank(values: dict, variants: list[str]) -> None:
    scores = [score(template_data.RANK_REFERENCE, v) for v in variants]
    for i, s in enumerate(scores):
        row = FIRST + i
        got = [values[f"RANK!{c}{row}"][0][0] for c in "ACEFGHI"]
        shown = ["" if v is None else v for v in (s.p1, s.p2)]  # an order left out is a blank cell
        assert got == [i + 1, s.bleu, *shown, s.bp, s.c, 1 + sum(t.bleu > s.bleu for t in scores)], row
    best = max(range(len(variants)), key=lambda i: (scores[i].bleu, -i))
    assert values["RANK!B3"][0][0] == variants[best]
    n = len(variants)
    view = values[f"SORTED!A4:C{3 + n}"]
    order = sorted(range(n), key=lambda i: -scores[i].bleu)
    assert [list(r) for r in view] == [[i + 1, variants[i], scores[i].bleu] for i in order]


def compare_expected():
    from bleu_xl import bootstrap_ci, paired_test

    refs, a, b = (list(col) for col in zip(*template_data.COMPARE))
    return paired_test(refs, a, b), bootstrap_ci(refs, a), bootstrap_ci(refs, b)
