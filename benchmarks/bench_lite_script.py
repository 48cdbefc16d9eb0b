"""The xlwings Lite script "Score this table" on 10,000 rows, under real Pyodide in Node: the seconds from the click
(xlwings' own custom_scripts_call) to the writes queued for Excel, against the same call under CPython.

Run: python benchmarks/bench_lite_script.py [--rows 10000] [--runs 3] [--metric BLEU-2]
It needs Node and Pyodide (npm install --prefix tests/pyodide). The seconds Excel then takes to apply the writes
(one range assignment per column) happen in the Lite client and are not measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import lite_driver  # noqa: E402
from synthetic import make_pairs  # noqa: E402  # this folder: benchmark data, not part of the package

BUNDLE = ROOT / "install" / "xlwings-lite" / "main.py"
PYODIDE = ROOT / "tests" / "pyodide"
TARGET = 10.0  # seconds, for 10,000 rows


def book(rows: int) -> dict:
    """A sheet of ``rows`` candidates, sixteen variants per reference, as the Lite client sends it."""
    import xlwings

    pairs = make_pairs(rows, seed=7, min_len=8, max_len=20)
    grid = [["ID", "Reference", "Candidate"]]
    for i, (_, candidate) in enumerate(pairs):
        grid.append([i + 1, pairs[i - i % 16][0], candidate])
    sheet = {"name": "Copy", "values": grid, "tables": [], "pictures": [], "charts": []}
    return {
        "version": xlwings.__version__,
        "client": "Office.js",
        "book": {"name": "copy.xlsx", "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": [sheet],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--metric", default="BLEU-2")
    args = parser.parse_args()
    node = shutil.which("node")
    if not (node and (PYODIDE / "node_modules" / "pyodide" / "pyodide.mjs").exists()):
        print("needs Node and Pyodide: npm install --prefix tests/pyodide --no-audit --no-fund", file=sys.stderr)
        return 2
    lite_driver.configure()  # before xlwings is first imported, as the office.js runtime does
    import xlwings

    workbook = book(args.rows)
    form = [args.metric, False, "", ""]
    run = {"script": "score_this_table", "book": workbook, "args": form, "cells": {}}
    job = {
        "kind": "script",
        "driver": lite_driver.__file__,
        "bundle": str(BUNDLE),
        "xlwings": str(Path(xlwings.__file__).parent),
        "runs": [run] * args.runs,
    }
    start = time.perf_counter()
    done = subprocess.run(  # one job, one line of report: the Pyodide the tests use (tests/pyodide/serve.mjs)
        [node, str(PYODIDE / "serve.mjs")], input=json.dumps(job) + "\n", capture_output=True, text=True, timeout=1800
    )
    whole = time.perf_counter() - start
    answer = json.loads(done.stdout or "{}")
    if done.returncode != 0 or "report" not in answer:
        print(done.stderr or answer.get("error"), file=sys.stderr)
        return 1
    reports = answer["report"]["runs"]
    pyodide = [report["seconds"] for report in reports]
    writes = sum(1 for action in reports[0]["actions"] if action["func"] == "setValues")
    print(reports[0]["printed"].splitlines()[1])

    cpython = [
        asyncio.run(lite_driver.run_script(str(BUNDLE), "score_this_table", workbook, form))["seconds"]
        for _ in range(args.runs)
    ]
    print(f"{'':36}{'best':>10}{'median':>10}")
    print(f"{'Pyodide (Node), seconds a run':36}{min(pyodide):>10.2f}{statistics.median(pyodide):>10.2f}")
    print(f"{'CPython, seconds a run':36}{min(cpython):>10.2f}{statistics.median(cpython):>10.2f}")
    ratios = min(pyodide) / min(cpython), statistics.median(pyodide) / statistics.median(cpython)
    print(f"{'Pyodide / CPython':36}{ratios[0]:>9.2f}x{ratios[1]:>9.2f}x")
    print(f"{args.rows:,} rows, {writes} range assignments of values, {len(reports[0]['actions'])} actions in all")
    print(f"whole Node process (Pyodide start and {args.runs} runs): {whole:.1f} s")
    met = "met" if statistics.median(pyodide) < TARGET * args.rows / 10_000 else "NOT met"
    print(f"target: 10,000 rows under {TARGET:g} s in Pyodide: {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
