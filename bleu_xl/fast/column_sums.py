"""The paired tests' column sums with numpy: the same draws and the same sums as the core's plain
:class:`~bleu_xl.core.column_sums.ColumnSums`, many resamples or trials at a time (benchmarks/bench_compare_cli.py
measures the gain).

A block of resamples becomes a matrix of how often each one drew each pair (``bincount``), and a block of trials a
matrix of which pairs each swaps (``unpackbits``); one matrix product with the statistics columns gives every sum
of the block. The product is in 64-bit floats, so it is exact only for whole numbers whose sums stay below 2**53:
columns that are not all whole numbers, or too large, take the plain sums (TER's average reference lengths under
several references, say). A sum comes back as the type the plain sum gives: ``int`` for a column of ``int``,
``float`` for one of ``float`` (a column of both takes the plain sums, whose type depends on the pairs drawn).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from ..core.column_sums import Columns, ColumnSums

__all__ = ["NumpySums"]

#: Cells of the largest matrix a block makes (pairs x resamples): 2**21 float64 cells are 16 MiB.
BLOCK_CELLS = 2**21
#: Below this a float64 sum of whole numbers is exact whatever the order.
EXACT = 2**53


class NumpySums(ColumnSums):
    """:class:`~bleu_xl.core.column_sums.ColumnSums` with numpy; held equal to it by a property test. A block of
    resamples or trials holds at most ``block_cells`` pairs x draws."""

    def __init__(self, block_cells: int = BLOCK_CELLS) -> None:
        self.block_cells = block_cells

    def resampled(self, columns: Columns, samples: int, seed: int) -> Iterator[list[float]]:
        exact = _exact(columns)
        if exact is None:
            yield from super().resampled(columns, samples, seed)
            return
        matrix, types = exact
        n = matrix.shape[0]
        rng = random.Random(seed)
        block = max(1, self.block_cells // n)
        offsets = (np.arange(block, dtype=np.int64) * n)[:, None]
        for start in range(0, samples, block):
            size = min(block, samples - start)
            raw = b"".join([rng.randbytes(4 * n) for _ in range(size)])  # the plain draws' bytes, in their order
            drawn = (np.frombuffer(raw, dtype="<u4").astype(np.int64) * n) >> 32
            drawn = drawn.reshape(size, n) + offsets[:size]
            counts = np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n)
            yield from _rows(counts.astype(np.float64) @ matrix, types)

    def swapped(self, columns: Columns, trials: int, seed: int) -> Iterator[list[float]]:
        exact = _exact(columns)
        if exact is None:
            yield from super().swapped(columns, trials, seed)
            return
        matrix, types = exact
        n = matrix.shape[0]
        width = (n + 7) // 8
        rng = random.Random(seed)
        block = max(1, self.block_cells // n)
        for start in range(0, trials, block):
            size = min(block, trials - start)
            raw = np.frombuffer(b"".join([rng.randbytes(width) for _ in range(size)]), dtype=np.uint8)
            bits = np.unpackbits(raw.reshape(size, width), axis=1, count=n, bitorder="little")
            yield from _rows(bits.astype(np.float64) @ matrix, types)


def _exact(columns: Columns) -> tuple[np.ndarray, list[type]] | None:
    """The columns as a pairs x columns float64 matrix and each column's type, or ``None`` when a float64 product
    could differ from the plain sums: a value not a whole number, or sums that could reach 2**53."""
    try:
        matrix = np.array(columns, dtype=np.float64).T
    except OverflowError:  # a whole number past float64's range
        return None
    if not matrix.size or not np.all(np.isfinite(matrix)) or not np.all(matrix == np.floor(matrix)):
        return None
    if float(np.abs(matrix).max()) * matrix.shape[0] >= EXACT:
        return None
    types: list[type] = []
    for column in columns:
        kinds = set(map(type, column))
        if len(kinds) != 1:  # ints and floats: the plain sum's type depends on the pairs drawn
            return None
        types.extend(kinds)
    return matrix, types


def _rows(sums: np.ndarray, types: list[type]) -> Iterator[list[float]]:
    for row in sums.tolist():
        yield [kind(value) for kind, value in zip(types, row)]
