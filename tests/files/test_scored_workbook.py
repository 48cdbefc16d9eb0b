"""The scored workbook: its Scores and Summary sheets, values and types kept as they were, text kept as text (never
a formula), awkward text read back exactly by openpyxl, calamine and LibreOffice, valid styles, and a layout that
reads and prints well."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from python_calamine import CalamineWorkbook

from bleu_xl import score
from bleu_xl.excel import cells
from bleu_xl.files.write import scored_workbook as report
from bleu_xl.table import compare as table_compare
from tests.helpers import DDE, FORMULA, INTACTO, REF, SHORT, digest, libreoffice, run, scored, xlsx, xlsx_text

CAND = SHORT


def test_score_workbook(copy_workbook: Path) -> None:
    before = digest(copy_workbook)
    result = run("score", str(copy_workbook))
    assert result.exit_code == 0, result.output
    assert digest(copy_workbook) == before
    out = copy_workbook.with_name("copy-scored.xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Scores", "Summary"]
    ws = book["Scores"]
    header = [c.value for c in ws[1]]
    assert header == [
        "ID",
        "Reference",
        "Candidate",
        "BLEU-2",
        "rank",
        "p1",
        "p1 num",
        "p1 den",
        "p2",
        "p2 num",
        "p2 den",
        "BP",
        "r",
        "c",
        "note",
    ]
    row = [c.value for c in ws[2]]
    s = score(REF, INTACTO)
    assert row[:3] == ["1", REF, INTACTO]
    assert row[3:] == [s.bleu, 1, 0.9, 9, 10, 8 / 9, 8, 9, s.bp, 11, 10, None]
    assert [ws.cell(r, 5).value for r in range(2, 9)] == [
        1,
        2,
        3,
        3,
        None,
        None,
        None,
    ]  # RANK.EQ within a reference: ties share; a candidate alone with its reference has no rank
    assert ws.cell(6, 4).value is None  # blank candidate: blank scores
    assert ws.cell(7, 15).value == "reference has no words"
    # User text stays text: the formula-looking candidates are strings, no formula in the sheet XML.
    assert ws.cell(4, 3).value == FORMULA and ws.cell(4, 3).data_type == "s"
    assert ws.cell(5, 3).value == DDE and ws.cell(5, 3).data_type == "s"
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
        assert "<f>" not in xml and "hyperlink" not in xml.lower().replace("=hyperlink(", "")
    rules = ws.conditional_formatting
    assert any(r.type == "dataBar" for cf in rules for r in cf.rules)
    assert ws.freeze_panes == "A2"
    summary = {r[0].value: r[1].value for r in book["Summary"].iter_rows(max_row=9)}
    assert summary["Scored pairs"] == 5 and summary["Blank candidates"] == 1 and summary["Rows with a note"] == 1
    assert summary["Signature"] == (
        "bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
    )
    assert summary["Corpus BLEU-2"] == pytest.approx(
        cells.corpus_cells(
            [[REF]] * 4 + [["the cat sat"]], [[c] for c in (INTACTO, SHORT, FORMULA, DDE, "the cat sat")]
        )
    )
    assert book["Summary"]._charts, "the score distribution chart"


def test_scored_workbook_layout(tmp_path: Path) -> None:
    multi_line = "Free delivery\non every order"
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND], [REF, multi_line], [REF, None]])
    assert run("score", str(source), "-q").exit_code == 0
    book = openpyxl.load_workbook(tmp_path / "in-scored.xlsx")
    scores, summary = book["Scores"], book["Summary"]
    assert [c.value for c in scores[1]][2:4] == ["BLEU-2", "rank"]  # the rank next to the score
    assert scores["D2"].number_format == "0" and scores["C2"].number_format == "0.0000"
    assert scores["F2"].number_format == "0"  # p1 num: a count
    assert scores["B3"].value == multi_line and scores["B3"].alignment.wrap_text
    assert scores.page_setup.orientation == "landscape"
    assert scores.page_setup.fitToWidth in (None, 1) and scores.page_setup.fitToHeight == 0  # absent means 1
    assert scores.sheet_properties.pageSetUpPr.fitToPage
    assert scores.print_title_rows == "$1:$1"  # the header row on every printed page
    facts = {r[0].value: r[1] for r in summary.iter_rows(max_row=9)}
    assert facts["Rows"].value == 3 and facts["Rows"].number_format == "0"  # a count, not 3.0000
    assert facts["Scored pairs"].value == 2 and facts["Corpus BLEU-2"].number_format == "0.0000"
    assert summary.page_setup.orientation == "landscape" and summary.sheet_properties.pageSetUpPr.fitToPage
    [chart] = summary._charts
    assert chart.anchor._from.col == 2 and chart.anchor._from.row == 0  # beside the label/value pairs


def test_types_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "types.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["ID", "Launch", "Approved", "Reference", "Candidate", "Share", "Price"])
    sheet.write_number(1, 0, 1)
    sheet.write_datetime(1, 1, dt.datetime(2026, 3, 1), book.add_format({"num_format": "dd/mm/yyyy"}))
    sheet.write_boolean(1, 2, True)
    sheet.write_row(1, 3, [REF, CAND])
    sheet.write_number(1, 5, 0.25, book.add_format({"num_format": 9}))  # built-in 0%
    sheet.write_number(1, 6, 12.5, book.add_format({"num_format": '#,##0.00 "€"'}))
    sheet.write_string(0, 7, "Took")
    sheet.write_number(1, 7, 1.5, book.add_format({"num_format": "[h]:mm:ss"}))  # 36 hours
    book.close()
    [row] = scored(path)
    assert row["ID"] == 1 and isinstance(row["ID"], int) and row["Launch"] == "2026-03-01" and row["Approved"] is True
    assert row["Share"] == 0.25 and row["Took"] == "36:00:00"
    csv_out = tmp_path / "types.csv"
    assert run("score", str(path), "-o", str(csv_out), "-q").exit_code == 0
    assert csv_out.read_text(encoding="utf-8-sig").splitlines()[1].startswith('1,"2026-03-01","TRUE"')
    assert run("score", str(path), "-q").exit_code == 0
    scores = openpyxl.load_workbook(tmp_path / "types-scored.xlsx")["Scores"]
    assert scores["A2"].value == 1 and scores["A2"].data_type == "n"
    assert scores["B2"].value == dt.datetime(2026, 3, 1) and scores["B2"].number_format == "dd/mm/yyyy"  # its own
    assert scores["C2"].value is True and scores["C2"].data_type == "b"
    assert scores["F2"].value == 0.25 and scores["F2"].number_format == "0%"
    assert scores["G2"].value == 12.5 and scores["G2"].number_format == '#,##0.00 "€"'
    assert scores["H2"].value == dt.timedelta(hours=36) and scores["H2"].number_format == "[h]:mm:ss"
    assert scores["I1"].value == "BLEU-2" and scores["I2"].number_format == "0.0000"


def test_dates_times_and_durations_are_scored_as_the_text_the_outputs_show(tmp_path: Path) -> None:
    from bleu_xl.excel.cell_values import cell_text

    path = tmp_path / "times.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    formats = ["[h]:mm:ss", "[h]:mm:ss", "hh:mm:ss", "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"]
    for r, (shown, serial, number_format) in enumerate(
        zip(
            ["36:00:00", "-12:00:00", "18:00:00", "2025-12-09", "2025-12-09 06:00:00"],
            [1.5, -0.5, 0.75, 46000, 46000.25],
            formats,
        ),
        start=1,
    ):
        sheet.write_string(r, 0, shown)
        sheet.write_number(r, 1, serial, book.add_format({"num_format": number_format}))
    book.close()
    rows = scored(path)
    # Each candidate is the very text its reference holds, as CSV and JSON write it: a perfect score.
    assert [row["Candidate"] for row in rows] == [row["Reference"] for row in rows]
    assert [row["BLEU-2"] for row in rows] == [1] * len(rows)
    # A duration to the nearest second, halves up, as [h]:mm:ss shows it.
    assert [cell_text(dt.timedelta(seconds=s)) for s in (0.5, 0.49, -0.5, 86400 * 3 + 59.5)] == [
        "0:00:01",
        "0:00:00",
        "-0:00:01",
        "72:01:00",
    ]


def test_two_columns_with_the_same_number_format_share_one_valid_style(tmp_path: Path) -> None:
    source = xlsx(
        tmp_path / "twodates.xlsx",
        [
            ["Start", "End", "Reference", "Candidate", "Price", "Cost"],
            [dt.date(2024, 1, 1), dt.date(2024, 2, 1), REF, CAND, 1.5, 2.25],
            [dt.date(2024, 3, 1), dt.date(2024, 4, 1), REF, REF, 3.0, 4.125],
        ],
        sheet="Data",
        formats={f"{c}{r}": ("DD/MM/YYYY" if c in "AB" else "0.00") for c in "ABEF" for r in (2, 3)},
    )
    out = tmp_path / "scored.xlsx"
    result = run("score", str(source), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as archive:
        sheet_xml = archive.read("xl/worksheets/sheet1.xml").decode()
        styles_xml = archive.read("xl/styles.xml").decode()
    cell_xfs = re.search(r'<cellXfs count="(\d+)"', styles_xml)
    assert cell_xfs
    styles = re.findall(r' s="([^"]*)"', sheet_xml)
    assert styles and all(s.isdigit() and int(s) < int(cell_xfs.group(1)) for s in styles), sorted(set(styles))
    scores = openpyxl.load_workbook(out)["Scores"]
    second = [(cell.value, cell.number_format) for cell in scores[2][:6]]
    assert second == [
        (dt.datetime(2024, 1, 1), "DD/MM/YYYY"),
        (dt.datetime(2024, 2, 1), "DD/MM/YYYY"),
        (REF, "General"),
        (CAND, "General"),
        (1.5, "0.00"),
        (2.25, "0.00"),
    ]
    assert [(cell.value, cell.number_format) for cell in scores[3][4:6]] == [(3, "0.00"), (4.125, "0.00")]


AWKWARD = [
    "tab\there, new\nline",
    "control \x01\x02\x0b chars",
    "literal _x0041_ escape",
    "<b>&amp; not markup</b>",
    "  leading and trailing  ",
    "emoji 🎉 and 東京",
    "=1+1",
    "@SUM(A1)",
]


def test_streamed_rows_read_back_exactly(tmp_path: Path) -> None:
    path = xlsx_text(tmp_path / "awkward.xlsx", [["Reference", "Candidate", "n"], *[[REF, t, 7.5] for t in AWKWARD]])
    assert run("score", str(path), "-q").exit_code == 0
    out = tmp_path / "awkward-scored.xlsx"
    ws = openpyxl.load_workbook(out)["Scores"]
    got = [ws.cell(r, 2).value for r in range(2, 2 + len(AWKWARD))]
    # XML cannot hold control characters: they are stored as Excel's _xHHHH_ escapes, which Excel and calamine
    # read back; openpyxl shows the escape itself (as it does for XlsxWriter's own files).
    assert got[1:3] == ["control _x0001__x0002__x000B_ chars", "literal _x005F_x0041_ escape"]
    assert got[:1] + got[3:] == AWKWARD[:1] + AWKWARD[3:]
    assert [ws.cell(r, 3).value for r in range(2, 2 + len(AWKWARD))] == [7.5] * len(AWKWARD)
    assert ws.cell(2, 4).value == score(REF, AWKWARD[0]).bleu
    assert ws.cell(2, 4).number_format == "0.0000"
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Scores").to_python()
    assert [row[1] for row in rows[1:]] == AWKWARD
    assert len(rows) == 1 + len(AWKWARD) and rows[0][3] == "BLEU-2"


def test_cr_and_control_characters_round_trip_through_the_scored_workbook(tmp_path: Path) -> None:
    texts = ["a\rb", "a\r\nb", "tab\there", "x_x000D_y", "bell\x07"]
    path = xlsx_text(tmp_path / "cr.xlsx", [["Reference", "Candidate"], *([REF, text] for text in texts)])
    assert CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Copy").to_python()[1][1] == "a\rb"
    assert run("score", str(path), "-q").exit_code == 0
    out = tmp_path / "cr-scored.xlsx"
    read_back = [row[1] for row in CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Scores").to_python()[1:]]
    assert read_back == texts
    assert openpyxl.load_workbook(out)["Scores"]["B2"].value == "a\rb"


def test_libreoffice_reads_the_scored_workbook(copy_workbook: Path, tmp_path: Path) -> None:
    import csv

    assert run("score", str(copy_workbook), "-q").exit_code == 0
    shown = libreoffice(
        tmp_path, "csv:Text - txt - csv (StarCalc):44,34,76", copy_workbook.with_name("copy-scored.xlsx")
    )
    with open(shown / "copy-scored.csv", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:4] == ["ID", "Reference", "Candidate", "BLEU-2"]
    assert rows[1][2] == INTACTO and rows[1][3] == f"{score(REF, INTACTO).bleu:.4f}"  # as the 0.0000 format shows
    assert rows[3][2] == FORMULA and rows[4][2] == DDE  # text in LibreOffice too, never evaluated


def _libreoffice_csv(tmp_path: Path, *books: Path) -> dict[str, list[list[str]]]:
    """Each workbook's first sheet as LibreOffice shows its cells (its CSV export writes what a cell shows)."""
    import csv

    folder = libreoffice(tmp_path, "csv:Text - txt - csv (StarCalc):44,34,76", *books)
    shown = {}
    for book in books:
        with open(folder / book.with_suffix(".csv").name, encoding="utf-8") as handle:
            shown[book.name] = list(csv.reader(handle))
    return shown


