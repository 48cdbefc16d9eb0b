"""Reading a workbook: values as Excel saved them (error cells, formulas saved without values), hidden columns and
sheets, Excel Tables, and a reader that panics, is interrupted or aborts."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from python_calamine import CalamineWorkbook

from bleu_xl import score
from bleu_xl.core.errors import render
from bleu_xl.files.read import workbook as workbook_reader
from bleu_xl.files.read.table import read_table
from bleu_xl.table.scoring import score_table
from bleu_xl.table.sheet import InputError, TableOptions
from tests.helpers import (
    header_rows,
    libreoffice,
    raw_xlsx,
    refused,
    refused_in_process,
    run,
    run_process,
    scored,
    sheet_xml,
    text_cell,
    xlsx,
    xlsx_sheets,
)

pytestmark = pytest.mark.usefixtures("both_ways_of_checking")

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
PAIR = score(REF, CAND).bleu


# --- values as saved ----------------------------------------------------------------------------------------------


def test_error_values_are_reported_as_errors(tmp_path: Path) -> None:
    """Cached #N/A and #DIV/0! as Excel saves them (XlsxWriter writes the formula with its cached error)."""
    path = tmp_path / "errors.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.calc_on_load = False  # as Excel saves it: the values saved are the formulas' own
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    sheet.write_formula(1, 0, "=NA()", None, "#N/A")
    sheet.write_string(1, 1, CAND)
    sheet.write_string(2, 0, REF)
    sheet.write_formula(2, 1, "=1/0", None, "#DIV/0!")
    sheet.write_row(3, 0, [REF, CAND])
    book.close()
    rows = scored(path)
    assert [r["note"] for r in rows] == ["#N/A in the reference", "#DIV/0! in the candidate", None]
    assert rows[0]["Reference"] == "#N/A" and rows[2]["BLEU-2"] == PAIR
    out = tmp_path / "errors-scored.xlsx"
    assert run("score", str(path), "-q").exit_code == 0
    scores = openpyxl.load_workbook(out)["Scores"]
    assert scores["A2"].value == "#N/A" and scores["A2"].data_type == "e"  # still an error cell, not blank
    assert scores["B3"].value == "#DIV/0!" and scores["B3"].data_type == "e"


def test_formulas_saved_without_values_are_detected(tmp_path: Path) -> None:
    """openpyxl saves a formula without its value: every reader sees the cell blank, so the column is refused."""
    path = xlsx(tmp_path / "formulas.xlsx", [["Reference", "Candidate"], ['="' + REF + '"', '="' + CAND + '"']])
    with pytest.raises(InputError) as raised:
        read_table(str(path))
    assert str(raised.value) == (
        "sheet 'Copy': the candidate column B 'Candidate' holds formulas saved without their values (openpyxl saves "
        "formulas so), the first in row 2, which no reader calculates; open the file in Excel, save it, and score it "
        "again"
    )


def xlsxwriter_formulas(path: Path, *, as_excel_saves: bool) -> Path:
    """Candidates and a count as XlsxWriter formulas, saved with the value 0 and fullCalcOnLoad (as XlsxWriter writes
    them), or with their values and without it (as Excel saves them)."""
    book = xlsxwriter.Workbook(str(path))
    book.calc_on_load = not as_excel_saves
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate", "Words"])
    for r, base in enumerate(["Free delivery", "Free returns"], 1):
        sheet.write_string(r, 0, REF)
        text = f"{base} on every order"
        sheet.write_formula(r, 1, f'=CONCATENATE("{base}", " on every order")', None, text if as_excel_saves else 0)
        sheet.write_formula(r, 2, f"=LEN(B{r + 1})", None, len(text) if as_excel_saves else 0)
    book.close()
    return path


