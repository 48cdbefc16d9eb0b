"""=TER, =TER_CORPUS, =TER_CHANGES and =TER_SIGNATURE in every Excel face, against sacrebleu 2.6's TER.

The classic add-in through xlwings' real CallUDF path, xlwings Lite through xlwings' own office.js call path
(tests/excel/test_lite_bundle.py runs the same cases under real Pyodide and holds them equal to these): the numbers are
sacrebleu's. Then the cell rules, the same as =CHRF's: blanks, errors, switches typed in cells, the cache.
"""

from __future__ import annotations

from typing import Any

import pytest
from sacrebleu.metrics import TER

from bleu_xl.core.metrics.ter import MAX_WORDS
from bleu_xl.excel import cells
from bleu_xl.excel.cell_values import Blank, CellError

from .. import xlwings_classic as xc
from . import test_lite_bundle as lite
from .test_lite_bundle import CASES, CAT_REFS, INTACTO, REF, SHORT, TER_CASES, _lite_expected, _same, col

classic_results = lite.classic_results
cpython_report = lite.cpython_report

EXACT = 1e-12
VALUE_ERROR = {"type": "Error", "errorType": "Value"}
NOT_AVAILABLE = {"type": "Error", "errorType": "NotAvailable"}


def sacre(refs: list[str], cand: str, **options: bool) -> float:
    return TER(**options).sentence_score(cand, refs).score / 100


def sacre_corpus(refs: list[str], cands: list[str]) -> float:
    return TER().corpus_score(cands, [refs]).score / 100


ACCENTED = "l'été, à Zürich — 東京タワー!"
CJK = {"normalized": True, "asian_support": True}
PUNCT_CASE = {"no_punct": True, "case_sensitive": True}

EXPECTED: list[dict[str, Any]] = [
    {"value": [[sacre([REF], INTACTO)]]},
    {"value": [[sacre([REF], INTACTO, **CJK)], [sacre([REF], SHORT, **CJK)], [""], [sacre([REF], ACCENTED, **CJK)]]},
    {
        "value": [
            [sacre(CAT_REFS[0], "on the mat the cat is", **PUNCT_CASE)],
            [sacre(["le chat"], "le chat", **PUNCT_CASE)],
        ]
    },
    {"raised": "ValueError", "message": "normalized must be TRUE or FALSE"},
    {"raised": "ValueError", "message": "asian_support does nothing alone: give normalized too (or no_punct)"},
    {"value": [[NOT_AVAILABLE]]},
    {"value": [[sacre_corpus([REF, REF], [INTACTO, SHORT])]]},
    {"value": [[{"type": "Error", "errorType": "Div0"}]]},
    {"value": [["[-ships with-] FREE delivery {+on+} {>Every order<}"]]},
    {
        "value": [
            ["a entrega chegou no prazo e o produto veio [-intacto-] {+bem embalado+}"],
            [""],
            ["[-=1+1-] {+a entrega chegou no prazo e o produto veio bem embalado+}"],
        ]
    },
    {"value": [["bleu-xl:ter-1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|shift:10/50|beam:25|refs:1"]]},
    {"value": [["bleu-xl:ter-1|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|shift:10/50|beam:25|refs:3"]]},
]


def test_every_ter_case_is_checked() -> None:
    assert len(EXPECTED) == len(TER_CASES)
    assert {name for name, _ in TER_CASES} == {"TER", "TER_CORPUS", "TER_CHANGES", "TER_SIGNATURE"}


@pytest.mark.parametrize("index", range(len(TER_CASES)))
def test_office_js_call_path_gives_sacrebleus_numbers(cpython_report: dict[str, Any], index: int) -> None:
    got = cpython_report["results"][CASES.index(TER_CASES[index])]
    assert _same(got, EXPECTED[index], EXACT), (TER_CASES[index], got, EXPECTED[index])


@pytest.mark.parametrize("index", range(len(TER_CASES)))
def test_classic_call_udf_path_gives_sacrebleus_numbers(classic_results: list[Any], index: int) -> None:
    classic = classic_results[CASES.index(TER_CASES[index])]
    assert _same(_lite_expected(classic), EXPECTED[index], EXACT), (TER_CASES[index], classic)


# --- the cell rules, through the cell functions ----------------------------------------------------------------------


def test_blank_candidate_is_blank_and_blank_reference_is_an_error() -> None:
    for function in (cells.ter_cells, cells.ter_changes_cells):
        assert function(REF, None) == Blank()
        assert function(REF, "   ") == Blank()
        assert function(None, INTACTO) == CellError("#VALUE!", "reference is blank")
        assert function(CellError("#N/A"), INTACTO) == CellError("#N/A")


