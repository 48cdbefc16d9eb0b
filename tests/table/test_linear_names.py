"""The column rules in linear time: distinct names for 16,384 equal headers, headers folded without a walk over each
character when they are ASCII (issue 24, row 7)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from bleu_xl.table.header_rows import _alien_to, header_text, repeated_header_rows
from bleu_xl.table.layout import fold, fold_literally
from bleu_xl.table.scoring import distinct_names
from bleu_xl.table.sheet import Sheet


def distinct_names_obviously(names: Sequence[str]) -> list[str]:
    """Each name's first free number, counted from 2 every time (quadratic for many equal names)."""
    taken = set(names)
    seen: set[str] = set()
    distinct = []
    for name in names:
        unique, number = name, 2
        while unique in seen or (unique != name and unique in taken):
            unique, number = f"{name} ({number})", number + 1
        seen.add(unique)
        distinct.append(unique)
    return distinct


@given(st.lists(st.sampled_from(["x", "x (2)", "x (3)", "y", "", "x (2) (2)"]), max_size=30))
def test_distinct_names_are_those_of_the_obvious_way(names: list[str]) -> None:
    assert distinct_names(names) == distinct_names_obviously(names)


def test_sixteen_thousand_equal_names_are_made_distinct_at_once() -> None:
    start = time.perf_counter()
    names = distinct_names(["x"] * 16_384)
    assert time.perf_counter() - start < 0.5
    assert len(set(names)) == 16_384 and names[:3] == ["x", "x (2)", "x (3)"]


@given(st.text(max_size=40))
def test_fold_is_fold_literally(text: str) -> None:
    assert fold(text) == fold_literally(text)


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40))
def test_fold_is_fold_literally_for_ascii(text: str) -> None:
    assert fold(text) == fold_literally(text)


@given(
    st.lists(
        st.tuples(
            st.sampled_from([" Candidate", "candidate ", "Cand  idate", "CANDIDATE", "Candidat\te", "Candidates", "x"])
            | st.text(alphabet=" \t\x1fCandiétﬁ", max_size=12),
            st.sampled_from(["Reference", "reference", "Référence", "Reference notes", None, 3]),
        ),
        max_size=8,
    )
)
def test_repeated_header_rows_are_those_the_fold_finds(pairs: list[tuple[str, object]]) -> None:
    """The fast look that passes over most candidates finds the rows comparing every cell folded does."""
    rows = [["Candidate", "Reference"], *([c, r] for c, r in pairs)]
    sheet = Sheet("S", rows, ["S"])
    obvious = [
        r
        for r in range(1, len(rows))
        if all(fold(header_text(rows[r][c])) == fold(header_text(rows[0][c])) for c in (0, 1))
    ]
    assert repeated_header_rows(sheet, 0, [0, 1], range(1, len(rows))) == obvious


@given(
    st.sampled_from(["Candidate", "Référence", "候補 1", "Variant (B)", "ﬁnal copy", "straße"]),
    st.text(alphabet=st.characters(max_codepoint=0x7F) | st.sampled_from("éÉﬁßẞ\u0301\u00a0候補ＣＡ"), max_size=14),
)
def test_a_text_the_search_rules_out_never_folds_to_the_header(header: str, text: str) -> None:
    """The search that passes over most candidates never passes over one that folds to the header."""
    head = fold(header)
    for value in (text, head + text, text.upper(), header.upper() + text):
        if _alien_to(head).search(value):
            assert fold(header_text(value)) != head, value
