"""Properties that hold for any Unicode input (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import BleuError, corpus_score, score, tokenize

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
    assert all(0.0 <= p.value <= 1.0 for p in s.precisions)
    assert s.c == len(tokenize(cand))


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(texts, wordy), max_n=st.integers(1, 9))
def test_identity_gives_one(text, max_n) -> None:
    if not tokenize(text):
        return
    assert score(text, text, max_n=max_n).bleu == 1.0
    # Without smoothing an order longer than the text has no n-grams at all, and the score is 0 by definition.
    plain = score(text, text, max_n=max_n, smoothing="none").bleu
    assert plain == (1.0 if len(tokenize(text)) >= max_n else 0.0)


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(wordy, st.one_of(texts, wordy)), min_size=1, max_size=8))
def test_corpus_bounded(pairs) -> None:
    s = corpus_score([r for r, _ in pairs], [c for _, c in pairs])
    assert 0.0 <= s.bleu <= 1.0
