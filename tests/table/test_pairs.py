"""A table's rows as pairs: the fast path of pairs_of gives pairs_of_literally's pairs, or refuses the same cell."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl.excel.cell_values import CellError
from bleu_xl.table import pairs
from bleu_xl.table.layout import Layout
from bleu_xl.table.sheet import InputError, Sheet

LIMIT = 12  # MAX_SCORED_TEXT while the test runs, so that a long text is a short one

texts = st.one_of(st.sampled_from(["le chat", "été", "#n/a", " #N/A", "word " * 3, "x" * 13]), st.text(max_size=14))
awkward = st.sampled_from([" ", "", "\t\n", "#N/A", "#SPILL!"])
others = st.one_of(
    st.none(),
    st.just(CellError("#N/A")),
    st.just(CellError("#DIV/0!", "why")),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.just(dt.datetime(2026, 12, 7)),
)
cell_values = st.one_of(texts, texts, texts, awkward, others)
full_rows = st.lists(cell_values, min_size=3, max_size=4)
rows_of_cells = st.lists(
    st.one_of(full_rows, full_rows, full_rows, st.lists(cell_values, max_size=2)), min_size=1, max_size=8
)


@st.composite
def layouts(draw: st.DrawFn, height: int) -> Layout:
    """A layout over a sheet of ``height`` rows: a candidate column and one or two reference columns (or a text),
    skipped, merged, filled and shared rows now and then."""
    header = draw(st.sampled_from([None, 0]))
    candidate = draw(st.integers(0, 2))
    one = st.lists(st.integers(0, 3).filter(lambda c: c != candidate), min_size=1, max_size=1)
    references = draw(
        st.one_of(
            one, one, st.lists(st.integers(0, 4).filter(lambda c: c != candidate), min_size=1, max_size=2, unique=True)
        )
    )
    below = range((0 if header is None else 1), height)
    layout = Layout(header, candidate, references)
    if draw(st.booleans()) and below:
        layout.skipped = frozenset(draw(st.lists(st.sampled_from(below), max_size=2)))
    which = draw(st.sampled_from(["plain", "plain", "plain", "plain", "text", "shared", "merged", "filled"]))
    if which == "text":
        layout.reference_text = draw(st.sampled_from(["le chat", "x" * 13]))
    elif which == "shared" and below:
        layout.shared_row = below[0]
    elif which == "merged" and len(below) > 1:
        layout.merged = {references[0]: [(below[0], below[-1])]}
    elif which == "filled" and len(below) > 1:
        layout.filled = [(below[0], below[-1])]
    return layout


def _outcome(call, *args):
    try:
        return call(*args)
    except InputError as refused:
        return ("refused", str(refused))


@settings(max_examples=600, deadline=None)
@given(data=st.data(), rows=rows_of_cells)
def test_pairs_of_gives_the_literal_pairs(data: st.DataObject, rows: list[list[object]]) -> None:
    """Every kind of cell (text, blank, white space, an error and an error's text, numbers, dates, a text past the
    longest scored), short rows, one or two reference columns and every kind of layout: the same pairs, or the same
    cell refused."""
    layout = data.draw(layouts(len(rows)))
    candidate_col = data.draw(st.sampled_from([None, None, None, 0, 2]))
    sheet = Sheet("t", rows, ["t"], encoding=data.draw(st.sampled_from([None, "utf-8"])))  # a workbook's, a CSV's
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairs, "MAX_SCORED_TEXT", LIMIT)
        fast = _outcome(pairs.pairs_of, sheet, layout, candidate_col)
        literal = _outcome(pairs.pairs_of_literally, sheet, layout, candidate_col)
    assert fast == literal
    if isinstance(fast, list):
        assert [type(p.candidate) for p in fast] == [type(p.candidate) for p in literal]


def test_the_fast_path_takes_the_plain_table() -> None:
    """A table of one reference column and plain texts: pairs of the texts themselves, with no copy made."""
    ref, cand = "le chat noir", "le chien noir"
    sheet = Sheet("t", [["Reference", "Candidate"], [ref, cand], [ref, " "], ["#N/A", cand]], ["t"])
    got = pairs.pairs_of(sheet, Layout(0, 1, [0]))
    assert got[0].references[0] is ref and got[0].candidate is cand
    assert got[1].candidate is None and isinstance(got[2].references, CellError)
    assert got == pairs.pairs_of_literally(sheet, Layout(0, 1, [0]))


@pytest.mark.parametrize("row", [["x" * 13, "le chat"], ["le chat", "x" * 13]])
def test_the_fast_path_refuses_a_text_too_long(monkeypatch: pytest.MonkeyPatch, row: list[str]) -> None:
    monkeypatch.setattr(pairs, "MAX_SCORED_TEXT", LIMIT)
    sheet = Sheet("t", [["Reference", "Candidate"], ["le chat", "le chien"], row], ["t"])
    where = "A3" if len(row[0]) > LIMIT else "B3"
    with pytest.raises(InputError, match=f"^cell {where} holds 13 characters"):
        pairs.pairs_of(sheet, Layout(0, 1, [0]))


@pytest.mark.parametrize("value", [" ", "", "\t\n", "#N/A", "#n/a", "x" * 13, None, CellError("#N/A"), 2, 0.5, True])
@pytest.mark.parametrize("side", [0, 1])
def test_each_awkward_cell_on_either_side(monkeypatch: pytest.MonkeyPatch, value: object, side: int) -> None:
    """Each cell the fast path must leave to the literal reading, in the reference column and in the candidate's."""
    monkeypatch.setattr(pairs, "MAX_SCORED_TEXT", LIMIT)
    row: list[object] = ["le chat", "le chien"]
    row[side] = value
    sheet = Sheet("t", [["Reference", "Candidate"], ["le chat", "le chien"], row], ["t"])
    layout = Layout(0, 1, [0])
    assert _outcome(pairs.pairs_of, sheet, layout, None) == _outcome(pairs.pairs_of_literally, sheet, layout, None)


