"""BLEU-N: the metric object :class:`Bleu`, its statistics and scores, and the functions that give them (sentence,
many candidates against one reference set, corpus).

Standard library only, so the same code runs in xlwings, in xlwings Lite (Pyodide) and on the command line.
Every face turns statistics into numbers through :func:`score_from_stats`, the one place that knows the
formulas, add-1 smoothing, the orders left out and the empty-candidate rule.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar, NamedTuple

from ..errors import BleuError, BleuTypeError
from ..tokenizer import tokenize
from .base import (
    ColumnKind,
    DetailColumn,
    Metric,
    MetricScore,
    ReferenceLike,
    as_whole,
    check_corpus,
    check_refs,
    refuse_text,
    settle,
)
from .counting import Counts, _count_elements, clipped_matches, ngram_counts, ngrams

__all__ = [
    "BLEU_2",
    "MAX_ORDER",
    "SCORING_VERSION",
    "SMOOTHING_METHODS",
    "Bleu",
    "BleuError",
    "Precision",
    "References",
    "Score",
    "Stats",
    "as_references",
    "corpus_score",
    "corpus_stats",
    "detail_columns",
    "detail_row",
    "held_size",
    "pair_stats",
    "score",
    "score_from_stats",
    "score_many",
    "scores_against",
    "signature",
    "sum_stats",
]

SMOOTHING_METHODS = ("add1", "none")
#: The version of the scoring definition that signatures name: it changes when a score would, not with every release.
#: 0.2.0: orders the candidate has no n-gram of are left out of the geometric mean; Thai, Lao, Myanmar and Khmer
#: are scored per character cluster.
SCORING_VERSION = "0.2.0"
MAX_ORDER = 9


def check_settings(max_n: int, smoothing: str) -> None:
    """Raise :class:`BleuError` unless ``max_n`` is in 1..9 and ``smoothing`` is a known method."""
    if isinstance(max_n, bool) or not isinstance(max_n, int) or not 1 <= max_n <= MAX_ORDER:
        raise BleuError(f"max_n must be a whole number from 1 to {MAX_ORDER}, not {max_n!r}")
    if smoothing not in SMOOTHING_METHODS:
        raise BleuError(f"smoothing must be one of {', '.join(SMOOTHING_METHODS)}, not {smoothing!r}")


def signature(max_n: int = 2, smoothing: str = "add1", refs: int = 1) -> str:
    """The string that pins every scoring choice, e.g. ``bleu-xl:0.2.0|n:2|smooth:add1|...|refs:1``: the
    definition's version, the order, the smoothing, orders left out when the candidate has none of their n-grams
    (``order:effective``), the tokenizer (words, CJK characters, Thai/Lao/Myanmar/Khmer clusters), the
    normalisation and the number of references. Settings no score can have are refused (:class:`BleuError`)."""
    max_n, refs = as_whole(max_n), as_whole(refs)
    max_n = as_whole(max_n)
    check_settings(max_n, smoothing)
    check_refs(refs)
    return (
        f"bleu-xl:{SCORING_VERSION}|n:{max_n}|smooth:{smoothing}|order:effective|tok:words+cjk+sea"
        f"|norm:nfkc-casefold|refs:{refs}"
    )


def smoothed_fraction(matches: int, total: int, smoothing: str) -> tuple[int, int]:
    """A precision as (numerator, denominator): add-1 smoothing turns a zero count into (0 + 1) / (total + 1);
    an order the candidate has no n-gram of stays 0 / 0 (it is left out of the score)."""
    if matches == 0 and total and smoothing == "add1":
        return 1, total + 1
    return matches, total


def precision_value(matches: int, total: int, smoothing: str) -> float | None:
    """The smoothed fraction's value; ``None`` for an order the candidate has no n-gram of (left out)."""
    numerator, denominator = smoothed_fraction(matches, total, smoothing)
    return numerator / denominator if denominator else None