FORMATTED_ROWS = 1_200  # past the 1,000 rows whose formats were once sampled


def _formatted_workbook(path: Path) -> Path:
    """A copy sheet as users export it: a date in a title row above the header, and columns whose number
    formats change from cell to cell (a date, then a plain number; a percentage, then a price), one past row
    1,000; the candidate column holds a date and a percentage too."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    fmt = {code: book.add_format({"num_format": code}) for code in ("dd/mm/yyyy", "0%", "#,##0.00 [$€-1]", "0.000")}
    fmt |= {code: book.add_format({"num_format": code}) for code in ("[h]:mm:ss", "hh:mm", "yyyy-mm-dd hh:mm")}
    sheet.write_string(0, 0, "Exported")
    sheet.write_datetime(0, 2, dt.datetime(2026, 3, 1), fmt["dd/mm/yyyy"])  # above the Clicks column
    sheet.write_row(2, 0, ["Reference", "Candidate", "Clicks", "Launch", "Price", "Took"])
    for r in range(3, 3 + FORMATTED_ROWS):
        sheet.write_string(r, 0, REF)
        sheet.write_string(r, 1, CAND)
        sheet.write_number(r, 2, 1520 + r)  # General: shown as the number, never as the title's date
    sheet.write_datetime(3, 3, dt.datetime(2026, 3, 1), fmt["dd/mm/yyyy"])
    sheet.write_number(4, 3, 19.99)
    sheet.write_string(5, 3, "TBD")
    sheet.write_number(3, 4, 0.5, fmt["0%"])
    sheet.write_number(4, 4, 3)
    sheet.write_number(5, 4, 1234.5, fmt["#,##0.00 [$€-1]"])
    sheet.write_number(1100, 4, 2.5, fmt["0.000"])
    sheet.write_number(1101, 4, 7)
    sheet.write_number(3, 5, 1.5, fmt["[h]:mm:ss"])
    sheet.write_number(4, 5, 1.25, fmt["hh:mm"])  # 30 hours as a time of day: the reader gives 1900-01-01 06:00
    sheet.write_number(5, 5, 46000.25, fmt["yyyy-mm-dd hh:mm"])
    sheet.write_datetime(6, 1, dt.datetime(2025, 12, 9), fmt["dd/mm/yyyy"])  # candidates that are not text
    sheet.write_number(7, 1, 0.5, fmt["0%"])
    book.close()
    return path


def test_each_number_shows_in_its_own_cells_format(tmp_path: Path) -> None:
    """Every input cell of the scored workbook shows as the same cell of the input does (LibreOffice is the
    judge), whatever format the cells above it or a title row had; the candidates show the text scored."""
    source = _formatted_workbook(tmp_path / "formats.xlsx")
    out = tmp_path / "formats-scored.xlsx"
    result = run("score", str(source), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    shown = _libreoffice_csv(tmp_path, source, out)
    given, written = shown[source.name][2:], shown[out.name]
    assert len(written) == len(given) == FORMATTED_ROWS + 1
    for before, after in zip(given, written):
        assert after[2:6] == (before + [""] * 6)[2:6], (before, after)
    assert [row[2] for row in written[1:3]] == ["1523", "1524"]  # the title's date format is no column's
    assert [row[3] for row in written[1:4]] == ["01/03/2026", "19.99", "TBD"]
    assert [row[4] for row in written[1:4]] == ["50%", "3", "1,234.50 €"]
    assert [row[4] for row in written[1098:1100]] == ["2.500", "7"]
    from bleu_xl.excel.cell_values import cell_text

    scored_text = [cell_text(row["Candidate"]) for row in scored(source)]
    assert [row[1] for row in written[1:]] == scored_text  # the candidates as scored: the text JSON shows
    assert scored_text[3:5] == ["2025-12-09", "0.5"]
    scores = openpyxl.load_workbook(out)["Scores"]
    assert scores["B5"].data_type == "s" and scores["B6"].value == 0.5 and scores["B6"].number_format == "General"


def test_number_formats_cost_a_run_per_change_down_a_column(tmp_path: Path) -> None:
    from tests.helpers import read_sheet

    source = _formatted_workbook(tmp_path / "formats.xlsx")
    formats = read_sheet(str(source)).cell_formats
    assert 0 not in formats.runs  # a column without numbers, or of General numbers only, keeps nothing
    assert [len(formats.runs[col][0]) for col in (1, 2, 3, 4, 5)] == [2, 2, 2, 5, 3]
    assert formats.at(0, 2) == "dd/mm/yyyy" and formats.at(3, 2) == formats.at(1202, 2) == 0  # the title's, then
    assert formats.at(6, 1) == "dd/mm/yyyy" and formats.at(7, 1) == "0%"  # text between takes no format
    assert formats.at(3, 4) == "0%" and formats.at(4, 4) == 0 and formats.at(5, 4) == "#,##0.00 [$€-1]"
    assert formats.at(1100, 4) == "0.000" and formats.at(1101, 4) == 0


def test_cells_out_of_row_order_show_in_general(tmp_path: Path) -> None:
    """The reader places cells by their reference, in any order; a column whose cells come out of order keeps no
    formats (each would need its own), so its numbers show in General, never in another cell's format."""
    from tests.files import parts
    from tests.helpers import read_sheet

    styles = (
        f'{parts.HEAD}<styleSheet xmlns="{parts.MAIN_NS}"><numFmts count="1"><numFmt numFmtId="164" '
        'formatCode="0.000"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="10"/>'
        "</cellXfs></styleSheet>"
    )
    header = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Reference</t></is></c><c r="B1" t="inlineStr"><is><t>'
        'Candidate</t></is></c><c r="C1" t="inlineStr"><is><t>n</t></is></c></row>'
    )
    body = (
        f'<row r="3"><c r="A3" t="inlineStr"><is><t>{parts.REF}</t></is></c><c r="B3" t="inlineStr"><is><t>'
        f'{parts.CAND}</t></is></c><c r="C3" s="2"><v>0.25</v></c></row>'
        f'<row r="2"><c r="A2" t="inlineStr"><is><t>{parts.REF}</t></is></c><c r="B2" t="inlineStr"><is><t>'
        f'{parts.CAND}</t></is></c><c r="C2" s="1"><v>2</v></c></row>'
    )
    path = parts.workbook(
        tmp_path / "order.xlsx",
        header + body,
        **{
            "xl/styles.xml": styles,
            "xl/_rels/workbook.xml.rels": parts.rels(
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "styles", "styles.xml")
            ),
        },
    )
    assert read_sheet(str(path)).cell_formats.runs == {}
    assert run("score", str(path), "-q").exit_code == 0
    scores = openpyxl.load_workbook(tmp_path / "order-scored.xlsx")["Scores"]
    assert [(scores[f"C{r}"].value, scores[f"C{r}"].number_format) for r in (2, 3)] == [
        (2, "General"),
        (0.25, "General"),
    ]


