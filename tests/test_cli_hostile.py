"""Hostile files, signals and shared outputs (issue 14, rows 1-4 and 7-14): every one ends in one plain line and
exit code 2 (or the termination status), with no orphan process, no partial file and no replaced special file."""

from __future__ import annotations

import codecs
import csv
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from python_calamine import CalamineWorkbook

from benchmarks.synthetic import make_pairs
from bleu_xl import score
from bleu_xl.cli import main
from bleu_xl.files import output, readers, text_reader, workbook_reader, xlsx_check
from bleu_xl.table import sheet as table_sheet

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
COMMAND = [sys.executable, "-m", "bleu_xl.cli"]
SHEET_HEAD = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
MAIN_NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def run_process(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """The real command in a child process: a reader that aborts or allocates cannot take the tests with it."""
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=120, **kwargs)


def one_line_refusal(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    # the error, after at most the line that says which columns were used (an error while writing)
    assert lines[-1].startswith("bleu-xl: error: ") and len(lines) <= 2 and "Traceback" not in done.stderr, lines
    return lines[-1]


def raw_xlsx(path: Path, sheet_xml: bytes, *, target: str = "worksheets/sheet1.xml", extra: dict | None = None) -> Path:
    """The smallest workbook, part by part, so that the sheet part can be anything an attacker writes."""
    parts = {
        "[Content_Types].xml": b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.'
        b'org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
        "_rels/.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.'
        b'org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": b'<?xml version="1.0" encoding="UTF-8"?><workbook ' + MAIN_NS + b' xmlns:r="http://'
        b'schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Copy" sheetId="1" '
        b'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        b'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
        b'openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="' + target.encode() + b'"/>'
        b"</Relationships>",
        target.lstrip("/") if target.startswith("/") else "xl/" + target: sheet_xml,
        **(extra or {}),
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def sheet_xml(cells: str, head: str = "") -> bytes:
    return (
        SHEET_HEAD
        + b"<worksheet "
        + MAIN_NS
        + b">"
        + head.encode()
        + b"<sheetData>"
        + cells.encode()
        + b"</sheetData></worksheet>"
    )


def text_cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def header_rows() -> str:
    return f'<row r="1">{text_cell("A1", "Reference")}{text_cell("B1", "Candidate")}</row>'


# --- row 1: bounded reads whatever the file claims ------------------------------------------------------------------


BUDGET = "beyond the 20,000,000 cells bleu-xl reads"
GRID = "beyond Excel's grid of 1,048,576 rows x 16,384 columns (A to XFD)"
UNREADABLE = "has a cell reference bleu-xl cannot read"
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
            "<row>" + "<c><v>1</v></c>" * 10 + "</row>" + '<row r="1048576"><c r="XFD1048576"/></row>',
            "",
            GRID,  # ten rows placed one after another, then row 1,048,576: past the last row
        ),
        ("prefixed cells", '<x:row r="1048576"><x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row>', "", BUDGET),
        # The second review's files: any case, either quote, spaces around =, any number of digits.
        ("lower case corner", '<row r="1048576"><c r="xfd1048576" t="n"><v>1</v></c></row>', "", BUDGET),
        ("lower case", '<row r="30000"><c r="zz30000" t="n"><v>1</v></c></row>', "", BUDGET),
        ("spaces around =", '<row r="30000"><c  r = "ZZ30000"><v>1</v></c></row>', "", BUDGET),
        ("single quotes", "<row r='30000'><c r='ZZ30000'><v>1</v></c></row>", "", BUDGET),
        ("17 digits", '<row><c r="A12345678901234567"><v>1</v></c></row>', "", GRID),
        ("character reference", '<row r="30000"><c r="&#90;&#90;30000"><v>1</v></c></row>', "", UNREADABLE),
        ("character reference in the row", '<row><c r="ZZ&#51;0000"><v>1</v></c></row>', "", UNREADABLE),
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
    message = one_line_refusal(run_process("score", str(path), "-o", str(tmp_path / "o.csv")))
    assert expected in message
    assert time.perf_counter() - start < 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["far.xlsx"]  # no output, no lock file


def test_the_cell_budget_counts_real_cells_not_the_dimension(tmp_path: Path) -> None:
    cells = header_rows() + f'<row r="2">{text_cell("A2", REF)}{text_cell("B2", CAND)}</row>'
    path = raw_xlsx(tmp_path / "ok.xlsx", sheet_xml(cells, '<dimension ref="A1:B2"/>'))
    done = run_process("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert done.returncode == 0, done.stderr
    assert f'"BLEU-2": {score(REF, CAND).bleu}' in done.stdout


CELL_FORMS = {
    "excel": '<c r="{col}{row}" t="s"><v>1</v></c>',
    "no r": '<c t="s"><v>1</v></c>',
    "newline": '<c\nr="{col}{row}"><v>1</v></c>',
    "prefixed": '<x:c r="{col}{row}"><x:v>1</x:v></x:c>',
    "lower case": '<c r="{lower}{row}"><v>1</v></c>',
    "single quotes": "<c r='{col}{row}' t='n'><v>1</v></c>",
    "spaces around =": '<c  r = "{col}{row}"><v>1</v></c>',
    "r after another attribute": '<c t="n" r="{col}{row}"><v>1</v></c>',
    "a > in another attribute": '<c x="a>b" r="{col}{row}"><v>1</v></c>',
    "leading zeros": '<c r="{col}000{row}"><v>1</v></c>',
}
SHEET_ROWS = st.lists(
    st.tuples(
        st.integers(1, 1_048_576),
        st.lists(st.tuples(st.integers(0, 16_383), st.sampled_from(sorted(CELL_FORMS))), max_size=4),
    ),
    max_size=12,
)


def rows_xml(rows: list) -> bytes:
    def cell(c: int, form: str, r: int) -> str:
        letters = table_sheet.column_letter(c)
        return CELL_FORMS[form].format(col=letters, lower=letters.lower(), row=r)

    return "".join(
        f'<row r="{r}">' + "".join(cell(c, form, r) for c, form in cells) + "</row>" for r, cells in rows
    ).encode()


@given(SHEET_ROWS)
def test_fast_extent_scan_equals_the_general_one(rows: list) -> None:
    data = rows_xml(rows)
    fast = xlsx_check.extent_fast(data)
    forms = {form for _, cells in rows for _, form in cells}
    if forms <= {"excel"}:
        assert fast is not None and (*fast, 0) == xlsx_check.extent_general(data)
    else:
        assert fast is None  # anything but Excel's own form takes the general scan
    last_row, last_col, missing = xlsx_check.extent_general(data)
    assert last_row == max((r for r, _ in rows), default=0)
    with_r = [c + 1 for _, cells in rows for c, form in cells if form != "no r"]
    assert last_col == max(with_r, default=0)
    assert missing == sum(form == "no r" for _, cells in rows for _, form in cells)


@given(st.lists(st.tuples(st.integers(1, 1_048_576), st.integers(0, 16_383)), max_size=20))
def test_fast_extent_scan_takes_the_cells_rows_too(cells: list) -> None:
    # Readers place a cell by its own reference, whatever its row element says.
    data = (
        b'<row r="1">' + "".join(f'<c r="{table_sheet.column_letter(c)}{r}"/>' for r, c in cells).encode() + b"</row>"
    )
    expected = (max([1] + [r for r, _ in cells]), max([c + 1 for _, c in cells], default=0))
    assert xlsx_check.extent_fast(data) == expected
    assert xlsx_check.extent_general(data) == (*expected, 0)


@pytest.mark.parametrize("ref", [b"&#90;&#90;30000", b"ZZ&#51;0000", b"A0", b"7", b"A", b"", b"A1B", b"\xc3\x811"])
def test_a_reference_the_scan_cannot_read_is_refused(ref: bytes) -> None:
    with pytest.raises(xlsx_check.UnreadableReference):
        xlsx_check.extent_general(b'<row r="1"><c r="' + ref + b'"><v>1</v></c></row>')
    assert xlsx_check.extent_fast(b'<row r="1"><c r="' + ref + b'"><v>1</v></c></row>') is None


@pytest.mark.parametrize(
    ("ref", "position"),
    [
        (b"xfd1048576", (1_048_576, 16_384)),
        (b"XFE1", (1, 16_385)),
        (b"AAAA1", (1, 16_385)),
        (b"A" + b"9" * 40, (1_048_577, 1)),
        (b"A" + b"0" * 5000 + b"12", (12, 1)),
    ],
)
def test_references_past_the_grid_are_one_past_its_limit(ref: bytes, position: tuple[int, int]) -> None:
    assert xlsx_check.reference_position(ref, is_row=False) == position


def test_binary_sheet_parts_are_refused(tmp_path: Path) -> None:
    path = raw_xlsx(tmp_path / "bin.xlsx", b"\x00\x01binary records", target="worksheets/sheet1.bin")
    assert "xl/worksheets/sheet1.bin is a binary sheet part" in one_line_refusal(run_process("score", str(path)))
    path = raw_xlsx(tmp_path / "dat.xlsx", b"\x00\x01binary records", target="/data/sheet.dat")
    assert "data/sheet.dat is a binary sheet part" in one_line_refusal(run_process("score", str(path)))


def test_a_sheet_part_outside_the_usual_folder_is_measured_too(tmp_path: Path) -> None:
    cells = header_rows() + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    path = raw_xlsx(tmp_path / "moved.xlsx", sheet_xml(cells), target="/data/cells.xml")
    assert "data/cells.xml has cells over" in one_line_refusal(run_process("score", str(path)))


# --- row 2: the reader's panics ------------------------------------------------------------------------------------


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
    message = one_line_refusal(run_process("score", str(path), env={**os.environ, "RUST_BACKTRACE": "1"}))
    assert "cannot read this workbook" in message and "panicked" not in message


def test_keyboard_interrupt_in_the_reader_is_not_swallowed(tmp_path: Path, monkeypatch) -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        workbook_reader._reader_call(tmp_path, interrupted)
    with pytest.raises(table_sheet.InputError, match="cannot read this workbook"):
        workbook_reader._reader_call(tmp_path, lambda: 1 / 0)


# --- rows 3 and 4: signals -----------------------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc: no extra dependency)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def long_input(tmp_path: Path, rows: int) -> Path:
    source = tmp_path / "long.csv"
    with source.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Reference", "Candidate"])
        writer.writerows((ref, cand or "x") for ref, cand in make_pairs(rows, seed=4))
    return source


def start_scoring(tmp_path: Path, rows: int) -> subprocess.Popen:
    """``bleu-xl score`` of a long CSV into out.xlsx, in a child process that the test then signals."""
    source = long_input(tmp_path, rows)
    return subprocess.Popen(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.xlsx"), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_workers(process: subprocess.Popen) -> set[int]:
    """The pool's worker processes, once scoring has started them."""
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        workers |= descendants(process.pid)
        time.sleep(0.01)
    assert len(workers) >= 2, "the run never started its worker pool"
    return workers


def wait_gone(workers: set[int]) -> None:
    end = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers), "a worker outlived the run"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_sigterm_while_scoring_stops_every_worker(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 150_000)
    workers = wait_for_workers(process)
    process.send_signal(signal.SIGTERM)
    stderr = process.communicate(timeout=60)[1]  # no hang: nothing holds stderr open
    assert process.returncode == 128 + signal.SIGTERM
    assert "terminated by SIGTERM" in stderr and "Traceback" not in stderr
    wait_gone(workers)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]  # no output, no partial, no lock


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 150_000)
    workers = wait_for_workers(process)
    process.kill()  # SIGKILL: no handler runs in the parent
    process.communicate(timeout=60)
    wait_gone(workers)


