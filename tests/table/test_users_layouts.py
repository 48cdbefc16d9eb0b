"""Layouts people make, scored as they mean them: a reference typed once, a reference per row, a table's totals
row, hidden and filtered-out rows, an empty column given by letter, a machine where the process pool cannot start.

Every score is checked against sacrebleu's statistics (with bleu-xl's tokens and add-1 smoothing applied to
sacrebleu's counts), so the layout, not the formula, is what these tests are about.
"""

from __future__ import annotations

import _multiprocessing
import errno
import json
import multiprocessing.synchronize  # noqa: F401 - imported before SemLock is replaced, as a pool imports it
import unicodedata
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF

from benchmarks.synthetic import make_pairs
from bleu_xl import tokenize
from bleu_xl.core.errors import render
from bleu_xl.core.metrics import Bleu, Chrf
from bleu_xl.core.metrics.bleu import Score, Stats, score_from_stats
from bleu_xl.table import columns, scoring
from bleu_xl.table.sheet import CellRange, InputError, Sheet, TableOptions
from tests.helpers import run, xlsx_text

REF = "Free delivery on every order this week"
VARIANTS = [
    "Free delivery on every order",
    "Free delivery this week on every order",
    "Get free shipping on all orders",
    "Free delivery on every order this week",
    "This week: free delivery, every order",
]


def oracle(references: list[str], candidate: str, max_n: int = 2) -> Score:
    """sacrebleu's counts for bleu-xl's tokens, with bleu-xl's add-1 smoothing: an independent count."""
    metric = BLEU(tokenize="none", max_ngram_order=max_n, smooth_method="none", effective_order=False)
    res = metric.sentence_score(" ".join(tokenize(candidate)), [" ".join(tokenize(r)) for r in references])
    stats = Stats(tuple(res.counts), tuple(res.totals), res.sys_len, res.ref_len)
    return score_from_stats(stats, smoothing="add1", refs=len(references))


# --- a reference typed once, in the first data row ---------------------------------------------------------------


def typed_once(count: int = 199) -> list[list]:
    candidates = [pair[1] or "x" for pair in make_pairs(count, seed=20)]
    return [["Reference", "Candidate"], [REF, candidates[0]], *[[None, c] for c in candidates[1:]]]


def test_a_reference_typed_once_is_the_reference_of_every_candidate() -> None:
    rows = typed_once()
    sheet = Sheet("Copy", rows, ["Copy"])
    layout = columns.find_layout(sheet)
    assert layout.shared_row == 1 and layout.reference_source == "A2"
    result = scoring.score_table(sheet, layout, workers=1)
    assert (result.scored, result.blank, result.problems) == (199, 0, 0)
    assert all(outcome == oracle([REF], row[1]) for outcome, row in zip(result.outcomes, rows[1:]))
    assert sorted(r for r in result.ranks if r is not None)[0] == 1  # one reference: ranked together


def test_the_reference_typed_once_is_said_in_one_line(tmp_path: Path) -> None:
    path = xlsx_text(tmp_path / "once.xlsx", typed_once())
    result = run("score", str(path), "-o", str(tmp_path / "once.csv"))
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines == [
        f"bleu-xl: {path}, sheet 'Copy': header row 1; candidate B 'Candidate'; reference A2, the only filled cell "
        "of A 'Reference', for every candidate"
    ]
    assert "BLEU-2: 199 scored, 0 blank, 0 with a note" in result.stdout


def test_a_single_pair_or_two_references_are_no_reference_typed_once() -> None:
    one = Sheet("t", [["Reference", "Candidate"], [REF, VARIANTS[0]], [None, None]], ["t"])
    assert columns.find_layout(one).shared_row is None
    two = Sheet("t", [["Reference", "Candidate"], [REF, VARIANTS[0]], [REF, VARIANTS[1]], [None, "x"]], ["t"])
    layout = columns.find_layout(two)
    assert layout.shared_row is None
    assert scoring.score_table(two, layout, workers=1).problems == 1  # the third row's blank reference