def test_report_signatures_have_real_types() -> None:
    import typing

    for function in (report.write_comparison_workbook, report.write_scored_workbook, report.write_cell):
        hints = typing.get_type_hints(function)
        assert typing.Any not in [hint for name, hint in hints.items() if name not in {"value"}], function
    hints = typing.get_type_hints(report.write_comparison_workbook)
    assert (hints["header"], hints["comparison"]) == (list[str], table_compare.Comparison)


def test_the_scored_workbook_keeps_the_inputs_widths_and_shows_the_reference_text(tmp_path: Path) -> None:
    """The user's column widths stay as they were (a column they left alone is wide enough for text), and the
    Summary shows the reference typed once, not only the cell it is in."""
    path = xlsx(tmp_path / "widths.xlsx", [["ID", "Reference", "Candidate"], [1, REF, CAND], [2, None, INTACTO]])
    book = openpyxl.load_workbook(path)
    book["Copy"].column_dimensions["A"].width = 6.5
    book["Copy"].column_dimensions["C"].width = 61.25
    book.save(path)
    assert run("score", str(path), "-q").exit_code == 0
    out = openpyxl.load_workbook(tmp_path / "widths-scored.xlsx")
    widths = {letter: out["Scores"].column_dimensions[letter].width for letter in "ABC"}
    assert widths["A"] == pytest.approx(6.5, abs=0.2) and widths["C"] == pytest.approx(61.25, abs=0.2)
    assert widths["B"] == pytest.approx(40.7, abs=0.1)  # the input gave none
    facts = {row[0]: row[1] for row in out["Summary"].iter_rows(values_only=True) if row[0]}
    assert (facts["Reference"], facts["Reference cell"]) == (REF, "B2")


