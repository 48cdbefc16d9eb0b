"""Scoring 0.2 in Python: orders the candidate has no n-gram of are left out of the geometric mean (sacrebleu's
effective order), Thai is scored per cluster, and short copy and Thai get the values the rules give."""

from __future__ import annotations

import math
import random

import pytest
from sacrebleu.metrics import BLEU

from benchmarks.synthetic import make_pairs
from bleu_xl import bootstrap_ci, corpus_score, paired_test, score, score_many, signature, tokenize
from bleu_xl.core.explain import explain
from bleu_xl.core.metrics.bleu import Precision, Stats, score_from_stats

THAI_REF = "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้"  # free delivery on every order this week
THAI_NEAR = THAI_REF.replace("ฟรี", "")  # the same without "free"
THAI_UNRELATED = "ลดราคา"  # "discount"

# The scoring definition's examples (short copy, Thai): (reference, candidate, expected BLEU-2), the expected
# values written as arithmetic on the counts.
TABLE = [
    ("Shop", "Buy", 1 / 2),  # p1 0/1 -> add-1 1/2; no bigram: left out; BP 1
    ("Shop now", "Shop", math.exp(1 - 2 / 1)),  # p1 1/1; BP alone
    ("Shop", "Shop", 1.0),
    ("Shop now", "Buy now", math.sqrt(1 / 2 * 1 / 2)),  # p1 1/2, p2 0/1 -> 1/2
    ("Total", "5", 1 / 2),  # a sheet's totals row: no longer ranked first
    # 27 clusters against 25: p1 25/25, p2 23/24 (งฟ, ฟรี and รีสํ replaced by one bigram, งสํ)
    (THAI_REF, THAI_NEAR, math.exp(1 - 27 / 25) * math.sqrt(25 / 25 * 23 / 24)),
    # 6 clusters: ด and า twice match (p1 3/6), no bigram does (p2 0/5 -> 1/6)
    (THAI_REF, THAI_UNRELATED, math.exp(1 - 27 / 6) * math.sqrt(3 / 6 * 1 / 6)),
]


@pytest.mark.parametrize(("reference", "candidate", "expected"), TABLE)
def test_short_copy_and_thai_score_as_the_definition_says(reference: str, candidate: str, expected: float) -> None:
    s = score(reference, candidate)
    assert s.bleu == pytest.approx(expected, rel=0, abs=1e-12)
    assert score_many(reference, [candidate])[0] == s
    assert corpus_score([reference], [candidate]).bleu == pytest.approx(expected, rel=0, abs=1e-12)


def test_thai_near_perfect_now_far_above_the_unrelated() -> None:
    assert len(tokenize(THAI_REF)) == 27 and len(tokenize(THAI_NEAR)) == 25 and len(tokenize(THAI_UNRELATED)) == 6
    near, unrelated = score(THAI_REF, THAI_NEAR).bleu, score(THAI_REF, THAI_UNRELATED).bleu
    assert near > 0.9 and unrelated < 0.01


def test_the_seed_values_are_unchanged() -> None:
    ref = "a entrega chegou no prazo e o produto veio bem embalado"
    bleu4 = {
        "a entrega chegou no prazo e o produto veio intacto": 0.796,
        "a entrega chegou no prazo": 0.301,
        "o pedido foi entregue dentro do prazo e chegou bem embalado": 0.0,
    }
    for candidate, expected in bleu4.items():
        assert round(score(ref, candidate, max_n=4, smoothing="none").bleu, 3) == expected


def test_an_order_left_out_has_no_value() -> None:
    s = score("Shop now", "Shop")
    assert s.precisions == (Precision(1, 1), Precision(0, 0))
    assert (s.p1, s.p2) == (1.0, None)
    p2 = s.precisions[1]
    assert p2.left_out and (p2.numerator, p2.denominator, p2.smoothed) == (0, 0, False)
    assert s.as_dict()["p2"] == {"value": None, "numerator": 0, "denominator": 0, "smoothed": False}
    # add-1 still smooths an order the candidate has n-grams of, and "none" still gives 0 there
    assert score("Shop now", "Buy now").precisions[1] == Precision(0, 1) and score("a b", "c d").p2 == 1 / 2
    assert score("a b", "c d", smoothing="none").p2 == 0.0 and score("a b", "c d", smoothing="none").bleu == 0.0
    # an empty candidate: 0 with BP 0, every order 0 / 0 with no value
    empty = score("Shop now", "!!!")
    assert (empty.bleu, empty.bp, empty.p1, empty.p2) == (0.0, 0.0, None, None)


@pytest.mark.parametrize("max_n", [1, 2, 3, 4, 9])
def test_orders_left_out_at_any_max_n(max_n: int) -> None:
    for length in range(0, 11):
        cand = " ".join(f"w{i}" for i in range(length))
        s = score("w0 w1 w2 w3 w4 w5 w6 w7 w8 w9", cand, max_n=max_n)
        assert [p.left_out for p in s.precisions] == [n > length for n in range(1, max_n + 1)]
        # every kept order matches: BLEU is the brevity penalty alone
        assert s.bleu == (0.0 if length == 0 else pytest.approx(math.exp(1 - 10 / length), rel=1e-15))


