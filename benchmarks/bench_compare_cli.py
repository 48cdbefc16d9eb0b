"""Whole commands side by side: `bleu-xl compare` against sacrebleu's command line on the same text, 100,000 pairs of
two systems against one reference, the paired bootstrap (1,000 resamples) and approximate randomization (10,000
trials), each command's seconds and peak resident memory.

Run: python benchmarks/bench_compare_cli.py [--pairs 100000] [--runs 3] [--wmt22 FOLDER] [--tests bs,ar]
The text is the WMT22 German-French sample (reference, Online-A, LT22) tiled to --pairs when --wmt22 gives its
folder, else synthetic pairs. Each command runs as its own process (its start included), interleaved with its
peer; the best and median of --runs are printed, and the ratios of the medians. Targets: bleu-xl at least 3x faster
than sacrebleu for each test, within a quarter of its memory.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from synthetic import make_pairs  # this folder: benchmark data, not part of the package

BIN = Path(sys.executable).parent
WMT22_FILES = (
    "generaltest2022.de-fr.ref.A.fr",
    "generaltest2022.de-fr.hyp.Online-A.fr",
    "generaltest2022.de-fr.hyp.LT22.fr",
)


def texts(pairs: int, wmt22: Path | None) -> tuple[list[str], list[str], list[str]]:
    """References, system A and system B: the WMT22 sample tiled, or synthetic pairs (B: A with every fifth line
    the reference)."""
    if wmt22 is not None:
        ref, a, b = ((wmt22 / name).read_text(encoding="utf-8").splitlines() for name in WMT22_FILES)
        return (
            [ref[i % len(ref)] for i in range(pairs)],
            [a[i % len(a)] for i in range(pairs)],
            [b[i % len(b)] for i in range(pairs)],
        )
    made = make_pairs(pairs, seed=8, min_len=14, max_len=26)
    refs, a = [r for r, _ in made], [c for _, c in made]
    return refs, a, [r if i % 5 == 0 else c for i, (r, c) in enumerate(zip(refs, a))]


def measure(command: list[str], cwd: Path) -> tuple[float, float]:
    """Seconds and peak resident memory (MiB) of one run of ``command`` as a process of its own."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode() if process.stderr else ''}")
    return seconds, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wmt22", type=Path, help="the WMT22 sample's folder (../shared/data/wmt22-sample)")
    parser.add_argument("--tests", default="bs,ar", help="bs (paired bootstrap), ar (approximate randomization)")
    args = parser.parse_args()
    refs, a, b = texts(args.pairs, args.wmt22)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        folder = Path(tmp)
        for name, lines in (("ref.txt", refs), ("a.txt", a), ("b.txt", b)):
            (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        with (folder / "pairs.csv").open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["Reference", "A", "B"])
            writer.writerows(zip(refs, a, b))
        commands = {
            "bs": {
                "bleu-xl compare": [str(BIN / "bleu-xl"), "compare", "pairs.csv", "--a", "A", "--b", "B", "-q"],
                "sacrebleu --paired-bs": [
                    str(BIN / "sacrebleu"),
                    "ref.txt",
                    "-i",
                    "a.txt",
                    "b.txt",
                    "-m",
                    "bleu",
                    "--paired-bs",
                    "--paired-bs-n",
                    "1000",
                ],
            },
            "ar": {
                "bleu-xl compare --test ar": [
                    str(BIN / "bleu-xl"),
                    "compare",
                    "pairs.csv",
                    "--a",
                    "A",
                    "--b",
                    "B",
                    "--test",
                    "ar",
                    "-q",
                ],
                "sacrebleu --paired-ar": [
                    str(BIN / "sacrebleu"),
                    "ref.txt",
                    "-i",
                    "a.txt",
                    "b.txt",
                    "-m",
                    "bleu",
                    "--paired-ar",
                    "--paired-ar-n",
                    "10000",
                ],
            },
        }
        print(f"{args.pairs:,} pairs ({'WMT22 de-fr, tiled' if args.wmt22 else 'synthetic'}); {args.runs} runs each")
        print(f"{'command':28}{'best s':>9}{'median s':>10}{'peak MiB':>10}")
        for test in args.tests.split(","):
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands[test]}
            for _ in range(args.runs):
                for name, command in commands[test].items():
                    runs[name].append(measure(command, folder))
            for name, results in runs.items():
                seconds = [s for s, _ in results]
                memory = max(m for _, m in results)
                print(f"{name:28}{min(seconds):9.2f}{statistics.median(seconds):10.2f}{memory:10.0f}")
            ours, theirs = (runs[name] for name in commands[test])
            speed = statistics.median(s for s, _ in theirs) / statistics.median(s for s, _ in ours)
            memory = max(m for _, m in ours) / max(m for _, m in theirs)
            met = "met" if speed >= 3 and memory <= 0.25 else "NOT met"
            print(
                f"  {test}: bleu-xl {speed:.2f}x faster (medians), {memory:.2f} of the memory; target 3x, 0.25: {met}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
