"""The xlwings Lite bundle through xlwings' own office.js code, under CPython and Pyodide, against the classic add-in.

Each case below is one formula, written once in Excel's terms (cells, ranges, error cells, omitted optional
arguments). It becomes the payload office.js sends to xlwings Lite (``custom_functions_call``: a 2-D list per
argument, error cells as their text, ``null`` for blanks and omitted arguments, runtime 1.4, a caller address)
and the arguments pywin32 hands the classic add-in (``CallUDF``). The Lite results, after xlwings' own
conversion, must equal the classic ones with error texts turned into Excel error objects.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bleu_xl import corpus_score, score
from bleu_xl.excel.cell_values import CellError
from bleu_xl.excel.functions import FUNCTIONS
from bleu_xl.lite import bundle as lite
from tests import lite_driver
from tests import xlwings_classic as xc
from tests.helpers import INTACTO, REF, SHORT
from tests.pyodide_runs import SHARED, in_pyodide

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "install" / "xlwings-lite"
CALLER = "[bleu2_ranking.xlsx]Rank!D6"  # office.js sends the calling cell's address with every call
XLWINGS_VERSION = "0.37.8"  # pinned in pyproject.toml


def test_committed_bundle_equals_the_generator() -> None:
    for name, text in lite.bundle_files().items():
        committed = BUNDLE / name
        assert committed.read_bytes() == text.encode("utf-8"), (
            f"{committed} differs: run `bleu-xl lite-bundle --force install/xlwings-lite`"
        )
    requirements = (BUNDLE / "requirements.txt").read_text(encoding="utf-8")
    assert all(not line.strip() or line.startswith("#") for line in requirements.splitlines())


def test_bundle_is_self_contained() -> None:
    source = (BUNDLE / "main.py").read_text(encoding="utf-8")
    assert "from xlwings import arg, func  # noqa: E402\n" in source
    assert "bleu_xl." not in source.replace("bleu_xl/udfs.py", "").replace("bleu_xl_lite", "")
    assert "import xlwings" not in source and "from xlwings." not in source  # Lite's own xlwings, nothing else
    compile(source, "main.py", "exec")


def test_bundle_and_udfs_members_answer_hasattr_safely() -> None:
    """xlwings registers functions with ``hasattr(obj, "__xlfunc__")`` on every member: none may raise."""
    import bleu_xl.udfs

    assert lite_driver.unsafe_members(bleu_xl.udfs) == []
    with lite_driver.bundle_module(BUNDLE / "main.py") as main:  # this process's xlwings: no-op decorators
        assert lite_driver.unsafe_members(main) == []
        assert list(main._DECLARED) == [function.name for function in FUNCTIONS]


# --- the cases ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorCell:
    """An input cell holding an Excel error. ``as_object``: office.js sends it as an error object, not its text."""

    code: str
    as_object: bool = False


OMITTED = object()  # an optional argument left out of the formula
NA = ErrorCell("#N/A")

CAT_REFS = [["the cat is on the mat", "there is a cat on the mat"], ["le chat", None]]
COMPARE_REFS = [[REF], [REF], ["le chat noir dort"], [None]]
COMPARE_A = [[INTACTO], [SHORT], ["le chat dort"], ["skipped: no reference"]]
COMPARE_B = [[REF], [INTACTO], ["le chat noir dort"], ["skipped"]]
COMPARE_B_GAP = [[REF], [None], ["le chat noir dort"], ["skipped"]]  # B not written for the second row


def col(*values: Any) -> list[list[Any]]:
    return [[value] for value in values]


#: chrF's cases; tests/excel/test_chrf_faces.py checks their numbers against sacrebleu.
CHRF_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("CHRF", (REF, INTACTO, OMITTED, OMITTED, OMITTED)),
    ("CHRF", (REF, col(INTACTO, SHORT, None, "l'été, à Zürich — 東京タワー!"), OMITTED, 2, OMITTED)),
    ("CHRF", (col("...", None, REF), col("..", "x", SHORT), 3, OMITTED, 1)),  # punctuation alone is a reference
    ("CHRF", (CAT_REFS, col("the the the the the the the", "le chat"), OMITTED, 2, 3)),  # several references
    ("CHRF", (REF, INTACTO, 0, OMITTED, OMITTED)),
    ("CHRF", (REF, INTACTO, OMITTED, NA, OMITTED)),
    ("CHRF_CORPUS", (col(REF, REF, None, "..."), col(INTACTO, SHORT, "no reference", ".."), OMITTED, 2, OMITTED)),
    ("CHRF_CORPUS", (col(REF, REF), col(INTACTO, ErrorCell("#DIV/0!")), OMITTED, OMITTED, OMITTED)),
    ("CHRF_SIGNATURE", (OMITTED, OMITTED, OMITTED, OMITTED)),
    ("CHRF_SIGNATURE", (4, 2, 1, 3)),
]

#: TER's cases; tests/excel/test_ter_faces.py checks their numbers against sacrebleu.
TER_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("TER", (REF, INTACTO, OMITTED, OMITTED, OMITTED, OMITTED)),
    ("TER", (REF, col(INTACTO, SHORT, None, "l'été, à Zürich — 東京タワー!"), True, OMITTED, True, OMITTED)),
    ("TER", (CAT_REFS, col("on the mat the cat is", "le chat"), OMITTED, True, OMITTED, True)),  # several references
    ("TER", (REF, INTACTO, "maybe", OMITTED, OMITTED, OMITTED)),
    ("TER", (REF, INTACTO, OMITTED, OMITTED, True, OMITTED)),  # asian_support alone does nothing: refused
    ("TER", (REF, INTACTO, OMITTED, NA, OMITTED, OMITTED)),
    ("TER_CORPUS", (col(REF, REF, None), col(INTACTO, SHORT, "no reference"), OMITTED, OMITTED, OMITTED, OMITTED)),
    ("TER_CORPUS", (col(REF, REF), col(INTACTO, ErrorCell("#DIV/0!")), OMITTED, OMITTED, OMITTED, OMITTED)),
    ("TER_CHANGES", ("Free delivery on every order", "Every order ships with FREE delivery", *[OMITTED] * 4)),
    ("TER_CHANGES", (REF, col(INTACTO, None, "=1+1"), OMITTED, OMITTED, OMITTED, True)),
    ("TER_SIGNATURE", (OMITTED, OMITTED, OMITTED, OMITTED, OMITTED)),
    ("TER_SIGNATURE", (True, True, True, True, 3)),
]

CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("BLEU2", (REF, INTACTO)),
    ("BLEU2_P1", (REF, INTACTO)),
    ("BLEU2_P2", (REF, INTACTO)),
    ("BLEU2_BP", (REF, SHORT)),
    ("BLEU2", (REF, col(INTACTO, SHORT, None, REF))),  # a spilled column with a blank candidate
    ("BLEU2_BP", (REF, [[INTACTO, SHORT]])),  # a spilled row
    ("BLEU2_P1", ("a b c d", [["a", "b"], ["x", "a b"]])),  # one reference for a grid
    ("BLEU2", (col(REF, None, "..."), col(INTACTO, "c", "d"))),  # errors inside a range
    ("BLEU2", (None, INTACTO)),  # a single-cell error with its message
    ("BLEU2", (REF, None)),  # a blank candidate stays blank
    ("BLEU2", (NA, INTACTO)),  # an error cell comes back as that error
    ("BLEU2", (REF, col(INTACTO, NA, ErrorCell("#REF!", as_object=True)))),
    ("BLEU2", (col("a", "b", "c"), col("a", "b", "c", "d"))),  # shapes differ
    ("BLEU2_P1", (CAT_REFS, col("the the the the the the the", "le chat"))),  # several references per row
    ("BLEU2", ([CAT_REFS[0]], col("the the the the the the the", "there is a cat", "a cat"))),  # one row for all
    ("BLEU2", ([["a b", "c d", "e f"]], col("a b", "c d", "e f"))),  # a row as long as the column: shared
    ("BLEU2", (2026.0, "2026")),  # numbers and booleans as Excel shows them
    ("BLEU2", ("TRUE", True)),
    ("BLEU2_DETAIL", (REF, INTACTO, OMITTED)),
    ("BLEU2_DETAIL", (REF, col(INTACTO, None, "xyz"), True)),
    ("BLEU2_DETAIL", (REF, INTACTO, "maybe")),  # a flag that is no boolean: refused, never read as FALSE
    ("BLEU2_CORPUS", (col(REF, REF, None, REF), col(INTACTO, SHORT, "no reference", None))),
    ("BLEU2_CORPUS", (col(REF, REF), col(INTACTO, ErrorCell("#DIV/0!")))),
    ("BLEU2_CORPUS", (col("...", REF), col(SHORT, SHORT))),
    ("BLEU2_TOKENS", ("L'été, 2026 — 東京タワー!", OMITTED)),
    ("BLEU2_TOKENS", (col("Le Chat!", None, 2026.0), " ")),
    ("BLEU2_TOKENS", (col("a b", "c"), OMITTED)),
    ("BLEU2_TOKENS", (col(0.00001, 1 / 3, 1e21), OMITTED)),  # numbers as Excel writes them into text
    ("BLEU2_TOKENS", (NA, OMITTED)),
    # Whole numbers come from office.js as ints, from pywin32 as floats: Excel's double either way (15 digits), and
    # never one of the COM error numbers the classic add-in is given as ints.
    ("BLEU2_TOKENS", (col(1234567890123456, 123456789012345678, -2146826246, -2146826281, 2026), " ")),
    ("BLEU2", ("1234567890123460", 1234567890123456)),
    ("BLEU", (REF, INTACTO, OMITTED, "none")),
    ("BLEU", (REF, SHORT, 4, OMITTED)),
    ("BLEU", (REF, INTACTO, 12, OMITTED)),
    ("BLEU", (REF, INTACTO, OMITTED, "exp")),
    ("BLEU2_SIGNATURE", (OMITTED, OMITTED, OMITTED)),
    ("BLEU2_SIGNATURE", (4, "none", 2)),
    ("BLEU2_EXPLAIN", (REF, INTACTO)),
    ("BLEU2_EXPLAIN", (REF, col(INTACTO, None))),
    ("BLEU2_CI", (COMPARE_REFS, COMPARE_A, OMITTED, 200, OMITTED)),
    ("BLEU2_CI", (COMPARE_REFS, COMPARE_A, 0.9, OMITTED, OMITTED)),
    ("BLEU2_CI", (COMPARE_REFS, COMPARE_A, OMITTED, 200, COMPARE_B_GAP)),  # the rows a paired test compares
    ("BLEU2_CI", (COMPARE_REFS, COMPARE_A, OMITTED, OMITTED, col(REF, REF))),  # shapes differ
    ("BLEU2_PAIRED", (COMPARE_REFS, COMPARE_A, COMPARE_B, 200)),
    ("BLEU2_PAIRED", (COMPARE_REFS, COMPARE_A, COMPARE_B, OMITTED)),
    # An error cell given as a setting is the result, never the setting's default.
    ("BLEU", (REF, INTACTO, NA, OMITTED)),
    ("BLEU", (REF, INTACTO, OMITTED, ErrorCell("#REF!", as_object=True))),
    ("BLEU2_DETAIL", (REF, INTACTO, ErrorCell("#DIV/0!", as_object=True))),
    ("BLEU2_SIGNATURE", (OMITTED, NA, OMITTED)),
    ("BLEU2_TOKENS", ("Le chat noir", ErrorCell("#N/A", as_object=True))),
    ("BLEU2_CI", (COMPARE_REFS, COMPARE_A, NA, OMITTED, OMITTED)),
    ("BLEU2_PAIRED", (COMPARE_REFS, COMPARE_A, COMPARE_B, ErrorCell("#N/A", as_object=True))),
    *CHRF_CASES,
    *TER_CASES,
]


def test_the_cases_cover_every_function_with_all_its_arguments() -> None:
    arities = {function.name: len(function.arguments) for function in FUNCTIONS}
    assert {name for name, _ in CASES} == set(arities)
    assert all(len(args) == arities[name] for name, args in CASES)


def _office_js_cell(value: Any) -> Any:
    if isinstance(value, ErrorCell):  # as Excel hands an error to a function that allows errors
        return {"type": "Error", "basicType": "Error", "basicValue": value.code} if value.as_object else value.code
    return value


def _office_js_arg(value: Any) -> Any:
    if value is OMITTED:
        return None
    grid = value if isinstance(value, list) else [[value]]
    return [[_office_js_cell(cell) for cell in row] for row in grid]


def _payload(name: str, args: tuple[Any, ...]) -> dict[str, Any]:
    """The body office.js posts for one call (the ``body`` of xlwings' custom_functions_code.js)."""
    return {
        "func_name": name,
        "args": [_office_js_arg(a) for a in args],
        "caller_address": CALLER,
        "content_language": "en-US",
        "version": XLWINGS_VERSION,  # the add-in and the Python side run the same xlwings
        "runtime": "1.4",  # CustomFunctionsRuntime 1.4: errors are returned as error objects
    }


def _classic_cell(value: Any) -> Any:
    if isinstance(value, ErrorCell):
        return xc.ERRORS[value.code]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)  # pywin32 hands every number over as a float
    return value


