"""Bootstrap intervals and the paired test: fixed numbers for a seed, agreement with sacrebleu's paired bootstrap,
memory that does not grow with the resamples, and p-values that read true."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import _paired_bs_test

import bleu_xl
from benchmarks.synthetic import make_pairs
from bleu_xl import BleuError, Chrf, Resampling, TooFewResamples, bootstrap_ci, corpus_score, paired_test, tokenize
from tests.helpers import compared_columns

ROOT = Path(__file__).resolve().parents[2]
REFS, CANDS_A, CANDS_B = compared_columns()


# --- the interval ------------------------------------------------------------------------------------------------


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


def test_seeds_are_whole_numbers() -> None:
    for seed in (None, "7", 1.5, True):
        with pytest.raises(BleuError, match="seed must be a whole number"):
            bootstrap_ci(REFS, CANDS_A, samples=10, seed=seed)
        with pytest.raises(BleuError, match="seed must be a whole number"):
            paired_test(REFS, CANDS_A, CANDS_B, samples=20, seed=seed)


def test_a_paired_test_of_fewer_than_20_resamples_is_refused() -> None:
    """p = (c + 1) / (resamples + 1): with 19 it is never below 0.05, so no difference could ever be found."""
    for samples in (19, 0, -1):
        with pytest.raises(
            TooFewResamples, match=rf"^samples={samples} is too few for a paired test: give at least 20"
        ):
            paired_test(REFS, CANDS_A, CANDS_B, samples=samples)
    with pytest.raises(TooFewResamples):
        Resampling(Chrf(), samples=1).paired_of([], [])  # before anything else is looked at
    assert issubclass(TooFewResamples, BleuError)
    smallest = paired_test(REFS, CANDS_A, CANDS_B, samples=20)
    assert smallest.p_value == 1 / 21 and smallest.significant  # 20 can: this B is clearly better
    # An interval takes as many resamples as leave each tail one: with one, 0.58 to 0.58 left out its score of 0.61.
    for samples, level in ((39, 0.95), (1, 0.95), (199, 0.99), (19, 0.9)):
        with pytest.raises(TooFewResamples, match=rf"^samples={samples} is too few for a {level:.0%} interval"):
            bootstrap_ci(REFS, CANDS_A, samples=samples, level=level)
    with pytest.raises(TooFewResamples, match=r"^samples=100 is too few for a 99.5% interval: give at least 400"):
        bootstrap_ci(REFS, CANDS_A, samples=100, level=0.995)  # not "100%"
    # A paired test takes 20 resamples, too few for its sides' intervals: it gives none, as randomization does.
    few = paired_test(REFS, CANDS_A, CANDS_B, samples=39)
    assert few.interval_a is None and few.interval_b is None
    enough = paired_test(REFS, CANDS_A, CANDS_B, samples=40)
    assert enough.interval_a is not None and enough.interval_a.level_text == "95%"
    for samples, level in ((40, 0.95), (200, 0.99), (20, 0.9)):
        interval = bootstrap_ci(REFS, CANDS_A, samples=samples, level=level)
        assert interval.samples == samples and interval.low <= interval.high


# --- fixed numbers for a seed ------------------------------------------------------------------------------------


# Reference numbers of bleu-xl 0.1.0, where every resample was built up front: drawing the resamples one at a time
# must give every number the same.


GOLDEN = [(r, c) for r, c in make_pairs(300, seed=31, min_len=6) if tokenize(r)][:200]


G_REFS = [r for r, _ in GOLDEN]


G_A = [c for _, c in GOLDEN]


G_B = [r if i % 3 == 0 else c for i, (r, c) in enumerate(GOLDEN)]


G_DOUBTFUL = [c + " extra" if i % 3 == 0 else c for i, c in enumerate(G_A)]


def _resampled_scores(refs, cands, samples, seed, max_n=2, smoothing="add1"):
    """The corpus BLEU of every resample bootstrap_ci draws, from compare's own columns and draws."""
    from bleu_xl import Bleu
    from bleu_xl.core.bootstrap import score_of_sums, statistics_columns
    from bleu_xl.core.column_sums import PLAIN

    metric = Bleu(max_n, smoothing)
    columns = statistics_columns(metric, [stats for stats, _ in metric.corpus_stats(refs, cands)])
    return [score_of_sums(metric, drawn) for drawn in PLAIN.resampled(columns, samples, seed)]