class Precision(NamedTuple):
    """Clipped n-gram matches over candidate n-grams, with the smoothing that turns them into a value.

    An order the candidate has no n-gram of (``total`` 0: fewer tokens than n) is left out of the score: its
    value is ``None``, its fraction 0 / 0.
    """

    matches: int
    total: int
    smoothing: str = "add1"

    @property
    def smoothed(self) -> bool:
        """True when add-1 smoothing replaced a zero count."""
        return smoothed_fraction(*self)[0] != self.matches

    @property
    def numerator(self) -> int:
        return smoothed_fraction(*self)[0]

    @property
    def denominator(self) -> int:
        return smoothed_fraction(*self)[1]

    @property
    def left_out(self) -> bool:
        """True when the candidate has no n-gram of this order, so that the order is not part of the score."""
        return self.total == 0

    @property
    def value(self) -> float | None:
        """The precision, from 0 to 1; ``None`` for an order left out."""
        return precision_value(*self)

    def as_dict(self) -> dict[str, float | int | bool | None]:
        """The precision as JSON-ready data: its value (``None`` when left out), the fraction behind it, and
        whether add-1 made it."""
        numerator, denominator = smoothed_fraction(*self)
        return {"value": self.value, "numerator": numerator, "denominator": denominator, "smoothed": self.smoothed}


class Stats(NamedTuple):
    """Sufficient statistics of one or more pairs: they add up over a corpus."""

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    c: int
    r: int


@dataclass(slots=True)
class Score(MetricScore):
    """A BLEU score and the statistics behind it; its precisions are made from them when asked for.

    Read it by name (``s.bleu``, ``s.precisions``); it is not a tuple, so code that indexes or unpacks a score
    fails with a ``TypeError`` instead of reading the wrong field. ``max(scores, key=float)`` ranks by BLEU, and
    :meth:`as_dict` gives it as JSON-ready data. Make one with :func:`score_from_stats`: its fields are not
    recomputed from each other when one is changed by hand.
    """

    bleu: float
    bp: float
    stats: Stats
    smoothing: str = "add1"  # as asked for, and in the signature
    refs: int = 1

    @property
    def precisions(self) -> tuple[Precision, ...]:
        smoothing = self.smoothing
        return tuple([Precision(m, t, smoothing) for m, t in zip(self.stats.matches, self.stats.totals)])

    @property
    def r(self) -> int:
        return self.stats.r

    @property
    def c(self) -> int:
        return self.stats.c

    @property
    def max_n(self) -> int:
        return len(self.stats.matches)

    @property
    def p1(self) -> float | None:
        """The unigram precision value (``None`` for an empty candidate)."""
        return self.precisions[0].value

    @property
    def p2(self) -> float | None:
        """The bigram precision value: ``None`` when the candidate has fewer than two tokens (the order is left
        out); ``IndexError`` for a BLEU-1 score."""
        return self.precisions[1].value

    @property
    def signature(self) -> str:
        return signature(self.max_n, self.smoothing, self.refs)

    def __float__(self) -> float:
        return self.bleu

    def as_dict(self) -> dict[str, object]:
        """The score as JSON-ready data, the one form every JSON output uses: ``p1`` to ``pN`` (value, numerator,
        denominator, smoothed; the value ``None`` for an order left out), ``bp``, ``r``, ``c``, ``bleu``,
        ``max_n``, ``smoothing`` and ``signature``."""
        orders: dict[str, object] = {f"p{n}": p.as_dict() for n, p in enumerate(self.precisions, start=1)}
        return {
            **orders,
            "bp": self.bp,
            "r": self.r,
            "c": self.c,
            "bleu": self.bleu,
            "max_n": self.max_n,
            "smoothing": self.smoothing,
            "signature": self.signature,
        }


