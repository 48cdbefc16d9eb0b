"""explain: what a candidate misses and adds against the reference that decided its score, order by order."""

from __future__ import annotations

import bleu_xl
from bleu_xl import explain
from tests.helpers import INTACTO, REF


def test_explain_seed_example() -> None:
    e = explain(REF, INTACTO)
    assert e.summary() == "missing: bem, embalado | extra: intacto | bigrams missed: veio bem, bem embalado"
    words, bigrams = e.orders
    assert words.matched[:3] == (("a", 1), ("entrega", 1), ("chegou", 1)) and len(words.matched) == 9
    assert words.extra == (("intacto", 1),)
    assert bigrams.extra == (("veio intacto", 1),)
    assert bigrams.missing == (("veio bem", 1), ("bem embalado", 1))
    assert e.score == bleu_xl.score(REF, INTACTO)
    assert e.matched_tokens() == (True,) * 9 + (False,)


def test_explain_clipping_several_references_and_cjk() -> None:
    e = explain(["the cat is on the mat", "there is a cat on the mat"], "the the the cat")
    words = e.orders[0]
    assert ("the", 2) in words.matched and ("the", 1) in words.extra  # clipped at 2 (the first reference)
    assert e.matched_tokens() == (True, True, False, True)
    assert explain("東京タワー", "東京").summary() == "missing: タ, ワ, ー | bigrams missed: 京タ, タワ, ワー"
    assert explain("le chat", "Le chat!").summary() == "exact match"
    assert "missing: the ×2" in explain("the the cat", "cat").summary()


def test_explain_with_several_references_reports_gaps_against_the_reference_that_decided_r() -> None:
    assert explain(["the cat sat", "a dog ran"], "the cat sat").summary() == "exact match"
    assert explain(["the cat", "the cat sat on the mat"], "the cat").summary() == "exact match"
    # r = 5 (the closest length to 4): what is missing is missing from that reference only
    e = explain(["a b c d e", "x y z w v u t s"], "a b c d")
    assert e.score.r == 5 and e.summary() == "missing: e | bigrams missed: d e"
    # a one-word candidate has no bigram: the order is left out of the score, and the summary says so
    left_out = "bigrams left out of the score: the candidate has only 1 word"
    assert explain("a", "a", smoothing="none").summary() == f"exact match | {left_out}"


def test_a_score_of_one_is_an_exact_match_only_when_the_tokens_are_a_references() -> None:
    # The same words and word pairs in another order, or words of two references, score 1 under BLEU-2 too.
    reordered = explain("Free shipping, free returns, free gifts", "Free returns, free shipping, free gifts")
    mixed = explain(["a b c", "c d e"], "a b c d e")
    for explanation in (reordered, mixed):
        assert explanation.score.bleu == 1.0
        assert not explanation.identical
        assert explanation.summary() == "every n-gram matches, though no reference reads so"
    assert explain(["c d e", "A b, c!"], "a b c").identical


def test_with_several_references_a_reference_text_is_an_exact_match_and_stray_bigrams_are_named() -> None:
    # Identical to the second reference: its misses against the first of the same length are no misses.
    same = explain(["Free shipping on all orders", "Free delivery on every order"], "Free delivery on every order")
    assert same.identical and same.summary() == "exact match"
    # Every word is a reference's, but "today order" is in none: not "every n-gram matches".
    stray = explain(["Order now", "Free shipping today"], "Free shipping today order now")
    assert stray.score.bleu < 1 and stray.summary() == "extra bigrams: today order"
