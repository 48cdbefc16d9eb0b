"""`bleu-xl score` on the files users really have (issue 13): each row of the issue's table, with files made the
way Excel, LibreOffice and openpyxl make them, scores the right pair or says why not."""

from __future__ import annotations

import codecs
import datetime as dt
import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner

from bleu_xl import score
from bleu_xl.cli import main
from bleu_xl.template import build as template
from bleu_xl.template import data as template_data

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"  # 0.6703 against REF
PAIR = score(REF, CAND).bleu
OTHER = "Get free shipping on all orders"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def xlsx(path: Path, rows: list[list], hidden: str | None = None) -> Path:
    """A workbook as openpyxl writes it (cached values for plain cells), with a column hidden if asked."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Copy"
    for row in rows:
        sheet.append(row)
    if hidden:
        sheet.column_dimensions[hidden].hidden = True
    book.save(path)
    return path


def json_rows(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def scored(path: Path, *args: str) -> list[dict]:
    return json_rows(run("score", str(path), "--format", "jsonl", "-o", "-", "-q", *args))


def refused(path: Path, *args: str) -> str:
    result = run("score", str(path), "-o", str(path.with_name("never.csv")), *args)
    assert result.exit_code == 2, result.output
    assert not path.with_name("never.csv").exists()
    assert "Traceback" not in result.output
    return result.stderr


# --- 1. column choice that cannot silently be wrong ----------------------------------------------------------------


def test_exact_candidate_header_wins_over_a_qualified_one(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "ids.xlsx",
        [["Product reference", "Reference", "Candidate ID", "Candidate"], ["P-1", REF, "V1", CAND]],
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    [row] = json_rows(result)
    assert row["BLEU-2"] == pytest.approx(0.6703, abs=1e-4) and row["BLEU-2"] == PAIR
    assert "candidate D 'Candidate'; reference B 'Reference'" in result.stderr  # said on every run


def test_reference_notes_and_ids_are_not_references(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "notes.xlsx",
        [["Reference ID", "Reference", "Candidate", "Reference notes"], ["R1", REF, CAND, "approved by legal"]],
    )
    [row] = scored(path)
    assert row["BLEU-2"] == PAIR  # as `bleu-xl pair` gives, not 1.0 from three "references"
    assert run("score", str(path), "-o", str(tmp_path / "o.xlsx")).exit_code == 0
    summary = {r[0].value: r[1].value for r in openpyxl.load_workbook(tmp_path / "o.xlsx")["Summary"].iter_rows()}
    assert summary["Signature"].endswith("|refs:1")


def test_numbered_references_are_all_used(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "multi.xlsx", [["Reference 1", "Reference 2", "Candidate"], [OTHER, REF, REF]])
    [row] = scored(path)
    assert row["BLEU-2"] == 1.0 and row["p1 den"] == 7


def test_a_qualified_header_alone_is_accepted(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "fr.xlsx", [["Référence approuvée", "Candidate text"], [REF, CAND]])
    [row] = scored(path)
    assert row["BLEU-2"] == PAIR


def test_two_candidates_are_an_error_that_shows_the_choice(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "two.xlsx", [["Reference", "Candidate A", "Candidate B"], [REF, CAND, OTHER]])
    message = refused(path)
    assert "2 columns could be the candidate (B 'Candidate A', C 'Candidate B')" in message
    assert "--candidate-col B" in message
    assert scored(path, "--candidate-col", "Candidate B")[0]["BLEU-2"] == score(REF, OTHER).bleu


def test_hidden_column_is_never_chosen_and_a_duplicate_header_needs_a_letter(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "draft.xlsx", [["Reference", "Candidate", "Candidate"], [REF, "old draft text", CAND]], hidden="B"
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert json_rows(result)[0]["BLEU-2"] == PAIR  # the visible C, not the hidden draft in B
    assert "candidate C 'Candidate'" in result.stderr
    message = refused(path, "--candidate-col", "Candidate")
    assert "2 columns are headed 'Candidate' (B, C)" in message and "--candidate-col C" in message
    assert scored(path, "--candidate-col", "B")[0]["BLEU-2"] == score(REF, "old draft text").bleu


def test_a_hidden_only_candidate_is_named_not_used(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "hidden.xlsx", [["Reference", "Candidate"], [REF, CAND]], hidden="B")
    assert "the candidate column B 'Candidate' is hidden" in refused(path)


def test_template_compare_sheet_is_ambiguous_for_score_and_fine_for_compare() -> None:
    workbook = Path(__file__).resolve().parent.parent / "workbooks" / "bleu2_ranking.xlsx"
    result = run("score", str(workbook), "--sheet", "Compare", "-o", "-")
    assert result.exit_code == 2 and "could be the candidate" in result.stderr and "'Candidate A'" in result.stderr
    compared = run("compare", str(workbook), "--sheet", "Compare", "--a", "Candidate A", "--b", "Candidate B")
    assert compared.exit_code == 0 and "12 pairs, 0 skipped" in compared.stdout


def test_title_rows_above_the_headers(tmp_path: Path) -> None:
    rows = [["Candidate copy – spring campaign"], [], ["Reference", "Candidate"], [REF, CAND], [REF, OTHER]]
    path = xlsx(tmp_path / "titled.xlsx", rows)
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert [r["BLEU-2"] for r in json_rows(result)] == [PAIR, score(REF, OTHER).bleu]
    assert "header row 3" in result.stderr
    by_letter = run(
        "score", str(path), "--reference-col", "A", "--candidate-col", "B", "--format", "jsonl", "-o", "-", "-q"
    )
    assert len(json_rows(by_letter)) == 2  # the header row is not scored as a pair
    assert scored(path, "--header-row", "3")[0]["BLEU-2"] == PAIR


def test_csv_without_a_header_row(tmp_path: Path) -> None:
    path = tmp_path / "bare.csv"
    path.write_bytes(f'"{REF}","{CAND}"\r\n"{REF}","{OTHER}"\r\n"{REF}","{REF}"\r\n'.encode())
    result = run("score", str(path), "--reference-col", "A", "--candidate-col", "B", "--format", "jsonl", "-o", "-")
    rows = json_rows(result)
    assert [r["BLEU-2"] for r in rows] == [PAIR, score(REF, OTHER).bleu, 1.0]  # 3 rows in, 3 scored
    assert "no header row" in result.stderr
    explicit = run("score", str(path), "--no-header", "--reference-col", "A", "--candidate-col", "B")
    assert explicit.exit_code == 0
    assert "give the candidate column by letter" in refused(path, "--no-header", "--candidate-col", "Candidate")


def test_named_column_that_is_empty_is_an_error(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "empty.xlsx", [["Reference", "Candidate", "Notes", "Spare"], [REF, CAND, "n", None]] * 1)
    assert "the reference column D 'Spare' is empty below the header row 1" in refused(path, "--reference-col", "D")
    assert "the candidate column Z is empty" in refused(path, "--candidate-col", "Z")


# --- 2. Excel's CSV as Excel writes it ----------------------------------------------------------------------------


def test_windows_ansi_csv_with_crlf(tmp_path: Path) -> None:
    """Excel's "CSV (Comma delimited)" on Windows: cp1252 and CRLF."""
    path = tmp_path / "ansi.csv"
    path.write_bytes("Référence,Candidat\r\nL’été arrive,L’été arrive déjà\r\n".encode("cp1252"))
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    [row] = json_rows(result)
    assert row["Candidat"] == "L’été arrive déjà" and row["BLEU-2"] == score("L’été arrive", "L’été arrive déjà").bleu
    assert "(cp1252, delimiter ',')" in result.stderr


