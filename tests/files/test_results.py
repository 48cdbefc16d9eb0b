"""The header of a scored table: every output column has its own name, and a result column named like an input
column gets a suffix, so that JSON keys and CSV headers stay distinct."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_xl import score
from tests.helpers import REF, SHORT, run, scored, xlsx_text


def test_result_columns_named_like_input_columns_get_a_suffix(tmp_path: Path) -> None:
    path = xlsx_text(tmp_path / "t.xlsx", [["Reference", "Candidate", "BLEU-2"], [REF, SHORT, 0.5]])
    line = json.loads(run("score", str(path), "--format", "jsonl", "-o", "-", "-q").stdout.splitlines()[0])
    assert line["BLEU-2"] == 0.5 and line["BLEU-2 (bleu-xl)"] == score(REF, SHORT).bleu


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
    assert row["BLEU-2 (bleu-xl)"] == pytest.approx(score("the cat sat on the mat", "the cat sat").bleu)
    csv_out = tmp_path / "out.csv"
    assert run("score", str(path), "-o", str(csv_out), "-q").exit_code == 0
    header = csv_out.read_text(encoding="utf-8-sig").splitlines()[0]
    assert header.count('"Notes') == 3 and '"Notes (3)"' in header


def test_a_result_column_named_like_an_input_column_in_another_case_is_told_apart(tmp_path: Path) -> None:
    """The template's own "Rank" beside bleu-xl's "rank" (by TER): Excel tells headers apart by neither case."""
    source = tmp_path / "ranked.csv"
    source.write_text("Reference,Candidate,Rank\nthe cat sat,the cat sat,1\nthe cat sat,a cat sat,2\n", "utf-8")
    header = run("score", str(source), "--metric", "ter", "-o", "-", "--format", "csv", "-q").stdout.splitlines()[0]
    assert header.lstrip("\ufeff").startswith('"Reference","Candidate","Rank","TER","rank (bleu-xl)",')
