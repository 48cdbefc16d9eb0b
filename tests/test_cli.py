"""The bleu-xl command: outputs, formats, column finding, and refusing bad or hostile input safely."""

from __future__ import annotations

import codecs
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner

from benchmarks.synthetic import make_pairs
from bleu_xl import __version__, score
from bleu_xl.cli import main
from bleu_xl.excel import cell_values, cells
from bleu_xl.files import readers, xlsx_check
from bleu_xl.files import scored_workbook as report
from bleu_xl.table import columns, scoring
from bleu_xl.table import compare as table_compare
from bleu_xl.table import sheet as table_sheet

REF = "a entrega chegou no prazo e o produto veio bem embalado"
INTACTO = "a entrega chegou no prazo e o produto veio intacto"
SHORT = "a entrega chegou no prazo"
FORMULA = '=HYPERLINK("http://x","click")'
DDE = "=cmd|'/c calc'!A1"


def make_xlsx(path: Path, rows: list[list], sheet: str = "Copy") -> Path:
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet(sheet)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                ws.write_string(r, c, value) if isinstance(value, str) else ws.write(r, c, value)
    book.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def workbook(tmp_path: Path) -> Path:
    return make_xlsx(
        tmp_path / "copy.xlsx",
        [
            ["ID", "Reference", "Candidate"],
            ["1", REF, INTACTO],
            ["2", REF, SHORT],
            ["3", REF, FORMULA],
            ["4", REF, DDE],
            ["5", REF, None],
            ["6", "...", "texto"],
            ["7", "the cat sat", "the cat sat"],
        ],
    )


# --- scoring a workbook -----------------------------------------------------------------------------------------


def test_score_workbook(workbook: Path) -> None:
    before = digest(workbook)
    result = run("score", str(workbook))
    assert result.exit_code == 0, result.output
    assert digest(workbook) == before
    out = workbook.with_name("copy-scored.xlsx")
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
        1,
    ]  # RANK.EQ within a reference: ties share
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
    assert "corpus BLEU-2" in result.output and "signature" in result.output


def test_existing_output_needs_force(workbook: Path) -> None:
    assert run("score", str(workbook)).exit_code == 0
    out = workbook.with_name("copy-scored.xlsx")
    first = digest(out)
    again = run("score", str(workbook))
    assert again.exit_code == 2 and "already exists; use --force" in again.output
    assert digest(out) == first
    assert run("score", str(workbook), "--force", "-q").exit_code == 0


def test_output_never_overwrites_input(workbook: Path) -> None:
    before = digest(workbook)
    result = run("score", str(workbook), "-o", str(workbook), "--force")
    assert result.exit_code == 2 and "overwrite the input" in result.output
    assert digest(workbook) == before


def test_output_is_whole_or_absent(workbook: Path, monkeypatch) -> None:

    def broken(out, *args, **kwargs):
        out.write(b"PK partial")
        raise OSError("disk full")

    monkeypatch.setattr(report, "write_scored_workbook", broken)
    result = CliRunner().invoke(main, ["score", str(workbook)])
    assert result.exit_code == 2 and "disk full" in result.output
    assert sorted(p.name for p in workbook.parent.iterdir()) == ["copy.xlsx"]  # no output, no temp file


def test_csv_and_json_output(workbook: Path, tmp_path: Path) -> None:
    csv_out = tmp_path / "s.csv"
    assert run("score", str(workbook), "-o", str(csv_out), "-q").exit_code == 0
    text = csv_out.read_text(encoding="utf-8-sig")
    assert csv_out.read_bytes().startswith(codecs.BOM_UTF8)  # so that Excel on Windows reads UTF-8
    assert '"\'=HYPERLINK(""http://x"",""click"")"' in text  # quoted, and neutralised (OWASP)
    assert text.splitlines()[0].startswith('"ID","Reference","Candidate","BLEU-2","rank"')
    result = run("score", str(workbook), "--format", "json", "-o", "-", "-q")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[2]["Candidate"] == FORMULA and lines[3]["Candidate"] == DDE
    assert lines[0]["BLEU-2"] == score(REF, INTACTO).bleu and lines[0]["rank"] == 1
    assert lines[4]["BLEU-2"] is None and lines[5]["note"] == "reference has no words"


