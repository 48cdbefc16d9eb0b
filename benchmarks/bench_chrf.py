"""chrF speed: bleu-xl's chrf against sacrebleu's CHRF().sentence_score on the same pairs, measured in one run.

Run: python benchmarks/bench_chrf.py [--pairs 10000] [--runs 5] [--wmt22 FOLDER]
Both score every pair (chrF2, then chrF++) against its own reference; contenders are interleaved chunk by chunk
(500 pairs) within each run, each chunk scored once untimed right before its timed pass (as bench_core.py does,
for the same reasons). Each figure is the best (and the median) of the runs, in pairs per second. The scores are
checked equal (to 1e-12) before anything is timed. With --wmt22, the pairs are real ones instead of synthetic: each
line of the WMT22 sample's reference files (``*.ref.*``) with the same line of each system's output in its language.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sacrebleu.metrics import CHRF
from synthetic import make_pairs  # this folder: benchmark data, not part of the package

import bleu_xl

CHUNK = 500
TARGET = 2.0


def wmt22_pairs(folder: Path) -> list[tuple[str, str]]:
    """Every (reference, system output) line pair of the sample's languages."""
    pairs = []
    for ref_file in sorted(folder.glob("*.ref.*")):
        language = ref_file.suffix
        refs = ref_file.read_text(encoding="utf-8").splitlines()
        for hyp_file in sorted(folder.glob(f"*.hyp.*{language}")):
            hyps = hyp_file.read_text(encoding="utf-8").splitlines()
            pairs += zip(refs, hyps, strict=True)
    if not pairs:
        raise SystemExit(f"no *.ref.* file in {folder}")
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wmt22", type=Path, help="the WMT22 sample's folder: score its pairs instead")
    args = parser.parse_args()

    pairs = wmt22_pairs(args.wmt22) if args.wmt22 else make_pairs(args.pairs, seed=1, min_len=14, max_len=26)
    chars = sum(len("".join(r.split())) + len("".join(c.split())) for r, c in pairs) / (2 * len(pairs))
    contenders: dict[str, Callable[[list[tuple[str, str]]], list[float]]] = {}
    for word_order, name in ((0, "chrF2"), (2, "chrF2++")):
        sacre = CHRF(word_order=word_order)
        contenders[f"bleu-xl chrf ({name})"] = lambda chunk, w=word_order: [
            bleu_xl.chrf(r, c, word_order=w).chrf for r, c in chunk
        ]
        contenders[f"sacrebleu sentence_score ({name})"] = lambda chunk, m=sacre: [
            m.sentence_score(c, [r]).score / 100 for r, c in chunk
        ]
    names = list(contenders)
    for ours, theirs in zip(names[::2], names[1::2]):
        if any(abs(a - b) > 1e-12 for a, b in zip(contenders[ours](pairs), contenders[theirs](pairs))):
            raise SystemExit(f"{ours} and {theirs} disagree: nothing to time")

    chunks = [pairs[i : i + CHUNK] for i in range(0, len(pairs), CHUNK)]
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.runs):
        run = dict.fromkeys(contenders, 0.0)
        for chunk in chunks:
            for name, fn in contenders.items():
                fn(chunk)  # untimed: the timed pass then runs right after the same code, in its steady state
                start = time.perf_counter()
                fn(chunk)
                run[name] += time.perf_counter() - start
        for name, seconds in run.items():
            times[name].append(seconds)

    n = len(pairs)
    best = {name: n / min(ts) for name, ts in times.items()}
    median = {name: n / statistics.median(ts) for name, ts in times.items()}
    print(f"{n} pairs, {chars:.1f} characters (whitespace removed) per text; best and median of {args.runs} runs")
    print(f"{'contender':36} {'best pairs/s':>13} {'median pairs/s':>15}")
    for name in contenders:
        print(f"{name:36} {best[name]:13,.0f} {median[name]:15,.0f}")
    print()
    print(f"{'ratio':36} {'of bests':>8} {'of medians':>11}")
    for ours, theirs in zip(names[::2], names[1::2]):
        ratio = best[ours] / best[theirs]
        label = ours.replace("bleu-xl chrf", "chrf / sacrebleu")
        print(
            f"{label:36} {ratio:7.2f}x {median[ours] / median[theirs]:10.2f}x"
            f"  (target >= {TARGET}x on the bests: {'met' if ratio >= TARGET else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
