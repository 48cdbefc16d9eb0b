"""A workbook read one way only: the parts the reader reads are the parts checked, a package that could be read two
ways is refused, and the reader's own failures are one line (issue 24, rows 1-5, 10 and 16)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import xlsxwriter

from bleu_xl import score
from bleu_xl.files.read.package import COLUMNS
from bleu_xl.table.sheet import EXCEL_MAX_COLS, column_letter
from tests.helpers import read_sheet

from . import parts
from .parts import CAND, MAIN_NS, REF, listing, one_line_refusal, run_process

pytestmark = pytest.mark.usefixtures("both_ways_of_checking")

EVIL = "totally different words here"


def scored(path: Path, *args: str) -> list[dict]:
    done = run_process("score", str(path), "--format", "jsonl", "-o", "-", "-q", *args)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def refusal(path: Path, *args: str) -> str:
    """Refused in one line, with nothing left beside the input (no output, no lock, no temporary file)."""
    before = listing(path.parent)
    line = one_line_refusal(run_process("score", str(path), "-o", str(path.parent / "out.xlsx"), *args))
    assert listing(path.parent) == before
    return line


# --- row 1: what XML says is a comment or text is no cell ----------------------------------------------------------


def test_a_comment_that_looks_like_an_error_cell_changes_nothing(tmp_path: Path) -> None:
    cells = parts.pair_rows((REF, CAND)) + '<!-- <row r="2"><c r="B2" t="e"><v>#N/A</v></c></row> -->'
    (row,) = scored(parts.workbook(tmp_path / "comment.xlsx", cells))
    assert row["Candidate"] == CAND and row["BLEU-2"] == score(REF, CAND).bleu


def test_cdata_in_a_text_is_text(tmp_path: Path) -> None:
    hidden = '<c r="B2" t="e"><v>#REF!</v></c>'
    cells = parts.pair_rows((REF, f"<![CDATA[{CAND} {hidden}]]>"))
    (row,) = scored(parts.workbook(tmp_path / "cdata.xlsx", cells))
    assert row["Candidate"] == f"{CAND} {hidden}"


# --- row 2: a sheet is the same sheet to the checks and to the reader, whatever its name -----------------------------


@pytest.mark.parametrize("name", ["Pa\tirs", "Pa&#9;irs", "Pa\nirs"])
def test_a_sheet_named_with_a_tab_keeps_its_uncached_formulas(tmp_path: Path, name: str) -> None:
    """A literal tab is a space to XML and a tab to the reader: the sheets are matched by place, not by name."""
    cells = parts.pair_rows((REF, CAND)).replace(parts.text_cell("B2", CAND), '<c r="B2"><f>A2</f></c>')
    path = parts.workbook(tmp_path / "tab.xlsx", cells, **{"xl/workbook.xml": parts.workbook_xml((name, "rId1"))})
    assert "saved without their values" in refusal(path)


# --- row 3: parts found as the reader finds them; two readings refused ------------------------------------------------


def with_members(tmp_path: Path, name: str, members: list[tuple[str, str | bytes]]) -> Path:
    return parts.write(tmp_path / name, members)


def evil_sheet() -> str:
    return parts.sheet_xml(parts.pair_rows((REF, EVIL)))


@pytest.mark.parametrize(
    ("name", "change", "expected"),
    [
        ("case twins", {"add": [("xl/worksheets/Sheet1.xml", "evil")]}, "it holds a part as"),
        ("same name twice", {"add": [("xl/worksheets/sheet1.xml", "evil")]}, "it holds a part twice"),
        ("backslash twin", {"add": [("xl\\worksheets\\sheet1.xml", "evil")]}, "which readers resolve differently"),
        ("backslash alone", {"move": "xl\\worksheets\\sheet1.xml"}, "which readers resolve differently"),
        ("dot-dot member", {"add": [("xl/../xl/worksheets/sheet1.xml", "evil")]}, "readers resolve differently"),
        ("dot member", {"add": [("xl/./worksheets/sheet1.xml", "evil")]}, "which readers resolve differently"),
        ("an unreached sheet", {"add": [("xl/worksheets/sheet2.xml", "evil")]}, "no relationship reaches"),
        ("an unreached strings part", {"add": [("xl/sharedStrings.xml", "sst")]}, "not reached by the workbook"),
        ("OpenDocument parts too", {"add": [("mimetype", "application/vnd.oasis.opendocument.spreadsheet")]}, ".ods"),
        ("binary workbook part", {"add": [("xl/workbook.bin", "bin")]}, "no relationship reaches"),
    ],
)
def test_a_package_that_could_be_read_two_ways_is_refused(
    tmp_path: Path, name: str, change: dict, expected: str
) -> None:
    members = list(parts.parts().items())
    if "move" in change:
        members = [(change["move"] if n == "xl/worksheets/sheet1.xml" else n, d) for n, d in members]
    contents = {"evil": evil_sheet(), "sst": f'<sst xmlns="{MAIN_NS}"><si><t>x</t></si></sst>', "bin": b"\x00"}
    members += [(n, contents.get(d, d)) for n, d in change.get("add", [])]
    assert expected in refusal(with_members(tmp_path, "two.xlsx", members))


def test_a_part_named_in_another_case_is_found_as_the_reader_finds_it(tmp_path: Path) -> None:
    path = parts.workbook(
        tmp_path / "case.xlsx", **{"xl/worksheets/sheet1.xml": None, "xl/worksheets/Sheet1.xml": evil_sheet()}
    )
    (row,) = scored(path)
    assert row["Candidate"] == EVIL  # the one part there is: checked, and read


def test_a_decoy_package_relationship_is_refused(tmp_path: Path) -> None:
    """_rels/.rels names another workbook part than the one the reader opens (xl/workbook.xml)."""
    decoy = parts.workbook_xml(("Decoy", "rId1"))
    path = parts.workbook(
        tmp_path / "decoy.xlsx",
        **{"_rels/.rels": parts.rels(("rId1", "officeDocument", "xl/book.xml")), "xl/book.xml": decoy},
    )
    assert "is not where readers look for it" in refusal(path)
    two = parts.rels(("rId1", "officeDocument", "xl/workbook.xml"), ("rId2", "officeDocument", "xl/workbook.xml"))
    assert "names 2 workbook parts" in refusal(parts.workbook(tmp_path / "two.xlsx", **{"_rels/.rels": two}))


def test_a_prefix_named_id_that_the_reader_takes_for_the_relationship_is_refused(tmp_path: Path) -> None:
    """The reader takes any attribute whose name ends in ":id" for the sheet's relationship, a namespace
    declaration (xmlns:id) too: it would read sheet2 where an XML reader reads sheet1."""
    book = parts.workbook_xml(("Pairs", "rId1")).replace('r:id="rId1"/>', 'r:id="rId1" xmlns:id="rId2"/>')
    rels = parts.rels(("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml"))
    path = parts.workbook(
        tmp_path / "id.xlsx",
        **{"xl/workbook.xml": book, "xl/_rels/workbook.xml.rels": rels, "xl/worksheets/sheet2.xml": evil_sheet()},
    )
    assert "declares the prefix 'id'" in refusal(path)


def test_a_sheet_target_the_reader_resolves_elsewhere_is_refused(tmp_path: Path) -> None:
    for target in ("../xl/worksheets/sheet1.xml", "./worksheets/sheet1.xml", "worksheets//sheet1.xml"):
        rels = parts.rels(("rId1", "worksheet", target))
        path = parts.workbook(tmp_path / "target.xlsx", **{"xl/_rels/workbook.xml.rels": rels})
        assert "is missing" in refusal(path), target


def test_a_namespace_prefix_is_read_as_xml_reads_it(tmp_path: Path) -> None:
    bound_elsewhere = parts.pair_rows((REF, CAND)).replace(
        parts.text_cell("B2", CAND), f'<é:c xmlns:é="urn:x" r="B2" t="inlineStr"><is><t>{EVIL}</t></is></é:c>'
    )
    path = parts.workbook(tmp_path / "prefix.xlsx", bound_elsewhere)
    assert "outside SpreadsheetML's namespace" in refusal(path)
    bound_here = bound_elsewhere.replace("urn:x", MAIN_NS)
    (row,) = scored(parts.workbook(tmp_path / "main.xlsx", bound_here))
    assert row["Candidate"] == EVIL


@pytest.mark.parametrize(
    ("suffix", "expected"),
    [
        (".ods", "an OpenDocument spreadsheet"),
        (".xlsb", "a binary workbook"),
        (".csv", "named with .csv; give it the .xlsx extension"),
        ("", "named with no extension"),
    ],
)
def test_an_extension_that_says_another_format_is_refused(tmp_path: Path, suffix: str, expected: str) -> None:
    """The reader picks its format by the extension: an .xlsx package named .ods or .xlsb would be read so."""
    assert expected in refusal(parts.workbook(tmp_path / f"book{suffix}"))


def test_an_opendocument_file_named_xlsx_is_refused(tmp_path: Path) -> None:
    path = parts.write(tmp_path / "sheet.xlsx", {"mimetype": "application/vnd.oasis.opendocument.spreadsheet"})
    assert "an OpenDocument spreadsheet (.ods) with a workbook's name" in refusal(path)


# --- rows 4 and 5: the reader cannot take the machine down ------------------------------------------------------------


def strings_workbook(path: Path, strings: str, cells: str) -> Path:
    return parts.workbook(
        path,
        cells,
        **{
            "xl/sharedStrings.xml": strings,
            "xl/_rels/workbook.xml.rels": parts.rels(
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "sharedStrings", "sharedStrings.xml")
            ),
        },
    )


def test_a_string_count_that_would_make_the_reader_abort_is_refused(tmp_path: Path) -> None:
    strings = f'<sst xmlns="{MAIN_NS}" count="1" uniqueCount="1000000000000"><si><t>Reference</t></si></sst>'
    path = strings_workbook(tmp_path / "count.xlsx", strings, '<row r="1"><c r="A1" t="s"><v>0</v></c></row>')
    assert path.stat().st_size < 2_000
    assert "claims 1,000,000,000,000 strings but holds 1" in refusal(path)


def test_one_long_string_in_every_cell_stops_at_the_memory_limit(tmp_path: Path) -> None:
    """Row 5: a small file whose one 32,765-character string every cell shows would take gigabytes to read."""
    strings = f'<sst xmlns="{MAIN_NS}"><si><t>Reference</t></si><si><t>{"x" * 32_765}</t></si></sst>'
    cells = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + "".join(
        f'<row r="{r}"><c r="A{r}" t="s"><v>1</v></c></row>' for r in range(2, 30_002)
    )
    path = strings_workbook(tmp_path / "long.xlsx", strings, cells)
    assert path.stat().st_size < 2_000_000
    message = refusal(path, "--read-memory", "400MB")
    assert "cannot read this workbook within 400 MB / 60 s" in message and "--read-memory" in message


# --- rows 10 and 16: no sheets, every sheet hidden --------------------------------------------------------------------


def test_a_workbook_with_no_sheets_is_one_line(tmp_path: Path) -> None:
    empty = f'{parts.HEAD}<workbook xmlns="{MAIN_NS}"><sheets/></workbook>'
    path = parts.workbook(
        tmp_path / "empty.xlsx",
        **{"xl/workbook.xml": empty, "xl/worksheets/sheet1.xml": None, "xl/_rels/workbook.xml.rels": parts.rels()},
    )
    assert "the workbook has no sheets" in refusal(path)


def test_a_hidden_sheet_is_never_read_without_being_named(tmp_path: Path) -> None:
    hidden = parts.workbook_xml(("Pairs", "rId1"), extra=' state="hidden"')
    path = parts.workbook(tmp_path / "hidden.xlsx", **{"xl/workbook.xml": hidden})
    assert "every sheet of this workbook is hidden; name the one to read with --sheet" in refusal(path)
    (row,) = scored(path, "--sheet", "Pairs")
    assert row["Candidate"] == CAND


def test_two_sheets_of_one_name_are_refused(tmp_path: Path) -> None:
    book = parts.workbook_xml(("Pairs", "rId1"), ("Pairs", "rId2"))
    rels = parts.rels(("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "worksheets/sheet2.xml"))
    path = parts.workbook(
        tmp_path / "twice.xlsx",
        **{"xl/workbook.xml": book, "xl/_rels/workbook.xml.rels": rels, "xl/worksheets/sheet2.xml": evil_sheet()},
    )
    assert "two sheets are named 'Pairs'" in refusal(path)


# --- what the reader sets on the sheet: hidden rows and the totals rows of tables -------------------------------------


def test_the_reader_sets_hidden_rows_and_totals_rows(tmp_path: Path) -> None:
    path = tmp_path / "table.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Pairs")
    rows = [[REF, CAND], [REF, "Free delivery"], [REF, "every order"], [REF, "this week"]]
    sheet.add_table(
        0,
        0,
        len(rows) + 1,
        1,
        {
            "data": rows,
            "total_row": True,
            "columns": [{"header": "Reference"}, {"header": "Candidate", "total_function": "count"}],
        },
    )
    sheet.set_row(2, None, None, {"hidden": True})  # hidden by hand
    sheet.set_row(3, None, None, {"hidden": True})  # as a filter hides a row
    book.close()
    read = read_sheet(str(path))
    assert read.hidden_rows == {2, 3}
    assert read.totals_rows == {5}


def test_the_column_table_spells_every_column_as_column_letter_does() -> None:
    """The table of column letters built at start (letters by length, then alphabetical) is A to XFD, each letter
    at the index ``column_letter`` spells it from."""
    assert {column_letter(i): i for i in range(EXCEL_MAX_COLS)} == COLUMNS
    assert list(COLUMNS)[-1] == "XFD"


def test_zlib_short_of_memory_is_out_of_memory_not_a_corrupt_part(tmp_path: Path, monkeypatch) -> None:
    """zlib gives its out-of-memory code (-4) under the read's limit: a MemoryError, reported as running out of
    memory; any other zlib error is a corrupt part."""
    import zlib

    from bleu_xl.files.read.package import open_member, open_package
    from bleu_xl.table.sheet import InputError

    book = tmp_path / "book.xlsx"
    workbook = xlsxwriter.Workbook(str(book))
    workbook.add_worksheet("Pairs").write_row(0, 0, ["Reference", "Candidate"])
    workbook.close()

    def fails_with(message: str) -> None:
        def failing(*_: object) -> None:
            raise zlib.error(message)

        monkeypatch.setattr(package.archive, "open", failing)

    with open(book, "rb") as handle:
        package = open_package(handle, book)
        fails_with("Error -4 while decompressing data")
        with pytest.raises(MemoryError):
            list(open_member(package, "xl/worksheets/sheet1.xml"))
        fails_with("Error -3 while decompressing data: invalid distance too far back")
        with pytest.raises(InputError, match=r"xl/worksheets/sheet1\.xml is corrupt \(Error -3 "):
            list(open_member(package, "xl/worksheets/sheet1.xml"))
