"""The template recalculated by a formula engine (`formulas`) with bleu-xl's cell functions: every dependent follows
the Rank table when it grows to 200 rows, and the Sorted view, the token counts and the verdict hold for unusual
candidates and comparisons."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest
import schedula as sh

from bleu_xl import corpus_ter, score, ter, ter_changes
from bleu_xl.core.bootstrap import one_sided_text
from bleu_xl.core.tokenizer import tokenize
from bleu_xl.excel import cells
from bleu_xl.template import build as template
from bleu_xl.template import data as template_data
from tests.template.checks import (
    CF,
    FIRST,
    LAST,
    TEMPLATE,
    N,
    cached,
    check_engine_rank,
    check_rank_follows_table,
    compare_expected,
    load,
    recalculate,
)


def _variants(n: int) -> list[str]:
    words = "free delivery on every order this week shop the new summer collection today now".split()
    return [" ".join(words[(i * 7 + k) % len(words)] for k in range(3 + i % 9)) for i in range(n)]


EXTENDED = [*template_data.RANK_VARIANTS, *_variants(200 - N)]


@pytest.fixture(scope="module")
def extended(tmp_path_factory) -> Path:
    """The committed template with its table grown to 200 rows in the saved file, as Excel grows it: the table's
    ref, the typed candidates, and each calculated column's stored formula copied into the new rows. Nothing else
    is touched but the Sorted view's stored spill range (Excel re-spills it): every dependent must follow by
    itself."""
    book = load(TEMPLATE)
    rank = book["Rank"]
    table = rank.tables["tblVariants"]
    last = FIRST + len(EXTENDED) - 1
    table.ref = table.autoFilter.ref = f"A{FIRST - 1}:I{last}"
    for row in range(FIRST + N, last + 1):
        for c, column in enumerate(table.tableColumns, start=1):
            cell = rank.cell(row, c)
            formula = column.calculatedColumnFormula
            if formula is None:
                cell.value = EXTENDED[row - FIRST]
            elif formula.array:
                cell.value = openpyxl.worksheet.formula.ArrayFormula(cell.coordinate, "=" + formula.attr_text)
            else:
                cell.value = "=" + formula.attr_text
    # Excel re-spills the Sorted view over the grown table; the engine computes a formula over its stored range
    book["Sorted"]["A4"].value.ref = f"A4:C{3 + len(EXTENDED)}"
    path = tmp_path_factory.mktemp("extended") / "bleu2_ranking_200.xlsx"
    book.save(path)
    return path


def test_table_and_everything_that_follows_it_cover_200_rows(extended: Path) -> None:
    check_rank_follows_table(extended, len(EXTENDED))


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory) -> dict:
    return recalculate(TEMPLATE, tmp_path_factory.mktemp("engine"))


def test_engine_recalculates_rank_and_sorted_sheets(recalculated) -> None:
    check_engine_rank(recalculated, template_data.RANK_VARIANTS)


def test_engine_recalculates_the_200_row_table(extended: Path, tmp_path: Path) -> None:
    """Every dependent computed over the grown table: ranks among 200, the best candidate, the Sorted view (what
    the chart plots) 200 rows long. (The engine's time grows with the square of the rows: 500 took most of a
    minute of the suite, and show nothing 200 do not.)"""
    check_engine_rank(recalculate(extended, tmp_path), EXTENDED)


def test_generator_builds_any_table_length(tmp_path: Path) -> None:
    path = tmp_path / "bleu2_ranking_3.xlsx"
    template.build_template(path, EXTENDED[-3:])
    check_rank_follows_table(path, 3)
    check_engine_rank(recalculate(path, tmp_path), EXTENDED[-3:])


def test_a_candidate_with_no_words_has_zero_tokens(tmp_path: Path) -> None:
    """COUNTA(BLEU2_TOKENS(...)) counted 1 for a text with no words; the token count is BLEU2_DETAIL's c."""
    variants = ["Order today.", "!!! ???"]
    path = tmp_path / "no_words.xlsx"
    template.build_template(path, variants)
    assert load(path, data_only=True)["Rank"][f"H{FIRST + 1}"].value == 0
    values = recalculate(path, tmp_path)
    assert values[f"RANK!H{FIRST + 1}"][0][0] == 0
    check_engine_rank(values, variants)


