"""Comparing two columns of a file, and making the template and the Lite bundle, are library calls too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import xlsxwriter

import bleu_xl
from bleu_xl import Chrf, ComparedFile, InputError, compare_file, paired_test
from tests.helpers import compared_columns, run

REFS, CANDS_A, CANDS_B = compared_columns()


def ab_workbook(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet("AB")
    ws.write_row(0, 0, ["Reference", "Prompt A", "Prompt B"])
    for i, row in enumerate(zip(REFS, CANDS_A, CANDS_B), start=1):
        ws.write_row(i, 0, row)
    book.close()
    return path


def test_compare_file_is_the_paired_test_of_the_two_columns(tmp_path: Path) -> None:
    path = ab_workbook(tmp_path / "ab.xlsx")
    seen: list[ComparedFile] = []
    done = compare_file(path, candidate_col="Prompt A", b_col="Prompt B", samples=200, on_read=seen.append)
    assert seen == [done] and done.output is None and done.notes == []
    assert done.comparison.result == paired_test(REFS, CANDS_A, CANDS_B, samples=200)
    assert (done.comparison.a_name, done.comparison.b_name, done.comparison.used) == ("Prompt A", "Prompt B", len(REFS))
    assert bleu_xl.render(done.describe()) == (
        "header row 1; candidate_col B 'Prompt A', b_col C 'Prompt B'; reference A 'Reference'"
    )


def test_a_letter_given_as_b_col_follows_the_letter_rule(tmp_path: Path) -> None:
    """No header row, and an A/B test's arm in D ('B', 'A', 'B'): b_col 'B' is column B, as candidate_col 'B' would
    be, not the arm read as a header where row 1 is taken for the header row; a header row given keeps its 'B'."""
    path = tmp_path / "arms.csv"
    path.write_text(
        "the cat sat on the mat,the cat sat on a mat,the cat sat on the mat,B\n"
        "the sun is hot today,the sun is hot,the sun is hot today,A\n"
        "a dog ran in the park,a dog ran,a dog ran in a park,B\n",
        encoding="utf-8",
    )
    done = compare_file(path, candidate_col="C", b_col="B", reference_cols=["A"], samples=20)
    assert done.comparison.b_col == 1
    given = compare_file(path, candidate_col="C", b_col="B", reference_cols=["A"], header_row=1, samples=20)
    assert given.comparison.b_col == 3


def test_compare_file_writes_what_the_command_writes(tmp_path: Path) -> None:
    path = ab_workbook(tmp_path / "ab.xlsx")
    done = compare_file(
        path, candidate_col="B", b_col="C", metric=Chrf(word_order=2), output=tmp_path / "lib.json", seed=7
    )
    cli = run("compare", str(path), "--a", "B", "--b", "C", "--metric", "chrf", "--word-order", "2", "--seed", "7")
    assert cli.exit_code == 0 and f"corpus chrF2++ {done.comparison.result.score_a:.4f}" in cli.stdout
    written = json.loads((tmp_path / "lib.json").read_text())
    assert written["comparison"]["p_value"] == done.comparison.result.p_value and len(written["rows"]) == len(REFS)


def test_compare_file_refuses_as_settings(tmp_path: Path) -> None:
    path = ab_workbook(tmp_path / "ab.xlsx")
    with pytest.raises(InputError, match=r"candidate_col and b_col name the same column \(B\)"):
        compare_file(path, candidate_col="B", b_col="Prompt A")
    with pytest.raises(InputError, match="output_encoding applies to a CSV output"):
        compare_file(path, candidate_col="B", b_col="C", output_encoding="cp1252")
    with pytest.raises(TypeError, match="metric object"):
        compare_file(path, candidate_col="B", b_col="C", metric="chrf")  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"chrF takes it: score with metric=bleu_xl\.Chrf\(\)$"):
        compare_file(path, candidate_col="B", b_col="C", reference_text="...")
    with pytest.raises(InputError, match=r"^force must be True or False, not 'no'$"):
        compare_file(path, candidate_col="B", b_col="C", output=tmp_path / "x.json", force="no")
    with pytest.raises(TypeError, match=r"^sheet must be a string or None"):
        compare_file(path, candidate_col="B", b_col="C", sheet=0)  # type: ignore[arg-type]


def test_the_template_and_the_lite_bundle_are_written_by_library_calls(tmp_path: Path) -> None:
    written = bleu_xl.write_template(tmp_path / "books")
    assert tmp_path / "books" / "bleu2_ranking.xlsx" in written and len(written) > 1
    with pytest.raises(InputError, match=r"the template is an \.xlsx workbook"):
        bleu_xl.write_template(tmp_path / "old.xls")
    first = bleu_xl.write_lite_bundle(tmp_path / "lite")
    again = bleu_xl.write_lite_bundle(tmp_path / "lite")
    assert [wrote for _, wrote in first] == [True, True] and [wrote for _, wrote in again] == [False, False]
    assert (tmp_path / "lite" / "main.py").read_text(encoding="utf-8").startswith('"""bleu-xl')
    assert bleu_xl.EXCEL_SETUP_PARTS == ("xlwings-addin", "config", "xlam")


def test_columns_given_as_none_and_paths_given_as_bytes(tmp_path: Path) -> None:
    """None where a column is required (compare's B, a reference column in the list) is a BleuTypeError, not one from
    deep in the column rules; a path as bytes (as os.listdir(b".") gives it) is read, not reported missing."""
    path = ab_workbook(tmp_path / "ab.xlsx")
    for given in ({"b_col": None}, {"b_col": "Prompt B", "reference_cols": [None]}):
        with pytest.raises(bleu_xl.BleuTypeError, match="must be a column's letter or header as text"):
            compare_file(path, **{"candidate_col": "Prompt A", **given})
    with pytest.raises(bleu_xl.BleuTypeError, match="must be a column's letter or header as text"):
        bleu_xl.score_file(path, reference_cols=[None], output=tmp_path / "o.csv")
    done = compare_file(bytes(path), candidate_col="Prompt A", b_col="Prompt B", samples=200)
    assert done.comparison.result == paired_test(REFS, CANDS_A, CANDS_B, samples=200)
    scored = bleu_xl.score_file(bytes(path), candidate_col="Prompt A", output=bytes(tmp_path / "s.csv"))
    assert scored.output == str(tmp_path / "s.csv") and (tmp_path / "s.csv").exists()
    with pytest.raises(bleu_xl.BleuTypeError, match="path must be a path"):
        bleu_xl.score_file(3)
