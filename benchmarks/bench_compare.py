"""Paired bootstrap: 1,000 resamples of 3,000 pairs, bleu-xl against sacrebleu's paired bootstrap, one run.

Run: python benchmarks/bench_compare.py [--pairs 3000] [--samples 1000] [--runs 3]
Both get the same pre-tokenized pairs (sacrebleu with tokenize="none", BLEU-2, no smoothing) and include the
one-off statistics of both systems; the contenders are interleaved and the best and median runs are printed.
Target here: bleu-xl at most 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sacrebleu.metrics import BLEU
from sacrebleu.significance import _paired_bs_test
from synthetic import make_pairs  # this folder: benchmark data, not part of the package

from bleu_xl import paired_test, tokenize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    pairs = [(r, c) for r, c in make_pairs(args.pairs * 2, seed=8, min_len=14, max_len=26) if tokenize(r)][: args.pairs]
    refs = [" ".join(tokenize(r)) for r, _ in pairs]
    a = [" ".join(tokenize(c)) for _, c in pairs]
    b = [r if i % 5 == 0 else c for i, (r, c) in enumerate(zip(refs, a))]

    def ours() -> float:
        return paired_test(refs, a, b, samples=args.samples, smoothing="none").p_value

    def sacre() -> float:
        metric = BLEU(tokenize="none", max_ngram_order=2, smooth_method="none")
        stats = metric._extract_corpus_statistics(a, [refs])
        baseline = {"BLEU": (stats, metric._aggregate_and_compute(stats))}
        _, result = _paired_bs_test(baseline, "B", b, [refs], {"BLEU": metric}, n_samples=args.samples, seed=12345)
        return result["BLEU"].p_value

    times: dict[str, list[float]] = {"bleu-xl paired_test": [], "sacrebleu paired bootstrap": []}
    p_values = {}
    for _ in range(args.runs):
        for name, fn in (("bleu-xl paired_test", ours), ("sacrebleu paired bootstrap", sacre)):
            start = time.perf_counter()
            p_values[name] = fn()
            times[name].append(time.perf_counter() - start)
    print(f"{len(pairs)} pairs, {args.samples} resamples; best and median of {args.runs} interleaved runs")
    for name, ts in times.items():
        print(f"{name:28} best {min(ts):6.3f} s   median {statistics.median(ts):6.3f} s   p = {p_values[name]:.4f}")
    ours_best, theirs_best = min(times["bleu-xl paired_test"]), min(times["sacrebleu paired bootstrap"])
    print(f"bleu-xl / sacrebleu time ratio {ours_best / theirs_best:.2f} (below 1: bleu-xl is faster)")
    print(f"target bleu-xl <= 2 s: {'met' if ours_best <= 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