def test_french_excel_csv_with_semicolons_and_decimal_commas(tmp_path: Path) -> None:
    """French Excel's CSV: ';' between fields, decimal commas, cp1252; the output comes back the same way."""
    path = tmp_path / "fr.csv"
    path.write_bytes(f"Prix;Référence;Candidat\r\n3,5;{REF};{CAND}\r\n".encode("cp1252"))
    out = tmp_path / "fr-scored.csv"
    result = run("score", str(path), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert "(cp1252, delimiter ';')" in result.stderr
    data = out.read_bytes()
    assert data.startswith(codecs.BOM_UTF8)
    header, row = data.decode("utf-8-sig").splitlines()
    assert header.startswith('"Prix";"Référence";"Candidat";"BLEU-2";"p1"')
    comma = f"{PAIR!r}".replace(".", ",")  # the score with a decimal comma, unquoted: a number to French Excel
    assert row == f'"3,5";"{REF}";"{CAND}";{comma};1;5;5;1;4;4;{comma};7;5;""'  # the input's "3,5" kept


def test_bom_and_utf16_and_given_encoding_and_delimiter(tmp_path: Path) -> None:
    text = f"Reference\tCandidate\r\n{REF}\t{CAND}\r\n"
    for name, data in [
        ("bom.csv", codecs.BOM_UTF8 + text.replace("\t", ",").encode()),
        ("unicode.txt", text.encode("utf-16")),  # Excel's "Unicode text"
    ]:
        (tmp_path / name).write_bytes(data)
        assert scored(tmp_path / name)[0]["BLEU-2"] == PAIR
    odd = tmp_path / "odd.csv"
    odd.write_bytes(f"Reference|Candidate\n{REF}|é\n".encode("latin-1"))
    rows = scored(odd, "--encoding", "latin-1", "--delimiter", "|")
    assert rows[0]["Candidate"] == "é"
    assert "unknown encoding 'nope'" in refused(odd, "--encoding", "nope")


def test_csv_output_delimiter_and_extension_rules(tmp_path: Path) -> None:
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    tsv = tmp_path / "out.tsv"
    assert run("score", str(source), "-o", str(tsv), "-q").exit_code == 0
    assert tsv.read_text(encoding="utf-8-sig").splitlines()[0].split("\t")[:3] == [
        '"Reference"',
        '"Candidate"',
        '"BLEU-2"',
    ]
    semi = tmp_path / "semi.csv"
    assert run("score", str(source), "-o", str(semi), "--delimiter", ";", "-q").exit_code == 0
    assert semi.read_text(encoding="utf-8-sig").splitlines()[0].startswith('"Reference";"Candidate"')
    for bad in ("out.txt", "out.ods", "out"):
        message = refused(source, "-o", str(tmp_path / bad))
        assert "unknown output extension" in message
        assert not (tmp_path / bad).exists()
    assert "cannot hold --format xlsx" in refused(source, "-o", str(tmp_path / "x.csv"), "--format", "xlsx")


# --- 3. cells kept as they were ----------------------------------------------------------------------------------


def test_error_values_are_reported_as_errors(tmp_path: Path) -> None:
    """Cached #N/A and #DIV/0! as Excel saves them (XlsxWriter writes the formula with its cached error)."""
    path = tmp_path / "errors.xlsx"
    book = xlsxwriter.Workbook(str(path))
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
    path = xlsx(tmp_path / "formulas.xlsx", [["Reference", "Candidate"], ['="' + REF + '"', '="' + CAND + '"']])
    message = refused(path)
    assert "holds formulas saved without their values" in message
    assert "open the file in Excel or LibreOffice, save it" in message


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


# --- 4. outputs users can share ----------------------------------------------------------------------------------


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_outputs_get_the_umask_mode(tmp_path: Path, umask: int) -> None:
    source = xlsx(tmp_path / "in.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    previous = os.umask(umask)
    try:
        for name in ("out.xlsx", "out.csv", "out.jsonl"):
            assert run("score", str(source), "-o", str(tmp_path / name), "-q").exit_code == 0
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask
    finally:
        os.umask(previous)


def test_template_refuses_to_overwrite_and_writes_a_file_for_xlsx(tmp_path: Path) -> None:
    folder = tmp_path / "mywb"
    assert run("template", str(folder)).exit_code == 0
    edited = folder / "bleu2_ranking.xlsx"
    edited.write_bytes(b"my edits")
    again = run("template", str(folder))
    assert again.exit_code == 2 and "already exists" in again.stderr and "--force" in again.stderr
    assert edited.read_bytes() == b"my edits"
    assert run("template", str(folder), "--force").exit_code == 0
    assert zipfile.is_zipfile(edited)
    single = tmp_path / "my.xlsx"
    assert run("template", str(single)).exit_code == 0
    assert single.is_file() and openpyxl.load_workbook(single).sheetnames[0] == "Start here"
    assert stat.S_IMODE(single.stat().st_mode) == 0o666 & ~_umask()
    assert run("template", str(single)).exit_code == 2 and single.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.xlsx", "mywb"]  # no temporary or lock file left
    assert len(list((folder / "samples").iterdir())) == len(template_data.SAMPLES)


def test_template_force_replaces_a_link_and_never_writes_through_it(tmp_path: Path) -> None:
    folder = tmp_path / "wb"
    assert run("template", str(folder)).exit_code == 0
    precious = tmp_path / "precious.xlsx"
    precious.write_bytes(b"someone else's workbook")
    link = folder / "bleu2_ranking.xlsx"
    link.unlink()
    link.symlink_to(precious)
    assert run("template", str(folder)).exit_code == 2 and link.is_symlink()  # kept without --force
    assert run("template", str(folder), "--force").exit_code == 0
    assert precious.read_bytes() == b"someone else's workbook"
    assert not link.is_symlink() and zipfile.is_zipfile(link)
    assert sorted(p.name for p in folder.iterdir()) == ["bleu2_ranking.xlsx", "samples"]  # nothing left behind


def test_lite_bundle_keeps_a_main_py_it_did_not_write(tmp_path: Path) -> None:
    from bleu_xl.excel.lite_bundle import bundle_files

    files = bundle_files()
    folder = tmp_path / "bundle"
    first = run("lite-bundle", str(folder))
    assert first.exit_code == 0 and first.stdout.count("wrote ") == 2
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == {n: t.encode("utf-8") for n, t in files.items()}
    again = run("lite-bundle", str(folder))
    assert again.exit_code == 0 and again.stdout.count("is up to date") == 2 and "wrote" not in again.stdout

    # Someone's own xlwings Lite project: their main.py is kept, and requirements.txt is not written either.
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.py").write_text("import xlwings as xw  # my own functions\n", encoding="utf-8")
    refused = run("lite-bundle", str(project))
    assert refused.exit_code == 2 and "main.py: already exists" in refused.stderr and "--force" in refused.stderr
    assert [p.name for p in project.iterdir()] == ["main.py"]  # no requirements.txt, temporary or lock file
    assert (project / "main.py").read_text(encoding="utf-8").startswith("import xlwings as xw  # my own")
    forced = run("lite-bundle", str(project), "--force")
    assert forced.exit_code == 0 and (project / "main.py").read_bytes() == files["main.py"].encode("utf-8")
    assert sorted(p.name for p in project.iterdir()) == ["main.py", "requirements.txt"]

    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "requirements.txt").write_text("xlwings\nnumpy\n", encoding="utf-8")  # the second file refused
    assert run("lite-bundle", str(theirs)).exit_code == 2
    assert [p.name for p in theirs.iterdir()] == ["requirements.txt"]  # main.py was claimed, then let go

    # A folder where a file should be, or a file where the folder should be: one line, nothing written.
    odd = tmp_path / "odd"
    (odd / "main.py").mkdir(parents=True)
    assert "main.py: is a folder" in run("lite-bundle", str(odd), "--force").stderr
    assert [p.name for p in odd.iterdir()] == ["main.py"]
    not_folder = tmp_path / "file"
    not_folder.write_text("x", encoding="utf-8")
    result = run("lite-bundle", str(not_folder))
    assert result.exit_code == 2 and "not a folder" in result.stderr and not_folder.read_text() == "x"
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    result = run("lite-bundle", str(tmp_path / "dangling"))
    assert result.exit_code == 2 and "cannot make this folder" in result.stderr and not (tmp_path / "nowhere").exists()
    assert run("lite-bundle", "").exit_code == 2


def test_lite_bundle_reads_links_and_never_waits_on_a_fifo(tmp_path: Path) -> None:
    from bleu_xl.excel.lite_bundle import bundle_files

    files = bundle_files()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "main.py").write_text(files["main.py"], encoding="utf-8", newline="\n")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "main.py").symlink_to(kept / "main.py")  # the bundle already, through a link: nothing to write
    result = run("lite-bundle", str(linked))
    assert result.exit_code == 0 and f"{linked / 'main.py'} is up to date" in result.stdout
    assert (linked / "main.py").is_symlink()
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "main.py")
    done = subprocess.run(
        [sys.executable, "-m", "bleu_xl.cli", "lite-bundle", str(fifo), "--force"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "not a regular file" in done.stderr
    assert sorted(p.name for p in fifo.iterdir()) == ["main.py"]


def test_write_files_leaves_nothing_when_one_cannot_be_written(tmp_path: Path) -> None:
    """The second file goes past a real file-size limit (RLIMIT_FSIZE): the first, already written to its
    temporary file, is not renamed into place, and no temporary or lock file is left."""
    script = (
        "import resource, sys; from pathlib import Path; from bleu_xl.table.sheet import InputError\n"
        "from bleu_xl.files.output import write_files\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))\n"
        "folder = Path(sys.argv[1])\n"
        "try:\n"
        "    write_files([(folder / 'small.txt', lambda tmp: tmp.write_bytes(b'x' * 10)),\n"
        "                 (folder / 'big.txt', lambda tmp: tmp.write_bytes(b'y' * 100_000))], force=False)\n"
        "except InputError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert "big.txt: cannot write (File too large)" in done.stdout, done.stderr
    assert list(tmp_path.iterdir()) == []


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# --- 5. the scored workbook reads and prints well ----------------------------------------------------------------


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


def test_letters_with_a_fixed_reference_still_skip_the_header_row(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "ids.xlsx", [["ID", "Candidate"], ["1", CAND], ["2", REF]])
    rows = scored(path, "--reference", REF, "--candidate-col", "B")
    assert [r["BLEU-2"] for r in rows] == [PAIR, 1.0]  # "Candidate" is a header, not a candidate


def test_rank_sheet_as_an_excel_table_under_a_title(tmp_path: Path) -> None:
    """The template's Rank layout, as the template branch may make it: a title, the labelled reference, then an
    Excel Table whose header row holds Candidate."""
    path = tmp_path / "rank.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Rank")
    sheet.write_string(0, 0, "bleu-xl: rank copy variants against one approved reference")
    sheet.write_row(1, 0, ["Reference", REF])
    sheet.add_table(4, 0, 6, 2, {"columns": [{"header": "#"}, {"header": "Candidate"}, {"header": "Rank"}]})
    sheet.write_row(5, 0, ["1", CAND])
    sheet.write_row(6, 0, ["2", REF])
    book.close()
    result = run("score", str(path), "--format", "jsonl", "-o", "-", "-q")
    assert [r["BLEU-2"] for r in json_rows(result)] == [PAIR, 1.0]
    assert "header row 5; candidate B 'Candidate'; reference the cell B2" in result.stderr
    committed = Path(__file__).resolve().parent.parent / "workbooks" / "bleu2_ranking.xlsx"
    for sheet_name in ("Rank", "Pairs"):
        assert run("score", str(committed), "--sheet", sheet_name, "-o", "-", "-q").exit_code == 0


def test_encoding_applies_to_csv_output_too(tmp_path: Path) -> None:
    path = tmp_path / "ansi.csv"
    path.write_bytes("Référence,Candidat\r\nL’été,L’été\r\n".encode("cp1252"))
    out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(out), "--encoding", "cp1252", "-q").exit_code == 0
    assert out.read_bytes().decode("cp1252").startswith('"Référence","Candidat"')  # no BOM, cp1252 as asked
    book = xlsx(tmp_path / "cjk.xlsx", [["Reference", "Candidate"], ["東京タワー", "東京"]])
    message = refused(book, "-o", str(tmp_path / "cjk.csv"), "--encoding", "cp1252")
    assert "a cell cannot be written in cp1252 ('東京タワー')" in message and "use --encoding utf-8" in message
    assert not (tmp_path / "cjk.csv").exists()


def test_without_sheet_the_first_sheet_with_the_columns_is_read_and_named(tmp_path: Path) -> None:
    """The template opens on its Start here page: `score` without --sheet reads Rank, says so, and scores it;
    a workbook where no sheet has the columns still gets the first sheet's message."""
    book_path = tmp_path / "ranking.xlsx"
    template.build_template(book_path)
    result = run("score", str(book_path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.stderr
    assert "sheet 'Rank'" in result.stderr and "candidate B 'Candidate'" in result.stderr
    rows = (tmp_path / "out.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 1 + len(template_data.RANK_VARIANTS)
    by_hand = score(template_data.RANK_REFERENCE, template_data.RANK_VARIANTS[1]).bleu
    assert f"{by_hand:.4f}"[:5] in rows[2]

    plain = xlsx(tmp_path / "plain.xlsx", [["Title"], ["nothing to score"]])
    refused = run("score", str(plain))
    assert refused.exit_code == 2 and "sheet 'Copy'" in refused.stderr
