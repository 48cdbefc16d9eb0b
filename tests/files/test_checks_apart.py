"""The checks of a sheet run in a process of their own, beside the reader's child, and the rows go to the parent as
soon as the reader gives them (issue 34, target 2): the same table as a read in one process, and whatever happens
to that process is one line, with nothing left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from array import array
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl.core.errors import render
from bleu_xl.excel.cell_values import CellError
from bleu_xl.files.read.cell_fixes import CellFixes
from bleu_xl.files.read.limits import ReadLimits
from bleu_xl.files.read.table import read_table
from bleu_xl.table.sheet import CellRange, InputError, TableOptions
from tests.files.parts import HEAD, MAIN_NS, REL_NS, parts, rels, text_cell, write
from tests.helpers import children_of

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the read is bounded in a child where fork is")

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"


def _fixed_book(path: Path) -> Path:
    """A cover page, then the table: error cells (one past every other cell), a formula saved with a 0 never
    calculated, and a merged range whose covered cell kept its text."""
    cover = f'{HEAD}<worksheet xmlns="{MAIN_NS}"><sheetData>' + (
        f'<row r="1">{text_cell("A1", "Start here: the copy is on the next sheet")}</row></sheetData></worksheet>'
    )
    rows = [
        f'<row r="1">{text_cell("A1", "Reference")}{text_cell("B1", "Candidate")}</row>',
        f'<row r="2">{text_cell("A2", REF)}{text_cell("B2", CAND)}</row>',
        f'<row r="3"><c r="A3" t="e"><f>NA()</f><v>#N/A</v></c>{text_cell("B3", CAND)}</row>',
        f'<row r="4">{text_cell("A4", REF)}{text_cell("B4", CAND)}</row>',
        f'<row r="5">{text_cell("A5", "kept under the merge")}{text_cell("B5", "Free delivery")}</row>',
        f'<row r="6">{text_cell("A6", REF)}{text_cell("B6", CAND)}<c r="C6"><f>1+1</f><v>0</v></c></row>',
        '<row r="9"><c r="D9" t="e"><v>#DIV/0!</v></c></row>',
    ]
    table = (
        f'{HEAD}<worksheet xmlns="{MAIN_NS}"><sheetData>{"".join(rows)}</sheetData>'
        '<mergeCells count="1"><mergeCell ref="A4:A5"/></mergeCells></worksheet>'
    )
    book = (
        f'{HEAD}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>'
        '<sheet name="Start here" sheetId="1" r:id="rId1"/><sheet name="Copy" sheetId="2" r:id="rId2"/></sheets>'
        '<calcPr fullCalcOnLoad="1"/></workbook>'
    )
    return write(
        path,
        {
            "[Content_Types].xml": f'{HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="xml" ContentType="application/xml"/>'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            "</Types>",
            "_rels/.rels": rels(("rId1", "officeDocument", "xl/workbook.xml")),
            "xl/workbook.xml": book,
            "xl/_rels/workbook.xml.rels": rels(
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml")
            ),
            "xl/worksheets/sheet1.xml": cover,
            "xl/worksheets/sheet2.xml": table,
        },
    )


@pytest.mark.usefixtures("both_ways_of_checking")
def test_rows_sent_before_the_checks_ended_are_put_right_as_in_one_process(tmp_path: Path) -> None:
    """The child sends each sheet's rows as the reader gives them (the cover page's, then the table's), and the
    fixes the checks find after (error cells back, the stale 0 blank, the covered cell blank) are made in the
    parent's copy too: the table is the one a read in one process gives."""
    book = _fixed_book(tmp_path / "fixed.xlsx")
    apart, here = (
        read_table(str(book), TableOptions(), limits) for limits in (ReadLimits(), ReadLimits(isolate=False))
    )
    assert apart[0].name == here[0].name == "Copy"
    assert apart[0].rows == here[0].rows
    assert apart[0].rows[2][0] == CellError("#N/A") and apart[0].rows[8][3] == CellError("#DIV/0!")
    assert apart[0].rows[4][0] == "" and apart[0].rows[5][2] == ""  # covered, and the 0 no one calculated
    assert [render(note) for note in apart[0].notes] == [render(note) for note in here[0].notes]
    assert apart[1] == here[1]


def _big_book(path: Path, rows: int) -> Path:
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    for r in range(1, rows + 1):
        sheet.write_row(r, 0, [f"{REF} {r}", f"{CAND} {r}"])
    book.close()
    return path


