"""The scoring definition, case by case: the seeds' worked examples, their promises and the edge cases."""

import copy
import dataclasses
import json
import math
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_xl
from bleu_xl import BleuError, Precision, References, Score, corpus_score, score, score_many
from bleu_xl.core.metrics import bleu
from tests.helpers import INTACTO, REF, SHORT, best_seconds

PARAPHRASE = "o pedido foi entregue dentro do prazo e chegou bem embalado"


# --- the Portuguese seed: BLEU-4, no smoothing, words split by spaces -----------------------------------


def test_seed_intacto_bleu4() -> None:
    s = score(REF, INTACTO, max_n=4, smoothing="none")
    assert [round(p.value, 3) for p in s.precisions] == [0.900, 0.889, 0.875, 0.857]
    assert [(p.matches, p.total) for p in s.precisions] == [(9, 10), (8, 9), (7, 8), (6, 7)]
    assert (s.r, s.c) == (11, 10)
    assert round(s.bp, 3) == 0.905
    assert round(s.bleu, 3) == 0.796
    geo = (9 / 10 * 8 / 9 * 7 / 8 * 6 / 7) ** 0.25
    assert s.bleu == pytest.approx(math.exp(1 - 11 / 10) * geo, abs=1e-15)


def test_seed_short_candidate_bleu4() -> None:
    s = score(REF, SHORT, max_n=4, smoothing="none")
    assert [p.value for p in s.precisions] == [1.0, 1.0, 1.0, 1.0]
    assert s.bp == pytest.approx(math.exp(1 - 11 / 5), abs=1e-15)
    assert round(s.bleu, 3) == 0.301


def test_seed_paraphrase_bleu4_is_zero() -> None:
    s = score(REF, PARAPHRASE, max_n=4, smoothing="none")
    assert s.precisions[2].matches == 0  # no trigram in common, as the seed says
    assert s.bleu == 0.0


def test_seed_examples_bleu2() -> None:
    assert score(REF, INTACTO).bleu == pytest.approx(math.exp(-0.1) * math.sqrt(0.9 * 8 / 9), abs=1e-15)
    assert score(REF, SHORT).bleu == pytest.approx(math.exp(1 - 11 / 5), abs=1e-15)
    para = score(REF, PARAPHRASE)
    assert [(p.matches, p.total) for p in para.precisions] == [(6, 11), (2, 10)]
    assert para.bleu == pytest.approx(math.sqrt(6 / 11 * 2 / 10), abs=1e-15)
    # With no smoothing BLEU-2 is the same here: both precisions have matches.
    assert score(REF, PARAPHRASE, smoothing="none").bleu == para.bleu


# --- the French seed's promises --------------------------------------------------------------------------


def test_exact_match_is_one() -> None:
    assert score(REF, REF).bleu == 1.0
    assert score(REF, REF.upper()).bleu == 1.0
    assert score("Le chat dort.", "le chat dort").bleu == 1.0


def test_shorter_candidate_lowers_bp() -> None:
    full = score("le chat noir dort sur le tapis", "le chat noir dort sur le tapis")
    short = score("le chat noir dort sur le tapis", "le chat noir dort")
    assert full.bp == 1.0
    assert short.bp == pytest.approx(math.exp(1 - 7 / 4))
    assert short.p1 == 1.0 and short.p2 == 1.0
    assert short.bleu == short.bp


def test_wrong_order_keeps_p1_and_loses_p2() -> None:
    s = score("the quick brown fox jumps", "jumps fox brown quick the")
    assert s.p1 == 1.0
    assert s.precisions[1].matches == 0
    assert s.precisions[1].smoothed
    assert s.p2 == 1 / 5  # add-1: (0 + 1) / (4 + 1)
    assert s.bleu == pytest.approx(math.sqrt(1 / 5))


def test_cjk_is_scored_per_character() -> None:
    s = score("東京タワーに行きました", "東京タワーへ行った")
    # ref: 東 京 タ ワ ー に 行 き ま し た (11); cand: 東 京 タ ワ ー へ 行 っ た (9)
    assert (s.r, s.c) == (11, 9)
    assert s.precisions[0] == Precision(7, 9)
    assert s.precisions[1] == Precision(4, 8)  # 東京 京タ タワ ワー
    assert s.bleu == pytest.approx(math.exp(1 - 11 / 9) * math.sqrt(7 / 9 * 4 / 8))