def test_numbered_references_typed_once_serve_every_candidate() -> None:
    rows = [["Reference 1", "Reference 2", "Candidate"], [REF, "Free shipping this week", VARIANTS[0]]]
    rows += [[None, None, v] for v in VARIANTS[1:]]
    sheet = Sheet("t", rows, ["t"])
    layout = columns.find_layout(sheet)
    assert layout.shared_row == 1 and layout.reference_source == "A2, B2"
    result = scoring.score_table(sheet, layout, workers=1)
    assert result.outcomes == [oracle([REF, "Free shipping this week"], v) for v in VARIANTS]


def test_a_reference_typed_once_above_the_first_candidate_serves_every_candidate() -> None:
    rows = [["Reference", "Candidate"], [REF, None], *[[None, v] for v in VARIANTS]]
    sheet = Sheet("t", rows, ["t"])
    layout = columns.find_layout(sheet)
    assert layout.shared_row == 1
    assert scoring.score_table(sheet, layout, workers=1).outcomes[1:] == [oracle([REF], v) for v in VARIANTS]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (  # the only reference beside the second of three candidates: its own row's, or everyone's?
            [["Reference", "Candidate"], [None, VARIANTS[0]], [REF, VARIANTS[1]], [None, VARIANTS[2]]],
            "the reference column A 'Reference' is filled only in A3, below the first candidate (B2): the reference "
            "of row 3 alone, or of every candidate? Type it in row 2 or above for every candidate, fill in the "
            "reference of each row, or give it with reference_text",
        ),
        (
            [["Reference 1", "Reference 2", "Candidate"], [None, None, VARIANTS[0]], [None, REF, VARIANTS[1]]],
            "the reference columns A 'Reference 1', B 'Reference 2' are filled only in B3, below the first candidate "
            "(C2): the reference of row 3 alone, or of every candidate? Type it in row 2 or above for every "
            "candidate, fill in the reference of each row, or give it with reference_text",
        ),
    ],
)
def test_a_lone_reference_below_the_first_candidate_is_refused(rows: list[list], expected: str) -> None:
    with pytest.raises(InputError) as raised:
        columns.find_layout(Sheet("t", rows, ["t"]))
    assert str(raised.value) == f"sheet 't': {expected}"


def test_below_a_hidden_first_candidate_the_reference_serves_the_rows_read() -> None:
    # A filter hid row 2; the reference was typed beside the first candidate the user sees, in row 3. Left out,
    # row 2 is not a candidate and the reference serves every row read; scored, row 2 is the first candidate.
    rows = [["Reference", "Candidate"], [None, VARIANTS[0]], [REF, VARIANTS[1]], *[[None, v] for v in VARIANTS[2:]]]
    sheet = Sheet("Copy", rows, ["Copy"], hidden_rows=frozenset({1}))
    layout = columns.find_layout(sheet, TableOptions(skip_hidden=True))
    assert layout.shared_row == 2
    assert scoring.score_table(sheet, layout, workers=1).outcomes == [oracle([REF], v) for v in VARIANTS[1:]]
    with pytest.raises(InputError) as raised:
        columns.find_layout(sheet)
    assert "filled only in A3, below the first candidate (B2, in a hidden row)" in str(raised.value)


# --- ranks only among candidates that share a reference ----------------------------------------------------------

TRANSLATIONS = [
    ("Le colis est arrivé à l'heure", "Le colis est arrivé à l'heure"),
    ("Livraison offerte sur toute commande", "Livraison gratuite pour chaque commande"),
    ("Votre commande a été expédiée", "Votre commande est partie"),
    ("Merci de votre achat", "Merci pour votre achat"),
    ("Paiement sécurisé", "Paiement sûr"),
    ("Retours gratuits sous 30 jours", "Retour gratuit en 30 jours"),
]


