"""A corpus score with a bootstrap interval, and the paired bootstrap test between two sets of candidates, under any
metric (:class:`Resampling` takes the metric object).

The pairs' statistics are computed once and resampled (never re-tokenized): each pair's statistics are flattened
into numbers (:meth:`~.metrics.base.Metric.as_numbers`), one column per number, and a resample adds up the
chosen pairs' column by column, exactly as the metric's corpus score adds up the whole corpus (BLEU: matches,
totals, c and r; chrF: each order's candidate and reference n-grams and matches). Resamples are drawn and
scored one at a time, so memory grows with the pairs (about 100 bytes a pair), not with the resamples.
The paired test follows Koehn (2004) as sacrebleu's paired bootstrap does it:

    Null hypothesis: the two sets of candidates are equally good against these references, i.e. the observed
    difference in corpus BLEU is due to the particular sentences in the test set. Each resample draws the same
    pairs for both sets; with d_i the absolute difference of the two resampled corpus scores, and d the observed
    absolute difference, p = (c + 1) / (n + 1), where c counts the resamples with d_i - mean(d) >= d.

    sacrebleu counts only d_i - mean(d) > d. The two agree but for exact ties, which in practice only happen
    when A and B are identical: then sacrebleu reports p = 1 / (n + 1), "significant", and bleu-xl p = 1.

Results are reproducible for a given seed. Standard library only (part of the core).
"""

from __future__ import annotations

import math
import random
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypedDict

from .errors import BleuError
from .metrics.base import Metric
from .metrics.bleu import BLEU_2, Bleu, References
from .metrics.chrf import Chrf

if TYPE_CHECKING:
    from typing import Unpack

    from .metrics.base import ReferenceLike

__all__ = [
    "Bootstrap",
    "BootstrapSettings",
    "ChrfBootstrap",
    "Interval",
    "PairedResult",
    "Resampling",
    "bootstrap_ci",
    "p_text",
    "paired_test",
    "verdict",
]

SIGNIFICANCE = 0.05
_UINT32 = "I" if array("I").itemsize == 4 else "L"

Gather = Callable[[list[int]], Sequence[int]]  # one resample: a column's values at the drawn pair indices


@dataclass(frozen=True)
class Interval:
    """A corpus score and its bootstrap percentile interval."""

    score: float
    low: float
    high: float
    level: float
    samples: int
    seed: int


@dataclass(frozen=True)
class PairedResult:
    """Both corpus scores, their difference (B - A) and the paired bootstrap p-value."""

    score_a: float
    score_b: float
    p_value: float
    interval_a: Interval
    interval_b: Interval
    samples: int
    seed: int
    #: The metric's direction (TER's is lower): which side of the difference is the better one.
    higher_is_better: bool = True

    @property
    def difference(self) -> float:
        return self.score_b - self.score_a

    @property
    def significant(self) -> bool:
        return self.p_value < SIGNIFICANCE

    @property
    def p_text(self) -> str:
        """The p-value as the verdict writes it: "p < 0.001", "p < 0.05" or "p = 0.123"."""
        return p_text(self.p_value)

    def verdict(self, a: str = "A", b: str = "B") -> str:
        """A plain-language reading, e.g. "B is better than A; the difference is unlikely to be chance, p = 0.002"."""
        return verdict(self.difference, self.p_value, a, b, higher_is_better=self.higher_is_better)

    def as_dict(self) -> dict[str, object]:
        """The result as JSON-ready data: both scores, the difference, the p-value, both intervals, the draws."""
        numbers = {name: getattr(self, name) for name in ("score_a", "score_b", "difference", "p_value")}
        intervals = {
            f"interval_{side}": [i.low, i.high] for side, i in (("a", self.interval_a), ("b", self.interval_b))
        }
        return {**numbers, **intervals, "samples": self.samples, "seed": self.seed}


def verdict(difference: float, p_value: float, a: str = "A", b: str = "B", *, higher_is_better: bool = True) -> str:
    """The reading of a paired test's difference (B - A) and p-value, for the command, Python and the template; a
    metric where lower is better (TER) says so."""
    p = p_text(p_value)
    if difference == 0:
        return f"{a} and {b} score the same ({p})"
    better, worse = (b, a) if (difference > 0) == higher_is_better else (a, b)
    if p_value < SIGNIFICANCE:
        direction = "" if higher_is_better else " (it scores lower, and lower is better)"
        return f"{better} is better than {worse}{direction}; the difference is unlikely to be chance, {p}"
    if higher_is_better:
        return f"{better} scores higher than {worse}, but the difference may well be chance, {p}"
    return f"{better} scores lower than {worse} (lower is better), but the difference may well be chance, {p}"


