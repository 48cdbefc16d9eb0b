"""The paired approximate randomization test between two sets of candidates, under any metric, as sacrebleu's
``--paired-ar`` (Riezler and Maxwell 2005):

    Null hypothesis: A and B are the same system, so which of a pair's two candidates came from A is chance.
    Each trial swaps each pair's two candidates with probability 1/2 (the pair's statistics move with them) and
    scores both pseudo-systems; with d_t the absolute difference of a trial's two corpus scores and d the observed
    absolute difference, p = (c + 1) / (T + 1), where c counts the trials with d_t >= d.

    sacrebleu counts only d_t > d. The two agree but for exact ties: a trial that swaps only pairs alike on both
    sides gives exactly the observed totals, and counts here as it should (as good as observed). When A and B are
    identical sacrebleu reports p = 1 / (T + 1), "significant"; bleu-xl p = 1.

A trial's statistics are never rebuilt pair by pair: with s the column sums of B - A over the swapped pairs, the
pseudo-systems' totals are A + s and B - s (:mod:`.column_sums` draws the swaps and adds them up). Reproducible for
a given seed; there are no intervals (sacrebleu's ``--paired-ar`` gives none either). Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .bootstrap import PairedResult, check_paired_draws, check_settings, score_of_sums, statistics_columns
from .column_sums import PLAIN, ColumnSums
from .errors import BleuError
from .metrics.base import Metric, check_sequence, settle
from .metrics.bleu import BLEU_2

__all__ = ["Randomization"]


@dataclass(frozen=True)
class Randomization:
    """How two sets of candidates are tested by approximate randomization: the metric, the number of trials (10,000,
    sacrebleu's) and their seed, checked when made (:class:`BleuError`). ``references[i]`` is a string, a sequence
    of strings or references the metric prepared. At least :data:`~.bootstrap.MIN_PAIRED_DRAWS` trials
    (:class:`~.bootstrap.TooFewResamples`)."""

    metric: Metric[Any, Any, Any] = BLEU_2
    trials: int = 10_000
    seed: int = 12345

    def __post_init__(self) -> None:
        settle(self, whole=("trials", "seed"))
        check_paired_draws(self.trials, "trials")
        check_settings(self.metric, self.trials, "trials", self.seed)

    def paired(
        self,
        references: Sequence[Any],
        candidates_a: Sequence[str],
        candidates_b: Sequence[str],
        *,
        sums: ColumnSums = PLAIN,
    ) -> PairedResult:
        """Is B's corpus score really different from A's? See the module docstring for the null hypothesis."""
        check_sequence(candidates_a, "candidates_a")
        check_sequence(candidates_b, "candidates_b")
        if len(candidates_a) != len(candidates_b):
            raise BleuError(f"{len(candidates_a)} candidates in A but {len(candidates_b)} in B")
        stats_a = [stats for stats, _ in self.metric.corpus_stats(references, candidates_a)]
        stats_b = [stats for stats, _ in self.metric.corpus_stats(references, candidates_b)]
        return self.paired_of(stats_a, stats_b, sums=sums)

    def paired_of(self, stats_a: Sequence[Any], stats_b: Sequence[Any], *, sums: ColumnSums = PLAIN) -> PairedResult:
        """:meth:`paired` of the pairs' statistics on each side (``stats_a[i]`` and ``stats_b[i]`` against the same
        references)."""
        if len(stats_a) != len(stats_b):
            raise BleuError(f"{len(stats_a)} pairs in A but {len(stats_b)} in B")
        metric = self.metric
        columns_a, columns_b = statistics_columns(metric, stats_a), statistics_columns(metric, stats_b)
        total_a, total_b = [sum(column) for column in columns_a], [sum(column) for column in columns_b]
        score_a, score_b = score_of_sums(metric, total_a), score_of_sums(metric, total_b)
        observed = abs(score_b - score_a)
        differences = [[b - a for a, b in zip(column_a, column_b)] for column_a, column_b in zip(columns_a, columns_b)]
        as_good = 0
        for moved in sums.swapped(differences, self.trials, self.seed):
            trial_a = score_of_sums(metric, [total + change for total, change in zip(total_a, moved)])
            trial_b = score_of_sums(metric, [total - change for total, change in zip(total_b, moved)])
            if abs(trial_b - trial_a) >= observed:
                as_good += 1
        p_value = (as_good + 1) / (self.trials + 1)
        return PairedResult(
            score_a,
            score_b,
            p_value,
            None,
            None,
            self.trials,
            self.seed,
            metric.higher_is_better,
            test="ar",
            pairs=len(stats_a),
        )
