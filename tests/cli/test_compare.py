"""`bleu-xl compare`: the paired test of two candidate columns, what it says it read (its columns spelt --a and --b),
its JSON, its workbook, and its messages."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest

import bleu_xl
from bleu_xl import paired_test
from bleu_xl.core.metrics.ter import ter_signature
from bleu_xl.template import build as template
from tests.helpers import compared_columns, run, xlsx_sheets

REFS, CANDS_A, CANDS_B = compared_columns()
REF = "the cat sat on the mat"
CAND = "the cat sat on a mat"
COVER = ["Start here: put your references in column A of the Rank sheet"]
#: Japanese copy, and two candidate columns of it: TER reads each sentence as one word or a few.
JAPANESE = [
    "2024年5月にNikeの新しいシューズを発売します",
    "全品送料無料キャンペーンを実施中です",
    "今なら新規会員登録で10%オフになります",
    "ご注文は24時間以内に発送いたします",
    "返品は到着後30日以内なら無料です",
]
JAPANESE_A = [
    "2024年5月にNikeの新しいｼｭｰｽﾞを発売します",
    "全品送料無料キャンペーン実施中",
    "今なら新規会員登録で10%オフ",
    "ご注文は24時間以内に発送いたします",
    "返品は30日以内なら無料です",
]
JAPANESE_B = [
    "2024年5月に新しいシューズを発売します",
    "全品送料無料キャンペーンを実施中です",
    "新規会員登録で今なら10%オフになります",
    "ご注文は24時間以内に発送します",
    "返品は到着後30日以内なら無料です",
]


def _compare_file(tmp_path: Path) -> Path:
    import xlsxwriter

    path = tmp_path / "ab.xlsx"
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet()
    ws.write_row(0, 0, ["Reference", "Prompt A", "Prompt B"])
    for i, (r, a, b) in enumerate(zip(REFS, CANDS_A, CANDS_B), start=1):
        ws.write_string(i, 0, r)
        ws.write_string(i, 1, a)
        ws.write_string(i, 2, b)
    ws.write_string(len(REFS) + 1, 1, "no reference: skipped")
    book.close()
    return path


def test_compare_command(tmp_path: Path) -> None:
    path = _compare_file(tmp_path)
    result = run("compare", str(path), "--a", "Prompt A", "--b", "C", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = paired_test(REFS, CANDS_A, CANDS_B)
    assert data["score_a"] == expected.score_a and data["p_value"] == expected.p_value
    assert data["pairs"] == len(REFS) and data["skipped"] == 1
    assert data["verdict"].startswith("Prompt B is better than Prompt A; the difference is unlikely to be chance")
    text = run("compare", str(path), "--a", "B", "--b", "Prompt B", "-o", str(tmp_path / "c.xlsx"))
    assert text.exit_code == 0, text.output
    assert "Prompt B is better than Prompt A" in text.output and "95% interval" in text.output
    book = openpyxl.load_workbook(tmp_path / "c.xlsx")
    summary = {r[0].value: r[1].value for r in book["Summary"].iter_rows()}
    assert summary["p-value"] == expected.p_value and summary["Verdict"] == data["verdict"]
    assert "equally good" in summary["Null hypothesis"]
    assert (summary["Input"], summary["Sheet"]) == (str(path), "Sheet1")
    assert expected.p_value < 0.001 and expected.p_text == "p < 0.001" and expected.p_text in summary["Verdict"]
    assert book["Summary"]["B11"].number_format == '"< 0.001"'  # shown as the verdict says it, not 0.0010
    scores = book["Scores"]
    assert [c.value for c in scores[1]][-3:] == ["BLEU-2 Prompt A", "BLEU-2 Prompt B", "note"]
    assert scores.cell(2, 4).value == bleu_xl.score(REFS[0], CANDS_A[0]).bleu and scores.cell(2, 6).value is None
    skipped = scores.cell(len(REFS) + 2, 6).value
    assert skipped == "left out of the test: Prompt A: reference is blank; Prompt B is blank"
    # Formatted as a scored workbook is: text wrapped and wide, scores to four places with data bars, a filter.
    assert scores.column_dimensions["A"].width > 40 and scores["A2"].alignment.wrap_text
    assert scores["D2"].number_format == "0.0000" and scores.auto_filter.ref == f"A1:F{len(REFS) + 2}"
    bars = {str(cf.sqref) for cf in scores.conditional_formatting for r in cf.rules if r.type == "dataBar"}
    assert bars == {f"D2:D{len(REFS) + 2}", f"E2:E{len(REFS) + 2}"}
    assert scores.freeze_panes == "A2"
    bad = run("compare", str(path), "--a", "Prompt A", "--b", "Nope")
    assert bad.exit_code == 2 and "no candidate B column 'Nope'" in bad.output


def test_the_difference_is_named_by_the_columns_as_the_scores_and_verdict_are(tmp_path: Path) -> None:
    """Columns named A and B given the other way round (--a 'Prompt B'): the difference says which it subtracts."""
    path = _compare_file(tmp_path)
    done = run("compare", str(path), "--a", "Prompt B", "--b", "Prompt A", "-o", str(tmp_path / "c.xlsx"))
    assert done.exit_code == 0, done.output
    expected = paired_test(REFS, CANDS_B, CANDS_A)
    assert expected.difference < 0
    assert f"difference (Prompt A - Prompt B) {expected.difference:+.4f}, " in done.stdout
    assert "Prompt B is better than Prompt A" in done.stdout
    summary = {r[0].value: r[1].value for r in openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"].iter_rows()}
    assert summary["Difference (Prompt A - Prompt B)"] == pytest.approx(expected.difference)


def test_compare_names_its_sheet_and_both_columns(tmp_path: Path) -> None:
    path = xlsx_sheets(
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


def test_compare_json_names_its_sheet_and_columns_in_the_payload(tmp_path: Path) -> None:
    path = xlsx_sheets(
        tmp_path / "book.xlsx",
        [("Compare", [["Reference", "Prompt A", "Prompt B"], [REF, CAND, REF], [REF, REF, CAND]], "visible")],
    )
    result = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--samples", "100", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)  # stdout and stderr together: still one JSON document
    assert payload["sheet"] == "Compare"
    assert payload["columns"] == "header row 1; --a B 'Prompt A', --b C 'Prompt B'; reference A 'Reference'"


def test_the_signature_names_the_settings_and_the_references_compared(tmp_path: Path) -> None:
    """Two reference columns: the signature says refs:2 as score's does, in --json (which named no setting at all,
    so --normalized left no trace) and in the -o document and workbook."""
    path = tmp_path / "two.csv"
    path.write_text("Reference 1,Reference 2,A,B\na b c,a b,a b,a c\nx y,x z,x y,x\n", encoding="utf-8")
    compare = ("compare", str(path), "--a", "A", "--b", "B", "--metric", "ter", "--normalized", "--samples", "20")
    said = ter_signature(normalized=True, refs=2)
    assert json.loads(run(*compare, "--json").stdout)["signature"] == said
    assert run(*compare, "-q", "-o", str(tmp_path / "c.json")).exit_code == 0
    assert json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["signature"] == said
    assert run(*compare, "-q", "-o", str(tmp_path / "c.xlsx")).exit_code == 0
    summary = openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"]
    assert [value for label, value, *_ in summary.iter_rows(values_only=True) if label == "Signature"] == [said]
    assert (
        bleu_xl.score_file(
            path, candidate_col="A", metrics=bleu_xl.Ter(normalized=True), output=tmp_path / "s.csv"
        ).signature
        == said
    )


def test_compare_on_the_templates_compare_sheet(tmp_path: Path) -> None:
    """The sheet is found in any case; a column typed wrong is reported on the sheet whose header is closest, past
    the cover page; --a and --b must name two columns."""
    book = tmp_path / "ranking.xlsx"
    template.build_template(book)
    done = run("compare", str(book), "--sheet", "COMPARE", "--a", "Candidate A", "--b", "Candidate B")
    assert done.exit_code == 0 and "(12 pairs, 0 skipped" in done.stdout
    anywhere = run("compare", str(book), "--a", "Candidat A", "--b", "Candidate B")
    assert anywhere.exit_code == 2
    assert "sheet 'Compare'" in anywhere.stderr and "did you mean 'Candidate A'?" in anywhere.stderr
    same = run("compare", str(book), "--sheet", "compare", "--a", "Candidate A", "--b", "Candidate A")
    assert same.exit_code == 2 and "--a and --b name the same column (B)" in same.stderr


def test_a_csv_compared_is_named_as_the_input_and_has_no_sheet(tmp_path: Path) -> None:
    """A CSV file has no sheet: the outputs name it as the input, and give no sheet (its name is the file's)."""
    path = tmp_path / "variants.csv"
    path.write_text(f"Reference,Prompt A,Prompt B\n{REF},{CAND},{REF}\n{REF},{REF},{CAND}\n", encoding="utf-8")
    compare = ("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--samples", "100")
    payload = json.loads(run(*compare, "--json").stdout)
    assert (payload["input"], payload["sheet"]) == (str(path), None)
    assert run(*compare, "-q", "-o", str(tmp_path / "c.json")).exit_code == 0
    document = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert (document["input"], document["sheet"]) == (str(path), None)
    assert run(*compare, "-q", "-o", str(tmp_path / "c.csv")).exit_code == 0
    assert "variants.csv" not in (tmp_path / "c.csv").read_text(encoding="utf-8")
    assert run(*compare, "-q", "-o", str(tmp_path / "c.xlsx")).exit_code == 0
    assert run("score", str(path), "--candidate-col", "Prompt A", "-q", "-o", str(tmp_path / "s.xlsx")).exit_code == 0
    for out in ("c.xlsx", "s.xlsx"):
        facts = [row[:2] for row in openpyxl.load_workbook(tmp_path / out)["Summary"].iter_rows(values_only=True)]
        assert facts[0] == ("Input", str(path)) and "Sheet" not in [label for label, _ in facts], out


def test_compare_by_approximate_randomization(tmp_path: Path) -> None:
    """--test ar: sacrebleu's --paired-ar, 10,000 trials unless --samples says; no intervals, in the text, the JSON
    and the Summary sheet; the p-value is the library's (the command's numpy sums are the core's plain ones)."""
    from bleu_xl import Randomization

    path = _compare_file(tmp_path)
    expected = Randomization(trials=10_000).paired(REFS, CANDS_A, CANDS_B)
    text = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--test", "ar")
    assert text.exit_code == 0, text.output
    assert "interval" not in text.stdout and f"Prompt A: corpus BLEU-2 {expected.score_a:.4f}\n" in text.stdout
    assert "10000 randomization trials, seed 12345)" in text.stdout
    small = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--test", "ar", "--samples", "500")
    data = json.loads(run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--test", "ar", "--json").stdout)
    assert (data["test"], data["samples"], data["interval_a"], data["interval_b"]) == ("ar", 10_000, None, None)
    assert data["p_value"] == expected.p_value and "500 randomization trials" in small.stdout
    written = run(
        "compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--test", "ar", "-q", "-o", str(tmp_path / "c.xlsx")
    )
    assert written.exit_code == 0, written.output
    summary = {r[0].value: r[1].value for r in openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"].iter_rows()}
    assert summary["Randomization trials"] == 10_000 and "Resamples" not in summary
    assert not any("interval" in str(label) for label in summary)
    assert summary["Null hypothesis"].endswith("(approximate randomization)")
    bootstrap = json.loads(run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--json").stdout)
    assert (bootstrap["test"], bootstrap["samples"]) == ("bs", 1000)
    wrong = run("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--test", "t")
    assert wrong.exit_code == 2 and "'t' is not one of 'bs', 'ar'" in wrong.output


def test_a_row_left_out_of_the_test_says_so_in_its_note_in_every_output(tmp_path: Path) -> None:
    """A row with one side blank is left out of the test but shows the other side's score: its note says why, so
    that no one averages that score in unawares; rows compared have none, and the counts say how many were."""
    path = tmp_path / "gaps.csv"
    rows = [
        ["Reference", "Prompt A", "Prompt B"],
        [REF, CAND, REF],
        [REF, "the cat", CAND],
        [REF, "", CAND],
        [REF, "the mat", ""],
        ["...", "the cat", "the mat"],
        [REF, "", ""],
        ["the dog ran", "the dog", "a dog ran"],
    ]
    path.write_text("".join(",".join(f'"{cell}"' for cell in row) + "\n" for row in rows), encoding="utf-8")
    notes = [
        None,
        None,
        "left out of the test: Prompt A is blank",
        "left out of the test: Prompt B is blank",
        "left out of the test: reference has no words",
        "left out of the test: Prompt A and Prompt B are blank",
        None,
    ]
    compare = ("compare", str(path), "--a", "Prompt A", "--b", "Prompt B", "--samples", "20")
    text = run(*compare, "-o", str(tmp_path / "c.csv"))
    assert text.exit_code == 0, text.output
    assert "(3 pairs, 4 skipped, 20 resamples, seed 12345)" in text.stdout
    # The terminal names the row left out for what it holds (not for a blank), as score names such rows.
    assert "bleu-xl: note: row 6 left out of the test: reference has no words" in text.stderr
    with (tmp_path / "c.csv").open(encoding="utf-8-sig", newline="") as handle:
        written = list(csv.DictReader(handle))
    assert [row["note"] or None for row in written] == notes
    assert written[2]["BLEU-2 Prompt B"] != "" and written[2]["BLEU-2 Prompt A"] == ""  # B's score, and the note
    assert run(*compare, "-o", str(tmp_path / "c.json")).exit_code == 0
    document = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert [row["note"] for row in document["rows"]] == notes
    assert (document["comparison"]["pairs"], document["comparison"]["skipped"]) == (3, 4)
    assert run(*compare, "-o", str(tmp_path / "c.xlsx")).exit_code == 0
    book = openpyxl.load_workbook(tmp_path / "c.xlsx")
    scores = list(book["Scores"].iter_rows(values_only=True))
    assert scores[0][-1] == "note" and [row[-1] for row in scores[1:]] == notes
    summary = {row[0]: row[1] for row in book["Summary"].iter_rows(values_only=True)}
    assert (summary["Pairs compared"], summary["Rows skipped"]) == (3, 4)
    compared = bleu_xl.compare_file(path, candidate_col="Prompt A", b_col="Prompt B", samples=20)
    assert compared.comparison.left_out == notes and compared.comparison.used == 3
    # One row where only A has a candidate and one where only B has: the verdict says so in every output.
    said = "; left out: 1 row where only Prompt A has a candidate and 1 row where only Prompt B has a candidate (a "
    assert compared.comparison.verdict.endswith(said + "blank candidate is not scored as a miss)")
    assert compared.comparison.as_dict()["verdict"] == compared.comparison.verdict
    assert summary["Verdict"] == compared.comparison.verdict
    assert compared.comparison.verdict in text.stdout.splitlines()


def test_a_system_that_leaves_its_hard_rows_blank_is_named_in_the_verdict(tmp_path: Path) -> None:
    """B blank wherever it would score below A: on the rows it filled it wins, and the verdict said only that. It
    names the rows left out because one side is blank, since a blank is not scored as a miss."""
    refs = [f"the {w} sat on the mat near door {i}" for i, w in enumerate(["cat", "dog", "bird", "fox"] * 15)]
    a = [" ".join(ref.split()[: 4 + i % 5]) for i, ref in enumerate(refs)]  # cut short, by one to five words
    b = [ref if i % 2 else "" for i, ref in enumerate(refs)]  # perfect where filled, blank on half the rows
    path = tmp_path / "blank.csv"
    path.write_text("Reference,A,B\n" + "".join(f"{r},{x},{y}\n" for r, x, y in zip(refs, a, b)), encoding="utf-8")
    verdict = bleu_xl.compare_file(path, candidate_col="A", b_col="B").comparison.verdict
    assert verdict.startswith("B scores higher than A")  # 30 pairs compared: too few to say it is better
    assert verdict.endswith(
        "; left out: 30 rows where only A has a candidate (a blank candidate is not scored as a miss)"
    )


def test_compare_file_checks_its_test_before_reading(tmp_path: Path) -> None:
    import pytest

    from bleu_xl import BleuXlError, TooFewResamples, compare_file

    with pytest.raises(BleuXlError, match="test must be one of 'bs', 'ar', not 'paired'"):
        compare_file(tmp_path / "missing.xlsx", candidate_col="A", b_col="B", test="paired")
    for test in ("bs", "ar"):
        for samples in (19, 0, -1):  # the minimum given is the paired test's, never 1
            with pytest.raises(
                TooFewResamples, match=rf"^samples={samples} is too few for a paired test: give at least 20"
            ):
                compare_file(tmp_path / "missing.xlsx", candidate_col="A", b_col="B", test=test, samples=samples)
    compared = compare_file(_compare_file(tmp_path), candidate_col="Prompt A", b_col="Prompt B", test="ar", samples=50)
    assert (compared.comparison.result.test, compared.comparison.result.samples) == ("ar", 50)


def test_fewer_than_20_resamples_or_trials_are_refused_in_one_line(tmp_path: Path) -> None:
    """With fewer than 20 draws a p-value is never below 0.05: refused before the input is read."""
    for test, samples in (("bs", "19"), ("ar", "19"), ("bs", "0"), ("ar", "-3")):
        done = run("compare", str(tmp_path / "in.csv"), "--a", "A", "--b", "B", "--test", test, "--samples", samples)
        assert (done.exit_code, done.stdout) == (2, ""), done.output
        assert done.stderr == (
            f"bleu-xl: error: --samples {samples} is too few for a paired test: give at least 20 (with fewer, p can "
            "never fall below 0.05)\n"
        )


HEDGE = "too few for the paired bootstrap to tell a real difference from chance (compare 50 or more)"


def test_a_bootstrap_verdict_on_fewer_than_50_pairs_hedges_in_every_output(tmp_path: Path) -> None:
    """The text, the JSON and the workbook's Summary: the verdict says the pairs are too few for it to be trusted;
    approximate randomization, which holds its level on few pairs, does not."""
    path = tmp_path / "few.csv"
    rows = zip(REFS[:30], CANDS_A[:30], CANDS_B[:30])
    path.write_text("Reference,A,B\n" + "".join(f'"{r}","{a}","{b}"\n' for r, a, b in rows), encoding="utf-8")
    hedge = f"; only 30 pairs were compared, {HEDGE}"
    text = run("compare", str(path), "--a", "A", "--b", "B", "-o", str(tmp_path / "c.xlsx"))
    assert text.exit_code == 0, text.output
    verdict = text.stdout.splitlines()[-3]
    assert verdict.startswith("B scores higher than A, p") and verdict.endswith(hedge)
    assert json.loads(run("compare", str(path), "--a", "A", "--b", "B", "--json").stdout)["verdict"] == verdict
    summary = {r[0].value: r[1].value for r in openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"].iter_rows()}
    assert (summary["Verdict"], summary["Pairs compared"]) == (verdict, 30)
    randomized = json.loads(run("compare", str(path), "--a", "A", "--b", "B", "--test", "ar", "--json").stdout)
    assert randomized["pairs"] == 30 and "too few" not in randomized["verdict"]


def test_json_carries_every_note_whatever_q_says(tmp_path: Path) -> None:
    """The JSON is the result, printed whatever -q says, with every note: what was read (the reference columns
    found) and what was compared (TER on text without spaces between words). -q prints no verdict; standard error
    says what it says without -q, as score's does."""
    path = tmp_path / "ja.csv"
    path.write_text(
        "Reference 1,Reference 2,A,B\n"
        + "".join(f"{r},{r}。,{a},{b}\n" for r, a, b in zip(JAPANESE, JAPANESE_A, JAPANESE_B)),
        encoding="utf-8",
    )
    compare = ("compare", str(path), "--a", "A", "--b", "B", "--metric", "ter", "--samples", "100", "--json")
    loud, quiet = run(*compare), run(*compare, "-q")
    assert loud.exit_code == quiet.exit_code == 0, quiet.output
    assert quiet.stderr == loud.stderr and json.loads(quiet.stdout) == json.loads(loud.stdout)
    notes = json.loads(quiet.stdout)["notes"]
    assert notes[0].startswith("2 reference columns found by their headers")
    assert notes[1].startswith(
        "TER: rows 2, 3, 4 and 2 more are written without spaces between words (Chinese or "
        "Japanese): TER reads such a sentence as one word or a few"
    )
    assert [line.removeprefix("bleu-xl: note: ") for line in loud.stderr.splitlines()] == notes[1:]
    assert run(*compare[:-1], "-q").stdout == ""  # -q: no verdict printed (-o writes it)


def test_a_side_without_an_interval_says_why(tmp_path: Path) -> None:
    """A's pairs all alike: every resample gives A the same score, so A has no interval; the text and the workbook
    say why rather than leave it out in silence."""
    words = "the cat sat on the mat".split()
    a = ["the cat sat on the mat"] * 60
    b = [" ".join(words[: 2 + i % 5]) for i in range(60)]  # cut short by zero to four words
    path = tmp_path / "alike.csv"
    rows = zip(["the cat sat on the mat"] * 60, a, b)
    path.write_text("Reference,A,B\n" + "".join(f"{r},{x},{y}\n" for r, x, y in rows), encoding="utf-8")
    text = run("compare", str(path), "--a", "A", "--b", "B", "-o", str(tmp_path / "c.xlsx"))
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].endswith("(no interval: its pairs are all alike, so every resample gives the same score)")
    assert "95% interval" in lines[1]
    summary = {r[0].value: r[1].value for r in openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"].iter_rows()}
    assert summary["Interval A"].startswith("no interval: its pairs are all alike")
    few = bleu_xl.compare_file(path, candidate_col="A", b_col="B", samples=20).comparison.result
    assert few.no_interval_text("b") == "no interval: 20 resamples are too few for one"