def test_mixed_scripts() -> None:
    s = score("Le nouveau iPhone 16 est arrivé à 東京", "le nouvel iphone 16 arrivé à 東京")
    assert bleu_xl.tokenize("Le nouveau iPhone 16 est arrivé à 東京")[-2:] == ["東", "京"]
    assert (s.r, s.c) == (9, 8)
    assert s.precisions[0] == Precision(7, 8)
    assert s.precisions[1] == Precision(4, 7)  # iphone 16, arrivé à, à 東, 東京


# --- edge cases ---------------------------------------------------------------------------------------------


def test_empty_candidate() -> None:
    s = score(REF, "")
    assert s.bleu == 0.0 and s.bp == 0.0 and s.c == 0 and s.r == 11
    assert all(p.value is None and p.left_out and not p.smoothed for p in s.precisions)
    assert score(REF, " ,.! ").bleu == 0.0


def test_blank_reference_raises() -> None:
    for bad in ("", "   ", "!!!", [], ["", "  "]):
        with pytest.raises(BleuError, match=r"reference has no words|no reference"):
            score(bad, "some words")
    assert issubclass(BleuError, ValueError)


def test_blank_references_are_ignored() -> None:
    assert score(["", "the cat sat", "..."], "the cat sat") == score("the cat sat", "the cat sat")


def test_single_token() -> None:
    assert score("oui", "oui").bleu == 1.0
    assert score("Oui!", "OUI").bleu == 1.0
    s = score("oui", "non")
    assert (s.p1, s.p2) == (0.5, None)  # add-1 on 0/1; no bigram: the order is left out
    assert s.bleu == 0.5  # the geometric mean of p1 alone


def test_no_word_in_common_scores_above_zero_with_add1() -> None:
    s = score("a b c", "x y z")
    assert s.bleu == pytest.approx(math.sqrt(1 / 4 * 1 / 3))
    assert score("a b c", "x y z", smoothing="none").bleu == 0.0


def test_smoothing_none_zero_total() -> None:
    s = score("oui", "oui", smoothing="none")
    assert s.p1 == 1.0 and s.precisions[1] == Precision(0, 0, "none") and s.p2 is None
    assert s.bleu == 1.0  # the bigram order is left out, not a zero


def test_clipping() -> None:
    s = score("the cat is on the mat", "the the the the the the the")
    assert s.precisions[0] == Precision(2, 7)
    assert s.precisions[1] == Precision(0, 6)


@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.sampled_from("abcde"), max_size=12),
    st.integers(min_value=1, max_value=3),
)
def test_clipped_matches_is_the_counter_definition(ref: list[str], cand: list[str], n: int) -> None:
    """Sum over distinct candidate n-grams of min(candidate count, reference count), repeats on either side."""
    from collections import Counter

    from bleu_xl.core.metrics.counting import clipped_counts, clipped_matches, ngram_counts, ngrams

    ref_counts = ngram_counts(ref, n)
    expected = Counter(ngrams(cand, n)) & Counter(ref_counts)
    assert clipped_matches(ngrams(cand, n), ref_counts) == sum(expected.values())
    assert clipped_counts(ngram_counts(cand, n), ref_counts) == dict(expected)


@given(st.lists(st.one_of(st.sampled_from("abc"), st.tuples(st.sampled_from("ab"), st.sampled_from("ab")))))
def test_c_counting_helper_is_the_obvious_count(items: list) -> None:
    from collections import Counter

    from bleu_xl.core.metrics.counting import _count_elements, _count_into

    fast: dict = {}
    obvious: dict = {}
    _count_elements(fast, items)
    _count_into(obvious, items)
    assert fast == obvious == Counter(items) and list(fast) == list(obvious)  # first-occurrence order too


def test_clipping_repeated_ngrams_on_both_sides() -> None:
    s = score("a a a b a a", "a a b b a a a a")
    # unigrams: a 6 in the candidate, 5 in the reference -> 5; b 2 and 1 -> 1. Bigrams: aa 4/3 -> 3, ab 1/1, bb 0,
    # ba 1/1 -> 5 of 7.
    assert s.precisions == (Precision(6, 8), Precision(5, 7))