def score_from_stats(stats: Stats, *, smoothing: str = "add1", refs: int = 1) -> Score:
    """BLEU and BP (and the precisions, on demand) of sentence or corpus statistics: the formulas, in one place.

    The order N is the number of orders in ``stats``; ``refs`` (how many references) only goes into the
    signature. BLEU is BP times the geometric mean of the precisions of the orders the candidate has n-grams
    of: an order with no candidate n-gram (total 0) is left out, as sacrebleu's ``effective_order`` does, so
    that a one-word candidate is not given a perfect bigram precision. An empty candidate (c = 0) scores 0
    with BP 0.
    """
    c, r = stats.c, stats.r
    if c == 0:
        return Score(0.0, 0.0, stats, smoothing, refs)
    numerator = denominator = 1
    orders = 0
    for matches, total in zip(stats.matches, stats.totals):
        if total:
            top, bottom = smoothed_fraction(matches, total, smoothing)
            numerator *= top
            denominator *= bottom
            orders += 1
    # The product of the precisions as one fraction of whole numbers, rounded once: candidates whose precisions
    # multiply to the same value score the same float (5/6 x 2/5 and 6/9 x 4/8 are both 1/3), so ties stay ties.
    product = numerator / denominator
    bp = 1.0 if c >= r else math.exp(1.0 - r / c)
    # The geometric mean of the orders kept; a zero value makes the product 0 and the score 0.
    return Score(bp * product ** (1.0 / orders) if orders else 0.0, bp, stats, smoothing, refs)


class References:
    """The tokenized references of one candidate: lengths and, per order, the largest count in any one of them.

    Built once and reused for every candidate scored against the same references.
    """

    __slots__ = ("lengths", "max_counts", "max_n", "tokens")

    def __init__(self, reference: ReferenceLike, max_n: int = 2) -> None:
        self.max_n = max_n
        # One reference, the common case, skips the merging: the same statistics as [reference], held equal by a
        # property test, in less time (benchmarks/bench_fast_paths.py). A table's row gives it as a tuple of one.
        if type(reference) is tuple and len(reference) == 1 and isinstance(reference[0], str):
            reference = reference[0]
        if isinstance(reference, str):
            words = tokenize(reference)
            if not words:
                raise BleuError("reference has no words")
            self.tokens = [words]
            self.lengths = [len(words)]
            self.max_counts = [ngram_counts(words, n) for n in range(1, max_n + 1)]
            return
        if isinstance(reference, (bytes, bytearray, Mapping)):  # iterable, but not a sequence of texts
            raise BleuTypeError(
                f"a reference must be a string or a sequence of strings, not {type(reference).__name__}"
            )
        try:
            tokens = list(map(tokenize, reference))
        except TypeError:
            if isinstance(reference, Iterable):
                raise  # a text that is not a string: tokenize's message names its type
            kind = type(reference).__name__
            raise BleuTypeError(f"a reference must be a string or a sequence of strings, not {kind}") from None
        if not tokens:
            raise BleuError("no reference given")
        if not all(tokens):
            tokens = [words for words in tokens if words]  # blank references are ignored
            if not tokens:
                raise BleuError("reference has no words")
        self.tokens = tokens
        self.lengths = sorted(set(map(len, tokens)))
        self.max_counts = [ngram_counts(tokens[0], n) for n in range(1, max_n + 1)]
        for other in tokens[1:]:
            for n, merged in enumerate(self.max_counts, start=1):
                for gram, count in ngram_counts(other, n).items():
                    if count > merged.get(gram, 0):
                        merged[gram] = count

    def __len__(self) -> int:
        return len(self.tokens)

    def closest_length(self, c: int) -> int:
        """The reference length closest to ``c``; a tie goes to the shorter."""
        lengths = self.lengths
        if len(lengths) == 1:
            return lengths[0]
        return min(lengths, key=lambda length: (abs(length - c), length))


