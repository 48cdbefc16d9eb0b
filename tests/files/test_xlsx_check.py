"""The checks made on a workbook before any parser sees it: sheets whose cells lie far apart or past Excel's grid,
binary sheet parts, zip bombs, DTDs and entities, XML that is not UTF-8, corrupt members; whatever a hostile file
claims, the refusal is one line, quick, and leaves nothing behind.

Each file is scored by the command in a child process, so that a reader that aborts or allocates cannot take the
tests with it."""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path

import pytest

from bleu_xl import score
from bleu_xl.files.read import package
from bleu_xl.table import sheet as table_sheet
from tests.helpers import (
    MAIN_NS,
    SHEET_HEAD,
    header_rows,
    raw_xlsx,
    refused,
    refused_in_process,
    run_process,
    scored,
    sheet_xml,
    text_cell,
    with_members,
    xlsx,
    xlsx_text,
)

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"


# --- bounded reads whatever the file claims -----------------------------------------------------------------------


BUDGET = "beyond the 20,000,000 cells bleu-xl reads"


GRID = "beyond Excel's grid of 1,048,576 rows x 16,384 columns (A to XFD)"


UNREADABLE = "bleu-xl cannot read"


CORNER = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'


FAR_BELOW_A_WIDE_CELL = '<row r="3"><c r="ZZ3"><v>1</v></c></row><row r="30000"><c><v>1</v></c></row>'


@pytest.mark.parametrize(
    ("name", "cells", "head", "expected"),
    [
        ("corners", CORNER, "", BUDGET),
        ("false small dimension", CORNER, '<dimension ref="A1"/>', BUDGET),
        ("wide", '<row r="1048576"><c r="CV1048576"><v>1</v></c></row>', "", BUDGET),
        ("row past Excel", '<row r="99999999999"><c r="A99999999999"><v>1</v></c></row>', "", GRID),
        (
            "no r attributes",
            "<row>"
            + "<c><v>1</v></c>" * 10
            + "</row>"
            + '<row r="1048576"><c><v>1</v></c></row><row><c><v>1</v></c></row>',
            "",
            GRID,  # cells placed one after another, rows one below another: the last row is past the grid
        ),
        ("unbound prefix", '<x:row r="1048576"><x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row>', "", "unbound prefix"),
        (
            "prefixed cells",
            '<x:row xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" r="1048576">'
            '<x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row>',
            "",
            BUDGET,
        ),
        # References as any writer may spell them: any case, either quote, spaces around =, any number of digits.
        ("lower case corner", '<row r="1048576"><c r="xfd1048576" t="n"><v>1</v></c></row>', "", BUDGET),
        ("lower case", '<row r="30000"><c r="zz30000" t="n"><v>1</v></c></row>', "", BUDGET),
        ("spaces around =", '<row r="30000"><c  r = "ZZ30000"><v>1</v></c></row>', "", BUDGET),
        ("single quotes", "<row r='30000'><c r='ZZ30000'><v>1</v></c></row>", "", BUDGET),
        ("17 digits", '<row><c r="A12345678901234567"><v>1</v></c></row>', "", GRID),
        # A reference means what XML says it means: ZZ30000 (which the reader could not read, so it is refused).
        ("character reference", '<row r="30000"><c r="&#90;&#90;30000"><v>1</v></c></row>', "", BUDGET),
        ("character reference in the row", '<row><c r="ZZ&#51;0000"><v>1</v></c></row>', "", BUDGET),
        ("a cell reference with no row", '<row r="3"><c r="ZZ"><v>1</v></c></row>', "", UNREADABLE),
        ("a row far below a wide cell", FAR_BELOW_A_WIDE_CELL, "", BUDGET),
        ("a > in an attribute", '<row r="30000"><c t="n" x="a>b" r="ZZ30000"><v>1</v></c></row>', "", BUDGET),
        ("column past XFD", '<row r="2"><c r="XFE2"><v>1</v></c></row>', "", GRID),
        # A hidden column's bounds are read too: text there is refused, not an internal error.
        ("hidden column bound not a number", "", '<cols><col min="x" max="3" hidden="1"/></cols>', UNREADABLE),
    ],
)
def test_cells_far_apart_are_refused_before_the_reader_allocates(
    tmp_path: Path, name: str, cells: str, head: str, expected: str
) -> None:
    path = raw_xlsx(tmp_path / "far.xlsx", sheet_xml(header_rows() + cells, head))
    assert path.stat().st_size < 5_000
    start = time.perf_counter()
    message = refused_in_process(run_process("score", str(path), "-o", str(tmp_path / "o.csv")))
    assert expected in message
    assert time.perf_counter() - start < 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["far.xlsx"]  # no output, no lock file