def test_ranks_are_given_only_among_candidates_that_share_a_reference() -> None:
    rows = [["Product", "Reference", "Candidate"]]
    rows += [["A", REF, v] for v in VARIANTS[:3]]
    rows += [["B", "Our new summer collection is here", v] for v in ("Our summer collection is here", "New in")]
    rows += [["C", "Paiement sécurisé", "Paiement sûr"]]  # alone with its reference
    result = scoring.score_table(Sheet("t", rows, ["t"]), columns.find_layout(Sheet("t", rows, ["t"])), workers=1)
    bleu = [o.bleu for o in result.outcomes]
    assert result.ranks[:3] == [sorted(bleu[:3], reverse=True).index(b) + 1 for b in bleu[:3]]
    assert result.ranks[3:5] == [1, 2] and bleu[3] > bleu[4]
    assert result.ranks[5] is None  # nothing to rank it against
    assert result.ranked and [c.name for c in result.columns][:2] == ["BLEU-2", "rank"]


#: One reference typed three ways: as typed on Windows (NFC), with a trailing space, pasted from a Mac (NFD).
SUMMER = "Livraison offerte cet \u00e9t\u00e9"
SUMMER_SPACE = SUMMER + " "
SUMMER_NFD = unicodedata.normalize("NFD", SUMMER)
SPELT = [
    (SUMMER, "Livraison offerte cet \u00e9t\u00e9"),
    (SUMMER_SPACE, "Livraison gratuite cet \u00e9t\u00e9"),
    (SUMMER_NFD, "Livraison offerte"),
    (SUMMER, "Offerte"),
]


def test_references_bleu_reads_alike_are_one_reference_for_the_ranks() -> None:
    assert SUMMER_NFD != SUMMER and tokenize(SUMMER_NFD) == tokenize(SUMMER_SPACE) == tokenize(SUMMER)
    rows = [["Reference", "Candidate"], *[list(pair) for pair in SPELT]]
    sheet = Sheet("t", rows, ["t"])
    result = scoring.score_table(sheet, columns.find_layout(sheet), workers=1)
    # Each row scores against its own cell exactly as against the NFC text: one reference to BLEU.
    assert result.outcomes == [oracle([ref], cand) for ref, cand in SPELT] == [oracle([SUMMER], c) for _, c in SPELT]
    bleu = [o.bleu for o in result.outcomes]
    assert result.ranks == [sorted(bleu, reverse=True).index(b) + 1 for b in bleu] == [1, 2, 3, 4]


def test_references_chrf_reads_apart_are_ranked_apart() -> None:
    # sacrebleu's chrF reads no whitespace, so the trailing space is the same reference; it does not normalise
    # Unicode, so the NFD spelling scores otherwise and is another reference.
    metric = CHRF()
    cand = SPELT[2][1]
    assert metric.sentence_score(cand, [SUMMER_SPACE]).score == metric.sentence_score(cand, [SUMMER]).score
    assert metric.sentence_score(cand, [SUMMER_NFD]).score != metric.sentence_score(cand, [SUMMER]).score
    rows = [["Reference", "Candidate"], *[list(pair) for pair in SPELT]]
    sheet = Sheet("t", rows, ["t"])
    result = scoring.score_table(sheet, columns.find_layout(sheet), metrics=[Chrf()], workers=1)
    chrf = [float(o) for o in result.outcomes]
    assert chrf == [pytest.approx(metric.sentence_score(c, [r]).score / 100, abs=1e-12) for r, c in SPELT]
    shared = sorted((chrf[i] for i in (0, 1, 3)), reverse=True)
    assert result.ranks == [shared.index(chrf[0]) + 1, shared.index(chrf[1]) + 1, None, shared.index(chrf[3]) + 1]


def test_the_words_of_chrf_plus_plus_tell_references_apart() -> None:
    # "on line" and "online" hold the same characters: one reference to chrF, two to chrF++.
    pairs = [("Order on line today", "Order online"), ("Order online today", "Order online today now")]
    assert Chrf().reference_key((pairs[0][0],)) == Chrf().reference_key((pairs[1][0],))
    assert Chrf(word_order=2).reference_key((pairs[0][0],)) != Chrf(word_order=2).reference_key((pairs[1][0],))
    sheet = Sheet("t", [["Reference", "Candidate"], *[list(pair) for pair in pairs]], ["t"])
    ranked = scoring.score_table(sheet, columns.find_layout(sheet), metrics=[Chrf()], workers=1)
    assert sorted(ranked.ranks) == [1, 2] and float(ranked.outcomes[0]) != float(ranked.outcomes[1])
    apart = scoring.score_table(sheet, columns.find_layout(sheet), metrics=[Chrf(word_order=2)], workers=1)
    assert apart.ranks == [None, None] and not apart.ranked