def pair_stats(refs: References, candidate_tokens: Sequence[str]) -> Stats:
    """Clipped matches and totals of one tokenized candidate against a reference set."""
    c = len(candidate_tokens)
    matches, totals = [], []
    m = c
    for n, ref_counts in enumerate(refs.max_counts, start=1):
        # An n-gram can only match where its (n-1)-gram prefix did: after an order without one, the rest are 0.
        m = clipped_matches(ngrams(candidate_tokens, n), ref_counts) if m else 0
        matches.append(m)
        totals.append(c - n + 1 if c >= n else 0)
    return Stats(tuple(matches), tuple(totals), c, refs.closest_length(c))


def sum_stats(stats: Iterable[Stats], max_n: int) -> Stats:
    """Add up the statistics of many pairs (the corpus statistics)."""
    matches = [0] * max_n
    totals = [0] * max_n
    c = r = 0
    for s in stats:
        for i in range(max_n):
            matches[i] += s.matches[i]
            totals[i] += s.totals[i]
        c += s.c
        r += s.r
    return Stats(tuple(matches), tuple(totals), c, r)


def score(reference: ReferenceLike, candidate: str, *, max_n: int = 2, smoothing: str = "add1") -> Score:
    """Sentence BLEU-N (BLEU-2 by default) of ``candidate`` against one reference or a sequence of references.

    >>> round(score("the cat sat on the mat", "the cat sat on a mat").bleu, 4)
    0.7071
    """
    max_n = as_whole(max_n)
    check_settings(max_n, smoothing)
    return _score_one(References(reference, max_n), candidate, smoothing)


def _score_one(refs: References, candidate: str, smoothing: str) -> Score:
    return score_from_stats(pair_stats(refs, tokenize(candidate)), smoothing=smoothing, refs=len(refs.tokens))


def score_many(
    reference: ReferenceLike | References,
    candidates: Iterable[str],
    *,
    max_n: int = 2,
    smoothing: str = "add1",
) -> list[Score]:
    """Score many candidates against one reference (or one reference set), tokenizing the reference once.

    ``candidates`` must not be a string: a string is an iterable of characters, which is never what was meant.
    """
    max_n = as_whole(max_n)
    check_settings(max_n, smoothing)
    refuse_text(candidates, "candidates")
    return scores_against(as_references(reference, max_n), candidates, smoothing)


def scores_against(refs: References, candidates: Iterable[str], smoothing: str) -> list[Score]:
    """Each candidate's score against ``refs``, as :func:`pair_stats` and :func:`score_from_stats` give it, in one
    loop that reads the references' tables once for all candidates and clips in line, as
    :func:`~.counting.clipped_matches` does (``score_many``: what a candidate costs beyond the work on its words is
    a fifth less; benchmarks/bench_core.py). Held equal to one pair at a time by a property test."""
    orders = [(n, counts, counts.__contains__) for n, counts in enumerate(refs.max_counts, start=1)]
    count = len(refs.tokens)
    lengths = refs.lengths
    one_length = lengths[0] if len(lengths) == 1 else None
    totals_of: dict[int, tuple[int, ...]] = {}
    new_tuple = tuple.__new__
    scores = []
    for candidate in candidates:
        tokens = tokenize(candidate)
        c = len(tokens)
        matches = []
        m = c
        for n, ref_counts, found in orders:
            if m:  # as in pair_stats: after an order without a match, the rest are 0
                hits = list(filter(found, tokens if n == 1 else pairwise(tokens) if n == 2 else ngrams(tokens, n)))
                m = len(hits)
                if m > 1:
                    counts: Counts = {}
                    _count_elements(counts, hits)
                    if len(counts) < m:
                        for gram, k in counts.items():
                            if k > 1 and k > ref_counts[gram]:
                                m -= k - ref_counts[gram]
            matches.append(m)
        totals = totals_of.get(c)
        if totals is None:
            totals = totals_of[c] = tuple([c - n + 1 if c >= n else 0 for n, _, _ in orders])
        r = one_length if one_length is not None else refs.closest_length(c)
        stats = new_tuple(Stats, (tuple(matches), totals, c, r))  # Stats(...) without its Python-level __new__
        scores.append(score_from_stats(stats, smoothing=smoothing, refs=count))
    return scores


