"""The one parse of a sheet part: cells are where the reader puts them, in any form XML allows, and what the reader
drops or misreads is taken from the same pass (issue 24, rows 1, 2 and 6)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from python_calamine import CalamineWorkbook

from bleu_xl.files.read import package as xlsx_package
from bleu_xl.files.read import sheet_scan
from bleu_xl.table.sheet import CellRange, ExcelTable, InputError, column_letter
from tests.helpers import read_sheet

from . import parts

pytestmark = pytest.mark.usefixtures("both_ways_of_checking")

MAIN = parts.MAIN_NS

#: Ways to write a cell's start tag that XML reads alike (the reader too): {col} letters, {row} number.
CELL_FORMS = {
    "excel": '<c r="{col}{row}"{t}>',
    "lower case": '<c r="{lower}{row}"{t}>',
    "single quotes": "<c r='{col}{row}'{t}>",
    "spaces around =": '<c  r = "{col}{row}"{t}>',
    "newline": '<c\nr="{col}{row}"{t}>',
    "r last": '<c{t} s="0" r="{col}{row}">',
    "a > in another attribute": '<c x="a>b" r="{col}{row}"{t}>',
    "leading zeros": '<c r="{col}000{row}"{t}>',
    "prefixed": '<x:c r="{col}{row}"{t}>',
    "no r": "<c{t}>",
}
ROWS = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(1, 60)),  # the row's r (None: one below the previous)
        st.booleans(),  # hidden
        st.lists(st.tuples(st.integers(0, 30), st.sampled_from(sorted(CELL_FORMS))), max_size=5),
    ),
    max_size=10,
)


def cell_xml(col: int, form: str, row: int, value: int) -> str:
    """A number cell, or (every third) an error cell, which the reader reads as a blank."""
    letters = column_letter(col)
    error = value % 3 == 0
    start = CELL_FORMS[form].format(col=letters, lower=letters.lower(), row=row, t=' t="e"' if error else "")
    close = "</x:c>" if form == "prefixed" else "</c>"
    v = "<x:v>{}</x:v>" if form == "prefixed" else "<v>{}</v>"
    return start + v.format("#N/A" if error else value) + close


def build(rows: list) -> tuple[str, dict[tuple[int, int], int], set[int], bool]:
    """The sheet's rows as XML, the value expected at each (row, column), the hidden rows, and whether a cell
    falls where an error cell is (refused): the model of where the reader places cells (its own r, else right of
    the previous cell; a row's r, else one below the previous; the last of two at one place)."""
    xml, expected, hidden = [], {}, set()
    clash = False
    value = 0
    row_index = 0
    for r, is_hidden, cells in rows:
        if r is not None:
            row_index = r - 1
        attributes = (f' r="{r}"' if r is not None else "") + (' hidden="1"' if is_hidden else "")
        if is_hidden:
            hidden.add(row_index)
        body, col_index = [], 0
        for col, form in cells:
            value += 1
            written = col_index if form == "no r" else col
            clash = clash or expected.get((row_index, written), 1) % 3 == 0
            body.append(cell_xml(col, form, row_index + 1, value))
            expected[(row_index, written)] = value
            col_index = written + 1
        xml.append(f"<row{attributes}>{''.join(body)}</row>")
        row_index += 1
    return "".join(xml), expected, hidden, clash


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ROWS)
def test_cells_are_where_the_reader_puts_them_in_any_form(tmp_path: Path, rows: list) -> None:
    cells, expected, hidden, clash = build(rows)
    sheet = parts.sheet_xml(cells, namespaces=f' xmlns:x="{MAIN}"')
    path = parts.workbook(tmp_path / "forms.xlsx", **{"xl/worksheets/sheet1.xml": sheet})
    package = xlsx_package.open_package(path)
    try:
        if clash:
            with pytest.raises(InputError, match="two cells at"):
                sheet_scan.scan_sheet(package, package.sheets[0])
            return
        scan = sheet_scan.scan_sheet(package, package.sheets[0])
    finally:
        package.close()
    grid = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Pairs").to_python(skip_empty_area=False)
    read = {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row) if v != ""}
    numbers = {position: float(value) for position, value in expected.items() if value % 3}
    assert read == numbers  # the reader places the cells as the model does
    assert scan.errors == {position: "#N/A" for position, value in expected.items() if value % 3 == 0}
    assert (scan.rows, scan.cols) == (
        max((r + 1 for r, _ in expected), default=0),
        max((c + 1 for _, c in expected), default=0),
    )
    assert scan.hidden_rows == hidden


