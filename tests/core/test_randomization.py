"""Approximate randomization (``Randomization``, ``bleu-xl compare --test ar``): its definition, its numbers for a
seed, and its p-values against sacrebleu's ``--paired-ar`` on the same text (the random generators differ: within
sampling noise)."""

from __future__ import annotations

import math
import random

import pytest
from sacrebleu.metrics import CHRF, TER
from sacrebleu.significance import PairedTest

from benchmarks.synthetic import make_pairs
from bleu_xl import Bleu, BleuError, Chrf, Randomization, TooFewResamples, paired_test
from bleu_xl.core.bootstrap import score_of_sums, statistics_columns
from bleu_xl.core.column_sums import PLAIN
from bleu_xl.core.metrics.ter import Ter
from bleu_xl.fast.column_sums import NumpySums
from tests.helpers import compared_columns

TRIALS = 10_000
REFS, CANDS_A, CANDS_B = compared_columns()


def _close_pairs(rule: str) -> tuple[list[str], list[str], list[str]]:
    """240 pairs and a column B that changes every third candidate of A, half the time for the better (chrF: words
    dropped or the reference's first words added; TER: the reference itself or four words added): A and B score
    close, so that the p-value is neither tiny nor 1."""
    pairs = make_pairs(240, seed=21, min_len=8, max_len=20)
    refs, a = [r for r, _ in pairs], [c for _, c in pairs]
    rng = random.Random(4)

    def changed(ref: str, cand: str) -> str:
        if rule == "chrf":
            words = cand.split()
            return " ".join(words[:-2]) if rng.random() < 0.5 else cand + " " + " ".join(ref.split()[:2])
        return ref if rng.random() < 0.3 else cand + " " + " ".join(ref.split()[:4])

    return refs, a, [changed(r, c) if i % 3 == 0 else c for i, (r, c) in enumerate(zip(refs, a))]


def _sacrebleu_p(metric: object, refs: list[str], a: list[str], b: list[str]) -> float:
    _, scores = PairedTest([("A", a), ("B", b)], {"m": metric}, [refs], test_type="ar", n_samples=TRIALS)()
    (name,) = (key for key in scores if key != "System")
    return float(scores[name][1].p_value)


def _noise(p: float) -> float:
    """Five standard deviations of the difference of two p-values, each from TRIALS independent trials."""
    return 5 * math.sqrt(2 * p * (1 - p) / TRIALS) + 1e-4


def test_chrf_p_value_is_sacrebleus_within_sampling_noise() -> None:
    refs, a, b = _close_pairs("chrf")
    ours = Randomization(Chrf(), TRIALS, seed=5).paired(refs, a, b, sums=NumpySums())
    theirs = _sacrebleu_p(CHRF(), refs, a, b)
    assert 0.05 < theirs < 0.9  # a case where the test has something to say
    assert abs(ours.p_value - theirs) <= _noise(theirs)
    assert ours.interval_a is None and ours.test == "ar" and ours.samples == TRIALS


def test_ter_counts_ties_sacrebleu_does_not() -> None:
    """TER's differences come in whole edits over the same reference length, so a trial often ties the observed
    difference exactly. A permutation test counts a tie as at least as extreme (bleu-xl); sacrebleu counts only
    larger differences, so its p-value is the smaller. Counted sacrebleu's way, bleu-xl's own trials give sacrebleu's
    p-value within sampling noise; counted as bleu-xl does, the p-value is what Randomization returns."""
    refs, a, b = _close_pairs("ter")
    metric = Ter()
    result = Randomization(metric, TRIALS, seed=5).paired(refs, a, b, sums=NumpySums())
    stats_a = [s for s, _ in metric.corpus_stats(refs, a)]
    stats_b = [s for s, _ in metric.corpus_stats(refs, b)]
    columns_a, columns_b = statistics_columns(metric, stats_a), statistics_columns(metric, stats_b)
    total_a, total_b = [sum(c) for c in columns_a], [sum(c) for c in columns_b]
    observed = abs(score_of_sums(metric, total_b) - score_of_sums(metric, total_a))
    differences = [[y - x for x, y in zip(ca, cb)] for ca, cb in zip(columns_a, columns_b)]
    larger = ties = 0
    for moved in NumpySums().swapped(differences, TRIALS, 5):
        trial_a = score_of_sums(metric, [t + m for t, m in zip(total_a, moved)])
        trial_b = score_of_sums(metric, [t - m for t, m in zip(total_b, moved)])
        larger += abs(trial_b - trial_a) > observed
        ties += abs(trial_b - trial_a) == observed
    assert result.p_value == (larger + ties + 1) / (TRIALS + 1) and ties > TRIALS / 100
    theirs = _sacrebleu_p(TER(), refs, a, b)
    assert 0.05 < theirs < 0.9
    assert abs((larger + 1) / (TRIALS + 1) - theirs) <= _noise(theirs)
    assert result.p_value > theirs