#: From here up to SIGNIFICANCE three decimals would print 0.050 beside "unlikely to be chance": "p < 0.05".
NEAR_SIGNIFICANCE = 0.0495


def p_text(p_value: float) -> str:
    """A p-value as the verdicts write it (the command and the template's Compare sheet): "p < 0.001" below
    0.001 (a bootstrap p-value is never exactly 0), "p < 0.05" just below the significance level, else three
    decimals, so the printed value is always on the same side of the level as the verdict."""
    if p_value < 0.001:
        return "p < 0.001"
    if NEAR_SIGNIFICANCE <= p_value < SIGNIFICANCE:
        return "p < 0.05"
    return f"p = {p_value:.3f}"


class _Columns:
    """The pairs' statistics as columns, one list per number of :meth:`~.metrics.base.Metric.as_numbers`, so that a
    resample gathers each column with one C call and adds it up."""

    __slots__ = ("columns", "metric")

    def __init__(self, metric: Metric[Any, Any, Any], references: Sequence[Any], candidates: Sequence[str]) -> None:
        self.metric = metric
        rows = [metric.as_numbers(stats) for stats, _ in metric.corpus_stats(references, candidates)]
        self.columns = [list(column) for column in zip(*rows)]

    def __len__(self) -> int:
        return len(self.columns[0])

    def total(self, gather: Gather | None = None) -> Any:
        """The corpus statistics of all the pairs, or of the pairs one resample drew."""
        if gather is None:
            return self.metric.from_numbers([sum(column) for column in self.columns])
        return self.metric.from_numbers([sum(gather(column)) for column in self.columns])

    def score(self, gather: Gather | None = None) -> float:
        return float(self.metric.score_from_stats(self.total(gather)))


def _draws(n: int, samples: int, seed: int) -> Iterator[Gather]:
    """``samples`` draws of ``n`` pair indices with replacement, made one at a time (memory O(n)).

    Indices are (v * n) >> 32 for uniform 32-bit v from ``random.Random(seed).randbytes``, the same on every
    machine; each index's probability is within n / 2**32 of 1 / n.
    """
    rng = random.Random(seed)
    for _ in range(samples):
        raw = array(_UINT32, rng.randbytes(4 * n))
        if sys.byteorder == "big":
            raw.byteswap()
        yield _fast_gather([(v * n) >> 32 for v in raw])


def _gather(indices: list[int]) -> Gather:
    """The obvious resample: a column's values at ``indices``."""
    return lambda column: [column[i] for i in indices]


def _fast_gather(indices: list[int]) -> Gather:
    """:func:`_gather` as one C call per column (``itemgetter``), faster than the obvious list
    (benchmarks/bench_fast_paths.py). ``itemgetter`` of a single index returns the value itself, not a tuple: one pair
    takes the obvious path."""
    return itemgetter(*indices) if len(indices) > 1 else _gather(indices)


