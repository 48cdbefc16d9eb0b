"""Paired bootstrap: 1,000 resamples of 3,000 pairs, bleu-xl (plain and numpy sums) against sacrebleu's, one run.

Run: python benchmarks/bench_compare.py [--pairs 3000] [--samples 1000] [--runs 3] [--without-sacrebleu]
Both get the same pre-tokenized pairs (sacrebleu with tokenize="none", BLEU-2, no smoothing) and include the
one-off statistics of both systems; the contenders are interleaved and the best and median runs are printed.
bleu-xl runs twice: ``paired_test`` (the core's plain sums, as in Python and xlwings Lite) and with the numpy sums
``bleu-xl compare`` uses (``sums=NumpySums()``). Target here: bleu-xl's plain sums at most 2 s. The peak resident
memory is printed too: bleu-xl's plain sums draw the resamples one at a time (the numpy sums a block, some 60 MB),
so ``--pairs 1048576 --without-sacrebleu --runs 1`` (sacrebleu holds every resample at once: 8 GB there)
shows the memory bound at the largest sheet Excel has.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time

from sacrebleu.metrics import BLEU
from sacrebleu.significance import _paired_bs_test
from synthetic import make_pairs  # this folder: benchmark data, not part of the package

from bleu_xl import Bootstrap, paired_test, tokenize
from bleu_xl.fast.column_sums import NumpySums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--without-sacrebleu", action="store_true", help="time bleu-xl alone (for large --pairs)")
    args = parser.parse_args()

    pairs = [(r, c) for r, c in make_pairs(args.pairs * 2, seed=8, min_len=14, max_len=26) if tokenize(r)][: args.pairs]
    refs = [" ".join(tokenize(r)) for r, _ in pairs]
    a = [" ".join(tokenize(c)) for _, c in pairs]
    b = [r if i % 5 == 0 else c for i, (r, c) in enumerate(zip(refs, a))]

    def ours() -> float:
        return paired_test(refs, a, b, samples=args.samples, smoothing="none").p_value

    def ours_numpy() -> float:
        test = Bootstrap(samples=args.samples, smoothing="none")
        return test.paired(refs, a, b, sums=NumpySums()).p_value

    def sacre() -> float:
        metric = BLEU(tokenize="none", max_ngram_order=2, smooth_method="none")
        stats = metric._extract_corpus_statistics(a, [refs])
        baseline = {"BLEU": (stats, metric._aggregate_and_compute(stats))}
        _, result = _paired_bs_test(baseline, "B", b, [refs], {"BLEU": metric}, n_samples=args.samples, seed=12345)
        return result["BLEU"].p_value

    contenders = [("bleu-xl paired_test", ours), ("bleu-xl with numpy sums", ours_numpy)] + (
        [] if args.without_sacrebleu else [("sacrebleu paired bootstrap", sacre)]
    )
    times: dict[str, list[float]] = {name: [] for name, _ in contenders}
    p_values = {}
    gc.collect()
    reset_peak_rss()
    rss_before = peak_rss_mib()
    for _ in range(args.runs):
        for name, fn in contenders:
            start = time.perf_counter()
            p_values[name] = fn()
            times[name].append(time.perf_counter() - start)
    print(f"{len(pairs)} pairs, {args.samples} resamples; best and median of {args.runs} interleaved runs")
    for name, ts in times.items():
        print(f"{name:28} best {min(ts):6.3f} s   median {statistics.median(ts):6.3f} s   p = {p_values[name]:.4f}")
    print(f"peak resident memory {peak_rss_mib():.0f} MiB while scoring ({rss_before:.0f} MiB before: the texts)")
    ours_best = min(times["bleu-xl paired_test"])
    if not args.without_sacrebleu:
        theirs_best = min(times["sacrebleu paired bootstrap"])
        print(f"bleu-xl / sacrebleu time ratio {ours_best / theirs_best:.2f} (below 1: bleu-xl is faster)")
    print(f"target bleu-xl <= 2 s: {'met' if ours_best <= 2 else 'NOT met'}")


def peak_rss_mib() -> float:
    """The process's peak resident memory since start or since :func:`reset_peak_rss` (Linux: VmHWM)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 2**10
    except OSError:  # not Linux: the peak since start (macOS reports bytes, others KiB)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if sys.platform == "darwin" else 2**10)


def reset_peak_rss() -> None:
    """Start the peak afresh from the memory in use now (Linux), so that making the texts does not count."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        pass


if __name__ == "__main__":
    main()
