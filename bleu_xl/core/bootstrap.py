"""A corpus score with a bootstrap interval, and the paired bootstrap test between two sets of candidates, under any
metric (:class:`Resampling` takes the metric object).

The pairs' statistics are computed once and resampled (never re-tokenized): each pair's statistics are flattened
into numbers (:meth:`~.metrics.base.Metric.as_numbers`), one column per number, and a resample adds up the
chosen pairs' column by column, exactly as the metric's corpus score adds up the whole corpus (BLEU: matches,
totals, c and r; chrF: each order's candidate and reference n-grams and matches). How the resamples are drawn
and added up is :mod:`.column_sums`'s: the plain sums draw and add one resample at a time, so memory grows with
the pairs (about 100 bytes a pair), not with the resamples; the fast layer adds up the same draws faster.
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from .column_sums import PLAIN, ColumnSums
from .errors import BleuError, BleuTypeError, Setting
from .metrics.base import Metric, check_sequence, settle
from .metrics.bleu import BLEU_2, Bleu, References
from .metrics.chrf import Chrf

if TYPE_CHECKING:
    from typing import Unpack

    from .metrics.base import ReferenceLike

__all__ = [
    "FEW_PAIRS",
    "MIN_PAIRED_DRAWS",
    "TESTS",
    "Bootstrap",
    "BootstrapSettings",
    "ChrfBootstrap",
    "Interval",
    "PairedResult",
    "Resampling",
    "TooFewResamples",
    "all_alike",
    "bootstrap_ci",
    "check_paired_draws",
    "one_sided_text",
    "p_text",
    "paired_test",
    "verdict",
]

SIGNIFICANCE = 0.05
#: A paired bootstrap of fewer pairs calls equally good systems different far more often than its nominal 5%
#: (benchmarks/equal_systems.py): its verdict never says the difference is real.
FEW_PAIRS = 50


@dataclass(frozen=True)
class Interval:
    """A corpus score and its bootstrap percentile interval."""

    score: float
    low: float
    high: float
    level: float
    samples: int
    seed: int

    @property
    def level_text(self) -> str:
        """The level as a percentage, as people write it: ``95%``, ``97.5%``."""
        return percent(self.level)


def percent(level: float) -> str:
    """A level as a percentage, as people write it (``95%``, ``97.5%``, ``99.5%``; never rounded to ``100%``)."""
    return f"{level * 100:g}%"


#: The paired tests by their short names, sacrebleu's (``--paired-bs``, ``--paired-ar``).
TESTS = {"bs": "paired bootstrap", "ar": "approximate randomization"}


@dataclass(frozen=True)
class PairedResult:
    """Both corpus scores, their difference (B - A) and a paired test's p-value: the paired bootstrap's (``test``
    "bs", ``samples`` resamples, with each side's interval) or approximate randomization's ("ar", ``samples``
    trials; no intervals: ``None``), over ``pairs`` pairs."""

    score_a: float
    score_b: float
    p_value: float
    interval_a: Interval | None
    interval_b: Interval | None
    samples: int
    seed: int
    #: The metric's direction (TER's is lower): which side of the difference is the better one.
    higher_is_better: bool = True
    test: str = "bs"
    #: How many pairs the test compared: a bootstrap verdict on fewer than FEW_PAIRS says only which side scores higher.
    pairs: int = field(kw_only=True)
    #: Whether each side's pairs are all alike (every resample the same): the bootstrap gives that side no interval.
    alike: tuple[bool, bool] = field(default=(False, False), kw_only=True)

    def no_interval_text(self, side: str) -> str | None:
        """Why side ``"a"`` or ``"b"`` has no interval under the paired bootstrap, in words; ``None`` when it has one
        or the test gives none (approximate randomization)."""
        if self.test != "bs" or (self.interval_a if side == "a" else self.interval_b) is not None:
            return None
        if self.alike[side == "b"]:
            return "no interval: its pairs are all alike, so every resample gives the same score"
        return f"no interval: {self.samples} resamples are too few for one"

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

    @property
    def too_few_pairs(self) -> bool:
        """Whether the verdict is not to be trusted: a paired bootstrap of fewer than :data:`FEW_PAIRS` pairs."""
        return few_pairs(self.test, self.pairs)

    def verdict(self, a: str = "A", b: str = "B") -> str:
        """A plain-language reading, e.g. "B is better than A; the difference is unlikely to be chance, p = 0.002"
        (which says too when there are too few pairs for it to be trusted)."""
        return verdict(
            self.difference,
            self.p_value,
            a,
            b,
            higher_is_better=self.higher_is_better,
            pairs=self.pairs,
            test=self.test,
        )

    @property
    def test_name(self) -> str:
        """The test in words: "paired bootstrap" or "approximate randomization"."""
        return TESTS[self.test]

    def as_dict(self) -> dict[str, object]:
        """The result as JSON-ready data: the test, both scores, the difference, the p-value, both intervals (the
        bootstrap's; ``None`` under approximate randomization), the draws."""
        numbers = {name: getattr(self, name) for name in ("score_a", "score_b", "difference", "p_value")}
        intervals = {
            f"interval_{side}": None if i is None else [i.low, i.high]
            for side, i in (("a", self.interval_a), ("b", self.interval_b))
        }
        return {"test": self.test, **numbers, **intervals, "samples": self.samples, "seed": self.seed}


def few_pairs(test: str, pairs: int) -> bool:
    """Whether a verdict of ``test`` on ``pairs`` pairs is not to be trusted: a paired bootstrap of fewer than
    :data:`FEW_PAIRS` pairs calls equally good systems different far more often than 5% of the time."""
    return test == "bs" and pairs < FEW_PAIRS


def too_few_text(pairs: int) -> str:
    """What a verdict adds when its pairs are too few for the paired bootstrap to tell."""
    compared = "1 pair was" if pairs == 1 else f"{pairs} pairs were"
    return (
        f"; only {compared} compared, too few for the paired bootstrap to tell a real difference from chance "
        f"(compare {FEW_PAIRS} or more)"
    )


def one_sided_text(a_name: str, only_a: int, b_name: str, only_b: int) -> str:
    """What a verdict adds when rows were left out because one side is blank (empty when none were)."""
    rows = [
        f"{count:,} row{'s' if count > 1 else ''} where only {side} has a candidate"
        for side, count in ((a_name, only_a), (b_name, only_b))
        if count
    ]
    if not rows:
        return ""
    return f"; left out: {' and '.join(rows)} (a blank candidate is not scored as a miss)"


def verdict(
    difference: float,
    p_value: float,
    a: str = "A",
    b: str = "B",
    *,
    higher_is_better: bool = True,
    pairs: int,
    test: str = "bs",
) -> str:
    """The reading of a paired test's difference (B - A) and p-value over ``pairs`` pairs, for the command, Python
    and the template; a metric where lower is better (TER) says so. A paired bootstrap of too few pairs
    (:func:`few_pairs`) says which side scores higher (lower, for TER) and its p-value, never that the difference
    is real: on 2 or 3 pairs it calls equal systems different about half the time, whatever p-value it prints."""
    few = few_pairs(test, pairs)
    return _reading(difference, p_value, a, b, higher_is_better, few) + (too_few_text(pairs) if few else "")


def _reading(difference: float, p_value: float, a: str, b: str, higher_is_better: bool, few: bool = False) -> str:
    p = p_text(p_value)
    if difference == 0:
        return f"{a} and {b} score the same ({p})"
    better, worse = (b, a) if (difference > 0) == higher_is_better else (a, b)
    if few:
        return (
            f"{better} scores higher than {worse}, {p}"
            if higher_is_better
            else (f"{better} scores lower than {worse} (lower is better), {p}")
        )
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


def statistics_columns(metric: Metric[Any, Any, Any], stats: Sequence[Any]) -> list[list[float]]:
    """The pairs' statistics as columns, one list per number of :meth:`~.metrics.base.Metric.as_numbers`."""
    if not stats:
        raise BleuError("no pairs to test")
    return [list(column) for column in zip(*map(metric.as_numbers, stats))]


def all_alike(columns: Sequence[Sequence[float]]) -> bool:
    """Whether the pairs whose statistics ``columns`` holds are one pair, or pairs all alike: then every resample
    is the corpus itself."""
    return all(min(column) == max(column) for column in columns)


def score_of_sums(metric: Metric[Any, Any, Any], sums: Sequence[float]) -> float:
    """The corpus score of statistics added up column by column."""
    return float(metric.score_from_stats(metric.from_numbers(sums)))


#: The fewest resamples or trials a paired test takes: its p-value is (c + 1) / (draws + 1), so with fewer than 20
#: it can never fall below the significance level, 0.05, whatever A and B are.
MIN_PAIRED_DRAWS = 20


class TooFewResamples(BleuError):
    """A paired test asked for fewer resamples or randomization trials than :data:`MIN_PAIRED_DRAWS`: its p-value
    could never say that a difference is unlikely to be chance; or an interval for fewer resamples than its level
    needs (:func:`interval_draws`): its ends would be the lowest and highest resamples."""


def interval_draws(level: float) -> int:
    """The fewest resamples an interval at ``level`` takes: as many as leave each tail at least one resample of its
    own (40 at 0.95, 200 at 0.99)."""
    return max(1, math.ceil(round(2 / (1 - level), 9)))


def check_interval_draws(samples: int, level: float) -> None:
    """Refuse an interval of fewer resamples than :func:`interval_draws` (:class:`TooFewResamples`): with one
    resample, a 95 % interval of 0.58 to 0.58 left out its own score of 0.61."""
    needed = interval_draws(level)
    if samples < needed:
        raise TooFewResamples(
            Setting("samples", samples),
            f" is too few for a {percent(level)} interval: give at least {needed:,} (with fewer, its ends are the "
            "lowest and highest resamples, not percentiles)",
        )


def check_paired_draws(count: int, count_name: str) -> None:
    """Refuse a paired test of fewer than :data:`MIN_PAIRED_DRAWS` resamples or trials (:class:`TooFewResamples`),
    none or a negative number included: checked before :func:`check_settings`, so that the message gives the
    minimum a paired test takes, not the 1 an interval takes. What is no whole number is left to that check."""
    if isinstance(count, int) and not isinstance(count, bool) and count < MIN_PAIRED_DRAWS:
        raise TooFewResamples(
            Setting(count_name, count),
            f" is too few for a paired test: give at least {MIN_PAIRED_DRAWS} (with fewer, p can never fall below "
            f"{SIGNIFICANCE})",
        )


def check_settings(metric: object, count: int, count_name: str, seed: int) -> None:
    """The settings every paired test checks when made (:class:`BleuError`; a metric of another kind: ``TypeError``)."""
    if not isinstance(metric, Metric):
        raise BleuTypeError(f"metric must be a metric object (Bleu(), Chrf()...), not {metric!r}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BleuError(f"{count_name} must be a whole number of at least 1, not {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):  # None would draw from the OS
        raise BleuError(f"seed must be a whole number, not {seed!r}")


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
        settle(self, whole=("samples", "seed"), reals=("level",))
        check_settings(self.metric, self.samples, "samples", self.seed)
        if isinstance(self.level, bool) or not isinstance(self.level, (int, float)) or not 0 < self.level < 1:
            raise BleuError(f"level must be between 0 and 1, not {self.level!r}")

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

    def interval(self, references: Sequence[Any], candidates: Sequence[str], *, sums: ColumnSums = PLAIN) -> Interval:
        """The corpus score and a percentile interval from resampling the pairs with replacement."""
        return self.interval_of([stats for stats, _ in self.metric.corpus_stats(references, candidates)], sums=sums)

    def interval_of(self, stats: Sequence[Any], *, sums: ColumnSums = PLAIN) -> Interval:
        """:meth:`interval` of the pairs' statistics (each pair's ``metric.pair_stats``)."""
        check_interval_draws(self.samples, self.level)
        columns = statistics_columns(self.metric, stats)
        # One pair, or pairs all alike: every resample is the corpus itself, and an interval of no width would read
        # as a certain score. (Pairs unlike that all score alike, ten perfect ones, are a real answer: [1, 1].)
        if all_alike(columns):
            raise BleuError("one pair, or pairs all alike: every resample is the same, so there is no interval")
        resampled = [score_of_sums(self.metric, drawn) for drawn in sums.resampled(columns, self.samples, self.seed)]
        return self._interval(score_of_sums(self.metric, [sum(column) for column in columns]), resampled)

    def paired(
        self,
        references: Sequence[Any],
        candidates_a: Sequence[str],
        candidates_b: Sequence[str],
        *,
        sums: ColumnSums = PLAIN,
    ) -> PairedResult:
        """Paired bootstrap resampling (Koehn 2004, as sacrebleu's paired bootstrap): is B's corpus score really
        different from A's? See the module docstring for the null hypothesis."""
        check_sequence(candidates_a, "candidates_a")
        check_sequence(candidates_b, "candidates_b")
        if len(candidates_a) != len(candidates_b):
            raise BleuError(f"{len(candidates_a)} candidates in A but {len(candidates_b)} in B")
        stats_a = [stats for stats, _ in self.metric.corpus_stats(references, candidates_a)]
        stats_b = [stats for stats, _ in self.metric.corpus_stats(references, candidates_b)]
        return self.paired_of(stats_a, stats_b, sums=sums)

    def paired_of(self, stats_a: Sequence[Any], stats_b: Sequence[Any], *, sums: ColumnSums = PLAIN) -> PairedResult:
        """:meth:`paired` of the pairs' statistics on each side (``stats_a[i]`` and ``stats_b[i]`` against the same
        references). At least :data:`MIN_PAIRED_DRAWS` resamples (:class:`TooFewResamples`)."""
        check_paired_draws(self.samples, "samples")
        if len(stats_a) != len(stats_b):
            raise BleuError(f"{len(stats_a)} pairs in A but {len(stats_b)} in B")
        metric = self.metric
        columns_a, columns_b = statistics_columns(metric, stats_a), statistics_columns(metric, stats_b)
        score_a = score_of_sums(metric, [sum(column) for column in columns_a])
        score_b = score_of_sums(metric, [sum(column) for column in columns_b])
        width = len(columns_a)
        resampled_a, resampled_b = [], []
        for drawn in sums.resampled(columns_a + columns_b, self.samples, self.seed):  # the same pairs for A and B
            resampled_a.append(score_of_sums(metric, drawn[:width]))
            resampled_b.append(score_of_sums(metric, drawn[width:]))
        observed = abs(score_b - score_a)
        diffs = [abs(b - a) for a, b in zip(resampled_a, resampled_b)]
        # Pairs all alike: every resample gives the observed difference, and p is 1 / (samples + 1). Fifty such pairs
        # (fifty buttons, each right on one side and wrong on the other) are a clear verdict, as every randomization
        # trial finds; on fewer, as on one pair, nothing can be told.
        if observed and max(diffs) == min(diffs) and few_pairs("bs", len(stats_a)):
            raise BleuError("every resample gives the same difference (too few distinct pairs): nothing to test")
        mean = math.fsum(diffs) / self.samples
        c = sum(1 for d in diffs if d - mean >= observed)
        p_value = (c + 1) / (self.samples + 1)
        # An interval needs as many resamples as leave each tail one (a paired test takes fewer), and pairs unlike
        # each other (one pair, or pairs all alike, would give one of no width): none without them.
        alike = (all_alike(columns_a), all_alike(columns_b))
        intervals: tuple[Interval | None, Interval | None] = (None, None)
        if self.samples >= interval_draws(self.level):
            intervals = (
                None if alike[0] else self._interval(score_a, resampled_a),
                None if alike[1] else self._interval(score_b, resampled_b),
            )
        return PairedResult(
            score_a,
            score_b,
            p_value,
            *intervals,
            self.samples,
            self.seed,
            metric.higher_is_better,
            pairs=len(stats_a),
            alike=alike,
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
    check_paired_draws(settings.get("samples", Bootstrap.samples), "samples")
    return Bootstrap(**settings).paired(references, candidates_a, candidates_b)