@dataclass(frozen=True)
class Resampling:
    """How a corpus score is resampled: the metric, the number of resamples, their seed and the interval's level,
    checked when made (:class:`BleuError`). ``references[i]`` is a string, a sequence of strings or references the
    metric prepared; under chrF each pair's best reference is chosen once, as its corpus score chooses it."""

    metric: Metric[Any, Any, Any] = BLEU_2
    level: float = 0.95
    samples: int = 1000
    seed: int = 12345

    def __post_init__(self) -> None:
        if not isinstance(self.metric, Metric):
            raise TypeError(f"metric must be a metric object (Bleu(), Chrf()...), not {self.metric!r}")
        if isinstance(self.level, bool) or not isinstance(self.level, (int, float)) or not 0 < self.level < 1:
            raise BleuError(f"level must be between 0 and 1, not {self.level!r}")
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise BleuError(f"samples must be a whole number of at least 1, not {self.samples!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):  # None would draw from the OS
            raise BleuError(f"seed must be a whole number, not {self.seed!r}")

    def __eq__(self, other: object) -> bool:
        """Equal settings, whichever class made them (``Bootstrap(max_n=2) == Resampling(Bleu(2))``)."""
        if not isinstance(other, Resampling):
            return NotImplemented
        return (self.metric, self.level, self.samples, self.seed) == (
            other.metric,
            other.level,
            other.samples,
            other.seed,
        )

    def __hash__(self) -> int:
        return hash((self.metric, self.level, self.samples, self.seed))

    def interval(self, references: Sequence[Any], candidates: Sequence[str]) -> Interval:
        """The corpus score and a percentile interval from resampling the pairs with replacement."""
        columns = _Columns(self.metric, references, candidates)
        resampled = [columns.score(gather) for gather in _draws(len(columns), self.samples, self.seed)]
        return self._interval(columns.score(), resampled)

    def paired(
        self, references: Sequence[Any], candidates_a: Sequence[str], candidates_b: Sequence[str]
    ) -> PairedResult:
        """Paired bootstrap resampling (Koehn 2004, as sacrebleu's paired bootstrap): is B's corpus score really
        different from A's? See the module docstring for the null hypothesis."""
        if len(candidates_a) != len(candidates_b):
            raise BleuError(f"{len(candidates_a)} candidates in A but {len(candidates_b)} in B")
        cols_a = _Columns(self.metric, references, candidates_a)
        cols_b = _Columns(self.metric, references, candidates_b)
        score_a, score_b = cols_a.score(), cols_b.score()
        resampled_a, resampled_b = [], []
        for gather in _draws(len(cols_a), self.samples, self.seed):  # the same pairs for A and B
            resampled_a.append(cols_a.score(gather))
            resampled_b.append(cols_b.score(gather))
        observed = abs(score_b - score_a)
        diffs = [abs(b - a) for a, b in zip(resampled_a, resampled_b)]
        if observed and max(diffs) == min(diffs):  # one pair, or pairs all alike: p would be 1 / (samples + 1)
            raise BleuError("every resample gives the same difference (too few distinct pairs): nothing to test")
        mean = math.fsum(diffs) / self.samples
        c = sum(1 for d in diffs if d - mean >= observed)
        p_value = (c + 1) / (self.samples + 1)
        intervals = self._interval(score_a, resampled_a), self._interval(score_b, resampled_b)
        return PairedResult(
            score_a, score_b, p_value, *intervals, self.samples, self.seed, self.metric.higher_is_better
        )

    def _interval(self, score: float, resampled: list[float]) -> Interval:
        ordered = sorted(resampled)
        samples, tail = self.samples, (1 - self.level) / 2
        # Rounded first: (1 - 0.9) / 2 * 1000 is 49.99999..., which must give index 50, as the high side's 949 does.
        low = ordered[max(0, math.floor(round(tail * samples, 9)))]
        high = ordered[min(samples - 1, math.ceil(round((1 - tail) * samples, 9)) - 1)]
        return Interval(score, low, high, self.level, samples, self.seed)


class Bootstrap(Resampling):
    """How corpus BLEU is resampled: :class:`Resampling` with the BLEU order and smoothing given by name. Checked
    when made (:class:`BleuError`); :func:`bootstrap_ci` and :func:`paired_test` take the same settings by name.
    ``references[i]`` is a string, a sequence of strings or prepared :class:`References`."""

    def __init__(
        self, level: float = 0.95, samples: int = 1000, seed: int = 12345, max_n: int = 2, smoothing: str = "add1"
    ) -> None:
        super().__init__(Bleu(max_n, smoothing), level, samples, seed)

    @property
    def max_n(self) -> int:
        return self.metric.max_n  # type: ignore[no-any-return]

    @property
    def smoothing(self) -> str:
        return self.metric.smoothing  # type: ignore[no-any-return]


class ChrfBootstrap(Resampling):
    """How corpus chrF is resampled, as :class:`Bootstrap` resamples BLEU: the same resamples, seed and level, and
    chrF's orders and beta by name. ``references[i]`` is a string, a sequence of strings or prepared
    :class:`~.metrics.chrf.ChrfReferences`; each pair's best reference is chosen once, as corpus chrF chooses it."""

    def __init__(
        self,
        level: float = 0.95,
        samples: int = 1000,
        seed: int = 12345,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
    ) -> None:
        super().__init__(Chrf(char_order, word_order, beta), level, samples, seed)


class BootstrapSettings(TypedDict, total=False):
    """The settings of :class:`Bootstrap`, given by name: ``level`` (0.95), ``samples`` (1000), ``seed`` (12345),
    ``max_n`` (2) and ``smoothing`` ("add1")."""

    level: float
    samples: int
    seed: int
    max_n: int
    smoothing: str


def bootstrap_ci(
    references: Sequence[ReferenceLike | References], candidates: Sequence[str], **settings: Unpack[BootstrapSettings]
) -> Interval:
    """Corpus BLEU and a percentile interval from resampling the pairs with replacement (:class:`Bootstrap`'s
    settings by name)."""
    return Bootstrap(**settings).interval(references, candidates)


def paired_test(
    references: Sequence[ReferenceLike | References],
    candidates_a: Sequence[str],
    candidates_b: Sequence[str],
    **settings: Unpack[BootstrapSettings],
) -> PairedResult:
    """Paired bootstrap resampling (Koehn 2004): is B's corpus BLEU really different from A's? (:class:`Bootstrap`'s
    settings by name; the module docstring states the null hypothesis.)"""
    return Bootstrap(**settings).paired(references, candidates_a, candidates_b)