@pytest.mark.parametrize(
    ("encoding", "delimiter", "suffix"),
    [("utf-8", ",", ".csv"), ("utf-8-sig", ";", ".csv"), ("utf-16", "\t", ".txt"), ("utf-8", "\t", ".tsv")],
)
def test_text_inputs(tmp_path: Path, encoding: str, delimiter: str, suffix: str) -> None:
    rows = [["Référence", "Candidat"], [REF, INTACTO], [REF, "東京タワー, été"]]
    path = tmp_path / f"in{suffix}"
    path.write_bytes(("\r\n".join(delimiter.join(f'"{v}"' for v in row) for row in rows) + "\r\n").encode(encoding))
    if encoding == "utf-16":
        assert path.read_bytes().startswith(codecs.BOM_UTF16_LE)  # as Excel's "Unicode text" export
    result = run("score", str(path), "--format", "json", "-o", "-", "-q")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["BLEU-2"] == score(REF, INTACTO).bleu
    assert lines[1]["Candidat"] == "東京タワー, été"


def test_stdin_tsv() -> None:
    data = f"reference\tcandidate\n{REF}\t{SHORT}\n".encode()
    result = run("score", "-", "-q", input=data)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].endswith(
        "\t".join(map(str, [score(REF, SHORT).bleu, 1, 1, 5, 5, 1, 4, 4, score(REF, SHORT).bp, 11, 5, '""']))
    )


def test_columns_by_letter_and_name_and_fixed_reference(tmp_path: Path) -> None:
    path = make_xlsx(
        tmp_path / "x.xlsx",
        [
            ["src", "ref A", "ref B", "mt"],
            ["x", "the cat is on the mat", "there is a cat on the mat", "the the the the the the the"],
        ],
    )
    result = run(
        "score",
        str(path),
        "--reference-col",
        "B",
        "--reference-col",
        "ref B",
        "--candidate-col",
        "D",
        "--format",
        "json",
        "-o",
        "-",
        "-q",
    )
    line = json.loads(result.stdout.splitlines()[0])
    assert line["p1 num"] == 2 and line["p1 den"] == 7  # clipped by the largest count in one reference
    result = run(
        "score", str(path), "--reference", "the cat", "--candidate-col", "mt", "--format", "json", "-o", "-", "-q"
    )
    assert json.loads(result.stdout.splitlines()[0])["r"] == 2


def test_template_like_layout_with_labelled_reference(tmp_path: Path) -> None:
    path = make_xlsx(
        tmp_path / "rank.xlsx",
        [
            ["bleu-xl ranking"],
            ["Reference", REF],
            [],
            [],
            ["#", "Candidate", "BLEU-2"],
            ["1", INTACTO, 0.5],
            ["2", SHORT, 0.5],
        ],
        "Rank",
    )
    result = run("score", str(path), "--format", "json", "-o", "-", "-q")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["rank"] for line in lines] == [1, 2]
    assert lines[0]["r"] == 11


def test_pair_command() -> None:
    result = run("pair", REF, INTACTO, "--json")
    detail = json.loads(result.stdout)
    assert detail["p1"] == {"value": 0.9, "numerator": 9, "denominator": 10, "smoothed": False}
    assert detail["p2"]["numerator"] == 8 and detail["r"] == 11 and detail["c"] == 10
    assert detail["bleu"] == score(REF, INTACTO).bleu and detail["max_n"] == 2
    assert detail["candidate_tokens"][-1] == "intacto"
    text = run("pair", "a b c", "x y z").output
    assert "p1 = 1/4 = 0.2500  (add-1 smoothing)" in text and "BLEU-2 = 0.2887" in text


def test_version_and_help() -> None:
    assert run("--version").output.strip() == f"bleu-xl, version {__version__}"
    for command in ([], ["score"], ["pair"]):
        out = run(*command, "--help").output
        assert "Example" in out and "bleu-xl " in out


