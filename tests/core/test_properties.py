"""Properties that hold for any Unicode input (hypothesis)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import BleuError, corpus_score, score, score_many, tokenize
from bleu_xl.excel import cell_values, cells

texts = st.text(max_size=60)
wordy = st.lists(
    st.sampled_from(["le", "chat", "noir", "東", "京", "été", "the", "cat", "हिन्दी", "2026", "ß", "Ｘ"]),
    min_size=1,
    max_size=15,
).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(
    ref=st.one_of(texts, wordy, st.lists(texts, max_size=3)),
    cand=st.one_of(texts, wordy),
    max_n=st.integers(1, 5),
    smoothing=st.sampled_from(["add1", "none"]),
)
def test_bounded_and_only_bleu_error(ref, cand, max_n, smoothing) -> None:
    try:
        s = score(ref, cand, max_n=max_n, smoothing=smoothing)
    except BleuError:
        refs = [ref] if isinstance(ref, str) else ref
        assert not any(tokenize(r) for r in refs)  # only raised when no reference has a word
        return
    assert 0.0 <= s.bleu <= 1.0
    assert 0.0 <= s.bp <= 1.0
    assert all(0.0 <= p.value <= 1.0 for p in s.precisions if p.value is not None)
    assert all((p.value is None) == (p.total == 0) for p in s.precisions)
    assert s.c == len(tokenize(cand))


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(texts, wordy), max_n=st.integers(1, 9))
def test_identity_gives_one(text, max_n) -> None:
    if not tokenize(text):
        return
    assert score(text, text, max_n=max_n).bleu == 1.0
    # An order longer than the text has no n-grams at all: it is left out, with or without smoothing.
    assert score(text, text, max_n=max_n, smoothing="none").bleu == 1.0


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(wordy, st.one_of(texts, wordy)), min_size=1, max_size=8))
def test_corpus_bounded(pairs) -> None:
    s = corpus_score([r for r, _ in pairs], [c for _, c in pairs])
    assert 0.0 <= s.bleu <= 1.0


def _definition(refs: list[list[str]], cand: list[str], max_n: int, smoothing: str) -> tuple[float, list, int]:
    """BLEU written from the README's definition with Counter and exact fractions, independently of bleu.py:
    an order with no candidate n-gram has no precision (None) and is left out of the geometric mean."""
    precisions: list[Fraction | None] = []
    for n in range(1, max_n + 1):
        grams = Counter(tuple(cand[i : i + n]) for i in range(len(cand) - n + 1))
        most: Counter = Counter()
        for ref in refs:
            most |= Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
        matches, total = sum((grams & most).values()), max(len(cand) - n + 1, 0)
        if total == 0:
            precisions.append(None)
        elif matches == 0 and smoothing == "add1":
            precisions.append(Fraction(1, total + 1))
        else:
            precisions.append(Fraction(matches, total))
    c = len(cand)
    r = min((len(ref) for ref in refs), key=lambda length: (abs(length - c), length))
    bp = 0.0 if c == 0 else 1.0 if c >= r else math.exp(1 - r / c)
    kept = [p for p in precisions if p is not None]
    return (bp * math.prod(kept) ** (1 / len(kept)) if kept else 0.0), precisions, r


@settings(max_examples=400, deadline=None)
@given(
    refs=st.lists(wordy, min_size=1, max_size=3),
    cands=st.lists(st.one_of(texts, wordy), min_size=1, max_size=4),
    max_n=st.integers(1, 5),
    smoothing=st.sampled_from(["add1", "none"]),
)
def test_every_face_gives_the_definition(refs, cands, max_n, smoothing) -> None:
    """score, score_many and the cells agree with the definition written out independently."""
    ref_tokens = [tokenize(r) for r in refs]
    many = score_many(refs, cands, max_n=max_n, smoothing=smoothing)
    for cand, from_many in zip(cands, many):
        bleu, precisions, r = _definition(ref_tokens, tokenize(cand), max_n, smoothing)
        s = score(refs, cand, max_n=max_n, smoothing=smoothing)
        assert s == from_many
        assert [p.value for p in s.precisions] == [None if p is None else float(p) for p in precisions]
        assert s.r == r and math.isclose(s.bleu, bleu, rel_tol=1e-12, abs_tol=1e-15)
    row = [list(refs)]  # one row of references serves every candidate
    column = [[c] for c in cands]
    in_cells = cells.bleu_cells(row, column, "bleu", max_n, smoothing)
    # A blank cell stays blank and a cell holding an error text ("#N/A") is that error; the rest are scores.
    shown = [cell_values.cell_text(c) for c in cands]
    expected = [
        [cells.BLANK if text is None else text if isinstance(text, cell_values.CellError) else s.bleu]
        for text, s in zip(shown, many)
    ]
    assert (in_cells if isinstance(in_cells, list) else [[in_cells]]) == expected


@given(st.text(alphabet="ab cé東京 ,", max_size=40), st.integers(1, 4))
def test_one_reference_as_text_or_as_a_list_gives_the_same_statistics(text: str, max_n: int) -> None:
    from bleu_xl import BleuError, References

    try:
        single = References(text, max_n)
    except BleuError:
        with pytest.raises(BleuError):
            References([text], max_n)
        with pytest.raises(BleuError):
            References((text,), max_n)
        return
    as_list = References([text], max_n)
    as_tuple = References((text,), max_n)  # a table's row: the fast path too
    assert (single.tokens, single.lengths, single.max_counts) == (as_list.tokens, as_list.lengths, as_list.max_counts)
    assert (as_tuple.tokens, as_tuple.lengths, as_tuple.max_counts) == (
        as_list.tokens,
        as_list.lengths,
        as_list.max_counts,
    )


# --- ties: precisions that multiply to one value score one float --------------------------------------------------


def test_candidates_whose_precisions_multiply_to_one_value_tie_exactly() -> None:
    """5/6 x 2/5, 6/9 x 4/8 and 6/10 x 5/9 are all 1/3 (and BP 1): the three scored 0.5773502691896258, ...257 and
    ...257, and were ranked 1, 2, 2 beside three equal cells."""
    reference = "a b c d e f"
    candidates = ["d e a b f x", "d e f a b c x y z", "a b c d e f x y z w"]
    assert len({score(reference, candidate).bleu for candidate in candidates}) == 1
    assert len({s.bleu for s in score_many(reference, candidates)}) == 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(1, 40)), min_size=1, max_size=4),
    st.integers(1, 60),
    st.integers(1, 60),
)
def test_a_score_is_the_exact_product_of_its_precisions_rounded_once(
    orders: list[tuple[int, int]], r: int, c: int
) -> None:
    from bleu_xl.core.metrics.bleu import Stats, score_from_stats

    orders = [(min(m, t), t) for m, t in orders]
    stats = Stats(r=r, c=c, matches=tuple(m for m, _ in orders), totals=tuple(t for _, t in orders))
    exact = math.prod((Fraction(m or 1, t + (m == 0)) for m, t in orders), start=Fraction(1))
    bp = 1.0 if c >= r else math.exp(1.0 - r / c)
    assert score_from_stats(stats).bleu == bp * float(exact) ** (1.0 / len(orders))