def test_bootstrap_gives_the_reference_numbers_for_a_seed() -> None:
    ci = bootstrap_ci(G_REFS, G_A, samples=500, seed=12345)
    assert (ci.score, ci.low, ci.high) == (0.6222720333966405, 0.586108577627687, 0.6566807965846718)
    ci = bootstrap_ci(G_REFS, G_A, samples=500, seed=7)
    assert (ci.low, ci.high) == (0.5847786546554031, 0.6542767142460736)
    # At level 0.9 the low bound is the resample at index 15, as many below it as there are above the high bound
    # ((1 - 0.9) / 2 * 300 = 14.999... must not round down to index 14).
    ci = bootstrap_ci(G_REFS, G_A, samples=300, seed=5, max_n=4, smoothing="none", level=0.9)
    assert (ci.score, ci.low, ci.high) == (0.47489083103376784, 0.44791780316580726, 0.5059586119120456)
    ordered = sorted(_resampled_scores(G_REFS, G_A, 300, 5, max_n=4, smoothing="none"))
    assert ordered.index(ci.low) >= 15 and len(ordered) - 1 - ordered[::-1].index(ci.high) <= 300 - 16
    with pytest.raises(BleuError, match=r"^one pair, or pairs all alike"):  # one pair: each resample is it
        bootstrap_ci(G_REFS[:1], G_A[:1], samples=50, seed=3)


def test_paired_test_gives_the_reference_numbers_for_a_seed() -> None:
    p = paired_test(G_REFS, G_A, G_B, samples=500, seed=7)
    assert (p.score_a, p.score_b, p.p_value) == (0.6222720333966405, 0.7436435088301655, 1 / 501)
    assert (p.interval_b.low, p.interval_b.high) == (0.6987696279998828, 0.7833555143468811)
    p = paired_test(G_REFS, G_A, G_DOUBTFUL, samples=400, seed=99)
    assert (p.score_b, p.p_value) == (0.6226535406074409, 0.04738154613466334)
    assert (p.interval_b.low, p.interval_b.high) == (0.5857995488697587, 0.6547453145174977)


