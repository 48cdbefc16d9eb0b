"""The cell functions behind every Excel function: ranges in and out, blanks and errors, settings given as cells,
Excel's limits, and the cache of prepared references."""

from __future__ import annotations

import pytest

from benchmarks.synthetic import make_pairs
from bleu_xl import Bleu, bootstrap_ci, corpus_score, explain, paired_test, score, tokenize
from bleu_xl.core.metrics.bleu import References
from bleu_xl.excel import cell_values, cells
from tests.helpers import INTACTO, REF, best_seconds, compared_columns

REFS, CANDS_A, CANDS_B = compared_columns()


def test_explain_cells() -> None:
    assert cells.explain_cells(REF, INTACTO) == explain(REF, INTACTO).summary()
    out = cells.explain_cells(REF, [[INTACTO], [None], [REF]])
    assert out == [[explain(REF, INTACTO).summary()], [cells.BLANK], ["exact match"]]
    assert cells.explain_cells(None, "x") == cell_values.CellError("#VALUE!", "reference is blank")
    assert cells.explain_cells("...", "x") == cell_values.CellError("#VALUE!", "reference has no words")


# --- the interval and the paired test in cells ------------------------------------------------------------------


def test_corpus_cells_leave_out_rows_with_a_blank_candidate_whatever_their_reference_holds() -> None:
    """A reference column filled down with a lookup that gives #N/A on the rows not used yet: =BLEU2 leaves those
    rows blank, and the corpus functions gave #N/A for the whole corpus. An error in a row kept is still theirs."""
    na = cell_values.CellError("#N/A")
    refs = [["free delivery on every order"], ["shop the new collection"], [na], [na]]
    cands = [["free delivery on all orders"], ["shop the collection"], [None], [None]]
    kept = (
        ["free delivery on every order", "shop the new collection"],
        ["free delivery on all orders", "shop the collection"],
    )
    assert cells.bleu_cells(refs, cands)[2:] == [[cells.BLANK], [cells.BLANK]]
    assert cells.corpus_cells(refs, cands) == cells.corpus_cells([[r] for r in kept[0]], [[c] for c in kept[1]])
    assert cells.corpus_cells(refs, cands) == pytest.approx(corpus_score(*kept).bleu)
    assert cells.chrf_corpus_cells(refs, cands) == cells.chrf_corpus_cells(
        [[r] for r in kept[0]], [[c] for c in kept[1]]
    )
    assert isinstance(cells.ci_cells(refs, cands), list)
    assert cells.corpus_cells([*refs, [na]], [*cands, ["a candidate"]]) == na  # a row kept: its error


def test_ci_and_paired_cells_skip_blank_pairs_in_both_columns() -> None:
    refs = [[r] for r in REFS[:40]] + [[None], ["x y"]]
    a = [[c] for c in CANDS_A[:40]] + [["ignored"], [None]]
    b = [[c] for c in CANDS_B[:40]] + [["ignored"], ["x y"]]
    row = cells.paired_cells(refs, a, b)
    expected = paired_test(REFS[:40], CANDS_A[:40], CANDS_B[:40])
    assert row == [[expected.score_a, expected.score_b, expected.difference, expected.p_value]]
    ci = bootstrap_ci(REFS[:40], CANDS_A[:40], level=0.9, samples=200)
    assert cells.ci_cells(refs[:40], a[:40], 0.9, 200.0) == [[ci.low, ci.score, ci.high]]
    assert str(cells.ci_cells(refs, a, 2.0)) == "#VALUE! level must be between 0 and 1, e.g. 0.95"
    assert cells.paired_cells([[REF], [-2146826246]], [["a"], ["b"]], [["a"], ["b"]]) == cell_values.CellError("#N/A")
    shapes = "#VALUE! ranges differ in shape (1x1 vs 2x1 vs 1x1)"
    assert str(cells.paired_cells([[REF]], [["a"], ["b"]], [["a"]])) == shapes
    assert cells.paired_cells([[None]], [[None]], [[None]]) == cells.BLANK


def test_ci_cells_give_the_reference_numbers_for_a_seed() -> None:
    """The numbers bleu-xl 0.1.0 gave for this seed (see tests/core/test_bootstrap.py)."""
    golden = [(r, c) for r, c in make_pairs(300, seed=31, min_len=6) if tokenize(r)][:50]
    row = cells.ci_cells([[r] for r, _ in golden], [[c] for _, c in golden], 0.9, 300)
    assert row == [[0.608680504943393, 0.6603899352190586, 0.7101441834451422]]