def test_clipping_is_linear_when_the_reference_repeats_every_ngram() -> None:
    """A reference that repeats many n-grams must not make each further candidate cost more: clipping against it
    is linear (a quadratic clipping made 4,000 words about 180x a single pair). Per candidate, score_many must
    cost about what one pair costs (which also tokenizes the reference); 3x leaves room for a noisy machine and is
    far below any quadratic cost. The same for a range of candidates in a cell: tests/excel/test_cells.py."""
    from benchmarks.bench_clipping import repeated_words

    reference, candidate = repeated_words(4000)
    single = best_seconds(lambda: score(reference, candidate))
    many = best_seconds(lambda: score_many(reference, [candidate] * 4)) / 4
    assert many < 3 * single, (many, single)
    assert score_many(reference, [candidate])[0].precisions == (Precision(4000, 4000), Precision(3999, 3999))


def test_multiple_references_clip_by_largest_count_in_one_reference() -> None:
    refs = ["the cat is on the mat", "there is a cat on the mat"]
    s = score(refs, "the the the the the the the")
    assert s.precisions[0].matches == 2  # 2 in the first reference, 1 in the second: max is 2, not 3
    assert s.refs == 2 and s.signature.endswith("|refs:2")


def test_closest_reference_length_tie_goes_to_shorter() -> None:
    refs = ["one two three four", "one two three four five six"]
    s = score(refs, "one two three four five")
    assert s.r == 4 and s.bp == 1.0
    s = score(refs[::-1], "one two three")
    assert s.r == 4 and s.bp == pytest.approx(math.exp(1 - 4 / 3))


def test_bad_settings() -> None:
    for n in (0, 10, -1, 2.0, True, "2"):
        with pytest.raises(BleuError, match="max_n"):
            score("a b", "a b", max_n=n)  # type: ignore[arg-type]
    with pytest.raises(BleuError, match="smoothing"):
        score("a b", "a b", smoothing="exp")
    assert score("a b c d e f g h i", "a b c d e f g h i", max_n=9).bleu == 1.0


def test_non_string_input_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="must be a string, not int"):
        score("a b", 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a string, not NoneType"):
        score(["a b", None], "a")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="reference must be a string or a sequence of strings, not NoneType"):
        score(None, "le chat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a string, not NoneType"):
        score("le chat", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="reference must be a string or a sequence of strings, not int"):
        score(5, "le chat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a string, not NoneType"):
        bleu_xl.tokenize(None)  # type: ignore[arg-type]


def test_score_many_refuses_one_string_as_candidates() -> None:
    """A string is an iterable of characters: scoring each character as a candidate is never what was meant.
    A wrong type is a TypeError (BleuError, a ValueError, is for values that cannot be scored)."""
    with pytest.raises(TypeError, match="candidates must be a sequence of strings, not one string"):
        score_many("le chat", "le chat")
    with pytest.raises(TypeError, match="candidates must be a sequence of strings"):
        corpus_score(["le chat"], "l")
    with pytest.raises(TypeError, match="references must be a sequence of strings"):
        corpus_score("l", ["le chat"])
    assert score_many("le chat", ("le chat",)) == [score("le chat", "le chat")]
    assert score_many("le chat", (c for c in ["le chat", "chat"])) == [score("le chat", c) for c in ["le chat", "chat"]]


# --- the Score object ------------------------------------------------------------------------------------


