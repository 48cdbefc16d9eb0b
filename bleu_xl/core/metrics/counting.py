"""Counting n-grams, and a candidate's n-grams found in a reference, clipped at the reference's counts (BLEU's
matches): in C helpers, each held equal to its obvious version by a property test, its gain measured in
benchmarks/bench_fast_paths.py. Standard library only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Union

__all__ = [
    "Counts",
    "Gram",
    "clipped_counts",
    "clipped_matches",
    "ngram_counts",
    "ngrams",
]

Gram = Union[str, tuple[str, ...]]  # noqa: UP007 - a token for n = 1, a tuple of n tokens above
Counts = dict[Gram, int]


def _count_into(counts: dict, items: Iterable) -> None:
    """Add one to ``counts[item]`` for each item: the obvious version of :func:`_count_elements`."""
    for item in items:
        counts[item] = counts.get(item, 0) + 1


try:
    # The C helper behind Counter, without Counter's own overhead: faster than the obvious loop
    # (benchmarks/bench_fast_paths.py). Held equal to _count_into by a test.
    from collections import _count_elements
except ImportError:  # pragma: no cover - other Pythons
    _count_elements = _count_into


def ngram_counts(tokens: Sequence[str], n: int) -> Counts:
    """Counts of the n-grams of ``tokens`` (in first-occurrence order): plain tokens for n = 1, tuples above."""
    counts: Counts = {}
    _count_elements(counts, ngrams(tokens, n))
    return counts


def ngrams(tokens: Sequence[str], n: int) -> Iterable[Gram]:
    """The n-grams of ``tokens`` in order: plain tokens for n = 1, tuples above."""
    if n == 1:
        return tokens
    if n == 2:
        return pairwise(tokens)
    return zip(*[tokens[i:] for i in range(n)])


def clipped_counts(candidate_counts: Counts, ref_counts: Counts) -> Counts:
    """Each candidate n-gram found in the reference, counted at most as often as it occurs there.

    One dictionary look-up per distinct candidate n-gram: linear whatever either side repeats.
    """
    get = ref_counts.get
    return {gram: count if count < ref else ref for gram, count in candidate_counts.items() if (ref := get(gram))}


def clipped_matches(grams: Iterable[Gram], ref_counts: Counts) -> int:
    """``sum(clipped_counts(ngram counts of grams, ref_counts).values())``, counting only the candidate n-grams
    found in the reference, in C (``filter``), and clipping only those the candidate repeats: faster than the
    obvious sum (benchmarks/bench_fast_paths.py). Linear all the same; held equal to the obvious version by a property
    test."""
    hits = list(filter(ref_counts.__contains__, grams))
    counts: Counts = {}
    _count_elements(counts, hits)
    matches = len(hits)
    if len(counts) < matches:  # some found n-gram repeats in the candidate: clip it at the reference's count
        for gram, count in counts.items():
            if count > 1 and count > ref_counts[gram]:  # found once, it is within the reference's count
                matches -= count - ref_counts[gram]
    return matches