def test_sorted_view_shows_only_scored_rows_and_nothing_for_an_empty_table(tmp_path: Path) -> None:
    """A blank BLEU-2 (a candidate of spaces) or an error text would sort above every number; the generator's
    model of the view must not choke on them either."""
    variants = ["Order today.", "   ", "#N/A", "Free delivery on every order!", "!!!"]
    path = tmp_path / "unscored.xlsx"
    template.build_template(path, variants)
    shown = [[c.value for c in row] for row in load(path, data_only=True)["Sorted"]["A4:C6"]]
    values = recalculate(path, tmp_path)  # (overwrites the file without its cached values)
    scores = [values[f"RANK!C{FIRST + i}"][0][0] for i in range(len(variants))]
    assert scores[1] in ("", None) and scores[2] == "#N/A" and scores[4] == 0
    ranks = [values[f"RANK!I{FIRST + i}"][0][0] for i in range(len(variants))]
    assert ranks == [2, "", "", 1, 3]  # no rank (and no #VALUE!) for a blank or error-text score
    expected = [[4, variants[3], scores[3]], [1, variants[0], scores[0]], [5, variants[4], 0.0]]
    assert [list(r) for r in values["SORTED!A4:C6"]] == expected
    assert shown == [[n, text, cached(s)] for n, text, s in expected]
    empty = tmp_path / "empty.xlsx"
    template.build_template(empty, ["   "])
    assert load(empty, data_only=True)["Sorted"]["A4"].value is None
    assert recalculate(empty, tmp_path)["SORTED!A4"][0][0] in ("", None)  # not #CALC!


def test_an_error_value_in_the_scores_leaves_the_other_rows_ranked(tmp_path: Path) -> None:
    """xlwings Lite gives an input's #N/A back as the error value #N/A (the classic add-in as its text): MAX and
    RANK.EQ over the column passed it on to Best candidate and to every rank. Both faces rank the numbers only, and
    a candidate's token count is its own, however long (a count of BLEU2_TOKENS's cells stopped at 16,384)."""
    long_text = "東京タワー" * 4000
    variants = ["Order today.", "#N/A", "Free delivery on every order!", long_text]
    path = tmp_path / "errors.xlsx"
    template.build_template(path, variants)
    reference = template_data.RANK_REFERENCE
    expected_scores = [score(reference, v).bleu for v in (variants[0], variants[2], variants[3])]
    best = variants[[0, 2, 3][expected_scores.index(max(expected_scores))]]
    ranks = [1 + sum(t > s for t in expected_scores) for s in expected_scores]
    saved = load(path, data_only=True)["Rank"]
    assert [saved[f"H{FIRST + i}"].value for i in range(len(variants))] == [2, 0, 5, 20000]
    assert [saved[f"I{FIRST + i}"].value for i in range(len(variants))] == [*ranks[:1], None, *ranks[1:]]
    for lite in (False, True):  # (recalculating writes the file again, without its cached values)
        values = recalculate(path, tmp_path, lite=lite)
        got = [values[f"RANK!C{FIRST + i}"][0][0] for i in range(len(variants))]
        assert str(got[1]) == "#N/A", lite  # an error value (Lite) or its text (classic)
        assert [values[f"RANK!I{FIRST + i}"][0][0] for i in range(len(variants))] == [*ranks[:1], "", *ranks[1:]]
        assert values["RANK!B3"][0][0] == best, lite
        tokens = [values[f"RANK!H{FIRST + i}"][0][0] for i in range(len(variants))]
        assert tokens == [2, 0, 5, 20000], lite


def test_tokens_count_the_candidate_alone(tmp_path: Path) -> None:
    """The Tokens column does not depend on the reference: a blank reference (or one with no words) leaves every
    candidate's count as it is."""
    expected = [len(tokenize(v)) for v in template_data.RANK_VARIANTS]
    assert [c.value for c in load(TEMPLATE, data_only=True)["Rank"]["H"][FIRST - 1 : LAST]] == expected
    for reference in (None, "!!!"):
        book = load(TEMPLATE)
        book["Rank"]["B2"].value = reference
        path = tmp_path / f"reference_{bool(reference)}.xlsx"
        book.save(path)
        values = recalculate(path, tmp_path)
        assert [values[f"RANK!H{FIRST + i}"][0][0] for i in range(N)] == expected, reference
        assert values[f"RANK!C{FIRST}"][0][0] != cached(1.0)  # the scores did change


