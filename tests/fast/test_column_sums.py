"""The numpy column sums are the plain ones: the same draws, the same sums, the same types, block by block; columns a
float64 product could get wrong take the plain way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl.core.column_sums import PLAIN, drawn_indices, swapped_indices
from bleu_xl.fast.column_sums import NumpySums


def _columns(kind: st.SearchStrategy) -> st.SearchStrategy[list[list]]:
    return st.integers(1, 40).flatmap(
        lambda n: st.lists(st.lists(kind, min_size=n, max_size=n), min_size=1, max_size=5)
    )


NUMBERS = st.one_of(
    st.integers(-50, 500),
    st.integers(-50, 500).map(float),  # TER's lengths under one reference: whole numbers as floats
    st.sampled_from([0.5, 1 / 3, 2.0**60, 10**17, -(10**17)]),  # not whole, or past 2**53: the plain way
)


def _typed(rows: list[list]) -> list[list[tuple[type, float]]]:
    return [[(type(v), v) for v in row] for row in rows]


@settings(max_examples=60, deadline=None)
@given(_columns(NUMBERS), st.integers(1, 25), st.integers(0, 2**40), st.sampled_from([1, 7, 64, 2**21]))
def test_numpy_sums_are_the_plain_sums(columns: list[list], draws: int, seed: int, block_cells: int) -> None:
    fast = NumpySums(block_cells)
    assert _typed(list(fast.resampled(columns, draws, seed))) == _typed(list(PLAIN.resampled(columns, draws, seed)))
    assert list(fast.swapped(columns, draws, seed)) == list(PLAIN.swapped(columns, draws, seed))


def test_the_draws_are_what_the_module_says() -> None:
    """A resample's indices are (v * n) >> 32 of little-endian 32-bit v; a trial swaps pair i when bit i % 8 of byte
    i // 8 is set, least significant first, and never a pair past the last."""
    import random

    rng = random.Random(9)
    raw = rng.randbytes(4 * 5)
    expected = [(int.from_bytes(raw[4 * i : 4 * i + 4], "little") * 5) >> 32 for i in range(5)]
    assert next(drawn_indices(5, 1, 9)) == expected
    rng = random.Random(9)
    trial = rng.randbytes(2)
    bits = int.from_bytes(trial, "little")
    assert next(swapped_indices(11, 1, 9)) == [i for i in range(11) if bits >> i & 1]
    assert all(max(s, default=0) < 11 for s in swapped_indices(11, 50, 1))


def test_every_trial_swaps_each_pair_half_the_time() -> None:
    counts = [0] * 13
    for swapped in swapped_indices(13, 4000, 3):
        for i in swapped:
            counts[i] += 1
    assert all(1800 < c < 2200 for c in counts)


def test_every_metric_tests_alike_with_either_sums() -> None:
    """End to end, through the paired tests: BLEU, chrF++ and TER (whose average lengths under two references are not
    whole numbers: the plain way) give the same results with the numpy sums."""
    from bleu_xl import Bleu, Chrf, Randomization, Resampling
    from bleu_xl.core.metrics.ter import Ter
    from tests.helpers import compared_columns

    refs, a, b = (column[:150] for column in compared_columns())
    two = [(r, r + " again") for r in refs]
    for metric, references in ((Bleu(), refs), (Chrf(6, 2), refs), (Ter(), refs), (Ter(), two)):
        for test in (Resampling(metric, samples=120, seed=3), Randomization(metric, trials=300, seed=3)):
            assert test.paired(references, a, b, sums=NumpySums(500)) == test.paired(references, a, b)
        bootstrap = Resampling(metric, samples=80, seed=1)
        assert bootstrap.interval(references, a, sums=NumpySums(500)) == bootstrap.interval(references, a)