def test_a_reference_per_row_gives_no_rank_and_lists_the_lowest_rows(tmp_path: Path) -> None:
    rows = [["Référence", "Candidat"], *[list(pair) for pair in TRANSLATIONS]]
    sheet = Sheet("t", rows, ["t"])
    result = scoring.score_table(sheet, columns.find_layout(sheet), workers=1)
    assert result.ranks == [None] * len(TRANSLATIONS) and not result.ranked
    assert "rank" not in [c.name for c in result.columns]
    assert result.outcomes == [oracle([r], c) for r, c in TRANSLATIONS]

    path = tmp_path / "translations.csv"
    path.write_text("\n".join(",".join(row) for row in rows) + "\n", encoding="utf-8")
    done = run("score", str(path), "-o", str(tmp_path / "out.json"))
    assert done.exit_code == 0, done.output
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert all("rank" not in row for row in document["rows"])
    assert "the lowest 5 of 6 (all in" in done.stdout and "rank" not in done.stdout
    lowest = sorted(range(len(TRANSLATIONS)), key=lambda i: result.outcomes[i].bleu)[:5]
    table_rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert [int(line.split("│")[1]) for line in table_rows] == [i + 2 for i in lowest]  # as Excel numbers rows


# --- a table's totals row; hidden and filtered-out rows ----------------------------------------------------------


def marked_sheet() -> Sheet:
    """Rows 2-8 are data (1-based, as Excel shows them): 4 and 6 hidden, 7 filtered out, 8 the totals row."""
    rows = [["Reference", "Candidate"], *[[REF, v] for v in VARIANTS], [REF, "Free delivery"], ["Total", "7"]]
    return Sheet("Copy", rows, ["Copy"], hidden_rows=frozenset({3, 5, 6}), totals_rows=frozenset({7}))


def test_a_totals_row_is_never_a_candidate_and_hidden_rows_are_scored_and_counted() -> None:
    sheet = marked_sheet()
    layout = columns.find_layout(sheet)
    result = scoring.score_table(sheet, layout, workers=1)
    assert list(result.row_numbers) == [2, 3, 4, 5, 6, 7]  # the totals row (8) is not there
    assert result.outcomes == [oracle([REF], v) for v in [*VARIANTS, "Free delivery"]]
    assert [render(note) for note in layout.notes] == [
        "row 8, the totals row of an Excel table, is not a candidate",
        "3 hidden rows scored (hidden by hand or by a filter; skip_hidden leaves them out)",
    ]


def test_skip_hidden_leaves_hidden_and_filtered_rows_out() -> None:
    sheet = marked_sheet()
    layout = columns.find_layout(sheet, TableOptions(skip_hidden=True))
    result = scoring.score_table(sheet, layout, workers=1)
    assert list(result.row_numbers) == [2, 3, 5]
    assert result.outcomes == [oracle([REF], v) for v in (VARIANTS[0], VARIANTS[1], VARIANTS[3])]
    assert result.ranks == [3, 2, 1]
    assert render(layout.notes[-1]) == "3 hidden rows left out (hidden by hand or by a filter)"


def test_a_reference_typed_once_in_a_row_a_filter_hid_still_serves_the_rows_left_in() -> None:
    # A filter on the candidates hid row 2, the row where the reference was typed once: the row's candidate is
    # left out, not the reference every other candidate is scored against.
    rows = [["Reference", "Candidate"], [REF, VARIANTS[0]], *[[None, v] for v in VARIANTS[1:]]]
    sheet = Sheet("Copy", rows, ["Copy"], hidden_rows=frozenset({1, 3}))
    layout = columns.find_layout(sheet, TableOptions(skip_hidden=True))
    assert layout.shared_row == 1 and layout.reference_source == "A2"
    result = scoring.score_table(sheet, layout, workers=1)
    assert list(result.row_numbers) == [3, 5, 6]
    assert result.outcomes == [oracle([REF], v) for v in (VARIANTS[1], VARIANTS[3], VARIANTS[4])]
    assert [render(note) for note in layout.notes] == [
        "2 hidden rows left out (hidden by hand or by a filter)",
        "row 2 is hidden and left out, but A2, the reference typed once, still serves every candidate",
    ]


