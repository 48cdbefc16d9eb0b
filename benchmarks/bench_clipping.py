"""Clipping against references that repeat many n-grams: the paths that score many candidates against one
reference (``score_many``, a range call of the cell layer) cost no more per candidate than a single pair.

Run: python benchmarks/bench_clipping.py [--words 32000] [--chars 32767] [--runs 3]
Two cases of issue 14 (row 5), where counting each repeated n-gram in the candidate was quadratic:
- k words, twice over as the reference and once as the candidate, through ``score_many`` and ``score``;
- a reference cell of CJK text at Excel's 32,767-character limit, repeating its characters, against a range
  of such candidates (``cells.bleu_cells``), against the same candidates one cell at a time.
The figure is the per-candidate time of the many-candidate path over the single-pair path (target <= 2x), the
median of the interleaved runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bleu_xl import score, score_many
from bleu_xl.excel import cells

IDEOGRAPHS = [chr(cp) for cp in range(0x4E00, 0x4E00 + 3000)]


def repeated_words(k: int) -> tuple[str, str]:
    """A text of ``k`` distinct words: twice over as the reference, once as the candidate."""
    text = " ".join(f"w{i}" for i in range(k))
    return f"{text} {text}", text


def cjk_texts(chars: int, candidates: int) -> tuple[str, list[str]]:
    """Chinese-like texts of ``chars`` characters over 3,000 ideographs: each character repeats about eleven
    times in a text, and many bigrams do too. A reference and ``candidates`` texts drawn the same way."""
    texts = ["".join(random.Random(seed).choices(IDEOGRAPHS, k=chars)) for seed in range(candidates + 1)]
    return texts[0], texts[1:]


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=32_000)
    parser.add_argument("--chars", type=int, default=32_767)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    reference, candidate = repeated_words(args.words)
    many = median_seconds(lambda: score_many(reference, [candidate] * args.candidates), args.runs) / args.candidates
    single = median_seconds(lambda: score(reference, candidate), args.runs)
    print(f"{args.words:,} words twice as reference, once as candidate ({args.candidates} candidates)")
    print(
        f"  score_many per candidate {many * 1e3:8.1f} ms   score {single * 1e3:8.1f} ms   ratio {many / single:5.2f}x"
    )

    ref_cjk, cands_cjk = cjk_texts(args.chars, args.candidates)
    column = [[c] for c in cands_cjk]
    cells.bleu_cells(ref_cjk, column[:1])  # the reference is prepared once, as a sheet's first call does
    in_range = median_seconds(lambda: cells.bleu_cells(ref_cjk, column), args.runs) / len(column)
    one_cell = median_seconds(lambda: [cells.bleu_cells(ref_cjk, c) for c in cands_cjk], args.runs) / len(column)
    print(f"{args.chars:,}-character CJK reference cell against {len(column)} candidates")
    print(
        f"  range call per cell {in_range * 1e3:8.1f} ms   single-cell call {one_cell * 1e3:8.1f} ms   "
        f"ratio {in_range / one_cell:5.2f}x"
    )
    worst = max(many / single, in_range / one_cell)
    print(f"target: many-candidate paths <= 2x the single pair: {'met' if worst <= 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