@pytest.mark.parametrize(
    ("ref", "position"),
    [
        ("B7", (6, 1)),
        ("xfd1048576", (1_048_575, 16_383)),
        ("xFd3", (2, 16_383)),
        ("XFE1", (0, 16_384)),  # one past the grid: refused by the extent check
        ("AAAA1", (0, 16_384)),
        ("A" + "9" * 40, (1_048_576, 0)),
        ("A" + "0" * 5000 + "12", (11, 0)),  # any number of digits is cheap
    ],
)
def test_references_past_the_grid_are_one_past_its_limit(ref: str, position: tuple[int, int]) -> None:
    assert xlsx_package.cell_position(ref) == position


@pytest.mark.parametrize("ref", ["A0", "7", "A", "", "A1B", "\u00c11", "A-1", "A\u00b2"])
def test_a_reference_the_reader_cannot_read_is_refused(ref: str) -> None:
    with pytest.raises(xlsx_package.BleuXlError, match="cannot read"):
        xlsx_package.cell_position(ref)


def scan_of(tmp_path: Path, cells: str, **overrides: str) -> sheet_scan.SheetScan:
    sheet = overrides.pop("sheet", None) or parts.sheet_xml(cells)
    path = parts.workbook(tmp_path / "scan.xlsx", **{"xl/worksheets/sheet1.xml": sheet, **overrides})
    package = xlsx_package.open_package(path)
    try:
        return sheet_scan.scan_sheet(package, package.sheets[0])
    finally:
        package.close()


def test_one_pass_takes_errors_uncached_formulas_hidden_columns_and_rows(tmp_path: Path) -> None:
    cells = (
        '<row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1"><f>1+1</f></c><c r="C1"><f>A1</f><v></v></c></row>'
        '<row r="2" hidden="1"><c r="A2"><v>1</v></c><c r="B2"><f>1</f><v>1</v></c></row>'
        '<row r="5" hidden="true"><c r="A5" t="e"><v>#DIV/0!</v></c></row>'
    )
    cols = '<cols><col min="2" max="3" hidden="1"/><col min="3" max="5" hidden="1"/><col min="9" max="9"/></cols>'
    scan = scan_of(tmp_path, "", sheet=parts.sheet_xml(cells, head=cols))
    assert scan.errors == {(0, 0): "#N/A", (4, 0): "#DIV/0!"}
    assert scan.uncached == {(0, 1), (0, 2)} and scan.uncached_count == 2
    assert scan.hidden_columns == {1, 2, 3, 4}
    assert scan.hidden_rows == {1, 4}
    assert (scan.rows, scan.cols) == (5, 3)


def test_a_row_of_no_height_is_hidden(tmp_path: Path) -> None:
    """Excel shows a row whose height is 0 as hidden (some tools hide rows so): skip_hidden leaves it out too."""
    cells = "".join(
        f'<row r="{r}"{attrs}>{parts.text_cell(f"A{r}", parts.REF)}{parts.text_cell(f"B{r}", parts.CAND)}</row>'
        for r, attrs in enumerate(
            [
                "",
                ' ht="0" customHeight="1"',
                ' ht="0.0" customHeight="true"',
                ' ht="15" customHeight="1"',
                ' ht=".0" customHeight="1"',
                ' ht="0.5" customHeight="1"',
                ' ht="x" customHeight="1"',
                ' ht="0"',  # a height the application may work out again: LibreOffice shows the row
            ],
            1,
        )
    )
    assert scan_of(tmp_path, "", sheet=parts.sheet_xml(cells)).hidden_rows == {1, 2, 4}


