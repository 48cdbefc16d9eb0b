"""BLEU-N statistics and scores: sentence, many candidates against one reference set, corpus.

Standard library only, so the same code runs in xlwings, in xlwings Lite (Pyodide) and on the command line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from operator import sub
from typing import NamedTuple, Union

try:
    from collections import _count_elements  # the C helper behind Counter, without Counter's overhead
except ImportError:  # pragma: no cover - other Pythons

    def _count_elements(mapping: dict, iterable: Iterable) -> None:
        get = mapping.get
        for item in iterable:
            mapping[item] = get(item, 0) + 1


from ._version import __version__
from .tokenizer import tokenize

__all__ = [
    "SMOOTHING_METHODS",
    "BleuError",
    "Precision",
    "References",
    "Score",
    "Stats",
    "bleu_parts",
    "corpus_score",
    "corpus_stats",
    "pair_stats",
    "score",
    "score_from_stats",
    "score_many",
    "signature",
    "sum_stats",
]

SMOOTHING_METHODS = ("add1", "none")
MAX_ORDER = 9
_VALID_SETTINGS = frozenset((n, s) for n in range(1, MAX_ORDER + 1) for s in SMOOTHING_METHODS)

ReferenceLike = Union[str, Sequence[str]]  # noqa: UP007 - a runtime alias, and Python 3.10 is supported


class BleuError(ValueError):
    """Raised for input that cannot be scored: no usable reference, bad settings, unequal lengths."""


def check_settings(max_n: int, smoothing: str) -> None:
    """Raise :class:`BleuError` unless ``max_n`` is in 1..9 and ``smoothing`` is a known method."""
    if type(max_n) is int and (max_n, smoothing) in _VALID_SETTINGS:
        return
    if isinstance(max_n, bool) or not isinstance(max_n, int) or not 1 <= max_n <= MAX_ORDER:
        raise BleuError(f"max_n must be a whole number from 1 to {MAX_ORDER}, not {max_n!r}")
    if smoothing not in SMOOTHING_METHODS:
        raise BleuError(f"smoothing must be one of {', '.join(SMOOTHING_METHODS)}, not {smoothing!r}")


def signature(max_n: int = 2, smoothing: str = "add1", refs: int = 1) -> str:
    """The string that pins every scoring choice, e.g. ``bleu-xl:0.1.0|n:2|smooth:add1|...|refs:1``."""
    return f"bleu-xl:{__version__}|n:{max_n}|smooth:{smoothing}|tok:words+cjk|norm:nfkc-casefold|refs:{refs}"


class Precision(NamedTuple):
    """Clipped n-gram matches over candidate n-grams, with the smoothing that turns them into a value."""

    matches: int
    total: int
    smoothing: str = "add1"

    @property
    def smoothed(self) -> bool:
        """True when add-1 smoothing replaced a zero count."""
        return self.smoothing == "add1" and self.matches == 0

    @property
    def numerator(self) -> int:
        return self.matches + 1 if self.smoothed else self.matches

    @property
    def denominator(self) -> int:
        return self.total + 1 if self.smoothed else self.total

    @property
    def value(self) -> float:
        return precision_value(self.matches, self.total, self.smoothing)


@dataclass(frozen=True)
class Score:
    """A BLEU score with everything needed to explain it."""

    bleu: float
    precisions: tuple[Precision, ...]
    bp: float
    r: int
    c: int
    max_n: int = 2
    smoothing: str = "add1"
    refs: int = 1

    @property
    def p1(self) -> float:
        return self.precisions[0].value

    @property
    def p2(self) -> float:
        """The bigram precision value (``IndexError`` for a BLEU-1 score)."""
        return self.precisions[1].value

    @property
    def signature(self) -> str:
        return signature(self.max_n, self.smoothing, self.refs)

    def __float__(self) -> float:
        return self.bleu


class Stats(NamedTuple):
    """Sufficient statistics of one or more pairs: they add up over a corpus."""

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    c: int
    r: int


def ngram_counts(tokens: Sequence[str], n: int) -> dict:
    """Counts of the n-grams of ``tokens`` (in first-occurrence order)."""
    counts: dict = {}
    _count_elements(counts, ngrams(tokens, n))
    return counts


def ngrams(tokens: Sequence[str], n: int) -> Iterable:
    """The n-grams of ``tokens`` in order: plain tokens for n = 1, tuples above."""
    if n == 1:
        return tokens
    if n == 2:
        return pairwise(tokens)
    return zip(*[tokens[i:] for i in range(n)])


def clipped_matches(grams: Iterable, ref_counts: dict) -> int:
    """Sum over the distinct candidate n-grams of min(candidate count, reference count).

    Only the candidate n-grams found in the reference are kept (in C); when none of those repeats, which is
    most of the time, each matches once and no candidate counts are needed at all.
    """
    hits = list(filter(ref_counts.__contains__, grams))
    if len(set(hits)) == len(hits):
        return len(hits)
    counts: dict = {}
    _count_elements(counts, hits)
    cand = list(counts.values())
    ref = list(map(ref_counts.__getitem__, counts))
    # min(a, b) = (a + b - |a - b|) / 2, all in C: several times faster than calling min() per n-gram.
    return (sum(cand) + sum(ref) - sum(map(abs, map(sub, cand, ref)))) // 2


class References:
    """The tokenized references of one candidate: lengths and, per order, the largest count in any one of them.

    Built once and reused for every candidate scored against the same references.
    """

    __slots__ = ("lengths", "max_counts", "max_n", "texts", "tokens")

    def __init__(self, reference: ReferenceLike, max_n: int = 2) -> None:
        if isinstance(reference, str):  # the common case, kept short: one reference per call
            texts: tuple[str, ...] = (reference,)
            only = tokenize(reference)
            tokens = [only] if only else []
        else:
            texts = tuple(reference)
            tokens = [t for t in map(_tokenize_text, texts) if t]
        if not tokens:
            raise BleuError("reference has no words" if texts else "no reference given")
        self.texts = texts
        self.tokens = tokens
        self.max_n = max_n
        self.lengths = sorted({len(t) for t in tokens})
        max_counts = [ngram_counts(tokens[0], n) for n in range(1, max_n + 1)]
        for other in tokens[1:]:
            for n, merged in enumerate(max_counts, start=1):
                get = merged.get
                for gram, count in ngram_counts(other, n).items():
                    if count > get(gram, 0):
                        merged[gram] = count
        self.max_counts = max_counts

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
    matches = []
    m = c
    for n, ref_counts in enumerate(refs.max_counts, start=1):
        # An n-gram can only match where its (n-1)-gram prefix did: after an order without one, the rest are 0.
        m = clipped_matches(ngrams(candidate_tokens, n), ref_counts) if m and c >= n else 0
        matches.append(m)
    totals = tuple([c - n if c > n else 0 for n in range(refs.max_n)])
    lengths = refs.lengths
    return Stats(tuple(matches), totals, c, lengths[0] if len(lengths) == 1 else refs.closest_length(c))


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


def precision_value(matches: int, total: int, smoothing: str) -> float:
    """(matches + 1) / (total + 1) for a zero count under add-1, else matches / total (0 when total is 0)."""
    if matches == 0 and smoothing == "add1":
        return 1.0 / (total + 1)
    return matches / total if total else 0.0


def bleu_parts(stats: Stats, max_n: int = 2, smoothing: str = "add1") -> tuple[float, list[float], float]:
    """BLEU, the precision values and BP of sentence or corpus statistics (the formulas, without a Score)."""
    matches, totals, c, r = stats
    if c == 0:
        return 0.0, [0.0] * max_n, 0.0
    values = [precision_value(m, t, smoothing) for m, t in zip(matches, totals)]
    bp = 1.0 if c >= r else math.exp(1.0 - r / c)
    bleu = 0.0 if 0.0 in values else bp * math.exp(math.fsum(map(math.log, values)) / max_n)
    return bleu, values, bp


def score_from_stats(stats: Stats, max_n: int = 2, smoothing: str = "add1", refs: int = 1) -> Score:
    """Apply the BLEU formulas to sentence or corpus statistics."""
    bleu, _, bp = bleu_parts(stats, max_n, smoothing)
    matches, totals, c, r = stats
    kind = smoothing if c else "none"  # an empty candidate scores 0 everywhere: no smoothing
    precisions = tuple([Precision(m, t, kind) for m, t in zip(matches, totals)])
    return Score(bleu, precisions, bp, r, c, max_n, smoothing, refs)


def score(reference: ReferenceLike, candidate: str, *, max_n: int = 2, smoothing: str = "add1") -> Score:
    """Sentence BLEU-N (BLEU-2 by default) of ``candidate`` against one reference or a sequence of references.

    >>> round(score("the cat sat on the mat", "the cat sat on a mat").bleu, 4)
    0.7071
    """
    check_settings(max_n, smoothing)
    refs = References(reference, max_n)
    return _score_one(refs, candidate, max_n, smoothing)


def _score_one(refs: References, candidate: str, max_n: int, smoothing: str) -> Score:
    return score_from_stats(pair_stats(refs, _tokenize_text(candidate)), max_n, smoothing, len(refs))


def score_many(
    reference: ReferenceLike | References,
    candidates: Iterable[str],
    *,
    max_n: int = 2,
    smoothing: str = "add1",
) -> list[Score]:
    """Score many candidates against one reference (or one reference set), tokenizing the reference once."""
    check_settings(max_n, smoothing)
    refs = reference if isinstance(reference, References) else References(reference, max_n)
    if refs.max_n != max_n:
        raise BleuError(f"references were prepared for max_n={refs.max_n}, not {max_n}")
    return [_score_one(refs, candidate, max_n, smoothing) for candidate in candidates]


def corpus_stats(
    references: Sequence[ReferenceLike | References], candidates: Sequence[str], max_n: int = 2
) -> list[tuple[Stats, int]]:
    """The statistics and number of references of every pair of a corpus, with the corpus input checks.

    ``references[i]`` is the reference (a string), the references (a sequence of strings) or prepared
    :class:`References` of ``candidates[i]``.
    """
    if isinstance(references, str) or isinstance(candidates, str):
        raise BleuError("give a sequence of references and a sequence of candidates")
    if len(references) != len(candidates):
        raise BleuError(f"{len(references)} references but {len(candidates)} candidates")
    if not candidates:
        raise BleuError("no pairs to score")
    out = []
    for ref, cand in zip(references, candidates):
        refs = ref if isinstance(ref, References) else References(ref, max_n)
        out.append((pair_stats(refs, _tokenize_text(cand)), len(refs)))
    return out


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
    check_settings(max_n, smoothing)
    pairs = corpus_stats(references, candidates, max_n)
    total = sum_stats((stats for stats, _ in pairs), max_n)
    return score_from_stats(total, max_n, smoothing, max(n for _, n in pairs))


def _tokenize_text(text: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"references and candidates must be strings, not {type(text).__name__}")
    return tokenize(text)