def test_the_numbers_for_a_seed_and_the_plain_sums_are_the_fast_ones() -> None:
    plain = Randomization(Bleu(), 2000, seed=7).paired(REFS, CANDS_A, CANDS_B)
    assert plain == Randomization(Bleu(), 2000, seed=7).paired(REFS, CANDS_A, CANDS_B, sums=NumpySums(4096))
    bootstrap = paired_test(REFS, CANDS_A, CANDS_B)
    assert (plain.score_a, plain.score_b) == (bootstrap.score_a, bootstrap.score_b)
    assert plain.p_value == 1 / 2001  # B is the reference every fourth row: clearly better
    refs, a, b = _close_pairs("chrf")
    close = Randomization(Chrf(), 500, seed=3).paired(refs, a, b)
    assert close.p_value == 89 / 501
    assert close == Randomization(Chrf(), 500, seed=3).paired(refs, a, b, sums=NumpySums(64))
    assert close != Randomization(Chrf(), 500, seed=4).paired(refs, a, b)


def test_identical_candidates_are_never_significant() -> None:
    result = Randomization(Bleu(), 200, seed=1).paired(REFS, CANDS_A, CANDS_A)
    assert result.p_value == 1 and result.difference == 0
    assert result.verdict() == "A and B score the same (p = 1.000)"


def test_a_swap_moves_a_pairs_statistics_to_the_other_side() -> None:
    """A trial's totals are A + s and B - s: the same as adding up the pseudo-systems pair by pair."""
    metric = Chrf()
    stats_a = [s for s, _ in metric.corpus_stats(REFS[:40], CANDS_A[:40])]
    stats_b = [s for s, _ in metric.corpus_stats(REFS[:40], CANDS_B[:40])]
    differences = [
        [y - x for x, y in zip(ca, cb)]
        for ca, cb in zip(statistics_columns(metric, stats_a), statistics_columns(metric, stats_b))
    ]
    from bleu_xl.core.column_sums import swapped_indices

    for swapped, moved in zip(swapped_indices(40, 5, 2), PLAIN.swapped(differences, 5, 2)):
        chosen = set(swapped)
        pseudo_a = [stats_b[i] if i in chosen else stats_a[i] for i in range(40)]
        total_a = [sum(c) for c in statistics_columns(metric, stats_a)]
        assert [t + m for t, m in zip(total_a, moved)] == [sum(c) for c in statistics_columns(metric, pseudo_a)]


def test_settings_are_checked_when_made() -> None:
    for trials in (0, -1):  # the minimum a paired test takes, not the 1 a count of draws otherwise takes
        with pytest.raises(TooFewResamples, match=rf"^trials={trials} is too few for a paired test: give at least 20"):
            Randomization(trials=trials)
    with pytest.raises(BleuError, match="trials must be a whole number of at least 1"):
        Randomization(trials=20.5)  # type: ignore[arg-type]
    with pytest.raises(TooFewResamples, match=r"^trials=19 is too few for a paired test: give at least 20"):
        Randomization(trials=19)  # p = (c + 1) / 20 is never below 0.05
    assert Randomization(trials=20).trials == 20
    with pytest.raises(BleuError, match="seed"):
        Randomization(seed=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="metric must be a metric object"):
        Randomization("bleu")  # type: ignore[arg-type]
    with pytest.raises(BleuError, match="2 candidates in A but 1 in B"):
        Randomization().paired(REFS[:2], CANDS_A[:2], CANDS_B[:1])
