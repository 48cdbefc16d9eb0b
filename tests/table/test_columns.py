"""The column rules on sheets in memory: which row holds the headers, which columns hold the candidates and the
references, and what is said when that cannot be told for sure.

A wrong guess would score the wrong pair without a word, so every rule either finds exactly one answer or refuses
with a message that shows the choice. Messages name the settings to change (``candidate_col='B'``); how the
command line spells them is checked in ``tests/cli``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bleu_xl import Precision, score
from bleu_xl.core.errors import Setting, render
from bleu_xl.table.columns import find_layout, find_table
from bleu_xl.table.layout import ColumnNotFound, Layout, MissingColumn, NoColumnsFound
from bleu_xl.table.scoring import Result, score_table
from bleu_xl.table.sheet import CellRange, InputError, Sheet, TableOptions

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
PAIR = score(REF, CAND).bleu  # 0.6703
OTHER = "Get free shipping on all orders"


def sheet(rows: list[list], name: str = "Copy", **fields) -> Sheet:
    return Sheet(name, rows, [name], **fields)


def layout_of(rows: list[list], *, hidden: frozenset[int] = frozenset(), **options) -> Layout:
    return find_layout(sheet(rows, hidden_columns=hidden), TableOptions(**options))


def refusal(rows: list[list], *, kind: type[InputError] = InputError, hidden=frozenset(), **options) -> InputError:
    with pytest.raises(kind) as raised:
        layout_of(rows, hidden=hidden, **options)
    return raised.value


def described(layout: Layout) -> str:
    """The line the faces say on every run, settings spelt as Python passes them."""
    return render(layout.describe())


def scores(rows: list[list], **options) -> Result:
    table = sheet(rows)
    return score_table(table, find_layout(table, TableOptions(**options)), workers=1)


def bleu(rows: list[list], **options) -> list[float | None]:
    result = scores(rows, **options)
    return [result.value(i) for i in range(len(result.outcomes))]


# --- headers by name -------------------------------------------------------------------------------------------


def test_an_exact_candidate_header_wins_over_a_qualified_one() -> None:
    rows = [["Product reference", "Reference", "Candidate ID", "Candidate"], ["P-1", REF, "V1", CAND]]
    layout = layout_of(rows)
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 3, [1])
    assert described(layout) == "header row 1; candidate D 'Candidate'; reference B 'Reference'"
    assert bleu(rows) == [PAIR] and round(PAIR, 4) == 0.6703


@pytest.mark.parametrize(
    "second",
    ["Reference 2", "Reference (2)", "Reference #2", "Reference [2]", "Reference (#2)", "Reference no. 2"],
)
def test_a_numbered_reference_beside_reference_is_a_second_reference_however_numbered(second: str) -> None:
    rows = [["Reference", "Candidate", second], [REF, CAND, OTHER]]
    assert layout_of(rows).reference_cols == [0, 2]


@pytest.mark.parametrize(
    "headers, what",
    [
        (["Reference", "Reference (FR)", "Candidate"], "reference"),  # English and French: which one is meant?
        (["Reference", "Reference v2", "Candidate"], "reference"),
        (["Reference", "Reference B", "Candidate"], "reference"),
        (["Reference 1", "Reference 2", "Reference [pt-BR]", "Candidate"], "reference"),
        (["Reference", "Candidate", "Candidate (2)"], "candidate"),
        (["Reference", "Candidate", "Candidate #2"], "candidate"),
        (["Reference", "Candidate", "Candidate v2"], "candidate"),
        (["Reference", "Candidate", "Candidate (FR)"], "candidate"),
        (["Reference", "Reference FR", "Candidate"], "reference"),
        (["Reference", "Reference VI", "Candidate"], "reference"),  # Vietnamese, not a Roman six
        (["Reference", "Reference (French)", "Candidate"], "reference"),
        (["Reference", "Candidate", "Candidate v2 (FR)"], "candidate"),
        (["Reference", "Reference 2024", "Candidate"], "reference"),  # a year: a version, not a second reference
        (["Reference", "Reference (2024)", "Candidate"], "reference"),
        # Joined by a mark: no known name (a header row is never found by one), but a tagged one all the same.
        (["Reference", "Reference_fr", "Candidate"], "reference"),
        (["Reference", "Reference-FR", "Candidate"], "reference"),
        (["Reference", "Reference(FR)", "Candidate"], "reference"),
        (["Reference", "Reference_pt_BR", "Candidate"], "reference"),
        (["Reference", "Reference_2", "Candidate"], "reference"),  # a second reference, or a second version?
        (["Reference (EN)", "Reference_fr", "Candidate"], "reference"),
        (["Reference 1", "Reference 2", "Reference_fr", "Candidate"], "reference"),
        (["Reference", "Candidate", "Candidate_v2"], "candidate"),
        (["Reference", "Reference/FR", "Candidate"], "reference"),
        (["Reference", "Reference: FR", "Candidate"], "reference"),
        (["Reference", "Reference - FR", "Candidate"], "reference"),
        (["Reference", "Reference – FR", "Candidate"], "reference"),  # Excel's dash, as it corrects " - "
        (["Reference", "Reference (es-419)", "Candidate"], "reference"),
        (["Reference", "Reference (Français)", "Candidate"], "reference"),
        (["Référence", "Référence (anglais)", "Candidat"], "reference"),
        (["Referência", "Referência (inglês)", "Candidato"], "reference"),
    ],
)
def test_a_tagged_name_beside_the_plain_one_is_ambiguous(headers: list[str], what: str) -> None:
    """A second column of the role tagged with a language, a version or a letter was left out without a word:
    French candidates were scored against the English reference beside ``Reference (FR)``."""
    rows = [headers, [REF, CAND, OTHER, OTHER][: len(headers)]]
    assert f"columns could be the {what}" in render(refusal(rows).parts)


@pytest.mark.parametrize(
    "other",
    [
        "Reference (ID)",
        "Reference (old)",
        "Reference (URL)",
        "Reference_ID",
        "Reference notes",
        "Reference II",
        "Reference_notes",
        "Reference-free QE",
    ],
)
def test_other_words_beside_the_plain_name_tag_nothing(other: str) -> None:
    """Words that are no language, version, year or letter (an id, an old copy, a link) leave the plain name its
    column, as before: refusing them would refuse ordinary sheets."""
    rows = [["Reference", other, "Candidate", "Candidate (old)", "Candidate (MT)"], [REF, "x", CAND, "y", "z"]]
    layout = layout_of(rows)
    assert (layout.candidate_col, layout.reference_cols) == (2, [0])


def test_a_tagged_column_of_numbers_alone_is_no_text_of_the_role() -> None:
    """``candidate_ms`` (milliseconds, or Malay?) holds numbers alone: a measure of the candidate, not a second
    one. Any other text makes it one (``NA``, ``5 min``, ``Yes``: short UI strings are texts of the role); so does
    an empty column, the one meant, left to fill."""
    rows = [["id", "reference", "candidate", "candidate_ms", "Candidate (n)"], [0, REF, CAND, 812, "7"]]
    layout = layout_of(rows)
    assert (layout.candidate_col, layout.reference_cols) == (2, [1])
    # As exports write numbers, dates, truth values, errors and no value; the header repeated too.
    numbers = [" 812", "1,204", "12%", "1.50e-05", "#N/A", "#DIV/0!", True, "NA", "N/A", "null", "None", "NaN", "-"]
    rows += [[i, REF, CAND, number, "7"] for i, number in enumerate([*numbers, "\u2014", "candidate_ms "], 2)]
    layout = layout_of(rows)
    assert layout.candidate_col == 2
    said = "D 'candidate_ms', E 'Candidate (n)' named as the candidate but holding numbers alone: read as a measure"
    assert [render(note)[: len(said)] for note in layout.notes] == [said]
    for text in ["5 min", "Yes", "OK", "800 ms", "True", "2024-05-01"]:  # texts: short UI strings are
        refused = refusal([*rows, [99, REF, CAND, text, "7"]])
        assert "2 columns could be the candidate (C 'candidate', D 'candidate_ms')" in render(refused.parts)
    empty = [["Reference", "Reference_fr", "Candidate"], [REF, "", CAND]]
    assert "could be the reference" in render(refusal(empty).parts)


def test_a_qualified_name_left_unused_beside_numbered_ones_is_named() -> None:
    """Numbered names win over a qualified one (an older rule): the one left unused is said, with the setting."""
    layout = layout_of([["Reference (approved)", "Reference 2", "Candidate"], [REF, OTHER, CAND]])
    assert layout.reference_cols == [1]
    said = "A 'Reference (approved)' also named as the reference: not used; to use it, give it with reference_cols"
    assert any(render(note).startswith(said) for note in layout.notes)
    # One candidate must be chosen: "Candidate (2)" beside "Candidate text" is ambiguous.
    refused = refusal([["Reference", "Candidate text", "Candidate (2)"], [REF, CAND, OTHER]])
    assert "2 columns could be the candidate (B 'Candidate text', C 'Candidate (2)')" in render(refused.parts)


def test_a_name_joined_to_a_word_is_no_known_name() -> None:
    """Nothing is split off a name joined to it: a row of ``Reference: …`` metadata or a summary table's
    ``Reference_set`` or ``Reference_1`` above the real header row is no header row, and ``Reference-free QE`` is no
    reference."""
    rows = [
        ["Reference: Brand book 2024", "Candidate: Agency X, round 2"],
        [],
        ["Reference_set", "Candidate_system"],
        ["Reference_1", "Candidate_1"],
        ["Reference", "Candidate"],
        [REF, CAND],
    ]
    layout = layout_of(rows)
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (4, 1, [0])
    refused = refusal([["Source", "Candidate", "Reference-free QE"], ["x", CAND, 0.8]], kind=MissingColumn)
    assert "no reference column" in render(refused.parts)


def test_a_tagged_name_alone_is_its_column() -> None:
    rows = [["Reference (FR)", "Candidate (FR)", "Notes"], [REF, CAND, "ok"]]
    layout = layout_of(rows)
    assert (layout.candidate_col, layout.reference_cols) == (1, [0])


def test_ids_and_notes_beside_a_reference_are_not_references() -> None:
    rows = [["Reference ID", "Reference", "Candidate", "Reference notes"], ["R1", REF, CAND, "approved by legal"]]
    assert layout_of(rows).reference_cols == [1]
    result = scores(rows)
    assert result.value(0) == PAIR  # as `score(REF, CAND)` gives, not 1.0 from three "references"
    assert result.signature().endswith("|refs:1")


def test_numbered_references_are_all_used() -> None:
    rows = [["Reference 1", "Reference 2", "Candidate"], [OTHER, REF, REF]]
    assert layout_of(rows).reference_cols == [0, 1]
    outcome = scores(rows).outcomes[0]
    assert outcome.bleu == 1.0 and outcome.precisions[0] == Precision(7, 7) and outcome.refs == 2


def test_a_qualified_header_alone_is_accepted() -> None:
    rows = [["Référence approuvée", "Candidate text"], [REF, CAND]]
    layout = layout_of(rows)
    assert (layout.candidate_col, layout.reference_cols) == (1, [0])
    assert bleu(rows) == [PAIR]


def test_reference_beside_reference_2_uses_both_as_references() -> None:
    other = "Free delivery on all orders"
    rows = [["Reference", "Reference 2", "Candidate"], [REF, other, CAND]]
    layout = layout_of(rows)
    assert layout.reference_cols == [0, 1]
    assert "reference A 'Reference', B 'Reference 2'" in described(layout)
    assert bleu(rows) == [pytest.approx(score([REF, other], CAND).bleu)]
    assert score([REF, other], CAND).bleu != PAIR


def test_several_references_found_by_their_headers_are_named_in_a_note() -> None:
    # "Reference 2" beside "Reference" is a second reference, and says so (a year, "Reference 2023", is refused).
    rows = [["Reference", "Reference 2", "Candidate"], [REF, OTHER, CAND]]
    layout = layout_of(rows)
    assert layout.reference_cols == [0, 1]
    assert [render(note) for note in layout.notes] == [
        "2 reference columns found by their headers (A 'Reference', B 'Reference 2'): each candidate is scored "
        "against all of them; to use fewer, give them with reference_cols"
    ]
    assert bleu(rows) == [pytest.approx(score([REF, OTHER], CAND).bleu)]
    assert layout_of(rows, reference_cols=("A", "B")).notes == []  # given: nothing to tell
    assert bleu(rows, reference_cols=("Reference",)) == [PAIR]


def test_an_empty_numbered_reference_column_is_left_out_with_a_note() -> None:
    rows = [["Reference 1", "Reference 2", "Candidate"], [REF, None, CAND], [REF, None, REF]]
    layout = layout_of(rows)
    assert layout.reference_cols == [0]
    assert [render(note) for note in layout.notes] == ["the reference column B 'Reference 2' is empty: left out"]
    assert described(layout).endswith("reference A 'Reference 1'")
    assert bleu(rows) == [PAIR, 1.0]
    all_empty = [["Reference 1", "Reference 2", "Candidate"], [None, None, CAND]]
    assert "the reference column A 'Reference 1' is empty" in str(refusal(all_empty))


def test_a_very_long_header_is_cut_in_the_description() -> None:
    long = "Candidate " + "very long words " * 40
    shown = described(layout_of([["Reference", long], [REF, CAND]]))
    assert f"candidate B '{long[:59]}\u2026'; reference A 'Reference'" in shown and long[:60] not in shown


# --- ambiguous and hidden columns ------------------------------------------------------------------------------


def test_two_candidates_are_an_error_that_shows_the_choice() -> None:
    rows = [["Reference", "Candidate A", "Candidate B"], [REF, CAND, OTHER]]
    problem = refusal(rows)
    assert str(problem) == (
        "sheet 'Copy': 2 columns could be the candidate (B 'Candidate A', C 'Candidate B'); "
        "choose one with candidate_col, e.g. candidate_col='B'"
    )
    assert Setting("candidate_col", "B") in problem.parts  # each face spells the setting its own way
    assert layout_of(rows, candidate_col="Candidate B").candidate_col == 2
    assert bleu(rows, candidate_col="Candidate B") == [score(REF, OTHER).bleu]


def test_candidate_beside_candidate_2_is_ambiguous() -> None:
    problem = refusal([["Reference", "Candidate", "Candidate 2"], [REF, CAND, REF]])
    assert str(problem) == (
        "sheet 'Copy': 2 columns could be the candidate (B 'Candidate', C 'Candidate 2'); "
        "choose one with candidate_col, e.g. candidate_col='B'"
    )


def test_a_hidden_column_is_never_chosen_and_a_duplicate_header_needs_a_letter() -> None:
    rows = [["Reference", "Candidate", "Candidate"], [REF, "old draft text", CAND]]
    hidden = frozenset({1})
    layout = layout_of(rows, hidden=hidden)
    assert layout.candidate_col == 2  # the visible C, not the hidden draft in B
    assert "candidate C 'Candidate'" in described(layout)
    problem = refusal(rows, hidden=hidden, candidate_col="Candidate")
    assert "2 columns are headed 'Candidate' (B, C)" in str(problem)
    assert Setting("candidate_col", "C") in problem.parts and "candidate_col='C'" in str(problem)
    table = sheet(rows, hidden_columns=hidden)
    by_letter = find_layout(table, TableOptions(candidate_col="B"))
    assert by_letter.candidate_col == 1  # given by letter, a hidden column is used
    assert score_table(table, by_letter, workers=1).value(0) == score(REF, "old draft text").bleu


def test_a_hidden_only_candidate_is_named_not_used() -> None:
    problem = refusal([["Reference", "Candidate"], [REF, CAND]], hidden=frozenset({1}))
    assert str(problem) == (
        "sheet 'Copy': the candidate column B 'Candidate' is hidden, and hidden columns are not chosen by "
        "themselves; give candidate_col='B'"
    )


# --- the header row --------------------------------------------------------------------------------------------


def test_title_rows_above_the_headers_are_skipped() -> None:
    rows = [["Candidate copy – spring campaign"], [], ["Reference", "Candidate"], [REF, CAND], [REF, OTHER]]
    layout = layout_of(rows)
    assert layout.header_row == 2 and described(layout).startswith("header row 3;")
    assert bleu(rows) == [PAIR, score(REF, OTHER).bleu]
    by_letter = layout_of(rows, reference_cols=("A",), candidate_col="B")
    assert by_letter.header_row == 2  # the header row is not scored as a pair
    assert bleu(rows, reference_cols=("A",), candidate_col="B") == [PAIR, score(REF, OTHER).bleu]
    assert layout_of(rows, header_row=3).header_row == 2


def test_a_banner_of_qualified_names_over_the_exact_headers_is_a_title() -> None:
    """Two header rows: a banner (Reference copy (approved), Candidate copy (agency)) over the exact names. An exact
    name wins: the row under the banner is the header row, not a pair of 'Reference' and 'Candidate' scored."""
    banner = ["Reference copy (approved)", "Candidate copy (agency)"]
    rows = [banner, ["Reference", "Candidate", "Channel"], [REF, CAND, "email"], [REF, OTHER, "banner"]]
    layout = layout_of(rows)
    assert layout.header_row == 1 and described(layout).startswith("header row 2; candidate B 'Candidate'")
    assert bleu(rows) == [PAIR, score(REF, OTHER).bleu]
    alone = [banner, [REF, CAND], [REF, OTHER]]  # the banner is the header row when no exact row is under it
    assert layout_of(alone).header_row == 0 and bleu(alone) == [PAIR, score(REF, OTHER).bleu]
    twice = [["Reference", "Candidate"], ["Reference", "Candidate"], [REF, CAND]]  # exact twice: the first
    assert layout_of(twice).header_row == 0


def test_a_metadata_row_of_qualified_names_over_blank_rows_is_a_title() -> None:
    """``Reference 2024 | Candidate 2024`` over a blank row and the exact names: the exact row is the header row,
    as for a banner right over it, wherever it is."""
    rows = [["Reference 2024", "Candidate 2024"], [], ["Reference", "Candidate"], [REF, CAND], [REF, OTHER]]
    assert described(layout_of(rows)).startswith("header row 3; candidate B 'Candidate'; reference A 'Reference'")
    assert bleu(rows) == [PAIR, score(REF, OTHER).bleu]
    # The exact names under other columns than the first row's names: not its table's header row (as before).
    moved = [["Project", "Reference 2024", "Candidate 2024"], [], ["Reference", "Candidate"], [REF, CAND]]
    assert "the candidate column C 'Candidate 2024' is empty" in render(refusal(moved).parts)


def test_qualified_names_with_a_pair_between_them_and_the_exact_names_are_refused() -> None:
    """``Reference # | Candidate #`` over ``12 | 14`` and the exact names: a metadata block over the table, or a
    table over a second one? Under the first row, 12 and 14 would be scored as a pair. Refused, naming both rows and
    what each would score; either one given is taken."""
    rows = [["Reference #", "Candidate #"], ["12", "14"], ["Reference", "Candidate"], [REF, CAND], [REF, OTHER]]
    message = render(refusal(rows).parts)
    assert message == (
        "sheet 'Copy': rows 1 (A 'Reference #', B 'Candidate #') and 3 (A 'Reference', B 'Candidate') both read as "
        "the header row, and row 2 between them holds a reference and a candidate, scored or left out as one or "
        "the other heads the table; say which: header_row=1 or header_row=3"
    )
    assert bleu(rows, header_row=3) == [PAIR, score(REF, OTHER).bleu]
    assert bleu(rows, header_row=1) == [score("12", "14").bleu, PAIR, score(REF, OTHER).bleu]
    stacked = [["Reference (FR)", "Candidate (FR)"], [REF, CAND], [REF, OTHER], [], ["Reference", "Candidate"], [REF]]
    assert "rows 2 to 3 between them" in render(refusal(stacked).parts)


def test_raters_naming_the_roles_in_other_columns_are_no_header_row() -> None:
    """A human-parity sheet: raters pick ``Reference`` or ``Candidate`` in their own columns. Those rows hold the
    exact names, but not under the header row's names of the roles: they are data, and the first row heads the
    table (it was taken for the header row, and every pair scored 1.0)."""
    head = ["Source", "Reference (human)", "Candidate (MT)", "Rater 1", "Rater 2"]
    rows = [head, ["Checkout"], ["Place order", REF, CAND, "Reference", "Candidate"], ["x", REF, OTHER, "Tie", "Tie"]]
    layout = layout_of(rows)
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 2, [1])
    assert bleu(rows) == [None, PAIR, score(REF, OTHER).bleu]  # the section row has no candidate


def test_a_hidden_pair_between_two_header_rows_is_said_hidden() -> None:
    """Hidden rows are scored unless skip_hidden: the refusal says they are hidden; with skip_hidden they are
    scored under neither row, and nothing is ambiguous."""
    rows = [["Reference #", "Candidate #"], ["12", "14"], ["Reference", "Candidate"], [REF, CAND]]
    with pytest.raises(InputError) as raised:
        find_layout(sheet(rows, hidden_rows=frozenset({1})))
    assert "row 2 (hidden) between them" in render(raised.value.parts)
    assert find_layout(sheet(rows, hidden_rows=frozenset({1})), TableOptions(skip_hidden=True)).header_row == 2


def test_a_pair_of_names_between_a_banner_and_the_exact_names_is_a_pair() -> None:
    """Recruiting copy: ``Candidate profile`` under the banner's reference, ``Reference check pending`` under its
    candidate. Names, but not each role's over its own column: a pair, which would be scored under the banner."""
    rows = [
        ["Reference copy (approved)", "Candidate copy (agency)"],
        ["Candidate profile", "Candidate profile page"],
        ["Reference checks pending", "Reference check pending"],
        ["Reference", "Candidate"],
        [REF, CAND],
    ]
    assert "rows 2 to 3 between them" in render(refusal(rows).parts)


