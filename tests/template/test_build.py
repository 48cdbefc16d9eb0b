"""The template and sample workbooks as the generator writes them, checked with openpyxl: the committed files, the
Rank table and what follows it, the chart, cached values, formulas as Excel 365 stores them, honest cells (styles,
number formats, widths, page setup), hand-checked samples, the verdict, and the column rules reading every sheet."""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path
from zipfile import ZipFile

import openpyxl
import pytest
import xlsxwriter.worksheet
from openpyxl.worksheet.cell_range import CellRange

from bleu_xl import score, ter
from bleu_xl.excel import cells
from bleu_xl.files.read.table import read_table
from bleu_xl.table.compare import compare_table
from bleu_xl.table.layout import ColumnNotFound
from bleu_xl.table.scoring import score_table
from bleu_xl.table.sheet import InputError, TableOptions
from bleu_xl.template import build as template
from bleu_xl.template import data as template_data
from bleu_xl.template import workbook as template_workbook
from tests.template.checks import (
    ALL_WORKBOOKS,
    CF,
    CL,
    FIRST,
    LAST,
    STRING,
    TEMPLATE,
    UDFS,
    WORKBOOKS,
    N,
    cached,
    check_rank_follows_table,
    compare_expected,
    formula_text,
    load,
)


def _workbook_content(path: Path) -> dict:
    """What a workbook says, not how XlsxWriter spells it: every cell's value or formula, array formula, number
    format, fill and width; names, tables, data validations, conditional formats, charts and page setup."""
    book = openpyxl.load_workbook(path)
    content: dict = {"names": sorted((n, d.attr_text) for n, d in book.defined_names.items())}
    for ws in book.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for cell in row:
                value = formula_text(cell.value) or cell.value
                if value is not None or cell.fill.fgColor.rgb not in (None, "00000000"):
                    cells[cell.coordinate] = (value, cell.number_format, cell.fill.fgColor.rgb, cell.font.b)
        content[ws.title] = {
            "cells": cells,
            "widths": {k: d.width for k, d in ws.column_dimensions.items()},
            "tables": sorted((t.name, t.ref, tuple(c.name for c in t.tableColumns)) for t in ws.tables.values()),
            "conditional": sorted(str(rng.sqref) for rng in ws.conditional_formatting),
            "charts": len(ws._charts),
            "setup": (ws.page_setup.orientation, ws.page_setup.fitToWidth, ws.print_title_rows),
            "state": ws.sheet_state,
        }
    return content


def test_committed_workbooks_equal_the_generator(tmp_path: Path) -> None:
    """Compared by content, so that a new XlsxWriter release that writes the same workbook differently does not
    fail this (the bytes depend on its version)."""
    written = template.build_all(tmp_path)
    assert len(written) == 1 + len(template_data.SAMPLES)
    for path in written:
        committed = WORKBOOKS / path.relative_to(tmp_path)
        hint = "run `bleu-xl template workbooks --force`"
        assert committed.exists(), f"{committed} is missing: {hint}"
        assert _workbook_content(committed) == _workbook_content(path), f"{committed} differs: {hint}"


# --- the Rank table and the Sorted view -------------------------------------------------------------------------


def test_rank_is_an_excel_table_with_calculated_columns() -> None:
    check_rank_follows_table(TEMPLATE, N)
    book = load(TEMPLATE)
    rank = book["Rank"]
    headers = ["#", "Candidate", "BLEU-2", "chrF", "p1", "p2", "BP", "Tokens", "Rank"]
    assert [c.value for c in rank[FIRST - 1]][:9] == headers
    assert rank["A2"].value == "Reference" and rank["B2"].value == template_data.RANK_REFERENCE
    assert rank["A3"].value == "Best candidate"
    assert rank.freeze_panes == f"A{FIRST}"
    assert book["Sorted"]["A4"].value.ref == f"A4:C{3 + N}"
    conf = book["xlwings.conf"]
    assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", "bleu_xl.udfs")