def test_a_paired_test_whose_resamples_never_vary_is_an_error_cell() -> None:
    assert cells.paired_cells([["a b"]], [["a b"]], [["x"]], 99).message.startswith("every resample gives")


def test_an_interval_whose_resamples_never_vary_is_an_error_cell() -> None:
    # One pair (or pairs alike): an interval of no width would read as a certain score.
    assert cells.ci_cells([["le chat"]], [["le chien"]], 0.95, 1000).message.startswith("one pair, or pairs all alike")


def test_a_paired_test_of_fewer_than_20_resamples_is_an_error_cell_that_gives_the_minimum() -> None:
    refs, a, b = [["a b c"], ["d e f"]], [["a b"], ["d e"]], [["a b c"], ["d f"]]
    for samples in (19, 1, 0, -5):
        assert cells.paired_cells(refs, a, b, samples) == cell_values.CellError(
            "#VALUE!", "samples must be a whole number from 20 to 100000"
        )
    for samples, level, least in ((39, 0.95, 40), (1, 0.95, 40), (100, 0.99, 200)):  # each tail needs a resample
        assert cells.ci_cells(refs, a, level, samples) == cell_values.CellError(
            "#VALUE!", f"samples must be a whole number from {least} to 100000"
        )
    unlike = [["a b"], ["d e f"]]  # two pairs unlike: resamples vary
    assert cells.ci_cells(refs, unlike, 0.95, 40)[0][0] < cells.ci_cells(refs, unlike, 0.95, 40)[0][2]
    assert len(cells.paired_cells(refs, a, b, 20)[0]) == 4


def test_a_single_candidate_cell_is_not_spread_over_a_column_of_references() -> None:
    for result in (
        cells.paired_cells([["a b"], ["c d"]], [["a b"], ["x"]], [["a b"]], 100),
        cells.ci_cells([["a b"], ["c d"]], [["a b"]]),
        cells.corpus_cells([["a b"], ["c d"]], "a b"),
    ):
        assert isinstance(result, cell_values.CellError) and result.message.startswith("ranges differ in shape"), result
    # one reference cell still serves a column of candidates
    assert cells.corpus_cells("a b c", [["a b c"], ["a b c"]]) == 1.0


# --- ranges, settings and limits ---------------------------------------------------------------------------------


def test_a_range_of_candidates_against_a_long_repetitive_reference_is_linear() -> None:
    """A range of candidates costs, per candidate, about what one pair costs, even against Excel's longest cell
    whose ideographs repeat about 11 times over (see the same for score_many in tests/core/test_bleu.py)."""
    from benchmarks.bench_clipping import cjk_texts

    ref_cjk, cands = cjk_texts(32_767, 3)
    column = [[c] for c in cands]
    single = best_seconds(lambda: [score(ref_cjk, c) for c in cands]) / len(cands)
    in_range = best_seconds(lambda: cells.bleu_cells(ref_cjk, column)) / len(cands)
    assert in_range < 3 * single, (in_range, single)
    assert cells.bleu_cells(ref_cjk, column) == [[score(ref_cjk, c).bleu] for c in cands]


def test_the_reference_cache_is_bounded_by_what_it_holds_not_only_by_entries() -> None:
    """Entries and bytes held both bound it, least recently used out first; a set over the budget is not kept."""

    bleu = Bleu()

    def size(text: str) -> int:
        return bleu.held_size((text,), References((text,), 2))

    budget = size("one two") + size("five six") + size("seven eight")
    cache = cells.ReferenceCache(entries=3, limit=budget)
    for text in ("one two", "three four", "five six"):
        cache(bleu, (text,))
    cache(bleu, ("one two",))  # used again: now the most recent
    cache(bleu, ("seven eight",))
    assert [texts for texts, _ in cache.held] == [("five six",), ("one two",), ("seven eight",)]
    assert cache.size == budget
    cache(bleu, (" ".join(["a much longer reference text"] * 40),))  # over the budget alone
    assert len(cache.held) == 3 and cache.size <= budget
    long = "nine ten eleven twelve thirteen fourteen fifteen sixteen"
    assert size(long) + size("seven eight") > budget >= size(long)
    cache(bleu, (long,))  # older entries go until it fits
    assert [texts for texts, _ in cache.held] == [(long,)] and cache.size == size(long)
    assert cache(bleu, (long,)) is cache.held[(long,), bleu.preparation][0]