def test_sighup_while_writing_removes_the_partial_file(tmp_path: Path) -> None:
    process = start_scoring(tmp_path, 60_000)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".out.xlsx.*.partial")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.002)
    assert list(tmp_path.glob(".out.xlsx.*.partial")), "the run finished before it was seen writing"
    process.send_signal(signal.SIGHUP)
    stderr = process.communicate(timeout=60)[1]
    assert process.returncode == 128 + signal.SIGHUP and "terminated by SIGHUP" in stderr, stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]


# --- row 7: CSV injection ------------------------------------------------------------------------------------------

INJECTIONS = ['=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "\tTAB", "\rCR"]


def string_workbook(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    """A workbook of text cells as Excel saves them (shared strings; "=..." stays text)."""
    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False})
    sheet = book.add_worksheet("Copy")
    for r, row in enumerate([header, *rows]):
        for c, text in enumerate(row):
            sheet.write_string(r, c, text)
    book.close()
    return path


def injection_workbook(tmp_path: Path) -> Path:
    return string_workbook(tmp_path / "inject.xlsx", ["Reference", "Candidate"], [[REF, t] for t in INJECTIONS])


def test_csv_output_neutralises_formula_triggers(tmp_path: Path) -> None:
    source = injection_workbook(tmp_path)
    safe, raw = tmp_path / "safe.csv", tmp_path / "raw.csv"
    assert run("score", str(source), "-o", str(safe), "-q").exit_code == 0
    assert run("score", str(source), "-o", str(raw), "-q", "--raw").exit_code == 0
    with safe.open(encoding="utf-8-sig", newline="") as handle:
        candidates = [row[1] for row in csv.reader(handle)][1:]
    assert candidates == ["'" + text for text in INJECTIONS]
    with raw.open(encoding="utf-8-sig", newline="") as handle:
        assert [row[1] for row in csv.reader(handle)][1:] == INJECTIONS  # --raw: exactly as read