def test_score_object() -> None:
    s = score(REF, INTACTO)
    assert isinstance(s, Score)
    assert dataclasses.replace(s, refs=3).refs == 3 and s.refs == 1
    assert s == score(REF, INTACTO) and s != score(REF, SHORT)
    assert pickle.loads(pickle.dumps(s)) == s and copy.deepcopy(s) == s
    with pytest.raises(AttributeError):
        s.p1 = 1.0  # type: ignore[misc]  # read from the statistics, never set
    # Not a tuple: code that unpacks a score as a (bleu, precisions, bp, r, c, ...) tuple fails loudly instead
    # of reading the wrong fields.
    with pytest.raises(TypeError):
        s[1]  # type: ignore[index]
    with pytest.raises(TypeError):
        _, _, _, *_ = s  # type: ignore[misc]  # as in: bleu, precisions, bp, *rest = s
    with pytest.raises(TypeError):
        json.dumps(s)
    with pytest.raises(TypeError):
        hash(s)
    with pytest.raises(TypeError):
        max(score_many(REF, [INTACTO, SHORT]))  # type: ignore[type-var]
    assert max(score_many(REF, [SHORT, INTACTO]), key=float).bleu == s.bleu
    assert s.signature == "bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
    assert score(REF, INTACTO, max_n=4, smoothing="none").signature == (
        "bleu-xl:0.2.0|n:4|smooth:none|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
    )
    assert float(s) == s.bleu
    p = Precision(0, 9)
    assert (p.smoothed, p.numerator, p.denominator, p.value) == (True, 1, 10, 0.1)
    p = Precision(3, 9)
    assert (p.smoothed, p.numerator, p.denominator, p.value) == (False, 3, 9, 1 / 3)
    p = Precision(0, 9, "none")
    assert (p.smoothed, p.numerator, p.denominator, p.value) == (False, 0, 9, 0.0)


def test_score_from_stats_applies_the_formulas() -> None:
    from bleu_xl.core.metrics.bleu import Stats, score_from_stats

    stats = Stats((9, 0, 0), (10, 9, 8), 10, 11)
    s = score_from_stats(stats, smoothing="add1", refs=2)
    assert s.precisions == (Precision(9, 10), Precision(0, 9), Precision(0, 8))
    assert [(p.numerator, p.denominator) for p in s.precisions] == [(9, 10), (1, 10), (1, 9)]
    assert s.bp == math.exp(1 - 11 / 10) and (s.r, s.c, s.refs, s.max_n) == (11, 10, 2, 3)
    assert s.stats is stats and s.signature.endswith(
        "|n:3|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:2"
    )
    assert s.bleu == pytest.approx(s.bp * (0.9 * 0.1 / 9) ** (1 / 3), abs=1e-15)
    assert score_from_stats(stats, smoothing="none").bleu == 0.0
    with pytest.raises(TypeError):
        score_from_stats(stats, 3, "add1")  # type: ignore[misc]  # the old (stats, max_n, smoothing) order
    # The empty-candidate rule: BP 0, precisions 0 / 0 with no value, never smoothed, whatever the smoothing.
    empty = score_from_stats(Stats((0, 0), (0, 0), 0, 7), smoothing="add1")
    assert (empty.bleu, empty.bp, empty.precisions) == (0.0, 0.0, (Precision(0, 0), Precision(0, 0)))
    assert [(p.numerator, p.denominator, p.value, p.smoothed) for p in empty.precisions] == [(0, 0, None, False)] * 2
    assert empty.smoothing == "add1" and "|smooth:add1|" in empty.signature


def test_signature_names_the_scoring_version() -> None:
    from bleu_xl.core.metrics.bleu import SCORING_VERSION

    assert SCORING_VERSION == "0.2.0"  # the definition's version, not the package's
    assert (
        bleu_xl.signature()
        == "bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1"
    )


# --- many candidates and corpus --------------------------------------------------------------------------


def test_score_many_equals_score() -> None:
    cands = [INTACTO, SHORT, PARAPHRASE, "", REF]
    assert score_many(REF, cands) == [score(REF, c) for c in cands]
    refs = [REF, "o produto chegou bem embalado"]
    assert score_many(refs, cands, max_n=3) == [score(refs, c, max_n=3) for c in cands]


_words = st.lists(st.sampled_from(["a", "b", "c", "été", "東", "京"]), max_size=10).map(" ".join)


@given(
    refs=st.one_of(_words, st.lists(_words, min_size=1, max_size=3)),
    cands=st.lists(_words, max_size=16),
    max_n=st.integers(1, 4),
    smoothing=st.sampled_from(["add1", "none"]),
)
def test_score_many_is_one_pair_at_a_time(refs, cands, max_n: int, smoothing: str) -> None:
    """score_many's one loop (the references read once, the clipping in line) gives what each pair gives on its
    own, through pair_stats and score_from_stats: repeated n-grams on either side, several references, every order."""
    from bleu_xl.core.metrics.base import Metric

    metric = bleu_xl.Bleu(max_n=max_n, smoothing=smoothing)
    try:
        prepared = metric.prepare(refs)
    except BleuError:
        return
    one_at_a_time = Metric.score_many(metric, prepared, cands)  # the generic loop over pair_stats
    assert metric.score_many(refs, cands) == one_at_a_time == [metric.sentence_score(refs, c) for c in cands]
    assert score_many(prepared, cands, max_n=max_n, smoothing=smoothing) == one_at_a_time