def test_a_reference_that_shares_no_word_with_any_candidate_is_marked() -> None:
    """A document number labelled Reference above the table, read as every row's reference: no candidate shares a
    word with it, which a note says, over two candidates or more. One candidate sharing one word is enough not
    to; blanks and errors count not."""
    brief = ("BRIEF-2026-017",)
    three = [pairs.Pair(brief, "Free delivery"), pairs.Pair(brief, "Shop now"), pairs.Pair(brief, "Sale")]
    assert pairs.shares_no_word(three)
    assert pairs.shares_no_word(three[:2]) and not pairs.shares_no_word(three[:1])
    assert not pairs.shares_no_word([pairs.Pair(brief, "Free delivery"), pairs.Pair(brief, "brief 2026")])
    assert not pairs.shares_no_word([pairs.Pair(brief, "Free delivery"), pairs.Pair(brief, None)])  # one pair only
    several = ("le chat", "the cat")
    assert not pairs.shares_no_word([pairs.Pair(several, "a cat"), pairs.Pair(several, "un chien")])
    assert pairs.shares_no_word(
        [
            pairs.Pair(several, "a dog"),
            pairs.Pair(CellError("#N/A"), "x"),
            pairs.Pair(several, "un chien"),
            pairs.Pair(several, "der Hund"),
        ]
    )


class _Text(str):
    """A string of a subclass (numpy.str_ is one): read as its text, never as a plain string's fast path."""


@settings(max_examples=600, deadline=None)
@given(data=st.data(), rows=rows_of_cells)
def test_rows_with_references_are_the_literal_ones(data: st.DataObject, rows: list[list[object]]) -> None:
    """Whether each row has a reference (the column rules' blank-reference note, fill down), read in one loop for a
    plain table: the same as each cell read through ``Layout.cell`` and ``cell_text``, for every kind of cell (a
    string subclass of spaces too), short rows and rows past the sheet, merged and filled references."""
    rows = [[_Text(v) if isinstance(v, str) and data.draw(st.booleans()) else v for v in row] for row in rows]
    layout = data.draw(layouts(len(rows)))
    which = data.draw(st.lists(st.integers(0, len(rows)), max_size=len(rows) + 2))
    assert layout.rows_with_references(rows, which) == layout.rows_with_references_literally(rows, which)
