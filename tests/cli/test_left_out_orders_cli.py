"""Scoring 0.2 on the command line: an order left out is a blank beside 0 / 0 in every output (CSV, JSON lines,
the scored workbook), `pair` says why, `compare` resamples with the same rule, every face shows the signature."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from bleu_xl import corpus_score
from bleu_xl.cli import main

THAI_REF = "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้"
THAI_NEAR = THAI_REF.replace("ฟรี", "")
SIGNATURE = "bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
ROWS = [
    ("Shop", "Buy", 1 / 2),
    ("Shop now", "Shop", math.exp(1 - 2 / 1)),
    ("Total", "5", 1 / 2),
    (THAI_REF, THAI_NEAR, math.exp(1 - 27 / 25) * math.sqrt(25 / 25 * 23 / 24)),
    (THAI_REF, "ลดราคา", math.exp(1 - 27 / 6) * math.sqrt(3 / 6 * 1 / 6)),
]


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "copy.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Reference", "Candidate"])
        writer.writerows((ref, cand) for ref, cand, _ in ROWS)
    return path


def test_csv_leaves_the_order_blank_beside_zero_over_zero(table: Path, tmp_path: Path) -> None:
    out = tmp_path / "scored.csv"
    shown = run("score", str(table), "-o", str(out)).output
    assert SIGNATURE in shown.replace("\n", "")  # the summary wraps at the terminal width
    with out.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row, (_, _, expected) in zip(rows, ROWS, strict=True):
        assert float(row["BLEU-2"]) == pytest.approx(expected, rel=0, abs=1e-12)
    one_word = rows[0]
    assert (one_word["p1"], one_word["p1 num"], one_word["p1 den"]) == ("0.5", "1", "2")
    assert (one_word["p2"], one_word["p2 num"], one_word["p2 den"]) == ("", "0", "0")


def test_json_lines_give_null(table: Path, tmp_path: Path) -> None:
    out = tmp_path / "scored.jsonl"
    run("score", str(table), "-o", str(out), "--quiet")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["p2"], r["p2 num"], r["p2 den"]) for r in rows[:3]] == [(None, 0, 0)] * 3
    assert rows[3]["p2"] == pytest.approx(23 / 24) and rows[3]["BLEU-2"] > 0.9 > 0.01 > rows[4]["BLEU-2"]


def test_the_scored_workbook_leaves_the_cell_empty(table: Path, tmp_path: Path) -> None:
    out = tmp_path / "scored.xlsx"
    run("score", str(table), "-o", str(out), "--quiet")
    book = openpyxl.load_workbook(out)
    scores = book["Scores"]
    header = [c.value for c in scores[1]]
    first = {name: cell.value for name, cell in zip(header, scores[2])}
    assert (first["p2"], first["p2 num"], first["p2 den"]) == (None, 0, 0)
    assert first["BLEU-2"] == 0.5
    summary = {r[0].value: r[1].value for r in book["Summary"].iter_rows(max_row=9)}
    assert summary["Signature"] == SIGNATURE


def test_pair_says_the_order_was_left_out_and_why() -> None:
    text = run("pair", "Shop now", "Shop").output
    assert "p2 = 0/0, left out of the score  (the candidate has only 1 word: no bigrams)" in text
    assert "bigrams left out of the score: the candidate has only 1 word" in text
    assert f"BLEU-2 = {math.exp(-1):.4f}" in text and f"signature {SIGNATURE}" in text
    detail = json.loads(run("pair", "Shop", "Buy", "--json").output)
    assert detail["p2"] == {"value": None, "numerator": 0, "denominator": 0, "smoothed": False}
    assert detail["bleu"] == 0.5 and detail["signature"] == SIGNATURE
    empty = run("pair", "Shop now", "!!!").output
    assert "p1 = 0/0  (the candidate has no words: BLEU is 0)" in empty
    thai = json.loads(run("pair", THAI_REF, THAI_NEAR, "--json").output)
    assert thai["candidate_tokens"][:6] == ["จั", "ด", "ส่", "ง", "สํ", "า"]
    assert (thai["r"], thai["c"], thai["p2"]["numerator"], thai["p2"]["denominator"]) == (27, 25, 23, 24)


def test_compare_resamples_with_the_same_rule(tmp_path: Path) -> None:
    refs = ["shop", "sale", "new", "shop now", "free delivery"]
    a = ["shop", "buy", "new", "shop", "free"]
    b = ["shop", "sale", "new", "shop now", "delivery"]
    path = tmp_path / "ab.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Reference", "A", "B"])
        writer.writerows(zip(refs, a, b))
    result = json.loads(run("compare", str(path), "--a", "A", "--b", "B", "--samples", "200", "--json").output)
    # A: one word each, no bigram in the whole column: p1 alone, 4/5, times BP exp(1 - 7/5)
    assert result["score_a"] == corpus_score(refs, a).bleu == pytest.approx(math.exp(1 - 7 / 5) * 4 / 5)
    assert result["score_b"] == corpus_score(refs, b).bleu