def test_console_script_runs() -> None:
    exe = Path(sys.executable).with_name("bleu-xl")
    if not exe.exists():
        pytest.skip("the package is not installed as a console script in this environment")
    done = subprocess.run([str(exe), "pair", "le chat", "le chat"], capture_output=True, text=True, check=True)
    assert "BLEU-2 = 1.0000" in done.stdout


# --- bad and hostile input: one line, exit code 2, input untouched ----------------------------------------------


def refused(path: Path | str, *extra: str) -> str:
    before = digest(Path(path)) if Path(path).exists() else None
    result = CliRunner().invoke(main, ["score", str(path), *extra])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("bleu-xl: error: ") and result.output.count("\n") == 1, result.output
    assert "Traceback" not in result.output
    if before is not None:
        assert digest(Path(path)) == before
        assert not any(p.name.endswith("-scored.xlsx") for p in Path(path).parent.iterdir())
    return result.output


def test_missing_file(tmp_path: Path) -> None:
    assert "no such file" in refused(tmp_path / "nope.xlsx")


def test_not_a_spreadsheet(tmp_path: Path) -> None:
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    assert "not a spreadsheet or CSV" in refused(tmp_path / "photo.png")
    (tmp_path / "fake.xlsx").write_bytes(b"hello, not a zip")
    assert "not a valid .xlsx" in refused(tmp_path / "fake.xlsx")
    with zipfile.ZipFile(tmp_path / "other.xlsx", "w") as z:
        z.writestr("readme.txt", "just a zip")
    assert "not an Excel workbook" in refused(tmp_path / "other.xlsx")
    (tmp_path / "bin.csv").write_bytes(b"\x00\x01\x02\xff\xfe\x00" * 50)
    assert "text file" in refused(tmp_path / "bin.csv")


def test_encrypted_workbook(tmp_path: Path) -> None:
    # An encrypted OOXML file is an OLE compound file with EncryptionInfo and EncryptedPackage streams.
    data = bytearray(readers.OLE_MAGIC + b"\x00" * 1016)
    data += "EncryptionInfo".encode("utf-16-le") + b"\x00" * 50 + "EncryptedPackage".encode("utf-16-le")
    (tmp_path / "secret.xlsx").write_bytes(bytes(data))
    assert "password-protected" in refused(tmp_path / "secret.xlsx")
    (tmp_path / "old.xls").write_bytes(readers.OLE_MAGIC + b"\x00" * 2000)
    assert "legacy .xls" in refused(tmp_path / "old.xls")


def test_unknown_sheet(workbook: Path) -> None:
    assert "no sheet named 'Nope'; sheets: Copy" in refused(workbook, "--sheet", "Nope")


def test_missing_columns_lists_headers(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "cols.xlsx", [["Source", "Target"], ["a", "b"]])
    assert "no candidate or reference column; headers found: A 'Source', B 'Target'" in refused(path)
    path = make_xlsx(tmp_path / "cols2.xlsx", [["Source", "Candidate"], ["a", "b"]])
    assert "no reference column" in refused(path) and "A 'Source', B 'Candidate'" in refused(path)
    assert "no candidate column 'Z1'" in refused(path, "--candidate-col", "Z1")


def test_empty_sheet(tmp_path: Path) -> None:
    assert "is empty" in refused(make_xlsx(tmp_path / "empty.xlsx", []))
    (tmp_path / "empty.csv").write_text("")
    assert "is empty" in refused(tmp_path / "empty.csv")


def _workbook_with(tmp_path: Path, name: str, replace: dict[str, bytes]) -> Path:
    source = make_xlsx(tmp_path / "base.xlsx", [["Reference", "Candidate"], ["a b", "a b"]])
    target = tmp_path / name
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item, replace.get(item.filename, zin.read(item.filename)))
        for extra, data in replace.items():
            if extra not in zin.namelist():
                zout.writestr(extra, data)
    source.unlink()
    return target


def test_zip_bomb_ratio(tmp_path: Path) -> None:
    bomb = _workbook_with(tmp_path, "bomb.xlsx", {"xl/media/padding.xml": b"<a/>" + b" " * 50_000_000})
    assert "zip bomb" in refused(bomb)


