"""=CHRF, =CHRF_CORPUS and =CHRF_SIGNATURE in every Excel face, against sacrebleu 2.6's CHRF.

The classic add-in through xlwings' real CallUDF path, xlwings Lite through xlwings' own office.js call path
(tests/excel/test_lite_bundle.py runs the same cases under real Pyodide and holds them equal to these): the numbers are
sacrebleu's. Then the cell rules: blanks, errors, settings typed in cells, the cache.
"""

from __future__ import annotations

from typing import Any

import pytest
from sacrebleu.metrics import CHRF

from bleu_xl.excel import cells
from bleu_xl.excel.cell_values import Blank, CellError

from .. import xlwings_classic as xc
from . import test_lite_bundle as lite
from .test_lite_bundle import CASES, CAT_REFS, CHRF_CASES, INTACTO, REF, SHORT, _lite_expected, _same, col

# test_lite's fixtures, so that the same cases run through both faces here too.
classic_results = lite.classic_results
cpython_report = lite.cpython_report

EXACT = 1e-12
VALUE_ERROR = {"type": "Error", "errorType": "Value"}
NOT_AVAILABLE = {"type": "Error", "errorType": "NotAvailable"}


def sacre(refs: list[str], cand: str, char_order: int = 6, word_order: int = 0, beta: int = 2) -> float:
    return CHRF(char_order=char_order, word_order=word_order, beta=beta).sentence_score(cand, refs).score / 100


def sacre_corpus(refs: list[str], cands: list[str], word_order: int = 0) -> float:
    return CHRF(word_order=word_order).corpus_score(cands, [refs]).score / 100


ACCENTED = "l'été, à Zürich — 東京タワー!"

#: What each CHRF case gives, with sacrebleu's numbers, as xlwings' office.js conversion hands them to Excel.
EXPECTED: list[dict[str, Any]] = [
    {"value": [[sacre([REF], INTACTO)]]},
    {
        "value": [
            [sacre([REF], INTACTO, word_order=2)],
            [sacre([REF], SHORT, word_order=2)],
            [""],
            [sacre([REF], ACCENTED, word_order=2)],
        ]
    },
    {"value": [[sacre(["..."], "..", char_order=3, beta=1)], [VALUE_ERROR], [sacre([REF], SHORT, 3, 0, 1)]]},
    {
        "value": [
            [sacre(CAT_REFS[0], "the the the the the the the", word_order=2, beta=3)],
            [sacre(["le chat"], "le chat", word_order=2, beta=3)],
        ]
    },
    {"raised": "ValueError", "message": "char_order must be a whole number from 1 to 9"},
    {"value": [[NOT_AVAILABLE]]},
    {"value": [[sacre_corpus([REF, REF, "..."], [INTACTO, SHORT, ".."], word_order=2)]]},
    {"value": [[{"type": "Error", "errorType": "Div0"}]]},
    {"value": [["bleu-xl:chrf-1|nc:6|nw:0|beta:2|case:mixed|space:no|eff:yes|punct:ascii|refs:1"]]},
    {"value": [["bleu-xl:chrf-1|nc:4|nw:2|beta:1|case:mixed|space:no|eff:yes|punct:ascii|refs:3"]]},
]


def test_every_chrf_case_is_checked() -> None:
    assert len(EXPECTED) == len(CHRF_CASES)
    assert {name for name, _ in CHRF_CASES} == {"CHRF", "CHRF_CORPUS", "CHRF_SIGNATURE"}


@pytest.mark.parametrize("index", range(len(CHRF_CASES)))
def test_office_js_call_path_gives_sacrebleus_numbers(cpython_report: dict[str, Any], index: int) -> None:
    got = cpython_report["results"][CASES.index(CHRF_CASES[index])]
    assert _same(got, EXPECTED[index], EXACT), (CHRF_CASES[index], got, EXPECTED[index])


@pytest.mark.parametrize("index", range(len(CHRF_CASES)))
def test_classic_call_udf_path_gives_sacrebleus_numbers(classic_results: list[Any], index: int) -> None:
    classic = classic_results[CASES.index(CHRF_CASES[index])]
    assert _same(_lite_expected(classic), EXPECTED[index], EXACT), (CHRF_CASES[index], classic)


def test_the_classic_face_shows_errors_as_text_and_blanks_as_empty_cells(classic_results: list[Any]) -> None:
    spilled = classic_results[CASES.index(CHRF_CASES[2])]
    assert [row[0] if isinstance(row, (list, tuple)) else row for row in spilled][1] == "#VALUE! reference is blank"
    blank_candidate = classic_results[CASES.index(CHRF_CASES[1])]
    assert blank_candidate[2][0] in ("", None)


# --- the cell rules, through the cell functions ----------------------------------------------------------------------


