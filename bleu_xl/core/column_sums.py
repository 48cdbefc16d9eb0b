"""What the paired tests add up: each statistics column's sum over the pairs a bootstrap resample draws, or over the
pairs an approximate randomization trial swaps, drawn from a seeded generator alike on every machine.

:class:`ColumnSums` is the plain way, in pure Python (it runs under Pyodide); the fast layer's numpy sums give
the same sums from the same draws. The draws:

- a resample of ``n`` pairs takes ``4 * n`` bytes of ``random.Random(seed).randbytes``, read as ``n`` unsigned
  little-endian 32-bit numbers ``v``, and draws pair ``(v * n) >> 32`` for each (each index's probability is within
  ``n / 2**32`` of ``1 / n``);
- a randomization trial takes ``ceil(n / 8)`` bytes and swaps pair ``i`` when bit ``i % 8`` (least significant
  first) of byte ``i // 8`` is set: each pair with probability 1/2, independently.

Resamples and trials are drawn one after another from one generator, so a seed gives the same sums every time.
Standard library only (part of the core).
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter

__all__ = ["PLAIN", "ColumnSums", "Columns", "drawn_indices", "fast_gather", "gather", "swapped_indices"]

#: The pairs' statistics, one column per number of :meth:`~.metrics.base.Metric.as_numbers`, a value per pair.
Columns = Sequence[Sequence[float]]
Gather = Callable[[Sequence[float]], Sequence[float]]  # a column's values at some pair indices

_UINT32 = "I" if array("I").itemsize == 4 else "L"
#: For each byte, the positions of its set bits, least significant first.
_SET_BITS = tuple(tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256))


def drawn_indices(n: int, samples: int, seed: int) -> Iterator[list[int]]:
    """``samples`` draws of ``n`` pair indices with replacement (the module docstring says how), one at a time."""
    rng = random.Random(seed)
    for _ in range(samples):
        raw = array(_UINT32, rng.randbytes(4 * n))
        if sys.byteorder == "big":
            raw.byteswap()
        yield [(v * n) >> 32 for v in raw]


def swapped_indices(n: int, trials: int, seed: int) -> Iterator[list[int]]:
    """For ``trials`` randomization trials, the indices of the pairs each swaps (the module docstring says how)."""
    rng = random.Random(seed)
    for _ in range(trials):
        raw = rng.randbytes((n + 7) // 8)
        swapped = [8 * at + bit for at, byte in enumerate(raw) for bit in _SET_BITS[byte]]
        while swapped and swapped[-1] >= n:  # the last byte's bits past the last pair
            swapped.pop()
        yield swapped


def gather(indices: list[int]) -> Gather:
    """The obvious gather: a column's values at ``indices``."""
    return lambda column: [column[i] for i in indices]


def fast_gather(indices: list[int]) -> Gather:
    """:func:`gather` as one C call per column (``itemgetter``), faster than the obvious list
    (benchmarks/bench_fast_paths.py). ``itemgetter`` of a single index returns the value itself, not a tuple, and
    of none is an error: fewer than two indices take the obvious path."""
    return itemgetter(*indices) if len(indices) > 1 else gather(indices)


class ColumnSums:
    """The column sums of every resample and every trial, one at a time (memory grows with the pairs, not with the
    resamples), each added up in order with :func:`sum`."""

    def resampled(self, columns: Columns, samples: int, seed: int) -> Iterator[list[float]]:
        """For each of ``samples`` bootstrap resamples, every column's sum over the pairs it drew."""
        for indices in drawn_indices(len(columns[0]), samples, seed):
            take = fast_gather(indices)
            yield [sum(take(column)) for column in columns]

    def swapped(self, columns: Columns, trials: int, seed: int) -> Iterator[list[float]]:
        """For each of ``trials`` randomization trials, every column's sum over the pairs it swaps."""
        for indices in swapped_indices(len(columns[0]), trials, seed):
            take = fast_gather(indices)
            yield [sum(take(column)) for column in columns]


#: The plain column sums, which the core's tests use unless given others.
PLAIN = ColumnSums()