def as_references(reference: ReferenceLike | References, max_n: int) -> References:
    """``reference`` as :class:`References` of order ``max_n``; prepared ones must have been made for that order."""
    if not isinstance(reference, References):
        return References(reference, max_n)
    if reference.max_n != max_n:
        raise BleuError(f"references were prepared for max_n={reference.max_n}, not {max_n}")
    return reference


def corpus_stats(
    references: Sequence[ReferenceLike | References], candidates: Sequence[str], max_n: int = 2
) -> Iterable[tuple[Stats, int]]:
    """The statistics and number of references of every pair of a corpus, one pair at a time, after the corpus
    input checks (done before the first pair).

    ``references[i]`` is the reference (a string), the references (a sequence of strings) or prepared
    :class:`References` of ``candidates[i]``.
    """
    check_corpus(references, candidates)
    return _each_pair_stats(references, candidates, max_n)


def _each_pair_stats(
    references: Sequence[ReferenceLike | References], candidates: Sequence[str], max_n: int
) -> Iterable[tuple[Stats, int]]:
    for ref, cand in zip(references, candidates):
        refs = as_references(ref, max_n)
        yield pair_stats(refs, tokenize(cand)), len(refs)


def corpus_score(
    references: Sequence[ReferenceLike],
    candidates: Sequence[str],
    *,
    max_n: int = 2,
    smoothing: str = "add1",
) -> Score:
    """Corpus BLEU-N: matches, totals, c and r summed over all pairs, then the sentence formulas.

    ``references[i]`` is the reference (a string) or references (a sequence of strings) of ``candidates[i]``.
    """
    max_n = as_whole(max_n)
    check_settings(max_n, smoothing)
    pairs = list(corpus_stats(references, candidates, max_n))
    total = sum_stats((stats for stats, _ in pairs), max_n)
    return score_from_stats(total, smoothing=smoothing, refs=max(n for _, n in pairs))


# --- the detail columns and the memory of prepared references ---------------------------------------------------


def detail_columns(max_n: int = 2) -> tuple[DetailColumn, ...]:
    """The columns after a pair's score: value, numerator and denominator per order, then BP, r, c."""
    columns: list[DetailColumn] = []
    for n in range(1, max_n + 1):
        columns += [
            DetailColumn(f"p{n}", ColumnKind.SCORE),
            DetailColumn(f"p{n} num", ColumnKind.COUNT),
            DetailColumn(f"p{n} den", ColumnKind.COUNT),
        ]
    return (
        *columns,
        DetailColumn("BP", ColumnKind.SCORE),
        DetailColumn("r", ColumnKind.COUNT),
        DetailColumn("c", ColumnKind.COUNT),
    )


def detail_row(score: Score) -> list[float | int | None]:
    """A score's values in the order of :func:`detail_columns`; the value of an order left out (the candidate
    has no n-gram of it) is ``None``, a blank cell, beside its numerator 0 and denominator 0."""
    row: list[float | int | None] = []
    stats, smoothing = score.stats, score.smoothing
    for matches, total in zip(stats.matches, stats.totals):  # each Precision's fraction, made once
        numerator, denominator = smoothed_fraction(matches, total, smoothing)
        row += (numerator / denominator if denominator else None, numerator, denominator)
    return [*row, score.bp, stats.r, stats.c]


def _key_of(keys: set[str]) -> Hashable:
    """A reference set's key from its references' tokens joined (a reference with no words left out)."""
    keys.discard("")
    return next(iter(keys)) if len(keys) == 1 else frozenset(keys)  # one text: less memory than a set


