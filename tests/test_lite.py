"""The xlwings Lite bundle: generated from the package, and giving the package's results under CPython and Pyodide."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from bleu_xl import cells, lite, template

from . import lite_driver

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "install" / "xlwings-lite"
PYODIDE = Path(__file__).resolve().parent / "pyodide"


def test_committed_bundle_equals_the_generator(tmp_path: Path) -> None:
    written = lite.write_bundle(tmp_path)
    for path in written:
        committed = BUNDLE / path.name
        assert committed.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
            f"{committed} differs: run `bleu-xl lite-bundle`"
        )
    requirements = (BUNDLE / "requirements.txt").read_text(encoding="utf-8")
    assert all(not line.strip() or line.startswith("#") for line in requirements.splitlines())


def test_bundle_is_self_contained() -> None:
    source = (BUNDLE / "main.py").read_text(encoding="utf-8")
    assert "from xlwings import arg, func, ret" in source
    assert "bleu_xl" not in source.replace("bleu_xl/udfs.py", "").replace("``bleu_xl.cells``", "")
    for name in ("BLEU2", "BLEU2_DETAIL", "BLEU2_CORPUS", "BLEU2_TOKENS", "BLEU", "BLEU2_EXPLAIN", "BLEU2_PAIRED"):
        assert f"def {name}(" in source
    compile(source, "main.py", "exec")


# --- the same answers as the package ------------------------------------------------------------------------------


def _sample_calls() -> list[list]:
    calls: list[list] = []
    for name in template.SAMPLES:
        rows = list(
            openpyxl.load_workbook(ROOT / "workbooks" / "samples" / f"{name}.xlsx")["Pairs"].iter_rows(values_only=True)
        )
        cand_col = rows[0].index("Candidate")
        refs = [list(row[:cand_col]) for row in rows[1:]]
        cands = [[row[cand_col]] for row in rows[1:]]
        calls += [
            ["BLEU2", [refs, cands]],
            ["BLEU2_P1", [refs, cands]],
            ["BLEU2_P2", [refs, cands]],
            ["BLEU2_BP", [refs, cands]],
            ["BLEU2_DETAIL", [refs, cands, True]],
            ["BLEU2_CORPUS", [refs, cands]],
            ["BLEU2_EXPLAIN", [refs, cands]],
            ["BLEU2_TOKENS", [cands, " "]],
            ["BLEU", [refs, cands, 4, "none"]],
            ["BLEU2", [refs[0][0], cands[0][0]]],
            ["BLEU2_DETAIL", [refs[0][0], cands[0][0], False]],
        ]
    refs, a, b = ([[v] for v in col] for col in zip(*template.COMPARE))
    calls += [
        ["BLEU2_PAIRED", [refs, a, b, 200]],
        ["BLEU2_CI", [refs, a, 0.9, 200]],
        ["BLEU2_SIGNATURE", []],
        ["BLEU2_SIGNATURE", [4, "none", 2]],
        ["BLEU2_TOKENS", ["L'été, 2026 — 東京タワー!"]],
        ["BLEU2", [None, "a candidate"]],  # a single-cell error: raised with its message
        ["BLEU2", [[["a b"], [None], ["..."]], [["a b"], ["c"], ["d"]]]],  # errors inside a range: real #VALUE!
        ["BLEU2", ["#N/A", "x"]],  # an error cell comes back as that error
        ["BLEU", ["a b", "a b", 12, "add1"]],
    ]
    return calls


CELL_FUNCTIONS = {
    "BLEU2": lambda r, c: cells.bleu_cells(r, c, "bleu"),
    "BLEU2_P1": lambda r, c: cells.bleu_cells(r, c, "p1"),
    "BLEU2_P2": lambda r, c: cells.bleu_cells(r, c, "p2"),
    "BLEU2_BP": lambda r, c: cells.bleu_cells(r, c, "bp"),
    "BLEU2_DETAIL": cells.detail_cells,
    "BLEU2_CORPUS": cells.corpus_cells,
    "BLEU2_EXPLAIN": cells.explain_cells,
    "BLEU2_TOKENS": cells.tokens_cells,
    "BLEU": lambda r, c, n=4, s="add1": cells.bleu_cells(r, c, "bleu", n, s),
    "BLEU2_PAIRED": cells.paired_cells,
    "BLEU2_CI": cells.ci_cells,
    "BLEU2_SIGNATURE": cells.signature_cell,
}


def _expected(name: str, args: list) -> dict:
    """The package's answer, in Lite's convention for errors."""
    value = CELL_FUNCTIONS[name](*args)
    if isinstance(value, list):
        return {
            "value": [
                ["#VALUE!" if isinstance(v, str) and v.startswith("#VALUE! ") else v for v in row] for row in value
            ]
        }
    if isinstance(value, str) and value.startswith("#VALUE! "):
        return {"raised": value.removeprefix("#VALUE! ")}
    return {"value": value}


def _same(got, want, tolerance: float) -> bool:
    if isinstance(want, list):
        return (
            isinstance(got, list) and len(got) == len(want) and all(_same(g, w, tolerance) for g, w in zip(got, want))
        )
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)
    return got == want


def test_bundle_under_cpython_matches_the_package() -> None:
    calls = _sample_calls()
    results = lite_driver.run((BUNDLE / "main.py").read_text(encoding="utf-8"), calls)
    for (name, args), got in zip(calls, results):
        assert got == json.loads(json.dumps(_expected(name, args))), (name, args)
    assert results[-4] == {"raised": "reference is blank"}
    assert results[-3]["value"] == [[1.0], ["#VALUE!"], ["#VALUE!"]]
    assert results[-2] == {"value": "#N/A"}
    assert results[-1] == {"raised": "max_n must be a whole number from 1 to 9"}


def test_bundle_under_real_pyodide_matches_the_package() -> None:
    node = shutil.which("node")
    installed = (PYODIDE / "node_modules" / "pyodide" / "pyodide.mjs").exists()
    if not (node and installed):
        if os.environ.get("CI") == "true":
            pytest.fail("Pyodide is missing: .ci/run installs it with npm (tests/pyodide)")
        pytest.skip("Pyodide is not installed: npm install --prefix tests/pyodide")
    calls = _sample_calls()
    job = {"driver": str(Path(lite_driver.__file__)), "bundle": str(BUNDLE / "main.py"), "calls": calls}
    done = subprocess.run(
        [node, str(PYODIDE / "run_bundle.mjs")],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["python"].startswith("3.")
    for (name, args), got in zip(calls, report["results"]):
        want = json.loads(json.dumps(_expected(name, args)))
        # Pyodide's libm may round exp/log differently in the last bit.
        assert _same(got, want, 1e-12), (name, args, got, want)
