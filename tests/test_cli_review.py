"""The second review's attacks on `bleu-xl score` and `compare`: each case is a file the reviewer made (rebuilt
here), and what the command line must do with it."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from bleu_xl import score
from bleu_xl.cli import main
from bleu_xl.template import build as template

from .test_cli_files import scored

REF = "the cat sat on the mat"
CAND = "the cat sat on a mat"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def workbook(path: Path, rows: list[list], formats: dict[str, str] | None = None) -> Path:
    """A one-sheet workbook as openpyxl writes it, with number formats given by cell ("A2": "0.00")."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Data"
    for row in rows:
        sheet.append(row)
    for ref, number_format in (formats or {}).items():
        sheet[ref].number_format = number_format
    book.save(path)
    return path


# --- 1. equal number formats in two input columns ----------------------------------------------------------


def test_two_columns_with_the_same_number_format_share_one_valid_style(tmp_path: Path) -> None:
    source = workbook(
        tmp_path / "twodates.xlsx",
        [
            ["Start", "End", "Reference", "Candidate", "Price", "Cost"],
            [dt.date(2024, 1, 1), dt.date(2024, 2, 1), REF, CAND, 1.5, 2.25],
            [dt.date(2024, 3, 1), dt.date(2024, 4, 1), REF, REF, 3.0, 4.125],
        ],
        {f"{c}{r}": ("DD/MM/YYYY" if c in "AB" else "0.00") for c in "ABEF" for r in (2, 3)},
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


# --- 2. the extent scan, and a reader that dies ------------------------------------------------------------


def test_a_reader_that_aborts_still_leaves_a_line_on_stderr(tmp_path: Path) -> None:
    # What calamine did on the reviewer's files (exit 134, nothing on stderr): the scan now refuses those before
    # the reader runs (test_cli_hostile), and should another abort remain, faulthandler names it.
    code = (
        "import os, pathlib; from bleu_xl.files import workbook_reader; "
        "workbook_reader._reader_call(pathlib.Path('x.xlsx'), os.abort)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == -signal.SIGABRT
    assert done.stderr.startswith("Fatal Python error: Aborted")
    assert "_reader_call" in done.stderr


def test_a_claimed_dimension_past_the_budget_does_not_refuse_a_small_sheet(tmp_path: Path) -> None:
    # The real extent counts, whatever <dimension> claims (the reader does not allocate by it either).
    source = workbook(tmp_path / "small.xlsx", [["Reference", "Candidate"], [REF, CAND]])
    claimed = tmp_path / "bigdim.xlsx"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(claimed, "w") as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:Z1000000"/>', data)
                assert b"A1:Z1000000" in data
            new.writestr(info, data)
    rows = scored(claimed)
    assert [(row["Reference"], row["Candidate"]) for row in rows] == [(REF, CAND)]
    assert rows[0]["BLEU-2"] == pytest.approx(score(REF, CAND).bleu)


# --- 3, 7, 9. which sheet is read without --sheet ------------------------------------------------------------


def sheets_workbook(path: Path, sheets: list[tuple[str, list[list], str]]) -> Path:
    """A workbook of several sheets: (name, rows, state), state "visible", "hidden" or "veryHidden"."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows, state in sheets:
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
        sheet.sheet_state = state
    book.save(path)
    return path


COVER = ["Start here: put your references in column A of the Rank sheet"]


def test_an_ambiguous_first_sheet_is_reported_not_skipped(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "fallback.xlsx",
        [
            ("Current", [["Reference", "Candidate", "Candidate"], [REF, "a dog", REF]], "visible"),
            ("Archive 2023", [["Reference", "Candidate"], ["old ref text", "old ref text"]], "visible"),
        ],
    )
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2
    assert "sheet 'Current': 2 columns could be the candidate (B 'Candidate', C 'Candidate')" in result.stderr
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize(
    ("problem", "rows", "message"),
    [
        (
            "empty candidate column",
            [["Reference", "Candidate"], [REF, None]],
            "the candidate column B 'Candidate' is empty",
        ),
        ("no reference", [["Candidate"], [CAND]], "no reference column"),
        ("no candidate header", [["Reference", "Notes"], [REF, "x"]], "no candidate column"),
    ],
)
def test_a_first_sheet_with_headers_but_a_problem_is_reported(
    tmp_path: Path, problem: str, rows: list[list], message: str
) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [("Current", rows, "visible"), ("Archive", [["Reference", "Candidate"], [REF, REF]], "visible")],
    )
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2, problem
    assert "sheet 'Current'" in result.stderr and message in result.stderr


def test_a_first_sheet_whose_candidate_is_hidden_is_reported_not_skipped(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [
            ("Current", [["Reference", "Candidate"], [REF, CAND]], "visible"),
            ("Archive", [["Reference", "Candidate"], [REF, REF]], "visible"),
        ],
    )
    book = openpyxl.load_workbook(path)
    book["Current"].column_dimensions["B"].hidden = True
    book.save(path)
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2
    assert "sheet 'Current': the candidate column B 'Candidate' is hidden" in result.stderr


def test_a_cover_page_is_skipped_for_the_next_visible_sheet_with_columns(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [
            ("Start here", [COVER, [], ["Then run bleu-xl score"]], "visible"),
            ("Old", [["Reference", "Candidate"], ["old", "old"]], "hidden"),
            ("Lists", [["Reference", "Candidate"], ["older", "older"]], "veryHidden"),
            ("Copy", [["Reference", "Candidate"], [REF, CAND]], "visible"),
        ],
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert result.exit_code == 0, result.output
    assert f"bleu-xl: {path}, sheet 'Copy': header row 1; candidate B 'Candidate'" in result.stderr
    assert [json.loads(line)["Candidate"] for line in result.stdout.splitlines()] == [CAND]


def test_a_hidden_first_sheet_is_not_read_by_default(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [
            ("Old", [["Reference", "Candidate"], ["old", "old"]], "hidden"),
            ("Copy", [["Reference", "Candidate"], [REF, CAND]], "visible"),
        ],
    )
    assert [row["Candidate"] for row in scored(path)] == [CAND]
    assert [row["Candidate"] for row in scored(path, "--sheet", "Old")] == ["old"]  # named: read as asked


def test_compare_names_its_sheet_and_both_columns(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [
            ("Start here", [COVER], "visible"),
            ("Rank", [["Reference", "Candidate"], [REF, CAND]], "visible"),  # no "Prompt A": passed over
            ("Compare", [["Reference", "Prompt A", "Prompt B"], [REF, CAND, REF], [REF, REF, CAND]], "visible"),
        ],
    )
    result = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--samples", "100")
    assert result.exit_code == 0, result.output
    first = result.stderr.splitlines()[0]
    columns = "header row 1; --a B 'Prompt A', --b C 'Prompt B'; reference A 'Reference'"
    assert first == f"bleu-xl: {path}, sheet 'Compare': {columns}"
    assert result.stdout.startswith("Prompt A: corpus BLEU-2")


# --- 4. a title row above the headers, one column given by letter --------------------------------------------

SPRING = [
    [1, REF, CAND],
    [2, "free delivery on every order", "free delivery on all orders"],
]


@pytest.mark.parametrize(
    ("title", "given"),
    [
        ("Reference copy - spring campaign", ("--candidate-col", "C")),
        ("Candidate copy - spring campaign", ("--reference-col", "B")),
        ("Reference copy - spring campaign", ("--candidate-col", "C", "--reference-col", "B")),
    ],
)
def test_a_title_row_is_not_the_header_row(tmp_path: Path, title: str, given: tuple[str, ...]) -> None:
    path = workbook(tmp_path / "title.xlsx", [[title], [], ["ID", "Reference", "Candidate"], *SPRING])
    result = run("score", str(path), "--format", "jsonl", "-o", "-", *given)
    assert result.exit_code == 0, result.output
    assert "header row 3; candidate C 'Candidate'; reference B 'Reference'" in result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["ID"], row["Candidate"]) for row in rows] == [(1, CAND), (2, "free delivery on all orders")]
    assert rows[0]["BLEU-2"] == pytest.approx(score(REF, CAND).bleu)


# --- 5. an exact name beside a numbered one ------------------------------------------------------------------


def test_reference_beside_reference_2_uses_both_as_references(tmp_path: Path) -> None:
    other = "a cat sat on the mat"
    path = workbook(tmp_path / "refs.xlsx", [["Reference", "Reference 2", "Candidate"], [REF, other, CAND]])
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "reference A 'Reference', B 'Reference 2'" in result.stderr
    assert json.loads(result.stdout)["BLEU-2"] == pytest.approx(score([REF, other], CAND).bleu)
    assert score([REF, other], CAND).bleu != score(REF, CAND).bleu


def test_candidate_beside_candidate_2_is_ambiguous(tmp_path: Path) -> None:
    path = workbook(tmp_path / "cands.xlsx", [["Reference", "Candidate", "Candidate 2"], [REF, CAND, REF]])
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2
    assert (
        "2 columns could be the candidate (B 'Candidate', C 'Candidate 2'); choose one with --candidate-col, "
        "e.g. --candidate-col B" in result.stderr
    )
    assert not (tmp_path / "out.csv").exists()


# --- 6. duplicate and blank headers in the output -------------------------------------------------------------


def test_every_output_column_has_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "dup.csv"
    path.write_text(
        "Notes,Reference,Notes,,Candidate,Notes (2),BLEU-2\n"
        "first,the cat sat on the mat,second,blank,the cat sat,third,old\n",
        encoding="utf-8",
    )
    (row,) = scored(path)
    assert list(row)[:8] == [
        "Notes",
        "Reference",
        "Notes (3)",
        "D",
        "Candidate",
        "Notes (2)",
        "BLEU-2",
        "BLEU-2 (bleu-xl)",
    ]
    assert [row["Notes"], row["Notes (3)"], row["D"], row["Notes (2)"], row["BLEU-2"]] == [
        "first",
        "second",
        "blank",
        "third",
        "old",
    ]
    assert row["BLEU-2 (bleu-xl)"] == pytest.approx(score(REF, "the cat sat").bleu)
    csv_out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(csv_out), "-q").exit_code == 0
    header = csv_out.read_text(encoding="utf-8-sig").splitlines()[0]
    assert header.count('"Notes') == 3 and '"Notes (3)"' in header


# --- 8. CSV injection: plain numbers keep their sign ----------------------------------------------------------

NUMBERS = ["-5", "-0,5", "-0.5", "+5", "-1,234.56", "-1.234,56", "-1 234,5", "-2e3", "-15%"]
FORMULAS = ["-2+3", "=1+1", "@SUM(A1)", "+A1", "-A1", "-5,", "-", "- 5", "-5\n=1", "-1,23456.7", "-٥", "+1+1"]


def test_plain_numbers_are_not_neutralised_but_formulas_are(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    lines = [f"{REF},{CAND},{text}" for text in NUMBERS + FORMULAS]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["Reference", "Candidate", "Notes"], *(row.split(",", 2) for row in lines)])
    out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(out), "-q").exit_code == 0
    with out.open(encoding="utf-8-sig", newline="") as handle:
        notes = [row[2] for row in csv.reader(handle)][1:]
    assert notes == NUMBERS + ["'" + text for text in FORMULAS]


# --- 10. smaller findings -------------------------------------------------------------------------------------


def test_an_empty_numbered_reference_column_is_left_out_with_a_note(tmp_path: Path) -> None:
    path = workbook(
        tmp_path / "refs.xlsx", [["Reference 1", "Reference 2", "Candidate"], [REF, None, CAND], [REF, None, REF]]
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "reference A 'Reference 1'\nbleu-xl: note: the reference column B 'Reference 2' is empty: left out\n" in (
        result.stderr
    )
    assert [json.loads(line)["BLEU-2"] for line in result.stdout.splitlines()] == [score(REF, CAND).bleu, 1.0]
    all_empty = workbook(tmp_path / "none.xlsx", [["Reference 1", "Reference 2", "Candidate"], [None, None, CAND]])
    result = run("score", str(all_empty), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 2 and "the reference column A 'Reference 1' is empty" in result.stderr


def test_blank_rows_above_the_table_do_not_hide_its_headers(tmp_path: Path) -> None:
    path = workbook(tmp_path / "low.xlsx", [[None]] * 55 + [["Reference", "Candidate"], [REF, CAND]])
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "header row 56; candidate B 'Candidate'" in result.stderr
    assert [json.loads(line)["Candidate"] for line in result.stdout.splitlines()] == [CAND]
    assert [row["Candidate"] for row in scored(path, "--header-row", "56")] == [CAND]


def test_a_very_long_header_is_cut_in_the_stderr_line(tmp_path: Path) -> None:
    long = "Candidate " + "very long words " * 40
    path = workbook(tmp_path / "long.xlsx", [["Reference", long], [REF, CAND]])
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    assert result.exit_code == 0, result.output
    line = result.stderr.splitlines()[0]
    assert f"candidate B '{long[:59]}\u2026'; reference A 'Reference'" in line and long[:60] not in line


def test_a_macroman_csv_reads_right_with_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes("Reference,Candidate\ncafé crème,café\n".encode("mac_roman"))
    assert scored(path, "--encoding", "mac_roman")[0]["Reference"] == "café crème"


def test_compare_json_names_its_sheet_and_columns_in_the_payload(tmp_path: Path) -> None:
    path = sheets_workbook(
        tmp_path / "book.xlsx",
        [("Compare", [["Reference", "Prompt A", "Prompt B"], [REF, CAND, REF], [REF, REF, CAND]], "visible")],
    )
    result = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--samples", "100", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)  # stdout and stderr together: still one JSON document
    assert payload["sheet"] == "Compare"
    assert payload["columns"] == "header row 1; --a B 'Prompt A', --b C 'Prompt B'; reference A 'Reference'"


def test_a_mistyped_column_names_the_real_header_row_and_the_closest_header(tmp_path: Path) -> None:

    book = tmp_path / "ranking.xlsx"
    template.build_template(book)
    on_rank = run("score", str(book), "--sheet", "Rank", "--candidate-col", "Candidates", "-o", str(tmp_path / "o.csv"))
    assert on_rank.exit_code == 2
    assert "headers found: A '#', B 'Candidate'" in on_rank.stderr and "did you mean 'Candidate'?" in on_rank.stderr
    # without --sheet, past the cover page: the sheet whose header is closest to the typo is the one reported
    anywhere = run("compare", str(book), "--a", "Candidat A", "--b", "Candidate B")
    assert anywhere.exit_code == 2
    assert "sheet 'Compare'" in anywhere.stderr and "did you mean 'Candidate A'?" in anywhere.stderr
    same = run("compare", str(book), "--sheet", "compare", "--a", "Candidate A", "--b", "Candidate A")
    assert same.exit_code == 2 and "--a and --b name the same column (B)" in same.stderr  # and 'compare' is found
    assert run("compare", str(book), "--sheet", "COMPARE", "--a", "Candidate A", "--b", "Candidate B").exit_code == 0


def test_excels_lock_file_of_an_open_workbook_is_named_as_such(tmp_path: Path) -> None:
    owner = tmp_path / "~$copy.xlsx"
    owner.write_bytes(b"\x0bJane Smith" + b" " * 150)  # what Excel writes beside a workbook it has open
    result = run("score", str(owner))
    assert result.exit_code == 2 and "lock file Excel keeps while a workbook is open" in result.stderr