def test_formulas_of_a_workbook_calculated_again_on_opening_are_not_read_as_their_saved_zeros(tmp_path: Path) -> None:
    """XlsxWriter saves 0 as every formula's value and asks for them to be calculated on opening: the 0s were scored
    as the candidates, and written as the counts, with no word."""
    path = xlsxwriter_formulas(tmp_path / "made.xlsx", as_excel_saves=False)
    with pytest.raises(InputError) as raised:
        read_table(str(path))
    assert str(raised.value) == (
        "sheet 'Copy': the candidate column B 'Candidate' holds formulas saved with 0 as their value in a workbook "
        "marked to be calculated again on opening (XlsxWriter saves every formula so), the first in row 2, which no "
        "reader calculates; open the file in Excel, save it, and score it again"
    )
    table, _ = read_table(str(path), TableOptions(candidate_col="A", reference_text=REF))
    assert [row[2] for row in table.rows[1:]] == ["", ""]  # the counts read blank, not 0, and a note says so
    [note] = [render(n) for n in table.notes]
    assert note.startswith("4 formulas (the first B2) read blank: formulas saved with 0 as their value in a workbook")
    assert note.endswith("they stay blank in the output; open the file in Excel and save it to keep the values")
    # A workbook marked so whose formulas hold real values (written with them, or edited in place by a library that
    # sets the mark) is read as saved: only XlsxWriter's 0s are taken for no value.
    valued = xlsxwriter_formulas(tmp_path / "valued.xlsx", as_excel_saves=True)
    with zipfile.ZipFile(valued) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"<calcPr ", b'<calcPr fullCalcOnLoad="1" ', 1)
    with zipfile.ZipFile(valued, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    assert b"fullCalcOnLoad" in zipfile.ZipFile(valued).read("xl/workbook.xml")
    assert [row["Candidate"] for row in scored(valued)] == [
        "Free delivery on every order",
        "Free returns on every order",
    ]
    saved = xlsxwriter_formulas(tmp_path / "saved.xlsx", as_excel_saves=True)
    assert [row["Words"] for row in scored(saved)] == [
        len("Free delivery on every order"),
        len("Free returns on every order"),
    ]


# --- hidden columns and sheets, Excel Tables -----------------------------------------------------------------------


def scores(table, layout) -> list[float | None]:
    result = score_table(table, layout, workers=1)
    return [result.value(i) for i in range(len(result.outcomes))]


def test_hidden_columns_are_read_and_never_chosen(tmp_path: Path) -> None:
    rows = [["Reference", "Candidate", "Candidate"], [REF, "old draft text", CAND]]
    path = xlsx(tmp_path / "draft.xlsx", rows, hidden=["B"])
    table, layout = read_table(str(path))
    assert table.hidden_columns == frozenset({1})
    assert layout.candidate_col == 2 and scores(table, layout) == [PAIR]  # the visible C, not the hidden draft
    table, layout = read_table(str(path), TableOptions(candidate_col="B"))
    assert scores(table, layout) == [score(REF, "old draft text").bleu]


COVER = ["Start here: put your references in column A of the Rank sheet"]


def test_hidden_sheets_are_read_only_when_named(tmp_path: Path) -> None:
    """Hidden and very hidden sheets are passed over: after a cover page, and as the first sheet."""
    path = xlsx_sheets(
        tmp_path / "book.xlsx",
        [
            ("Start here", [COVER, [], ["Then run bleu-xl score"]], "visible"),
            ("Old", [["Reference", "Candidate"], ["old", "old"]], "hidden"),
            ("Lists", [["Reference", "Candidate"], ["older", "older"]], "veryHidden"),
            ("Copy", [["Reference", "Candidate"], [REF, CAND]], "visible"),
        ],
    )
    table, layout = read_table(str(path))
    assert table.name == "Copy" and table.hidden_sheets == frozenset({"Old", "Lists"})
    assert render(layout.describe()).startswith("header row 1; candidate B 'Candidate'")
    assert [row[layout.candidate_col] for row in table.rows[layout.data_start :]] == [CAND]

    first_hidden = xlsx_sheets(
        tmp_path / "hidden-first.xlsx",
        [
            ("Old", [["Reference", "Candidate"], ["old", "old"]], "hidden"),
            ("Copy", [["Reference", "Candidate"], [REF, CAND]], "visible"),
        ],
    )
    assert read_table(str(first_hidden))[0].name == "Copy"
    table, layout = read_table(str(first_hidden), TableOptions(sheet="Old"))  # named: read as asked
    assert table.name == "Old" and table.rows[1][layout.candidate_col] == "old"


def test_an_excel_table_under_a_title_and_a_labelled_reference(tmp_path: Path) -> None:
    """The template's Rank layout: a title, the labelled reference, then an Excel Table whose header row holds
    Candidate (and a Rank column left blank)."""
    path = tmp_path / "rank.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Rank")
    sheet.write_string(0, 0, "bleu-xl: rank copy variants against one approved reference")
    sheet.write_row(1, 0, ["Reference", REF])
    sheet.add_table(4, 0, 6, 2, {"columns": [{"header": "#"}, {"header": "Candidate"}, {"header": "Rank"}]})
    sheet.write_row(5, 0, ["1", CAND])
    sheet.write_row(6, 0, ["2", REF])
    book.close()
    table, layout = read_table(str(path))
    assert render(layout.describe()).startswith("header row 5; candidate B 'Candidate'; reference the cell B2")
    assert scores(table, layout) == [PAIR, 1.0]