def test_leaving_hidden_rows_out_never_changes_the_scores_of_the_rows_left_in() -> None:
    # A reference per row, one of them in a hidden row: the visible one in row 4 is no reference typed once
    # for rows 3 and 5, whose references are blank whether or not row 2 is left out.
    rows = [["Reference", "Candidate"], [REF, VARIANTS[0]], [None, VARIANTS[1]], [REF, VARIANTS[2]], [None, "x y"]]
    sheet = Sheet("Copy", rows, ["Copy"], hidden_rows=frozenset({1}))
    every = scoring.score_table(sheet, columns.find_layout(sheet), workers=1)
    left_in = scoring.score_table(sheet, columns.find_layout(sheet, TableOptions(skip_hidden=True)), workers=1)
    assert list(left_in.row_numbers) == [3, 4, 5] and left_in.layout.shared_row is None
    assert left_in.outcomes == every.outcomes[1:]
    assert left_in.outcomes[1] == oracle([REF], VARIANTS[2]) and left_in.problems == 2


@pytest.mark.parametrize(
    ("rows", "hidden", "expected"),
    [
        (  # the reference of one candidate, typed in a hidden row
            [["Reference", "Candidate"], [REF, None], [None, VARIANTS[0]]],
            {1},
            "the reference column A 'Reference' holds text only in a hidden row (A2), which skip_hidden leaves out",
        ),
        (
            [["Reference", "Candidate"], *[[REF, v] for v in VARIANTS], [None, "x"]],
            {1, 2, 3, 4, 5},
            "the reference column A 'Reference' holds text only in hidden rows (A2, A3, A4 and 2 more), which "
            "skip_hidden leaves out",
        ),
        (
            [["Reference", "Candidate"], [REF, VARIANTS[0]], [REF, VARIANTS[1]], [REF, None]],
            {1, 2},
            "the candidate column B 'Candidate' holds text only in hidden rows (B2, B3), which skip_hidden leaves out",
        ),
    ],
)
def test_a_column_with_text_only_in_hidden_rows_left_out_names_those_cells(
    rows: list[list], hidden: set[int], expected: str
) -> None:
    sheet = Sheet("Copy", rows, ["Copy"], hidden_rows=frozenset(hidden))
    with pytest.raises(InputError) as raised:
        columns.find_layout(sheet, TableOptions(skip_hidden=True))
    assert str(raised.value) == f"sheet 'Copy': {expected}"
    columns.find_layout(sheet)  # hidden rows scored: the same sheet is read


# --- merged cells ---------------------------------------------------------------------------------------------------

SALE = "The summer sale starts now"
SALE_VARIANTS = ["The summer sale starts now", "Summer sale now", "The sale starts"]


def merged_sheet(merged: list[CellRange], rows: list[list] | None = None, **fields) -> Sheet:
    """References merged over the rows of their candidates (A2:A4 and A5:A7), as a workbook holds them: the
    value in the first cell of each range, the others blank."""
    if rows is None:
        rows = [["Reference", "Candidate"], [REF, VARIANTS[0]], [None, VARIANTS[1]], [None, VARIANTS[2]]]
        rows += [[SALE, SALE_VARIANTS[0]], [None, SALE_VARIANTS[1]], [None, SALE_VARIANTS[2]]]
    return Sheet("Copy", rows, ["Copy"], merged=tuple(merged), **fields)


def test_a_merged_reference_is_the_reference_of_every_row_it_spans() -> None:
    sheet = merged_sheet([CellRange(1, 0, 3, 0), CellRange(4, 0, 6, 0)])
    layout = columns.find_layout(sheet)
    assert [render(note) for note in layout.notes] == [
        "merged reference cells A2:A4, A5:A7: each is the reference of every row it spans"
    ]
    result = scoring.score_table(sheet, layout, workers=1)
    expected = [oracle([REF], v) for v in VARIANTS[:3]] + [oracle([SALE], v) for v in SALE_VARIANTS]
    assert result.outcomes == expected and result.problems == 0
    assert result.ranks[:3] == [2, 1, 3] and result.ranks[3:] == [1, 2, 2]  # ranked within each merged reference
    assert [row[0] for row in result.rows] == [REF, None, None, SALE, None, None]  # the input as it was
    # Unmerged, the same sheet has blank references: the merge is what makes them one.
    assert scoring.score_table(merged_sheet([]), columns.find_layout(merged_sheet([])), workers=1).problems == 4