def test_text_that_looks_like_excels_escapes_reads_back_unchanged(tmp_path: Path) -> None:
    """``_x005F_x0041_`` holds two escapes that share an underscore: each is escaped, in the streamed rows and in
    what XlsxWriter writes (headers, the Summary, the reference given), so it reads back as it was typed."""
    odd = "_x005F_x0041_ ok"
    path = tmp_path / "odd.csv"
    path.write_text(f"Reference,Candidate,{odd}\n{odd},{odd} b,{odd} c\na b,a c,a b\n", encoding="utf-8")
    assert run("score", str(path), "-o", str(tmp_path / "s.xlsx"), "-q").exit_code == 0
    assert run("score", str(path), "--reference", odd, "-o", str(tmp_path / "r.xlsx"), "-q").exit_code == 0
    compare = ("compare", str(path), "--a", "Candidate", "--b", "C", "--samples", "20", "-o", str(tmp_path / "c.xlsx"))
    assert run(*compare, "-q").exit_code == 0
    for name in ("s.xlsx", "c.xlsx"):
        rows = CalamineWorkbook.from_path(str(tmp_path / name)).get_sheet_by_name("Scores").to_python()
        assert (rows[0][2], rows[1][:3]) == (odd, [odd, f"{odd} b", f"{odd} c"]), name
    summary = CalamineWorkbook.from_path(str(tmp_path / "r.xlsx")).get_sheet_by_name("Summary").to_python()
    assert [odd] == [row[1] for row in summary if row[0] == "Reference"]