def test_engine_recalculates_spill_and_pairs(recalculated) -> None:
    grid = recalculated[f"SPILL!C{FIRST - 1}:L{LAST}"]
    assert list(grid[0]) == cells.DETAIL_HEADERS
    s = score(template_data.RANK_REFERENCE, template_data.RANK_VARIANTS[1])
    assert list(grid[2]) == [s.bleu, s.p1, 12, 13, s.p2, 11, 12, s.bp, 13, 13]
    for i, (ref, cand) in enumerate(template_data.PAIRS):
        assert recalculated[f"PAIRS!C{i + 2}"][0][0] == score(ref, cand).bleu
    refs = [[r] for r, _ in template_data.PAIRS]
    cands = [[c] for _, c in template_data.PAIRS]
    assert recalculated["PAIRS!J2"][0][0] == cells.corpus_cells(refs, cands)
    # TER and the words that changed: sacrebleu's TER (tests/excel/test_ter_faces.py), recalculated by the engine
    for i, (ref, cand) in enumerate(template_data.PAIRS):
        assert recalculated[f"PAIRS!G{i + 2}"][0][0] == ter(ref, cand).ter
        assert recalculated[f"PAIRS!H{i + 2}"][0][0] == ter_changes(ref, cand).text
    assert (
        recalculated["PAIRS!J6"][0][0]
        == cells.ter_corpus_cells(refs, cands)
        == corpus_ter([r for r, _ in template_data.PAIRS], [c for _, c in template_data.PAIRS]).ter
    )


def test_engine_recalculates_compare_sheet(recalculated) -> None:
    result, ci_a, _ = compare_expected()
    assert list(recalculated[f"COMPARE!H{CF}:K{CF}"][0]) == [
        result.score_a,
        result.score_b,
        result.difference,
        result.p_value,
    ]
    assert list(recalculated[f"COMPARE!H{CF + 3}:J{CF + 3}"][0]) == [ci_a.low, ci_a.score, ci_a.high]
    expected = [result.score_a, result.score_b, result.difference, result.p_value]
    assert recalculated[f"COMPARE!H{CF + 5}"][0][0] == result.pairs == len(template_data.COMPARE)
    assert recalculated[f"COMPARE!H{CF + 6}"][0][0] == template.verdict_text(expected, 12) == result.verdict()


