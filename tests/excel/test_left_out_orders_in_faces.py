"""Scoring 0.2 in the cells: short copy and Thai, an order left out as a blank cell, Thai clusters, the new
signature and BLEU's default order for a blank max_n, through xlwings' classic CallUDF path and through xlwings'
office.js call path (CPython and Pyodide)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import lite_driver
from tests import xlwings_classic as xc
from tests.pyodide_runs import SHARED, in_pyodide

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "install" / "xlwings-lite" / "main.py"

THAI_REF = "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้"
THAI_NEAR = THAI_REF.replace("ฟรี", "")
THAI_UNRELATED = "ลดราคา"
SIGNATURE = "bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
LEFT_OUT = "bigrams left out of the score: the candidate has only 1 word"
OMITTED = object()
WEEK, NEXT_WEEK = "free delivery on every order this week", "free delivery on every order next week"

# The definition's examples (reference, candidate, BLEU-2 as arithmetic on the counts); "5" is a number cell.
TABLE: list[tuple[Any, Any, float]] = [
    ("Shop", "Buy", 1 / 2),
    ("Shop now", "Shop", math.exp(1 - 2 / 1)),
    ("Shop", "Shop", 1.0),
    ("Shop now", "Buy now", math.sqrt(1 / 2 * 1 / 2)),
    ("Total", 5, 1 / 2),
    (THAI_REF, THAI_NEAR, math.exp(1 - 27 / 25) * math.sqrt(25 / 25 * 23 / 24)),
    (THAI_REF, THAI_UNRELATED, math.exp(1 - 27 / 6) * math.sqrt(3 / 6 * 1 / 6)),
]


def col(*values: Any) -> list[list[Any]]:
    return [[v] for v in values]


# (function, arguments in Excel's terms, what the cell shows: a value, or a grid that spills)
CASES: list[tuple[str, tuple[Any, ...], Any]] = [
    *(("BLEU2", (ref, cand), expected) for ref, cand, expected in TABLE),
    ("BLEU2", ("Shop now", col("Shop", "Buy now", None)), [[math.exp(-1)], [0.5], [""]]),
    # BLEU's max_n blank (a blank cell, or "" from a formula) is its own default, 4, as when it is left out.
    *(("BLEU", (WEEK, NEXT_WEEK, blank, OMITTED), 0.6434588841607617) for blank in (OMITTED, None, "")),
    ("BLEU", (WEEK, NEXT_WEEK, 2, OMITTED), 0.7559289460184544),
    ("BLEU2_P1", ("Shop now", "Shop"), 1.0),
    ("BLEU2_P2", ("Shop now", "Shop"), ""),  # an order left out: a blank cell
    ("BLEU2_P2", ("Shop now", "!!!"), ""),  # an empty candidate's orders too
    ("BLEU2_P2", ("Shop now", "Buy now"), 0.5),
    ("BLEU2_BP", ("Shop now", "!!!"), 0.0),
    (
        "BLEU2_DETAIL",
        ("Shop now", col("Shop", "Buy now"), OMITTED),
        [[math.exp(-1), 1.0, 1, 1, "", 0, 0, math.exp(-1), 2, 1], [0.5, 0.5, 1, 2, 0.5, 1, 2, 1.0, 2, 2]],
    ),
    ("BLEU", ("Shop now", "Shop", 4, "none"), math.exp(-1)),
    ("BLEU", ("Shop now", "Buy now", 4, "none"), 0.0),
    ("BLEU2_CORPUS", (col("shop", "sale now"), col("buy", "sale")), math.exp(1 - 3 / 2) * (1 / 2)),
    ("BLEU2_EXPLAIN", ("Shop now", "Shop"), f"missing: now | {LEFT_OUT}"),
    ("BLEU2_EXPLAIN", ("Shop", "Shop"), f"exact match | {LEFT_OUT}"),
    ("BLEU2_EXPLAIN", (THAI_REF, THAI_NEAR), "missing: ฟ, รี | bigrams missed: งฟ, ฟรี, รีสํ"),
    ("BLEU2_TOKENS", ("จัดส่ง ไทยabc ๒๐๒๖", OMITTED), [["จั", "ด", "ส่", "ง", "ไ", "ท", "ย", "abc", "๒๐๒๖"]]),
    ("BLEU2_TOKENS", (col("คำ", "नमस्ते"), "|"), [["คํ|า"], ["नमस्ते"]]),
    ("BLEU2_SIGNATURE", (OMITTED, OMITTED, OMITTED), SIGNATURE),
]


def _classic_arg(value: Any) -> Any:
    if value is OMITTED:
        return xc.MISSING
    if isinstance(value, list):
        return tuple(tuple(float(v) if isinstance(v, int) else v for v in row) for row in value)
    return float(value) if isinstance(value, int) else value


@pytest.fixture(scope="module")
def classic() -> list[Any]:
    server = xc.load().com_server.XLPython()
    return [server.CallUDF("bleu_xl.udfs", name, tuple(map(_classic_arg, args)), None, None) for name, args, _ in CASES]


def _close(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_close, got, want))
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-15)
    return got == want


def test_the_classic_add_in_shows_0_2(classic: list[Any]) -> None:
    for (name, args, want), got in zip(CASES, classic, strict=True):
        if isinstance(want, list) and len(want) == 1:
            want = want[0]  # CallUDF hands a single row back flat
        assert _close(got, want), (name, args, got)


def _job() -> dict[str, Any]:
    def arg(value: Any) -> Any:
        return None if value is OMITTED else value if isinstance(value, list) else [[value]]

    payloads = [
        {
            "func_name": name,
            "args": [arg(a) for a in args],
            "caller_address": "[Book1]Sheet1!A1",
            "content_language": "en-US",
            "version": "0.37.8",
            "runtime": "1.4",
        }
        for name, args, _ in CASES
    ]
    return {"bundle": str(BUNDLE), "payloads": payloads}


def _check_office_js(results: list[dict[str, Any]]) -> None:
    for (name, args, want), got in zip(CASES, results, strict=True):
        grid = want if isinstance(want, list) else [[want]]
        assert "value" in got and _close(got["value"], grid), (name, args, got)


def test_xlwings_lite_shows_0_2_through_office_js() -> None:
    done = subprocess.run(
        [sys.executable, lite_driver.__file__],
        input=json.dumps(_job()),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    _check_office_js(json.loads(done.stdout)["results"])


@SHARED
def test_xlwings_lite_shows_0_2_under_real_pyodide() -> None:
    report = in_pyodide("bundle", _job())
    assert "emscripten" in report["platform"]
    _check_office_js(report["results"])