def _written_here_and_by_workers(path: Path, out: Path, monkeypatch) -> tuple[bytes, bytes, list]:
    """The Scores sheet's XML written here and by two forked workers (a part of 7 rows each), and each run's cut
    cells."""
    import bleu_xl
    from bleu_xl.files.write import xlsx_rows

    monkeypatch.setattr(xlsx_rows, "PARALLEL_MIN_ROWS", 0)  # the threshold only: the real pool and workers run
    monkeypatch.setattr(xlsx_rows, "ROWS_PER_PART", 7)  # several parts, the last one short
    metrics = bleu_xl.metrics_named(["bleu", "ter"])  # TER's changes: rich text
    sheets, cuts = [], []
    for workers in (1, 2):
        output = out / f"{path.stem}-{workers}.xlsx"
        done = bleu_xl.score_file(path, output=output, metrics=metrics, workers=workers)
        with zipfile.ZipFile(output) as package:
            sheets.append(package.read("xl/worksheets/sheet1.xml"))
        cuts.append((done.cut_cells.count, done.cut_cells.first))
    return sheets[0], sheets[1], cuts


def test_rows_written_by_worker_processes_are_the_rows_written_here(tmp_path: Path, monkeypatch) -> None:
    """The parallel write (forked workers make the rows' XML, this process compresses it) gives the very sheet the
    serial one does: every kind of cell and number format, rich text, in row order; cells cut to fit are counted
    across parts."""
    path = tmp_path / "many.xlsx"
    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_numbers": False})
    book.calc_on_load = False  # as Excel saves it: the #N/A saved is the formula's own
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["ID", "Launch", "Reference", "Candidate", "Share"])
    percent, date = book.add_format({"num_format": "0%"}), book.add_format({"num_format": "dd/mm/yyyy"})
    for i in range(1, 62):
        sheet.write_number(i, 0, i)
        sheet.write_datetime(i, 1, dt.datetime(2026, 1, 1 + i % 28), date)
        sheet.write_string(i, 2, REF)
        candidate = [AWKWARD[i % len(AWKWARD)], "", "#N/A", 2026, REF][i % 5]
        if candidate == "#N/A":
            sheet.write_formula(i, 3, "=NA()", None, "#N/A")
        elif isinstance(candidate, int):
            sheet.write_number(i, 3, candidate)
        elif candidate:
            sheet.write_string(i, 3, candidate)
        sheet.write_number(i, 4, i / 7, percent if i % 3 else None)
    book.close()
    here, forked, _ = _written_here_and_by_workers(path, tmp_path, monkeypatch)
    assert forked == here
    assert b"<r><rPr>" in forked and b't="e"' in forked and b' s="' in forked
    assert len(CalamineWorkbook.from_path(str(tmp_path / "many-2.xlsx")).get_sheet_by_name("Scores").to_python()) == 62

    long_text = "mot " * 9000  # 36,000 characters, over the 32,767 a cell holds: cut, and counted
    csv_path = tmp_path / "long.csv"
    lines = ["Reference,Candidate", *(f"{REF},{long_text if i % 4 == 2 else AWKWARD[0]!r}" for i in range(30))]
    csv_path.write_text("\n".join(lines), encoding="utf-8")
    here, forked, cuts = _written_here_and_by_workers(csv_path, tmp_path, monkeypatch)
    assert forked == here
    assert cuts[0] == cuts[1] and cuts[0][0] == 7 and cuts[0][1] == "B4"