def test_two_banners_over_the_exact_names_are_refused() -> None:
    """A second banner cannot be told from a pair that reads as names (``Reference check pending``): refused,
    naming the rows, where the first row was taken and the second scored as a pair."""
    rows = [
        ["Reference copy (approved)", "Candidate copy (agency)"],
        ["Reference (approved)", "Candidate (agency)"],
        ["Reference", "Candidate"],
        [REF, CAND],
    ]
    assert "row 2 between them" in render(refusal(rows).parts)
    assert bleu(rows, header_row=3) == [PAIR]


def test_a_pair_under_a_second_reference_below_a_banner_is_a_pair() -> None:
    """Under the header row's ``Reference 2``, row 2 would be scored against that reference: it is a pair of the
    lower reading, and the sheet is refused (it was left out without a word)."""
    rows = [
        ["Reference copy (approved)", None, "Candidate copy (agency)"],
        [None, REF, CAND],
        ["Reference", "Reference 2", "Candidate"],
        [REF, OTHER, CAND],
    ]
    table = sheet(rows, merged=(CellRange(0, 0, 0, 1),))
    with pytest.raises(InputError, match="row 2 between them holds a reference and a candidate"):
        find_layout(table)
    # Under "Reference notes", which the exact "Reference" passes over, text is no reference: no pair.
    notes = [["Reference copy (approved)", "Candidate copy (agency)"], [None, "brief", "see brief"]]
    notes += [["Reference", "Candidate", "Reference notes"], [REF, CAND, "ok"]]
    assert find_layout(sheet(notes)).header_row == 2


