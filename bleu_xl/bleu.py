"""BLEU-N statistics and scores: sentence, many candidates against one reference set, corpus.

Standard library only, so the same code runs in xlwings, in xlwings Lite (Pyodide) and on the command line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, pairwise, repeat
from operator import lt
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
# Builds a NamedTuple from a tuple without going through its generated Python __new__ (3x faster, per pair).
_new_tuple = tuple.__new__
MAX_ORDER = 9
_NOT_SHARED = (None,) * MAX_ORDER  # the repeats of References that were not shared: none prepared
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


@dataclass(frozen=True, init=False)
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

    def __init__(
        self,
        bleu: float,
        precisions: tuple[Precision, ...],
        bp: float,
        r: int,
        c: int,
        max_n: int = 2,
        smoothing: str = "add1",
        refs: int = 1,
    ) -> None:
        # The generated __init__ of a frozen dataclass sets each field through object.__setattr__; filling
        # __dict__ at once is more than twice as fast, and a Score is built for every scored pair.
        self.__dict__.update(
            bleu=bleu, precisions=precisions, bp=bp, r=r, c=c, max_n=max_n, smoothing=smoothing, refs=refs
        )

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
    """Counts of the n-grams of ``tokens`` (in first-occurrence order): plain tokens for n = 1, tuples above."""
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


def repeated_grams(ref_counts: dict) -> dict:
    """The n-grams of ``ref_counts`` counted more than once, with their counts."""
    return {gram: count for gram, count in ref_counts.items() if count > 1}


def clipped_matches(grams: Iterable, ref_counts: dict, repeated: dict | None = None) -> int:
    """Sum over the distinct candidate n-grams of min(candidate count, reference count).

    Each distinct candidate n-gram found in the reference matches once, except where it repeats in both. Two
    ways to find those, with the same result: without ``repeated``, count the candidate's hits (no reference
    preparation: the cheaper way for a reference used once); with ``repeated``, which is
    ``repeated_grams(ref_counts)`` prepared once for a shared reference, a set intersection in C and a count
    of the few n-grams the reference repeats.
    """
    if repeated is not None:
        if not repeated:
            return len(ref_counts.keys() & grams)
        if not isinstance(grams, list):
            grams = list(grams)
        distinct = ref_counts.keys() & grams
        matches = len(distinct)
        for gram in distinct.intersection(repeated):
            count = grams.count(gram)
            if count > 1:
                matches += min(count, repeated[gram]) - 1
        return matches
    hits = list(filter(ref_counts.__contains__, grams))
    counts: dict = {}
    _count_elements(counts, hits)
    matches = len(hits)
    if len(counts) == matches:
        return matches
    for gram, count in compress(counts.items(), map(lt, repeat(1), counts.values())):
        excess = count - ref_counts[gram]
        if excess > 0:
            matches -= excess
    return matches


class References:
    """The tokenized references of one candidate: lengths and, per order, the largest count in any one of them.

    Built once and reused for every candidate scored against the same references.
    """

    __slots__ = ("lengths", "max_counts", "max_n", "repeats", "tokens")

    def __init__(self, reference: ReferenceLike, max_n: int = 2) -> None:
        self.max_n = max_n
        self.repeats: list[dict] | None = None  # see share()
        if isinstance(reference, str):  # the common case, kept short: one reference per call
            tokens = tokenize(reference)
            if not tokens:
                raise BleuError("reference has no words")
            self.tokens = [tokens]
            self.lengths = [len(tokens)]
            self.max_counts = list(map(ngram_counts, repeat(tokens, max_n), range(1, max_n + 1)))
            return
        texts = tuple(reference)
        self.tokens = all_tokens = [t for t in map(_tokenize_text, texts) if t]
        if not all_tokens:
            raise BleuError("reference has no words" if texts else "no reference given")
        self.lengths = sorted({len(t) for t in all_tokens})
        self.max_counts = max_counts = list(map(ngram_counts, repeat(all_tokens[0], max_n), range(1, max_n + 1)))
        for other in all_tokens[1:]:
            for n, merged in enumerate(max_counts, start=1):
                get = merged.get
                for gram, count in ngram_counts(other, n).items():
                    if count > get(gram, 0):
                        merged[gram] = count

    def __len__(self) -> int:
        return len(self.tokens)

    def share(self) -> References:
        """Prepare to score many candidates: find the n-grams the references repeat, once, so that clipping
        each candidate needs no counts of its own (see :func:`clipped_matches`). Returns ``self``."""
        if self.repeats is None:
            self.repeats = list(map(repeated_grams, self.max_counts))
        return self

    def closest_length(self, c: int) -> int:
        """The reference length closest to ``c``; a tie goes to the shorter."""
        lengths = self.lengths
        if len(lengths) == 1:
            return lengths[0]
        return min(lengths, key=lambda length: (abs(length - c), length))


def pair_stats(refs: References, candidate_tokens: Sequence[str]) -> Stats:
    """Clipped matches and totals of one tokenized candidate against a reference set."""
    c = len(candidate_tokens)
    max_counts = refs.max_counts
    repeats = refs.repeats or _NOT_SHARED
    m = clipped_matches(candidate_tokens, max_counts[0], repeats[0])
    matches = [m]
    for n in range(2, refs.max_n + 1):
        # An n-gram can only match where its (n-1)-gram prefix did: after an order without one, the rest are 0.
        m = clipped_matches(ngrams(candidate_tokens, n), max_counts[n - 1], repeats[n - 1]) if m and c >= n else 0
        matches.append(m)
    lengths = refs.lengths
    r = lengths[0] if len(lengths) == 1 else refs.closest_length(c)
    # Stats(...) without its Python-level __new__: this runs for every pair.
    return _new_tuple(Stats, (tuple(matches), _totals(c, refs.max_n), c, r))


@lru_cache(maxsize=1024)
def _totals(c: int, max_n: int) -> tuple[int, ...]:
    """The number of candidate n-grams of each order for a candidate of ``c`` tokens."""
    return tuple(c - n if c > n else 0 for n in range(max_n))


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
    # precision_value, inlined, in a loop rather than a comprehension (cheaper for two or four orders): this runs
    # for every scored pair. m > 0 implies t > 0: m / t never divides by zero.
    add1 = smoothing == "add1"
    values = []
    for m, t in zip(matches, totals):
        values.append(m / t if m else 1.0 / (t + 1) if add1 else 0.0)
    bp = 1.0 if c >= r else math.exp(1.0 - r / c)
    # The geometric mean; a zero value makes the product 0 and the score 0.
    return bp * math.prod(values) ** (1.0 / max_n), values, bp


def score_from_stats(stats: Stats, max_n: int = 2, smoothing: str = "add1", refs: int = 1) -> Score:
    """Apply the BLEU formulas to sentence or corpus statistics."""
    bleu, _, bp = bleu_parts(stats, max_n, smoothing)
    matches, totals, c, r = stats
    kind = smoothing if c else "none"  # an empty candidate scores 0 everywhere: no smoothing
    precisions = []
    for m, t in zip(matches, totals):
        precisions.append(_new_tuple(Precision, (m, t, kind)))
    return Score(bleu, tuple(precisions), bp, r, c, max_n, smoothing, refs)


def score(reference: ReferenceLike, candidate: str, *, max_n: int = 2, smoothing: str = "add1") -> Score:
    """Sentence BLEU-N (BLEU-2 by default) of ``candidate`` against one reference or a sequence of references.

    >>> round(score("the cat sat on the mat", "the cat sat on a mat").bleu, 4)
    0.7071
    """
    check_settings(max_n, smoothing)
    refs = References(reference, max_n)
    return _score_one(refs, candidate, max_n, smoothing)


def _score_one(refs: References, candidate: str, max_n: int, smoothing: str) -> Score:
    return score_from_stats(pair_stats(refs, _tokenize_text(candidate)), max_n, smoothing, len(refs.tokens))


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
    refs.share()
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