def test_the_chart_is_on_the_sorted_sheet_and_plots_its_spill() -> None:
    """A chart series holds fixed ranges, so it plots two names over the Sorted view's spill (A4#): the order the
    sheet shows, as long as the table is."""
    with ZipFile(TEMPLATE) as z:
        sheets = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
        with_drawing = [
            sheets[int(m) - 1]
            for name in z.namelist()
            for m in re.findall(r"sheet(\d+)\.xml\.rels$", name)
            if "drawing" in z.read(name).decode()
        ]
        chart = z.read("xl/charts/chart1.xml").decode()
    assert with_drawing == ["Sorted"]
    assert re.findall(r"<c:f>([^<]*)</c:f>", chart) == ["Sorted!SortedNumbers", "Sorted!SortedScores"]
    book = load(TEMPLATE, data_only=True)
    shown = [[c.value for c in row] for row in book["Sorted"][f"A4:C{3 + N}"]]
    cached_points = [re.findall(r"<c:v>([^<]*)</c:v>", part) for part in chart.split("<c:val>")]
    assert [float(v) for v in cached_points[0][-N:]] == [row[0] for row in shown]  # categories: the # column
    assert [float(v) for v in cached_points[1]] == [cached(row[2]) for row in shown]


# --- cached values -----------------------------------------------------------------------------------------------


def test_cached_values_are_the_core_scores() -> None:
    book = load(TEMPLATE, data_only=True)
    rank = book["Rank"]
    scores = [score(template_data.RANK_REFERENCE, v) for v in template_data.RANK_VARIANTS]
    for i, s in enumerate(scores):
        row = FIRST + i
        assert rank[f"A{row}"].value == i + 1
        assert rank[f"C{row}"].value == cached(s.bleu)
        assert (rank[f"E{row}"].value, rank[f"F{row}"].value, rank[f"G{row}"].value) == cached(s.p1, s.p2, s.bp)
        assert rank[f"H{row}"].value == s.c
        assert rank[f"I{row}"].value == 1 + sum(t.bleu > s.bleu for t in scores)
    assert rank["B3"].value == template_data.RANK_VARIANTS[0]
    order = sorted(range(N), key=lambda i: -scores[i].bleu)
    view = [[c.value for c in row] for row in book["Sorted"][f"A4:C{3 + N}"]]
    assert view == [[i + 1, template_data.RANK_VARIANTS[i], cached(scores[i].bleu)] for i in order]
    spill = book["Spill"]
    assert [c.value for c in spill[FIRST]][2:12] == [1.0, 1.0, 13, 13, 1.0, 12, 12, 1.0, 13, 13]
    pairs = book["Pairs"]
    refs = [r for r, _ in template_data.PAIRS]
    cands = [c for _, c in template_data.PAIRS]
    assert pairs["J2"].value == pytest.approx(cells.corpus_cells([[r] for r in refs], [[c] for c in cands]))
    assert pairs["J6"].value == pytest.approx(cells.ter_corpus_cells([[r] for r in refs], [[c] for c in cands]))
    assert [pairs[f"G{2 + i}"].value for i in range(len(refs))] == [ter(r, c).ter for r, c in template_data.PAIRS]
    assert pairs["H3"].value == "a entrega chegou no prazo {+e o produto veio bem embalado+}"
    assert [c.value for c in book["Pairs"][1]][6:8] == ["TER", "Changes"]
    assert pairs["C3"].value == pytest.approx(math.exp(1 - 11 / 5), abs=1e-15)  # "a entrega chegou no prazo"