def test_a_reference_with_no_words_left_is_one_and_scores_as_sacrebleu() -> None:
    """Punctuation alone, removed by no_punct: a reference of no words (every candidate word an edit, TER 1)."""
    assert cells.ter_cells("...", "a b", False, True) == sacre(["..."], "a b", no_punct=True) == 1.0
    assert cells.ter_cells("...", "!!", False, True) == sacre(["..."], "!!", no_punct=True) == 0.0
    assert cells.ter_changes_cells("...", "a b", False, True) == "[-a b-]"


def test_numbers_as_excel_shows_them_and_ter_above_one() -> None:
    assert cells.ter_cells(2026.0, "2026") == 0.0
    assert cells.ter_cells("a", "x y z") == 3.0  # edits per reference word: above 1 for a longer candidate


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("yes", None, None, None), "normalized must be TRUE or FALSE"),
        ((None, 2, None, None), "no_punct must be TRUE or FALSE"),
        ((None, None, "x", None), "asian_support must be TRUE or FALSE"),
        ((None, None, None, [[True, False]]), "case_sensitive must be a single cell"),
    ],
)
def test_switches_are_true_or_false(arguments: tuple[Any, ...], message: str) -> None:
    for function in (cells.ter_cells, cells.ter_corpus_cells, cells.ter_changes_cells):
        assert function(REF, INTACTO, *arguments) == CellError("#VALUE!", message)


def test_blank_switches_are_the_defaults() -> None:
    default = cells.ter_cells(REF, "A entrega, chegou")
    assert cells.ter_cells(REF, "A entrega, chegou", None, "", False, "false") == default
    assert cells.ter_cells(REF, "A entrega, chegou", 0.0, 0, "FALSE", None) == default
    assert cells.ter_cells(REF, "A entrega, chegou", "TRUE", 1, None, None) == sacre(
        [REF], "A entrega, chegou", normalized=True, no_punct=True
    )


def test_corpus_leaves_out_pairs_with_a_blank_side() -> None:
    refs, cands = col(REF, None, REF), col(INTACTO, "no reference", None)
    assert cells.ter_corpus_cells(refs, cands) == pytest.approx(sacre_corpus([REF], [INTACTO]), abs=EXACT)
    assert cells.ter_corpus_cells(col(None), col("x")) == Blank()


def test_changes_too_long_for_a_cell_are_cut_with_an_ellipsis() -> None:
    """A reference and a candidate that each fit a cell, and share no word: their changes do not fit one."""
    reference, candidate = (" ".join([letter * 110] * 150) for letter in "ab")
    text = cells.ter_changes_cells(reference, candidate)
    assert text.endswith("…") and len(text) == 32_767


def test_a_text_longer_than_ter_aligns_is_an_error_of_its_cell() -> None:
    """TER's search for shifts takes time that grows faster than the square of the words: past 200 words a cell is
    #VALUE! with the reason, on either side, and the cells beside it are scored."""
    long = " ".join(["mot"] * (MAX_WORDS + 1))
    for reference, candidate, side in ((long, "mot", "reference"), ("mot", long, "candidate")):
        result = cells.ter_cells(reference, candidate)
        assert isinstance(result, CellError) and result.code == "#VALUE!"
        said = f"the {side} has {MAX_WORDS + 1} words as TER splits it: TER aligns at most {MAX_WORDS};"
        assert result.message.startswith(said)
    assert cells.ter_cells([["mot"], ["mot"]], [["mot"], [long]])[0] == [0.0]
    assert cells.ter_cells(" ".join(["mot"] * MAX_WORDS), "mot") == pytest.approx(1 - 1 / MAX_WORDS)


def test_ter_references_are_cached_by_text_and_switches() -> None:
    server = xc.load().com_server.XLPython()
    cache = cells.prepared_references
    cache.clear()
    missing = (xc.MISSING,) * 4
    server.CallUDF(
        "bleu_xl.udfs", "TER", (col(*[REF] * 20), col(*[f"{INTACTO} {i}" for i in range(20)]), *missing), None, None
    )
    assert (cache.misses, cache.hits) == (1, 19)
    server.CallUDF("bleu_xl.udfs", "TER", (REF, SHORT, True, *missing[1:]), None, None)  # other switches
    assert cache.misses == 2
    assert {key for _, key in cache.held} == {("ter", False, False, False, False), ("ter", True, False, False, False)}