def test_a_merged_reference_over_every_candidate_serves_them_all() -> None:
    rows = [["Reference", "Candidate"], [REF, VARIANTS[0]], *[[None, v] for v in VARIANTS[1:]]]
    sheet = merged_sheet([CellRange(1, 0, len(VARIANTS), 0)], rows)
    result = scoring.score_table(sheet, columns.find_layout(sheet), workers=1)
    assert result.outcomes == [oracle([REF], v) for v in VARIANTS] and None not in result.ranks


def test_a_merged_reference_whose_first_row_is_left_out_still_serves_its_rows() -> None:
    sheet = merged_sheet([CellRange(1, 0, 3, 0), CellRange(4, 0, 6, 0)], hidden_rows=frozenset({1}))
    layout = columns.find_layout(sheet, TableOptions(skip_hidden=True))
    result = scoring.score_table(sheet, layout, workers=1)
    assert list(result.row_numbers) == [3, 4, 5, 6, 7]
    assert result.outcomes[:2] == [oracle([REF], v) for v in VARIANTS[1:3]]


def test_a_merged_candidate_is_one_candidate_scored_in_its_first_row() -> None:
    # A candidate merged over three rows is one text: scored three times it would weigh three times in the ranks
    # and the corpus score. Its other rows are blank, and a note says why.
    rows = [["Reference", "Candidate"], [REF, VARIANTS[0]], [REF, None], [REF, None], [REF, VARIANTS[1]]]
    sheet = merged_sheet([CellRange(1, 1, 3, 1)], rows)
    layout = columns.find_layout(sheet)
    assert [render(note) for note in layout.notes] == [
        "merged candidate cells B2:B4: each is one candidate, scored in its first row"
    ]
    result = scoring.score_table(sheet, layout, workers=1)
    assert (result.scored, result.blank) == (2, 2)
    assert result.corpus == Bleu().corpus_of([oracle([REF], VARIANTS[0]), oracle([REF], VARIANTS[1])])


def test_merged_cells_that_show_another_columns_text_over_a_column_read_are_said() -> None:
    rows = [["ID", "Reference", "Candidate"], ["P-1", None, VARIANTS[0]], ["P-2", REF, VARIANTS[1]]]
    sheet = merged_sheet([CellRange(1, 0, 1, 1)], [*rows, ["P-3", REF, VARIANTS[2]]])  # A2:B2: an ID shown over B2
    layout = columns.find_layout(sheet)
    assert [render(note) for note in layout.notes] == [
        "the merged cells A2:B2 show the text of A2 over the reference column B 'Reference', which is blank there",
        "the reference cell B2 is blank: that row is not scored",
    ]
    assert scoring.score_table(sheet, layout, workers=1).note(0) == "reference is blank"
    # Two reference columns merged into one cell show one reference: read as one, nothing to say.
    rows = [["Reference 1", "Reference 2", "Candidate"], [REF, None, VARIANTS[0]], [REF, SALE, VARIANTS[1]]]
    sheet = merged_sheet([CellRange(1, 0, 1, 1)], rows)
    layout = columns.find_layout(sheet)
    assert not any("merged" in render(note) for note in layout.notes)
    assert scoring.score_table(sheet, layout, workers=1).outcomes[0] == oracle([REF], VARIANTS[0])


