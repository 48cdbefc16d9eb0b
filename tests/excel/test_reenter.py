"""The xlwings Lite script that enters again the formulas calling bleu-xl (#NAME? after a late registration).

Its rules are tested directly; the script itself is registered by xlwings' own ``custom_scripts_meta`` and run by
xlwings' own ``custom_scripts_call`` under real Pyodide (reading formulas on demand needs Pyodide), on the
template's own sheets as Office.js would report them right after opening: every cell that calls bleu-xl shows
``#NAME?``. The Lite client's reads are answered by a stand-in (tests/pyodide/serve.mjs); the writes the
script queues are checked here, cell by cell.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.worksheet.formula import ArrayFormula

from bleu_xl.excel.functions import FUNCTIONS
from bleu_xl.lite import bundle as lite_bundle
from bleu_xl.lite.reenter import SCRIPT_NAME, FormulaRun, calls_bleu_xl, formula_runs

from .. import lite_driver
from ..pyodide_runs import SHARED, in_pyodide

ROOT = Path(__file__).resolve().parent.parent.parent
BUNDLE = ROOT / "install" / "xlwings-lite" / "main.py"
TEMPLATE = ROOT / "workbooks" / "bleu2_ranking.xlsx"
NAMES = [function.name for function in FUNCTIONS]


# --- the rules ----------------------------------------------------------------------------------------------------


def test_a_call_of_any_registered_function_in_any_case_is_found() -> None:
    for name in NAMES:
        assert calls_bleu_xl(f"={name}(A1, B1)")
        assert calls_bleu_xl(f"=ROUND({name.lower()} (A1,B1), 2)")
        assert calls_bleu_xl(f"=_xldudf_{name}(A1,B1)")  # as Excel may keep a function it did not know
    assert calls_bleu_xl('=IF(A1="","",BLEU2_P1(Reference,[@Candidate]))')
    for other in ("=SUM(A1:A3)", "=MYBLEU2(A1,B1)", "=BLEU2", "='BLEU2 sheet'!A1", "=BLEU2X(A1)"):
        assert not calls_bleu_xl(other), other


def test_runs_go_down_each_column_and_leave_text_spills_and_other_formulas() -> None:
    formulas = [
        ["Reference", "=BLEU2(A1,B2)", "=SUM(1,2)", "=BLEU2_DETAIL(A1,B2:B4)", 0.5],
        ["", "=BLEU2(A1,B3)", "=bleu2_p1(A1,B3)", 0.9, 1],
        ["=BLEU2(a,b)", "", "=BLEU2_P1(A1,B4)", 0.8, 2],
        ["x", "=BLEU2(A1,B5)", 7, "", ""],
    ]
    values = [
        ["Reference", "#NAME?", 3, "#NAME?", 0.5],
        ["", "#NAME?", "#NAME?", 0.9, 1],
        ["=BLEU2(a,b)", "", "#NAME?", 0.8, 2],  # text that looks like a formula: its value is its text
        ["x", None, 7, "", ""],
    ]
    assert formula_runs(formulas, values) == [
        FormulaRun(0, 1, ("=BLEU2(A1,B2)", "=BLEU2(A1,B3)")),
        FormulaRun(3, 1, ("=BLEU2(A1,B5)",)),
        FormulaRun(1, 2, ("=bleu2_p1(A1,B3)", "=BLEU2_P1(A1,B4)")),
        FormulaRun(0, 3, ("=BLEU2_DETAIL(A1,B2:B4)",)),  # the spill's anchor, not the values it spilled
    ]
    assert formula_runs([], []) == [] and formula_runs([[]], [[]]) == []


def test_the_bundle_declares_the_script_from_the_package() -> None:
    source = BUNDLE.read_text(encoding="utf-8")
    assert "'lite/reenter.py': " in source  # the module itself, embedded whole: no second copy of the script
    assert "from xlwings import BookAsync, script  # noqa: E402\n" in source
    with lite_driver.bundle_module(BUNDLE) as main:  # this process's xlwings: no-op decorators
        assert list(main._SCRIPTS) == ["reenter_formulas", "score_this_table"]
        assert main.reenter_formulas is main._SCRIPTS["reenter_formulas"]
    assert lite_bundle.bundle_files()["main.py"] == source


# --- through xlwings' own office.js code ----------------------------------------------------------------------------


def _registered() -> dict[str, Any]:
    job = {"bundle": str(BUNDLE), "payloads": []}
    done = subprocess.run(
        [sys.executable, lite_driver.__file__],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_office_js_registers_the_script_as_an_async_book_script() -> None:
    report = _registered()
    assert [script for script in report["scripts"] if script["function_name"] == "reenter_formulas"] == [
        {
            "function_name": "reenter_formulas",
            "name": SCRIPT_NAME,
            "required_roles": None,
            "include": None,
            "exclude": None,
            "button": None,
            "show_taskpane": None,
            "lazy": True,  # BookAsync: Lite loads no cell values before the script reads what it needs
        }
    ]
    assert sorted(f["name"] for f in report["meta"]["functions"]) == sorted(NAMES)  # the script is no function


def _as_shown(cell: Any) -> Any:
    """A cell's formula as Office.js reports it: the formula as typed (no _xlfn. prefixes), else the value."""
    value = cell.value
    if isinstance(value, ArrayFormula):
        value = value.text
    if isinstance(value, str) and value.startswith("="):
        return value.replace("_xlfn._xlws.", "").replace("_xlfn.", "")
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return "" if value is None else value


