"""Excel functions: one spilled =BLEU2($B$1, B2:B10001) call against 10,000 single-cell calls, both through
xlwings' real classic CallUDF path (argument conversion, range reading, result conversion).

Run: python benchmarks/bench_udfs.py [--rows 10000] [--runs 3]
In real Excel each single-cell call also costs about 20 COM round trips that this cannot see, so the real gap
is far larger than the one printed here.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import xlwings_classic
from synthetic import make_pairs  # this folder: benchmark data, not part of the package


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print where the spilled call spends its time")
    args = parser.parse_args()

    ns = xlwings_classic.load()
    server = ns.com_server.XLPython()
    pairs = make_pairs(args.rows, seed=5, min_len=14, max_len=26)
    reference = pairs[0][0]
    candidates = [c for _, c in pairs]
    column = xlwings_classic.StandInRange(tuple((c,) for c in candidates), row=2, column=2)
    ref_cell = xlwings_classic.StandInRange(reference, row=1, column=2)

    def spilled() -> None:
        out = server.CallUDF("bleu_xl.udfs", "BLEU2", (ref_cell, column), None, None)
        assert len(out) == len(candidates)

    def single_cells() -> None:
        for cand in candidates:
            server.CallUDF("bleu_xl.udfs", "BLEU2", (ref_cell, cand), None, None)

    spill_times, single_times = [], []
    for _ in range(args.runs):  # interleaved; the reference cache is warm after the first call, as in Excel
        start = time.perf_counter()
        spilled()
        spill_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        single_cells()
        single_times.append(time.perf_counter() - start)

    spill, single = min(spill_times), min(single_times)
    n = len(candidates)
    print(f"{n} distinct candidates (about 20 tokens), one reference; best of {args.runs} runs")
    print(f"spilled call, whole range      {spill:8.3f} s   ({spill / n * 1e6:6.1f} us per cell)  target <= 0.3 s")
    print(f"{n} single-cell calls        {single:8.3f} s   ({single / n * 1e6:6.1f} us per call)")
    print(f"single-cell calls / spilled    {single / spill:8.1f}x  target >= 5x")
    print(f"{'met' if spill <= 0.3 and single / spill >= 5 else 'NOT met'}")

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(spilled)
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(12)
        print(out.getvalue())


if __name__ == "__main__":
    main()
