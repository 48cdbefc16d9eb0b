"""The column rules in linear time: distinct names for 16,384 equal headers, headers folded without a walk over each
character when they are ASCII (issue 24, row 7)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from bleu_xl.table.layout import fold, fold_literally
from bleu_xl.table.scoring import distinct_names


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