def test_merged_cells_above_the_data_and_overlapping_ones() -> None:
    title = [["Spring campaign", None], ["Reference", "Candidate"], [REF, VARIANTS[0]], [REF, VARIANTS[1]]]
    assert columns.find_layout(merged_sheet([CellRange(0, 0, 0, 1)], title)).notes == []  # a title: not data
    overlapping = merged_sheet([CellRange(1, 0, 4, 0), CellRange(3, 0, 6, 0)])
    with pytest.raises(InputError) as raised:
        columns.find_layout(overlapping)
    assert str(raised.value) == "sheet 'Copy': the merged cells A2:A5 and A4:A7 overlap; unmerge them"


# --- an empty column given by letter ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (
            [["Reference", "Candidate", "Notes"], [REF, VARIANTS[0], "ok"]],
            "the reference column D is empty below the header row 1 (the sheet's cells end at column C)",
        ),
        (
            [["Reference", "Candidate", "Notes", "Spare"], [REF, VARIANTS[0], "ok", None]],
            "the reference column D 'Spare' is empty below the header row 1",
        ),
        (
            [["Reference", "Candidate", "Notes", None, "More"], [REF, VARIANTS[0], "ok", None, "x"]],
            "the reference column D is empty below the header row 1",
        ),
    ],
)
def test_an_empty_reference_column_given_by_letter_is_one_line(tmp_path: Path, rows: list, expected: str) -> None:
    with pytest.raises(InputError) as refused:
        columns.find_layout(Sheet("Copy", rows, ["Copy"]), TableOptions(reference_cols=["D"]))
    assert expected in str(refused.value)
    for path in (xlsx_text(tmp_path / "copy.xlsx", rows), tmp_path / "copy.csv"):
        if path.suffix == ".csv":
            path.write_text("\n".join(",".join(v or "" for v in row) for row in rows) + "\n", encoding="utf-8")
        for command in (["score", str(path)], ["compare", str(path), "--a", "B", "--b", "C"]):
            done = run(*command, "--reference-col", "D", "-o", str(tmp_path / "never.csv"))
            assert done.exit_code == 2, done.output
            assert done.stderr.count("\n") == 1 and "column D" in done.stderr and expected in done.stderr
            assert "internal error" not in done.stderr and not (tmp_path / "never.csv").exists()


# --- no writable /dev/shm: the process pool cannot start ----------------------------------------------------------


def read_only_shm(*args, **kwargs):
    raise OSError(errno.EROFS, "Read-only file system")


def test_without_a_process_pool_the_scores_are_the_same_in_one_process(monkeypatch) -> None:
    pairs = make_pairs(scoring.PARALLEL_MIN_PAIRS + 100, seed=11)
    sheet = Sheet("t", [["Reference", "Candidate"], *[[r, c] for r, c in pairs]], ["t"])
    layout = columns.find_layout(sheet)
    one = scoring.score_table(sheet, layout, workers=1)
    # Every lock of a process pool is a POSIX semaphore in /dev/shm: on a read-only one, creating it fails so.
    monkeypatch.setattr(_multiprocessing, "SemLock", read_only_shm)
    steps: list[int] = []
    fallback = scoring.score_table(sheet, layout, workers=2, progress=steps.append)
    assert fallback.single_process == "Read-only file system"
    assert fallback.outcomes == one.outcomes and fallback.ranks == one.ranks and fallback.corpus == one.corpus
    assert sum(steps) == len(pairs)


def test_without_a_process_pool_the_command_says_so_once(tmp_path: Path, monkeypatch) -> None:
    pairs = make_pairs(scoring.PARALLEL_MIN_PAIRS + 100, seed=12)
    path = tmp_path / "big.csv"
    path.write_text(
        "Reference\tCandidate\n" + "".join(f"{r}\t{c}\n" for r, c in pairs if "\t" not in r + c), encoding="utf-8"
    )
    expected = run("score", str(path), "-o", str(tmp_path / "pool.csv"), "-q")
    assert expected.exit_code == 0, expected.output
    monkeypatch.setattr(_multiprocessing, "SemLock", read_only_shm)
    done = run("score", str(path), "-o", str(tmp_path / "one.csv"), "-q")
    assert done.exit_code == 0, done.output
    notes = [line for line in done.stderr.splitlines() if line.startswith("bleu-xl: note:")]
    assert notes == ["bleu-xl: note: scored in one process: no process pool here (Read-only file system)"]
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "pool.csv").read_bytes()
