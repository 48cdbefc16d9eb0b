"""The reference cache holds no more memory than it says: it counts the bytes its prepared references really hold,
which grow with the n-gram order, not only the characters of the texts (issue 24, row 15)."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from bleu_xl import Bleu, Chrf
from bleu_xl.core.metrics.bleu import References
from bleu_xl.excel import cells


def cjk(length: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(length))


def latin(length: int, seed: int) -> str:
    """Latin-1 letters and a few characters beyond it, every long n-gram distinct: n-grams read as integers."""
    rng = random.Random(seed)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzàéèçœ’€ ") for _ in range(length))


def traced(build: object) -> int:
    """The bytes an object built by ``build()`` keeps, as tracemalloc sees them."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()  # type: ignore[operator]
        size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del kept
    return size


@pytest.mark.parametrize(
    ("texts", "max_n"),
    [
        ((cjk(3_000, 1),), 9),
        ((cjk(3_000, 2),), 2),
        ((cjk(2_000, 3), cjk(2_000, 4)), 4),
        ((" ".join(f"word{i % 500}" for i in range(3_000)),), 9),
        (("Free delivery on every order this week",), 1),
    ],
)
def test_the_size_counted_is_at_least_what_the_references_hold(texts: tuple[str, ...], max_n: int) -> None:
    copies = tuple("".join(list(text)) for text in texts)  # texts of their own, counted as the cache counts them
    held = traced(lambda: (copies, References(copies, max_n)))
    assert Bleu(max_n).held_size(copies, References(copies, max_n)) >= held * 0.98


def test_long_cjk_references_at_nine_grams_stay_within_the_bound() -> None:
    """The row's case scaled down: CJK references at max_n=9 once held six times the bound the comment gave."""
    limit = 24 * 2**20
    cache = cells.ReferenceCache(limit=limit)
    texts = [cjk(6_000, seed) for seed in range(12)]  # about 6 MiB each once prepared
    held = traced(lambda: [cache(Bleu(9), (text,)) for text in texts] and cache)
    assert cache.size <= limit and held <= limit * 1.05
    assert 2 <= len(cache.held) < len(texts)
    assert cells.REFERENCE_CACHE_BYTES == 256 * 2**20


@pytest.mark.parametrize(
    ("text", "char_order", "word_order"),
    [
        (cjk(3_000, 5), 9, 0),
        (cjk(3_000, 6), 6, 2),
        (" ".join(cjk(1, i) for i in range(2_000)), 9, 9),
        (latin(3_000, 7), 8, 2),
        ("".join(chr(0x20000 + i) for i in range(21_846)), 1, 0),  # every character its own object, one order
        ("Buy", 6, 0),
    ],
)
def test_the_size_counted_for_chrf_is_at_least_what_its_references_hold_every_order_counted(
    text: str, char_order: int, word_order: int
) -> None:
    """chrF's references count an order's n-grams when a candidate first needs it, after they were cached: the size
    counted is what they hold once every order is counted."""
    from bleu_xl.core.metrics.chrf_stats import ChrfReferences

    copies = ("".join(list(text)),)

    def build() -> ChrfReferences:
        prepared = ChrfReferences(copies, char_order, word_order)
        for reference in prepared.refs:
            for index in range(len(reference.counts)):
                reference.count(index)
        return prepared

    held = traced(build)
    assert Chrf(char_order, word_order).held_size(copies, ChrfReferences(copies, char_order, word_order)) >= held
