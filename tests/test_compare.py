"""Explain a score; bootstrap intervals and the paired test, checked against sacrebleu's paired bootstrap."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import _paired_bs_test

import bleu_xl
from benchmarks.synthetic import make_pairs
from bleu_xl import BleuError, bootstrap_ci, corpus_score, explain, paired_test, tokenize
from bleu_xl.cli import main
from bleu_xl.excel import cell_values, cells

ROOT = Path(__file__).resolve().parent.parent
REF = "a entrega chegou no prazo e o produto veio bem embalado"
INTACTO = "a entrega chegou no prazo e o produto veio intacto"


# --- explain --------------------------------------------------------------------------------------------------------


def test_explain_seed_example() -> None:
    e = explain(REF, INTACTO)
    assert e.summary() == "missing: bem, embalado | extra: intacto | bigrams missed: veio bem, bem embalado"
    words, bigrams = e.orders
    assert words.matched[:3] == (("a", 1), ("entrega", 1), ("chegou", 1)) and len(words.matched) == 9
    assert words.extra == (("intacto", 1),)
    assert bigrams.extra == (("veio intacto", 1),)
    assert bigrams.missing == (("veio bem", 1), ("bem embalado", 1))
    assert e.score == bleu_xl.score(REF, INTACTO)
    assert e.matched_tokens() == (True,) * 9 + (False,)


def test_explain_clipping_several_references_and_cjk() -> None:
    e = explain(["the cat is on the mat", "there is a cat on the mat"], "the the the cat")
    words = e.orders[0]
    assert ("the", 2) in words.matched and ("the", 1) in words.extra  # clipped at 2 (the first reference)
    assert e.matched_tokens() == (True, True, False, True)
    assert explain("東京タワー", "東京").summary() == "missing: タ, ワ, ー | bigrams missed: 京タ, タワ, ワー"
    assert explain("le chat", "Le chat!").summary() == "exact match"
    assert "missing: the ×2" in explain("the the cat", "cat").summary()


def test_explain_cells() -> None:
    assert cells.explain_cells(REF, INTACTO) == explain(REF, INTACTO).summary()
    out = cells.explain_cells(REF, [[INTACTO], [None], [REF]])
    assert out == [[explain(REF, INTACTO).summary()], [cells.BLANK], ["exact match"]]
    assert cells.explain_cells(None, "x") == cell_values.CellError("#VALUE!", "reference is blank")
    assert cells.explain_cells("...", "x") == cell_values.CellError("#VALUE!", "reference has no words")


# --- bootstrap interval -------------------------------------------------------------------------------------------

PAIRS = [(r, c) for r, c in make_pairs(700, seed=77, min_len=8) if tokenize(c)][:600]
REFS = [r for r, _ in PAIRS if tokenize(r)]
CANDS_A = [c for r, c in PAIRS if tokenize(r)]
CANDS_B = [r if i % 4 == 0 else c for i, (r, c) in enumerate((r, c) for r, c in PAIRS if tokenize(r))]


def test_interval_covers_the_corpus_score() -> None:
    ci = bootstrap_ci(REFS, CANDS_A)
    assert ci.score == corpus_score(REFS, CANDS_A).bleu
    assert ci.low < ci.score < ci.high
    assert ci.high - ci.low < 0.2
    assert bootstrap_ci(REFS, CANDS_A) == ci  # reproducible for a seed
    assert bootstrap_ci(REFS, CANDS_A, seed=1) != ci
    wide = bootstrap_ci(REFS, CANDS_A, level=0.99)
    assert wide.low <= ci.low and wide.high >= ci.high
    with pytest.raises(BleuError):
        bootstrap_ci(REFS, CANDS_A, level=1.5)
    with pytest.raises(BleuError):
        bootstrap_ci(REFS, CANDS_A[:-1])


# --- the same numbers as before resamples were drawn one at a time ---------------------------------------------

# Computed on main before the change (bleu-xl 0.1.0, commit d273c86), where every resample was built up front.
GOLDEN = [(r, c) for r, c in make_pairs(300, seed=31, min_len=6) if tokenize(r)][:200]
G_REFS = [r for r, _ in GOLDEN]
G_A = [c for _, c in GOLDEN]
G_B = [r if i % 3 == 0 else c for i, (r, c) in enumerate(GOLDEN)]
G_DOUBTFUL = [c + " extra" if i % 3 == 0 else c for i, c in enumerate(G_A)]


def _resampled_scores(refs, cands, samples, seed, max_n=2, smoothing="add1"):
    """The corpus BLEU of every resample bootstrap_ci draws, from compare's own columns and draws."""
    from bleu_xl.core.bootstrap import _Columns, _draws

    columns = _Columns.of(refs, cands, max_n)
    return [columns.bleu(smoothing, gather) for gather in _draws(len(columns), samples, seed)]


