"""The Excel functions through xlwings' real classic UDF path (CallUDF, argument conversion, VBA wrapper)."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from bleu_xl import score, signature
from bleu_xl.excel import cell_values, cells
from bleu_xl.excel.functions import FUNCTIONS, RANGE_OPTIONS, REQUIRED, SETTING_OPTIONS
from tests import lite_driver
from tests import xlwings_classic as xc
from tests.helpers import INTACTO, REF, SHORT

NA = xc.ERRORS["#N/A"]


@pytest.fixture(scope="module")
def classic():
    return xc.load()


@pytest.fixture(scope="module")
def call(classic):
    server = classic.com_server.XLPython()

    def call_udf(name: str, *args):
        return server.CallUDF("bleu_xl.udfs", name, args, None, None)

    return call_udf


def col(*values):
    """A column range as pywin32 hands it over: a tuple of one-value row tuples."""
    return tuple((v,) for v in values)


# --- registration: what xlwings' "Import Functions" writes into the workbook ------------------------------------


class _StandInComponents:
    """VBProject.VBComponents: records the VBA module xlwings imports (the file it writes, read back)."""

    def __init__(self) -> None:
        self.imported: list[str] = []

    def __call__(self, name: str) -> None:
        raise xc._ComError(f"no component {name}")  # the first import: nothing to remove

    def Remove(self, component: object) -> None:  # pragma: no cover - only after a first import
        raise AssertionError("nothing to remove")

    def Import(self, path: str) -> None:
        with open(path, encoding="utf-8") as handle:
            self.imported.append(handle.read())


class _StandInApplication:
    """Excel.Application: its version, and the Function Wizard descriptions xlwings sets with MacroOptions."""

    Version = "16.0"

    def __init__(self) -> None:
        self.macro_options: list[tuple[str, dict]] = []

    def MacroOptions(self, macro: str, **options) -> None:
        self.macro_options.append((macro, options))


class _StandInAddin:
    def __init__(self) -> None:
        self.Name = "bleu_xl.xlam"
        self.Application = _StandInApplication()
        self.VBProject = type("VBProject", (), {"VBComponents": _StandInComponents()})()


@pytest.fixture(scope="module")
def imported(classic):
    """xlwings' own import_udfs (the add-in's "Import Functions") run on bleu_xl.udfs into a stand-in add-in."""
    classic.xlwings_udfs.get_udf_module("bleu_xl.udfs", None)  # loaded as CallUDF loads it (no embedded code)
    addin = _StandInAddin()
    classic.xlwings_udfs.import_udfs("bleu_xl.udfs", addin)
    (vba,) = addin.VBProject.VBComponents.imported
    return vba, addin.Application.macro_options


def _vba_signature(function) -> str:
    arguments = ", ".join(("Optional " if a.optional else "") + a.name for a in function.arguments)
    return f"Function {function.name}({arguments})"


def test_one_vba_wrapper_per_registered_function(imported) -> None:
    vba, _ = imported
    assert vba.startswith('Attribute VB_Name = "xlwings_udfs"')
    lines = [line.strip() for line in vba.splitlines() if line.startswith("Function ")]
    assert sorted(lines) == sorted(_vba_signature(f) for f in FUNCTIONS)
    assert len(lines) == len(FUNCTIONS) == 19
    # Spelled out, so the registry-derived lines above cannot agree with a wrong registry by construction.
    assert "Function BLEU2_TOKENS(text, Optional separator)" in lines
    assert "Function BLEU2_SIGNATURE(Optional max_n, Optional smoothing, Optional refs)" in lines
    assert "Function BLEU2_PAIRED(references, candidates_a, candidates_b, Optional samples)" in lines
    # An add-in calls into the workbook that is active, not into itself.
    assert 'BLEU2 = XLPy.CallUDF("bleu_xl.udfs", "BLEU2", Array(reference, candidate), ActiveWorkbook' in vba


def test_function_wizard_descriptions(imported) -> None:
    _, macro_options = imported
    assert sorted(macro for macro, _ in macro_options) == sorted(f"'bleu_xl.xlam'!{f.name}" for f in FUNCTIONS)
    options = {macro.split("!")[1]: given for macro, given in macro_options}
    for function in FUNCTIONS:
        given = options[function.name]
        assert given["Description"] == function.description  # whole: xlwings cuts at 255 characters
        assert given["Category"] == "BLEU"
        assert given["ArgumentDescriptions"] == [a.doc for a in function.arguments]
        assert all(len(text) <= 255 for text in [given["Description"], *given["ArgumentDescriptions"]])
    assert options["BLEU2_TOKENS"]["ArgumentDescriptions"][1].startswith("Optional: join each cell's tokens")


def test_declared_functions_are_the_registry(classic) -> None:
    import bleu_xl.udfs

    assert bleu_xl.udfs.__all__ == [f.name for f in FUNCTIONS]
    for function in FUNCTIONS:
        declared = getattr(classic.module, function.name)
        info = declared.__xlfunc__
        assert (info["name"], info["category"], info["ret"]["doc"]) == (function.name, "BLEU", function.description)
        assert "expand" not in info["ret"]["options"]  # native dynamic arrays spill; no legacy resize
        for argument, registered in zip(function.arguments, info["args"], strict=True):
            assert registered["name"] == argument.name and registered["doc"] == argument.doc
            assert registered.get("optional", REQUIRED) == argument.default
            assert {k: v for k, v in registered["options"].items() if k != "convert"} == (
                RANGE_OPTIONS if argument.is_range else SETTING_OPTIONS
            )
    assert lite_driver.unsafe_members(classic.module) == []


def test_a_declared_function_checks_its_arguments_like_a_def(classic) -> None:
    with pytest.raises(TypeError, match="missing a required argument: 'candidate'"):
        classic.module.BLEU2(REF)
    with pytest.raises(TypeError, match="too many positional arguments"):
        classic.module.BLEU2_TOKENS("a", " ", "extra")


# --- single cells -----------------------------------------------------------------------------------------------


def test_single_cells(call) -> None:
    s = score(REF, INTACTO)
    assert call("BLEU2", REF, INTACTO) == s.bleu
    assert call("BLEU2_P1", REF, INTACTO) == 0.9
    assert call("BLEU2_P2", REF, INTACTO) == 8 / 9
    assert call("BLEU2_BP", REF, INTACTO) == math.exp(1 - 11 / 10)
    assert call("BLEU2", REF, REF) == 1.0
    assert call("BLEU", REF, INTACTO, xc.MISSING, "none") == pytest.approx(0.796, abs=5e-4)
    assert call("BLEU", REF, SHORT, 4.0, xc.MISSING) == pytest.approx(math.exp(1 - 11 / 5))
    assert call("BLEU", REF, INTACTO, 2.0, "NONE") == s.bleu


def test_detail_single_pair_is_one_row(call) -> None:
    row = call("BLEU2_DETAIL", REF, INTACTO, xc.MISSING)
    s = score(REF, INTACTO)
    assert row == [s.bleu, 0.9, 9, 10, 8 / 9, 8, 9, s.bp, 11, 10]


def test_detail_with_headers_and_a_column(call) -> None:
    rows = call("BLEU2_DETAIL", REF, col(INTACTO, None, "xyz"), True)
    assert rows[0] == cells.DETAIL_HEADERS
    assert rows[1][2:4] == [9, 10]
    assert rows[2] == [""] * 10
    # One word: p1 add-1 1/2; no bigram, so p2 is left out (blank, 0 / 0).
    assert rows[3] == [math.exp(1 - 11 / 1) * (1 / 2), 0.5, 1, 2, "", 0, 0, math.exp(1 - 11), 11, 1]


def test_a_flag_that_is_no_boolean_is_refused_through_the_classic_path(call) -> None:
    assert call("BLEU2_DETAIL", REF, INTACTO, "maybe") == "#VALUE! headers must be TRUE or FALSE"
    assert call("BLEU2_DETAIL", REF, INTACTO, "true")[0] == cells.DETAIL_HEADERS
    assert call("TER", REF, INTACTO, "maybe", xc.MISSING, xc.MISSING, xc.MISSING) == (
        "#VALUE! normalized must be TRUE or FALSE"
    )


def test_signature(call) -> None:
    assert call("BLEU2_SIGNATURE", xc.MISSING, xc.MISSING, xc.MISSING) == signature()
    assert call("BLEU2_SIGNATURE", 4.0, "none", 2.0) == signature(4, "none", 2)


def test_tokens(call) -> None:
    assert call("BLEU2_TOKENS", "L'été, 2026 — 東京タワー!", xc.MISSING) == [
        "l",
        "été",
        "2026",
        "東",
        "京",
        "タ",
        "ワ",
        "ー",
    ]
    assert call("BLEU2_TOKENS", "Hello", xc.MISSING) == "hello"
    assert call("BLEU2_TOKENS", None, xc.MISSING) == ""
    assert call("BLEU2_TOKENS", col("Le Chat!", None, 2026.0), " ") == [["le chat"], [""], ["2026"]]
    assert call("BLEU2_TOKENS", col("a b", "c"), "|") == [["a|b"], ["c"]]
    assert call("BLEU2_TOKENS", col("a b", "c"), xc.MISSING) == [["a b"], ["c"]]  # a range: joined by spaces
    assert call("BLEU2_TOKENS", col("Le chat", "noir"), "") == [["le chat"], ["noir"]]  # "" reaches it as none


# --- ranges -----------------------------------------------------------------------------------------------------


def test_column_in_column_out(call) -> None:
    out = call("BLEU2", REF, col(INTACTO, SHORT, REF, None))
    assert out == [[score(REF, INTACTO).bleu], [score(REF, SHORT).bleu], [1.0], [""]]


def test_row_in_row_out(call) -> None:
    # A single row comes back as one flat row (xlwings' CallUDF does this for 1-by-n results).
    expected = [math.exp(1 - 11 / 10), math.exp(1 - 11 / 5)]
    assert call("BLEU2_BP", REF, ((INTACTO, SHORT),)) == expected
    assert call("BLEU2_BP", (REF,), ((INTACTO, SHORT),)) == expected  # a one-cell row tuple is that cell


def test_equal_shapes_pair_cell_by_cell(call) -> None:
    out = call("BLEU2", col("the cat", "le chat"), col("the cat", "le chien"))
    assert out == [[1.0], [score("le chat", "le chien").bleu]]


def test_grid_broadcast(call) -> None:
    out = call("BLEU2_P1", "a b c d", (("a", "b"), ("x", "a b")))
    assert out == [[1.0, 1.0], [0.5, 1.0]]


def test_shape_mismatch(call) -> None:
    out = call("BLEU2", col("a", "b", "c"), col("a", "b", "c", "d"))
    assert out == "#VALUE! ranges differ in shape (3x1 vs 4x1)"


def test_several_references_per_row(call) -> None:
    refs = (("the cat is on the mat", "there is a cat on the mat"), ("le chat", None))
    out = call("BLEU2_P1", refs, col("the the the the the the the", "le chat"))
    assert out == [[2 / 7], [1.0]]
    assert out[0][0] == score(list(refs[0]), "the the the the the the the").p1


def test_one_reference_row_for_every_candidate(call) -> None:
    refs = (("the cat is on the mat", "there is a cat on the mat"),)
    cands = col("the the the the the the the", "there is a cat", "a cat")
    out = call("BLEU2", refs, cands)
    assert out == [[score(list(refs[0]), c[0]).bleu] for c in cands]


def test_a_reference_row_as_long_as_the_candidate_column_serves_every_candidate(call) -> None:
    """Three approved references typed across serve each of three candidates, as they serve two or four: a
    refusal there made the column's scores depend on how many candidates it has. To pair references typed across
    with candidates typed down, TRANSPOSE them."""
    refs = (("free delivery", "shop now", "new collection"),)
    cands = col("free delivery", "shop now today", "a new collection")
    assert call("BLEU2", refs, cands) == [[score(list(refs[0]), c[0]).bleu] for c in cands]
    assert call("BLEU2", (("free delivery", None, None),), cands) == [
        [score("free delivery", c[0]).bleu] for c in cands
    ]


def test_stand_in_range_objects(call) -> None:
    ref = xc.StandInRange(REF, row=2, column=2)
    cands = xc.StandInRange(col(INTACTO, SHORT, None), row=6, column=2)
    assert call("BLEU2", ref, cands) == [[score(REF, INTACTO).bleu], [score(REF, SHORT).bleu], [""]]
    assert call("BLEU2_CORPUS", xc.StandInRange(col(REF, REF, REF)), cands) == pytest.approx(
        math.exp(1 - 22 / 15) * math.sqrt(14 / 15 * 12 / 13)
    )


# --- cell values, blanks and errors ---------------------------------------------------------------------------


def test_numbers_bools_and_dates_as_text(call) -> None:
    assert call("BLEU2", 2026.0, "2026") == 1.0
    assert call("BLEU2", "0.5", 0.5) == 1.0
    assert call("BLEU2", "TRUE", True) == 1.0
    assert call("BLEU2", "2026-12-01", xc._TimeType(2026, 12, 1)) == 1.0
    assert cell_values.cell_text(dt.datetime(2026, 12, 1, 9, 30)) == "2026-12-01 09:30:00"
    # A time of day reaches the classic add-in dated 1899-12-30 (Excel's serial below 1, as COM dates it): it is
    # scored as the time, as a workbook's time cell is.
    assert call("BLEU2", "12:30:00", xc._TimeType(1899, 12, 30, 12, 30)) == 1.0
    assert cell_values.cell_text(dt.datetime(1899, 12, 30, 7, 5, 9)) == cell_values.cell_text(dt.time(7, 5, 9))
    assert cell_values.cell_text(dt.datetime(1899, 12, 30)) == "00:00:00"
    # =MOD(NOW(),1) holds fractions of a second, which a cell shows not: scored to the second, as a date-time is.
    assert call("BLEU2", "14:03:27", xc._TimeType(1899, 12, 30, 14, 3, 27, 123000)) == 1.0
    assert cell_values.cell_text(dt.time(14, 3, 27, 999999)) == "14:03:27"
    assert [cell_values.general_format(x) for x in (2026.0, 0.5, 1 / 3, -0.0, 1e20, 1234567.125)] == [
        "2026",
        "0.5",
        "0.333333333333333",
        "0",
        "1E+20",
        "1234567.125",
    ]


#: Numbers as Excel writes them into text, from the table Apache POI's NumberToTextConverter measured in Excel
#: (the double's bits, then Excel's text), and the cases a reader checked against Excel's own cells.
EXCEL_NUMBER_TEXTS = {
    0x3FF00068DB8BAC71: "1.0001",
    0x405EDD3C07FB4C99: "123.456789012346",
    0x3EE9E409302678BA: "1.23456789012346E-05",
    0x3F202E85BE180B74: "0.000123456789012346",
    0x3EE9E409301B5A02: "0.0000123456789",
    0x3E6E7D05BDABDE50: "0.000000056789012345",
    0x3E6E7D05BDAD407E: "5.67890123456E-08",
    0x2BCB5733CB32AE6E: "9.99999999999912E-98",
    0x2B617F7D4ED8C59E: "1.0000000000001E-99",
    0x54B693D8E89DF188: "1.2345678901235E+100",
    0x43118B54F22AEB03: "1234567890123460",
    0x43E56A95319D63E1: "12345678901234600000",
    0xC41AC53A7E04BCDA: "-1.23456789012346E+20",
    0x000FFFFFFFFFFFFF: "0",
    0x40FE26BFFFFFFFF9: "123500",
    0x3E4A857BFB2F2809: "0.00000001235",
    0x3C32725DD1D243AB: "0.000000000000000001",
    0x3BFD83C94FB6D2AB: "1E-19",
    0xC12E847FFFFFFFFF: "-1000000",
}


def test_numbers_as_text_as_excel_writes_them(call) -> None:
    import struct

    for bits, text in EXCEL_NUMBER_TEXTS.items():
        number = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
        assert cell_values.general_format(number) == text, (number, text)
    # A General cell shows 0.00001 so, not 1E-05; the number's text is the one scored.
    assert [cell_values.cell_text(x) for x in (0.00001, -0.00001, 0.0001, 1e-10, 1e21)] == [
        "0.00001",
        "-0.00001",
        "0.0001",
        "0.0000000001",
        "1E+21",
    ]
    assert call("BLEU2", "0.00001", 0.00001) == 1.0  # the classic add-in scores the text a General cell shows


def test_blanks(call) -> None:
    assert call("BLEU2", REF, None) == ""
    assert call("BLEU2", None, None) == ""
    assert call("BLEU2", REF, "   ") == ""
    assert call("BLEU2", None, INTACTO) == "#VALUE! reference is blank"
    assert call("BLEU2", "!!! ...", INTACTO) == "#VALUE! reference has no words"
    assert call("BLEU2", REF, "!!!") == 0.0  # a candidate with no words is scored: 0


def test_error_cells_pass_through(call) -> None:
    assert call("BLEU2", NA, INTACTO) == "#N/A"
    assert call("BLEU2", REF, xc.ERRORS["#REF!"]) == "#REF!"
    assert call("BLEU2", REF, col(INTACTO, NA)) == [[score(REF, INTACTO).bleu], ["#N/A"]]
    assert call("BLEU2_CORPUS", col(REF, REF), col(INTACTO, xc.ERRORS["#DIV/0!"])) == "#DIV/0!"
    assert call("BLEU2_TOKENS", NA, xc.MISSING) == "#N/A"


def test_bad_settings_are_short_texts(call) -> None:
    assert call("BLEU", REF, INTACTO, 10.0, xc.MISSING) == "#VALUE! max_n must be a whole number from 1 to 9"
    assert call("BLEU", REF, INTACTO, 2.5, xc.MISSING) == "#VALUE! max_n must be a whole number from 1 to 9"
    assert call("BLEU", REF, INTACTO, "four", xc.MISSING) == "#VALUE! max_n must be a whole number from 1 to 9"
    assert call("BLEU", REF, INTACTO, xc.MISSING, "exp") == "#VALUE! smoothing must be add1 or none"


def test_corpus(call) -> None:
    refs = col(REF, REF, None, REF, "東京タワーに行きました")
    cands = col(INTACTO, SHORT, "ignored: no reference", None, "東京タワーへ行った")
    expected = math.exp(1 - 33 / 24) * math.sqrt(21 / 24 * 16 / 21)
    assert call("BLEU2_CORPUS", refs, cands) == pytest.approx(expected, abs=1e-15)
    assert call("BLEU2_CORPUS", col(None, None), col(None, None)) == ""
    assert call("BLEU2_CORPUS", col("...", REF), col(SHORT, SHORT)) == "#VALUE! reference has no words (pair 1)"
    assert call("BLEU2_CORPUS", REF, col(INTACTO, SHORT)) == pytest.approx(
        math.exp(1 - 22 / 15) * math.sqrt(14 / 15 * 12 / 13)
    )


def test_reference_statistics_are_cached(call) -> None:
    cache = cells.prepared_references
    cache.clear()
    call("BLEU2", col(*[REF] * 50), col(*[f"{INTACTO} {i}" for i in range(50)]))
    assert (cache.misses, cache.hits) == (1, 49)
    call("BLEU2", REF, SHORT)  # a recalculation: the reference is not tokenized again
    assert (cache.misses, cache.entries) == (1, cells.REFERENCE_CACHE_SIZE)


def test_never_a_traceback(call) -> None:
    weird = [object(), {"a": 1}, float("nan"), float("inf"), -1, 10**30, "=1+1", "\x00\ud800", ""]
    for ref in weird:
        for cand in weird:
            for name in ("BLEU2", "BLEU2_P1", "BLEU2_P2", "BLEU2_BP", "BLEU2_CORPUS"):
                out = call(name, ref, cand)
                assert isinstance(out, (float, str)), (name, ref, cand, out)
                if isinstance(out, str):
                    assert out == "" or (out.startswith("#") and "\n" not in out and len(out) < 80)


# --- the same functions called directly in Python ---------------------------------------------------------------


def test_direct_python_calls(classic) -> None:
    m = classic.module
    assert m.BLEU2(REF, INTACTO) == score(REF, INTACTO).bleu
    assert m.BLEU2([[REF]], [[INTACTO], [SHORT]]) == [[score(REF, INTACTO).bleu], [score(REF, SHORT).bleu]]
    assert m.BLEU2(REF, [INTACTO, SHORT]) == [[score(REF, INTACTO).bleu, score(REF, SHORT).bleu]]
    assert m.BLEU2_DETAIL(REF, INTACTO) == [[*call_row(REF, INTACTO)]]
    assert m.BLEU(REF, SHORT) == pytest.approx(math.exp(1 - 11 / 5))
    assert m.BLEU2_TOKENS("Ünïcode ÀB") == [["ünïcode", "àb"]]  # a 1-row grid; CallUDF flattens it
    assert m.BLEU2_CORPUS([REF, REF], [INTACTO, SHORT]) == pytest.approx(
        math.exp(1 - 22 / 15) * math.sqrt(14 / 15 * 12 / 13)
    )
    assert m.BLEU2_SIGNATURE() == signature()
    assert m.BLEU2(None, INTACTO) == "#VALUE! reference is blank"


def call_row(ref: str, cand: str) -> list:
    s = score(ref, cand)
    p1, p2 = s.precisions
    return [s.bleu, p1.value, p1.matches, p1.total, p2.value, p2.matches, p2.total, s.bp, s.r, s.c]


def test_explain_ci_and_paired_through_calludf(call) -> None:
    from bleu_xl import bootstrap_ci, explain, paired_test

    assert call("BLEU2_EXPLAIN", REF, INTACTO) == explain(REF, INTACTO).summary()
    assert call("BLEU2_EXPLAIN", REF, col(INTACTO, None)) == [[explain(REF, INTACTO).summary()], [""]]
    refs = col(REF, REF, "le chat noir dort", None)
    a = col(INTACTO, SHORT, "le chat dort", "skipped")
    b = col(REF, INTACTO, "le chat noir dort", "skipped")
    ci = bootstrap_ci([REF, REF, "le chat noir dort"], [INTACTO, SHORT, "le chat dort"])
    assert call("BLEU2_CI", refs, a, xc.MISSING, xc.MISSING) == [ci.low, ci.score, ci.high]
    p = paired_test(
        [REF, REF, "le chat noir dort"],
        [INTACTO, SHORT, "le chat dort"],
        [REF, INTACTO, "le chat noir dort"],
        samples=200,
    )
    assert call("BLEU2_PAIRED", refs, a, b, 200.0) == [p.score_a, p.score_b, p.difference, p.p_value]