# --- a reader that fails -----------------------------------------------------------------------------------------


def test_reader_panic_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "panic.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    sheet.write_number(1, 0, -1e12, book.add_format({"num_format": "yyyy-mm-dd"}))  # calamine panics on it
    sheet.write_string(1, 1, CAND)
    book.close()
    with pytest.raises(BaseException, match="out of bounds") as raised:  # the reader really panics here
        CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Copy").to_python()
    assert not isinstance(raised.value, Exception)  # pyo3's PanicException: a BaseException only
    message = refused_in_process(run_process("score", str(path), env={**os.environ, "RUST_BACKTRACE": "1"}))
    assert "cannot read row 2 of sheet 'Copy'" in message and "out of bounds" in message
    assert "panicked" not in message


@pytest.mark.parametrize("isolate", [True, False])
def test_a_value_the_reader_cannot_give_is_found_by_its_row(tmp_path: Path, isolate: bool) -> None:
    """One duration past what Python's timedelta holds, in a column that is not scored, fails the reader's whole
    sheet: the message says in which row, counted as Excel counts them, so that the user can correct that cell."""
    path = tmp_path / "durations.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(2, 1, ["Reference", "Candidate", "Time spent"])  # the table starts in B3
    hours = book.add_format({"num_format": "[h]:mm:ss"})
    for r in range(3, 9):
        sheet.write_row(r, 1, [REF, CAND])
        sheet.write_number(r, 3, 2e9 if r in (6, 7) else 0.5, hours)  # rows 7 and 8: two billion days
    book.close()
    from bleu_xl.files.read.limits import ReadLimits

    with pytest.raises(InputError) as raised:
        read_table(str(path), limits=ReadLimits(isolate=isolate))
    message = str(raised.value)
    assert "cannot read row 7 of sheet 'Copy'" in message and "OverflowError" in message


def test_a_cover_page_the_reader_cannot_give_says_how_to_pass_it_by(tmp_path: Path) -> None:
    """The first visible sheet is read first, and might be the table: when one of its cells cannot be read, the
    run stops there (the table could be on it), and the message tells how to score the next sheet instead."""
    path = tmp_path / "cover.xlsx"
    book = xlsxwriter.Workbook(str(path))
    cover = book.add_worksheet("Notes")
    cover.write_string(0, 0, "Campaign notes")
    cover.write_number(3, 1, 2e9, book.add_format({"num_format": "[h]:mm:ss"}))
    table = book.add_worksheet("Copy")
    table.write_row(0, 0, ["Reference", "Candidate"])
    table.write_row(1, 0, [REF, CAND])
    book.close()
    with pytest.raises(workbook_reader.UnreadableRow) as raised:
        read_table(str(path))
    message = str(raised.value)
    assert "cannot read row 4 of sheet 'Notes'" in message and message.endswith("name that sheet with sheet")
    refused = refused_in_process(run_process("score", str(path)))
    assert "row 4 of sheet 'Notes'" in refused and refused.endswith("name that sheet with --sheet")
    with pytest.raises(workbook_reader.UnreadableRow) as named:  # asked for by name: nothing to pass by
        read_table(str(path), TableOptions(sheet="Notes"))
    assert "another sheet" not in str(named.value)
    table_sheet, layout = read_table(str(path), TableOptions(sheet="Copy"))
    assert scores(table_sheet, layout) == [PAIR]


def test_keyboard_interrupt_in_the_reader_is_not_swallowed(tmp_path: Path) -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        workbook_reader._reader_call(tmp_path, interrupted)
    with pytest.raises(InputError, match="cannot read this workbook"):
        workbook_reader._reader_call(tmp_path, lambda: 1 / 0)