def test_a_pair_under_the_exact_names_below_a_merged_banner_is_a_pair() -> None:
    """The exact names stand under the right-hand columns of merged banner cells: a pair in those columns would
    be left out under them, and is refused; text only in columns neither reading takes (a status, a source) is
    no pair."""
    banner = ["Reference copy (approved)", None, "Candidate copy (agency)", None]
    merged = (CellRange(0, 0, 0, 1), CellRange(0, 2, 0, 3))
    rows = [banner, [None, REF, None, CAND], [None, "Reference", None, "Candidate"], [None, REF, None, OTHER]]
    with pytest.raises(InputError, match="row 2 between them holds a reference and a candidate"):
        find_layout(sheet(rows, merged=merged))
    rows[1] = ["Source: brief v3", None, None, "Due 2024-05-01"]
    assert find_layout(sheet(rows, merged=merged)).header_row == 2


def test_a_banner_over_a_note_and_the_exact_names_is_a_title() -> None:
    """A note under the banner (a source, a subtitle) holds no pair under the banner's names: the exact row is the
    header row, with nothing refused."""
    banner = ["Reference copy (approved)", None, "Candidate copy (agency)"]
    rows = [banner, ["Source: brand book v3"], ["Reference", "Notes", "Candidate"], [REF, "", CAND], [REF, "", OTHER]]
    assert described(layout_of(rows)) == "header row 3; candidate C 'Candidate'; reference A 'Reference'"
    assert bleu(rows) == [PAIR, score(REF, OTHER).bleu]


