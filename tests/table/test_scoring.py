"""Scoring a table: each row's outcome (a score, a blank candidate, or the error that is its note), ranks within a
reference, and the same results from the process pool as from one process."""

from __future__ import annotations

import gc
import weakref

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bleu_xl
from benchmarks.synthetic import make_pairs
from bleu_xl import Bleu, score
from bleu_xl.excel import cell_values, cells
from bleu_xl.table import columns, scoring
from bleu_xl.table import sheet as table_sheet
from tests.helpers import INTACTO, REF, SHORT


def test_rows_are_named_and_notes_are_typed_errors() -> None:
    table = table_sheet.Sheet(
        "t",
        [["Reference", "Candidate"], [REF, INTACTO], [cell_values.CellError("#N/A"), SHORT], [REF, None], ["...", "x"]],
        ["t"],
    )
    result = scoring.score_table(table, columns.find_layout(table), workers=1)
    scored, missing, blank, no_words = result.outcomes
    s = score(REF, INTACTO)
    assert scored == s and scored.refs == 1
    assert scored.stats == (((9, 8), (10, 9), 10, 11))  # matches, totals, c, r
    assert Bleu().detail_values(scored) == [0.9, 9, 10, 8 / 9, 8, 9, s.bp, 11, 10]
    assert isinstance(missing, cell_values.CellError) and (missing.code, missing.message) == (
        "#N/A",
        "#N/A in the reference",
    )
    assert isinstance(blank, cell_values.Blank)
    assert isinstance(no_words, cell_values.CellError) and no_words.code == "#VALUE!"
    assert no_words.message == "reference has no words"
    assert result.result_row(0) == [s.bleu, *Bleu().detail_values(s), None]  # one candidate: no rank
    assert result.result_row(1)[-1] == "#N/A in the reference" and result.result_row(2)[-1] is None
    assert (result.scored, result.blank, result.problems) == (1, 1, 2)


texts = st.sampled_from(["le chat noir", "un chien", "...", "", "le chat", "Le  chat noir ", "東京 été"])


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(texts, texts), min_size=1, max_size=12))
def test_a_table_scores_each_row_as_the_excel_functions_do(rows: list[tuple[str, str]]) -> None:
    """Rows sharing a reference one after the other or further down, blank ones, one no metric can use (BLEU needs
    words): each row scores as the same pair does through the Excel layer's cache of prepared references."""
    table = table_sheet.Sheet("t", [["Reference", "Candidate"], *map(list, rows)], ["t"])
    try:
        layout = columns.find_layout(table)
    except table_sheet.InputError:  # no candidate at all, say: a table refused before it is scored
        assume(False)
    pairs = scoring.pairs_of(table, layout)
    for metric in (Bleu(), bleu_xl.Chrf(), bleu_xl.Ter()):
        result = scoring.score_table(table, layout, metrics=[metric], workers=1)
        assert result.outcomes == cells.score_pairs(pairs, metric, metric.score_from_stats)


def test_process_pool_matches_single_process() -> None:
    pairs = make_pairs(scoring.PARALLEL_MIN_PAIRS + 500, seed=9)
    table = table_sheet.Sheet("t", [["Reference", "Candidate"], *[[r, c] for r, c in pairs]], ["t"])
    layout = columns.find_layout(table)
    one = scoring.score_table(table, layout, workers=1)
    two = scoring.score_table(table, layout, workers=2)
    assert one.outcomes == two.outcomes and one.ranks == two.ranks
    assert one.corpus == two.corpus
    # The sheet and the pairs, frozen while scoring runs, are thawed when it ends.
    assert gc.get_freeze_count() == 0


def test_rows_with_a_note_count_each_row_once() -> None:
    """A row TER cannot score (over 200 words) that BLEU scored against one of its two references has one note:
    the Summary's "Rows with a note" counts it once, as the note column shows it."""
    long_candidate = " ".join(["mot"] * 250)
    rows = [
        ["Reference A", "Reference B", "Candidate"],
        [REF, "", long_candidate],  # TER's note, and BLEU against 1 of 2 references
        [REF, REF, long_candidate],  # TER's note only
        [REF, "", SHORT],  # 1 of 2 references only
        [REF, REF, SHORT],  # no note
    ]
    table = table_sheet.Sheet("t", rows, ["t"])
    layout = columns.find_layout(table, table_sheet.TableOptions(reference_cols=["A", "B"]))
    result = scoring.score_table(table, layout, metrics=bleu_xl.metrics_named(["bleu", "ter"]), workers=1)
    notes = [result.note(i) for i in range(len(result.rows))]
    assert [note is not None for note in notes] == [True, True, True, False]
    assert result.problems == 3


def test_a_reference_one_metric_leaves_out_is_noted_for_that_metric_whatever_the_order() -> None:
    """BLEU leaves out a reference of punctuation alone, chrF and TER keep it: the note said "1 of 2 references"
    for all three, and "the others blank", when BLEU came first, and nothing when it did not."""
    from bleu_xl.core.errors import render

    rows = [
        ["Reference 1", "Reference 2", "Candidate"],
        ["the dog ran", "", "the dog ran fast"],  # blank: every metric scored it against one
        ["it rained", "...", "it rained"],  # BLEU against one, chrF and TER against both
        ["the cat sat", "a cat sat", "the cat sat"],
    ]
    table = table_sheet.Sheet("t", rows, ["t"])
    layout = columns.find_layout(table, table_sheet.TableOptions())
    for names in (["bleu", "chrf", "ter"], ["ter", "chrf", "bleu"]):
        result = scoring.score_table(table, layout, metrics=bleu_xl.metrics_named(names), workers=1)
        assert [result.note(i) for i in range(3)] == ["1 of 2 references", "BLEU-2: 1 of 2 references", None], names
        assert result.problems == 2 and result.fewer_references() == [0, 1]
        [note] = [render(n) for n in result.notes if "fewer than" in render(n)]
        assert "(the others blank, or with no words, which BLEU leaves out)" in note
    blank_only = scoring.score_table(table_sheet.Sheet("t", rows[:2], ["t"]), layout, workers=1)
    assert "(the others blank): the note column says how many" in render(blank_only.notes[0])


def test_garbage_made_while_a_table_is_scored_is_freed_by_a_collection(monkeypatch) -> None:
    """Scoring freezes the heap once, before it forks its workers, and pauses no collection: a cycle alive when one
    chunk's outcomes were added, dropped at the next, is freed by a collection then (an application scoring in a
    thread keeps collecting its garbage, by itself and automatically)."""
    monkeypatch.setattr(scoring, "CHUNK", 2)
    pairs = make_pairs(9, seed=4)
    table = table_sheet.Sheet("t", [["Reference", "Candidate"], *[[r, c] for r, c in pairs]], ["t"])

    class Node:
        pass

    held: list[Node] = []
    freed: list[bool] = []

    def progress(size: int) -> None:
        if held:
            probe = weakref.ref(held.pop())
            gc.collect()
            freed.append(probe() is None)
        node = Node()
        node.loop = node  # type: ignore[attr-defined]
        held.append(node)

    scoring.score_table(table, columns.find_layout(table), workers=1, progress=progress)
    assert freed and all(freed)
    assert gc.isenabled()