def test_libreoffice_runs_no_formula_from_the_csv(tmp_path: Path) -> None:
    soffice = shutil.which("soffice")
    if soffice is None:
        if os.environ.get("CI") == "true":
            pytest.fail("soffice is missing: .ci/run installs libreoffice-calc-nogui")
        pytest.skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
    source = injection_workbook(tmp_path)
    for name, extra in (("safe.csv", []), ("raw.csv", ["--raw"])):
        assert run("score", str(source), "-o", str(tmp_path / name), "-q", *extra).exit_code == 0
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path}/lo-profile-cli-injection",
            "--headless",
            "--convert-to",
            "xlsx",
            "--infilter=CSV:44,34,76,1,,0,false,true",  # as a user opens it: formulas recognised
            "--outdir",
            str(tmp_path / "lo"),
            str(tmp_path / "safe.csv"),
            str(tmp_path / "raw.csv"),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )

    def formulas(name: str) -> list[str]:
        sheet = openpyxl.load_workbook(tmp_path / "lo" / name).active
        return [c.value for row in sheet.iter_rows() for c in row if c.data_type == "f"]

    assert formulas("raw.xlsx"), "LibreOffice turns the raw values into formulas (the attack this test guards)"
    assert formulas("safe.xlsx") == []


# --- row 8: terminal output ----------------------------------------------------------------------------------------