def test_words_of_the_names_in_the_data_leave_a_given_column_its_header_row() -> None:
    """A localisation sheet's strings include ``Reference`` and ``Candidats``: with the candidates' column given, the
    header row is still the first one, and those rows are pairs."""
    rows = [
        ["Key", "Source (EN)", "Reference (FR)", "Candidate (FR)"],
        ["cart.empty", "Your basket is empty", REF, CAND],
        ["order.ref", "Reference", "Référence", "Référence"],
        ["order.cand", "Candidates", "Candidats", "Candidats"],
    ]
    for given in ({"candidate_col": "D"}, {"reference_cols": ("C",)}):
        layout = layout_of(rows, **given)
        assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 3, [2])


def test_a_banner_repeated_on_every_page_is_no_pair() -> None:
    banner = ["Reference copy (approved)", "Candidate copy (agency)"]
    head = ["Reference", "Candidate"]
    rows = [banner, head, [REF, CAND], banner, head, [REF, OTHER]]
    assert bleu(rows) == [PAIR, score(REF, OTHER).bleu]
    layout = layout_of(rows)
    assert layout.repeated == frozenset({3, 4}) and layout.banners == (0,)
    said = "rows 4, 5 repeat the header row (B 'Candidate', A 'Reference') or the names above it (row 1): they are"
    assert any(render(note).startswith(said) for note in layout.notes)


SPRING = [[1, REF, CAND], [2, "free delivery on every order", "free delivery on all orders"]]


@pytest.mark.parametrize(
    ("title", "given"),
    [
        ("Reference copy - spring campaign", {"candidate_col": "C"}),
        ("Candidate copy - spring campaign", {"reference_cols": ("B",)}),
        ("Reference copy - spring campaign", {"candidate_col": "C", "reference_cols": ("B",)}),
    ],
)
def test_a_title_row_is_not_the_header_row_when_a_column_is_given_by_letter(title: str, given: dict) -> None:
    rows = [[title], [], ["ID", "Reference", "Candidate"], *SPRING]
    layout = layout_of(rows, **given)
    assert described(layout) == "header row 3; candidate C 'Candidate'; reference B 'Reference'"
    data = rows[layout.data_start :]
    assert [(row[0], row[layout.candidate_col]) for row in data] == [(1, CAND), (2, "free delivery on all orders")]
    assert bleu(rows, **given)[0] == pytest.approx(PAIR)


def test_blank_rows_above_the_table_do_not_hide_its_headers() -> None:
    rows = [[None]] * 55 + [["Reference", "Candidate"], [REF, CAND]]
    layout = layout_of(rows)
    assert layout.header_row == 55 and described(layout).startswith("header row 56; candidate B 'Candidate'")
    assert layout_of(rows, header_row=56).header_row == 55
    assert bleu(rows) == [PAIR]


def test_letters_with_a_fixed_reference_still_skip_the_header_row() -> None:
    rows = [["ID", "Candidate"], ["1", CAND], ["2", REF]]
    assert layout_of(rows, reference_text=REF, candidate_col="B").header_row == 0
    assert bleu(rows, reference_text=REF, candidate_col="B") == [PAIR, 1.0]  # "Candidate" is a header, not a pair


def test_a_table_without_a_header_row() -> None:
    rows = [[REF, CAND], [REF, OTHER], [REF, REF]]
    layout = layout_of(rows, no_header=True, reference_cols=("A",), candidate_col="B")
    assert layout.header_row is None and described(layout).startswith("no header row;")
    given = {"no_header": True, "reference_cols": ("A",), "candidate_col": "B"}
    assert bleu(rows, **given) == [PAIR, score(REF, OTHER).bleu, 1.0]  # 3 in, 3 out
    numbers = [[1, 2], [REF, CAND]]  # no text over the columns: no header row
    assert layout_of(numbers, reference_cols=("A",), candidate_col="B").header_row is None
    problem = refusal(rows, no_header=True, candidate_col="Candidate", reference_cols=("A",))
    assert "with no header row, give the candidate column by letter (not 'Candidate')" in str(problem)


