"""The command as a new user meets it: the summary says what it shows and where the rest is, compare writes what
score writes, the side commands refuse what they cannot do at once, and pair takes score's settings."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner
from sacrebleu.metrics import BLEU

from bleu_xl import score, tokenize
from bleu_xl.cli import main

REF = "TRUE 2026"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


# --- the summary: what it shows, of how many, where the rest is, rows and values as Excel shows them -------------


def test_the_summary_says_top_5_of_how_many_and_shows_rows_and_values_as_excel(tmp_path: Path) -> None:
    path = tmp_path / "long.xlsx"
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sheet = book.add_worksheet("Copy")
    sheet.write_row(0, 0, ["Reference", "Candidate"])
    special = {50: "TRUE 2026", 100: 2026, 200: True}  # 0-based data rows
    for i in range(12_000):
        sheet.write(i + 1, 0, REF)
        sheet.write(i + 1, 1, special.get(i, f"free delivery {chr(97 + i % 26)}{chr(97 + i // 26 % 26)}"))
    book.close()
    out = tmp_path / "long-scored.csv"
    result = run("score", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "BLEU-2: 12,000 scored, 0 blank, 0 with a note"
    assert lines[1] == f"the top 5 of 12,000 (all in {out}):"
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    tie = f"{score(REF, '2026').bleu:.4f}"
    assert rows[:3] == [["52", "1", "1.0000", "TRUE 2026"], ["102", "2", tie, "2026"], ["202", "2", tie, "TRUE"]]
    assert len(rows) == 5 and "2026.0" not in result.stdout and "True" not in result.stdout


def test_an_empty_score_shows_no_table(tmp_path: Path) -> None:
    path = tmp_path / "blank.csv"
    path.write_text("Reference,Candidate\n...,the cat\n", encoding="utf-8")  # a reference with no words
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        "BLEU-2: 0 scored, 0 blank, 1 with a note",
        "corpus BLEU-2 -   reference: Reference",
    ]


# --- compare: -q, outputs as for score, the interval as two numbers ------------------------------------------------

TEMPLATE = Path(__file__).resolve().parents[2] / "workbooks" / "bleu2_ranking.xlsx"
COMPARE = ["compare", str(TEMPLATE), "--sheet", "Compare", "--a", "Candidate A", "--b", "Candidate B"]


def test_compare_quiet_prints_nothing_and_writes_csv_and_json(tmp_path: Path) -> None:
    quiet = run(*COMPARE, "-q")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert quiet.stderr.startswith("bleu-xl: ")  # the columns used, as for score
    shown = run(*COMPARE, "--json")
    payload = json.loads(shown.stdout)
    assert run(*COMPARE, "-q", "-o", str(tmp_path / "c.csv")).exit_code == 0
    header, _, *rest = (tmp_path / "c.csv").read_text(encoding="utf-8-sig").splitlines()
    assert header.endswith('"BLEU-2 Candidate A","BLEU-2 Candidate B","note"') and len(rest) == 11
    assert run(*COMPARE, "-q", "-o", str(tmp_path / "c.json")).exit_code == 0
    document = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert document["comparison"]["interval_a"] == payload["interval_a"] and len(document["rows"]) == 12
    low, high = document["comparison"]["interval_b"]
    assert isinstance(low, float) and isinstance(high, float) and low < document["comparison"]["score_b"] < high
    assert document["columns"]["a"] == {"column": "B", "header": "Candidate A"}
    assert run(*COMPARE, "-q", "-o", str(tmp_path / "c.jsonl")).exit_code == 0
    assert len((tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()) == 12
    refused = run(*COMPARE, "-o", str(tmp_path / "c.txt"))
    assert refused.exit_code == 2 and "unknown output extension '.txt'" in refused.stderr


def test_compare_workbook_gives_each_interval_as_two_numbers(tmp_path: Path) -> None:
    out = tmp_path / "c.xlsx"
    assert run(*COMPARE, "-q", "-o", str(out)).exit_code == 0
    facts = {row[0].value: row[1].value for row in openpyxl.load_workbook(out)["Summary"].iter_rows()}
    payload = json.loads(run(*COMPARE, "--json").stdout)
    assert [facts["95% interval Candidate A, low"], facts["95% interval Candidate A, high"]] == payload["interval_a"]
    assert [facts["95% interval Candidate B, low"], facts["95% interval Candidate B, high"]] == payload["interval_b"]
    assert (facts["Resamples"], facts["Seed"]) == (1000, 12345)
    assert not any(isinstance(v, str) and re.search(r"\d to \d", v) for v in facts.values())


# --- the side commands ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["foo.xls", "foo.XLSM", "foo.xlsb", "foo.ods"])
def test_template_refuses_a_workbook_name_it_cannot_write(tmp_path: Path, monkeypatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("template", name)
    assert result.exit_code == 2 and f"{name}: the template is an .xlsx workbook" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_lite_bundle_help_shows_its_default_folder() -> None:
    assert "(default: xlwings-lite)" in " ".join(run("lite-bundle", "--help").stdout.split())


@pytest.mark.skipif(sys.platform.startswith("win"), reason="the refusal is for macOS and Linux")
@pytest.mark.parametrize("extra", [[], ["--dry-run"], ["--dry-run", "--only", "config"]])
def test_excel_setup_says_at_once_it_is_for_windows(tmp_path: Path, monkeypatch, extra: list[str]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = run("excel-setup", *extra)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("bleu-xl: error: excel-setup is for Windows") and "xlwings-lite" in result.stderr
    assert "AppData" not in result.output and list(tmp_path.iterdir()) == []


# --- pair: score's settings, several references ---------------------------------------------------------------------

REF_1 = "the cat is on the mat"
REF_2 = "there is a cat on the mat"
CAND = "the cat the cat on the mat"


def sacre(references: list[str], candidate: str, max_n: int) -> float:
    metric = BLEU(tokenize="none", max_ngram_order=max_n, smooth_method="none", effective_order=False)
    return metric.sentence_score(" ".join(tokenize(candidate)), [" ".join(tokenize(r)) for r in references]).score


def test_pair_takes_max_n_and_smoothing_as_score_does() -> None:
    result = run("pair", REF_1, CAND, "--max-n", "4", "--smoothing", "none", "--json")
    detail = json.loads(result.stdout)
    assert (detail["max_n"], detail["smoothing"]) == (4, "none") and "p4" in detail
    assert detail["bleu"] == pytest.approx(sacre([REF_1], CAND, 4) / 100, abs=1e-12)
    text = run("pair", REF_1, CAND, "--max-n", "3").stdout
    assert "p3 = " in text and "BLEU-3 = " in text and "|n:3|" in text


def test_pair_takes_several_references() -> None:
    result = run("pair", "--reference", REF_1, "--reference", REF_2, CAND, "--smoothing", "none")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "reference 1 tokens (6): the cat is on the mat",
        "reference 2 tokens (7): there is a cat on the mat",
    ]
    assert f"BLEU-2 = {sacre([REF_1, REF_2], CAND, 2) / 100:.4f}" in lines and "|refs:2" in result.stdout
    detail = json.loads(run("pair", "--reference", REF_1, "--reference", REF_2, CAND, "--json").stdout)
    assert detail["reference_tokens"] == [tokenize(REF_1), tokenize(REF_2)]
    assert detail["bleu"] == score([REF_1, REF_2], CAND).bleu
    for wrong in (["pair", "--reference", REF_1, "a", "b"], ["pair", "only one"]):
        assert run(*wrong).exit_code == 2


def test_a_pair_text_that_starts_with_a_dash_goes_after_two_dashes() -> None:
    result = run("pair", "a b", "-5 off")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "bleu-xl: error: no such option '-5'; a text that starts with - goes after --, as in "
        'bleu-xl pair -- "a b" "-5 off"'
    ]
    typo = run("pair", "a b", "a c", "--max-m", "3")
    assert typo.exit_code == 2 and typo.stderr.startswith(
        "bleu-xl: error: no such option '--max-m' (did you mean --max-n?)"
    )
    assert len(typo.stderr.splitlines()) == 1
    after = run("pair", "--json", "--", "-5 off", "-5 off")
    assert after.exit_code == 0 and json.loads(after.stdout)["bleu"] == 1.0