@pytest.fixture()
def call():
    server = xc.load().com_server.XLPython()

    def call_udf(name: str, *args: Any) -> Any:
        return server.CallUDF("bleu_xl.udfs", name, args, None, None)

    return call_udf


def test_blank_candidate_is_blank_and_blank_reference_is_an_error() -> None:
    assert cells.chrf_cells(REF, None) == Blank()
    assert cells.chrf_cells(REF, "   ") == Blank()
    assert cells.chrf_cells(None, INTACTO) == CellError("#VALUE!", "reference is blank")
    assert cells.chrf_cells("  ", INTACTO) == CellError("#VALUE!", "reference is blank")
    assert cells.chrf_cells(CellError("#N/A"), INTACTO) == CellError("#N/A")


def test_a_reference_of_punctuation_alone_is_a_reference() -> None:
    assert cells.chrf_cells("...", "..") == pytest.approx(sacre(["..."], ".."), abs=EXACT)
    assert cells.chrf_cells("!!!", "!!!") == 1.0
    assert cells.bleu_cells("!!!", "!!!") == CellError("#VALUE!", "reference has no words")  # BLEU: no words
    assert cells.chrf_corpus_cells([["..."], [REF]], [[".."], [SHORT]]) == pytest.approx(
        sacre_corpus(["...", REF], ["..", SHORT]), abs=EXACT
    )


def test_several_references_in_a_row_and_numbers_as_excel_shows_them() -> None:
    got = cells.chrf_cells([["the cat is on the mat", None, "there is a cat on the mat"]], "the cat")
    assert got == pytest.approx(sacre(["the cat is on the mat", "there is a cat on the mat"], "the cat"), abs=EXACT)
    assert cells.chrf_cells(2026.0, "2026") == 1.0
    assert cells.chrf_cells(True, "TRUE") == 1.0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, None, None), "char_order must be a whole number from 1 to 9"),
        ((10, None, None), "char_order must be a whole number from 1 to 9"),
        ((6.5, None, None), "char_order must be a whole number from 1 to 9"),
        ((None, -1, None), "word_order must be a whole number from 0 to 9"),
        ((None, 10, None), "word_order must be a whole number from 0 to 9"),
        ((None, None, 0), "beta must be a whole number from 1 to 9"),
        ((None, None, "two"), "beta must be a whole number from 1 to 9"),
        (([[1, 2]], None, None), "char_order must be a single cell"),
    ],
)
def test_settings_are_whole_numbers_within_bounds(arguments: tuple[Any, ...], message: str) -> None:
    assert cells.chrf_cells(REF, INTACTO, *arguments) == CellError("#VALUE!", message)
    assert cells.chrf_corpus_cells(REF, INTACTO, *arguments) == CellError("#VALUE!", message)


def test_blank_settings_are_the_defaults_and_excel_numbers_are_whole() -> None:
    default = cells.chrf_cells(REF, INTACTO)
    assert cells.chrf_cells(REF, INTACTO, None, "", None) == default
    assert cells.chrf_cells(REF, INTACTO, 6.0, 0.0, 2.0) == default
    assert cells.chrf_cells(REF, INTACTO, 6, 2, 2) == pytest.approx(sacre([REF], INTACTO, word_order=2), abs=EXACT)


def test_corpus_leaves_out_pairs_with_a_blank_side_and_passes_errors_through() -> None:
    refs, cands = col(REF, None, REF, "..."), col(INTACTO, "no reference", None, "..")
    assert cells.chrf_corpus_cells(refs, cands) == pytest.approx(sacre_corpus([REF, "..."], [INTACTO, ".."]), abs=EXACT)
    assert cells.chrf_corpus_cells(col(None), col("x")) == Blank()
    assert cells.chrf_corpus_cells(col(REF, REF), col(INTACTO, CellError("#N/A"))) == CellError("#N/A")
    assert cells.chrf_corpus_cells(col(REF, REF), col(INTACTO)) == CellError(
        "#VALUE!", "ranges differ in shape (2x1 vs 1x1)"
    )


def test_chrf_references_are_cached_by_text_and_orders(call) -> None:
    cache = cells.prepared_references
    cache.clear()
    call("CHRF", col(*[REF] * 50), col(*[f"{INTACTO} {i}" for i in range(50)]), xc.MISSING, xc.MISSING, xc.MISSING)
    assert (cache.misses, cache.hits) == (1, 49)
    call("CHRF", REF, SHORT, xc.MISSING, 2.0, xc.MISSING)  # other orders: prepared again
    assert cache.misses == 2
    assert cache.limit == cells.REFERENCE_CACHE_BYTES
    assert all(key == ("chrf", 6, 0) or key == ("chrf", 6, 2) for _, key in cache.held)  # by text and orders