def test_bootstrap_gives_the_numbers_of_main_for_a_seed() -> None:
    ci = bootstrap_ci(G_REFS, G_A, samples=500, seed=12345)
    assert (ci.score, ci.low, ci.high) == (0.6222720333966405, 0.586108577627687, 0.6566807965846718)
    ci = bootstrap_ci(G_REFS, G_A, samples=500, seed=7)
    assert (ci.low, ci.high) == (0.5847786546554031, 0.6542767142460736)
    # At level 0.9 main took the low bound one resample too low ((1 - 0.9) / 2 * 300 = 14.999...: index 14, with
    # 15 resamples above the high bound); now index 15, as on the high side. The high bounds are main's.
    ci = bootstrap_ci(G_REFS, G_A, samples=300, seed=5, max_n=4, smoothing="none", level=0.9)
    assert (ci.score, ci.low, ci.high) == (0.47489083103376784, 0.4479178031658072, 0.5059586119120456)
    ordered = sorted(_resampled_scores(G_REFS, G_A, 300, 5, max_n=4, smoothing="none"))
    assert ordered.index(ci.low) >= 15 and len(ordered) - 1 - ordered[::-1].index(ci.high) <= 300 - 16
    ci = bootstrap_ci(G_REFS[:1], G_A[:1], samples=50, seed=3)  # one pair: every resample is that pair
    assert (ci.low, ci.high) == (0.35018063965685026, 0.35018063965685026)
    row = cells.ci_cells([[r] for r in G_REFS[:50]], [[c] for c in G_A[:50]], 0.9, 300)
    assert row == [[0.608680504943393, 0.6603899352190586, 0.7101441834451422]]


def test_paired_test_gives_the_numbers_of_main_for_a_seed() -> None:
    p = paired_test(G_REFS, G_A, G_B, samples=500, seed=7)
    assert (p.score_a, p.score_b, p.p_value) == (0.6222720333966405, 0.7436435088301655, 1 / 501)
    assert (p.interval_b.low, p.interval_b.high) == (0.6987696279998828, 0.7833555143468811)
    p = paired_test(G_REFS, G_A, G_DOUBTFUL, samples=400, seed=99)
    assert (p.score_b, p.p_value) == (0.6226535406074409, 0.04738154613466334)
    assert (p.interval_b.low, p.interval_b.high) == (0.5857995488697587, 0.6547453145174977)


@given(st.lists(st.integers(0, 20), min_size=1, max_size=30), st.data())
def test_fast_gather_is_the_obvious_gather(column: list[int], data: st.DataObject) -> None:
    from bleu_xl.core.bootstrap import _fast_gather, _gather

    indices = data.draw(st.lists(st.integers(0, len(column) - 1), min_size=1, max_size=40))
    assert list(_fast_gather(indices)(column)) == _gather(indices)(column) == [column[i] for i in indices]