def test_the_cell_budget_counts_real_cells_not_the_dimension(tmp_path: Path) -> None:
    cells = header_rows() + f'<row r="2">{text_cell("A2", REF)}{text_cell("B2", CAND)}</row>'
    path = raw_xlsx(tmp_path / "ok.xlsx", sheet_xml(cells, '<dimension ref="A1:B2"/>'))
    done = run_process("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert done.returncode == 0, done.stderr
    assert f'"BLEU-2": {score(REF, CAND).bleu}' in done.stdout


@pytest.mark.parametrize(
    ("builder", "claimed"),
    [(xlsx_text, "A1:XFD9999999"), (xlsx, "A1:Z1000000")],
    ids=["past the grid", "past the budget"],
)
def test_a_claimed_dimension_is_not_the_extent(tmp_path: Path, builder, claimed: str) -> None:
    """The reader does not allocate by ``<dimension>``, and the cells are really in A1:B2: read, not refused,
    whatever the dimension claims (past Excel's grid, or past the cell budget)."""
    source = builder(tmp_path / "base.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    with zipfile.ZipFile(source) as z:
        xml = z.read("xl/worksheets/sheet1.xml")
    xml = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="' + claimed.encode() + b'"/>', xml)
    assert claimed.encode() in xml
    path = with_members(source, tmp_path / "claimed.xlsx", {"xl/worksheets/sheet1.xml": xml})
    rows = scored(path)
    assert [(row["Reference"], row["Candidate"]) for row in rows] == [(REF, CAND)]
    assert rows[0]["BLEU-2"] == score(REF, CAND).bleu


def test_binary_sheet_parts_are_refused(tmp_path: Path) -> None:
    path = raw_xlsx(tmp_path / "bin.xlsx", b"\x00\x01binary records", target="worksheets/sheet1.bin")
    assert "xl/worksheets/sheet1.bin is a binary sheet part" in refused_in_process(run_process("score", str(path)))
    path = raw_xlsx(tmp_path / "dat.xlsx", b"\x00\x01binary records", target="/data/sheet.dat")
    assert "data/sheet.dat is a binary sheet part" in refused_in_process(run_process("score", str(path)))


def test_a_sheet_part_outside_the_usual_folder_is_measured_too(tmp_path: Path) -> None:
    cells = header_rows() + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    path = raw_xlsx(tmp_path / "moved.xlsx", sheet_xml(cells), target="/data/cells.xml")
    assert "data/cells.xml has cells over" in refused_in_process(run_process("score", str(path)))


def workbook_with(tmp_path: Path, name: str, replace: dict[str, bytes]) -> Path:
    """A small valid workbook with members replaced or added."""
    base = xlsx_text(tmp_path / "base.xlsx", [["Reference", "Candidate"], ["a b", "a b"]])
    path = with_members(base, tmp_path / name, replace)
    base.unlink()
    return path


# --- zip bombs, DTDs and entities, encodings, corrupt members ----------------------------------------------------


def test_zip_bomb_ratio(tmp_path: Path) -> None:
    bomb = workbook_with(tmp_path, "bomb.xlsx", {"xl/media/padding.xml": b"<a/>" + b" " * 50_000_000})
    assert "zip bomb" in refused(bomb)


def test_uncompressed_size_limit(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(package, "MAX_UNCOMPRESSED", 2_000)  # the real limit is 1 GiB: too big to build here
    path = workbook_with(tmp_path, "big.xlsx", {"xl/media/data.bin": bytes(range(256)) * 20})
    assert "would unpack to" in refused(path)


def test_xml_entity_attack(tmp_path: Path) -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
        b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets>'
        b'<sheet name="&lol2;" sheetId="1"/></sheets></workbook>'
    )
    path = workbook_with(tmp_path, "lol.xlsx", {"xl/workbook.xml": laughs})
    assert "DTD" in refused(path)


def test_the_xml_parser_refuses_entities_in_the_workbook_part(tmp_path: Path) -> None:
    xml = b'<!DOCTYPE x [<!ENTITY e "boom">]><workbook>&e;</workbook>'
    path = workbook_with(tmp_path, "entity.xlsx", {"xl/workbook.xml": xml})
    with pytest.raises(table_sheet.InputError, match=r"xl/workbook\.xml declares a DTD or entities"):
        package.open_package(path)


def test_dtd_after_the_first_4_kib_and_utf16_xml_are_refused(tmp_path: Path) -> None:
    late = (
        SHEET_HEAD
        + b"<!--"
        + b" " * 5000
        + b'--><!DOCTYPE x [<!ENTITY a "aaaa">]>'
        + sheet_xml(header_rows())[len(SHEET_HEAD) :]
    )
    path = raw_xlsx(tmp_path / "late.xlsx", late)
    assert "declares a DTD or entities" in refused_in_process(run_process("score", str(path)))
    strings = b"<!--" + b" " * 8000 + b"--><!DOCTYPE s [<!ENTITY b 'b'>]><sst " + MAIN_NS + b"></sst>"
    path = raw_xlsx(tmp_path / "strings.xlsx", sheet_xml(header_rows()), extra={"xl/sharedStrings.xml": strings})
    assert "xl/sharedStrings.xml declares a DTD" in refused_in_process(run_process("score", str(path)))
    wide = sheet_xml(header_rows()).decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    path = raw_xlsx(tmp_path / "utf16.xlsx", wide)
    assert "is not UTF-8 XML" in refused_in_process(run_process("score", str(path)))


def test_corrupt_deflate_member(tmp_path: Path) -> None:
    path = raw_xlsx(tmp_path / "corrupt.xlsx", sheet_xml(header_rows() * 1 + "<row r='2'/>" * 2000))
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 10 : start + 40] = b"\xff" * 30
    path.write_bytes(bytes(data))
    assert "cannot read this workbook: xl/worksheets/sheet1.xml is corrupt" in refused_in_process(
        run_process("score", str(path))
    )