def test_a_reader_that_aborts_still_leaves_a_line_on_stderr(tmp_path: Path) -> None:
    # calamine aborted the process (exit 134, nothing on stderr) on sheets whose cells lie far apart; the checks
    # refuse those before the reader runs (tests/files/test_xlsx_check.py), and should another abort remain,
    # faulthandler still names where it happened.
    code = (
        "import os, pathlib; from bleu_xl.files.read import workbook as workbook_reader; "
        "workbook_reader._reader_call(pathlib.Path('x.xlsx'), os.abort)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == -signal.SIGABRT
    assert done.stderr.startswith("Fatal Python error: Aborted")
    assert "_reader_call" in done.stderr


def test_formulas_saved_without_values_outside_the_scored_columns_are_noted(tmp_path: Path) -> None:
    """openpyxl saves a formula without its value: every reader sees it blank. In a scored column that is refused;
    elsewhere it is read blank and written blank, which a note says, naming the first."""
    path = tmp_path / "sums.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Reference", "Candidate", "Clicks"])
    sheet.append([REF, CAND, 3])
    sheet.append([REF, REF, 4])
    sheet.append(["", "", "=SUM(C2:C3)"])
    sheet.append(["", "", "=C4*2"])
    book.save(path)
    table, layout = read_table(str(path))
    assert scores(table, layout) == [PAIR, 1.0]  # the rows of the sums alone read blank: no data row
    [note] = [render(n) for n in table.notes]
    assert note.startswith("2 formulas saved without their values (the first C4) read blank, as every reader sees")
    assert "stay blank in the output" in note


def test_zeros_are_results_where_a_formula_of_the_sheet_was_saved_with_a_value(tmp_path: Path) -> None:
    """XlsxWriter formulas written with their values, one of them a real 0 (a count, a number candidate): in a sheet
    where any formula holds a value other than 0, the 0s are results, not XlsxWriter's placeholders. A totals row
    counted by a placeholder is left out, not refused."""
    path = tmp_path / "numbers.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate", "x"])
    for i, (ref, x) in enumerate([(12, 3), (0, 0), (7, 2)], start=1):
        sheet.write_number(i, 0, ref)
        sheet.write_number(i, 2, x)
        sheet.write_formula(i, 1, f"=C{i + 1}*4", None, x * 4)
    book.close()
    assert [row["Candidate"] for row in scored(path)] == [12, 0, 8]
    totals = tmp_path / "totals.xlsx"
    book = xlsxwriter.Workbook(str(totals))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    for i in range(1, 4):
        sheet.write_row(i, 0, [REF, CAND])
    sheet.write_row(4, 0, ["Total"])
    sheet.write_formula(4, 1, "=COUNTA(B2:B4)")  # XlsxWriter's placeholder 0
    book.close()
    assert [row["BLEU-2"] for row in scored(totals)][:3] == [PAIR] * 3
    # A value of its own in another column (a hyperlink's text) says nothing of the candidates' placeholders.
    linked = tmp_path / "linked.xlsx"
    book = xlsxwriter.Workbook(str(linked))
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Source", "Candidate", "Link"])
    for i in range(1, 4):
        sheet.write_row(i, 0, [REF, CAND])
        sheet.write_formula(i, 2, f"=TRIM(B{i + 1})")  # placeholder 0
        sheet.write_formula(i, 3, f'=HYPERLINK("https://example.com/{i}","T-{i}")', None, f"T-{i}")
    book.close()
    with pytest.raises(InputError, match="the candidate column C 'Candidate' holds formulas saved with 0"):
        read_table(str(linked))


def test_a_total_among_the_terms_is_no_totals_row_for_the_formulas_check(tmp_path: Path) -> None:
    """A glossary whose term is 'Total' (not its last row), its candidate a formula saved without its value: that
    row is refused as any other, not passed over as a totals row typed by hand."""
    path = xlsx(
        tmp_path / "glossary.xlsx",
        [["Reference", "Source", "Candidate"], [REF, CAND, CAND], ["Total", "Total", "=B3"], [REF, CAND, CAND]],
    )
    with pytest.raises(InputError, match=r"holds formulas saved without their values .*, the first in row 3"):
        read_table(str(path))


