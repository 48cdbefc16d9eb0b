"""What many tests share: running the command, checking a refusal, and building workbooks to read.

Workbooks come in three kinds, as the tests need them: :func:`xlsx` writes rows with openpyxl (cached values for
plain cells; a text starting with ``=`` is a formula saved without its value, as openpyxl saves formulas), with
several sheets, hidden columns or number formats if asked; :func:`xlsx_text` writes rows with XlsxWriter as Excel
saves them (every text a shared string, ``=...`` still text, control characters escaped); :func:`raw_xlsx` writes
the smallest workbook part by part, so that a sheet part or any other member can be anything an attacker writes,
and :func:`with_members` rewrites members of an existing workbook.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner, Result

from benchmarks.synthetic import make_pairs
from bleu_xl import tokenize
from bleu_xl.cli import main
from bleu_xl.files.read.table import read_table
from bleu_xl.files.read.workbook import read_workbook
from bleu_xl.table.sheet import Sheet

#: The name conftest.py gives the private directory where the commands the tests start keep their bytecode in place
#: of PYTHONDONTWRITEBYTECODE (release.dists.clean_env undoes it for a fresh environment).
BYTECODE_DIRECTORY = "bleu-xl-tests-bytecode-"

#: The Portuguese seed: a reference and two candidates whose scores are worked out by hand in the core's tests.
REF = "a entrega chegou no prazo e o produto veio bem embalado"
INTACTO = "a entrega chegou no prazo e o produto veio intacto"
SHORT = "a entrega chegou no prazo"

#: Candidates that look like formulas (a link, a DDE command): text they are, and text they must stay.
FORMULA = '=HYPERLINK("http://x","click")'
DDE = "=cmd|'/c calc'!A1"
#: A sheet of copy as users have it (the ``copy_workbook`` fixture): IDs, the seed's pairs, formula-looking
#: candidates, a blank candidate, a reference with no words, and a pair of another reference.
COPY_ROWS = [
    ["ID", "Reference", "Candidate"],
    ["1", REF, INTACTO],
    ["2", REF, SHORT],
    ["3", REF, FORMULA],
    ["4", REF, DDE],
    ["5", REF, None],
    ["6", "...", "texto"],
    ["7", "the cat sat", "the cat sat"],
]

#: ``bleu-xl`` in a child process: a reader that aborts or allocates cannot take the tests with it.
COMMAND = [sys.executable, "-m", "bleu_xl.cli"]


@functools.cache
def compared_columns() -> tuple[list[str], list[str], list[str]]:
    """References and two candidate columns for the paired tests: about 600 generated pairs that have words, and a
    column B that is the reference itself every fourth row (so clearly better than A)."""
    pairs = [(r, c) for r, c in make_pairs(700, seed=77, min_len=8) if tokenize(c)][:600]
    usable = [(r, c) for r, c in pairs if tokenize(r)]
    refs = [r for r, _ in usable]
    cands_a = [c for _, c in usable]
    cands_b = [r if i % 4 == 0 else c for i, (r, c) in enumerate(usable)]
    return refs, cands_a, cands_b


def best_seconds(fn: Any, runs: int = 3) -> float:
    """The fastest of ``runs`` calls of ``fn``: a time that a busy machine disturbs least."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# --- running the command ----------------------------------------------------------------------------------------


def read_sheet(path: Path | str) -> Sheet:
    """The first visible sheet of a workbook (read in this process), or a text file's one sheet, as the library reads
    it (the text file's columns found too)."""
    path = Path(path)
    if path.read_bytes()[:4] == b"PK\x03\x04":
        return read_workbook(path, None)
    return read_table(str(path))[0]


def run(*args: str, input: bytes | None = None) -> Result:
    """``bleu-xl ARGS`` in this process (click's runner); stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def json_rows(result: Result) -> list[dict]:
    """The JSON lines a successful run wrote to standard output."""
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def scored(path: Path, *args: str) -> list[dict]:
    """``bleu-xl score PATH`` with ``args``, its rows read back from JSON lines on standard output."""
    return json_rows(run("score", str(path), "--format", "jsonl", "-o", "-", "-q", *args))


#: The files the command-line page's examples read (docs/examples/make.py makes them).
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def copy_examples(target: Path) -> list[str]:
    """The example files and the samples, copied into ``target`` at the paths the README and the pages give (the
    examples write their outputs beside their inputs, and the checkout stays clean); returns the examples' names."""
    import shutil

    names = [path.name for path in sorted(EXAMPLES.iterdir()) if path.suffix in {".csv", ".xlsx"}]
    for name in names:
        shutil.copyfile(EXAMPLES / name, target / name)
    shutil.copytree(EXAMPLES.parent.parent / "workbooks" / "samples", target / "workbooks" / "samples")
    return names


def shown_output(command: str) -> str:
    """What a page's ``$ ...`` line prints, at 80 columns: ``cat FILE | bleu-xl ...`` feeds FILE on standard
    input."""
    import shlex

    data = None
    if command.startswith("cat "):
        source, command = command[len("cat ") :].split(" | ", 1)
        data = Path(source).read_bytes()
    return CliRunner(env={"COLUMNS": "80"}).invoke(main, shlex.split(command)[1:], input=data).output


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check_refusal(stderr: str, stdout: str, source: str) -> str:
    """One line on standard error, after at most the line that says what was read from ``source`` (for an error
    found once the columns are known), and nothing on standard output; no traceback. Returns the error line."""
    lines = stderr.splitlines()
    assert lines and lines[-1].startswith("bleu-xl: error: "), stderr
    assert len(lines) == 1 or (len(lines) == 2 and lines[0].startswith(f"bleu-xl: {source}")), stderr
    assert "Traceback" not in stderr and stdout == "", (stdout, stderr)
    return lines[-1]