def test_compare_sheet_formulas_and_cached_values() -> None:
    ws = load(TEMPLATE)["Compare"]
    assert ws.tables["tblCompare"].ref == f"A{CF - 1}:E{CL}"
    assert [c.value for c in ws[CF - 1]][:5] == ["Reference", "Candidate A", "Candidate B", "BLEU-2 A", "BLEU-2 B"]
    assert formula_text(ws[f"D{CF}"].value) == (
        "=BLEU2(tblCompare[[#This Row],[Reference]],tblCompare[[#This Row],[Candidate A]])"
    )
    paired = ws[f"H{CF}"].value
    assert paired.text == "=BLEU2_PAIRED(tblCompare[Reference],tblCompare[Candidate A],tblCompare[Candidate B])"
    assert paired.ref == f"H{CF}:K{CF}"
    for row, side, other in ((CF + 3, "A", "B"), (CF + 4, "B", "A")):  # over the pairs the paired test compares
        assert ws[f"H{row}"].value.text == (
            f"=BLEU2_CI(tblCompare[Reference],tblCompare[Candidate {side}],0.95,1000,tblCompare[Candidate {other}])"
        )
    sheet = load(TEMPLATE, data_only=True)["Compare"]
    result, ci_a, ci_b = compare_expected()
    assert tuple(sheet.cell(CF, c).value for c in range(8, 12)) == cached(
        result.score_a, result.score_b, result.difference, result.p_value
    )
    assert tuple(sheet.cell(CF + 3, c).value for c in range(8, 11)) == cached(ci_a.low, ci_a.score, ci_a.high)
    assert tuple(sheet.cell(CF + 4, c).value for c in range(8, 11)) == cached(ci_b.low, ci_b.score, ci_b.high)
    # 12 pairs: the bootstrap's verdict says which scores higher and that they are too few, from a cell that counts them
    assert ws[f"G{CF + 5}"].value == "Pairs compared" and sheet[f"H{CF + 5}"].value == len(template_data.COMPARE)
    assert ws[f"H{CF + 5}"].value == "=" + template.pairs_formula("tblCompare")
    assert sheet[f"H{CF + 6}"].value == (
        "B scores higher than A, p < 0.001; only 12 pairs were compared, too few for the paired bootstrap to tell a "
        "real difference from chance (compare 50 or more)"
    )
    assert result.p_value < 0.001 and result.verdict() == sheet[f"H{CF + 6}"].value


def test_spill_sheet_follows_its_table_and_caches_no_zeros() -> None:
    spill = load(TEMPLATE)["Spill"]
    assert spill.tables["tblSpill"].ref == f"B{FIRST - 1}:B{LAST}"
    formula = spill[f"C{FIRST - 1}"].value
    assert formula.text == "=BLEU2_DETAIL($B$2,tblSpill[Candidate],TRUE)" and formula.ref == f"C{FIRST - 1}:L{LAST}"
    grid = cells.detail_cells(template_data.RANK_REFERENCE, [[t] for t in template_data.RANK_VARIANTS], True)
    values = load(TEMPLATE, data_only=True)["Spill"]
    for r, row in enumerate(grid):
        for c, expected in enumerate(row):
            got = values.cell(FIRST - 1 + r, 3 + c).value
            assert got == (cached(expected) if isinstance(expected, float) else expected), (r, c)


# --- formulas as Excel 365 stores them ---------------------------------------------------------------------------


# Excel's functions newer than 2007, as XlsxWriter lists them to prefix them with _xlfn. (or _xlfn._xlws.)


# From 3.3.4 on a table (FUTURE_FUNCTIONS); before it, only in the code that prefixes them.
FUTURE = set(getattr(xlsxwriter.worksheet, "FUTURE_FUNCTIONS", ())) or set(
    re.findall(r'\\b([A-Z0-9.]+)\\\(", "_xlfn\.', inspect.getsource(xlsxwriter.worksheet.Worksheet))
)


_CALL = re.compile(r"((?:_xlfn\.)?(?:_xlws\.)?[A-Za-z_][A-Za-z0-9_.]*)\(")