_COVERED_FODS = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Copy">
<table:table-row>{cell}Reference</text:p></table:table-cell>{cell}Candidate</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell table:number-rows-spanned="3" office:value-type="string">
<text:p>Free delivery on every order</text:p></table:table-cell>
<table:table-cell table:number-rows-spanned="2" office:value-type="string">
<text:p>Free delivery on every order</text:p></table:table-cell></table:table-row>
<table:table-row>{covered}covered reference text</text:p></table:covered-table-cell>
{covered}covered candidate text</text:p>
</table:covered-table-cell></table:table-row>
<table:table-row>{covered}another covered</text:p></table:covered-table-cell>{cell}Free shipping</text:p>
</table:table-cell></table:table-row>
</table:table></office:spreadsheet></office:body></office:document>""".format(
    cell='<table:table-cell office:value-type="string"><text:p>',
    covered='<table:covered-table-cell office:value-type="string"><text:p>',
)


def test_cells_under_merged_cells_that_libreoffice_kept_read_blank(tmp_path: Path) -> None:
    """LibreOffice merges with "keep the contents of the hidden cells" and saves their text in the xlsx: B3's text,
    which nobody sees, was scored as a candidate of its own, and A3's shown in the output. They read blank, as the
    sheet shows them (Excel empties them when it merges), with a note."""
    source = tmp_path / "covered.fods"
    source.write_text(_COVERED_FODS, encoding="utf-8")
    book = libreoffice(tmp_path, "xlsx", source) / "covered.xlsx"
    result = run("score", str(book), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["Candidate"] for row in rows] == ["Free delivery on every order", None, "Free shipping"]
    assert [row["Reference"] for row in rows] == ["Free delivery on every order", None, None]
    assert (
        rows[0]["BLEU-2"] == 1
        and rows[1]["BLEU-2"] is None
        and rows[2]["BLEU-2"] == score("Free delivery on every order", "Free shipping").bleu
    )
    assert (
        "bleu-xl: note: 3 cells under merged cells (the first A3) hold a value that the sheet does not show "
        "(LibreOffice keeps it when it merges): read blank"
    ) in result.stderr.splitlines()


def test_merged_cells_that_overlap_are_refused(tmp_path: Path) -> None:
    rows = header_rows() + "".join(
        f'<row r="{r}">{text_cell(f"A{r}", "le chat")}{text_cell(f"B{r}", "le chien")}</row>' for r in range(2, 6)
    )
    # A large overlap, and a small one (A2:A3 inside A2:B3), which counting the cells covered did not find.
    for pair in (
        '<mergeCell ref="A2:B5"/><mergeCell ref="A3:B5"/>',
        '<mergeCell ref="A2:B3"/><mergeCell ref="A2:A3"/>',
    ):
        merges = f'<mergeCells count="2">{pair}</mergeCells>'.encode()
        book = raw_xlsx(tmp_path / "overlap.xlsx", sheet_xml(rows).replace(b"</sheetData>", b"</sheetData>" + merges))
        assert refused(book).endswith("merged cells of sheet 'Copy' overlap, which no application saves")


def test_rows_below_the_excel_table_of_the_header_row_are_left_out(tmp_path: Path) -> None:
    """A glossary as a second Excel Table below the copy: its header row and terms were scored as candidates, with
    no note. When the header row is a Table's, its rows are the data; those below it are left out with a note that
    names them and the header row that scores them alone."""
    path = xlsx(
        tmp_path / "tables.xlsx",
        [
            ["Reference", "Candidate"],
            ["Free delivery on every order", "Free delivery on every order"],
            ["Free delivery on every order", "Free shipping on all orders"],
            [],
            ["Glossary term", "Approved translation"],
            ["delivery", "livraison"],
            ["order", "commande"],
        ],
        tables={"Copy": "A1:B3", "Glossary": "A5:B7"},
    )
    result = run("score", str(path), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["Candidate"] for line in result.stdout.splitlines()] == [
        "Free delivery on every order",
        "Free shipping on all orders",
    ]
    assert (
        "bleu-xl: note: rows 5 to 7, below the Excel Table 'Copy' (A1:B3), are not its rows: left out (to score them "
        "alone, give --header-row with their header row)"
    ) in result.stderr.splitlines()
    alone = run(
        "score",
        str(path),
        "-o",
        "-",
        "--format",
        "jsonl",
        "--header-row",
        "5",
        "--candidate-col",
        "B",
        "--reference-col",
        "A",
    )
    assert [json.loads(line)["Approved translation"] for line in alone.stdout.splitlines()] == ["livraison", "commande"]


def test_numbers_shown_in_a_format_of_their_own_are_named_when_scored(tmp_path: Path) -> None:
    """A candidate cell showing 20% is scored as 0.2 (other words than the sheet shows), a date as its ISO date:
    documented, and now said in a note naming the first. Numbers in General, and formatted cells outside the
    columns scored, are not named."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Copy"
    sheet.append(["Reference", "Candidate", "Clicks"])
    sheet.append(["Save 20% today", 0.2, 0.5])
    sheet.append(["Order by 01/03/2026", dt.datetime(2026, 3, 1), 0.25])
    sheet.append(["Price 1 299,50 €", 1299.5, 0.75])
    sheet.append(["Value 3", 3, 1])
    for row, number_format in ((2, "0%"), (3, "dd/mm/yyyy"), (4, '#,##0.00 "€"')):
        sheet.cell(row, 2).number_format = number_format
    for row in range(2, 6):
        sheet.cell(row, 3).number_format = "0%"
    path = tmp_path / "formats.xlsx"
    book.save(path)
    result = run("score", str(path), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert (
        "bleu-xl: note: 3 cells scored hold numbers or dates that the sheet shows in a format of its own (B2 is "
        "scored as '0.2'): scored as Excel's General format writes them, not as shown; to score what the sheet "
        "shows, enter them as text"
    ) in result.stderr.splitlines()
    plain = tmp_path / "plain.xlsx"
    sheet.delete_rows(2, 3)
    sheet.cell(3, 1).value, sheet.cell(3, 2).value = "Founded 1998", 1998
    sheet.cell(3, 2).number_format = "0"  # a year in format 0 shows as General writes it
    sheet.cell(4, 1).value, sheet.cell(4, 2).value = "Code 42", 42
    sheet.cell(4, 2).number_format = "@"
    book.save(plain)
    assert "format of its own" not in run("score", str(plain), "-o", "-", "--format", "jsonl").stderr


def test_rows_typed_right_below_an_excel_table_are_its_rows(tmp_path: Path) -> None:
    """openpyxl appends, or LibreOffice, leave a Table's range where it was over rows added below it: they are the
    Table's rows as the user sees them, read with a note, and only rows past a blank row are left out."""
    path = xlsx(
        tmp_path / "appended.xlsx",
        [
            ["Reference", "Candidate"],
            *([f"Free delivery on order {i}", f"Free shipping on order {i}"] for i in range(5)),
            [],
            ["a note about this sheet"],
        ],
        tables={"Copy": "A1:B3"},
    )
    result = run("score", str(path), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 5
    notes = [line for line in result.stderr.splitlines() if "note:" in line]
    assert notes == [
        "bleu-xl: note: rows 4 to 6, right below the Excel Table 'Copy' (A1:B3), are read as its rows: stretch the "
        "Table over them (Table Design > Resize Table)",
        "bleu-xl: note: row 8, below the Excel Table 'Copy' (A1:B3), is not one of its rows: left out (to score them "
        "alone, give --header-row with their header row)",
    ]


def test_a_second_excel_table_right_below_the_first_is_not_its_rows(tmp_path: Path) -> None:
    """A glossary Table placed right under the copy's, no blank row between: another Table's rows are not rows
    added to the first, and are left out; so are rows under a Table's totals row."""
    path = xlsx(
        tmp_path / "adjacent.xlsx",
        [
            ["Reference", "Candidate"],
            ["Free delivery on every order", "Free shipping on every order"],
            ["Shop the new collection", "Shop the collection"],
            ["Term", "Translation"],
            ["delivery", "livraison"],
        ],
        tables={"Copy": "A1:B3", "Gloss": "A4:B5"},
    )
    result = run("score", str(path), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 2
    assert "bleu-xl: note: rows 4 to 5, below the Excel Table 'Copy' (A1:B3), are not its rows" in result.stderr


def test_a_count_typed_right_below_an_excel_table_is_named_once(tmp_path: Path) -> None:
    """=COUNTA under a Table's candidates, in the row right below it: a totals row, said once (not also as a row
    added to the Table)."""
    path = xlsx(
        tmp_path / "count.xlsx",
        [
            ["Reference", "Candidate"],
            ["Free delivery on every order", "Free shipping on every order"],
            ["Shop the new collection", "Shop the collection"],
            ["Count", 2],
        ],
        tables={"Copy": "A1:B3"},
    )
    result = run("score", str(path), "-o", "-", "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "note:" in line] == [
        "bleu-xl: note: row 4 ('Count' and a number as its candidate) is a totals row: it is not a candidate, and is "
        "not scored"
    ]


def test_a_table_beside_the_excel_table_does_not_end_its_added_rows(tmp_path: Path) -> None:
    """A lookup Table in other columns, taller than the copy's: rows typed right below the copy's Table are still
    its rows (only a Table in its own columns ends them)."""
    path = xlsx(
        tmp_path / "beside.xlsx",
        [
            ["Reference", "Candidate", None, "Code", "Label"],
            *(
                [f"Free delivery on order {i}", f"Free shipping on order {i}", None, f"C{i}", f"label {i}"]
                for i in range(5)
            ),
        ],
        tables={"Copy": "A1:B3", "Lookup": "D1:E6"},
    )
    result = run("score", str(path), "-o", "-", "--format", "jsonl", "--candidate-col", "Candidate")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 5


def test_the_totals_row_of_a_table_beside_the_copy_is_not_the_copys(tmp_path: Path) -> None:
    """A lookup Table in other columns whose totals row falls on a row of the copy: that row is still a candidate;
    the copy's own Table's totals row is not."""
    from openpyxl.worksheet.table import Table

    path = xlsx(
        tmp_path / "side.xlsx",
        [
            ["Reference", "Candidate", None, "Code", "Clicks"],
            *([f"Free delivery on order {i}", f"Free shipping on order {i}", None, f"C{i}", i] for i in range(3)),
            ["Free delivery on order 3", "Free shipping on order 3", None, "Total", 3],
            ["Free delivery on order 4", "Free shipping on order 4"],
            ["Free delivery on order 5", "Free shipping on order 5"],
            ["Total", "Free shipping"],
        ],
    )
    book = openpyxl.load_workbook(path)
    book["Copy"].add_table(Table(displayName="Lookup", ref="D1:E5", totalsRowCount=1))
    book["Copy"].add_table(Table(displayName="Copy", ref="A1:B8", totalsRowCount=1))
    book.save(path)
    result = run("score", str(path), "-o", "-", "--format", "jsonl", "--candidate-col", "Candidate")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["Candidate"][-1] for line in result.stdout.splitlines()] == list("012345")
    assert "bleu-xl: note: row 8, the totals row of an Excel table, is not a candidate" in result.stderr


def test_the_totals_row_of_a_table_over_a_reference_or_b_is_no_pair(tmp_path: Path) -> None:
    """The references in a Table of their own, its totals row labelled "Total": that row is not a pair (the label
    would be scored as a reference); in compare, B's own Table's totals row is no candidate of B."""
    from openpyxl.worksheet.table import Table

    rows = [
        ["Reference", "Candidate", "Other"],
        ["free delivery on every order", "free delivery on all orders", "free delivery on every order"],
        ["a free gift inside", "free gift inside", "a free gift inside"],
        ["shop the summer sale", "summer sale now on", "shop the summer sale"],
        ["Total", "order now ship tomorrow", "Total"],
    ]
    path = xlsx(tmp_path / "refs.xlsx", rows)
    book = openpyxl.load_workbook(path)
    book["Copy"].add_table(Table(displayName="Refs", ref="A1:A5", totalsRowCount=1))
    book["Copy"].add_table(Table(displayName="Others", ref="C1:C5", totalsRowCount=1))
    book.save(path)
    result = run("score", str(path), "-o", "-", "--format", "jsonl", "--candidate-col", "Candidate")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["Reference"] for line in result.stdout.splitlines()] == [r[0] for r in rows[1:4]]
    assert "bleu-xl: note: row 5, the totals row of an Excel table, is not a candidate" in result.stderr
    rows[3][2] = "Total"  # B's own Table, C1:C4, ends with its totals row on row 4
    path = xlsx(tmp_path / "b.xlsx", rows[:4])
    book = openpyxl.load_workbook(path)
    book["Copy"].add_table(Table(displayName="Others", ref="C1:C4", totalsRowCount=1))
    book.save(path)
    compared = run("compare", str(path), "--a", "Candidate", "--b", "Other")
    assert compared.exit_code == 0, compared.stderr
    assert "(2 pairs, 0 skipped," in compared.stdout
    assert "bleu-xl: note: row 4, the totals row of an Excel table, is not a candidate" in compared.stderr