def _classic_arg(value: Any) -> Any:
    if value is OMITTED:
        return xc.MISSING
    if isinstance(value, list):
        return tuple(tuple(_classic_cell(cell) for cell in row) for row in value)
    return _classic_cell(value)


#: Office.js error objects, by the error's text (xlwings' officejs engine writes these for runtime 1.4).
ERROR_TYPES = {"#VALUE!": "Value", "#N/A": "NotAvailable", "#REF!": "Ref", "#DIV/0!": "Div0"}


def _excel_value(value: Any) -> Any:
    if isinstance(value, CellError):
        return {"type": "Error", "errorType": ERROR_TYPES[value.code]}
    return "" if value is None else value


def _as_error(value: Any) -> Any:
    """A classic cell's text read back as the error it shows (``#VALUE! reference is blank``), else the value."""
    if isinstance(value, str) and value.partition(" ")[0] in ERROR_TYPES:
        code, _, message = value.partition(" ")
        return CellError(code, message)
    return value


def _lite_expected(classic: Any) -> dict[str, Any]:
    """What xlwings Lite must show for the classic add-in's result: errors as Excel errors, always a 2-D range."""
    classic = (
        [[_as_error(v) for v in row] if isinstance(row, list) else _as_error(row) for row in classic]
        if (isinstance(classic, list))
        else _as_error(classic)
    )
    if isinstance(classic, CellError) and classic.message:
        return {"raised": "ValueError", "message": classic.message}
    if not isinstance(classic, list):
        grid = [[classic]]
    elif classic and not isinstance(classic[0], list):
        grid = [classic]  # CallUDF hands a single row back flat
    else:
        grid = classic
    return json.loads(json.dumps({"value": [[_excel_value(v) for v in row] for row in grid]}))