def refused(path: Path | str, *args: str) -> str:
    """``bleu-xl score PATH ARGS`` refused: exit code 2, one line (see :func:`_check_refusal`), the input
    untouched and nothing written beside it (no output, partial or lock file). Returns the error line."""
    path = Path(path)
    before = digest(path) if path.is_file() else None
    listing = sorted(p.name for p in path.parent.iterdir()) if path.parent.is_dir() else None
    result = run("score", str(path), *args)
    assert result.exit_code == 2, result.output
    line = _check_refusal(result.stderr, result.stdout, str(path))
    if before is not None:
        assert digest(path) == before
    if listing is not None:
        assert sorted(p.name for p in path.parent.iterdir()) == listing
    return line


def run_process(*args: str, **kwargs: Any) -> subprocess.CompletedProcess:
    """``bleu-xl ARGS`` in a child process."""
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=120, **kwargs)


def refused_in_process(done: subprocess.CompletedProcess) -> str:
    """A child process's refusal: exit code 2 and one line, as :func:`refused` checks. Returns the error line."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    command = done.args[len(COMMAND) :]
    return _check_refusal(done.stderr, done.stdout, command[1] if command[0] == "score" else "")


# --- workbooks from rows ----------------------------------------------------------------------------------------


def xlsx_sheets(path: Path, sheets: Sequence[tuple[str, list[list], str]]) -> Path:
    """A workbook of several sheets as openpyxl writes it: (name, rows, state), state ``visible``, ``hidden`` or
    ``veryHidden``."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows, state in sheets:
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
        sheet.sheet_state = state
    book.save(path)
    return path


def xlsx(
    path: Path,
    rows: list[list],
    *,
    sheet: str = "Copy",
    hidden: Sequence[str] = (),
    formats: dict[str, str] | None = None,
    tables: dict[str, str] | None = None,
) -> Path:
    """A one-sheet workbook as openpyxl writes it, with the columns ``hidden`` (letters) hidden, number formats
    given by cell (``{"A2": "0.00"}``) and Excel Tables by name (``{"Copy": "A1:B3"}``)."""
    xlsx_sheets(path, [(sheet, rows, "visible")])
    if hidden or formats or tables:
        from openpyxl.worksheet.table import Table

        book = openpyxl.load_workbook(path)
        for letter in hidden:
            book[sheet].column_dimensions[letter].hidden = True
        for ref, number_format in (formats or {}).items():
            book[sheet][ref].number_format = number_format
        for name, ref in (tables or {}).items():
            book[sheet].add_table(Table(displayName=name, ref=ref))
        book.save(path)
    return path


def xlsx_text(path: Path, rows: list[list], sheet: str = "Copy") -> Path:
    """A one-sheet workbook as XlsxWriter (and Excel) saves it: every text a text cell, whatever it starts with;
    ``None`` leaves a cell blank."""
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet(sheet)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, str):
                ws.write_string(r, c, value)
            elif value is not None:
                ws.write(r, c, value)
    book.close()
    return path


def long_csv(path: Path, rows: int) -> Path:
    """A CSV of ``rows`` generated pairs under the headers Reference and Candidate: long enough to take a while."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Reference", "Candidate"])
        writer.writerows((ref, cand or "x") for ref, cand in make_pairs(rows, seed=4))
    return path


# --- workbooks part by part -------------------------------------------------------------------------------------

SHEET_HEAD = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
MAIN_NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def raw_xlsx(path: Path, sheet_xml: bytes, *, target: str = "worksheets/sheet1.xml", extra: dict | None = None) -> Path:
    """The smallest workbook, part by part: one sheet "Copy" whose part (at ``target``, relative to ``xl/`` or
    absolute) holds ``sheet_xml``, and any ``extra`` members."""
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
    """A worksheet part: ``head`` (``<dimension>``, ``<cols>``) and the rows of ``cells``."""
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
    """Row 1 with the headers Reference and Candidate."""
    return f'<row r="1">{text_cell("A1", "Reference")}{text_cell("B1", "Candidate")}</row>'


def with_members(source: Path, target: Path, replace: dict[str, bytes]) -> Path:
    """A copy of the workbook ``source`` at ``target`` with members replaced or added."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item, replace.get(item.filename, zin.read(item.filename)))
        for name, data in replace.items():
            if name not in zin.namelist():
                zout.writestr(name, data)
    return target


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (not gone, not a zombie), from /proc: whoever reaps it."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def living_parents() -> dict[int, int]:
    """Every living process (not a zombie) and its parent, from /proc: no extra dependency."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    return parents


def children_of(pid: int) -> list[int]:
    """The living children of ``pid``."""
    return [child for child, parent in living_parents().items() if parent == pid]


def libreoffice(folder: Path, convert_to: str, *sources: Path, infilter: str | None = None) -> Path:
    """``sources`` converted by LibreOffice (``soffice --convert-to convert_to``) into ``folder``/lo, which it
    returns: a private profile and home, so parallel runs never collide. Skipped where LibreOffice is missing,
    failed in CI, which installs it."""
    soffice = shutil.which("soffice")
    if soffice is None:
        if os.environ.get("CI") == "true":
            pytest.fail("soffice is missing: .ci/run installs libreoffice-calc-nogui")
        pytest.skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
    out = folder / "lo"
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{folder}/lo-profile",
            "--headless",
            "--convert-to",
            convert_to,
            *([f"--infilter={infilter}"] if infilter else []),
            "--outdir",
            str(out),
            *map(str, sources),
        ],
        check=True,
        capture_output=True,
        timeout=180,
        env={**os.environ, "HOME": str(folder)},
    )
    return out