def all_formulas(path: Path) -> list[tuple[str, str, bool]]:
    """(where, formula, is a dynamic array) for every cell formula, table column formula and defined name."""
    found = []
    with ZipFile(path) as z:
        for name in z.namelist():
            text = z.read(name).decode("utf-8", "replace")
            if name.startswith("xl/worksheets/sheet"):
                for cell, attrs, f_attrs, formula in re.findall(
                    r'<c r="([A-Z]+\d+)"([^>]*)><f([^>]*)>([^<]*)</f>', text
                ):
                    dynamic = 'cm="1"' in attrs and 't="array"' in f_attrs
                    found.append((f"{name}!{cell}", formula, dynamic))
            elif name.startswith("xl/tables/"):
                for attrs, formula in re.findall(r"<calculatedColumnFormula([^>]*)>([^<]*)<", text):
                    found.append((name, formula, 'array="1"' in attrs))
            elif name == "xl/workbook.xml":
                found += [(name, f, False) for f in re.findall(r"<definedName [^>]*>([^<]*)<", text)]
    return [(where, formula.replace("&quot;", '"').replace("&amp;", "&"), d) for where, formula, d in found]


def test_future_function_list_is_read() -> None:
    assert {"RANK.EQ", "SORTBY", "FILTER", "XLOOKUP", "CONCAT"} <= FUTURE and "INDEX" not in FUTURE


@pytest.mark.parametrize("path", ALL_WORKBOOKS, ids=lambda p: p.name)
def test_every_function_is_known_and_prefixed_as_excel_stores_it(path: Path) -> None:
    formulas = all_formulas(path)
    assert path != TEMPLATE or len(formulas) > 100
    for where, formula, _ in formulas:
        for name in _CALL.findall(STRING.sub('""', formula)):
            if name.startswith("_xlfn."):
                assert name.removeprefix("_xlfn.").removeprefix("_xlws.") in FUTURE, (where, name)
            else:
                assert name in UDFS or name not in FUTURE, (where, formula)  # a future function lacks _xlfn.


@pytest.mark.parametrize("path", ALL_WORKBOOKS, ids=lambda p: p.name)
def test_no_implicit_intersection_and_no_locale_dependent_text(path: Path) -> None:
    udf = re.compile(r"\b(" + "|".join(UDFS) + r")\(")
    for where, formula, dynamic in all_formulas(path):
        if udf.search(formula) and where != "xl/workbook.xml":
            # cm="1" in a cell, array="1" in a table's column formula (what Excel copies into a new row):
            # Excel 365 shows it without "@"
            assert dynamic, (where, formula)
        assert not re.search(r"\bTEXT\(", STRING.sub('""', formula).replace("_xlfn.", "")), (where, formula)
    with ZipFile(path) as z:
        workbook = z.read("xl/workbook.xml").decode()
    assert "fullCalcOnLoad" not in workbook and f'calcId="{template_workbook.CALC_ID}"' in workbook


# --- honest cells: styles, number formats, widths, page setup ---------------------------------------------------


INPUT_FILL = "FFFFF2CC"


def _fill(cell) -> str | None:
    return cell.fill.fgColor.rgb if cell.fill.fill_type == "solid" else None


@pytest.mark.parametrize("path", ALL_WORKBOOKS, ids=lambda p: p.name)
def test_input_and_formula_cells_look_different_and_counts_are_integers(path: Path) -> None:
    book = load(path)
    values = load(path, data_only=True)
    formulas = 0
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if formula_text(cell.value):
                    formulas += 1
                    assert _fill(cell) not in (None, INPUT_FILL), (ws.title, cell.coordinate)
                cached_value = values[ws.title][cell.coordinate].value
                number = isinstance(cached_value, (int, float)) and not isinstance(cached_value, bool)
                if number and cached_value == int(cached_value) and cached_value > 1:  # a count, never "13.000"
                    assert cell.number_format in ("0", "General"), (ws.title, cell.coordinate)
                elif number and cached_value != int(cached_value):
                    assert cell.number_format.startswith("0.000"), (ws.title, cell.coordinate)
        for table in ws.tables.values():
            box = CellRange(table.ref)
            for k, column in enumerate(table.tableColumns):
                if column.name in ("Reference", "Candidate", "Candidate A", "Candidate B", "Reference 1"):
                    for r in range(box.min_row + 1, box.max_row + 1):
                        assert _fill(ws.cell(r, box.min_col + k)) == INPUT_FILL, (ws.title, r, column.name)
    assert formulas > 0 or path != TEMPLATE
    if path == TEMPLATE:
        assert _fill(book["Rank"]["B2"]) == INPUT_FILL and _fill(book["Rank"]["B3"]) != INPUT_FILL
        assert book["Spill"][f"E{FIRST}"].number_format == "0" and book["Spill"][f"D{FIRST}"].number_format == "0.000"


