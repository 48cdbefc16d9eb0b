"""TER speed: bleu-xl's ter against sacrebleu's TER().sentence_score on the same pairs, measured in one run; and what
the bit-parallel alignment earns against the obvious one (every distance in the beam) that a property test holds it
equal to.

Run: python benchmarks/bench_ter.py [--pairs 3000] [--runs 5] [--wmt22 FOLDER] [--lengths]
Every pair is scored against its own reference; contenders are interleaved chunk by chunk (250 pairs) within each
run, each chunk scored once untimed right before its timed pass (as bench_chrf.py does). Each figure is the median
(and the best) of the runs, in pairs per second. The edits are checked equal before anything is timed. With
--wmt22, the pairs are real ones: each line of the WMT22 sample's French reference with the same line of each French
system (the CJK sets are left out: without asian_support a CJK sentence is one word, which says nothing of speed).
With --lengths, the seconds one pair takes at 100 to 500 words a side, the slowest of a few kinds of pair (real
text, the same words shuffled, its halves swapped, two words repeated): why TER refuses texts of more than
bleu_xl.core.metrics.ter.MAX_WORDS words.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sacrebleu.metrics import TER
from synthetic import make_pairs  # this folder: benchmark data, not part of the package

import bleu_xl
from bleu_xl.core.metrics.ter_align import alignment, obvious_alignment
from bleu_xl.core.metrics.ter_tokenizer import TerTokenizer

CHUNK = 250
TARGET = 2.0
AIM = 10.0


def wmt22_pairs(folder: Path) -> list[tuple[str, str]]:
    """Every (reference, system output) line pair of the sample's French set."""
    pairs = []
    for ref_file in sorted(folder.glob("*.ref.*.fr")):
        refs = ref_file.read_text(encoding="utf-8").splitlines()
        for hyp_file in sorted(folder.glob(f"{ref_file.name.split('.ref.')[0]}.hyp.*.fr")):
            pairs += zip(refs, hyp_file.read_text(encoding="utf-8").splitlines(), strict=True)
    if not pairs:
        raise SystemExit(f"no French reference (*.ref.*.fr) in {folder}")
    return pairs


def _time(contenders: dict[str, Callable[[list], object]], chunks: list[list], runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(runs):
        run = dict.fromkeys(contenders, 0.0)
        for chunk in chunks:
            for name, fn in contenders.items():
                fn(chunk)  # untimed: the timed pass then runs right after the same code, in its steady state
                start = time.perf_counter()
                fn(chunk)
                run[name] += time.perf_counter() - start
        for name, seconds in run.items():
            times[name].append(seconds)
    return times


def lengths(folder: Path | None) -> None:
    """The slowest pair of each kind at each length, aligned as ``bleu_xl.ter`` aligns them (past MAX_WORDS, which
    ``ter`` refuses, by the same alignment)."""
    import random

    from bleu_xl.core.metrics.ter import MAX_WORDS

    pairs = wmt22_pairs(folder) if folder else make_pairs(3000, seed=1, min_len=14, max_len=26)
    reference = " ".join(r for r, _ in pairs).split()
    system = " ".join(c for _, c in pairs).split()
    rng = random.Random(1)
    tokenizer = TerTokenizer()
    print(f"one pair, seconds (bleu-xl refuses more than {MAX_WORDS} words a side)")
    print(f"{'words':>6} {'real':>8} {'shuffled':>9} {'swapped':>8} {'two words':>10} {'slowest':>8}")
    for n in sorted({100, MAX_WORDS, 300, 500}):
        ref = reference[:n]
        kinds = {
            "real": system[:n],
            "shuffled": rng.sample(ref, len(ref)),
            "swapped": ref[n // 2 :] + ref[: n // 2],
            "two words": [rng.choice("ab") for _ in range(n)],
        }
        seconds = {}
        for kind, candidate in kinds.items():
            words = (
                tokenizer(" ".join(candidate)),
                tokenizer.reference(" ".join(ref if kind != "two words" else kinds["two words"][::-1])),
            )
            start = time.perf_counter()
            alignment(*words)
            seconds[kind] = time.perf_counter() - start
        cells = " ".join(f"{seconds[k]:{w}.2f}" for k, w in zip(kinds, (8, 9, 8, 10)))
        print(f"{n:6} {cells} {max(seconds.values()):8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wmt22", type=Path, help="the WMT22 sample's folder: score its French pairs instead")
    parser.add_argument("--lengths", action="store_true", help="the seconds one long pair takes, by its length")
    args = parser.parse_args()
    if args.lengths:
        lengths(args.wmt22)
        return

    pairs = wmt22_pairs(args.wmt22) if args.wmt22 else make_pairs(args.pairs, seed=1, min_len=14, max_len=26)
    words = sum(len(r.split()) for r, _ in pairs) / len(pairs)
    sacre = TER()
    contenders: dict[str, Callable[[list], object]] = {
        "bleu-xl ter": lambda chunk: [bleu_xl.ter(r, c).edits for r, c in chunk],
        "sacrebleu sentence_score": lambda chunk: [sacre.sentence_score(c, [r]).num_edits for r, c in chunk],
    }
    if contenders["bleu-xl ter"](pairs) != contenders["sacrebleu sentence_score"](pairs):
        raise SystemExit("bleu-xl and sacrebleu disagree: nothing to time")
    chunks = [pairs[i : i + CHUNK] for i in range(0, len(pairs), CHUNK)]
    times = _time(contenders, chunks, args.runs)

    tokenizer = TerTokenizer()
    words_pairs = [(tokenizer(c), tokenizer.reference(r)) for r, c in pairs]
    paths: dict[str, Callable[[list], object]] = {
        "alignment (bit-parallel)": lambda chunk: [alignment(h, r).edits for h, r in chunk],
        "obvious_alignment (beam)": lambda chunk: [obvious_alignment(h, r).edits for h, r in chunk],
    }
    if paths["alignment (bit-parallel)"](words_pairs) != paths["obvious_alignment (beam)"](words_pairs):
        raise SystemExit("the two alignments disagree: nothing to time")
    times.update(_time(paths, [words_pairs[i : i + CHUNK] for i in range(0, len(pairs), CHUNK)], args.runs))

    n = len(pairs)
    median = {name: n / statistics.median(ts) for name, ts in times.items()}
    best = {name: n / min(ts) for name, ts in times.items()}
    print(f"{n} pairs, {words:.1f} reference words per pair; median and best of {args.runs} runs")
    print(f"{'contender':28} {'median pairs/s':>15} {'best pairs/s':>13}")
    for name in times:
        print(f"{name:28} {median[name]:15,.0f} {best[name]:13,.0f}")
    print()
    ratio = median["bleu-xl ter"] / median["sacrebleu sentence_score"]
    verdict = "met" if ratio >= TARGET else "NOT met"
    print(
        f"ter / sacrebleu             {ratio:7.2f}x of medians, "
        f"{best['bleu-xl ter'] / best['sacrebleu sentence_score']:.2f}x of bests"
        f"  (target >= {TARGET}x: {verdict}; aim {AIM}x)"
    )
    fast = median["alignment (bit-parallel)"] / median["obvious_alignment (beam)"]
    print(f"bit-parallel / obvious      {fast:7.2f}x of medians (the fast path's gain, no target)")


if __name__ == "__main__":
    main()