def test_the_totals_rows_of_the_sheets_tables(tmp_path: Path) -> None:
    cells = parts.pair_rows((parts.REF, parts.CAND), (parts.REF, parts.CAND), ("Total", ""))
    sheet = parts.sheet_xml(
        cells, tail='<tableParts count="2"><tablePart r:id="rId1"/><tablePart r:id="rId2"/></tableParts>'
    )
    table = (
        f'{parts.HEAD}<table xmlns="{MAIN}" id="1" name="T1" displayName="T1" ref="{{ref}}" {{totals}}>'
        '<tableColumns count="2"><tableColumn id="1" name="Reference"/><tableColumn id="2" name="Candidate"/>'
        "</tableColumns></table>"
    )
    scan = scan_of(
        tmp_path,
        "",
        sheet=sheet,
        **{
            "xl/worksheets/_rels/sheet1.xml.rels": parts.rels(
                ("rId1", "table", "../tables/table1.xml"), ("rId2", "table", "/xl/tables/table2.xml")
            ),
            "xl/tables/table1.xml": table.format(ref="A1:B4", totals='totalsRowCount="1"'),
            "xl/tables/table2.xml": table.format(ref="D1:E3", totals='totalsRowShown="0"'),  # no totals row
        },
    )
    assert scan.totals_rows == {3}
    assert scan.tables == [ExcelTable("T1", CellRange(0, 0, 3, 1), True), ExcelTable("T1", CellRange(0, 3, 2, 4))]


def test_merged_ranges_are_the_ones_the_reader_reads(tmp_path: Path) -> None:
    cells = parts.pair_rows(*[(parts.REF, parts.CAND)] * 6)
    merges = '<mergeCells count="4"><mergeCell ref="A2:A4"/><mergeCell ref="a5:A7"/><mergeCell ref="C1:D1"/>' + (
        '<mergeCell ref="E9"/></mergeCells>'
    )
    scan = scan_of(tmp_path, "", sheet=parts.sheet_xml(cells, tail=merges))
    assert [str(cells) for cells in scan.merged] == ["A2:A4", "A5:A7", "C1:D1", "E9"]
    reader = CalamineWorkbook.from_path(str(tmp_path / "scan.xlsx")).get_sheet_by_name("Pairs")
    assert [((m.top, m.left), (m.bottom, m.right)) for m in scan.merged] == reader.merged_cell_ranges
    for ref in ("A2:A4:A6", "", "2:4"):
        with pytest.raises(InputError, match="cannot read"):
            scan_of(
                tmp_path, "", sheet=parts.sheet_xml(cells, tail=f'<mergeCells><mergeCell ref="{ref}"/></mergeCells>')
            )


def test_markup_the_reader_reads_otherwise_than_xml_is_refused(tmp_path: Path) -> None:
    """Row 1: a comment that looks like a cell is no cell; CDATA in a text is text; but a comment or a reference
    inside a value, which the reader stops at, is refused."""
    comment = parts.pair_rows((parts.REF, parts.CAND)) + '<!-- <row r="2"><c r="B2" t="e"><v>#N/A</v></c></row> -->'
    scan = scan_of(tmp_path, comment)
    assert scan.errors == {} and (scan.rows, scan.cols) == (2, 2)
    cdata = parts.pair_rows((parts.REF, '<![CDATA[<c r="B2" t="e"><v>#REF!</v></c>]]>'))
    assert scan_of(tmp_path, cdata).errors == {}
    for inside in ("<v>1<!-- -->2</v>", "<v><![CDATA[1]]></v>", "<v>1&#48;</v>", "<v><?pi x?>1</v>"):
        with pytest.raises(InputError, match="readers read differently"):
            scan_of(tmp_path, f'<row r="1"><c r="A1" t="n">{inside}</c></row>')
    # A formula and its value are no two values.
    assert scan_of(tmp_path, '<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>').uncached == set()
    # An empty value of a text result is the text "" (Excel and LibreOffice save =IF(B2="","",B2) so); an empty
    # value of another is none (openpyxl saves every formula so).
    assert scan_of(tmp_path, '<row r="1"><c r="A1" t="str"><f>IF(1,"","")</f><v></v></c></row>').uncached == set()
    assert scan_of(tmp_path, '<row r="1"><c r="A1"><f>IF(1,"","")</f><v></v></c></row>').uncached == {(0, 0)}
    # In a text (a str formula result), a reference is read alike by every reader.
    assert scan_of(tmp_path, '<row r="1"><c r="A1" t="str"><f>x</f><v>a &amp; b</v></c></row>').uncached == set()