def test_corpus_statistics_leave_out_an_order_only_when_no_candidate_has_it() -> None:
    one_word = corpus_score(["shop", "sale now"], ["buy", "sale"])  # c 2, r 3, p1 1/2, no bigram at all
    assert one_word.stats == Stats((1, 0), (2, 0), 2, 3)
    assert one_word.bleu == pytest.approx(math.exp(1 - 3 / 2) * (1 / 2))
    mixed = corpus_score(["shop", "sale now"], ["buy", "sale now"])  # one bigram in the corpus: it counts
    assert mixed.stats == Stats((2, 1), (3, 1), 3, 3)
    assert mixed.bleu == pytest.approx(math.sqrt(2 / 3 * 1 / 1))
    assert score_from_stats(Stats((0, 0), (0, 0), 0, 3)).bleu == 0.0


def test_bootstrap_and_paired_test_resample_with_the_same_rule() -> None:
    refs, one_word = ["shop", "sale", "new"], ["shop", "buy", "new"]
    # Every resample of three one-word pairs has c = r = 3 and no bigram: its score is p1 alone, k / 3 for k
    # matches (1 / 4 with add-1 when none), never sqrt(p1) as an add-1 bigram of 1 / 1 would make it.
    possible = {1 / 4, 1 / 3, 2 / 3, 1.0}
    interval = bootstrap_ci(refs, one_word, samples=200, seed=3)
    assert interval.score == corpus_score(refs, one_word).bleu == 2 / 3
    assert {interval.low, interval.high} <= possible
    result = paired_test(refs, one_word, refs, samples=200, seed=3)
    assert (result.score_a, result.score_b) == (2 / 3, 1.0)
    assert {result.interval_a.low, result.interval_a.high} <= possible


def _sacre(max_n: int) -> BLEU:
    return BLEU(tokenize="none", max_ngram_order=max_n, smooth_method="none", effective_order=True)


@pytest.mark.parametrize("max_n", [2, 4])
def test_sacrebleus_effective_order_coincides_for_candidates_shorter_than_n(max_n: int) -> None:
    """sacrebleu (effective_order=True, no smoothing) on bleu-xl's tokens gives bleu-xl's smoothing="none", on
    candidates of 0 to max_n tokens, where the two disagreed before 0.2."""
    rng = random.Random(19)
    metric = _sacre(max_n)
    refs, cands = [], []
    short = 0
    for ref, text in make_pairs(600, seed=19):
        words = tokenize(text)
        cand = " ".join(words[: rng.randint(0, max_n)]) if rng.random() < 0.7 else text
        if not tokenize(ref):
            continue
        ours = score(ref, cand, max_n=max_n, smoothing="none")
        theirs = metric.sentence_score(" ".join(tokenize(cand)), [" ".join(tokenize(ref))])
        assert (ours.c, ours.r) == (theirs.sys_len, theirs.ref_len)
        assert abs(ours.bleu - theirs.score / 100) < 1e-12, (ref, cand)
        short += 0 < ours.c < max_n
        refs.append(ref)
        cands.append(cand)
    assert short > 100  # the comparison is about short candidates, not vacuous
    ours = corpus_score(refs, cands, max_n=max_n, smoothing="none")
    theirs = metric.corpus_score([" ".join(tokenize(c)) for c in cands], [[" ".join(tokenize(r)) for r in refs]])
    assert abs(ours.bleu - theirs.score / 100) < 1e-12
    # a corpus of one-word candidates only: sacrebleu leaves the orders out there too
    words = [" ".join(tokenize(c)[:1]) or "x" for c in cands[:50]]
    ours = corpus_score(refs[:50], words, max_n=max_n, smoothing="none")
    theirs = metric.corpus_score(words, [[" ".join(tokenize(r)) for r in refs[:50]]])
    assert ours.stats.totals[1] == 0 and abs(ours.bleu - theirs.score / 100) < 1e-12


def test_the_signature_names_the_definition() -> None:
    assert signature() == ("bleu-xl:0.2.0|n:2|smooth:add1|order:effective|tok:words+cjk+sea|norm:nfkc-casefold|refs:1")
    assert score("a", "a", max_n=4, smoothing="none").signature == signature(4, "none")


def test_explain_says_which_orders_were_left_out_and_why() -> None:
    assert explain("Shop now", "Shop").summary() == (
        "missing: now | bigrams left out of the score: the candidate has only 1 word"
    )
    assert explain("a b c d", "a b", max_n=4).summary() == (
        "missing: c, d | bigrams missed: b c, c d | trigrams, 4-grams left out of the score: the candidate has only "
        "2 words"
    )
    assert explain("Shop now", "Buy now").summary() == "missing: shop | extra: buy | bigrams missed: shop now"
    assert explain("Shop now", "").left_out() == ()  # an empty candidate scores 0: nothing is left out
    # Thai n-grams are written as Thai is, without spaces
    assert explain(THAI_REF, THAI_NEAR).summary() == "missing: ฟ, รี | bigrams missed: งฟ, ฟรี, รีสํ"