@pytest.fixture(scope="module")
def classic_results() -> list[Any]:
    server = xc.load().com_server.XLPython()
    return [
        server.CallUDF("bleu_xl.udfs", name, tuple(_classic_arg(a) for a in args), None, None) for name, args in CASES
    ]


def _job() -> dict[str, Any]:
    return {"bundle": str(BUNDLE / "main.py"), "payloads": [_payload(name, args) for name, args in CASES]}


@pytest.fixture(scope="module")
def cpython_report() -> dict[str, Any]:
    """The driver in a fresh interpreter: xlwings is configured for office.js before it is first imported."""
    done = subprocess.run(
        [sys.executable, lite_driver.__file__],
        input=json.dumps(_job()),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_input_error_a_custom_function_cannot_give_back_is_value_naming_it() -> None:
    """Office.js lets a custom function give back seven errors; xlwings Lite hands any other (an input's #SPILL!)
    over as its text, which ISERROR calls no error. It comes back as #VALUE! that names it; the classic add-in,
    which hands the error over as its COM number, shows its text as it does every error's."""
    spill, calc = ErrorCell("#SPILL!", as_object=True), ErrorCell("#CALC!", as_object=True)
    payloads = [
        _payload("BLEU2", (REF, spill)),
        _payload("BLEU2", (REF, col(INTACTO, calc, NA))),
        _payload("CHRF", (ErrorCell("#BUSY!", as_object=True), INTACTO, OMITTED, OMITTED, OMITTED)),
        _payload("BLEU2", (REF, ErrorCell("#PYTHON!", as_object=True))),  # an xlwings Lite formula that failed
    ]
    done = subprocess.run(
        [sys.executable, lite_driver.__file__],
        input=json.dumps({"bundle": str(BUNDLE / "main.py"), "payloads": payloads}),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")},
    )
    assert done.returncode == 0, done.stderr
    single, spilled, busy, python = json.loads(done.stdout)["results"]
    assert python == {"raised": "ValueError", "message": "#PYTHON! in an input cell"}
    assert single == {"raised": "ValueError", "message": "#SPILL! in an input cell"}
    value, na = ({"type": "Error", "errorType": t} for t in ("Value", "NotAvailable"))
    assert spilled == {"value": [[score(REF, INTACTO).bleu], [value], [na]]}
    assert busy == {"raised": "ValueError", "message": "#BUSY! in an input cell"}
    server = xc.load().com_server.XLPython()
    assert server.CallUDF("bleu_xl.udfs", "BLEU2", (REF, -2146826243), None, None) == "#SPILL!"  # xlErrSpill 2045
    assert server.CallUDF("bleu_xl.udfs", "BLEU2", (REF, -2146826238), None, None) == "#CALC!"  # xlErrCalc 2050
    assert server.CallUDF("bleu_xl.udfs", "BLEU2", (REF, -2146826244), None, None) == "#UNKNOWN!"  # 2044: none


# --- registration -------------------------------------------------------------------------------------------------


def _check_metadata(meta: dict[str, Any]) -> None:
    functions = {f["name"]: f for f in meta["functions"]}
    assert sorted(functions) == sorted(f.name for f in FUNCTIONS)
    for function in FUNCTIONS:
        registered = functions[function.name]
        assert registered["id"] == function.name
        assert registered["description"] == function.description
        assert registered["result"] == {"dimensionality": "matrix", "type": "any"}
        assert [(p["name"], p["description"], p.get("optional", False)) for p in registered["parameters"]] == [
            (a.name, a.doc, a.optional) for a in function.arguments
        ]
    tokens = [(p["name"], p.get("optional", False)) for p in functions["BLEU2_TOKENS"]["parameters"]]
    assert tokens == [("text", False), ("separator", True)]
    assert [p["name"] for p in functions["BLEU2_PAIRED"]["parameters"]] == [
        "references",
        "candidates_a",
        "candidates_b",
        "samples",
    ]


def test_office_js_registers_every_function(cpython_report: dict[str, Any]) -> None:
    assert cpython_report["xlwings"] == XLWINGS_VERSION
    assert cpython_report["unsafe"] == []
    _check_metadata(cpython_report["meta"])


# --- calls --------------------------------------------------------------------------------------------------------

VALUE_ERROR = {"type": "Error", "errorType": "Value"}


def test_office_js_calls_equal_the_classic_add_in(cpython_report: dict[str, Any], classic_results: list[Any]) -> None:
    results = cpython_report["results"]
    assert len(results) == len(CASES)
    for (name, args), got, classic in zip(CASES, results, classic_results):
        assert got == _lite_expected(classic), (name, args, classic)


def test_office_js_results_are_the_real_values(cpython_report: dict[str, Any]) -> None:
    """A few results spelled out, so the comparison above cannot pass on two equally wrong faces."""
    results = {i: result for i, result in enumerate(cpython_report["results"])}

    def case(name: str, *args: Any) -> dict[str, Any]:
        return results[CASES.index((name, args))]

    s = score(REF, INTACTO)
    assert case("BLEU2", REF, INTACTO) == {"value": [[s.bleu]]}
    assert case("BLEU2", REF, col(INTACTO, SHORT, None, REF)) == {
        "value": [[s.bleu], [score(REF, SHORT).bleu], [""], [1.0]]
    }
    assert case("BLEU2_BP", REF, [[INTACTO, SHORT]]) == {"value": [[math.exp(1 - 11 / 10), math.exp(1 - 11 / 5)]]}
    assert case("BLEU2", col(REF, None, "..."), col(INTACTO, "c", "d")) == {
        "value": [[s.bleu], [VALUE_ERROR], [VALUE_ERROR]]
    }
    assert case("BLEU2", None, INTACTO) == {"raised": "ValueError", "message": "reference is blank"}
    assert case("BLEU2", NA, INTACTO) == {"value": [[{"type": "Error", "errorType": "NotAvailable"}]]}
    na, ref = ({"type": "Error", "errorType": t} for t in ("NotAvailable", "Ref"))
    assert case("BLEU2", REF, col(INTACTO, NA, ErrorCell("#REF!", as_object=True))) == {
        "value": [[s.bleu], [na], [ref]]
    }
    assert case("BLEU2_DETAIL", REF, col(INTACTO, None, "xyz"), True)["value"][0][:3] == ["BLEU2", "p1", "p1 num"]
    assert case("BLEU2_DETAIL", REF, INTACTO, OMITTED) == {"value": [[s.bleu, 0.9, 9, 10, 8 / 9, 8, 9, s.bp, 11, 10]]}
    assert case("BLEU2_DETAIL", REF, INTACTO, "maybe") == {
        "raised": "ValueError",
        "message": "headers must be TRUE or FALSE",
    }
    assert case("BLEU", REF, INTACTO, 12, OMITTED) == {
        "raised": "ValueError",
        "message": "max_n must be a whole number from 1 to 9",
    }
    assert case("BLEU2_SIGNATURE", OMITTED, OMITTED, OMITTED) == {
        "value": [["bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"]]
    }
    assert case("BLEU2_TOKENS", col("Le Chat!", None, 2026.0), " ") == {"value": [["le chat"], [""], ["2026"]]}
    low, mid, high = case("BLEU2_CI", COMPARE_REFS, COMPARE_A, OMITTED, 200, OMITTED)["value"][0]
    assert low <= mid <= high
    # With the other side of a paired test, its rows: where B is blank, A's candidate is left out too.
    _, mid, _ = case("BLEU2_CI", COMPARE_REFS, COMPARE_A, OMITTED, 200, COMPARE_B_GAP)["value"][0]
    assert mid == corpus_score([REF, "le chat noir dort"], [INTACTO, "le chat dort"]).bleu
    a, b, difference, p_value = case("BLEU2_PAIRED", COMPARE_REFS, COMPARE_A, COMPARE_B, 200)["value"][0]
    assert difference == pytest.approx(b - a) and 0 < p_value <= 1
    for name, *args in (
        ("BLEU", REF, INTACTO, NA, OMITTED),
        ("BLEU2_SIGNATURE", OMITTED, NA, OMITTED),
        ("BLEU2_TOKENS", "Le chat noir", ErrorCell("#N/A", as_object=True)),
        ("BLEU2_CI", COMPARE_REFS, COMPARE_A, NA, OMITTED, OMITTED),
        ("BLEU2_PAIRED", COMPARE_REFS, COMPARE_A, COMPARE_B, ErrorCell("#N/A", as_object=True)),
    ):
        assert case(name, *args) == {"value": [[na]]}, (name, args)
    assert case("BLEU", REF, INTACTO, OMITTED, ErrorCell("#REF!", as_object=True)) == {"value": [[ref]]}


# --- the same under real Pyodide ----------------------------------------------------------------------------------


def _same(got: Any, want: Any, tolerance: float) -> bool:
    if isinstance(want, list):
        return (
            isinstance(got, list) and len(got) == len(want) and all(_same(g, w, tolerance) for g, w in zip(got, want))
        )
    if isinstance(want, dict):
        return (
            isinstance(got, dict) and got.keys() == want.keys() and all(_same(got[k], want[k], tolerance) for k in want)
        )
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)
    return got == want