def test_no_header_without_the_columns_asks_for_them_by_letter() -> None:
    """No header row, no header to find a column by: the refusal says to give the columns by letter, never that no
    header was found; refused before the sheet is looked at."""
    every_row = "with no_header=True every row is data: give "
    cases = [
        ({}, "the columns by letter (candidate_col='B' and reference_cols=('A',))"),
        ({"reference_cols": ("A",)}, "the candidate column by letter (candidate_col='B')"),
        ({"reference_cols": ("b",)}, "the candidate column by letter (candidate_col='C')"),
        (
            {"candidate_col": "B"},
            ("the reference column by letter (reference_cols=('A',)), or its text (reference_text)"),
        ),
    ]
    for given, wanted in cases:
        with pytest.raises(InputError) as raised:
            TableOptions(no_header=True, **given)
        assert str(raised.value) == every_row + wanted
    assert TableOptions(no_header=True, candidate_col="B", reference_text=REF).no_header


def test_text_over_the_columns_given_by_letter_is_their_header_row() -> None:
    """Headers that are no known name ('Approved copy', 'Variant'; Japanese ones), with the columns given by
    letter as the refusal without them suggests: row 1 is the header row, said in a note; only no_header scores
    it."""
    for headers in (["Approved copy", "Variant"], ["承認済みコピー", "案"]):
        rows = [headers, [REF, CAND], [REF, OTHER]]
        layout = layout_of(rows, reference_cols=("A",), candidate_col="B")
        assert layout.header_row == 0 and described(layout).startswith("header row 1;")
        assert bleu(rows, reference_cols=("A",), candidate_col="B") == [PAIR, score(REF, OTHER).bleu]
        assert [render(note) for note in layout.notes] == [
            f"row 1 holds text over the columns given (B {headers[1]!r}, A {headers[0]!r}): it is read as the header "
            "row; no_header scores it as data"
        ]


def test_header_row_and_no_header_together_are_refused() -> None:
    problem = refusal([["Reference", "Candidate"], [REF, CAND]], header_row=1, no_header=True)
    assert str(problem) == "give either header_row or no_header, not both"


# --- a reference labelled above the headers (the template's Rank sheet) ----------------------------------------


def test_a_reference_cell_labelled_above_the_headers() -> None:
    rows = [
        ["bleu-xl ranking"],
        ["Reference", REF],
        [],
        [],
        ["#", "Candidate", "BLEU-2"],
        ["1", CAND, 0.5],
        ["2", REF, 0.5],
    ]
    layout = layout_of(rows)
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (4, 1, [])
    assert (layout.reference_text, layout.reference_cell) == (REF, "B2")
    assert described(layout) == (
        "header row 5; candidate B 'Candidate'; reference the cell B2 (labelled Reference above the headers)"
    )
    result = scores(rows)
    assert result.ranks == [2, 1] and [o.r for o in result.outcomes] == [7, 7]
    assert [result.value(i) for i in range(2)] == [PAIR, 1.0]
    assert layout.reference_source == "B2"


# --- columns given by letter or header -------------------------------------------------------------------------


def test_columns_by_letter_and_by_name_and_a_fixed_reference() -> None:
    rows = [
        ["src", "ref A", "ref B", "mt"],
        ["x", "the cat is on the mat", "there is a cat on the mat", "the the the the the the the"],
    ]
    layout = layout_of(rows, reference_cols=("B", "ref B"), candidate_col="D")
    assert (layout.candidate_col, layout.reference_cols) == (3, [1, 2])
    assert scores(rows, reference_cols=("B", "ref B"), candidate_col="D").outcomes[0].precisions[0] == Precision(2, 7)
    # "mt" could be the column MT; a row holds it as a header, so it is that column
    fixed = layout_of(rows, reference_text="the cat", candidate_col="mt")
    assert (fixed.candidate_col, fixed.reference_text) == (3, "the cat")
    assert described(fixed) == "header row 1; candidate D 'mt'; reference the reference_text text"
    assert scores(rows, reference_text="the cat", candidate_col="mt").outcomes[0].r == 2


def test_a_letter_in_the_data_is_never_the_header_of_another_column() -> None:
    """Columns given by letter over a header row with text in them: a cell 'B' or 'A' further down is data (the arm
    of an A/B test), never taken for the header named B, which would score columns C and D instead, silently."""
    rows = [
        ["Approved copy", "Variant text", "Arm", "Control arm"],
        ["Free delivery on every order", "Free delivery this week", "B", "A"],
        ["Get free shipping", "Free shipping now", "A", "B"],
    ]
    layout = layout_of(rows, candidate_col="B", reference_cols=("A",))
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 1, [0])
    split = [rows[0], ["Free delivery on every order", "Free delivery this week", "B", ""], rows[2]]
    assert layout_of(split, candidate_col="B", reference_cols=("A",)).candidate_col == 1  # was: no candidate column
    single = [["Reference", "Candidate"], ["a b", "a"]]
    assert layout_of(single, reference_cols=("A",)).reference_cols == [0]  # was: 'name the same column (B 'a')'
    # A header row that names a column 'B' still gives that column by its name
    named = [["Approved copy", "Variant text", "B"], ["Free delivery", "Free delivery now", "Free shipping"]]
    assert layout_of(named, candidate_col="B", reference_cols=("A",)).candidate_col == 2
    # No header row: the arm's 'B' comes again below, so it is data and B is the letter; row 1 is read as the header
    # row of the columns given, and a note says so (no_header scores it)
    arms = [["the cat sat", "a cat sat", "B"], ["the dog ran", "a dog ran", "A"], ["the sun", "a sun", "B"]]
    layout = layout_of(arms, candidate_col="B", reference_cols=("A",))
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 1, [0])
    assert any("it is read as the header row; " in render(note) for note in layout.notes)
    # A second table stacked below repeats the header row: its 'B' is a header again, not data
    stacked = [*named, ["", "", ""], named[0], ["Free gift", "Free gift now", "A free gift"]]
    assert layout_of(stacked, candidate_col="B", reference_cols=("A",)).candidate_col == 2
    # ... and so it is when the second table's header row renames a column or adds one (another language's table)
    french = [["Reference", "A", "B"], ["the cat sat", "the cat sat", "a dog ran"], ["the sun", "the sun", "a dog"]]
    french += [["", "", ""], ["Reference (FR)", "A", "B", "Notes"], ["le chat", "le chat", "un chien", "fr"]]
    assert layout_of(french, candidate_col="B").candidate_col == 2
    # An arm repeated beside a column that holds the same text in every row (the language) is still data
    constant = [["en", "the cat sat", "a cat sat", "B"], ["en", "the dog ran", "a dog ran", "A"]]
    constant += [["en", "the sun", "a sun", "B"]]
    assert layout_of(constant, candidate_col="B", reference_cols=("C",)).candidate_col == 1


def test_a_letter_that_could_be_either_column_is_said_which_it_was_taken_for() -> None:
    """Two rows holding 'A' and 'B' once each in other columns, with no known header anywhere: either reading could
    be meant, and the one taken (the headers') is said, with how to say the other; a row of known headers (the
    template's 'Reference, A, B' for compare) needs no note."""
    rows = [["x y", "x z", "A", "B"], ["p q", "p r", "B", "A"]]
    layout = layout_of(rows, candidate_col="B", reference_cols=("A",))
    assert (layout.candidate_col, layout.reference_cols) == (3, [2])
    assert [render(note) for note in layout.notes] == [
        "candidate_col='B' is the column headed 'B' (D), not column B ('x z'): to score column B, give its header, "
        "or, if row 1 is data, no_header",
        "reference_cols='A' is the column headed 'A' (C), not column A ('x y'): to score column A, give its header, "
        "or, if row 1 is data, no_header",
    ]
    assert layout_of(rows, candidate_col="B", reference_cols=("A",), no_header=True).candidate_col == 1
    known = [["Reference", "A", "B"], ["the cat sat", "the cat", "a cat"]]
    layout = layout_of(known, candidate_col="A")
    assert layout.candidate_col == 1 and layout.notes == []


