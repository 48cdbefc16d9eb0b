"""The second review's attacks on `bleu-xl score` and `compare`: each case is a file the reviewer made (rebuilt
here), and what the command line must do with it."""

from __future__ import annotations

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


def json_rows(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def scored(path: Path, *args: str) -> list[dict]:
    return json_rows(run("score", str(path), "--format", "json", "-o", "-", "-q", *args))


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
    code = "import os, pathlib; from bleu_xl import sheets; sheets._reader_call(pathlib.Path('x.xlsx'), os.abort)"
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