def test_user_text_is_not_markup_and_escapes_are_shown_escaped(tmp_path: Path) -> None:
    hostile = ["[/bold] closes nothing", "[link=http://evil]click[/link]", "title \x1b]0;owned\x07 here"]
    path = string_workbook(
        tmp_path / "markup.xlsx", ["Reference", "Candidate [bold]x[/bold]"], [[t, t] for t in hostile]
    )
    result = run("score", str(path), "-o", str(tmp_path / "out.xlsx"))
    assert result.exit_code == 0, result.output
    assert "[/bold] closes nothing" in result.stdout and "[link=http://evil]click[/link]" in result.stdout
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "title \\x1b]0;owned\\x07 here" in result.stdout
    assert "'Candidate [bold]x[/bold]'" in result.stderr


# --- row 9: plain messages for input and output errors ---------------------------------------------------------------


def test_undecodable_text_files(tmp_path: Path) -> None:
    bad_utf8 = tmp_path / "bom.csv"
    bad_utf8.write_bytes(codecs.BOM_UTF8 + b"Reference,Candidate\n\xff\xfe\xfa,x\n")
    assert "starts with a UTF-8 BOM but is not valid UTF-8" in one_line_refusal(run_process("score", str(bad_utf8)))
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"A\x00" * 1500 + b"\x00\xd8" * 10)  # UTF-16-looking, then lone surrogates
    assert "looks like UTF-16 without a BOM but is not valid UTF-16" in one_line_refusal(
        run_process("score", str(binary))
    )
    binary.write_bytes(b"\x01\x00\x00\x00" * 1000)  # decodes, but to control characters and NULs
    assert "holds NUL characters, so it is not a text file" in one_line_refusal(run_process("score", str(binary)))


def test_corrupt_deflate_member(tmp_path: Path) -> None:
    path = raw_xlsx(tmp_path / "corrupt.xlsx", sheet_xml(header_rows() * 1 + "<row r='2'/>" * 2000))
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 10 : start + 40] = b"\xff" * 30
    path.write_bytes(bytes(data))
    assert "cannot read this workbook: xl/worksheets/sheet1.xml is corrupt" in one_line_refusal(
        run_process("score", str(path))
    )


def test_unwritable_places(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    (tmp_path / "folder.csv").mkdir()
    assert "is a folder" in one_line_refusal(run_process("score", str(source), "-o", str(tmp_path / "folder.csv")))
    # /proc takes no new files, even for root (a chmod 555 folder would not stop root)
    assert "cannot write in /proc" in one_line_refusal(run_process("score", str(source), "-o", "/proc/out.csv"))
    assert "does not exist" in one_line_refusal(run_process("score", str(source), "-o", str(tmp_path / "no" / "o.csv")))


def test_full_disk_is_a_plain_message_and_leaves_nothing(tmp_path: Path) -> None:
    source = long_input(tmp_path, 3_000)
    limit = 64 * 1024  # writes past it fail as on a full disk (EFBIG; Python ignores SIGXFSZ)

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [*COMMAND, "score", str(source), "-o", str(tmp_path / "out.csv")],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=small_files,
    )
    assert "cannot write (File too large)" in one_line_refusal(done)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]  # no partial file, no lock