def test_a_letter_whose_column_and_a_header_could_both_be_meant_is_refused() -> None:
    """A scored workbook scored again: ``C`` given over a row that also holds bleu-xl's detail column ``c`` could be
    column C (``Candidate B``) or that column; read as ``c``, its token counts were scored as the candidates. So could
    ``--reference-col B`` over ``Reference`` beside an A/B test's arm headed ``B``. Both are refused, naming the
    setting for each reading."""
    ref = "Free delivery on every order"
    rows = [["Reference", "Candidate A", "Candidate B", "BLEU-2", "r", "c"], [ref, "Free delivery", "Free", 0.4, 5, 2]]
    problem = refusal(rows, candidate_col="C")
    assert render(problem.parts) == (
        "candidate_col='C' could be column C ('Candidate B') or the column headed 'c' (F); give "
        "candidate_col='Candidate B' for column C, or candidate_col='F' for the other"
    )
    assert layout_of(rows, candidate_col="Candidate B").candidate_col == 2
    assert layout_of(rows, candidate_col="F").candidate_col == 5
    sourced = [["Source", "Reference", "A", "B"], ["le chat", "the cat sat", "the cat", "a cat"]]
    problem = refusal(sourced, candidate_col="C", reference_cols=("B",))
    assert render(problem.parts).startswith("reference_cols='B' could be column B ('Reference') or the column headed")
    # An A/B test's arms: the letters' own columns (the source, the reference) name no candidate.
    known = [["Reference", "A", "B"], ["the cat sat", "the cat", "a cat"]]
    assert layout_of(known, candidate_col="B").candidate_col == 2
    assert layout_of(known, candidate_col="A").candidate_col == 1
    assert layout_of(sourced, candidate_col="A").candidate_col == 2
    assert layout_of(sourced, candidate_col="B").candidate_col == 3


def test_a_header_merged_over_columns_that_hold_text_is_refused_unless_the_column_is_given() -> None:
    """``Candidate`` merged over B1:C1 with a text in each: B was scored and C left out, with no word. A header
    merged over an empty column (a wide label) is no matter, and a column given is the one meant."""
    from bleu_xl.table.sheet import CellRange

    rows = [["Reference", "Candidate", None], [REF, "Free delivery", "Free delivery on every order today"]]
    merged = (CellRange(0, 1, 0, 2),)
    with pytest.raises(InputError) as raised:
        find_layout(sheet(rows, merged=merged), TableOptions())
    assert render(raised.value.parts) == (
        "sheet 'Copy': the header 'Candidate' is merged over B1:C1, and column C under it holds data too: give the "
        "candidate column with candidate_col (B or C)"
    )
    assert find_layout(sheet(rows, merged=merged), TableOptions(candidate_col="C")).candidate_col == 2
    wide = [["Reference", "Candidate", None], [REF, "Free delivery", None]]
    assert find_layout(sheet(wide, merged=merged), TableOptions()).candidate_col == 1
    references = [["Reference", None, "Candidate"], [REF, "Free delivery today", "Free delivery"]]
    with pytest.raises(InputError, match=r"give the reference column with reference_cols \(A, or A and B\)"):
        find_layout(sheet(references, merged=(CellRange(0, 0, 0, 1),)), TableOptions())


def test_both_kinds_of_reference_are_refused() -> None:
    problem = refusal([["Reference", "Candidate"], [REF, CAND]], reference_text="x", reference_cols=("B",))
    assert str(problem) == "give either reference_text or reference_cols, not both"


def test_a_column_read_twice_is_refused() -> None:
    # The candidate as its own reference would score 1.0 on every row; one column given as two references would
    # count one reference as two (refs:2 in the signature).
    rows = [["Reference 1", "Candidate"], [REF, CAND], [OTHER, CAND]]
    assert str(refusal(rows, candidate_col="B", reference_cols=("B",))) == (
        "candidate_col and reference_cols name the same column (B 'Candidate'): each candidate would be scored "
        "against itself"
    )
    assert str(refusal(rows, reference_cols=("candidate",))) == (
        "reference_cols names the candidate column (B 'Candidate'): each candidate would be scored against itself; "
        "give the candidate column with candidate_col"
    )
    assert str(refusal(rows, reference_cols=("Reference 1", "A"))) == (
        "reference_cols names the column A 'Reference 1' more than once ('Reference 1' and 'A'): give each "
        "reference column once"
    )
    assert str(refusal(rows, reference_cols=("a", "A"), candidate_col="B")).startswith(
        "reference_cols names the column A 'Reference 1' more than once ('a' and 'A')"
    )
    assert bleu(rows, reference_cols=("A",), candidate_col="B") == [PAIR, score(OTHER, CAND).bleu]


def test_a_column_given_but_empty_is_an_error() -> None:
    rows = [["Reference", "Candidate", "Notes", "Spare"], [REF, CAND, "n", None]]
    assert str(refusal(rows, reference_cols=("D",))) == (
        "sheet 'Copy': the reference column D 'Spare' is empty below the header row 1"
    )
    assert "the candidate column Z is empty" in str(refusal(rows, candidate_col="Z"))


def test_missing_columns_list_the_headers_found() -> None:
    problem = refusal([["Source", "Target"], ["a", "b"]], kind=NoColumnsFound)
    assert str(problem) == (
        "sheet 'Copy': no candidate or reference column; headers found: A 'Source', B 'Target'; "
        "give them with candidate_col and reference_cols (a letter or a header)"
    )
    rows = [["Source", "Candidate"], ["a", "b"]]
    problem = refusal(rows)
    assert not isinstance(problem, NoColumnsFound)  # it has a candidate: not a cover page to pass over
    assert "no reference column" in str(problem) and "headers found: A 'Source', B 'Candidate'" in str(problem)
    missing = refusal(rows, kind=ColumnNotFound, candidate_col="Z1")
    assert "no candidate column 'Z1'; headers found: A 'Source', B 'Candidate'" in str(missing)


def test_a_mistyped_column_names_the_header_row_and_the_closest_header() -> None:
    rows = [["bleu-xl ranking"], ["Reference", REF], [], ["#", "Candidate", "BLEU-2"], ["1", CAND, None]]
    problem = refusal(rows, kind=ColumnNotFound, candidate_col="Candidates")
    assert "headers found: A '#', B 'Candidate', C 'BLEU-2'" in str(problem)  # the header row, not row 2
    assert str(problem).endswith("did you mean 'Candidate'?")
    assert problem.close_match == "Candidate" and problem.closeness > 0.9


def test_an_empty_sheet() -> None:
    for rows in ([], [[None, ""], []]):
        assert str(refusal(rows, kind=NoColumnsFound)) == "sheet 'Copy' is empty"


def test_formulas_saved_without_their_values_are_refused() -> None:
    """Blank cells that are formulas saved without a value (openpyxl saves them so): scores would be wrong."""
    rows = [["Reference", "Candidate"], [None, None]]
    table = sheet(rows, uncached=frozenset({(1, 0), (1, 1)}), uncached_count=2)
    with pytest.raises(InputError) as raised:
        find_layout(table)
    assert str(raised.value) == (
        "sheet 'Copy': the candidate column B 'Candidate' holds formulas saved without their values (openpyxl saves "
        "formulas so), the first in row 2, which no reader calculates; open the file in Excel, save it, and score it "
        "again"
    )