@pytest.mark.parametrize(
    "cells",
    [
        '<row r="1"><y:c xmlns:y="urn:other" r="A1"><v>1</v></y:c></row>',
        '<row r="1"><c r="A1"><v>1</v><y:x xmlns:y="urn:other"/></c></row>',
        '<row r="1"><c r="A1"><v>1<b/></v></c></row>',
        '<row r="1"><c r="A1"><c r="B1"/></c></row>',
        '<row r="1"><row r="2"/></row>',
        '<row r="1"><c r="A1" t="e"><v>#BOOM</v></c></row>',
        '<row r="1"><c r="A1" t="s"><v>0</v><v>1</v></c></row>',  # two values: calamine takes the last, openpyxl
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is><is><t>b</t></is></c></row>',  # the first
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is><v>1</v></c></row>',
    ],
)
def test_cells_the_reader_would_take_otherwise_are_refused(tmp_path: Path, cells: str) -> None:
    with pytest.raises(InputError, match=r"refused: xl/worksheets/sheet1\.xml"):
        scan_of(tmp_path, cells)


def test_a_namespace_prefix_means_its_namespace(tmp_path: Path) -> None:
    """Row 3: é: bound to SpreadsheetML is SpreadsheetML; bound elsewhere, a cell in it is refused (the reader
    ignores namespaces and would read it); unbound, the part is not XML."""
    bound = f'<row r="1"><é:c xmlns:é="{MAIN}" r="B1"><é:v>7</é:v></é:c></row>'
    assert (scan_of(tmp_path, bound).cols, scan_of(tmp_path, bound).rows) == (2, 1)
    with pytest.raises(InputError, match="outside SpreadsheetML's namespace"):
        scan_of(tmp_path, '<row r="1"><é:c xmlns:é="urn:x" r="B1"><é:v>7</é:v></é:c></row>')
    with pytest.raises(InputError, match="unbound prefix"):
        scan_of(tmp_path, '<row r="1"><é:c r="B1"><é:v>7</é:v></é:c></row>')


def test_styles_the_reader_reads_as_zero_are_read_so(tmp_path: Path) -> None:
    """Row 10: s="x" and numFmtId="abc" are style 0 and no format, as the reader takes them; never a crash."""
    styles = (
        f'{parts.HEAD}<styleSheet xmlns="{MAIN}"><numFmts count="2"><numFmt numFmtId="abc" formatCode="0.0"/>'
        '<numFmt numFmtId="164" formatCode="0.000"/></numFmts><cellXfs count="3"><xf numFmtId="0"/>'
        '<xf numFmtId="abc"/><xf numFmtId="164"/></cellXfs></styleSheet>'
    )
    cells = (
        parts.pair_rows((parts.REF, parts.CAND))
        + '<row r="3"><c r="A3" s="x"><v>1</v></c><c r="B3" s="1"><v>2</v></c><c r="C3" s="2"><v>3</v></c></row>'
    )
    path = parts.workbook(
        tmp_path / "styles.xlsx",
        cells,
        **{
            "xl/styles.xml": styles,
            "xl/_rels/workbook.xml.rels": parts.rels(
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "styles", "styles.xml")
            ),
        },
    )
    sheet = read_sheet(str(path))
    assert [sheet.cell_formats.at(2, col) for col in range(3)] == [0, 0, "0.000"]
    assert [sheet.cell_formats.used(col) for col in range(3)] == [set(), set(), {"0.000"}]


def test_every_scan_is_linear(tmp_path: Path) -> None:
    """Row 6: the files that made the old scan backtrack or go quadratic take about the time of a plain file of
    the same size (the benchmark measures them at full size: benchmarks/bench_hostile.py)."""
    spaces = 40_000
    hostile = {
        "spaces after a formula": '<row r="1"><c r="A1"><f>1</f>' + " " * spaces + "<v>1</v></c></row>",
        "> in an error cell": '<row r="1">' + '<c t="e" x="a>b" r="A1"><v>#N/A</v></c>' * (spaces // 30) + "</row>",
        "self-closing error cells": '<row r="1">' + '<c r="A1" t="e"/>' * (spaces // 15) + "</row>",
    }
    cols = "<cols>" + '<col min="1" max="16384" hidden="1"/>' * (spaces // 30) + "</cols>"
    plain = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(1, spaces // 28))

    def seconds(sheet: str) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            with contextlib.suppress(InputError):
                scan_of(tmp_path, "", sheet=sheet)
            best = min(best, time.perf_counter() - start)
        return best

    baseline = seconds(parts.sheet_xml(plain))
    for name, cells in hostile.items():
        assert seconds(parts.sheet_xml(cells)) < 3 * baseline + 0.05, name
    assert seconds(parts.sheet_xml("", head=cols)) < 3 * baseline + 0.05