def _with_compare_rows(tmp_path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """The template with the Compare table's inputs replaced by ``rows`` (the rest of the table left blank)."""
    book = load(TEMPLATE)
    ws = book["Compare"]
    for i in range(len(template_data.COMPARE)):
        for c, value in enumerate(rows[i] if i < len(rows) else ("", "", "")):
            ws.cell(CF + i, c + 1).value = value or None
    path = tmp_path / "compare.xlsx"
    book.save(path)
    return path


@pytest.mark.parametrize(
    "rows, verdict",
    [
        ([], ""),  # BLEU2_PAIRED gives one blank cell
        ([("!!!", "le chat", "le chat")], "No verdict: #VALUE! reference has no words (pair 1)"),
    ],
    ids=["blank", "error"],
)
def test_no_verdict_unless_the_paired_test_gives_four_numbers(tmp_path: Path, rows, verdict) -> None:
    """One text from BLEU2_PAIRED (blank or an error) spills nothing into B - A and the p-value: the verdict must
    not read those blanks as 0 and say "A and B score the same (p < 0.001)"."""
    path = _with_compare_rows(tmp_path, rows)
    values = recalculate(path, tmp_path)
    paired = [values[f"COMPARE!H{CF}:K{CF}"][0][0]]
    assert values[f"COMPARE!H{CF + 6}"][0][0] == verdict == template.verdict_text(paired, 0)


def test_the_verdict_names_rows_where_only_one_side_has_a_candidate(tmp_path: Path) -> None:
    """B left blank on the rows it would lose: the Compare sheet's verdict names the rows left out, as compare's
    does, and says a blank candidate is not scored as a miss."""
    rows = [(ref, a, b) for ref, a, b in template_data.COMPARE]
    rows[0] = (rows[0][0], rows[0][1], "")
    rows[1] = (rows[1][0], "", rows[1][2])
    rows[2] = (rows[2][0], rows[2][1], "   ")  # spaces: a blank candidate to the functions
    rows[3] = (rows[3][0], "#N/A", "")  # a lookup's error beside a blank: neither side counted, nor an error
    for lite in (False, True):
        path = _with_compare_rows(tmp_path, rows)
        values = recalculate(path, tmp_path, lite=lite)
        paired = list(values[f"COMPARE!H{CF}:K{CF}"][0])
        pairs = values[f"COMPARE!H{CF + 5}"][0][0]
        verdict = values[f"COMPARE!H{CF + 6}"][0][0]
        assert verdict == template.verdict_text(paired, int(pairs), 2, 1), lite
        assert verdict.endswith(
            "; left out: 2 rows where only A has a candidate and 1 row where only B has a candidate (a blank candidate "
            "is not scored as a miss)"
        )
        # Each side's interval is over the same pairs: its score is the paired test's.
        low_a, score_a, _ = values[f"COMPARE!H{CF + 3}:J{CF + 3}"][0]
        low_b, score_b, _ = values[f"COMPARE!H{CF + 4}:J{CF + 4}"][0]
        assert (score_a, score_b) == (paired[0], paired[1]) and low_a <= score_a and low_b <= score_b, lite


def test_verdict_formula_in_the_engine(tmp_path: Path) -> None:
    import formulas

    func = formulas.Parser().ast("=" + template.verdict_formula("A1:D1", "A1", "C1", "D1", "E1"))[1].compile()
    assert list(func.inputs) == ["A1", "A1:D1", "C1", "D1", "E1"]
    cases = [(0.5, 0.0), (0.5, 1 / 1001), (-0.2, 0.01), (0.1, 0.3), (-0.1, 0.5), (0.0, 1.0), (0.1, 50 / 1001)]
    cases += [(0.1, 0.0495), (0.1, 0.05), (0.1, 0.0494)]
    for pairs in (1, 12, 49, 50, 600):  # a verdict on fewer than 50 says it is not to be trusted
        for diff, p in cases:
            row = [0.4, 0.4 + diff, diff, p]
            got = func(row[0], np.array([row], dtype=object), diff, p, pairs)
            assert got == template.verdict_text(row, pairs), (diff, p, pairs)
    one_sided = formulas.Parser().ast("=" + template.one_sided_formula("A1", "B1"))[1].compile()
    for only_a, only_b in ((0, 0), (1, 0), (0, 1), (2, 1), (1, 30), (1234, 0)):  # 1,234 as compare writes it
        assert one_sided(only_a, only_b) == one_sided_text("A", only_a, "B", only_b), (only_a, only_b)
    blank = np.array([[sh.EMPTY] * 4], dtype=object)
    assert func(sh.EMPTY, blank, sh.EMPTY, sh.EMPTY, 0) == ""
    error = np.array([["#VALUE! no words", sh.EMPTY, sh.EMPTY, sh.EMPTY]], dtype=object)
    assert func("#VALUE! no words", error, sh.EMPTY, sh.EMPTY, 3) == "No verdict: #VALUE! no words"


def test_tokens_show_an_error_of_the_functions_rather_than_zero() -> None:
    """IFERROR(..., 0) made any error a count of 0: #NAME? (the functions not installed, LibreOffice) showed 0
    beside #NAME? in every other column. Only #VALUE! (the function's own answer to a text with no words) is 0."""
    import formulas
    from formulas.functions import get_functions, wrap_func
    from formulas.tokens.operand import Error

    registry = get_functions()
    saved = registry.get("BLEU2_DETAIL")
    try:
        for error, shown in (("#NAME?", "#NAME?"), ("#N/A", "#N/A"), ("#VALUE!", 0)):
            registry["BLEU2_DETAIL"] = wrap_func(lambda *_args, _e=error: Error.errors[_e])
            func = formulas.Parser().ast("=" + template.token_count_formula("A1"))[1].compile()
            got = np.asarray(func("Order today."), dtype=object).ravel()[0]
            assert (str(got) if isinstance(got, formulas.XlError) else got) == shown, error
    finally:
        if saved is None:
            registry.pop("BLEU2_DETAIL", None)
        else:
            registry["BLEU2_DETAIL"] = saved