# --- which sheet: past a cover page ----------------------------------------------------------------------------

COVER = [["Start here: put your references in column A of the Rank sheet"], [], ["Then run bleu-xl score"]]


def book(*sheets: tuple[str, list[list]], hidden: frozenset[str] = frozenset()) -> tuple[Sheet, Callable, list]:
    """The first sheet of a workbook, the function that loads the others, and the names it was asked for."""
    names = [name for name, _ in sheets]
    tables = {name: Sheet(name, rows, names, hidden_sheets=hidden) for name, rows in sheets}
    loaded: list[str] = []

    def load(name: str) -> Sheet:
        loaded.append(name)
        return tables[name]

    return tables[names[0]], load, loaded


def test_a_cover_page_is_passed_over_for_the_next_visible_sheet_with_columns() -> None:
    first, load, loaded = book(
        ("Start here", COVER),
        ("Old", [["Reference", "Candidate"], ["old", "old"]]),
        ("Lists", [["Reference", "Candidate"], ["older", "older"]]),
        ("Copy", [["Reference", "Candidate"], [REF, CAND]]),
        hidden=frozenset({"Old", "Lists"}),
    )
    table, layout = find_table(first, load, TableOptions())
    assert table.name == "Copy" and described(layout).startswith("header row 1; candidate B 'Candidate'")
    assert loaded == ["Copy"]  # hidden sheets are never read unless named


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["Reference", "Candidate", "Candidate"], [REF, "a dog", REF]], "2 columns could be the candidate"),
        ([["Reference", "Candidate"], [REF, None]], "the candidate column B 'Candidate' is empty"),
        ([["Candidate"], [CAND]], "no reference column"),
        ([["Reference", "Notes"], [REF, "x"]], "no candidate column"),
    ],
    ids=["ambiguous", "empty candidate column", "no reference", "no candidate header"],
)
def test_a_first_sheet_with_headers_but_a_problem_is_reported_not_passed_over(rows: list[list], message: str) -> None:
    first, load, loaded = book(("Current", rows), ("Archive 2023", [["Reference", "Candidate"], [REF, REF]]))
    with pytest.raises(InputError) as raised:
        find_table(first, load, TableOptions())
    assert str(raised.value).startswith("sheet 'Current': ") and message in str(raised.value)
    assert loaded == []
    if message.startswith("no "):  # a column missing: the table may be on another sheet, which is named how
        assert str(raised.value).endswith("; or, if the table is on another sheet, name that sheet with sheet")
    else:
        assert "another sheet" not in str(raised.value)


def test_a_cover_sentence_read_as_a_header_says_how_to_read_the_next_sheet() -> None:
    """'Reference copy is in the sheet Data' on a cover reads as a reference header, so the cover is no cover to
    pass over: the run stops there, and the message says how to read the table's sheet."""
    rows = [["Reference copy is in the sheet Data"], ["Ask the copy desk"]]
    first, load, _ = book(("Cover", rows), ("Data", [["Reference", "Candidate"], [REF, CAND]]))
    with pytest.raises(MissingColumn, match=r"no candidate column.* name that sheet with sheet$"):
        find_table(first, load, TableOptions())
    alone, load, _ = book(("Cover", rows))
    with pytest.raises(MissingColumn) as raised:  # no other sheet: nothing to name
        find_table(alone, load, TableOptions())
    assert "another sheet" not in str(raised.value)


def test_a_first_sheet_whose_candidate_is_hidden_is_reported_not_passed_over() -> None:
    first, load, loaded = book(("Current", [["Reference", "Candidate"], [REF, CAND]]), ("Archive", [["Candidate"]]))
    first.hidden_columns = frozenset({1})
    with pytest.raises(InputError, match=r"^sheet 'Current': the candidate column B 'Candidate' is hidden"):
        find_table(first, load, TableOptions())
    assert loaded == []


def test_when_no_sheet_has_the_columns_the_first_sheets_message_is_given() -> None:
    first, load, loaded = book(("Copy", [["Title"], ["nothing to score"]]), ("Notes", [["more notes"]]))
    with pytest.raises(NoColumnsFound, match=r"^sheet 'Copy': no candidate or reference column"):
        find_table(first, load, TableOptions())
    assert loaded == ["Notes"]


def test_a_sheet_asked_for_and_a_text_file_are_never_passed_over() -> None:
    first, load, loaded = book(("Start here", COVER), ("Copy", [["Reference", "Candidate"], [REF, CAND]]))
    with pytest.raises(NoColumnsFound):
        find_table(first, load, TableOptions(sheet="Start here"))
    text = Sheet("notes.csv", COVER, ["notes.csv"], encoding="utf-8", delimiter=",")
    with pytest.raises(NoColumnsFound):
        find_table(text, load, TableOptions())
    assert loaded == []


def test_a_sheet_without_a_column_given_by_name_is_passed_over() -> None:
    first, load, loaded = book(
        ("Start here", COVER),
        ("Rank", [["Reference", "Candidate"], [REF, CAND]]),  # no "Prompt A"
        ("Compare", [["Reference", "Prompt A", "Prompt B"], [REF, CAND, REF]]),
    )
    table, layout = find_table(first, load, TableOptions(candidate_col="Prompt A"))
    assert table.name == "Compare" and (layout.candidate_col, layout.reference_cols) == (1, [0])
    assert loaded == ["Rank", "Compare"]


def test_when_no_sheet_has_the_named_column_the_closest_header_is_reported() -> None:
    first, load, _ = book(
        ("Start here", COVER),
        ("Rank", [["Reference", REF], [], ["#", "Candidate"], ["1", CAND]]),
        ("Compare", [["Reference", "Candidate A", "Candidate B"], [REF, CAND, REF]]),
        ("Pairs", [["Reference", "Candidate"], [REF, CAND]]),
    )
    with pytest.raises(ColumnNotFound) as raised:
        find_table(first, load, TableOptions(candidate_col="Candidat A"))
    assert str(raised.value).startswith("sheet 'Compare': no candidate column 'Candidat A'")
    assert str(raised.value).endswith("did you mean 'Candidate A'?")


def test_a_reference_given_as_text_no_candidate_could_use_is_refused_by_the_library() -> None:
    """The check the command makes before reading is the library's: score_table and compare_table refuse too."""
    from bleu_xl.core.metrics import Bleu, Chrf
    from bleu_xl.table.compare import compare_table

    rows = [["Candidate", "Other"], [CAND, OTHER]]
    for text, metric, said in [
        ("", Bleu(), "'' is blank"),
        ("   ", Bleu(), "'   ' is blank"),
        ("!!!", Bleu(), "'!!!': BLEU-2 cannot score against it"),
    ]:
        table = sheet(rows)
        layout = find_layout(table, TableOptions(reference_text=text))
        with pytest.raises(InputError) as raised:
            score_table(table, layout, metrics=[metric], workers=1)
        assert said in str(raised.value) and Setting("reference_text") in raised.value.parts
        with pytest.raises(InputError):
            compare_table(table, layout, "Other", metric=metric, samples=20)
    table = sheet(rows)
    layout = find_layout(table, TableOptions(reference_text="!!!"))
    assert score_table(table, layout, metrics=[Chrf()], workers=1).value(0) is not None  # chrF counts punctuation