def test_score_many_with_several_references_and_orders() -> None:
    refs = ["the cat sat on the mat", "a cat was on the mat", ""]
    cands = ["the cat sat on the mat", "on the mat a cat", "", "dog"]
    for n in (1, 3):
        assert score_many(refs, cands, max_n=n) == [score(refs, c, max_n=n) for c in cands]
    many = score_many(refs, cands, max_n=3)
    assert many[0].bleu == 1.0 and many[0].refs == 2 and many[2].c == 0
    assert many[1].precisions[:2] == (Precision(5, 5), Precision(3, 4))  # "mat a" is in neither and many[1].r == 6


def test_score_many_reuses_prepared_references() -> None:
    prepared = bleu_xl.References(REF, 2)
    assert score_many(prepared, [SHORT]) == [score(REF, SHORT)]
    with pytest.raises(BleuError, match="max_n"):
        score_many(prepared, [SHORT], max_n=4)


def test_corpus_score_sums_statistics() -> None:
    refs = [REF, REF, "東京タワーに行きました"]
    cands = [INTACTO, SHORT, "東京タワーへ行った"]
    s = corpus_score(refs, cands)
    # matches 9+5+7, totals 10+5+9; bigrams 8+4+4 over 9+4+8; c = 10+5+9, r = 11+11+11
    assert s.precisions == (Precision(21, 24), Precision(16, 21))
    assert (s.c, s.r) == (24, 33)
    assert s.bleu == pytest.approx(math.exp(1 - 33 / 24) * math.sqrt(21 / 24 * 16 / 21))


def test_corpus_errors() -> None:
    with pytest.raises(BleuError, match="2 references but 1 candidates"):
        corpus_score([REF, REF], [SHORT])
    with pytest.raises(BleuError):
        corpus_score([], [])
    with pytest.raises(TypeError):
        corpus_score(REF, SHORT)  # type: ignore[arg-type]
    assert corpus_score([REF], [REF]).bleu == 1.0


def test_wrong_kinds_of_input_are_type_errors_with_their_type_named() -> None:
    for bad in (b"a b", bytearray(b"a b")):
        with pytest.raises(TypeError, match=type(bad).__name__):
            score(bad, "a b")
        with pytest.raises(TypeError, match=type(bad).__name__):
            score_many("a b", bad)
    with pytest.raises(TypeError, match="dict"):
        score({"a b": 1}, "a b")  # a mapping is iterable, but its keys are no reference set


def test_prepared_references_of_another_order_are_refused_everywhere() -> None:
    two = References("a b c d", 2)
    with pytest.raises(BleuError, match="prepared for max_n=2, not 4"):
        corpus_score([two, two], ["a b c d", "a b"], max_n=4)
    with pytest.raises(BleuError, match="prepared for max_n=2, not 4"):
        bleu_xl.bootstrap_ci([two, two], ["a b c d", "a b"], max_n=4, samples=10)
    with pytest.raises(BleuError, match="prepared for max_n=4, not 2"):
        list(bleu_xl.core.metrics.bleu.corpus_stats([References("a b c d", 4)], ["a b c d"], 2))


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=9),
    smoothing=st.sampled_from(["add1", "none"]),
)
def test_a_scores_detail_row_is_its_precisions(counts: list[tuple[int, int]], smoothing: str) -> None:
    """The detail columns written for every row are each precision's value and fraction, BP, r and c."""
    totals = tuple(max(t, m) for m, t in counts)
    stats = bleu.Stats(tuple(m for m, _ in counts), totals, totals[0], 7)
    scored = bleu.score_from_stats(stats, smoothing=smoothing)
    expected = [x for p in scored.precisions for x in (p.value, p.numerator, p.denominator)]
    assert bleu.detail_row(scored) == [*expected, scored.bp, scored.r, scored.c]