# --- row 10: DTDs anywhere, UTF-16 XML ----------------------------------------------------------------------------


def test_dtd_after_the_first_4_kib_and_utf16_xml_are_refused(tmp_path: Path) -> None:
    late = (
        SHEET_HEAD
        + b"<!--"
        + b" " * 5000
        + b'--><!DOCTYPE x [<!ENTITY a "aaaa">]>'
        + sheet_xml(header_rows())[len(SHEET_HEAD) :]
    )
    path = raw_xlsx(tmp_path / "late.xlsx", late)
    assert "declares a DTD or entities" in one_line_refusal(run_process("score", str(path)))
    strings = b"<sst " + MAIN_NS + b">" + b" " * 8000 + b"<!DOCTYPE s [<!ENTITY b 'b'>]></sst>"
    path = raw_xlsx(tmp_path / "strings.xlsx", sheet_xml(header_rows()), extra={"xl/sharedStrings.xml": strings})
    assert "xl/sharedStrings.xml declares a DTD" in one_line_refusal(run_process("score", str(path)))
    wide = sheet_xml(header_rows()).decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    path = raw_xlsx(tmp_path / "utf16.xlsx", wide)
    assert "is not UTF-8 XML" in one_line_refusal(run_process("score", str(path)))


# --- rows 11 and 12: the output is claimed first; special files are never replaced -----------------------------------


def test_a_second_run_on_the_same_output_is_refused_at_once(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    claim = output.OutputFile(str(out), force=False)  # what a first run holds while it reads and scores
    try:
        result = run("score", str(source), "-o", str(out))
        assert result.exit_code == 2 and "another bleu-xl run is writing this file" in result.stderr
        assert not out.exists()
    finally:
        claim.release()
    assert run("score", str(source), "-o", str(out), "-q").exit_code == 0


def test_existing_output_is_refused_before_the_input_is_read(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(readers.ZIP_MAGIC + b"not really a zip")
    out = tmp_path / "out.xlsx"
    out.write_bytes(b"keep me")
    result = run("score", str(broken), "-o", str(out))
    assert result.exit_code == 2 and "already exists; use --force" in result.stderr  # not the input's problem
    assert out.read_bytes() == b"keep me"


def test_special_files_are_never_replaced(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    result = run("score", str(source), "-o", str(fifo), "--force")
    assert result.exit_code == 2 and "not a regular file" in result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    with pytest.raises(table_sheet.InputError, match="not a regular file"):
        output.OutputFile(os.devnull, force=True)  # refused when claimed, before anything is written
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# --- row 13: control characters round-trip ------------------------------------------------------------------------


def test_cr_and_control_characters_round_trip_through_the_scored_workbook(tmp_path: Path) -> None:
    texts = ["a\rb", "a\r\nb", "tab\there", "x_x000D_y", "bell\x07"]
    path = string_workbook(tmp_path / "cr.xlsx", ["Reference", "Candidate"], [[REF, text] for text in texts])
    assert CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Copy").to_python()[1][1] == "a\rb"
    assert run("score", str(path), "-q").exit_code == 0
    out = tmp_path / "cr-scored.xlsx"
    read_back = [row[1] for row in CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Scores").to_python()[1:]]
    assert read_back == texts
    assert openpyxl.load_workbook(out)["Scores"]["B2"].value == "a\rb"


# --- row 14: sniffing is bounded ----------------------------------------------------------------------------------


def test_sniffing_a_pathological_csv_is_quick(tmp_path: Path) -> None:
    path = tmp_path / "quotes.csv"
    path.write_bytes(b',"' * 32_768)  # 64 KiB: csv.Sniffer spent 17 s on it
    start = time.process_time()
    result = run("score", str(path), "-o", str(tmp_path / "o.csv"))
    assert time.process_time() - start < 2
    assert result.exit_code == 2 and "no candidate or reference column" in result.stderr
    assert len(result.stderr) < 1_000  # one readable line, whatever the width
    assert text_reader.sniff_delimiter("a;b;c\n1;2;3\n" * 10_000) == ";"