@SHARED
def test_under_real_pyodide_the_same_registration_and_calls(cpython_report: dict[str, Any]) -> None:
    report = in_pyodide("bundle", _job())
    assert "emscripten" in report["platform"]
    assert report["xlwings"] == XLWINGS_VERSION and report["unsafe"] == []
    _check_metadata(report["meta"])
    assert report["meta"] == cpython_report["meta"]
    for (name, args), got, want in zip(CASES, report["results"], cpython_report["results"], strict=True):
        # Pyodide's libm may round exp/log differently in the last bit.
        assert _same(got, want, 1e-12), (name, args, got, want)


# --- Lite's error convention, by type ------------------------------------------------------------------------------


def test_lite_errors_are_recognised_by_type_not_by_text() -> None:
    from bleu_xl.excel.faces import lite_result

    typed = "#VALUE! typed into a cell"  # user text that looks like an error stays text
    assert lite_result(typed) == typed
    assert lite_result([[typed, CellError("#VALUE!", "reference is blank"), CellError("#N/A")]]) == [
        [typed, "#VALUE!", "#N/A"]
    ]
    assert lite_result(CellError("#N/A")) == "#N/A"
    with pytest.raises(ValueError, match=r"^reference is blank$"):
        lite_result(CellError("#VALUE!", "reference is blank"))