def test_text_of_a_str_subclass_scores_as_text() -> None:
    class Text(str):  # what numpy.str_ and other libraries hand over
        pass

    assert cells.bleu_cells("a b c", Text("a b c")) == 1.0
    assert cells.detail_cells("a b c", Text("a b c"))[0][:2] == [1.0, 1.0]
    assert cells.explain_cells("a b c", Text("a b c")) == "exact match"


def test_results_stay_within_excel_limits() -> None:
    cjk = "東" * 20_000  # 20,000 tokens: more than a row's 16,384 columns
    spilled = cells.tokens_cells(cjk)
    assert isinstance(spilled, cell_values.CellError) and "16,384" in spilled.message
    assert cells.tokens_cells([[cjk]], " ") == cell_values.CellError("#VALUE!", "tokens too long for a cell")
    summary = cells.explain_cells("".join(chr(0x4E00 + i) for i in range(20_000)), "x")  # 20,000 missing
    assert len(summary) == 32_767 and summary.endswith("…")


def test_text_results_are_cut_by_utf16_units_as_excel_counts() -> None:
    """A character past U+FFFF takes two of a cell's 32,767 units: an explanation of such characters is cut to
    the units, and their tokens joined past them are refused."""
    astral = "".join(chr(0x20000 + i) for i in range(20_000))  # CJK Extension B: 20,000 tokens, two units each
    summary = cells.explain_cells(astral, "x")
    units = sum(2 if ord(ch) > 0xFFFF else 1 for ch in summary)
    assert summary.endswith("…") and 32_765 <= units <= 32_767
    assert cells.tokens_cells([[astral[:16_384]]], "") == cell_values.CellError("#VALUE!", "tokens too long for a cell")


def test_a_setting_given_as_a_range_of_several_cells_is_refused() -> None:
    assert str(cells.tokens_cells([["a b"]], [[",", ";"]])) == "#VALUE! separator must be a single cell"
    assert str(cells.detail_cells("a b", "a b", [[False, False]])) == "#VALUE! headers must be a single cell"
    assert cells.bleu_cells("a b", "a b", "bleu", [[2]]) == 1.0  # one cell given as a 1x1 range is that cell


def test_a_setting_that_is_no_number_of_its_kind_is_a_short_error() -> None:
    """A count past what a row of Excel holds is no count of references, and NaN or an infinity is neither TRUE
    nor FALSE: each is #VALUE! with its reason, never a 309-digit signature or a header row."""
    assert str(cells.signature_cell(2, "add1", 1e308)) == "#VALUE! refs must be a whole number from 1 to 16384"
    assert str(cells.chrf_signature_cell(6, 0, 2, 16_385)) == "#VALUE! refs must be a whole number from 1 to 16384"
    assert cells.signature_cell(2, "add1", 16_384).endswith("|refs:16384")
    for flag in (float("nan"), float("inf"), float("-inf")):
        assert str(cells.detail_cells("a b", "a b", flag)) == "#VALUE! headers must be TRUE or FALSE"
    assert cells.detail_cells("a b", "a b", 1.0)[0][0] == "BLEU2" and cells.detail_cells("a b", "a b", 0)[0][0] == 1.0


def test_every_flag_of_every_function_reads_only_what_excel_reads_as_a_boolean() -> None:
    """TRUE or FALSE (in any case, as text too), 1 or 0, a blank for the default: any other text or number in a
    flag's place (``"maybe"``, ``"yes"``, the text ``"1"``, 2) is #VALUE! with the reason, never read as FALSE."""
    header = cells.detail_cells("a b", "a b", True)
    plain = cells.detail_cells("a b", "a b", False)
    for flag in (True, 1, 1.0, "TRUE", "true", " True "):
        assert cells.detail_cells("a b", "a b", flag) == header, flag
    for flag in (False, 0, 0.0, "FALSE", "false", None, ""):
        assert cells.detail_cells("a b", "a b", flag) == plain, flag
    for flag in ("maybe", "yes", "no", "1", "0", "VRAI", 2, -1, 0.5):
        assert str(cells.detail_cells("a b", "a b", flag)) == "#VALUE! headers must be TRUE or FALSE", flag
    for position, name in enumerate(("normalized", "no_punct", "asian_support", "case_sensitive")):
        switches: list[object] = [None] * 4
        switches[position] = "maybe"
        for function in (cells.ter_cells, cells.ter_corpus_cells, cells.ter_changes_cells):
            assert str(function("a b", "a b", *switches)) == f"#VALUE! {name} must be TRUE or FALSE"
        assert str(cells.ter_signature_cell(*switches)) == f"#VALUE! {name} must be TRUE or FALSE"