def test_uncompressed_size_limit(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(xlsx_check, "MAX_UNCOMPRESSED", 2_000)  # the real limit is 1 GiB: too big to build here
    path = _workbook_with(tmp_path, "big.xlsx", {"xl/media/data.bin": bytes(range(256)) * 20})
    assert "would unpack to" in refused(path)


def test_xml_entity_attack(tmp_path: Path) -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
        b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets>'
        b'<sheet name="&lol2;" sheetId="1"/></sheets></workbook>'
    )
    path = _workbook_with(tmp_path, "lol.xlsx", {"xl/workbook.xml": laughs})
    assert "DTD" in refused(path)


def test_defusedxml_guards_the_workbook_part() -> None:
    import defusedxml

    xml = b'<!DOCTYPE x [<!ENTITY e "boom">]><workbook>&e;</workbook>'
    with pytest.raises(defusedxml.DefusedXmlException):
        xlsx_check.SafeET.fromstring(xml)


def test_an_absurd_claimed_dimension_is_not_the_extent(tmp_path: Path) -> None:
    # The reader does not allocate by <dimension>, and the cells are really in A1:B2: read, not refused.
    source = make_xlsx(tmp_path / "base.xlsx", [["Reference", "Candidate"], ["a b", "a b"]])
    with zipfile.ZipFile(source) as z:
        xml = z.read("xl/worksheets/sheet1.xml").replace(
            b'<dimension ref="A1:B2"/>', b'<dimension ref="A1:XFD9999999"/>'
        )
    source.unlink()
    path = _workbook_with(tmp_path, "huge.xlsx", {"xl/worksheets/sheet1.xml": xml})
    done = CliRunner().invoke(main, ["score", str(path), "--format", "json", "-o", "-", "-q"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["BLEU-2"] == 1.0


def test_both_reference_options(workbook: Path) -> None:
    assert "either --reference or --reference-col" in refused(workbook, "--reference", "x", "--reference-col", "B")


# --- the parallel path gives the same results ---------------------------------------------------------------------


def test_process_pool_matches_single_process() -> None:
    pairs = make_pairs(scoring.PARALLEL_MIN_PAIRS + 500, seed=9)
    table = table_sheet.Sheet("t", [["Reference", "Candidate"], *[[r, c] for r, c in pairs]], ["t"])
    layout = columns.find_layout(table)
    one = scoring.score_table(table, layout, workers=1)
    two = scoring.score_table(table, layout, workers=2)
    assert one.outcomes == two.outcomes and one.ranks == two.ranks
    assert one.corpus == two.corpus


# --- the streamed Scores sheet reads back exactly, in three readers ----------------------------------------------

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
    path = make_xlsx(tmp_path / "awkward.xlsx", [["Reference", "Candidate", "n"], *[[REF, t, 7.5] for t in AWKWARD]])
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


def test_libreoffice_reads_the_scored_workbook(workbook: Path, tmp_path: Path) -> None:
    import csv
    import os
    import shutil

    soffice = shutil.which("soffice")
    if soffice is None:
        if os.environ.get("CI") == "true":
            pytest.fail("soffice is missing: .ci/run installs libreoffice-calc-nogui")
        pytest.skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
    assert run("score", str(workbook), "-q").exit_code == 0
    scored = workbook.with_name("copy-scored.xlsx")
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path}/lo-profile-cli-scored",  # private: runs never collide
            "--headless",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76",
            "--outdir",
            str(tmp_path / "lo"),
            str(scored),
        ],
        check=True,
        capture_output=True,
        timeout=180,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    with open(tmp_path / "lo" / "copy-scored.csv", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:4] == ["ID", "Reference", "Candidate", "BLEU-2"]
    assert rows[1][2] == INTACTO and rows[1][3] == f"{score(REF, INTACTO).bleu:.4f}"  # as the 0.0000 format shows
    assert rows[3][2] == FORMULA and rows[4][2] == DDE  # text in LibreOffice too, never evaluated