def test_a_cell_too_long_to_score_is_refused_naming_it(monkeypatch) -> None:
    """Scoring takes memory in proportion to a text's length: a cell past MAX_SCORED_TEXT is refused in one line
    that names it, whichever side it is on, before any scoring."""
    from bleu_xl.table import pairs

    monkeypatch.setattr(pairs, "MAX_SCORED_TEXT", 20)
    long = "word " * 5
    for rows, where in (
        ([["Reference", "Candidate"], [REF[:15], CAND[:15]], [REF[:15], long]], "cell B3"),
        ([["Reference", "Candidate"], [long, CAND[:15]], [REF[:15], CAND[:15]]], "cell A2"),
    ):
        sheet = Sheet("Copy", rows, ["Copy"])
        with pytest.raises(InputError, match=f"^{where} holds 25 characters: bleu-xl scores a text of at most 20 "):
            score_table(sheet, find_layout(sheet), workers=1)
    sheet = Sheet("Copy", [["Candidate"], ["a b"], ["c d"]], ["Copy"])
    with pytest.raises(InputError) as caught:
        score_table(sheet, find_layout(sheet, TableOptions(reference_text=long)), workers=1)
    assert caught.value.parts[0] == Setting("reference_text")


@pytest.mark.parametrize("count", [3, 3.0, "3"], ids=["int", "float", "text of a CSV"])
def test_a_totals_row_typed_by_hand_is_not_a_candidate(count: object) -> None:
    """Not an Excel Table's: 'Total' typed under the references, =COUNTA(B2:B4) under the candidates. Its number
    would be scored against 'Total' and ranked among the candidates; it is left out, with a note."""
    rows = [["Reference", "Candidate", "Clicks"], [REF, CAND, 120], [REF, OTHER, 80], [REF, REF, 40]]
    totalled = [*rows, ["Total:", count, 240], []]
    layout = layout_of(totalled)
    assert 4 in layout.skipped and bleu(totalled) == [*bleu(rows), None]  # the empty row under it is blank
    assert [render(note) for note in layout.notes] == [
        "row 5 ('Total:' and a number as its candidate) is a totals row: it is not a candidate, and is not scored"
    ]
    labelled = [["Item", *rows[0]], *(["x", *row] for row in rows[1:]), ["Summe", "", count]]  # reference blank
    assert 4 in layout_of(labelled).skipped
    typed = [["Label", "Candidate"], ["", CAND], ["", OTHER], ["Total", count]]  # the reference given as text
    assert 3 in layout_of(typed, reference_text=REF).skipped
    once = [["Reference", "Candidate"], [REF, CAND], ["", OTHER], ["", REF], ["Total:", count]]  # typed once
    assert bleu(once) == [PAIR, score(REF, OTHER).bleu, 1.0] and layout_of(once).shared_row == 1


@pytest.mark.parametrize(
    "label",
    [
        "Count",
        "Number of variants",
        "Anzahl",
        "Nombre",
        "Nombre de variantes",
        "Número:",
        "Total FR",
        "件数",
        "Total 2024",  # a number of its own that is not the count: still a label
        "Total Q1",
        "Number of variants (v2)",
        "Total for v1.5",
        "Total of 300 words",  # 300 is not 3%: no % after it
        "Total as of 31.12 2024",  # a space after the decimal part: no internal error
        "Total 1,234 567",
    ],
)
def test_a_count_of_the_candidates_typed_by_hand_is_not_a_candidate(label: str) -> None:
    """=COUNTA(C2:C5) under the candidates, labelled as a count rather than a total: its number was scored against
    the reference typed once, ranked and counted in the corpus score."""
    rows = [["Product", "Reference", "Candidate"], ["P1", REF, CAND], ["P1", "", OTHER], ["P1", "", REF]]
    counted = [*rows, [label, "", 3]]
    layout = layout_of(counted)
    assert 4 in layout.skipped and bleu(counted) == bleu(rows)
    assert render(layout.notes[-1]).startswith(f"row 5 ({label!r} and a number as its candidate) is a totals row")


def test_a_last_row_labelled_total_that_is_a_pair_is_scored() -> None:
    """An invoice's fields, the last one 'Total': its reference is a text (118.00), so the row is a pair to score;
    so is a row whose candidate is a text, and one whose label has no totals word."""
    rows = [["Field", "Reference", "Candidate"], ["Vendor", "ACME", "ACME"], ["Total", "118.00", "118.00"]]
    assert not layout_of(rows).skipped
    for last in (
        ["Total", "Three candidates"],
        ["Sum up", 3],
        ["Counting sheep", 3],
        ["The total", 3],
        ["Total 42", 42],  # a label that holds the candidate's number: a question and its answer
        ["Number of stores: 12", 12],
        ["Total 1,234", 1234],  # the same number, written otherwise
        ["Total 42.00", 42],
        ["Total $42.50", 42.5],
        ["Total 12 000", 12000],
        ["Total 42%", 0.42],
    ):
        assert not layout_of([["Reference", "Candidate"], [REF, CAND], last]).skipped
    rows = [["Reference", "Candidate"], [REF, CAND], ["Total", 3], [REF, OTHER]]
    assert not layout_of(rows).skipped  # not the last row: a row like others


def test_rows_of_a_csv_with_fields_past_the_header_are_named() -> None:
    """A text file's row with a field past its header's last column: named, to be checked, and still scored (a
    column of comments without a header makes the same rows). A workbook's cells are where they are."""
    rows = [["ID", "Reference", "Candidate", ""], ["1", REF, CAND], ["2", "Free delivery", " on every order", REF]]
    as_text = find_layout(sheet(rows, encoding="utf-8"), TableOptions())
    assert [render(note) for note in as_text.notes] == [
        "row 3 has a field past the last column with a header (C): a delimiter inside a text not in quotes shifts "
        "the cells after it; check that those rows' cells are in their columns"
    ]
    assert find_layout(sheet(rows), TableOptions()).notes == []
    assert find_layout(sheet(rows, encoding="utf-8"), TableOptions(candidate_col="D")).notes == []


def test_a_reference_given_as_the_candidates_column_is_named_when_no_reference_is_left() -> None:
    """compare --a Reference: the only column headed as a reference is taken as candidates, and the message said
    only that no reference column was found, among headers that name one."""
    sheet = Sheet("cmp", [["Reference", "Prompt A", "Prompt B"], ["a b c", "a b", "a c"]], ["cmp"])
    with pytest.raises(InputError) as caught:
        find_layout(sheet, TableOptions(candidate_col="Reference"))
    assert render(caught.value.parts).startswith(
        "sheet 'cmp': no reference column (A 'Reference' is the candidates' column given) (and no labelled"
    )


def test_a_reference_given_as_text_names_the_reference_columns_it_passes_over() -> None:
    """The output shows the Reference column beside scores against another text: a note says so."""
    rows = [["Reference", "Candidate"], ["le chat", "le chat"], ["un chien noir", "un chien noir"]]
    layout = layout_of(rows, reference_text="le chat")
    said = "A 'Reference' not used: every candidate is scored against the reference given with reference_text"
    assert [render(note) for note in layout.notes] == [said]
    assert layout_of([["Source", "Candidate"], ["x", "y"]], reference_text="le chat").notes == []