PEAK_MEMORY_PROGRAM = """
import sys
from benchmarks.synthetic import make_pairs
from bleu_xl import bootstrap_ci, tokenize
from bleu_xl.excel import cell_values
from bleu_xl.excel import cells

pairs = [(r, c) for r, c in make_pairs(6000, seed=4, min_len=14, max_len=26) if tokenize(r)][:3000]
refs = [" ".join(tokenize(r)) for r, _ in pairs]
cands = [" ".join(tokenize(c)) for _, c in pairs]
with open("/proc/self/clear_refs", "w") as clear:  # the peak starts afresh: making the texts does not count
    clear.write("5")
bootstrap_ci(refs, cands, samples=int(sys.argv[1]))
with open("/proc/self/status") as status:
    print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024)
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's resettable peak RSS (VmHWM)")
def test_bootstrap_memory_grows_with_the_pairs_not_the_resamples() -> None:
    """10,000 resamples of 3,000 pairs: the whole process peaks under 200 MB (1.08 GiB more when every resample was
    built up front), and no higher than for a hundred resamples. Measured as the resident peak of a fresh process
    (tracemalloc's bookkeeping of ~90 million small allocations took 47 s)."""

    def peak_mib(samples: int) -> float:
        done = subprocess.run(
            [sys.executable, "-c", PEAK_MEMORY_PROGRAM, str(samples)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return float(done.stdout)

    few, many = peak_mib(100), peak_mib(10_000)
    assert many < 200, (few, many)
    assert many < few + 8, (few, many)  # the 10,000 scores themselves: 80 KB a list


# --- paired test against sacrebleu ----------------------------------------------------------------------------------


def _sacrebleu_paired(refs, a, b, samples=1000):
    metric = BLEU(tokenize="none", max_ngram_order=2, smooth_method="none")
    pre = lambda texts: [" ".join(tokenize(t)) for t in texts]  # noqa: E731
    references = [pre(refs)]
    bl_stats = metric._extract_corpus_statistics(pre(a), references)
    bl_result = metric._aggregate_and_compute(bl_stats)
    _, results = _paired_bs_test(
        {"BLEU": (bl_stats, bl_result)}, "B", pre(b), references, {"BLEU": metric}, n_samples=samples, seed=12345
    )
    return bl_result.score / 100, results["BLEU"].score / 100, results["BLEU"].p_value


@pytest.mark.parametrize("share", [0, 4, 12])
def test_paired_test_agrees_with_sacrebleu(share: int) -> None:
    b = CANDS_A if share == 0 else [r if i % share == 0 else c for i, (r, c) in enumerate(zip(REFS, CANDS_A))]
    if share == 12:
        b = [c + " extra" if i % 3 == 0 else c for i, c in enumerate(CANDS_A)]  # a small, doubtful change
    ours = paired_test(REFS, CANDS_A, b, smoothing="none")
    score_a, score_b, p = _sacrebleu_paired(REFS, CANDS_A, b)
    assert abs(ours.score_a - score_a) < 1e-12 and abs(ours.score_b - score_b) < 1e-12
    if share == 0:
        # Identical columns: sacrebleu counts strict ">" and reports 1/(n+1); we report no difference.
        assert p == pytest.approx(1 / 1001) and ours.p_value == 1.0 and not ours.significant
        assert ours.verdict() == "A and B score the same (p = 1.000)"
    else:
        assert abs(ours.p_value - p) < 0.05, (ours.p_value, p)
        assert ours.significant == (p < 0.05)


def test_paired_test_verdicts_and_reproducibility() -> None:
    result = paired_test(REFS, CANDS_A, CANDS_B)
    assert result.difference > 0 and result.significant
    assert result.p_value == 1 / 1001  # no resample of 1,000 favours A
    assert result.verdict() == "B is better than A; the difference is unlikely to be chance, p < 0.001"
    assert paired_test(REFS, CANDS_B, CANDS_A).verdict().startswith("A is better than B")
    assert paired_test(REFS, CANDS_A, CANDS_B) == result
    assert result.interval_a.low <= result.score_a <= result.interval_a.high
    assert result.interval_b.low <= result.score_b <= result.interval_b.high
    self_test = paired_test(REFS, CANDS_A, CANDS_A)
    assert not self_test.significant and self_test.difference == 0
    assert result.score_a == corpus_score(REFS, CANDS_A).bleu


# --- cells ------------------------------------------------------------------------------------------------------


def test_ci_and_paired_cells_skip_blank_pairs_in_both_columns() -> None:
    refs = [[r] for r in REFS[:40]] + [[None], ["x y"]]
    a = [[c] for c in CANDS_A[:40]] + [["ignored"], [None]]
    b = [[c] for c in CANDS_B[:40]] + [["ignored"], ["x y"]]
    row = cells.paired_cells(refs, a, b)
    expected = paired_test(REFS[:40], CANDS_A[:40], CANDS_B[:40])
    assert row == [[expected.score_a, expected.score_b, expected.difference, expected.p_value]]
    ci = bootstrap_ci(REFS[:40], CANDS_A[:40], level=0.9, samples=200)
    assert cells.ci_cells(refs[:40], a[:40], 0.9, 200.0) == [[ci.low, ci.score, ci.high]]
    assert str(cells.ci_cells(refs, a, 2.0)) == "#VALUE! level must be between 0 and 1, e.g. 0.95"
    assert cells.paired_cells([[REF], [-2146826246]], [["a"], ["b"]], [["a"], ["b"]]) == cell_values.CellError("#N/A")
    shapes = "#VALUE! ranges differ in shape (1x1 vs 2x1 vs 1x1)"
    assert str(cells.paired_cells([[REF]], [["a"], ["b"]], [["a"]])) == shapes
    assert cells.paired_cells([[None]], [[None]], [[None]]) == cells.BLANK


# --- command line ---------------------------------------------------------------------------------------------------


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
    result = CliRunner().invoke(main, ["compare", str(path), "--a", "Prompt A", "--b", "C", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = paired_test(REFS, CANDS_A, CANDS_B)
    assert data["score_a"] == expected.score_a and data["p_value"] == expected.p_value
    assert data["pairs"] == len(REFS) and data["skipped"] == 1
    assert data["verdict"].startswith("Prompt B is better than Prompt A; the difference is unlikely to be chance")
    text = CliRunner().invoke(
        main, ["compare", str(path), "--a", "B", "--b", "Prompt B", "-o", str(tmp_path / "c.xlsx")]
    )
    assert text.exit_code == 0, text.output
    assert "Prompt B is better than Prompt A" in text.output and "95% interval" in text.output
    book = openpyxl.load_workbook(tmp_path / "c.xlsx")
    summary = {r[0].value: r[1].value for r in book["Summary"].iter_rows()}
    assert summary["p-value"] == expected.p_value and summary["Verdict"] == data["verdict"]
    assert "equally good" in summary["Null hypothesis"]
    scores = book["Scores"]
    assert [c.value for c in scores[1]][-2:] == ["BLEU-2 Prompt A", "BLEU-2 Prompt B"]
    assert scores.cell(2, 4).value == bleu_xl.score(REFS[0], CANDS_A[0]).bleu
    bad = CliRunner().invoke(main, ["compare", str(path), "--a", "Prompt A", "--b", "Nope"])
    assert bad.exit_code == 2 and "no candidate B column 'Nope'" in bad.output


def test_pair_command_explains() -> None:
    out = CliRunner().invoke(main, ["pair", REF, INTACTO]).output
    assert "explain: missing: bem, embalado | extra: intacto" in out
    data = json.loads(CliRunner().invoke(main, ["pair", REF, INTACTO, "--json"]).output)
    assert data["matched"] == [True] * 9 + [False]


def test_numpy_free_core() -> None:
    assert "numpy" not in bleu_xl.core.bootstrap.__dict__ and np is not None


def test_p_values_read_as_they_are_never_rounded_across_the_threshold() -> None:
    from bleu_xl.core.bootstrap import p_text

    assert p_text(1 / 1001) == "p < 0.001"  # the smallest p of 1,000 resamples: not "p = 0.001"
    assert p_text(0.0) == "p < 0.001"
    assert p_text(0.001) == "p = 0.001"
    assert p_text(50 / 1001) == "p < 0.05"  # 0.04995: below 0.05, so never shown as 0.050
    assert p_text(0.05) == "p = 0.050"
    assert p_text(0.5) == "p = 0.500"
    interval = bleu_xl.Interval(0.5, 0.4, 0.6, 0.95, 1000, 12345)
    result = bleu_xl.PairedResult(0.2, 0.8, 1 / 1001, interval, interval, 1000, 12345)
    assert result.verdict() == "B is better than A; the difference is unlikely to be chance, p < 0.001"


def test_a_paired_test_whose_resamples_never_vary_is_refused_not_called_significant() -> None:
    with pytest.raises(BleuError, match="every resample gives the same difference"):
        paired_test(["a b"], ["a b"], ["x"], samples=99)  # one pair: p would be 1 / 100
    assert cells.paired_cells([["a b"]], [["a b"]], [["x"]], 99).message.startswith("every resample gives")
    assert paired_test(["a b"], ["x"], ["x"], samples=99).p_value == 1.0  # the same: nothing to refuse


def test_seeds_are_whole_numbers() -> None:
    for seed in (None, "7", 1.5, True):
        with pytest.raises(BleuError, match="seed must be a whole number"):
            bootstrap_ci(REFS, CANDS_A, samples=10, seed=seed)
        with pytest.raises(BleuError, match="seed must be a whole number"):
            paired_test(REFS, CANDS_A, CANDS_B, samples=10, seed=seed)


def test_a_single_candidate_cell_is_not_spread_over_a_column_of_references() -> None:
    for result in (
        cells.paired_cells([["a b"], ["c d"]], [["a b"], ["x"]], [["a b"]], 100),
        cells.ci_cells([["a b"], ["c d"]], [["a b"]]),
        cells.corpus_cells([["a b"], ["c d"]], "a b"),
    ):
        assert isinstance(result, cell_values.CellError) and result.message.startswith("ranges differ in shape"), result
    # one reference cell still serves a column of candidates
    assert cells.corpus_cells("a b c", [["a b c"], ["a b c"]]) == 1.0