def test_result_columns_named_like_input_columns_get_a_suffix(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "t.xlsx", [["Reference", "Candidate", "BLEU-2"], [REF, SHORT, 0.5]])
    line = json.loads(run("score", str(path), "--format", "json", "-o", "-", "-q").stdout.splitlines()[0])
    assert line["BLEU-2"] == 0.5 and line["BLEU-2 (bleu-xl)"] == score(REF, SHORT).bleu


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("bleu-xl")
    if not exe.exists():
        pytest.skip("the package is not installed as a console script in this environment")
    rows = [["Reference", "Candidate"], *[[REF, f"{SHORT} {i}"] for i in range(20000)]]
    path = tmp_path / "many.csv"
    path.write_text("\n".join(",".join(row) for row in rows), encoding="utf-8")
    done = subprocess.run(
        f"'{exe}' score '{path}' --format csv -o - -q | head -1", shell=True, capture_output=True, text=True
    )
    assert done.stdout.startswith('"Reference","Candidate","BLEU-2"') and "error" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_progress_bar_on_a_terminal_leaves_the_output_unchanged(tmp_path: Path) -> None:
    """On a real terminal (a pty) a long input shows rich's progress bar on stderr; the scores are the same."""
    import os
    import pty

    pairs = make_pairs(6_000, seed=8)
    source = tmp_path / "long.csv"
    source.write_text("reference,candidate\n" + "".join(f'"{r}","{c}"\n' for r, c in pairs), encoding="utf-8")
    command = [sys.executable, "-c", "from bleu_xl.cli import main; main()", "score", str(source)]
    plain = subprocess.run([*command, "-o", str(tmp_path / "plain.csv")], capture_output=True, check=True)
    assert b"scoring" not in plain.stderr  # not a terminal: no bar

    main_fd, terminal_fd = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen(
        [*command, "-o", str(tmp_path / "tty.csv")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal_fd,
        env=env,
    )
    os.close(terminal_fd)
    shown = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the terminal closed: the command has exited
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    assert process.wait(timeout=60) == 0
    assert b"scoring" in shown and b"100%" in shown  # the bar, drawn up to the end, on the terminal
    assert b"\x1b[2K" in shown  # rich redrew the line: a live bar, not plain text
    assert (tmp_path / "tty.csv").read_bytes() == (tmp_path / "plain.csv").read_bytes()


# --- named rows and typed errors (issue 15) ---------------------------------------------------------------------


def test_rows_are_named_and_notes_are_typed_errors() -> None:
    table = table_sheet.Sheet(
        "t",
        [["Reference", "Candidate"], [REF, INTACTO], [cell_values.CellError("#N/A"), SHORT], [REF, None], ["...", "x"]],
        ["t"],
    )
    result = scoring.score_table(table, columns.find_layout(table), workers=1)
    scored, missing, blank, no_words = result.outcomes
    s = score(REF, INTACTO)
    assert scored == s and scored.refs == 1
    assert scored.stats == (((9, 8), (10, 9), 10, 11))  # matches, totals, c, r
    assert cells.detail_row(scored) == [0.9, 9, 10, 8 / 9, 8, 9, s.bp, 11, 10]
    assert isinstance(missing, cell_values.CellError) and (missing.code, missing.message) == (
        "#N/A",
        "#N/A in the reference",
    )
    assert isinstance(blank, cell_values.Blank)
    assert isinstance(no_words, cell_values.CellError) and no_words.code == "#VALUE!"
    assert no_words.message == "reference has no words"
    assert result.result_row(0) == [s.bleu, 1, *cells.detail_row(s), None]
    assert result.result_row(1)[-1] == "#N/A in the reference" and result.result_row(2)[-1] is None
    assert (result.scored, result.blank, result.problems) == (1, 1, 2)


def test_report_signatures_have_real_types() -> None:
    import typing

    for function in (report.write_comparison_workbook, report.write_scored_workbook, report.write_cell):
        hints = typing.get_type_hints(function)
        assert typing.Any not in [hint for name, hint in hints.items() if name not in {"value"}], function
    hints = typing.get_type_hints(report.write_comparison_workbook)
    assert (hints["table"], hints["layout"], hints["comparison"]) == (
        table_sheet.Sheet,
        columns.Layout,
        table_compare.Comparison,
    )
