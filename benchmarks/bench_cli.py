"""End to end: `bleu-xl score` on a workbook of 1,048,576 rows (Excel's maximum), with peak memory.

Run: python benchmarks/bench_cli.py [--rows 1048576] [--keep DIR]
Generates the workbook (a reference and a candidate of about 20 tokens per row, some CJK), then runs the real
console script in a child process and prints wall time, the read / score / write split and peak memory.
Targets here: at most 90 s and 2 GB.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import xlsxwriter
from synthetic import make_pairs  # this folder: benchmark data, not part of the package


def build(path: Path, rows: int) -> None:
    pairs = make_pairs(min(rows, 50_000), seed=3, min_len=14, max_len=26)
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True, "strings_to_formulas": False})
    sheet = book.add_worksheet("Pairs")
    sheet.write_string(0, 0, "Reference")
    sheet.write_string(0, 1, "Candidate")
    for r in range(rows):
        ref, cand = pairs[r % len(pairs)]
        sheet.write_string(r + 1, 0, ref)
        sheet.write_string(r + 1, 1, cand or "x")
    book.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_048_575, help="data rows (plus the header row)")
    parser.add_argument("--keep", help="folder to keep the files in (default: a temporary folder)")
    args = parser.parse_args()

    folder = Path(args.keep or tempfile.mkdtemp(prefix="bleu-xl-bench-"))
    source = folder / "million.xlsx"
    if not source.exists():
        start = time.perf_counter()
        build(source, args.rows)
        print(f"built {source} ({source.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - start:.1f} s")
    output = folder / "million-scored.xlsx"
    exe = Path(sys.executable).with_name("bleu-xl")
    command = [str(exe), "score", str(source), "-o", str(output), "--force", "--quiet"]
    start = time.perf_counter()
    done = subprocess.run(command, env={**os.environ, "BLEU_XL_TIMINGS": "1"}, capture_output=True, text=True)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20  # KiB -> GiB, largest process
    if done.returncode:
        sys.exit(f"bleu-xl failed: {done.stderr.strip()}")
    print(
        f"{args.rows + 1:,} rows: bleu-xl score took {wall:.1f} s (target <= 90 s), peak memory {peak:.2f} GiB "
        f"(largest process; target <= 2 GB)"
    )
    columns, timings = done.stderr.strip().splitlines()  # the columns used, then BLEU_XL_TIMINGS' split
    print(f"split: {timings}")
    print(f"columns: {columns}")
    print(f"output {output.stat().st_size / 2**20:.0f} MiB; cores used for scoring: {os.cpu_count()}")


if __name__ == "__main__":
    main()