def held_size(texts: tuple[str, ...], prepared: References) -> int:
    """The bytes a prepared reference set holds: its texts, its tokens and its n-gram tables (each table and its
    tuples; the tuples share the tokens' strings). At least what the objects really take: a 32,767-character CJK
    reference prepared to the 9-grams holds about 34 MiB, 50 times what it holds to the bigrams."""
    size = sum(map(sys.getsizeof, texts)) + sys.getsizeof(prepared.tokens)
    for words in prepared.tokens:
        size += sys.getsizeof(words) + sum(map(sys.getsizeof, words))
    empty = sys.getsizeof(())
    for n, counts in enumerate(prepared.max_counts, start=1):
        size += sys.getsizeof(counts) + len(counts) * (empty + 8 * n)
    return size


# --- the metric object -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bleu(Metric[References, Stats, Score]):
    """BLEU-N with add-1 smoothing (or none), as ``BLEU2`` and ``BLEU`` score in Excel: the metric object every
    face takes. ``Bleu()`` is BLEU-2.

    >>> round(Bleu().sentence_score("the cat sat on the mat", "the cat sat on a mat").bleu, 4)
    0.7071
    """

    max_n: int = 2
    smoothing: str = "add1"

    key: ClassVar[str] = "bleu"
    label: ClassVar[str] = "BLEU"
    #: The highest order and the smoothing methods the settings take.
    MAX_ORDER: ClassVar[int] = MAX_ORDER
    SMOOTHING_METHODS: ClassVar[tuple[str, ...]] = SMOOTHING_METHODS

    def __post_init__(self) -> None:
        settle(self, whole=("max_n",))
        check_settings(self.max_n, self.smoothing)

    @property
    def name(self) -> str:
        return f"BLEU-{self.max_n}"

    @property
    def preparation(self) -> Hashable:
        return ("bleu", self.max_n)

    def prepare(self, reference: ReferenceLike) -> References:
        return References(reference, self.max_n)

    def prepared(self, reference: ReferenceLike | References) -> References:
        return as_references(reference, self.max_n)

    def pair_stats(self, prepared: References, candidate: str) -> Stats:
        return pair_stats(prepared, tokenize(candidate))

    def score_many(self, reference: ReferenceLike | References, candidates: Iterable[str]) -> list[Score]:
        refuse_text(candidates, "candidates")
        return scores_against(self.prepared(reference), candidates, self.smoothing)

    def sum_stats(self, stats: Iterable[Stats]) -> Stats:
        return sum_stats(stats, self.max_n)

    def score_from_stats(self, stats: Stats, refs: int = 1) -> Score:
        return score_from_stats(stats, smoothing=self.smoothing, refs=refs)

    def signature(self, refs: int = 1) -> str:
        return signature(self.max_n, self.smoothing, refs)

    def as_numbers(self, stats: Stats) -> tuple[int, ...]:
        return (*stats.matches, *stats.totals, stats.c, stats.r)

    def from_numbers(self, numbers: Sequence[int]) -> Stats:
        n = self.max_n
        return Stats(tuple(numbers[:n]), tuple(numbers[n : 2 * n]), numbers[2 * n], numbers[2 * n + 1])

    def reference_key(self, texts: tuple[str, ...]) -> Hashable:
        """What BLEU reads of a reference set: the tokens of each reference (after NFKC and casefold, so case,
        spacing, punctuation and how an accent is encoded do not count), a reference with no words left out, in
        any order."""
        return _key_of({" ".join(tokenize(text)) for text in texts})  # a token holds no space: the join is one-to-one

    def prepared_key(self, texts: tuple[str, ...], prepared: References) -> Hashable:
        return _key_of({" ".join(words) for words in prepared.tokens})

    def held_size(self, texts: tuple[str, ...], prepared: References) -> int:
        return held_size(texts, prepared)

    def details(self) -> tuple[DetailColumn, ...]:
        """p1 to pN (value, numerator, denominator), BP, r, c."""
        return detail_columns(self.max_n)

    def detail_values(self, score: Score) -> list[float | int | None]:
        return detail_row(score)


#: BLEU-2 with add-1 smoothing: the default metric of every face.
BLEU_2 = Bleu()