@pytest.mark.parametrize("victim", ["checks", "reader"])
def test_a_killed_read_process_ends_the_run_in_one_line_with_nothing_left(tmp_path: Path, victim: str) -> None:
    """SIGKILL to the checks' process (as the out-of-memory killer sends it) ends the read as a killed reader
    does; SIGKILL to the reader's child takes the checks' process with it."""
    source = _big_book(tmp_path / "big.xlsx", 150_000)
    process = subprocess.Popen(
        [sys.executable, "-m", "bleu_xl.cli", "score", str(source), "-o", str(tmp_path / "out.xlsx"), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    reader = checks = None
    while time.monotonic() < deadline and process.poll() is None:
        for child in children_of(process.pid):
            found = children_of(child)
            if found:
                reader, checks = child, found[0]
        if checks is not None:
            break
        time.sleep(0.005)
    assert reader is not None and checks is not None, "the checks never ran apart"
    os.kill(checks if victim == "checks" else reader, signal.SIGKILL)
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 2, stderr
    assert stderr.splitlines()[-1].startswith(f"bleu-xl: error: {source}: cannot read this workbook within ")
    assert "the reader was killed, perhaps by the system for lack of memory" in stderr
    time.sleep(0.2)  # the kernel's signal to a dead parent's child is not instant
    stat = Path(f"/proc/{checks}/stat")
    assert not stat.exists() or stat.read_text().split()[2] == "Z"  # gone, or dead and not yet reaped
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.xlsx"]


cells = st.one_of(st.none(), st.just(""), st.sampled_from(["le chat", "#N/A", " "]), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.lists(cells, max_size=4), max_size=6),
    errors=st.dictionaries(st.tuples(st.integers(0, 7), st.integers(0, 5)), st.sampled_from(["#N/A", "#REF!"])),
    stale=st.dictionaries(st.integers(0, 5), st.lists(st.integers(0, 7), max_size=3)),
    merged=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 5), st.integers(0, 3), st.integers(0, 2)), max_size=3),
)
def test_the_cells_changed_change_another_copy_alike(
    rows: list[list[Any]],
    errors: dict[tuple[int, int], str],
    stale: dict[int, list[int]],
    merged: list[tuple[int, int, int, int]],
) -> None:
    """The parent changes its copy of the rows by the cells the child changed, not by the fixes again (which cost
    the ranges times the rows, outside the child's limits): the same rows either way, or the same refusal."""
    ranges = [CellRange(top, left, top + height, left + width) for top, left, height, width in merged]
    fixes = CellFixes(errors, {c: array("i", r) for c, r in stale.items()}, ranges, Path("book.xlsx"), "Copy")
    fixed, copy = [list(row) for row in rows], [list(row) for row in rows]
    try:
        _, changes = fixes.apply(fixed)
    except InputError:
        return  # overlapping ranges: refused in the child, nothing sent
    changes.apply(copy)
    assert copy == fixed


def test_ranges_past_the_cells_read_change_nothing_to_send(tmp_path: Path) -> None:
    """Thousands of merged ranges beside the table cost the child their loop once; the parent gets no change."""
    rows = [["Reference", "Candidate"], *([REF, CAND] for _ in range(50))]
    ranges = [CellRange(0, 2, 49, 2)] * 2_000  # the same range over an empty column, as a hostile file repeats it
    fixes = CellFixes({}, {}, ranges, Path("book.xlsx"), "Copy")
    held, changes = fixes.apply(rows)
    assert held == [] and changes.cells == []


def test_the_checks_apart_have_the_memory_the_read_has(tmp_path: Path) -> None:
    """The checks of a sheet with columns of ``#N/A`` lookups keep each error cell (about a hundred bytes): under a
    share of the limit of their own they ran out where the whole read fits within it."""
    errors = "".join(f'<c r="{letter}{{r}}" t="e"><v>#N/A</v></c>' for letter in "CDEFGHIJ")
    rows = "".join(
        f'<row r="{r}">{text_cell(f"A{r}", REF)}{text_cell(f"B{r}", CAND)}{errors.format(r=r)}</row>'
        for r in range(2, 80_002)
    )
    header = f'<row r="1">{text_cell("A1", "Reference")}{text_cell("B1", "Candidate")}</row>'
    book = write(tmp_path / "lookups.xlsx", parts(header + rows))
    sheet, layout = read_table(str(book), TableOptions(), ReadLimits(memory=400 * 10**6))
    assert sheet.rows[-1][9] == CellError("#N/A") and len(sheet.rows) == 80_001 and layout.candidate_col == 1