@given(st.lists(st.integers(0, 20), min_size=1, max_size=30), st.data())
def test_fast_gather_is_the_obvious_gather(column: list[int], data: st.DataObject) -> None:
    from bleu_xl.core.column_sums import fast_gather as _fast_gather
    from bleu_xl.core.column_sums import gather as _gather

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
    """2,000 resamples of 3,000 pairs: the whole process peaks under 200 MB (about 216 MB more when every resample was
    built up front: 1.08 GiB for 10,000), and no higher than for a hundred resamples. Measured as the resident peak
    of a fresh process (tracemalloc's bookkeeping of so many small allocations costs minutes)."""

    def peak_mib(samples: int) -> float:
        done = subprocess.run(
            [sys.executable, "-c", PEAK_MEMORY_PROGRAM, str(samples)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return float(done.stdout)

    few, many = peak_mib(100), peak_mib(2_000)
    assert many < 200, (few, many)
    assert many < few + 8, (few, many)  # the 2,000 scores themselves: 16 KB a list


def test_numpy_free_core() -> None:
    assert "numpy" not in bleu_xl.core.bootstrap.__dict__ and np is not None


# --- the paired test against sacrebleu -----------------------------------------------------------------------------


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


def test_a_paired_test_whose_resamples_never_vary_is_refused_not_called_significant() -> None:
    with pytest.raises(BleuError, match="every resample gives the same difference"):
        paired_test(["a b"], ["a b"], ["x"], samples=99)  # one pair: p would be 1 / 100
    assert paired_test(["a b"], ["x"], ["x"], samples=99).p_value == 1.0  # the same: nothing to refuse
    with pytest.raises(BleuError, match="every resample gives the same difference"):
        paired_test(["a b"] * 49, ["a b"] * 49, ["x"] * 49, samples=99)  # too few pairs to say anything


def test_an_interval_of_one_pair_or_pairs_all_alike_is_refused() -> None:
    # Every resample is the corpus itself, and an interval of no width reads as a certain score: at any count.
    for refs, cands in ((["a b c"], ["a b d"]), (["a b c"] * 60, ["a b d"] * 60)):
        with pytest.raises(BleuError, match=r"^one pair, or pairs all alike: every resample is the same"):
            bootstrap_ci(refs, cands)
    with pytest.raises(BleuError, match=r"^one pair, or pairs all alike"):
        Resampling(Chrf()).interval(["a b c"] * 49, ["a b d"] * 49)
    # Pairs unlike that all score 1 are a real answer, [1, 1]; pairs unlike, an interval of some width.
    perfect = [f"free delivery on order {i} " + "x " * i for i in range(10)]
    assert (bootstrap_ci(perfect, perfect).low, bootstrap_ci(perfect, perfect).high) == (1.0, 1.0)
    two = bootstrap_ci(["a b c", "x y z"], ["a b c", "x q"])
    assert two.low < two.high
    # The paired test gives no interval for such a side, as compare prints none.
    result = Resampling(samples=100).paired(["a b c"] * 60, ["a b d"] * 60, ["a b c"] * 30 + ["x"] * 30)
    assert result.interval_a is None and result.interval_b is not None


def test_many_pairs_alike_where_one_side_wins_every_time_are_a_clear_verdict() -> None:
    # Fifty buttons, each right in B and wrong in A: every resample agrees, as every randomization trial does.
    refs = [f"word{i}" for i in range(50)]
    wrong = [f"other{i}" for i in range(50)]
    for metric in (bleu_xl.Bleu(), bleu_xl.Ter()):
        result = Resampling(metric, samples=99).paired(refs, wrong, refs)
        assert result.p_value == 1 / 100 and result.significant
        assert result.verdict().startswith("B is better than A")
        assert bleu_xl.Randomization(metric, trials=99).paired(refs, wrong, refs).significant


# --- p-values as text --------------------------------------------------------------------------------------------


def test_p_values_read_as_they_are_never_rounded_across_the_threshold() -> None:
    from bleu_xl.core.bootstrap import p_text

    assert p_text(1 / 1001) == "p < 0.001"  # the smallest p of 1,000 resamples: not "p = 0.001"
    assert p_text(0.0) == "p < 0.001"
    assert p_text(0.001) == "p = 0.001"
    assert p_text(0.0123) == "p = 0.012"
    assert p_text(0.0494) == "p = 0.049"
    assert p_text(50 / 1001) == "p < 0.05"  # 0.04995: below 0.05, so never shown as 0.050
    assert p_text(0.05) == "p = 0.050"
    assert p_text(0.5) == "p = 0.500"
    interval = bleu_xl.Interval(0.5, 0.4, 0.6, 0.95, 1000, 12345)
    result = bleu_xl.PairedResult(0.2, 0.8, 1 / 1001, interval, interval, 1000, 12345, pairs=50)
    assert result.verdict() == "B is better than A; the difference is unlikely to be chance, p < 0.001"


HEDGE = "too few for the paired bootstrap to tell a real difference from chance (compare 50 or more)"


def test_a_bootstrap_verdict_on_fewer_than_50_pairs_says_it_is_not_to_be_trusted() -> None:
    """benchmarks/equal_systems.py: on 5 to 30 pairs the paired bootstrap calls equally good systems different
    11% to 21% of the time, not 5%, and about half the time on 2 or 3: its verdict says which scores higher, never
    that the difference is real."""
    few = paired_test(REFS[:49], CANDS_A[:49], CANDS_B[:49])
    assert (few.pairs, few.too_few_pairs) == (49, True)
    assert few.verdict("Prompt A", "Prompt B") == (
        f"Prompt B scores higher than Prompt A, {few.p_text}; only 49 pairs were compared, {HEDGE}"
    )
    assert (
        paired_test(REFS[:12], CANDS_A[:12], CANDS_A[:12]).verdict().endswith(f"only 12 pairs were compared, {HEDGE}")
    )
    enough = paired_test(REFS[:50], CANDS_A[:50], CANDS_B[:50])
    assert (enough.pairs, enough.too_few_pairs) == (50, False) and HEDGE not in enough.verdict()
    # approximate randomization holds its level on few pairs (3% to 6% there): its verdict stands as it is
    randomized = bleu_xl.Randomization(trials=1000).paired(REFS[:12], CANDS_A[:12], CANDS_B[:12])
    assert (randomized.pairs, randomized.too_few_pairs) == (12, False) and HEDGE not in randomized.verdict()
