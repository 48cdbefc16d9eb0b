"""The longest cell bleu-xl scores, and one past it: time and peak memory of ``bleu-xl score`` on a CSV of one pair.

A pair of 999,000-character texts under BLEU-9 and chrF++ (the settings that take the most memory a character) is
scored; a pair of 27,000,000-character texts (one 54 MB row) is refused once read, before any scoring. Each run is
a child process, measured by the operating system (its peak resident memory).
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


def text(length: int, rng: random.Random) -> str:
    words, size = [], 0
    while size < length:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    return " ".join(words)


def run(path: Path, *args: str) -> tuple[float, float, int]:
    """Seconds, peak MB and exit status of ``bleu-xl score PATH ARGS`` in a child process (alone: one child at a
    time, so RUSAGE_CHILDREN's peak is this one's when it is the largest so far)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bleu_xl.cli", "score", str(path), "-o", str(path.with_suffix(".out.csv")), "-q", *args],
        capture_output=True,
    )
    seconds = time.perf_counter() - start
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, done.returncode


def main() -> None:
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as folder:
        longest, huge = Path(folder) / "longest.csv", Path(folder) / "huge.csv"
        longest.write_text(f'Reference,Candidate\n"{text(999_000, rng)}","{text(999_000, rng)}"\n', encoding="utf-8")
        huge.write_text(f'Reference,Candidate\n"{text(27_000_000, rng)}","{text(27_000_000, rng)}"\n', encoding="utf-8")
        for name, path, args in (
            ("999,000 characters a side, BLEU-9 and chrF++", longest, ("--max-n", "9", "--metric", "bleu,chrf")),
            ("27,000,000 characters a side (refused)", huge, ("--max-n", "9", "--metric", "bleu,chrf")),
        ):
            seconds, peak, status = run(path, *args, *(["--word-order", "2"] if "chrf" in args else []))
            print(f"{name:48} {seconds:6.2f} s  peak {peak:7.0f} MB  exit {status}")


if __name__ == "__main__":
    main()