def _sheets() -> dict[str, dict[str, list[list[Any]]]]:
    """Each sheet of the template (and one more with traps) as Office.js reports it just after opening, before the
    functions are registered: formulas, and values (#NAME? wherever a formula calls bleu-xl)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(TEMPLATE)
    sheets = {}
    for ws in book.worksheets:
        formulas = [[_as_shown(cell) for cell in row] for row in ws.iter_rows()]
        values = [
            ["#NAME?" if isinstance(f, str) and f.startswith("=") and _calls(f) else f for f in row] for row in formulas
        ]
        sheets[ws.title] = {"formulas": formulas, "values": values}
    traps = [
        ['=BLEU2("typed", "as text")', "=SUM(1,2)", "=bleu2(A1,B1)", "=_xldudf_BLEU2_P1(A1,B1)"],
        ["", "", "=BLEU2_SIGNATURE()", 2],
    ]
    sheets["Traps"] = {
        "formulas": traps,
        "values": [['=BLEU2("typed", "as text")', 3, "#NAME?", "#NAME?"], ["", "", "#NAME?", 2]],
    }
    sheets["Empty"] = {"formulas": [], "values": []}
    return sheets


def _calls(formula: str) -> bool:
    """Independently of the module: a registered name, in any case, right before a parenthesis."""
    upper = formula.upper()
    return any(
        f"{name}(" in upper and not upper[upper.index(f"{name}(") - 1].isalnum()
        for name in sorted(NAMES, key=len, reverse=True)
    )


def _book_json(names: list[str]) -> dict[str, Any]:
    """The workbook as the Lite client sends it to an async-book script: its structure, no cell values."""
    import xlwings

    return {
        "version": xlwings.__version__,
        "client": "Office.js",
        "book": {"name": "bleu2_ranking.xlsx", "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": [{"name": name, "values": [[]], "tables": [], "pictures": [], "charts": []} for name in names],
    }


@SHARED
def test_under_real_pyodide_the_script_enters_again_every_formula_that_calls_bleu_xl() -> None:
    sheets = _sheets()
    job = {"script": "reenter_formulas", "book": _book_json(list(sheets)), "cells": sheets}
    report = in_pyodide("script", job)

    entered: dict[tuple[str, int, int], str] = {}
    names = list(sheets)
    for action in report["actions"]:
        assert action["func"] == "setFormula" and action["column_count"] == 1
        assert len(action["values"]) == action["row_count"]
        for offset, (formula,) in enumerate(action["values"]):
            cell = (names[action["sheet_position"]], action["start_row"] + offset, action["start_column"])
            assert cell not in entered, cell
            entered[cell] = formula
    expected = {
        (name, r, c): formula
        for name, sheet in sheets.items()
        for r, row in enumerate(sheet["formulas"])
        for c, formula in enumerate(row)
        if isinstance(formula, str) and formula.startswith("=") and _calls(formula) and formula != sheet["values"][r][c]
    }
    assert entered == expected  # each formula exactly as it was, in its own cell; nothing else written
    assert {name for name, _, _ in expected} >= {"Rank", "Spill", "Pairs", "Compare", "Traps"}
    assert ("Traps", 0, 0) not in entered and ("Traps", 0, 2) in entered and ("Traps", 0, 3) in entered
    sheets_written = len({name for name, _, _ in expected})
    assert report["printed"] == f"bleu-xl: entered {len(expected)} formulas again on {sheets_written} sheets\n"
    assert len(report["actions"]) < len(expected)  # a column's neighbouring formulas go in one write
    assert all(read[0] != "getRangeData" or read[3] == ["formulas"] for read in report["reads"])