def _column_width(ws, letter: str) -> float:
    for dims in ws.column_dimensions.values():
        if dims.min and dims.max and dims.min <= openpyxl.utils.column_index_from_string(letter) <= dims.max:
            return dims.width
    return 8.43


@pytest.mark.parametrize("path", ALL_WORKBOOKS, ids=lambda p: p.name)
def test_widths_show_the_texts(path: Path) -> None:
    """A text fits its column on one line, or wraps in a row tall enough for its lines (texts that may run on
    into empty cells to their right, titles and notes, are not counted)."""
    book = load(path, data_only=True)
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if not isinstance(cell.value, str) or not cell.value:
                    continue
                right = ws.cell(cell.row, cell.column + 1).value
                if right is None and not cell.alignment.wrap_text:
                    continue  # runs on into the empty cell to its right, as a title does
                width = _column_width(ws, cell.column_letter)
                if cell.coordinate in ws.merged_cells:
                    merged = next(r for r in ws.merged_cells.ranges if cell.coordinate in r)
                    width = sum(
                        _column_width(ws, openpyxl.utils.get_column_letter(c))
                        for c in range(merged.min_col, merged.max_col + 1)
                    )
                lines = template_workbook.lines_needed(cell.value, width)
                if lines == 1:
                    continue
                assert cell.alignment.wrap_text, (ws.title, cell.coordinate, cell.value)
                height = ws.row_dimensions[cell.row].height or template_workbook.LINE_HEIGHT
                assert height >= template_workbook.LINE_HEIGHT * lines, (ws.title, cell.coordinate, cell.value)


@pytest.mark.parametrize("path", ALL_WORKBOOKS, ids=lambda p: p.name)
def test_every_sheet_has_a_page_setup(path: Path) -> None:
    book = load(path)
    for ws in book.worksheets:
        assert ws.page_setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert (ws.page_setup.fitToWidth or 1, ws.page_setup.fitToHeight) == (1, 0), ws.title  # 1 is the default
        assert not ws.print_area, ws.title  # the used range prints, so printing follows the tables
        for table in ws.tables.values():
            header = CellRange(table.ref).min_row
            assert ws.print_title_rows == f"${header}:${header}", ws.title


# --- the samples -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(template_data.SAMPLES))
def test_samples_are_tables_with_hand_checked_values(name: str) -> None:
    sheet = load(WORKBOOKS / "samples" / f"{name}.xlsx")["Pairs"]
    rows = list(sheet.iter_rows(values_only=True))
    assert sheet.tables["tblSamples"].ref == f"A1:{openpyxl.utils.get_column_letter(len(rows[0]))}{len(rows)}"
    header = rows[0]
    cand_col = header.index("Candidate")
    expected_col = header.index("expected")
    checked = 0
    for row in rows[1:]:
        refs = [v for v in row[:cand_col] if v]
        cand, expected = row[cand_col], row[expected_col]
        if cand is None:
            assert expected is None
            continue
        assert score(refs, cand).bleu == pytest.approx(expected, rel=0, abs=1e-12), (refs, cand)
        checked += 1
    assert checked >= 3


# --- the verdict -------------------------------------------------------------------------------------------------


HEDGE = "too few for the paired bootstrap to tell a real difference from chance (compare 50 or more)"


def test_verdict_text() -> None:
    """The p-values themselves are checked in tests/core/test_bootstrap.py."""

    def verdict(values: list, pairs: int = 50) -> str:
        return template.verdict_text(values, pairs)

    assert verdict([0.2, 0.7, 0.5, 0.0]) == "B is better than A; the difference is unlikely to be chance, p < 0.001"
    near = verdict([0.2, 0.7, 0.5, 50 / 1001])
    assert near == "B is better than A; the difference is unlikely to be chance, p < 0.05"
    assert verdict([0.2, 0.3, 0.1, 0.05]) == "B scores higher than A, but the difference may well be chance, p = 0.050"
    assert verdict([0.3, 0.2, -0.1, 0.2]) == "A scores higher than B, but the difference may well be chance, p = 0.200"
    assert verdict([0.5, 0.5, 0.0, 1.0]) == "A and B score the same (p = 1.000)"
    assert verdict([""]) == verdict(["", None, None, None]) == ""
    assert verdict(["#VALUE! candidate A has no words"], 3) == "No verdict: #VALUE! candidate A has no words"
    hedge = f"; only 49 pairs were compared, {HEDGE}"
    assert verdict([0.2, 0.7, 0.5, 0.0], 49) == f"B scores higher than A, p < 0.001{hedge}"  # never "is better"
    assert verdict([0.7, 0.2, -0.5, 0.3], 49) == f"A scores higher than B, p = 0.300{hedge}"
    assert verdict([0.5, 0.5, 0.0, 1.0], 1).endswith(f"(p = 1.000); only 1 pair was compared, {HEDGE}")


def test_no_p_value_text_crosses_the_threshold() -> None:
    """For every bootstrap p-value (k/1001) the printed value sits on the same side of 0.05 as the verdict."""
    for k in range(1, 1002):
        p = k / 1001
        text = template.verdict_text([0.2, 0.3, 0.1, p], 60)
        shown = text.rsplit("p ", 1)[1]
        significant = "unlikely to be chance" in text
        assert significant == (p < 0.05), p
        if shown.startswith("="):
            assert (float(shown[2:]) < 0.05) == significant, (p, text)
        else:
            assert significant and shown in ("< 0.001", "< 0.05"), (p, text)


def test_verdict_formula_is_locale_safe() -> None:
    ws = load(TEMPLATE)["Compare"]
    formula = ws[f"H{CF + 6}"].value
    counts = template.one_sided_counts("tblCompare")
    assert formula == "=" + template.verdict_formula(
        f"H{CF}:K{CF}", f"H{CF}", f"J{CF}", f"K{CF}", f"H{CF + 5}", *counts
    )
    assert formula.startswith(f"=IF(COUNT(H{CF}:K{CF})<4,")
    assert '"p = "&FIXED(K4,3)' in formula


# --- the column rules read every sheet ---------------------------------------------------------------------------


def test_the_column_rules_read_every_sheet_of_the_template() -> None:
    """Past the Start here page, Rank is read; Rank and Pairs score with the column rules alone; Compare holds two
    candidate columns, so scoring it needs one named, and comparing its two finds all 12 pairs; a candidate column
    typed wrong on Rank names its real header row and the closest header."""
    table, layout = read_table(str(TEMPLATE))
    assert table.name == "Rank" and layout.candidate_col == 1 and layout.reference_cell == "B2"
    for sheet, n in (("Rank", N), ("Pairs", len(template_data.PAIRS))):
        table, layout = read_table(str(TEMPLATE), TableOptions(sheet=sheet))
        result = score_table(table, layout, workers=1)
        assert len(result.outcomes) == n, sheet
    with pytest.raises(InputError) as raised:
        read_table(str(TEMPLATE), TableOptions(sheet="Compare"))
    assert "could be the candidate" in str(raised.value) and "'Candidate A'" in str(raised.value)
    table, layout = read_table(str(TEMPLATE), TableOptions(sheet="Compare", candidate_col="Candidate A"))
    comparison = compare_table(table, layout, "Candidate B", samples=100)
    assert (comparison.used, comparison.skipped) == (12, 0)
    with pytest.raises(ColumnNotFound) as raised:
        read_table(str(TEMPLATE), TableOptions(sheet="Rank", candidate_col="Candidates"))
    assert "headers found: A '#', B 'Candidate'" in str(raised.value)
    assert "did you mean 'Candidate'?" in str(raised.value)
